"""Texts laid out at the width they are drawn at, as Rich renderables for a Static."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual.widgets import Static


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


class ByWidth:
    """What a function makes for the width it is given (Rich's render protocol: the Static
    holding it lays it out again when its width changes)."""

    def __init__(self, make: Callable[[int], RenderableType | list[Text]]) -> None:
        self.make = make

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        made = self.make(options.max_width)
        if isinstance(made, list):
            yield Text("\n").join(made)
        else:
            yield made

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(1, options.max_width)


def fitted_parts(parts: list[tuple[str, Text]]) -> ByWidth:
    """:func:`fitted` at the width the text is drawn at."""
    return ByWidth(lambda width: fitted(parts, width))


def fitted_height(parts: list[tuple[str, Text]], width: int) -> int | None:
    """How many lines :func:`fitted` makes at a width, when each fits in it (None: one is wider,
    and wraps when drawn)."""
    lines = fitted(parts, width)
    return len(lines) if all(line.cell_len <= width for line in lines) else None


def show_fitted(static: Static, parts: list[tuple[str, Text]]) -> None:
    """Show parts in a Static, fitted to its width. The screen is laid out again only when the
    lines may take another height than the Static has: as many lines, none wider, keep it."""
    width, shown = static.content_size
    height = fitted_height(parts, width) if width else None
    static.update(fitted_parts(parts), layout=height is None or height != shown)


def text_row(table: Table, *cells: Text | Table) -> None:
    """A row of cells made as Text (or tables of Text) already: nothing in them is read as markup
    (a string would be, so it is refused)."""
    if not all(isinstance(cell, (Text, Table)) for cell in cells):
        raise TypeError("a table cell from data must be Text, not a string Rich reads as markup")
    table.add_row(*cells)
