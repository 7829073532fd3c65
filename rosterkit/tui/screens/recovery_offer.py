"""Offered when a roster has unsaved work left by a crash: restore it or throw it away."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from ...rules.numbers import fmt


class RecoveryOfferScreen(ModalScreen[bool]):
    BINDINGS = [
        Binding("r", "answer(True)", "Restore"),
        Binding("d", "answer(False)", "Discard"),
        Binding("escape", "answer(False)", "Discard", show=False),
    ]

    def __init__(self, name: str, file_units: int | None, recovered_units: int, when: str,
                 total: object = None) -> None:
        super().__init__()
        self.roster_name = name
        self.file_units = file_units
        self.recovered_units = recovered_units
        self.when = when
        self.total = total

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="recovery-offer"):
            yield Label("Recover unsaved changes?", classes="dialog-title", markup=False)
            text = (f"rosterkit was closed with unsaved changes to {self.roster_name} "
                    f"(autosaved {self.when}: {self.recovered_units} unit{'s' if self.recovered_units != 1 else ''}")
            if self.total is not None:
                text += f", {fmt(self.total)} points"
            text += ")."
            if self.file_units is not None:
                text += f" The file on disk has {self.file_units} unit{'s' if self.file_units != 1 else ''}."
            text += " Restore them? They stay unsaved until you press ctrl+s."
            yield Static(text, classes="dialog-text", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Restore", id="restore", variant="primary", compact=True)
                yield Button("Discard", id="discard", variant="error", compact=True)

    def on_mount(self) -> None:
        self.query_one("#restore", Button).focus()

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "restore")
