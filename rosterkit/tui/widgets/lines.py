"""Text drawn line by line, for the panels a keystroke changes.

A Static draws its whole text again whenever it is updated, and each update asks Textual to
repaint the whole widget (its border too, when it has one). The totals a keystroke changes
(the top bar, the unit's cost, the army total, the limits) are usually one or two lines of a
panel: :class:`TextLines` lays its text out at the width it is drawn at and, on an update,
repaints only the lines that differ (Textual keeps the others as drawn). The screen is laid out again
only when the number of lines changes. This is Textual's line API, as its Log widget uses it.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import RenderableType
from rich.text import Text
from textual.geometry import Region, Size
from textual.selection import Selection
from textual.strip import Strip
from textual.widget import Widget

Made = Text | list[Text] | RenderableType
Source = Made | Callable[[int], Made]


def same(a: Text, b: Text) -> bool:
    """Two lines that draw alike (Rich compares texts without their base style)."""
    return a.plain == b.plain and a.style == b.style and a.spans == b.spans


def fitted(parts: list[tuple[str, Text]], width: int) -> list[Text]:
    """Parts, each after its separator, on as few lines as hold them, broken only between parts
    (a separator is left out at the start of a line): "210 points" is never split in two. A part
    wider than the width is wrapped when it is drawn."""
    lines: list[Text] = []
    line: Text | None = None
    for separator, part in parts:
        if line is None:
            line = part.copy()
        elif line.cell_len + len(separator) + part.cell_len <= width:
            line.append(separator)
            line.append_text(part)
        else:
            lines.append(line)
            line = part.copy()
    return lines + ([line] if line is not None else [])


class TextLines(Widget):
    """A text, texts or another Rich renderable (or a function of the width that makes them),
    drawn line by line. Each text is wrapped to the widget's width unless it says ``no_wrap``
    (then it is cut at the width)."""

    DEFAULT_CSS = """
    TextLines {
        height: auto;
    }
    """

    def __init__(self, text: Source | str = "", *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._source: Source = Text(text) if isinstance(text, str) else text
        self._width = -1  # the width the lines were laid out at
        self._lines: list[Text] = []

    # ------------------------------------------------------------ what it shows

    def update(self, text: Source | str) -> None:
        """Show another text: the lines that change are painted again, and the screen is laid
        out again only when the number of lines changes."""
        self._source = Text(text) if isinstance(text, str) else text
        width = self.content_region.width if self.is_mounted else 0
        if width <= 0:  # not laid out yet, or hidden: laid out with the new text when it shows
            self._width = -1
            return
        if self._width != width:
            self._width = -1
            self.refresh(layout=True)
            return
        before = self._lines
        self._lay_out(width)
        if len(before) != len(self._lines):
            self.refresh(layout=True)
            return
        changed = [Region(0, y, width, 1) for y, (a, b) in enumerate(zip(before, self._lines)) if not same(a, b)]
        if changed:
            self.refresh(*changed)

    @property
    def text(self) -> Text:
        """What it shows, as one text (its lines as laid out last)."""
        if self._width < 0:
            width = self.content_region.width if self.is_mounted else 0
            self._lay_out(width if width > 0 else 80)
        return Text("\n").join(self._lines)

    @property
    def plain(self) -> str:
        return self.text.plain

    def _lay_out(self, width: int) -> None:
        made = self._source(width) if callable(self._source) else self._source
        lines: list[Text] = []
        for text in made if isinstance(made, list) else [made]:
            if not isinstance(text, Text):
                console = self.app.console
                for line in console.render_lines(text, console.options.update_width(width), pad=False):
                    lines.append(Text.assemble(*[(seg.text, seg.style) for seg in line]))
            elif text.no_wrap:
                for line in text.split("\n", allow_blank=True):
                    if line.cell_len > width:
                        line.truncate(width, overflow=text.overflow or "crop")
                    lines.append(line)
            else:
                for line in text.wrap(self.app.console, max(1, width), overflow=text.overflow or "fold"):
                    line.rstrip()  # (the space a line was broken at)
                    lines.append(line)
        self._lines = lines or [Text("")]
        self._width = width

    # ------------------------------------------------------------ layout and drawing

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if width != self._width:
            self._lay_out(width)
        return len(self._lines)

    def render_line(self, y: int) -> Strip:
        """One line (Textual keeps it as drawn until the widget is refreshed, or resized)."""
        width = self.content_region.width
        if width != self._width:
            self._lay_out(width)
        base = self.visual_style.rich_style  # (the colours of the widget and what is behind it)
        if y >= len(self._lines):
            return Strip.blank(width, base)
        line = self._lines[y]
        selection = self.text_selection
        if selection is not None and (span := selection.get_span(y)) is not None:
            start, end = span
            line = line.copy()
            line.stylize(self.screen.get_component_rich_style("screen--selection"), start,
                         len(line) if end == -1 else end)
        console = self.app.console
        strip = Strip(line.render(console), line.cell_len).extend_cell_length(width)
        if line.style:  # (a text's own style, which Rich's render leaves to the caller)
            strip = strip.apply_style(console.get_style(line.style))
        return strip.apply_style(base).apply_offsets(0, y)

    # ------------------------------------------------------------ selecting text to copy

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        return selection.extract("\n".join(line.plain for line in self._lines)), "\n"

    def selection_updated(self, selection: Selection | None) -> None:
        self.refresh()
