"""One line at the top of every screen: where you are on the left, the state on the right."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget


class TopBar(Widget):
    left: reactive[Text | str] = reactive(Text(""), layout=False)
    right: reactive[Text | str] = reactive(Text(""), layout=False)

    def __init__(self, left: Text | str = "", right: Text | str = "", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.set_reactive(TopBar.left, left)
        self.set_reactive(TopBar.right, right)

    def render(self) -> Text:
        left = self.left if isinstance(self.left, Text) else Text(self.left)
        right = self.right if isinstance(self.right, Text) else Text(self.right)
        width = self.content_region.width or 80
        text = Text.assemble((" rosterkit ", "bold reverse"), " ")
        text.append_text(left)
        room = width - text.cell_len - right.cell_len - 1
        if room < 1:
            text.truncate(max(0, width - right.cell_len - 2), overflow="ellipsis")
            room = 1
        text.append(" " * room)
        text.append_text(right)
        text.append(" ")
        return text
