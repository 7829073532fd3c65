"""What a screen asks of the app: posted by the screen, bubbled to the app and handled there,
so that no screen calls the app's or another screen's methods."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.message import Message

from ..editing.document import Change, Document
from ..editing.recovery import Recovery


class NewRoster(Message):
    """Make a new roster (the dialog asks for its ruleset, name, points and file)."""


class PasteList(Message):
    """Make a new roster from a list's text the player pastes or types."""


class OpenPastedList(Message):
    """Open a list read from pasted text as a new roster, not saved yet."""

    def __init__(self, imported) -> None:  # a rosterkit.files.listtext.Imported
        super().__init__()
        self.imported = imported


class LeavePlay(Message):
    """Close a game's screen (the game is saved as it goes); the app ends when nothing is under it."""

    def __init__(self, screen) -> None:
        super().__init__()
        self.screen = screen


class OpenFile(Message):
    """Ask which roster file to open, then open it."""


class OpenRoster(Message):
    """Open a roster file; a sample opens as an unsaved copy."""

    def __init__(self, path: Path, sample: bool = False) -> None:
        super().__init__()
        self.path = path
        self.sample = sample


class RestoreRecovery(Message):
    """Open recovered work chosen from the start screen's list."""

    def __init__(self, found: Recovery) -> None:
        super().__init__()
        self.found = found


class BrowseRuleset(Message):
    """Show a ruleset's figures, types, items and limits."""

    def __init__(self, ruleset_id: str) -> None:
        super().__init__()
        self.ruleset_id = ruleset_id


class SaveRequested(Message):
    """Save a document (asking where when it has no file, or what to do about a file changed on
    disk), then carry on with ``then``."""

    def __init__(self, document: Document, then: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.document = document
        self.then = then


class Saved(Message):
    """Sent by the app to the screens: a document was written to its file (``change``: what the
    values a save records changed). Not bubbled: each screen showing the document updates."""

    bubble = False

    def __init__(self, document: Document, change: Change | None) -> None:
        super().__init__()
        self.document = document
        self.change = change
