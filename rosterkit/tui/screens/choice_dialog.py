"""A question with a few answers, one button and one key each: the dialogs that ask before a
change (unsaved changes, a file changed on disk, recovered work, deleting a figure)."""

from __future__ import annotations

from typing import Generic, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from ...visible import plain

A = TypeVar("A")


class ChoiceDialog(ModalScreen[A], Generic[A]):
    """Subclasses give their keys (``BINDINGS`` running ``answer(...)``), their buttons, the button
    focused first and the answer each button gives."""

    DIALOG_ID = "choice-dialog"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-wide")]  # narrow: the buttons as wide as their labels

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text

    def buttons(self) -> list[tuple[str, str, str]]:
        """(button id, label, variant) for each answer."""
        raise NotImplementedError

    def first(self) -> str:
        """The button focused first."""
        raise NotImplementedError

    def answer_of(self, button: str) -> A:
        return button  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id=self.DIALOG_ID):
            yield Label(self.title_text, classes="dialog-title", markup=False)
            yield Static(self.text, classes="dialog-text", markup=False)
            with Horizontal(classes="dialog-buttons"):
                for button_id, label, variant in self.buttons():
                    yield Button(plain(label), id=button_id, variant=variant, compact=True)  # type: ignore[arg-type]

    def on_mount(self) -> None:
        self.query_one(f"#{self.first()}", Button).focus()

    def action_answer(self, answer: A) -> None:
        self.dismiss(answer)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(self.answer_of(event.button.id or ""))
