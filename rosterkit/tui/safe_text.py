"""File text on the screen, made safe in one place: every line the interface draws passes here.

Names, notes and messages come from files players exchange. Drawn raw, an escape sequence in
a unit's name would reach the terminal (clear it, set its title, put a command on the
clipboard); a bidirectional override would make a line read backwards. :class:`ShowControls`
is a Textual line filter: each line of every widget, as it is drawn, has its control
characters shown by :func:`rosterkit.visible.visible` (ESC as ␛, U+202E as <U+202E>). A line
keeps its width: what a shown character adds is taken from the line's end.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

from ..visible import visible


class ShowControls(LineFilter):
    """Shows the control characters of every drawn line instead of sending them."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        changed = False
        out: list[Segment] = []
        for seg in segments:
            text = seg.text
            if seg.control or text.isprintable():
                out.append(seg)
                continue
            shown = visible(text)
            if shown != text:
                changed = True
                seg = Segment(shown, seg.style, seg.control)
            out.append(seg)
        if not changed:
            return segments
        width = sum(cell_len(s.text) for s in segments if not s.control)
        return Segment.adjust_line_length(out, width)
