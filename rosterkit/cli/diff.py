"""`rosterkit diff`: the units added, removed and changed between two rosters."""

from __future__ import annotations

from .opening import notice_version, open_roster
from .output import EXIT_ERRORS, EXIT_OK, Out


def handle(args, registry) -> int:
    from ..engine.diff import diff
    from ..rules.numbers import fmt

    old, new = open_roster(registry, args.old), open_roster(registry, args.new)
    for o in (old, new):
        notice_version(o)
    d = diff(old.report, new.report)
    out = Out()
    label = new.ruleset.data.points_label
    out.line(f"--- {args.old}: {old.roster.name}, {fmt(old.report.total)} {old.ruleset.data.points_label}")
    out.line(f"+++ {args.new}: {new.roster.name}, {fmt(new.report.total)} {label}")
    for line in d.army:
        out.line(("~ army: ", "yellow"), line)
    for u in d.removed:
        out.line(("- ", "red"), f"{u.name} [{fmt(u.before)} {old.ruleset.data.points_label}]: ", *u.changes)
    for u in d.added:
        out.line(("+ ", "green"), f"{u.name} [{fmt(u.after)} {label}]: ", *u.changes)
    for u in d.changed:
        out.line(("~ ", "yellow"), f"{u.name} [{fmt(u.before)} -> {fmt(u.after)} {label}]"
                 + (": " + "; ".join(u.changes) if u.changes else ": points only (the rules changed)"))
    if d.same:
        out.line("no changes to the army")
    delta = new.report.total - old.report.total
    out.line(("total: ", "bold"), f"{fmt(old.report.total)} -> {fmt(new.report.total)} {label}"
             + (f" ({'+' if delta > 0 else ''}{fmt(delta)})" if delta else ""))
    return EXIT_OK if d.same or not args.exit_code else EXIT_ERRORS
