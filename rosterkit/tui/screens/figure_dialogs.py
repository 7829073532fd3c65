"""Small dialogs for the player's own figures: name one, and confirm a deletion."""

from __future__ import annotations

from collections.abc import Callable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from ...visible import plain
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


class ConfirmFigureScreen(ModalScreen[bool]):
    """Yes or no for a change to the player's figures file (it is outside the roster's undo)."""

    BINDINGS = [Binding("escape,n", "answer(False)", "Keep"), Binding("y", "answer(True)", "Delete")]

    def __init__(self, title: str, text: str, yes: str = "Delete") -> None:
        super().__init__()
        self.title_text = title
        self.text = text
        self.yes = yes

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="confirm-figure"):
            yield Label(self.title_text, classes="dialog-title", markup=False)
            yield Static(self.text, classes="dialog-text", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button(plain(self.yes), id="yes", variant="error", compact=True)
                yield Button("Keep it", id="no", compact=True)

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")
