"""Design: the roster's own weapons, abilities and equipment, priced live by the ruleset's formula.

The catalogue's entries are listed too, read-only, with their published cost and what the
formula gives when the two differ; any of them can be copied into the roster as a start.
The player's own figures (kept across rosters, one file per ruleset) are listed with their
cost per figure: a unit of the roster can be saved as one, and they can be renamed or deleted.
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, OptionList, SelectionList, Static
from textual.widgets.option_list import Option

from ...editing import edits
from ...editing.document import Document, Where
from ...engine.costing import (
    ItemCost,
    Pricer,
    arithmetic,
    item_how,
    price_source,
    singular,
)
from ...engine.roster import LocalItem, RosterFile
from ...errors import FormulaError
from ...files.atomic import FileChangedError
from ...files.figures import figure_from_unit, figures_path
from ...rules.numbers import exact, fmt
from ...rules.ruleset import ITEM_KINDS, ITEM_SINGULAR, norm
from ...rules.schema import FigureDef, ItemDef, StatDef
from ...visible import plain
from ...words import count_of
from .. import messages
from ..render import figure_lines
from ..widgets.stat_field import StatField
from ..widgets.topbar import TopBar
from .history import HistoryActions
from .item_picker import item_stats_text

KIND_TITLES = {"weapons": "weapons", "abilities": "abilities", "equipment": "equipment"}
# (what, kind, index): what is "local", "new", "catalogue" or "head"; for the player's figures
# (kind "figures"): "figure", "savefig" (save the roster's selected unit) or "figerror"
Row = tuple[str, str, int | None]


class DesignScreen(HistoryActions, Screen):
    BINDINGS = [
        Binding("escape", "back", "Back", id="design.back"),
        Binding("ctrl+z", "undo", "Undo", priority=True, id="design.undo"),
        # the footer shows the first four, whole at 60 columns; F1 and ctrl+p list them all
        Binding("ctrl+y,ctrl+shift+z", "redo", "Redo", priority=True, show=False, id="design.redo"),
        Binding("ctrl+s", "save", "Save", priority=True, id="design.save"),
        Binding("ctrl+n", "new_item", "New item", priority=True, id="design.new_item"),
        Binding("c", "copy_item", "Copy to roster", show=False, id="design.copy_item"),
        Binding("delete", "delete_item", "Delete item", show=False, id="design.delete_item"),
        Binding("u", "save_figure", "Unit to figure", show=False, tooltip="Save the selected unit as one of your figures", id="design.save_figure"),
        Binding("r", "rename_figure", "Rename figure", show=False, tooltip="Rename one of your figures", id="design.rename_figure"),
    ]

    def __init__(self, session: Document, selected: int | None = None) -> None:
        super().__init__()
        self.session = session
        self.selected = selected  # the unit selected on the roster screen (offered as a figure)
        self.rs = self.session.rs
        self.rows: list[Row] = []
        self.current: Row | None = None
        self._pending_name: str | None = None

    @property
    def kinds(self) -> list[str]:
        rs = self.rs
        return [k for k in ITEM_KINDS if rs.item_stats[k] or rs.item_formulas.get(k) is not None
                or getattr(rs.data, k) or getattr(self.session.roster, k)]

    def compose(self) -> ComposeResult:
        yield TopBar(id="topbar")
        with Horizontal(id="design-body"):
            yield OptionList(id="design-list")
            with VerticalScroll(id="design-detail"):
                yield Static("", id="design-title", markup=False)
                with Vertical(id="design-form"):
                    yield StatField(StatDef(id="name", label="Name", kind="text"), id="d-name")
                    for kind in ITEM_KINDS:
                        with Vertical(id=f"d-stats-{kind}", classes="d-stats"):
                            for sdef in self.rs.item_stats[kind].values():
                                yield StatField(sdef, id=f"d-{kind}-{sdef.id}")
                    yield StatField(StatDef(id="cost", label="Fixed cost", kind="number", min=0, optional=True),
                                    id="d-cost", placeholder="formula")
                    yield Static("Only for types (none ticked: any type)", classes="field-label-wide", markup=False)
                    yield SelectionList(*[(Text(t.name), t.id) for t in self.rs.data.types], id="d-types",
                                        compact=True)
                    yield StatField(StatDef(id="description", label="Description", kind="text"), id="d-desc")
                yield Static("", id="design-price", markup=False)
        yield Footer(compact=True)

    def on_resize(self, event) -> None:
        self.set_class(event.size.width < 100, "-narrow")

    def on_mount(self) -> None:
        self.query_one("#design-list").border_title = "Items"
        self.query_one("#design-detail").border_title = "Detail"
        self._fill()
        self.query_one("#design-list", OptionList).focus()

    # ------------------------------------------------------------ the list

    def _fill(self, keep: Row | None = None) -> None:
        roster = self.session.roster
        pricer = Pricer(self.rs, roster)
        rows: list[Row] = []
        options: list[Option] = []
        for kind in self.kinds:
            rows.append(("head", kind, None))
            options.append(Option(Text(f"Roster {KIND_TITLES[kind]}", style="bold underline"), disabled=True))
            for i, item in enumerate(getattr(roster, kind)):
                cost = self._price(pricer, kind, item.name)
                rows.append(("local", kind, i))
                options.append(Option(Text.assemble((item.name, "bold"), (f"  {fmt(cost.cost) if cost else '?'}",
                                                                           ""))))
            rows.append(("new", kind, None))
            options.append(Option(Text(f"+ New {ITEM_SINGULAR[kind]}", style="green")))
        self._figure_rows(rows, options)
        for kind in self.kinds:
            catalogue = getattr(self.rs.data, kind)
            if not catalogue:
                continue
            rows.append(("head", kind, None))
            options.append(Option(Text(f"Catalogue {KIND_TITLES[kind]}", style="bold underline"), disabled=True))
            for i, item in enumerate(catalogue):
                cost = self._price(pricer, kind, item.name, catalogue_only=True)
                shown = "own formula" if item.cost_formula else (fmt(cost.cost) if cost else "?")
                text = Text.assemble((item.name, ""), (f"  {shown}", "dim"))
                if cost is not None and cost.note and cost.source == "published":
                    text.append("  ≠ formula", style="yellow")
                rows.append(("catalogue", kind, i))
                options.append(Option(text))
        self.rows = rows
        lst = self.query_one("#design-list", OptionList)
        with lst.prevent(OptionList.OptionHighlighted):
            lst.set_options(options)
            target = keep if keep in rows else next((r for r in rows if r[0] != "head"), None)
            if target is not None:
                lst.highlighted = rows.index(target)
        self._show(self._row())
        self._refresh_title()

    def _figure_rows(self, rows: list[Row], options: list[Option]) -> None:
        s = self.session
        rows.append(("head", "figures", None))
        options.append(Option(Text("Your figures (every roster)", style="bold underline"), disabled=True))
        if s.figures_error is not None:
            rows.append(("figerror", "figures", None))
            options.append(Option(Text("! Your figures file has a mistake", style="bold red")))
            return
        label = singular(self.rs.data.count_label)
        for i, fig in enumerate(s.user_figures):
            per = self._figure_cost(fig)
            text = Text.assemble((fig.name, "bold"), (f"  {fmt(per.members[0].per_figure)} per {label}"
                                                      if per is not None and per.members else "  ?", ""))
            if s.figures.find(fig.name) is not fig:
                text.append("  hidden by the ruleset's", style="yellow")
            rows.append(("figure", "figures", i))
            options.append(Option(text))
        unit = self._selected_unit()
        rows.append(("savefig", "figures", None))
        options.append(Option(Text(f"+ Save {unit.name} as a figure" if unit is not None
                                   else "+ Save a unit as a figure", style="green")))

    def _selected_unit(self):
        i = self.selected
        units = self.session.roster.units
        return units[i] if i is not None and 0 <= i < len(units) else None

    def _figure_cost(self, fig: FigureDef):
        """The figure costed as a unit of this roster (its own weapons and abilities count)."""
        roster = self.session.roster
        preview = RosterFile(name="preview", ruleset=self.rs.id, weapons=roster.weapons, abilities=roster.abilities,
                             equipment=roster.equipment, house_prices=roster.house_prices)
        try:
            return self.session.costing.unit(preview, edits.unit_from_figure(fig), 0)
        except Exception:  # a figure that cannot be costed shows "?"; its detail says why
            return None

    def _price(self, pricer: Pricer, kind: str, name: str, catalogue_only: bool = False) -> ItemCost | None:
        try:
            if catalogue_only and pricer.local[kind].get(norm(name)) is not None:
                pricer = Pricer(self.rs, self.session.roster.model_copy(update={kind: []}))
            return pricer.price(kind, name, {}, 0, 0, name)[0]
        except (FormulaError, KeyError, TypeError, ValueError):
            return None

    def _row(self) -> Row | None:
        i = self.query_one("#design-list", OptionList).highlighted
        return self.rows[i] if i is not None and i < len(self.rows) else None

    def _refresh_title(self) -> None:
        s = self.session
        bar = self.query_one(TopBar)
        bar.left = Text.assemble(("Design", "bold"), f" · {s.roster.name}")
        right = Text(f"{fmt(s.report.total)} {s.rs.data.points_label}")
        if s.dirty:
            right.append("  ● unsaved", style="bold yellow")
        bar.right = right

    @on(OptionList.OptionHighlighted, "#design-list")
    def _moved(self) -> None:
        self._commit_name()
        self._show(self._row())

    @on(OptionList.OptionSelected, "#design-list")
    def _chosen(self) -> None:
        row = self._row()
        if row is None:
            return
        if row[0] == "new":
            self._new(row[1])
        elif row[0] == "savefig":
            self.action_save_figure()
        elif row[0] == "figure":
            self.action_rename_figure()
        elif row[0] == "local":
            self.query_one("#d-name", StatField).focus_control()

    # ------------------------------------------------------------ the detail

    def _show(self, row: Row | None) -> None:
        self.current = row
        self._pending_name = None
        form = self.query_one("#design-form")
        title = self.query_one("#design-title", Static)
        if row is None or row[0] in ("head",):
            form.display = False
            title.update("")
            self._price_line()
            return
        what, kind, index = row
        if what == "new":
            form.display = False
            title.update(Text.assemble((f"New {ITEM_SINGULAR[kind]}", "bold"),
                                       ("\nPress enter (or ctrl+n) to design a new " + ITEM_SINGULAR[kind] +
                                        " for this roster; it is priced by the ruleset's formula as you set "
                                        "its stats.", "dim")))
            self._price_line()
            return
        if kind == "figures":
            form.display = False
            title.update(self._figures_detail(what, index))
            self._price_line()
            return
        if what == "catalogue":
            form.display = False
            item = getattr(self.rs.data, kind)[index]
            title.update(self._catalogue_detail(kind, item))
            self._price_line()
            return
        item: LocalItem = getattr(self.session.roster, kind)[index]
        form.display = True
        title.update(Text.assemble((f"Roster {ITEM_SINGULAR[kind]}", "bold"),
                                   ("  (its name is what units list)", "dim")))
        for k in ITEM_KINDS:
            self.query_one(f"#d-stats-{k}").display = k == kind
        self.query_one("#d-name", StatField).show(item.name)
        for sdef in self.rs.item_stats[kind].values():
            raw = item.stats.get(sdef.id)
            self.query_one(f"#d-{kind}-{sdef.id}", StatField).show(
                raw, inherited=sdef.default, note="default" if raw is None and sdef.default is not None else "")
        self.query_one("#d-cost", StatField).show(item.cost)
        types = self.query_one("#d-types", SelectionList)
        wanted = {self.rs.find_type(t).id for t in item.allowed_types if self.rs.find_type(t)}
        with types.prevent(SelectionList.SelectedChanged):
            types.deselect_all()
            for t in wanted:
                types.select(t)
        self.query_one("#d-desc", StatField).show(item.description or None)
        self._price_line()

    def _figures_detail(self, what: str, index: int | None):
        s, rs = self.session, self.rs
        path = figures_path(rs.id)
        if what == "figerror":
            return Group(Text("Your figures file could not be read", style="bold red"),
                         Text(str(s.figures_error)),
                         Text(f"Fix {path} in a text editor (it is left as it is); your figures come back when "
                              "the roster is opened again.", style="dim"))
        if what == "savefig":
            unit = self._selected_unit()
            head = Text(f"Save {unit.name} as one of your figures" if unit is not None else "Save a unit as a figure",
                        style="bold")
            return Group(head, Text(
                f"Press enter (or u) to keep the unit selected in the roster as a reusable figure for every "
                f"{rs.name} roster: its type, count, stats and gear. Add it from the add-unit dialog (ctrl+n) "
                f"in any roster. Your figures are kept in {path}.", style="dim"))
        fig = s.user_figures[index]  # type: ignore[index]
        uc = self._figure_cost(fig)
        tdef = rs.find_type(fig.type)
        label = rs.data.count_label
        parts: list = [Text.assemble((fig.name, "bold"), ("  your figure", "dim")),
                       Text(f"{tdef.name if tdef else fig.type}, {fig.count} "
                            f"{label if fig.count != 1 else singular(label)}", style="dim")]
        if fig.description:
            parts.append(Text(fig.description))
        if s.figures.find(fig.name) is not fig:
            parts.append(Text(f"The ruleset has a figure named {fig.name}: units naming it get the ruleset's. "
                              "Rename yours (r).", style="yellow"))
        if uc is not None and uc.members:
            m = uc.members[0]
            parts.extend(figure_lines(rs, uc, m))
            parts.append(Text.assemble(("Cost: ", "bold"), (fmt(m.per_figure), "bold green"),
                                       f" per {singular(label)}"))
            for f in uc.findings:
                if f.severity == "error":
                    parts.append(Text(f.message, style="red"))
        users = edits.units_using_figure(s.roster, fig.name)
        if users:
            parts.append(Text(f"Used by {len(users)} unit{'s' if len(users) != 1 else ''} of this roster.",
                              style="dim"))
        parts.append(Text(f"r renames it, delete removes it. Kept in {path}.", style="dim"))
        return Group(*parts)

    def _catalogue_detail(self, kind: str, item: ItemDef):
        pricer = Pricer(self.rs, self.session.roster.model_copy(update={kind: []}))
        cost = self._price(pricer, kind, item.name)
        grid = Table.grid(padding=(0, 1))
        grid.add_column(style="bold")
        grid.add_column()
        grid.add_row("Stats", plain(item_stats_text(self.session, kind, item.stats) or "-"))
        if item.unpriced:
            grid.add_row("Cost", Text("unpriced in the source (a house price can be set)", style="yellow"))
        elif item.cost_formula:
            grid.add_row("Cost", plain(f"{item.cost_label or 'its own formula'}, which depends on the figure that has it"))
        elif cost is not None:
            grid.add_row("Cost", Text.assemble((fmt(cost.cost), "bold"), f"  ({price_source(cost)})"))
            if cost.source == "published" and cost.formula_value is not None:
                if cost.formula_value != cost.cost:
                    grid.add_row("", Text(f"Printed {fmt(cost.cost)}; the formula gives {fmt(cost.formula_value)}. "
                                          "The printed cost is used.", style="yellow"))
                else:
                    grid.add_row("", Text("The formula gives the same.", style="dim"))
            elif cost.note:
                grid.add_row("", Text(cost.note, style="dim"))
        for p in item.other_printings:
            grid.add_row("", Text(f"Also printed as {fmt(exact(p.cost))} in {p.where}", style="yellow"))
        if item.allowed_types:
            grid.add_row("Only for", plain(", ".join(item.allowed_types)))
        if item.note:
            grid.add_row("Note", Text(item.note, style="italic"))
        parts = [Text.assemble((item.name, "bold"), (f"  catalogue {ITEM_SINGULAR[kind]}", "dim"))]
        if item.description:
            parts.append(Text(item.description))
        parts.append(grid)
        parts.append(Text("Press c to copy it into the roster as a starting point for your own.", style="dim"))
        return Group(*parts)

    def _price_line(self) -> None:
        box = self.query_one("#design-price", Static)
        row = self.current
        if row is None or row[0] != "local":
            box.update("")
            box.display = False
            return
        _, kind, index = row
        s = self.session
        item: LocalItem = getattr(s.roster, kind)[index]
        pricer = Pricer(self.rs, s.roster)
        f = self.rs.item_formulas.get(kind)
        parts = Text()
        try:
            cost, problems = pricer.price(kind, item.name, {}, 0, 0, item.name)
        except (FormulaError, KeyError, TypeError, ValueError) as exc:
            box.update(Text(f"Cannot price it: {exc}", style="red"))
            box.display = True
            return
        parts.append("Price ", style="bold")
        parts.append(fmt(cost.cost), style="bold green")
        if cost.source == "formula":
            parts.append(f"   {item_how(cost)}", style="")
        elif cost.source == "roster":
            parts.append("   fixed in the roster", style="dim")
            if f is not None:
                env, _ = pricer.item_env(kind, item.stats)
                try:
                    formula_value = f.evaluate_number(env, None, item.name)
                    if formula_value != cost.cost:
                        working = arithmetic(f.substituted(env))
                        parts.append(f"\nThe formula would give {fmt(formula_value)}"
                                     + (f": {working}" if working and working != fmt(formula_value) else ""),
                                     style="yellow")
                except FormulaError:
                    pass
        elif cost.source == "unpriced":
            parts.append("   the ruleset has no formula for these: set a fixed cost", style="yellow")
        for p in problems:
            parts.append(f"\n{p}", style="red")
        holders = sum(1 for c in s.costs if any(it.kind == kind and it.local and norm(it.name) == norm(item.name)
                                                for m in c.members for it in m.items))
        parts.append(f"\nHeld by {holders} unit{'s' if holders != 1 else ''}." if holders else
                     "\nNo unit holds it yet: add it from a unit's list in the roster.", style="dim")
        if self.rs.find_item(kind, item.name) is not None:
            parts.append(f"\nIt replaces the catalogue's {item.name} in this roster.", style="yellow")
        box.update(parts)
        box.display = True

    # ------------------------------------------------------------ edits

    def _apply(self, roster, label: str, row: Row | None = None, coalesce: object = None) -> None:
        s = self.session
        where = Where(screen="design", item=(row[1], row[2]) if row and row[2] is not None else None)
        s.apply(roster, label, where, coalesce)  # (the session tells the app, which autosaves)
        self._after(row)

    def _after(self, row: Row | None) -> None:
        keep = row if row is not None else self.current
        lst = self.query_one("#design-list", OptionList)
        focused = self.focused
        self._fill(keep)
        if focused is not None and focused is not lst and focused.is_attached:
            focused.focus()

    def _local(self) -> tuple[str, int, LocalItem] | None:
        row = self.current
        if row is None or row[0] != "local" or row[2] is None:
            return None
        items = getattr(self.session.roster, row[1])
        if row[2] >= len(items):
            return None
        return row[1], row[2], items[row[2]]

    @on(StatField.Changed)
    def _field_changed(self, event: StatField.Changed) -> None:
        event.stop()
        found = self._local()
        if found is None:
            return
        kind, index, item = found
        fid = event.stat_field.id or ""
        key = (kind, index, fid)
        if fid == "d-name":
            name = event.raw if isinstance(event.raw, str) else ""
            if not name.strip():
                event.stat_field.set_message("A name is needed")
                self._pending_name = None
                return
            clash = any(norm(o.name) == norm(name) for j, o in enumerate(getattr(self.session.roster, kind))
                        if j != index)
            if clash:
                event.stat_field.set_message(f"Another roster {ITEM_SINGULAR[kind]} has that name")
                self._pending_name = None
                return
            self._pending_name = name  # renamed when the field is left, units' references with it
            return
        if fid == "d-cost":
            new = item.model_copy(update={"cost": event.raw})
        elif fid == "d-desc":
            new = item.model_copy(update={"description": event.raw or ""})
        elif fid.startswith(f"d-{kind}-"):
            sid = fid[len(f"d-{kind}-"):]
            stats = dict(item.stats)
            if event.raw is None:
                stats.pop(sid, None)
            else:
                stats[sid] = event.raw
            new = item.model_copy(update={"stats": stats})
        else:
            return
        self._apply(edits.set_local(self.session.roster, kind, index, new), f"edit {item.name}",
                    ("local", kind, index), coalesce=key)

    @on(Input.Blurred)
    @on(Input.Submitted)
    def _name_done(self, event) -> None:
        if event.input is self.query_one("#d-name", StatField).control:
            self._commit_name()

    def _commit_name(self) -> None:
        name, self._pending_name = self._pending_name, None
        found = self._local()
        if name is None or found is None:
            return
        kind, index, item = found
        if name == item.name:
            return
        self._apply(edits.rename_local(self.session.roster, kind, index, name), f"rename {item.name}",
                    ("local", kind, index))

    @on(SelectionList.SelectedChanged, "#d-types")
    def _types_changed(self, event: SelectionList.SelectedChanged) -> None:
        found = self._local()
        if found is None:
            return
        kind, index, item = found
        ids = [t.id for t in self.rs.data.types if t.id in event.selection_list.selected]
        if [self.rs.find_type(t).id for t in item.allowed_types if self.rs.find_type(t)] == ids:
            return
        self._apply(edits.set_local(self.session.roster, kind, index, item.model_copy(update={"allowed_types": ids})),
                    f"types of {item.name}", ("local", kind, index))

    # ------------------------------------------------------------ actions

    def _new(self, kind: str, base: LocalItem | None = None) -> None:
        roster = self.session.roster
        item = base or LocalItem(name=edits.unique_local_name(roster, kind, f"New {ITEM_SINGULAR[kind]}"))
        index = len(getattr(roster, kind))
        self._apply(edits.add_local(roster, kind, item), f"new {ITEM_SINGULAR[kind]}", ("local", kind, index))
        self.query_one("#d-name", StatField).focus_control()

    def action_new_item(self) -> None:
        row = self.current
        kind = row[1] if row is not None and row[1] in ITEM_KINDS else self.kinds[0]
        self._new(kind)

    def action_copy_item(self) -> None:
        row = self.current
        if row is None or row[0] not in ("catalogue", "local"):
            return
        _, kind, index = row
        src = getattr(self.rs.data if row[0] == "catalogue" else self.session.roster, kind)[index]
        name = edits.unique_local_name(self.session.roster, kind, f"{src.name} (own)"[:200])
        item = LocalItem(name=name, stats=dict(src.stats), allowed_types=list(src.allowed_types),
                         description=src.description)
        self._new(kind, item)

    def action_delete_item(self) -> None:
        if self.focused is not None and self.focused is not self.query_one("#design-list"):
            return  # delete edits text in a field; it deletes an item only from the list
        if self.current is not None and self.current[0] == "figure":
            self.action_delete_figure()
            return
        found = self._local()
        if found is None:
            return
        kind, index, item = found
        self._apply(edits.delete_local(self.session.roster, kind, index), f"delete {item.name}",
                    ("head", kind, None))
        self.notify(f"Deleted {item.name} (ctrl+z brings it back)", timeout=3)

    # ------------------------------------------------------------ the player's figures

    def _figure_name_problem(self, name: str, skip: int | None = None) -> str | None:
        if any(norm(f.name) == norm(name) for i, f in enumerate(self.session.user_figures) if i != skip):
            return "You have a figure of that name"
        if self.rs.data.figures and any(norm(n) == norm(name) for f in self.rs.data.figures
                                        for n in (f.name, *f.aliases)):
            return "The ruleset has a figure of that name"
        return None

    def _write_figures(self, figures: list[FigureDef], keep: Row | None, done: str) -> bool:
        s = self.session
        if s.figures_error is not None:
            self.notify(f"Fix {figures_path(self.rs.id)} first: {s.figures_error}", title="Figures not saved",
                        severity="error", timeout=10)
            return False
        try:
            s.save_figures(figures)
        except FileChangedError:
            self._after(keep)
            self.notify(f"{figures_path(self.rs.id)} was changed by another window or program; it has been "
                        "read again and nothing was written: make the change again", title="Figures not saved",
                        severity="error", timeout=10)
            return False
        except OSError as exc:
            self.notify(f"Cannot write {figures_path(self.rs.id)}: {exc.strerror or exc}", title="Figures not saved",
                        severity="error", timeout=10)
            return False
        self._after(keep)
        self.notify(done, timeout=3)
        return True

    def action_save_figure(self) -> None:
        s = self.session
        unit = self._selected_unit()
        if unit is None:
            self.notify("Select a unit in the roster first", timeout=3)
            return
        if s.figures_error is not None:
            self._write_figures([], None, "")
            return
        try:
            figure_from_unit(self.session.figures, unit, unit.name)
        except ValueError as exc:
            self.notify(f"{unit.name}: {exc}", title="Not saved", severity="warning", timeout=5)
            return
        suggestion = unit.name
        n = 2
        while self._figure_name_problem(suggestion) is not None and n < 1000:
            suggestion, n = f"{unit.name} {n}"[:200], n + 1

        def named(name: str | None) -> None:
            if not name:
                return
            fig = figure_from_unit(self.session.figures, unit, name)
            figures = list(s.user_figures) + [fig]
            local = [f"{ITEM_SINGULAR[k]} {n}" for k in ITEM_KINDS for n in getattr(fig, k)
                     if any(norm(it.name) == norm(n) for it in getattr(s.roster, k))]
            note = f" It uses this roster's own {', '.join(local)}." if local else ""
            self._write_figures(figures, ("figure", "figures", len(figures) - 1),
                                f"Saved {name} as your figure.{note}")

        from .figure_dialogs import FigureNameScreen

        self.app.push_screen(FigureNameScreen(
            "Save as your figure", f"Name the figure made from {unit.name} (it can be added to any "
            f"{self.rs.name} roster):", suggestion, self._figure_name_problem), named)

    def _current_figure(self) -> tuple[int, FigureDef] | None:
        row = self.current
        figures = self.session.user_figures
        if row is None or row[0] != "figure" or row[2] is None or row[2] >= len(figures):
            return None
        return row[2], figures[row[2]]

    def action_rename_figure(self) -> None:
        found = self._current_figure()
        if found is None:
            return
        index, fig = found

        def named(name: str | None) -> None:
            if not name or name == fig.name:
                return
            s = self.session
            figures = list(s.user_figures)
            figures[index] = fig.model_copy(update={"name": name})
            users = edits.units_using_figure(s.roster, fig.name)
            if not self._write_figures(figures, ("figure", "figures", index), f"Renamed {fig.name} to {name}"):
                return
            if users:  # the roster's units follow (an undoable edit of the roster)
                s.apply(edits.rename_figure_refs(s.roster, fig.name, name), f"rename figure {fig.name}",
                        Where(screen="design"))
                self._after(("figure", "figures", index))

        from .figure_dialogs import FigureNameScreen

        self.app.push_screen(FigureNameScreen(
            "Rename your figure", f"New name for {fig.name} (units of this roster that use it follow):",
            fig.name, lambda n: self._figure_name_problem(n, skip=index)), named)

    def action_delete_figure(self) -> None:
        found = self._current_figure()
        if found is None:
            return
        index, fig = found
        users = edits.units_using_figure(self.session.roster, fig.name)
        text = f"Delete {fig.name} from your figures? Every roster loses it; this cannot be undone " \
               f"(the previous file is kept as {figures_path(self.rs.id).name}.bak)."
        if users:
            text += f" {count_of(len(users), 'unit')} of this roster use{'s' * (len(users) == 1)} " \
                    "it and will name an unknown figure."

        def answered(yes: bool | None) -> None:
            if yes:
                figures = [f for i, f in enumerate(self.session.user_figures) if i != index]
                self._write_figures(figures, ("savefig", "figures", None), f"Deleted your figure {fig.name}")

        from .figure_dialogs import ConfirmFigureScreen

        self.app.push_screen(ConfirmFigureScreen("Delete your figure", text), answered)

    def _before_undo(self) -> None:
        self._commit_name()

    def _after_history(self, change) -> None:
        item = change.where.item
        self._fill(("local", item[0], item[1]) if item else None)
        self.notify(change.label.capitalize(), timeout=2)

    def action_save(self) -> None:
        self._commit_name()
        self.post_message(messages.SaveRequested(self.session, then=self._refresh_title))

    def action_back(self) -> None:
        self._commit_name()
        self.dismiss()
