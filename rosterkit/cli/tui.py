"""`rosterkit tui` (and `rosterkit` alone, or with a roster): the terminal interface."""

from __future__ import annotations

from .output import as_path


def handle(args, registry) -> int:
    from ..errors import Problem, UnreadableError
    from ..tui.app import run_app

    if args.roster is not None:
        try:
            as_path(args.roster).exists()
        except OSError as exc:  # a name too long, a folder that cannot be searched: said before the screen opens
            raise UnreadableError(Problem(f"cannot open: {exc.strerror or exc}", file=args.roster)) from None

    return run_app(args.roster, registry)
