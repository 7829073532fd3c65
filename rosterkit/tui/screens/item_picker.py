"""Pick a weapon, ability or piece of equipment from the catalogue (or the roster's own),
seeing its cost and restrictions before it is added."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...editing.document import Document as RosterSession
from ...engine.costing import ItemCost, MemberCost, Pricer
from ...engine.roster import LocalItem
from ...errors import FormulaError
from ...rules.numbers import exact, fmt
from ...rules.ruleset import ITEM_SINGULAR, norm
from ...rules.schema import ItemDef, TypeDef
from ...rules.stats import coerce, kind_of
from ..widgets.ordered_input import OrderedInput

Entry = tuple[ItemDef | LocalItem, bool]  # (item, roster-local)


def item_stats_text(session: RosterSession, kind: str, stats: dict) -> str:
    """An item's stats in a line ("S 2, Rng 12\""), or "no bonuses"."""
    out = []
    for sid, sdef in session.rs.item_stats[kind].items():
        raw = stats.get(sid, sdef.default)
        if raw is None:
            continue
        shown = kind_of(sdef).brief(sdef, coerce(sdef, raw)[0])
        if shown is not None:
            out.append(shown)
    return ", ".join(out) if out else "no bonuses"


class ItemPickerScreen(ModalScreen[str | None]):
    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("down", "move(1)", "Next", show=False),
        Binding("up", "move(-1)", "Previous", show=False),
    ]

    def __init__(self, session: RosterSession, kind: str, member: MemberCost | None, type_def: TypeDef | None,
                 unit_name: str = "") -> None:
        super().__init__()
        self.session = session
        self.kind = kind
        self.member = member
        self.type_def = type_def
        self.unit_name = unit_name
        rs = session.rs
        local = list(getattr(session.roster, kind))
        local_names = {norm(i.name) for i in local}
        self.entries: list[Entry] = [(i, True) for i in local] + \
            [(i, False) for i in getattr(rs.data, kind) if norm(i.name) not in local_names]
        self.shown: list[Entry] = []
        self.pricer = Pricer(rs, session.roster)

    def compose(self) -> ComposeResult:
        what = ITEM_SINGULAR[self.kind]
        with Vertical(classes="dialog wide", id="item-picker"):
            yield Label(f"Add {'an' if what[0] in 'aeiou' else 'a'} {what}"
                        + (f" to {self.unit_name}" if self.unit_name else ""), classes="dialog-title", markup=False)
            yield OrderedInput(placeholder=f"Search {self.kind}…", id="pick-search", compact=True)
            with Horizontal(id="pick-body"):
                yield OptionList(id="pick-list")
                with VerticalScroll(id="pick-detail-box"):
                    yield Static("", id="pick-detail", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Add", id="ok", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        self._fill("")
        self.set_focus(self.query_one("#pick-search", Input))  # typing filters; enter adds the highlighted

    def price(self, item: ItemDef | LocalItem) -> ItemCost | None:
        m = self.member
        try:
            if m is None:
                return self.pricer.price(self.kind, item.name, {}, 0, 0, "preview")[0]
            weapons = sum((i.cost for i in m.items if i.kind == "weapons"), 0)
            return self.pricer.price(self.kind, item.name, m.env, m.figure_cost, weapons, "preview")[0]
        except (FormulaError, KeyError, TypeError, ValueError):
            return None

    def allowed(self, item: ItemDef | LocalItem) -> bool:
        if not item.allowed_types or self.type_def is None:
            return True
        return any(self.session.rs.find_type(t) == self.type_def for t in item.allowed_types)

    def _fill(self, query: str) -> None:
        q = query.strip().casefold()
        self.shown = []
        options = []
        for item, local in self.entries:
            names = [item.name, *getattr(item, "aliases", [])]
            if q and not any(q in n.casefold() for n in names) and q not in item.description.casefold():
                continue
            cost = self.price(item)
            text = Text(item.name, style="bold" if self.allowed(item) else "dim strike")
            text.append(f"  {fmt(cost.cost) if cost else '?'}", style="bold" if self.allowed(item) else "dim")
            if local:
                text.append("  roster", style="cyan")
            if cost is not None and cost.source == "unpriced":
                text.append("  unpriced", style="yellow")
            if not self.allowed(item):
                types = ", ".join(self._type_names(item))
                text.append(f"  only {types}", style="red")
            elif item.allowed_types:
                text.append(f"  only {', '.join(self._type_names(item))}", style="dim")
            options.append(Option(text))
            self.shown.append((item, local))
        if not options:
            options.append(Option(Text("Nothing matches.", style="dim"), disabled=True))
        lst = self.query_one("#pick-list", OptionList)
        lst.set_options(options)
        if self.shown:
            lst.highlighted = 0
        self._detail()

    def _type_names(self, item) -> list[str]:
        out = []
        for t in item.allowed_types:
            tdef = self.session.rs.find_type(t)
            out.append(tdef.name if tdef else t)
        return out

    @property
    def current(self) -> Entry | None:
        i = self.query_one("#pick-list", OptionList).highlighted
        return self.shown[i] if i is not None and i < len(self.shown) else None

    def _detail(self) -> None:
        box = self.query_one("#pick-detail", Static)
        entry = self.current
        self.query_one("#ok", Button).disabled = entry is None
        if entry is None:
            box.update("")
            return
        item, local = entry
        cost = self.price(item)
        parts: list = [Text(item.name, style="bold")]
        if getattr(item, "aliases", None):
            parts.append(Text("Also called: " + ", ".join(item.aliases), style="dim"))  # type: ignore[union-attr]
        if item.description:
            parts.append(Text(item.description))
        stats = item_stats_text(self.session, self.kind, item.stats)
        if stats:
            parts.append(Text.assemble(("Stats: ", "bold"), stats))
        grid = Table.grid(padding=(0, 1))
        grid.add_column(style="bold")
        grid.add_column()
        if cost is not None:
            how = {"published": "as printed in the rules", "formula": "from the ruleset's formula",
                   "own formula": "its own formula, for this figure", "roster": "set in this roster",
                   "house price": "this roster's house price", "unpriced": "the source gives no price"}
            grid.add_row("Cost", Text.assemble((fmt(cost.cost), "bold"), f"  ({how.get(cost.source, cost.source)})"))
            if cost.note:
                grid.add_row("", Text(cost.note, style="yellow" if cost.source == "published" else "dim"))
        for p in getattr(item, "other_printings", []):
            grid.add_row("", Text(f"also printed as {fmt(exact(p.cost))} in {p.where}", style="yellow"))
        if item.allowed_types:
            ok = self.allowed(item)
            grid.add_row("Only for", Text(", ".join(self._type_names(item)), style="" if ok else "bold red"))
            if not ok and self.type_def is not None:
                grid.add_row("", Text(f"This unit is {self.type_def.name}: adding it will be an error.",
                                      style="red"))
        if getattr(item, "note", ""):
            grid.add_row("Note", Text(item.note, style="italic"))  # type: ignore[union-attr]
        if local:
            grid.add_row("", Text("Designed in this roster (F3 to edit).", style="cyan"))
        parts.append(grid)
        box.update(Group(*parts))

    @on(Input.Changed, "#pick-search")
    def _search(self, event: Input.Changed) -> None:
        self._fill(event.value)

    @on(Input.Submitted, "#pick-search")
    def _search_done(self) -> None:
        if self.current is not None:
            self._ok()
        else:
            self.query_one("#pick-list").focus()

    @on(OptionList.OptionHighlighted, "#pick-list")
    def _moved(self) -> None:
        self._detail()

    @on(OptionList.OptionSelected, "#pick-list")
    @on(Button.Pressed, "#ok")
    def _ok(self) -> None:
        entry = self.current
        if entry is not None:
            self.dismiss(entry[0].name)

    def action_move(self, step: int) -> None:
        lst = self.query_one("#pick-list", OptionList)
        lst.action_cursor_down() if step > 0 else lst.action_cursor_up()

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
