"""`rosterkit update`: the installed ruleset's version and each unit's points recorded in a roster."""

from __future__ import annotations

from .opening import open_roster
from .output import EXIT_OK, Out, print_findings, print_version_change


def handle(args, registry) -> int:
    from ..errors import Problem, RosterkitError
    from ..files.rosters import ChangedOnDisk, save_roster

    opened = open_roster(registry, args.roster)
    out = Out()
    change = opened.version_change
    recorded_version = opened.roster.ruleset_version
    if change is not None:
        out.line(f"{args.roster}:")
        print_version_change(out, opened)
        print_findings(out, opened.findings)
    if args.dry_run:
        out.line("nothing written (--dry-run)")
        return EXIT_OK
    try:
        if opened.disk is None:  # no file a moment before it was read
            raise ChangedOnDisk(opened.path, "it appeared as it was read")
        save_roster(opened.roster, opened.path, report=opened.report, expect=opened.disk)
    except ChangedOnDisk as exc:
        raise RosterkitError(Problem(f"the file changed while updating ({exc.reason}); nothing was written",
                                     file=args.roster, hint="run rosterkit update again")) from None
    if change is None and recorded_version == opened.ruleset.data.version:
        out.line(f"{args.roster}: already recorded against {opened.ruleset.name} version "
                 f"{opened.ruleset.data.version}; points brought up to date")
    else:
        out.line(f"{args.roster}: ", ("recorded ", "bold green"),
                 f"{opened.ruleset.name} version {opened.ruleset.data.version} and each unit's points")
    return EXIT_OK
