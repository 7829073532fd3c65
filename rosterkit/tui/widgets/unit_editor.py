"""The unit editor, built from the ruleset's stat line.

It edits one unit (or, in a unit of mixed figures, one of its members) and sends the
edited unit as :class:`UnitEditor.Edited`; the screen turns that into a new roster.
What shows only for some units (the row of a unit's kinds of figures, the note that the
roster has no units) is made when first needed.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Select, Static

from ...editing import edits
from ...editing.document import Document
from ...engine.costing import StatSource, UnitCost, member_type, singular, stat_source
from ...engine.roster import Member, Unit
from ...rules.numbers import exact, fmt
from ...rules.ruleset import ITEM_KINDS, Ruleset
from ...rules.schema import FigureDef, StatDef
from ...rules.stats import kind_of
from .item_list import ItemList
from .lines import show_fitted
from .stat_field import StatField

KIND_TITLES = {"weapons": "Weapons", "abilities": "Abilities", "equipment": "Equipment"}
_MEMBER_FIELD = re.compile(r"^members\[(\d+)\](?:\.(.*))?$")


def label_width(labels: list[str]) -> int:
    """Room for the longest label (within reason: longer ones are cut with an ellipsis)."""
    return max(10, min(22, max((len(x) for x in labels), default=8) + 2))


def bounds_text(sdef: StatDef) -> str:
    """'1–100', '≥ 1': a number stat's bounds, shown beside its field (short: a narrow editor
    has room for them after "from the figure")."""
    if not kind_of(sdef).bounded:
        return ""
    lo = fmt(exact(sdef.min)) if sdef.min is not None else None
    hi = fmt(exact(sdef.max)) if sdef.max is not None else None
    if lo is not None and hi is not None:
        return f"{lo} to {hi}" if lo.startswith("-") else f"{lo}–{hi}"  # "-2–2" would read as a sum
    if lo is not None:
        return f"≥ {lo}"
    if hi is not None:
        return f"≤ {hi}"
    return ""


MEMBER_CONTROLS = 26  # columns a kind of figures ("Dwarf Warrior x5 ▼") and its two buttons take


def sized_label(text: str, width: int) -> Label:
    label = Label(text, classes="field-label", markup=False)
    label.styles.width = width
    return label


class UnitEditor(VerticalScroll):
    """Edits the selected unit; every change is sent as a whole new unit value."""

    @dataclass
    class Edited(Message):
        """An edit of unit ``index``: ``change`` makes the new unit from the unit the roster has
        when the edit is applied (so edits in flight never undo one another)."""

        editor: "UnitEditor"
        index: int
        change: Callable[[Unit], Unit]
        label: str
        field: str
        member: int | None
        coalesce: object = None
        source: StatField | None = None  # the field typed in, and what it showed
        token: object = None

        @property
        def control(self) -> "UnitEditor":
            return self.editor

        @property
        def current(self) -> bool:
            """False when the field has been typed on or shown another value since."""
            return self.source is None or self.source.shows(self.token)

    @dataclass
    class ItemWanted(Message):
        """The player asked to add a weapon, ability or piece of equipment."""

        editor: "UnitEditor"
        index: int
        member: int | None
        kind: str

        @property
        def control(self) -> "UnitEditor":
            return self.editor

    @dataclass
    class MemberWanted(Message):
        """The player asked to add figures of another kind to the unit."""

        editor: "UnitEditor"
        index: int

        @property
        def control(self) -> "UnitEditor":
            return self.editor

    def __init__(self, ruleset: Ruleset, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rs = ruleset
        self.session: Document | None = None
        self.index: int | None = None
        self.member: int | None = None
        self._serial = 0
        self._label_w = 14
        self._lists: dict[str, ItemList] | None = None
        self._member_choices: list | None = None  # what the members' select lists now
        self._members_select: Select | None = None  # made with the row of a unit's kinds of figures
        self._names: tuple[str, ...] | None = None  # the units' names, and how many units have each
        self._name_counts: Counter[str] = Counter()
        self.can_focus = False
        # who applies a typed value's edit at once (None: it is posted to the screen as a message)
        self.receiver: Callable[[UnitEditor.Edited], None] | None = None

    # ------------------------------------------------------------ building

    def compose(self) -> ComposeResult:
        rs = self.rs
        count_label = rs.data.count_label
        width = self._label_w = label_width([s.label for s in rs.data.stats] + [count_label])
        yield Static(id="editor-title")
        with Vertical(id="editor-form"):
            yield StatField(StatDef(id="name", label="Name", kind="text"), id="f-name", label_width=width)
            with Horizontal(classes="field-row", id="type-row"):
                yield sized_label("Type", width)
                yield Select([(Text(t.name), t.id) for t in rs.data.types], allow_blank=True, compact=True,
                             id="type-select", prompt="-")
                yield Label("", classes="field-note", id="type-note", markup=False)
            yield Static(id="figure-line")
            yield StatField(StatDef(id="count", label=count_label.capitalize(), kind="int", min=0, max=1_000_000),
                            id="f-count", label=count_label.capitalize(), label_width=width,
                            apply_empty_on_leave=True)
            yield Static("Stats", classes="section", markup=False)
            for sdef in rs.data.stats:
                yield StatField(sdef, id=f"stat-{sdef.id}", label_width=width, apply_empty_on_leave=True)
            yield Static(id="derived-line")
            for kind in ITEM_KINDS:
                if self._shows_kind(kind):
                    yield ItemList(kind, KIND_TITLES[kind], id=f"items-{kind}")
            yield StatField(StatDef(id="notes", label="Notes", kind="text"), id="f-notes", label_width=width)

    def _shows_kind(self, kind: str) -> bool:
        rs = self.rs
        return bool(getattr(rs.data, kind)) or bool(rs.item_stats[kind]) or kind == "weapons" \
            or rs.item_formulas.get(kind) is not None

    @property
    def label_w(self) -> int:
        """The width of the field labels (never cut to fit: the values' boxes narrow instead)."""
        return self._label_w

    def _show_empty(self, empty: bool) -> None:
        found = self.query("#editor-empty")
        note = found.first() if found else None
        if empty and note is None:  # made the first time the roster has no units
            note = Static("No units yet. Press ctrl+n (or a in the list) to add one from the catalogue.",
                          id="editor-empty", markup=False)
            self.mount(note, before="#editor-form")
        shown = [(self.query_one("#editor-form"), not empty), (self.query_one("#editor-title"), not empty)]
        for widget, show in shown + ([(note, empty)] if note is not None else []):
            if widget.display != show:
                widget.display = show

    def _members_row(self, unit: Unit | None = None, cost: UnitCost | None = None,
                     current: int = 0) -> Horizontal | None:
        """The row of a unit's kinds of figures. It is made, with the unit's values, the first
        time a unit of mixed figures shows (then None is returned: it is not mounted yet)."""
        found = self.query("#members-row")
        if found:
            return found.first(Horizontal)
        if unit is None or cost is None:
            return None
        options = [(Text(self._member_label(m, i, cost)), i) for i, m in enumerate(unit.members)]
        select = Select(options, allow_blank=True, compact=True, id="member-select", prompt="-", value=current)
        self._members_select = select
        self._member_choices = options
        add = Button("+", compact=True, id="member-add", tooltip="Add figures of another kind (F9)")
        remove = Button("−", compact=True, id="member-remove", tooltip="Remove these figures (shift+F9)",
                        disabled=len(unit.members) < 2)
        row = Horizontal(sized_label("In the unit", self.label_w), Horizontal(select, add, remove, id="member-controls"),
                         classes="field-row", id="members-row")
        self._stack_members(row)
        self.query_one("#editor-form").mount(row, after="#type-row")
        return None

    def _stack_members(self, row: Widget) -> None:
        """Where the label leaves the kinds of figures too little room (a 60-column terminal), the
        choice and its buttons go on the line under the label, rather than the choice being
        squeezed to a column."""
        row.set_class(self.scrollable_content_region.width < self.label_w + MEMBER_CONTROLS, "-stacked")

    def on_resize(self, event: events.Resize) -> None:
        found = self.query("#members-row")
        if found:
            self._stack_members(found.first())

    def _member_select(self) -> Select | None:
        select = self._members_select  # (made with the row of a unit's kinds of figures)
        return select if select is not None and select.is_mounted else None

    # ------------------------------------------------------------ loading a unit

    @property
    def unit(self) -> Unit | None:
        if self.session is None or self.index is None or self.index >= len(self.session.roster.units):
            return None
        return self.session.roster.units[self.index]

    @property
    def cost(self) -> UnitCost | None:
        if self.session is None or self.index is None or self.index >= len(self.session.costs):
            return None
        return self.session.costs[self.index]

    def load(self, session: Document, index: int | None, member: int | None = None) -> None:
        """Show a unit's values (no Changed messages are sent while doing so)."""
        self.session = session
        self.index = index
        unit = self.unit
        for w in self.query(".-fault"):
            w.remove_class("-fault")
        if unit is None:
            self.index = None
            self._show_empty(True)
            return
        self._show_empty(False)
        if unit.members:
            self.member = min(member if member is not None else (self.member or 0), len(unit.members) - 1)
        else:
            self.member = None
        self._load_fields()

    def _load_fields(self) -> None:
        unit, cost = self.unit, self.cost
        if unit is None or cost is None:
            return
        rs = self.rs
        t = edits.target(unit, self.member)
        mi = self.member or 0
        mc = cost.members[mi] if mi < len(cost.members) else None
        figure = self.session.figures.find(t.figure) if t.figure else None

        self.query_one("#f-name", StatField).show(unit.name)
        type_select = self.query_one("#type-select", Select)
        with self.prevent(Select.Changed):
            if cost.type_id and type_select.value != cost.type_id:
                type_select.value = cost.type_id
            elif not cost.type_id:
                type_select.clear()
        self.query_one("#type-note", Label).update("from the figure" if not unit.type and cost.type_id else "")

        members_row = self._members_row(unit, cost, mi) if unit.members else self._members_row()
        if members_row is not None and members_row.display != bool(unit.members):
            members_row.display = bool(unit.members)
        select = self._member_select()
        if unit.members and select is not None:
            self._member_options(select, unit, cost, mi)
            remove = self.query_one("#member-remove", Button)
            if remove.disabled != (len(unit.members) < 2):
                remove.disabled = len(unit.members) < 2

        fig_line = self.query_one("#figure-line", Static)
        if t.figure:
            per = fmt(mc.per_figure) if mc else "?"
            fig_line.update(Text.assemble(("From the catalogue: ", "dim"), (t.figure, "bold"),
                                          (f"  ({per} per {singular(rs.data.count_label)})", "dim")))
        else:
            fig_line.update(Text(""))
        if fig_line.display != bool(t.figure):
            fig_line.display = bool(t.figure)

        count_field = self.query_one("#f-count", StatField)
        if unit.members:
            count_field.show(t.count)
        else:
            count_field.show(unit.count, inherited=figure.count if figure else 1, note=self._count_note(unit, figure))

        for source, note in self._stat_sources(unit, cost, figure):
            field = self.query_one(f"#stat-{source.stat.id}", StatField)
            if source.set_by is not None:
                field.show(source.set_by.set[source.stat.id], note=note, locked=True)
            else:
                field.show(source.entered, inherited=source.inherited, note=note)

        self.query_one("#f-notes", StatField).show(unit.notes or None)
        self.refresh_costs()

    def _stat_sources(self, unit: Unit, cost: UnitCost, figure: FigureDef | None) -> list[tuple[StatSource, str]]:
        """Each stat's source (as costing takes it) and the note that says it, with its bounds."""
        t = edits.target(unit, self.member)
        mi = self.member or 0
        mc = cost.members[mi] if mi < len(cost.members) else None
        tdef = member_type(self.rs, self.rs.types.get(cost.type_id) if cost.type_id else None, unit, figure)
        out = []
        for sdef in self.rs.data.stats:
            source = stat_source(sdef, t.stats, figure, tdef)
            note = source.note(mc.stats.get(sdef.id) if mc else None)
            bounds = bounds_text(sdef)
            if bounds and source.set_by is None:
                note = f"{note} · {bounds}" if note else bounds
            out.append((source, note))
        return out

    def _count_note(self, unit: Unit, figure: FigureDef | None) -> str:
        return "from the figure" if not unit.members and unit.count is None and figure is not None else ""

    def _refresh_notes(self, unit: Unit, cost: UnitCost) -> None:
        """The notes beside the values, after an edit (the values are the player's: left as typed)."""
        t = edits.target(unit, self.member)
        figure = self.session.figures.find(t.figure) if t.figure else None
        self.query_one("#f-count", StatField).set_note(self._count_note(unit, figure))
        for source, note in self._stat_sources(unit, cost, figure):
            self.query_one(f"#stat-{source.stat.id}", StatField).set_note(note)

    def _member_options(self, select: Select, unit: Unit, cost: UnitCost, current: int) -> None:
        options = [(Text(self._member_label(m, i, cost)), i) for i, m in enumerate(unit.members)]
        if options == self._member_choices and select.value == current:
            return
        self._member_choices = options
        with self.prevent(Select.Changed):
            select.set_options(options)
            select.clear()
            select.value = current

    def _member_label(self, m: Member, i: int, cost: UnitCost) -> str:
        name = m.name or m.figure or f"Figures {i + 1}"
        return f"{name} x{m.count}"

    def refresh_costs(self) -> None:
        """Redraw what depends on costs (title, derived values, item prices) after an edit."""
        unit, cost = self.unit, self.cost
        if unit is None or cost is None:
            return
        rs = self.rs
        label = rs.data.count_label
        figs = f"{cost.figures} {label if cost.figures != 1 else singular(label)}"
        parts = [("", Text.assemble((f"#{cost.index + 1} ", "dim"), (unit.name, "bold"))),
                 ("  ", Text(cost.type_name)), (" · ", Text(figs)),
                 (" · ", Text(f"{fmt(cost.total)} {rs.data.points_label}", style="bold"))]
        show_fitted(self.query_one("#editor-title", Static), parts)
        self._refresh_notes(unit, cost)
        names = tuple(u.name for u in self.session.roster.units)
        if names != self._names:  # (names change seldom: not counted again for every keystroke)
            self._names = names
            self._name_counts = Counter(n.strip().casefold() for n in names)
        same = self._name_counts[unit.name.strip().casefold()]
        self.query_one("#f-name", StatField).set_note(f"! {same} units have this name" if same > 1 else "")
        mi = self.member or 0
        mc = cost.members[mi] if mi < len(cost.members) else None
        derived = []
        if mc is not None:
            for d, _ in rs.figure_derived:
                if d.id in mc.derived:
                    derived.append(f"{d.label} {d.prefix}{fmt(mc.derived[d.id])}{d.suffix}")
        for d, _ in rs.unit_derived:
            if d.id in cost.derived:
                text = f"{d.label} {d.prefix}{fmt(cost.derived[d.id])}{d.suffix}"
                if text not in derived:
                    if any(x.startswith(d.label + " ") for x in derived):
                        text = f"{d.label} (unit) {d.prefix}{fmt(cost.derived[d.id])}{d.suffix}"
                    derived.append(text)
        line = self.query_one("#derived-line", Static)
        parts = [("  ·  ", Text(d)) for d in derived]
        if parts:
            parts[0] = ("", Text.assemble(("Derived: ", "dim"), derived[0]))
        if derived or line.display:  # (hidden and still nothing to show: left as it is)
            show_fitted(line, parts)
        if line.display != bool(derived):
            line.display = bool(derived)
        for kind, item_list in self._item_lists().items():
            names, inherited = edits.held_items(unit, self.member, kind, self.session.figures)
            costs = [i for i in mc.items if i.kind == kind] if mc else []
            note = "as the catalogue figure has them" if inherited else ""
            item_list.show(names, costs, note)
        select = self._member_select()
        if self.member is not None and unit.members and select is not None:
            self._member_options(select, unit, cost, self.member)

    def _item_lists(self) -> dict[str, ItemList]:
        if self._lists is None:
            self._lists = {w.kind: w for w in self.query(ItemList)}
        return self._lists

    # ------------------------------------------------------------ focusing a field

    def focus_field(self, field: str | None, member: int | None = None) -> None:
        """Focus the field a finding names ("stats.move", "members[1].weapons", "count")."""
        unit = self.unit
        if unit is None:
            return
        if field:
            m = _MEMBER_FIELD.match(field)
            if m:
                member, field = int(m.group(1)), m.group(2) or "count"
        if unit.members and member is not None and member != self.member:
            self.member = member
            self._load_fields()
        widget = self._field_widget(field or "name")
        if widget is None:
            return
        widget.add_class("-fault")
        if isinstance(widget, StatField):
            widget.focus_control()
        elif isinstance(widget, ItemList):
            widget.focus_list()
        else:
            widget.focus()
            widget.scroll_visible()

    def _field_widget(self, field: str):
        if field.startswith("stats."):
            found = self.query(f"#stat-{field[6:]}")
            return found.first() if found else None
        if field in ITEM_KINDS:
            found = self.query(f"#items-{field}")
            return found.first() if found else None
        if field in ("count",):
            return self.query_one("#f-count", StatField)
        if field in ("type", "figure"):
            return self.query_one("#type-select", Select)
        if field == "notes":
            return self.query_one("#f-notes", StatField)
        return self.query_one("#f-name", StatField)

    def focus_name(self) -> None:
        field = self.query_one("#f-name", StatField)
        field.focus_control()
        control = field.control
        if hasattr(control, "select_all"):
            control.select_all()

    # ------------------------------------------------------------ reading edits

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._serial += 1  # typing in another field starts a new undo step

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        """A field a finding pointed at stops standing out once the focus has left it."""
        focused = self.screen.focused
        for marked in self.query(".-fault"):
            if focused is None or (focused is not marked and marked not in focused.ancestors):
                marked.remove_class("-fault")

    def _edit(self, change: Callable[[Unit], Unit], label: str, field: str, coalesce: bool = False,
              source: StatField | None = None, token: object = None) -> "UnitEditor.Edited | None":
        if self.index is None:
            return None
        key = (self.index, self.member, field, self._serial) if coalesce else None
        return self.Edited(self, self.index, change, label, field, self.member, key, source, token)

    def _send(self, change: Callable[[Unit], Unit], label: str, field: str) -> None:
        edit = self._edit(change, label, field)
        if edit is not None:
            self.post_message(edit)

    def _field_edit(self, source: StatField, raw: object | None, token: object) -> "UnitEditor.Edited | None":
        """The edit a field's value makes (None, with the reason shown at the field, when it makes none)."""
        unit = self.unit
        if unit is None:
            return None
        fid = source.id or ""
        member = self.member
        if fid == "f-name":
            if not isinstance(raw, str) or not raw.strip():
                source.not_applied("A unit needs a name", unit.name)
                return None
            if len(raw) > 200:
                source.not_applied("At most 200 characters", unit.name)
                return None
            return self._edit(lambda u: u.model_copy(update={"name": raw}), "rename", "name", True, source, token)
        if fid == "f-count":
            if raw is None and unit.members:
                source.not_applied("Enter how many", edits.target(unit, member).count)
                return None
            return self._edit(lambda u: edits.update_target(u, member, count=raw), "count", "count", True,
                              source, token)
        if fid == "f-notes":
            return self._edit(lambda u: u.model_copy(update={"notes": raw or ""}), "notes", "notes", True,
                              source, token)
        if fid.startswith("stat-"):
            sid = fid[5:]
            label = self.rs.stats[sid].label if sid in self.rs.stats else sid
            return self._edit(lambda u: edits.set_stat(u, member, sid, raw), label.lower(), f"stats.{sid}", True,
                              source, token)
        return None

    def on_mount(self) -> None:
        for field in self.query(StatField):
            field.receiver = self._field_changed

    def _field_changed(self, event: StatField.Changed) -> None:
        """A field's value, taken as it is typed. The edit is applied in the same turn as the
        keystroke, before its repaint: the typed text and the totals it makes are painted in
        one frame."""
        if not event.current:  # typed on since: a later value carries the newer text
            return
        edit = self._field_edit(event.stat_field, event.raw, event.token)
        if edit is None:
            return
        if self.receiver is not None:
            self.receiver(edit)
        else:
            self.screen.post_message(edit)

    def pending_edit(self) -> "UnitEditor.Edited | None":
        """The edit the focused field holds and the roster does not have yet (typed, with its
        message still on the way; or emptied, to apply when left): undo and save apply it first."""
        focused = self.screen.focused
        if focused is None or not isinstance(focused, Input) or self not in focused.ancestors:
            return None
        field = next((a for a in focused.ancestors if isinstance(a, StatField)), None)
        if field is None or field.locked or field.unapplied:
            return None
        raw, problem = field.read()
        if problem is not None:
            return None  # (the roster's value is compared when the edit is applied)
        return self._field_edit(field, raw, field.token())

    def unapplied(self) -> list[str]:
        """The fields whose text is not applied: 'Move (abc): not a whole number'."""
        out = []
        for field in self.query(StatField):
            if field.unapplied and isinstance(field.control, Input):
                out.append(f"{field.stat.label} ({field.control.value}): {field.unapplied}")
        return out

    @on(Select.Changed, "#type-select")
    def _type_changed(self, event: Select.Changed) -> None:
        event.stop()
        unit = self.unit
        if unit is None:
            return
        value = None if event.value is Select.NULL else event.value
        cost = self.cost
        if cost is not None and value == cost.type_id and (unit.type is None or value == unit.type):
            return
        self._send(lambda u: u.model_copy(update={"type": value}), "type", "type")

    @on(Select.Changed, "#member-select")
    def _member_changed(self, event: Select.Changed) -> None:
        event.stop()
        unit = self.unit
        if unit is None or not unit.members or event.value is Select.NULL or event.value == self.member:
            return
        self.member = int(event.value)  # type: ignore[arg-type]
        self._load_fields()

    @on(Button.Pressed, "#member-add")
    def _member_add(self, event: Button.Pressed) -> None:
        event.stop()
        if self.index is not None:
            self.post_message(self.MemberWanted(self, self.index))

    @on(Button.Pressed, "#member-remove")
    def _member_remove(self, event: Button.Pressed) -> None:
        event.stop()
        self.remove_member()

    def remove_member(self) -> None:
        """Remove the figures shown from a unit of mixed figures (not its last kind)."""
        unit = self.unit
        if unit is None or not unit.members or self.member is None or len(unit.members) < 2:
            return
        gone = self.member
        new = edits.remove_member(unit, gone)
        self.member = max(0, self.member - 1) if new.members else None
        self._send(lambda u: edits.remove_member(u, gone), "remove figures", "members")

    def add_member(self, member: Member) -> None:
        unit = self.unit
        if unit is None:
            return
        new = edits.add_member(unit, member)
        self.member = len(new.members) - 1
        self._send(lambda u: edits.add_member(u, member), "add figures", "members")

    @on(ItemList.AddRequested)
    def _item_add(self, event: ItemList.AddRequested) -> None:
        event.stop()
        if self.index is not None:
            self.post_message(self.ItemWanted(self, self.index, self.member, event.kind))

    def add_item(self, kind: str, name: str) -> None:
        unit = self.unit
        if unit is None:
            return
        member, figures = self.member, self.session.figures
        self._send(lambda u: edits.add_item(u, member, kind, name, figures), f"add {name}", kind)

    @on(ItemList.RemoveRequested)
    def _item_remove(self, event: ItemList.RemoveRequested) -> None:
        event.stop()
        unit = self.unit
        if unit is None:
            return
        names, _ = edits.held_items(unit, self.member, event.kind, self.session.figures)
        if event.position >= len(names):
            return
        member, figures, kind, position = self.member, self.session.figures, event.kind, event.position
        self._send(lambda u: edits.remove_item(u, member, kind, position, figures),
                   f"remove {names[position]}", kind)
