"""The roster's units, grouped by type, each with its count and points.

The list is rebuilt only when units are added, removed, moved or change type; an edit
to one unit redraws that unit's line and its group's heading, and only those lines are
painted again.

It is a line-API widget (Textual's ScrollView drawing one row per ``render_line``, as
Textual's own Log and DataTable are) rather than an OptionList: replacing one prompt of an
OptionList clears all its caches, so every keystroke in a stat field re-measured every
option and re-rendered every visible line, 15-20 ms of each frame on a 200-unit roster;
here the unit's line and its type headings are drawn again, about 1 ms (measured with
tests/benchmarks/bench_tui.py, figures in the README's Performance section). Keys,
highlighting, click and hover work as in an OptionList, with the same look.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.style import Style
from textual.visual import Visual, visualize

from ...editing.document import Document as RosterSession
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


def duplicate_names(session: RosterSession) -> set[int]:
    """The units whose name another unit of the roster also has."""
    seen: dict[str, list[int]] = {}
    for i, unit in enumerate(session.roster.units):
        seen.setdefault(unit.name.strip().casefold(), []).append(i)
    return {i for same in seen.values() if len(same) > 1 for i in same}


@dataclass(eq=False)
class Row:
    """One line of a row list: a unit, or a heading (which cannot be highlighted)."""

    id: str
    prompt: Text
    unit: int | None = None

    @property
    def disabled(self) -> bool:
        return self.unit is None


class RowList(ScrollView, can_focus=True):
    """One line per row; the highlighted row moves with the keys, skipping headings."""

    ALLOW_SELECT = False  # (a drag does not select text, as in an OptionList)

    BINDINGS = [  # (system: moving in a list is not listed as a command of its own)
        Binding("down", "cursor_down", "Down", show=False, system=True),
        Binding("up", "cursor_up", "Up", show=False, system=True),
        Binding("home", "first", "First", show=False, system=True),
        Binding("end", "last", "Last", show=False, system=True),
        Binding("pagedown", "page_down", "Page down", show=False, system=True),
        Binding("pageup", "page_up", "Page up", show=False, system=True),
        Binding("enter", "select", "Select", show=False, system=True),
    ]

    # the look of Textual's OptionList
    DEFAULT_CSS = """
    RowList {
        height: auto;
        max-height: 100%;
        color: $foreground;
        overflow-x: hidden;
        border: tall $border-blurred;
        padding: 0 1;
        background: $surface;
        & > .row-list--option-highlighted {
            color: $block-cursor-blurred-foreground;
            background: $block-cursor-blurred-background;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus {
            border: tall $border;
            background-tint: $foreground 5%;
            & > .row-list--option-highlighted {
                color: $block-cursor-foreground;
                background: $block-cursor-background;
                text-style: $block-cursor-text-style;
            }
        }
        & > .row-list--option-highlighted {
            color: $foreground;
            background: $block-cursor-blurred-background;
        }
        & > .row-list--option-disabled {
            color: $text-disabled;
        }
        & > .row-list--option-hover {
            background: $block-hover-background;
        }
    }
    """

    COMPONENT_CLASSES = {
        "row-list--option",
        "row-list--option-disabled",
        "row-list--option-highlighted",
        "row-list--option-hover",
    }

    highlighted: reactive[int | None] = reactive(None, repaint=False, init=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._rows: list[Row] = []
        self._row_of_id: dict[str, int] = {}
        self._hover: int | None = None
        self._drawn: dict[int, tuple[Row, Style, int, Strip]] = {}  # row -> what its line was drawn from

    # ------------------------------------------------------------ rows

    @property
    def rows(self) -> list[Row]:
        return self._rows

    @property
    def option_count(self) -> int:
        return len(self._rows)

    def set_rows(self, rows: list[Row]) -> None:
        """Show these rows (no row highlighted)."""
        self._rows = rows
        self._row_of_id = {r.id: i for i, r in enumerate(rows)}
        self._drawn.clear()
        self._hover = None
        self.set_reactive(RowList.highlighted, None)
        self.virtual_size = Size(self.scrollable_content_region.width, len(rows))
        self.refresh()

    def replace_row(self, index: int, prompt: Text) -> None:
        """A new text for one row; only its line is drawn and painted again."""
        old = self._rows[index]
        self._rows[index] = Row(old.id, prompt, old.unit)
        self._refresh_row(index)

    def get_option(self, row_id: str) -> Row:
        return self._rows[self._row_of_id[row_id]]

    def get_option_at_index(self, index: int) -> Row:
        return self._rows[index]

    def get_option_index(self, row_id: str) -> int | None:
        return self._row_of_id.get(row_id)

    @property
    def highlighted_option(self) -> Row | None:
        h = self.highlighted
        return self._rows[h] if h is not None and h < len(self._rows) else None

    def _refresh_row(self, index: int | None) -> None:
        if index is None:
            return
        y = index - self.scroll_offset.y
        if 0 <= y < self.scrollable_content_region.height:
            self.refresh(Region(0, y, self.scrollable_content_region.width, 1))

    # ------------------------------------------------------------ drawing

    def render_line(self, y: int) -> Strip:
        index = self.scroll_offset.y + y
        width = self.scrollable_content_region.width
        if not 0 <= index < len(self._rows):
            return Strip.blank(width, self.get_visual_style("row-list--option").rich_style)
        row = self._rows[index]
        if row.disabled:
            style = self.get_visual_style("row-list--option", "row-list--option-disabled")
        elif index == self.highlighted:
            style = self.get_visual_style("row-list--option", "row-list--option-highlighted")
        elif index == self._hover:
            style = self.get_visual_style("row-list--option", "row-list--option-hover")
        else:
            style = self.get_visual_style("row-list--option")
        drawn = self._drawn.get(index)
        if drawn is not None and drawn[0] is row and drawn[1] == style and drawn[2] == width:
            return drawn[3]
        visual = visualize(self, row.prompt, markup=False)
        strips = Visual.to_strips(self, visual, width, None, style)
        strip = strips[0] if strips else Strip.blank(width)
        strip = strip.extend_cell_length(width, style.rich_style).apply_meta({"option": index})
        self._drawn[index] = (row, style, width, strip)
        return strip

    def notify_style_update(self) -> None:
        self._drawn.clear()
        self.refresh()
        super().notify_style_update()

    def on_resize(self) -> None:
        self._drawn.clear()
        self.virtual_size = Size(self.scrollable_content_region.width, len(self._rows))

    def on_show(self) -> None:
        self.scroll_to_highlight()

    # ------------------------------------------------------------ highlighting

    def validate_highlighted(self, highlighted: int | None) -> int | None:
        if highlighted is None or not self._rows:
            return None
        return min(max(highlighted, 0), len(self._rows) - 1)

    def watch_highlighted(self, old: int | None, new: int | None) -> None:
        self._refresh_row(old)
        self._refresh_row(new)
        if new is not None and not self._rows[new].disabled:
            self.scroll_to_highlight()
            self.row_highlighted(new)

    def row_highlighted(self, index: int) -> None:
        """A row (not a heading) became the highlighted one."""

    def row_selected(self, index: int) -> None:
        """The highlighted row was chosen (enter)."""

    def scroll_to_highlight(self, top: bool = False) -> None:
        h = self.highlighted
        if h is None or not self.is_mounted:
            return
        self.scroll_to_region(Region(0, h, self.scrollable_content_region.width, 1), force=True, animate=False,
                              top=top, immediate=True)

    def _enabled(self, start: int, step: int, wrap: bool) -> int | None:
        """The first row from ``start`` on (by ``step``) that can be highlighted."""
        n = len(self._rows)
        for k in range(n):
            i = start + k * step
            if wrap:
                i %= n
            elif not 0 <= i < n:
                return None
            if not self._rows[i].disabled:
                return i
        return None

    def action_cursor_down(self) -> None:
        h = self.highlighted
        target = self._enabled(0 if h is None else h + 1, 1, True)
        if target is not None:
            self.highlighted = target

    def action_cursor_up(self) -> None:
        h = self.highlighted
        target = self._enabled(len(self._rows) - 1 if h is None else h - 1, -1, True)
        if target is not None:
            self.highlighted = target

    def action_first(self) -> None:
        target = self._enabled(0, 1, False)
        if target is not None:
            self.highlighted = target

    def action_last(self) -> None:
        target = self._enabled(len(self._rows) - 1, -1, False)
        if target is not None:
            self.highlighted = target

    def _move_page(self, step: int) -> None:
        if not self._rows:
            return
        if self.highlighted is None:
            self.action_first() if step < 0 else self.action_last()
            return
        y = min(max(self.highlighted + step * self.scrollable_content_region.height, 0), len(self._rows) - 1)
        target = self._enabled(y, step, False)
        if target is None:
            target = self._enabled(y, -step, False)
        if target is not None:
            self.highlighted = target

    def action_page_down(self) -> None:
        self._move_page(1)

    def action_page_up(self) -> None:
        self._move_page(-1)

    def action_select(self) -> None:
        h = self.highlighted
        if h is not None and not self._rows[h].disabled:
            self.row_selected(h)

    # ------------------------------------------------------------ the mouse

    def row_at(self, event: events.MouseEvent) -> int | None:
        offset = event.get_content_offset(self)
        if offset is None:
            return None
        index = offset.y + self.scroll_offset.y
        return index if 0 <= index < len(self._rows) else None

    def on_mouse_move(self, event: events.MouseMove) -> None:
        row = self.row_at(event)
        if row != self._hover:
            before, self._hover = self._hover, row
            self._refresh_row(before)
            self._refresh_row(row)

    def on_leave(self, event: events.Leave) -> None:
        before, self._hover = self._hover, None
        self._refresh_row(before)


class UnitsList(RowList):
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
        self._names: tuple[str, ...] | None = None  # the units' names, and which of them are shared
        self._duplicates: set[int] = set()

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
        names = tuple(u.name for u in self.session.roster.units)
        if names != self._names:  # (names change seldom: not worked out again for every keystroke)
            self._names, self._duplicates = names, duplicate_names(self.session)
        for i in self._duplicates:  # two units of one name: told apart by nothing
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
        rows: list[Row] = []
        groups = self._groups()
        for type_id, costs in order.items():
            if not costs:
                continue
            rows.append(Row(group_option_id(type_id), self._header(type_id, groups)))
            rows.extend(Row(unit_option_id(c.index), self._line(c), c.index) for c in costs)
        self.set_rows(rows)
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
        totals = self._groups() if groups else {}
        for g in groups:
            self._replace(group_option_id(g), self._header(g, totals))
        if self._widened:  # a count or cost outgrew its column: line every unit up again
            self.rebuild(s, keep=self.current_unit)

    def _replace(self, row_id: str, prompt: Text) -> None:
        row = self.get_option_index(row_id)
        if row is not None and self._rows[row].prompt != prompt:
            self.replace_row(row, prompt)

    def on_resize(self) -> None:
        super().on_resize()
        if self.session is not None and self._line_width() != self._width:
            keep = self.current_unit if self._width else self._keep  # the first size: the lines are built now
            self.rebuild(self.session, keep=keep)

    # ------------------------------------------------------------ selection

    @property
    def current_unit(self) -> int | None:
        row = self.highlighted_option
        return row.unit if row is not None else None

    def row_of(self, index: int) -> int | None:
        """The line showing a unit (None when it is not listed)."""
        return self.get_option_index(unit_option_id(index))

    def select_unit(self, index: int | None, announce: bool = True) -> None:
        row = self.row_of(index) if index is not None else None
        if row is None:
            return
        if announce:
            self.highlighted = row
        else:
            with self.prevent(UnitsList.UnitHighlighted):
                self.highlighted = row
        self.scroll_to_highlight()

    def unit_order(self) -> list[int]:
        """Unit indices in the order shown."""
        return [r.unit for r in self._rows if r.unit is not None]

    def row_highlighted(self, index: int) -> None:
        self.post_message(self.UnitHighlighted(self, self._rows[index].unit))

    def row_selected(self, index: int) -> None:
        unit = self._rows[index].unit
        if unit is not None:
            self.post_message(self.UnitChosen(self, unit))

    def on_click(self, event: events.Click) -> None:
        """A click selects a unit; a double click also goes to its editor."""
        event.stop()
        row = self.row_at(event)
        unit = self._rows[row].unit if row is not None else None
        if unit is None:
            return
        self.focus()
        self.highlighted = row
        if getattr(event, "chain", 1) >= 2:
            self.post_message(self.UnitChosen(self, unit))
