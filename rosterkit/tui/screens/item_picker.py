"""Pick a weapon, ability or piece of equipment from the catalogue (or the roster's own),
seeing its cost and restrictions before it is added."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets.option_list import Option

from ...editing.document import Document
from ...engine.costing import ItemCost, MemberCost, Pricer
from ...engine.roster import LocalItem
from ...errors import FormulaError
from ...rules.numbers import exact, fmt
from ...rules.ruleset import ITEM_SINGULAR, norm
from ...rules.schema import ItemDef, TypeDef
from ...rules.stats import coerce, kind_of
from ...words import with_article
from .picker import PickerScreen, matches

Entry = tuple[ItemDef | LocalItem, bool]  # (item, roster-local)


def item_stats_text(session: Document, kind: str, stats: dict) -> str:
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


class ItemPickerScreen(PickerScreen[str | None]):
    """Returns the name of the item picked."""

    def __init__(self, session: Document, kind: str, member: MemberCost | None, type_def: TypeDef | None,
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
        self.pricer = Pricer(rs, session.roster)

    def heading(self) -> str:
        what = ITEM_SINGULAR[self.kind]
        return f"Add {with_article(what)}" + (f" to {self.unit_name}" if self.unit_name else "")

    def placeholder(self) -> str:
        return f"Search {self.kind}…"

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

    def fill(self, query: str) -> list[tuple[Option, Entry | None]]:
        lines: list[tuple[Option, Entry | None]] = []
        for item, local in self.entries:
            if not matches(query, item.name, *getattr(item, "aliases", []), item.description):
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
            lines.append((Option(text), (item, local)))
        return lines

    def _type_names(self, item) -> list[str]:
        out = []
        for t in item.allowed_types:
            tdef = self.session.rs.find_type(t)
            out.append(tdef.name if tdef else t)
        return out

    def describe(self, entry: Entry) -> RenderableType:
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
        return Group(*parts)

    def chosen(self, entry: Entry) -> str:
        return entry[0].name
