"""Small dialogs for the player's own figures: name one, and confirm a deletion."""

from __future__ import annotations

from collections.abc import Callable

from textual.binding import Binding

from .choice_dialog import ChoiceDialog
from .text_dialog import TextDialog


class FigureNameScreen(TextDialog[str]):
    """Asks for a figure's name; ``check`` returns a problem with a name, or None."""

    DIALOG_ID, INPUT_ID, MESSAGE_ID = "figure-name", "figure-name-input", "figure-name-message"
    MAX_LENGTH = 200

    def __init__(self, title: str, text: str, suggestion: str, check: Callable[[str], str | None]) -> None:
        super().__init__(title, text, suggestion)
        self.check = check

    def verdict(self, text: str) -> tuple[str | None, str | None, str | None]:
        name = " ".join(text.split())
        problem = "Enter a name" if not name else self.check(name)
        return (None if problem else name), problem, None


class ConfirmFigureScreen(ChoiceDialog[bool]):
    """Yes or no for a change to the player's figures file (it is outside the roster's undo)."""

    BINDINGS = [Binding("escape,n", "answer(False)", "Keep", id="figure.keep"),
                Binding("y", "answer(True)", "Delete", id="figure.delete")]
    DIALOG_ID = "confirm-figure"

    def __init__(self, title: str, text: str, yes: str = "Delete") -> None:
        super().__init__(title, text)
        self.yes = yes

    def buttons(self) -> list[tuple[str, str, str]]:
        return [("yes", self.yes, "error"), ("no", "Keep it", "default")]

    def first(self) -> str:
        return "no"

    def answer_of(self, button: str) -> bool:
        return button == "yes"
