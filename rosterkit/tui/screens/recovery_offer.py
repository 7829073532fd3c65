"""Offered when a roster has unsaved work left by a crash, or kept aside when the file's own
version was loaded: restore it or throw it away."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from ...rules.numbers import fmt


def offer_text(name: str, file_units: int | None, recovered_units: int, when: str, total: object = None,
               kept_aside: bool = False) -> str:
    """What the offer says happened: work set aside by loading the file's own version, or left
    by a window that closed without saving it."""
    happened = "were set aside when the file's own version was loaded" if kept_aside else \
        "were left when rosterkit closed"
    text = (f"Unsaved changes to {name} {happened} "
            f"(saved aside {when}: {recovered_units} unit{'s' if recovered_units != 1 else ''}")
    if total is not None:
        text += f", {fmt(total)} points"
    text += ")."
    if file_units is not None:
        text += f" The file on disk has {file_units} unit{'s' if file_units != 1 else ''}."
    return text + " Restore them? They stay unsaved until you press ctrl+s."


class RecoveryOfferScreen(ModalScreen[bool]):
    BINDINGS = [
        Binding("r", "answer(True)", "Restore"),
        Binding("d", "answer(False)", "Discard"),
        Binding("escape", "answer(False)", "Discard", show=False),
    ]

    def __init__(self, name: str, file_units: int | None, recovered_units: int, when: str,
                 total: object = None, kept_aside: bool = False) -> None:
        super().__init__()
        self.roster_name = name
        self.file_units = file_units
        self.recovered_units = recovered_units
        self.when = when
        self.total = total
        self.kept_aside = kept_aside  # set aside by "Load theirs", not left by a window that closed

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="recovery-offer"):
            yield Label("Recover unsaved changes?", classes="dialog-title", markup=False)
            text = offer_text(self.roster_name, self.file_units, self.recovered_units, self.when, self.total,
                              self.kept_aside)
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
