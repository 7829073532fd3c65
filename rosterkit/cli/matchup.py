"""`rosterkit matchup A B`: two rosters checked as a match-up (and each on its own)."""

from __future__ import annotations

from .validate import check


def handle(args, registry) -> int:
    args.rosters = [args.a, args.b]
    args.summary = args.csv = False
    return check(args, registry, [(args.a, args.b, None)])
