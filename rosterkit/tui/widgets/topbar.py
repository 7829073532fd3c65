"""The top of every screen: where you are on the left, the state on the right. When the terminal
is too narrow for one line the bar takes two (or more), broken only between its parts: a roster's,
a ruleset's or a file's name is never cut."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from .lines import ByWidth, fitted

BADGE = Text(" rosterkit ", style="bold reverse")
LEFT_SEPARATOR = " · "  # between the parts of the left side (roster · ruleset · file)
RIGHT_SEPARATOR = "  "  # between the parts of the right side (total, findings, unsaved)


def _parts(text: Text | str, separator: str) -> list[Text]:
    text = text if isinstance(text, Text) else Text(text)
    return [part for part in text.split(separator, allow_blank=True) if part.plain]


class TopBar(Static):
    left: reactive[Text | str] = reactive(Text(""), layout=False, repaint=False)
    right: reactive[Text | str] = reactive(Text(""), layout=False, repaint=False)

    def __init__(self, left: Text | str = "", right: Text | str = "", *, id: str | None = None) -> None:
        super().__init__(ByWidth(self.lines), id=id)
        self.set_reactive(TopBar.left, left)
        self.set_reactive(TopBar.right, right)

    def watch_left(self) -> None:
        self._redraw()

    def watch_right(self) -> None:
        self._redraw()

    def _redraw(self) -> None:
        # the screen is laid out again only when the bar takes another number of lines
        width, height = self.content_size
        self.update(ByWidth(self.lines), layout=not width or len(self.lines(width)) != height)

    @property
    def plain(self) -> str:
        """What the bar says (at the width it is drawn at), one line of text per line of the bar."""
        return "\n".join(line.plain.rstrip() for line in self.lines(self.content_region.width))

    def lines(self, width: int) -> list[Text]:
        """The badge and the left side's parts, then the right side's parts flush right: on the
        last line when they fit beside it, else on a line of their own."""
        width = max(2, (width or 80) - 1)  # (one column kept clear at the right edge)
        left = _parts(self.left, LEFT_SEPARATOR)
        lines = fitted([("", BADGE), *[(" " if i == 0 else LEFT_SEPARATOR, part)
                                      for i, part in enumerate(left)]], width - 1)
        lines[1:] = [Text(" ") + line for line in lines[1:]]  # (under the badge's own space)
        right = fitted([("", part) if i == 0 else (RIGHT_SEPARATOR, part)
                        for i, part in enumerate(_parts(self.right, RIGHT_SEPARATOR))], width)
        for i, line in enumerate(right):
            if i == 0 and lines[-1].cell_len + 2 + line.cell_len <= width:
                lines[-1].append(" " * (width - lines[-1].cell_len - line.cell_len))
                lines[-1].append_text(line)
            else:
                line.pad_left(max(0, width - line.cell_len))
                lines.append(line)
        for line in lines:  # a single name wider than the terminal ends in "…"
            line.truncate(width, overflow="ellipsis")
        return lines
