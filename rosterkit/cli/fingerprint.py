"""`rosterkit fingerprint`: a roster's fingerprint."""

from __future__ import annotations

from .opening import notice_version, open_roster
from .output import EXIT_OK, Out


def handle(args, registry) -> int:
    from ..engine.fingerprint import fingerprint

    for path in args.rosters:
        opened = open_roster(registry, path)
        notice_version(opened)
        code = fingerprint(opened.report).code
        Out().line(f"{code}  {path}" if len(args.rosters) > 1 else code)
    return EXIT_OK
