"""Asked when leaving a roster with unsaved changes: save, discard or stay."""

from __future__ import annotations

from typing import Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

Answer = Literal["save", "discard", "cancel"]


class ConfirmQuitScreen(ModalScreen[Answer]):
    BINDINGS = [
        Binding("s", "answer('save')", "Save"),
        Binding("d", "answer('discard')", "Discard"),
        Binding("escape,c", "answer('cancel')", "Cancel"),
    ]

    def __init__(self, names: list[str], leaving: str = "quitting") -> None:
        super().__init__()
        self.names = names
        self.leaving = leaving

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="confirm-quit"):
            yield Label("Unsaved changes", classes="dialog-title", markup=False)
            listed = ", ".join(self.names)
            yield Static(f"{listed} {'has' if len(self.names) == 1 else 'have'} changes that are not saved. "
                         f"Save before {self.leaving}?", classes="dialog-text", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save", id="save", variant="primary", compact=True)
                yield Button("Discard changes", id="discard", variant="error", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one("#save", Button).focus()

    def action_answer(self, answer: Answer) -> None:
        self.dismiss(answer)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)  # type: ignore[arg-type]
