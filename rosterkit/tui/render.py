"""Rich renderables shared by screens: a figure's stat line and its gear."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from ..engine.costing import MemberCost, UnitCost
from ..engine.display import stat_line
from ..rules.numbers import fmt
from ..rules.ruleset import ITEM_SINGULAR, Ruleset
from ..visible import plain
from .widgets.lines import ByWidth, text_row


def figure_lines(rs: Ruleset, unit: UnitCost, member: MemberCost) -> list[ByWidth | Text]:
    """The card's stat line, then the gear with costs. The stat line is labels over values where
    it fits the width it is drawn at; else label and value side by side, as many pairs a row as
    fit (a label cut to "Co…" tells nothing)."""
    line = [(plain(label, "bold"), plain(value)) for label, value in stat_line(rs, unit, member)]

    def stats(width: int) -> Table:
        across = sum(max(label.cell_len, value.cell_len) + 1 for label, value in line) - 1
        if across <= width:
            grid = Table.grid(padding=(0, 1))
            for _ in line:
                grid.add_column(justify="center")
            text_row(grid, *[label for label, _ in line])
            text_row(grid, *[value for _, value in line])
            return grid
        pair = max((label.cell_len + value.cell_len + 3 for label, value in line), default=1)
        per_row = max(1, (width + 2) // pair)
        grid = Table.grid(padding=(0, 1))
        for _ in range(per_row):
            grid.add_column()
            grid.add_column(justify="right")
            grid.add_column(width=0)  # a space between two pairs
        for start in range(0, len(line), per_row):
            text_row(grid, *[cell for label, value in line[start:start + per_row] for cell in (label, value, Text())])
        return grid

    out: list[ByWidth | Text] = [ByWidth(stats)]
    gear = [f"{ITEM_SINGULAR[i.kind]}: {i.name} ({fmt(i.cost)})" for i in member.items]
    if gear:
        out.append(Text("; ".join(gear)))
    return out
