"""Asked on saving over a roster file another program changed since it was opened or saved here."""

from __future__ import annotations

from typing import Literal

from textual.binding import Binding

from ...visible import visible
from .choice_dialog import ChoiceDialog

Answer = Literal["mine", "theirs", "save_as", "cancel"]


class FileChangedScreen(ChoiceDialog[Answer]):
    BINDINGS = [
        Binding("k", "answer('mine')", "Keep mine", id="changed.mine"),
        Binding("l", "answer('theirs')", "Load theirs", id="changed.theirs"),
        Binding("a", "answer('save_as')", "Save as", id="changed.save_as"),
        Binding("escape,c", "answer('cancel')", "Cancel", id="changed.cancel"),
    ]
    DIALOG_ID = "file-changed"

    def __init__(self, file_name: str, unsaved: bool) -> None:
        name = visible(file_name)
        theirs = "your unsaved changes are kept as recovered work" if unsaved else "nothing here is lost"
        super().__init__("Changed on disk",
                         f"{name} was changed by another program since it was opened or saved here. "
                         f"Keep mine: write this roster over it (its version is kept as {name}.bak). "
                         f"Load theirs: open the file as it is now ({theirs}). "
                         "Save as: write this roster to another file.")
        self.file_name = file_name
        self.unsaved = unsaved

    def buttons(self) -> list[tuple[str, str, str]]:
        return [("mine", "Keep mine", "warning"), ("theirs", "Load theirs", "default"),
                ("save_as", "Save as…", "primary"), ("cancel", "Cancel", "default")]

    def first(self) -> str:
        return "save_as"
