"""`rosterkit rulesets`: the installed rulesets."""

from __future__ import annotations

from .output import EXIT_ERRORS, EXIT_OK, EXIT_UNREADABLE, Out, print_problems


def handle(args, registry) -> int:
    from ..errors import RosterkitError
    from ..files.rulesets import user_dir

    out = Out()
    rows, bad = [], False
    for path, rs in registry.all():
        if isinstance(rs, RosterkitError):
            bad = True
            rows.append(["?", "cannot load (see check-ruleset)", "", "", str(path)])
        else:
            rows.append([rs.id, rs.name, rs.data.version, rs.source_line(), str(path)])
    out.table("Installed rulesets", ["id", "name", "version", "source", "file"], rows, fold={3, 4})
    out.line(f"Your own rulesets go in {user_dir()} (or pass --rulesets DIR).")
    unsearchable = registry.unsearchable()
    for exc in unsearchable:
        print_problems(exc)
    return EXIT_UNREADABLE if unsearchable else EXIT_ERRORS if bad else EXIT_OK
