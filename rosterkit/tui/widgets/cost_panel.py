"""The selected unit's cost term by term (the same breakdown as `rosterkit cost`), and the army total."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from ...editing.document import Document
from ...engine.costing import UnitCost, explain_lines
from ...rules.numbers import fmt
from ...rules.ruleset import Ruleset
from ...visible import plain
from .lines import ByWidth, show_fitted, text_row


def total_parts(session: Document) -> list[tuple[str, Text]]:
    """The army total, and what is left under the limit (kept whole when the line is broken)."""
    rs, report = session.rs, session.report
    label = rs.data.points_label
    text = Text.assemble(("Army total ", "bold"), (fmt(report.total), "bold"))
    if report.limit is None:
        return [("", text), (" ", Text(f"{label} (no limit set)"))]
    text.append(f" of {fmt(report.limit)} {label}")
    left = report.limit - report.total
    if left >= 0:
        return [("", text), ("  ", Text(f"({fmt(left)} left)", style="green"))]
    return [("", text), ("  ", Text(f"({fmt(-left)} over)", style="bold red"))]


def cost_rows(unit: UnitCost, rs: Ruleset, lines: list[tuple[str, str]]) -> list[tuple[Text, Text]]:
    """The breakdown's rows, styled: a heading per kind of figure, the terms, the unit total."""
    rows = []
    for what, working in lines:
        if what == "Unit total":
            rows.append((Text(what, style="bold"), Text(working, style="bold")))
        elif not working:
            rows.append((Text(what.strip(), style="bold italic"), Text("")))
        else:
            rows.append((Text(what, style="dim"), Text(working)))
    for d, _ in rs.unit_derived:
        rows.append((Text(d.label, style="dim"), Text(f"{d.prefix}{fmt(unit.derived.get(d.id, 0))}{d.suffix}")))
    return rows


def longest_word(text: Text) -> int:
    return max((cell_len(word) for word in text.plain.split()), default=0)


def what_width(rows: list[tuple[Text, Text]], width: int) -> int:
    """The most the terms may take: 45% of the width, or all the workings leave (a term then
    stays on one line: "Dice x die x move" beside "1 * 6 * 6 = 36")."""
    working = max((w.cell_len for _, w in rows), default=0)
    return max(12, width * 9 // 20, width - working - 1)


def rich_cost_table(rows: list[tuple[Text, Text]], width: int) -> Table:
    """The rows as a Rich table: each term on the left, wrapped on words, its working
    right-aligned beside it. When the longest words of the two columns cannot stand side by side
    at this width, each row is laid out on its own (its working under the term when even the
    row's own longest words cannot). Only a word wider than the whole width is folded."""
    cells = []
    for what, working in rows:
        what, working = plain(what).copy(), plain(working).copy()  # (the rows are kept, unchanged)
        what.overflow, working.overflow, working.justify = "fold", "fold", "right"
        cells.append((what, working, longest_word(what), longest_word(working)))
    longest_what = max((c[2] for c in cells), default=0)
    longest_working = max((c[3] for c in cells), default=0)
    if longest_what + 1 + longest_working <= width:  # one table: the terms in one column
        return _side_by_side(cells, longest_what, max(longest_what, min(what_width(rows, width),
                                                                        width - longest_working - 1)))
    table = Table.grid(expand=True)
    table.add_column("row", ratio=1)
    for what, working, what_word, working_word in cells:
        if what_word + 1 + working_word > width:
            text_row(table, what)
            text_row(table, working)
        else:
            room = what_width([(what, working)], width)
            text_row(table, _side_by_side([(what, working)], what_word,
                                          max(what_word, min(room, width - working_word - 1))))
    return table


def _side_by_side(cells: list[tuple], min_width: int, max_width: int) -> Table:
    table = Table.grid(padding=(0, 1), expand=True)
    table.add_column("what", min_width=min_width, max_width=max_width)
    table.add_column("working", ratio=1)
    for what, working, *_ in cells:
        text_row(table, what, working)
    return table


class CostPanel(VerticalScroll):
    """Why the selected unit costs what it costs."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Cost"
        self.can_focus = False
        self._pending: tuple[Document, int | None] | None = None  # shown before it was mounted
        self._shown: object = None  # what the body shows (not drawn again for the same)

    def compose(self) -> ComposeResult:
        yield Static(id="cost-body")
        yield Static(id="cost-total")

    def on_mount(self) -> None:
        if self._pending is not None:
            self.show(*self._pending)

    def show(self, session: Document, index: int | None) -> None:
        if not self.children:  # not composed yet (made when first shown): filled once mounted
            self._pending = (session, index)
            return
        self._pending = None
        rs = session.rs
        body = self.query_one("#cost-body", Static)
        if index is None or index >= len(session.costs):
            if self._shown is not None:
                self._shown = None
                body.update(Text("Select a unit to see its cost explained term by term.", style="dim"))
        else:
            unit = session.costs[index]
            name = Text(unit.name, style="bold")
            rows = cost_rows(unit, rs, explain_lines(unit, rs))
            if (name, rows) != self._shown:  # (an edit that leaves the unit's cost as it was)
                self._shown = (name, rows)
                body.update(ByWidth(lambda width: Group(name, rich_cost_table(rows, width))))
        show_fitted(self.query_one("#cost-total", Static), total_parts(session))
