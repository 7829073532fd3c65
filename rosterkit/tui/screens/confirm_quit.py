"""Asked when leaving a roster with unsaved changes: save, discard or stay."""

from __future__ import annotations

from typing import Literal

from textual.binding import Binding

from .choice_dialog import ChoiceDialog

Answer = Literal["save", "discard", "cancel"]


class ConfirmQuitScreen(ChoiceDialog[Answer]):
    BINDINGS = [
        Binding("s", "answer('save')", "Save", id="unsaved.save"),
        Binding("d", "answer('discard')", "Discard", id="unsaved.discard"),
        Binding("escape,c", "answer('cancel')", "Cancel", id="unsaved.cancel"),
    ]
    DIALOG_ID = "confirm-quit"

    def __init__(self, names: list[str], leaving: str = "quitting") -> None:
        listed = ", ".join(names)
        super().__init__("Unsaved changes", f"{listed} {'has' if len(names) == 1 else 'have'} changes that are "
                                            f"not saved. Save before {leaving}?")
        self.names = names
        self.leaving = leaving

    def buttons(self) -> list[tuple[str, str, str]]:
        return [("save", "Save", "primary"), ("discard", "Discard changes", "error"), ("cancel", "Cancel", "default")]

    def first(self) -> str:
        return "save"
