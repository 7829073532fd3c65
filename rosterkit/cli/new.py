"""`rosterkit new`: an empty roster file."""

from __future__ import annotations

from .output import EXIT_OK, Out, as_path


def handle(args, registry) -> int:
    import dataclasses

    from pydantic import ValidationError

    from ..engine.roster import RosterFile
    from ..errors import Problem, RosterkitError
    from ..files.rosters import save_roster
    from ..files.tomlfile import validation_problems
    from ..rules.numbers import fmt

    rs = registry.resolve(args.ruleset)
    try:
        roster = RosterFile(name=args.name, ruleset=rs.id, ruleset_version=rs.data.version, points_limit=args.points)
    except ValidationError as exc:  # the options, worded as a file's keys are
        options = {"name": "--name", "points_limit": "--points"}
        raise RosterkitError([dataclasses.replace(p, key=options.get(p.key, p.key))
                              for p in validation_problems(exc, None, None)]) from None
    path = as_path(args.file)
    try:
        exists = path.exists()
    except OSError as exc:  # a name too long, a folder that cannot be searched
        raise RosterkitError(Problem(f"cannot save: {exc.strerror or exc}", file=str(path))) from None
    if exists and not args.force:
        raise RosterkitError(Problem("file exists; use --force to replace it (the old one is kept as .bak)",
                                     file=str(path)))
    save_roster(roster, path, keep_layout=False)
    points = f", {fmt(args.points)} {rs.data.points_label}" if args.points is not None else ""
    Out().line(f"Created {path}: {args.name} ({rs.name}{points})")
    return EXIT_OK
