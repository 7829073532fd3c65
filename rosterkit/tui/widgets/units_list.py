"""The roster's units, grouped by type, each with its count and points: an OptionList whose
type headings are disabled options (the cursor skips them).

The list is rebuilt only when units are added, removed, moved or change type; an edit
to one unit replaces that unit's line and its groups' headings.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option, OptionDoesNotExist

from ...editing.document import Document
from ...engine.costing import UnitCost
from ...rules.numbers import Number, approx, fixed, fmt, fmt_pct, showable


def unit_option_id(index: int) -> str:
    return f"unit-{index}"


def group_option_id(type_id: str | None) -> str:
    return f"type-{type_id}" if type_id is not None else "type-unknown"


def short_points(value: Number) -> str:
    text = fmt(value)
    if len(text) <= 8:
        return text
    return f"≈{fixed(value, 1)}" if showable(value) else approx(value)


def share_basis(session: Document) -> str:
    """What the units list's percentages are shares of: the points limit, as the limits count
    them; the army's total when there is no limit."""
    label = session.rs.data.points_label
    limit = session.report.limit
    return f"% of {fmt(limit)}" if limit else f"% of total {label}"


def share(session: Document, value: Number) -> str:
    """A value as a share of :func:`share_basis`, rounded as players round (half up)."""
    basis = session.report.limit or session.report.total
    return fmt_pct(value, basis) if basis else ""


def duplicate_names(session: Document) -> set[int]:
    """The units whose name another unit of the roster also has."""
    seen: dict[str, list[int]] = {}
    for i, unit in enumerate(session.roster.units):
        seen.setdefault(unit.name.strip().casefold(), []).append(i)
    return {i for same in seen.values() if len(same) > 1 for i in same}


class UnitsList(OptionList):
    """Units grouped by type. Enter (or a click) edits the highlighted unit."""

    BINDINGS = [
        Binding("a", "screen.add_unit", "Add", id="units.add"),
        Binding("d", "screen.duplicate_unit", "Duplicate", show=False, id="units.duplicate"),
        Binding("delete,x", "screen.delete_unit", "Delete", id="units.delete"),
        Binding("shift+up,alt+up", "screen.move_unit(-1)", "Move up", show=False, id="units.move_up"),
        Binding("shift+down,alt+down", "screen.move_unit(1)", "Move down", show=False, id="units.move_down"),
        Binding("r", "screen.rename_unit", "Rename", show=False, id="units.rename"),
    ]

    @dataclass
    class UnitHighlighted(Message):
        units_list: "UnitsList"
        index: int | None

        @property
        def control(self) -> "UnitsList":
            return self.units_list

    @dataclass
    class UnitChosen(Message):
        units_list: "UnitsList"
        index: int

        @property
        def control(self) -> "UnitsList":
            return self.units_list

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, compact=True, markup=False)
        self.session: Document | None = None
        self._marks: dict[int, str] = {}
        self._width = 0
        self._count_w = 3
        self._pts_w = 3
        self._widened = False
        self._keep: int | None = None  # the unit to select once the lines are built
        self._names: tuple[str, ...] | None = None  # the units' names, and which of them are shared
        self._duplicates: set[int] = set()
        self._units: list[int | None] = []  # the unit each line shows (None: a type's heading)

    # ------------------------------------------------------------ building

    def _line_width(self) -> int:
        return max(16, self.scrollable_content_region.width - 2)

    def _group_key(self, cost: UnitCost) -> str | None:
        return cost.type_id

    def _groups(self) -> dict[str | None, tuple[int, Number]]:
        """Each type's number of units and points."""
        assert self.session is not None
        counts: dict[str | None, int] = {}
        points: dict[str | None, list[Number]] = {}
        for c in self.session.costs:
            counts[c.type_id] = counts.get(c.type_id, 0) + 1
            points.setdefault(c.type_id, []).append(c.total)
        return {t: (n, sum(points[t], 0)) for t, n in counts.items()}

    def _header(self, type_id: str | None, groups: dict[str | None, tuple[int, Number]]) -> Text:
        assert self.session is not None
        s = self.session
        name = s.rs.types[type_id].name if type_id else "Unknown type"
        count, pts = groups.get(type_id, (0, 0))
        left = f"{name} ({count})"
        right = f"{short_points(pts)} {share(s, pts)}".rstrip()
        width = self._width  # (the width the lines are built for: a new one rebuilds them)
        pad = max(1, width - len(left) - len(right))
        return Text.assemble((left, "bold"), " " * pad, (right, "bold"))

    def _line(self, cost: UnitCost) -> Text:
        width = self._width
        mark = self._marks.get(cost.index, "")
        count = f"x{cost.figures}"
        pts = short_points(cost.total)
        if len(count) > self._count_w or len(pts) > self._pts_w:  # wider than the column: widen it
            self._count_w = max(self._count_w, len(count))
            self._pts_w = max(self._pts_w, len(pts))
            self._widened = True
        tail = f" {count:>{self._count_w}} {pts:>{self._pts_w}}"
        name_w = max(4, width - len(tail) - 2)
        style = {"error": "bold red", "warning": "yellow"}.get(mark, "")
        symbol = {"error": "✘ ", "warning": "! "}.get(mark, "  ")
        tail_style = "dim" if not mark else ""
        if len(cost.name) > name_w:  # a long name is shown whole: its figures and points go under it
            return Text.assemble((symbol, style), cost.name, "\n", (tail.rjust(width), tail_style))
        return Text.assemble((symbol, style), (cost.name.ljust(name_w), ""), (tail, tail_style))

    def _compute_marks(self) -> dict[int, str]:
        assert self.session is not None
        marks: dict[int, str] = {}
        for f in self.session.validation.findings:
            if f.unit is not None and marks.get(f.unit) != "error":
                marks[f.unit] = f.severity if f.severity in ("error", "warning") else marks.get(f.unit, "")
        names = tuple(u.name for u in self.session.roster.units)
        if names != self._names:  # (names change seldom: not worked out again for every keystroke)
            self._names, self._duplicates = names, duplicate_names(self.session)
        for i in self._duplicates:  # two units of one name: told apart by nothing
            marks.setdefault(i, "warning")
        return marks

    def rebuild(self, session: Document, keep: int | None = None) -> None:
        """Build every line (after a structural change). Before the list has a size the lines are
        built when it gets one, at their width."""
        self.session = session
        if not self.scrollable_content_region.width:
            self._keep = keep
            return
        self._marks = self._compute_marks()
        self._width = self._line_width()
        self._count_w = max([3] + [len(f"x{c.figures}") for c in session.costs])
        self._pts_w = max([3] + [len(short_points(c.total)) for c in session.costs])
        self._widened = False
        order: dict[str | None, list[UnitCost]] = {t: [] for t in session.rs.types}
        for c in session.costs:
            order.setdefault(self._group_key(c), []).append(c)
        options: list[Option] = []
        self._units = []
        groups = self._groups()
        for type_id, costs in order.items():
            if not costs:
                continue
            options.append(Option(self._header(type_id, groups), id=group_option_id(type_id), disabled=True))
            self._units.append(None)
            for c in costs:
                options.append(Option(self._line(c), id=unit_option_id(c.index)))
                self._units.append(c.index)
        with self.prevent(OptionList.OptionHighlighted):
            self.set_options(options)
        if keep is not None:
            self.select_unit(keep, announce=False)

    def update_units(self, indices: set[int]) -> None:
        """Redraw some units' lines, their groups' headings, and changed error marks."""
        s = self.session
        if s is None:
            return
        marks = self._compute_marks()
        changed = set(indices)
        for i in self._marks.keys() | marks.keys():
            if self._marks.get(i) != marks.get(i):
                changed.add(i)
        self._marks = marks
        self._widened = False
        groups: set[str | None] = {c.type_id for c in s.costs} if changed else set()  # (the limit may change too)
        for i in changed:
            if i >= len(s.costs):
                continue
            cost = s.costs[i]
            self._replace(unit_option_id(i), self._line(cost))
            groups.add(cost.type_id)
        totals = self._groups() if groups else {}
        for g in groups:
            self._replace(group_option_id(g), self._header(g, totals))
        if self._widened:  # a count or cost outgrew its column: line every unit up again
            self.rebuild(s, keep=self.current_unit)

    def _replace(self, option_id: str, prompt: Text) -> None:
        try:
            option = self.get_option(option_id)
        except OptionDoesNotExist:
            return
        if option.prompt != prompt:
            self.replace_option_prompt(option_id, prompt)

    def on_resize(self) -> None:
        if self.session is not None and self._line_width() != self._width:
            keep = self.current_unit if self._width else self._keep  # the first size: the lines are built now
            self.rebuild(self.session, keep=keep)

    # ------------------------------------------------------------ selection

    @property
    def current_unit(self) -> int | None:
        h = self.highlighted
        return self._units[h] if h is not None and h < len(self._units) else None

    def row_of(self, index: int) -> int | None:
        """The line showing a unit (None when it is not listed)."""
        try:
            return self.get_option_index(unit_option_id(index))
        except OptionDoesNotExist:
            return None

    def select_unit(self, index: int | None, announce: bool = True) -> None:
        row = self.row_of(index) if index is not None else None
        if row is None:
            return
        if announce:
            self.highlighted = row
        else:
            with self.prevent(OptionList.OptionHighlighted):
                self.highlighted = row
        self.scroll_to_highlight()

    def unit_order(self) -> list[int]:
        """Unit indices in the order shown."""
        return [u for u in self._units if u is not None]

    def action_page_up(self) -> None:
        super().action_page_up()
        if self.current_unit is None:  # (a page up from the first units ends on a heading: the first unit)
            self.action_first()

    def on_focus(self) -> None:
        if self.highlighted is None:  # (a list that takes the focus shows where its cursor is)
            self.action_first()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list is self:
            event.stop()
            self.post_message(self.UnitHighlighted(self, self._units[event.option_index]))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list is self:
            event.stop()
            unit = self._units[event.option_index]
            if unit is not None:
                self.post_message(self.UnitChosen(self, unit))
