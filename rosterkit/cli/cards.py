"""`rosterkit cards`: unit record cards as a PDF (the work is the cards package's)."""

from __future__ import annotations

from .opening import notice_version


def handle(args, registry) -> int:
    from ..cards.command import run

    return run(args, registry, notice_version)  # the roster read once: the note comes from the opened roster
