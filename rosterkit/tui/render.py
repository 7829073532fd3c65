"""Rich renderables shared by screens: a figure's stat line and its gear."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from ..engine.costing import MemberCost, UnitCost
from ..engine.display import stat_line
from ..rules.numbers import fmt
from ..rules.ruleset import ITEM_SINGULAR, Ruleset
from ..visible import plain


def figure_lines(rs: Ruleset, unit: UnitCost, member: MemberCost) -> list[Table | Text]:
    """The card's stat line as a two-row grid (labels over values), then the gear with costs."""
    line = stat_line(rs, unit, member)
    grid = Table.grid(padding=(0, 1))
    for _ in line:
        grid.add_column(justify="center")
    grid.add_row(*[plain(label, "bold") for label, _ in line])
    grid.add_row(*[plain(value) for _, value in line])
    out: list[Table | Text] = [grid]
    gear = [f"{ITEM_SINGULAR[i.kind]}: {i.name} ({fmt(i.cost)})" for i in member.items]
    if gear:
        out.append(Text("; ".join(gear)))
    return out
