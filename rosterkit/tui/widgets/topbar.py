"""One line at the top of every screen: where you are on the left, the state on the right."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from .lines import ByWidth


class TopBar(Static):
    left: reactive[Text | str] = reactive(Text(""), layout=False, repaint=False)
    right: reactive[Text | str] = reactive(Text(""), layout=False, repaint=False)

    def __init__(self, left: Text | str = "", right: Text | str = "", *, id: str | None = None) -> None:
        super().__init__(ByWidth(self.line), id=id)
        self.set_reactive(TopBar.left, left)
        self.set_reactive(TopBar.right, right)

    # one line, always: a new text needs no new layout of the screen
    def watch_left(self) -> None:
        self.update(ByWidth(self.line), layout=False)

    def watch_right(self) -> None:
        self.update(ByWidth(self.line), layout=False)

    @property
    def plain(self) -> str:
        """What the bar says (at the width it is drawn at)."""
        return self.line(self.content_region.width).plain

    def line(self, width: int) -> Text:
        left = self.left if isinstance(self.left, Text) else Text(self.left)
        right = self.right if isinstance(self.right, Text) else Text(self.right)
        width = width or 80
        text = Text.assemble((" rosterkit ", "bold reverse"), " ")
        text.append_text(left)
        room = width - text.cell_len - right.cell_len - 1
        if room < 1:
            text.truncate(max(0, width - right.cell_len - 2), overflow="ellipsis")
            room = 1
        text.append(" " * room)
        text.append_text(right)
        text.append(" ")
        text.no_wrap = True
        return text
