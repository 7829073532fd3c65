"""The roster's units, grouped by type, each with its count and points.

The list is rebuilt only when units are added, removed, moved or change type; an edit
to one unit redraws that unit's line and its group's heading.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option, OptionDoesNotExist

from ...engine.costing import UnitCost
from ...rules.numbers import Number, fmt, fmt_pct
from ..session import RosterSession


def unit_option_id(index: int) -> str:
    return f"unit-{index}"


def group_option_id(type_id: str | None) -> str:
    return f"type-{type_id}" if type_id is not None else "type-unknown"


def unit_of_option(option: Option | None) -> int | None:
    """The unit an option of the list shows (None for a group's heading)."""
    if option is None or not option.id or not option.id.startswith("unit-"):
        return None
    return int(option.id[5:])


def short_points(value: Number) -> str:
    text = fmt(value)
    return text if len(text) <= 8 else f"≈{float(value):.1f}"


def duplicate_names(session: RosterSession) -> set[int]:
    """The units whose name another unit of the roster also has."""
    seen: dict[str, list[int]] = {}
    for i, unit in enumerate(session.roster.units):
        seen.setdefault(unit.name.strip().casefold(), []).append(i)
    return {i for same in seen.values() if len(same) > 1 for i in same}


class UnitsList(OptionList):
    """Units grouped by type. Enter edits the highlighted unit."""

    BINDINGS = [
        Binding("a", "screen.add_unit", "Add"),
        Binding("d", "screen.duplicate_unit", "Duplicate", show=False),
        Binding("delete,x", "screen.delete_unit", "Delete"),
        Binding("shift+up,alt+up", "screen.move_unit(-1)", "Move up", show=False),
        Binding("shift+down,alt+down", "screen.move_unit(1)", "Move down", show=False),
        Binding("r", "screen.rename_unit", "Rename", show=False),
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
        super().__init__(id=id)
        self.session: RosterSession | None = None
        self._marks: dict[int, str] = {}
        self._width = 0
        self._count_w = 3
        self._pts_w = 3
        self._widened = False
        self._keep: int | None = None  # the unit to select once the lines are built

    # ------------------------------------------------------------ building

    def _line_width(self) -> int:
        return max(16, self.scrollable_content_region.width - 2)

    def _group_key(self, cost: UnitCost) -> str | None:
        return cost.type_id

    def _header(self, type_id: str | None) -> Text:
        assert self.session is not None
        s = self.session
        name = s.rs.types[type_id].name if type_id else "Unknown type"
        units = [c for c in s.costs if c.type_id == type_id]
        pts = sum((c.total for c in units), 0)
        left = f"{name} ({len(units)})"
        # the type's share of the army, rounded as players round (half up: 25.25% is 25.3%)
        right = f"{short_points(pts)} {fmt_pct(pts, s.report.total) if s.report.total else ''}".rstrip()
        width = self._line_width()
        pad = max(1, width - len(left) - len(right))
        return Text.assemble((left, "bold"), " " * pad, (right, "bold"))

    def _line(self, cost: UnitCost) -> Text:
        width = self._line_width()
        mark = self._marks.get(cost.index, "")
        count = f"x{cost.figures}"
        pts = short_points(cost.total)
        if len(count) > self._count_w or len(pts) > self._pts_w:  # wider than the column: widen it
            self._count_w = max(self._count_w, len(count))
            self._pts_w = max(self._pts_w, len(pts))
            self._widened = True
        tail = f" {count:>{self._count_w}} {pts:>{self._pts_w}}"
        name_w = max(4, width - len(tail) - 2)
        name = cost.name if len(cost.name) <= name_w else cost.name[: name_w - 1] + "…"
        style = {"error": "bold red", "warning": "yellow"}.get(mark, "")
        symbol = {"error": "✘ ", "warning": "! "}.get(mark, "  ")
        return Text.assemble((symbol, style), (name.ljust(name_w), ""), (tail, "dim" if not mark else ""))

    def _compute_marks(self) -> dict[int, str]:
        assert self.session is not None
        marks: dict[int, str] = {}
        for f in self.session.validation.findings:
            if f.unit is not None and marks.get(f.unit) != "error":
                marks[f.unit] = f.severity if f.severity in ("error", "warning") else marks.get(f.unit, "")
        for i in duplicate_names(self.session):  # two units of one name: told apart by nothing
            marks.setdefault(i, "warning")
        return marks

    def rebuild(self, session: RosterSession, keep: int | None = None) -> None:
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
        for type_id, costs in order.items():
            if not costs:
                continue
            options.append(Option(self._header(type_id), id=group_option_id(type_id), disabled=True))
            options.extend(Option(self._line(c), id=unit_option_id(c.index)) for c in costs)
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
        groups: set[str | None] = {c.type_id for c in s.costs} if changed else set()  # (shares change)
        for i in changed:
            if i >= len(s.costs):
                continue
            cost = s.costs[i]
            self._replace(unit_option_id(i), self._line(cost))
            groups.add(cost.type_id)
        for g in groups:
            self._replace(group_option_id(g), self._header(g))
        if self._widened:  # a count or cost outgrew its column: line every unit up again
            self.rebuild(s, keep=self.current_unit)

    def _replace(self, option_id: str, prompt: Text) -> None:
        try:
            self.replace_option_prompt(option_id, prompt)
        except OptionDoesNotExist:
            pass

    def on_resize(self) -> None:
        if self.session is not None and self._line_width() != self._width:
            keep = self.current_unit if self._width else self._keep  # the first size: the lines are built now
            self.rebuild(self.session, keep=keep)

    # ------------------------------------------------------------ selection

    @property
    def current_unit(self) -> int | None:
        return unit_of_option(self.highlighted_option)

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
        return [u for u in map(unit_of_option, self.options) if u is not None]

    async def on_click(self, event) -> None:
        """A click selects a unit; a double click also goes to its editor."""
        event.stop()
        event.prevent_default()  # not OptionList's click, which would choose the unit
        row = event.style.meta.get("option")
        unit = unit_of_option(self.get_option_at_index(row)) if row is not None and row < self.option_count else None
        if unit is None:
            return
        self.focus()
        self.highlighted = row
        if getattr(event, "chain", 1) >= 2:
            self.post_message(self.UnitChosen(self, unit))

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self.post_message(self.UnitHighlighted(self, self.current_unit))

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        unit = self.current_unit
        if unit is not None:
            self.post_message(self.UnitChosen(self, unit))
