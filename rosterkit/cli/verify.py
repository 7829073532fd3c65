"""`rosterkit verify`: whether a roster has a given fingerprint."""

from __future__ import annotations

from .opening import notice_version, open_roster
from .output import EXIT_ERRORS, EXIT_OK, Out


def handle(args, registry) -> int:
    from ..engine.fingerprint import differing_parts, fingerprint, normalise
    from ..errors import Problem, UnreadableError

    expected = normalise(args.fingerprint)
    if expected is None:
        raise UnreadableError(Problem(f"'{args.fingerprint}' is not a fingerprint: expected 16 letters and digits "
                                      "as XXXX-XXXX-XXXX-XXXX (rosterkit fingerprint ROSTER prints one)"))
    opened = open_roster(registry, args.roster)
    notice_version(opened)
    actual = fingerprint(opened.report)
    out = Out()
    if actual.code == expected:
        out.line(("match: ", "bold green"), f"{args.roster} is the list with fingerprint {expected}")
        return EXIT_OK
    parts = differing_parts(actual, expected)
    what = ", ".join(parts) if parts else "the list (no single part can be named)"
    out.line(("no match: ", "bold red"), f"{args.roster} has fingerprint {actual.code}, not {expected}; "
             f"differs in: {what}")
    return EXIT_ERRORS
