"""`rosterkit text`: a roster as plain text for a forum or chat."""

from __future__ import annotations

import sys

from .opening import notice_version, open_roster
from .output import EXIT_OK


def handle(args, registry) -> int:
    from ..engine.textlist import roster_text

    opened = open_roster(registry, args.roster)
    notice_version(opened)
    sys.stdout.write(roster_text(opened.report, markdown=args.markdown, valid=opened.validation.ok,
                                 compact=args.compact, points=not args.no_points))
    return EXIT_OK
