"""Asked on saving over a roster file another program changed since it was opened or saved here."""

from __future__ import annotations

from typing import Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from ...visible import visible

Answer = Literal["mine", "theirs", "save_as", "cancel"]


class FileChangedScreen(ModalScreen[Answer]):
    BINDINGS = [
        Binding("k", "answer('mine')", "Keep mine"),
        Binding("l", "answer('theirs')", "Load theirs"),
        Binding("a", "answer('save_as')", "Save as"),
        Binding("escape,c", "answer('cancel')", "Cancel"),
    ]

    def __init__(self, file_name: str, unsaved: bool) -> None:
        super().__init__()
        self.file_name = file_name
        self.unsaved = unsaved

    def compose(self) -> ComposeResult:
        name = visible(self.file_name)
        with Vertical(classes="dialog", id="file-changed"):
            yield Label("Changed on disk", classes="dialog-title", markup=False)
            theirs = "your unsaved changes are kept as recovered work" if self.unsaved else "nothing here is lost"
            yield Static(f"{name} was changed by another program since it was opened or saved here. "
                         f"Keep mine: write this roster over it (its version is kept as {name}.bak). "
                         f"Load theirs: open the file as it is now ({theirs}). "
                         "Save as: write this roster to another file.", classes="dialog-text", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Keep mine", id="mine", variant="warning", compact=True)
                yield Button("Load theirs", id="theirs", compact=True)
                yield Button("Save as…", id="save_as", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one("#save_as", Button).focus()

    def action_answer(self, answer: Answer) -> None:
        self.dismiss(answer)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)  # type: ignore[arg-type]
