"""Offered when a roster has unsaved work left by a crash, or kept aside when the file's own
version was loaded: restore it or throw it away."""

from __future__ import annotations

from textual.binding import Binding

from ...rules.numbers import fmt
from .choice_dialog import ChoiceDialog


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


class RecoveryOfferScreen(ChoiceDialog[bool]):
    BINDINGS = [
        Binding("r", "answer(True)", "Restore", id="recovery.restore"),
        Binding("d", "answer(False)", "Discard", id="recovery.discard"),
        Binding("escape", "answer(False)", "Discard", show=False, id="recovery.dismiss"),
    ]
    DIALOG_ID = "recovery-offer"

    def __init__(self, name: str, file_units: int | None, recovered_units: int, when: str,
                 total: object = None, kept_aside: bool = False) -> None:
        super().__init__("Recover unsaved changes?",
                         offer_text(name, file_units, recovered_units, when, total, kept_aside))
        self.roster_name = name
        self.file_units = file_units
        self.recovered_units = recovered_units
        self.when = when
        self.total = total
        self.kept_aside = kept_aside  # set aside by "Load theirs", not left by a window that closed

    def buttons(self) -> list[tuple[str, str, str]]:
        return [("restore", "Restore", "primary"), ("discard", "Discard", "error")]

    def first(self) -> str:
        return "restore"

    def answer_of(self, button: str) -> bool:
        return button == "restore"
