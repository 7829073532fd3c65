"""A ruleset, readable: its stats, types, formulas, catalogues and limits."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static, TabbedContent, TabPane

from ...engine.checks import discrepancies
from ...engine.costing import Pricer, singular
from ...engine.roster import RosterFile
from ...errors import FormulaError
from ...rules.numbers import exact, fmt
from ...rules.ruleset import ITEM_KINDS, ITEM_SINGULAR, Ruleset
from ...rules.stats import expected
from ...visible import plain
from ..widgets.topbar import TopBar


def limit_scope(rs: Ruleset, scope: str) -> str:
    """What a limit is checked on, in the ruleset's words: the army, each unit, each figure."""
    if scope == "unit":
        return "each unit"
    if scope == "figure":
        return f"each {singular(rs.data.count_label)}"
    return "the army"


def _table(*columns: str, title: str | None = None) -> Table:
    table = Table(expand=True, show_edge=False, pad_edge=False, header_style="bold",
                  title=plain(title, "bold") if title else None, title_justify="left")
    for c in columns:
        table.add_column(plain(c), overflow="fold")
    return table


def _row(table: Table, *cells: str | Text) -> None:
    """A row of the ruleset's own text: Rich reads a str cell as markup, a Text never."""
    table.add_row(*[plain(c, newlines=True) for c in cells])


class RulesetScreen(Screen):
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("left", "tab(-1)", "Previous tab", show=False),
        Binding("right", "tab(1)", "Next tab", show=False),
    ]

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__()
        self.rs = ruleset

    def compose(self) -> ComposeResult:
        rs = self.rs
        yield TopBar(Text.assemble(("Ruleset", "bold"), f" · {rs.name}"), Text(rs.id, style="dim"), id="topbar")
        with TabbedContent(id="ruleset-tabs"):
            pages = [("Overview", self._overview()), ("Stats", self._stats()), ("Types", self._types()),
                     ("Formulas", self._formulas())]
            for kind in ITEM_KINDS:
                if getattr(rs.data, kind):
                    pages.append((kind.capitalize(), self._catalogue(kind)))
            if rs.data.figures:
                pages.append(("Figures", self._figures()))
            pages.append(("Limits", self._limits()))
            for title, body in pages:
                with TabPane(title, id=f"rs-{title.lower()}"):
                    with VerticalScroll(classes="ruleset-page"):
                        yield Static(body, markup=False)
        yield Footer(compact=True)

    def action_back(self) -> None:
        self.dismiss()

    def action_tab(self, step: int) -> None:
        tabs = self.query_one(TabbedContent)
        panes = [p.id for p in tabs.query(TabPane)]
        if tabs.active in panes:
            tabs.active = panes[(panes.index(tabs.active) + step) % len(panes)]  # type: ignore[assignment]

    # ------------------------------------------------------------ pages

    def _overview(self):
        rs, d = self.rs, self.rs.data
        parts: list = [Text(d.name, style="bold"), Text(rs.source_line(), style="dim")]
        if d.summary:
            parts.append(Text(d.summary))
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold")
        grid.add_column()
        _row(grid, "Id", d.id)
        _row(grid, "Version", d.version)
        _row(grid, "Costs are called", d.points_label)
        _row(grid, "A unit counts", d.count_label)
        if d.max_units is not None:
            _row(grid, "Most units", str(d.max_units))
        _row(grid, "File", str(rs.path) if rs.path else "-")
        _row(grid, "Contents", f"{len(d.stats)} stats, {len(d.types)} types, "
             f"{sum(len(getattr(d, k)) for k in ITEM_KINDS)} catalogue items, {len(d.figures)} figures, "
             f"{len(d.limits)} limits, {len(d.matchup)} match-up rules")
        parts.append(Text(""))
        parts.append(grid)
        if d.notes:
            parts.append(Text("\nNotes", style="bold"))
            for n in d.notes:
                parts.append(Text(f"• {n}"))
        try:
            found, _ = discrepancies(rs)
        except Exception:  # a broken ruleset still shows what it can
            found = []
        if found:
            parts.append(Text("\nPublished numbers that disagree", style="bold"))
            for x in found:
                other = fmt(x.computed) if x.computed is not None else "-"
                parts.append(Text(f"• {x.what} {x.name}: printed {fmt(x.published)}, {x.how} gives {other}"
                                  + (f" ({x.note})" if x.note else ""), style="yellow"))
        return Group(*parts)

    def _stats(self):
        rs = self.rs
        parts: list = []
        for title, defs in (("Figure stats", rs.data.stats), ("Weapon stats", rs.data.weapon_stats),
                            ("Ability stats", rs.data.ability_stats), ("Equipment stats", rs.data.equipment_stats),
                            ("Army settings", rs.data.roster_stats)):
            if not defs:
                continue
            table = _table("Stat", "Short", "Id", "Expects", "Default", "Description", title=title)
            for s in defs:
                default = "must be entered" if s.required else ("-" if s.default is None else str(s.default))
                _row(table, s.label, s.short_label, s.id, expected(s), default,
                     s.description + (f" ({s.entry_note})" if s.entry_note else ""))
            parts += [table, Text("")]
        if rs.data.derived:
            table = _table("Derived", "Id", "Of", "Formula", title="Derived values")
            for d in rs.data.derived:
                _row(table, d.label, d.id, d.scope, d.expr)
            parts.append(table)
        return Group(*parts)

    def _types(self):
        rs = self.rs
        table = _table("Type", "Also", "Parameters", "Sets", "Adds", "Description")
        for t in rs.data.types:
            _row(table, t.name, ", ".join(t.aliases) or "-",
                 ", ".join(f"{k} = {fmt(exact(v))}" for k, v in t.params.items()) or "-",
                 ", ".join(f"{k} = {v}" for k, v in t.set.items()) or "-",
                 ", ".join(f"{k} + {v}" for k, v in t.add.items()) or "-",
                 t.description + (f" ({t.note})" if t.note else ""))
        return table

    def _formulas(self):
        rs = self.rs
        f = rs.data.formulas
        parts: list = [Text("Figure cost", style="bold")]
        if isinstance(f.figure_cost, str):
            parts.append(Text(f"  {f.figure_cost}"))
        else:
            grid = Table.grid(padding=(0, 2))
            grid.add_column(style="dim")
            grid.add_column()
            for term in f.figure_cost.terms:
                _row(grid, term.label, term.expr)
            _row(grid, "Total", Text(f.figure_cost.total, style="bold"))
            parts.append(grid)
        parts.append(Text("A figure costs its figure cost plus its weapons, abilities and equipment; "
                          "a unit costs that times its count.", style="dim"))
        for kind in ITEM_KINDS:
            expr = getattr(f, f"{ITEM_SINGULAR[kind]}_cost")
            if expr:
                parts.append(Text.assemble((f"\n{ITEM_SINGULAR[kind].capitalize()} cost\n", "bold"), f"  {expr}"))
        return Group(*parts)

    def _catalogue(self, kind: str):
        rs = self.rs
        pricer = Pricer(rs, RosterFile(name="browse", ruleset=rs.id))
        stat_defs = list(rs.item_stats[kind].values())
        table = _table("Name", *[s.short_label for s in stat_defs], "Cost", "Only for", "Description")
        for item in getattr(rs.data, kind):
            try:
                cost = pricer.price(kind, item.name, {}, 0, 0, item.name)[0]
                cost_text = Text(fmt(cost.cost))
                if item.cost_formula:
                    cost_text = Text(item.cost_formula)
                elif cost.note and cost.source == "published":
                    cost_text.append(f" ({cost.note})", style="yellow")
                elif cost.source == "unpriced":
                    cost_text = Text("unpriced", style="yellow")
            except (FormulaError, KeyError, TypeError, ValueError):
                cost_text = Text(item.cost_formula or "?")
            values = []
            for s in stat_defs:
                raw = item.stats.get(s.id, s.default)
                values.append("-" if raw is None else str(raw))
            name = item.name + (f"\n({', '.join(item.aliases)})" if item.aliases else "")
            _row(table, name, *values, cost_text, ", ".join(item.allowed_types) or "any",
                 item.description + (f" ({item.note})" if item.note else ""))
        return table

    def _figures(self):
        rs = self.rs
        table = _table("Figure", "Type", "Count", "Stats", "Gear", "Printed cost", "Description")
        for f in rs.data.figures:
            gear = ", ".join([*f.weapons, *f.abilities, *f.equipment])
            stats = ", ".join(f"{k} {v}" for k, v in f.stats.items())
            _row(table, f.name, f.type, str(f.count), stats, gear or "-",
                 fmt(exact(f.cost)) if f.cost is not None else "-", f.description)
        return table

    def _limits(self):
        rs = self.rs
        parts: list = []
        table = _table("Limit", "Severity", "Of", "Rule", "Bound")
        for lim in rs.data.limits:
            rule = lim.measure or lim.check or ""
            bound = []
            if lim.at_most is not None:
                bound.append(f"at most {fmt(exact(lim.at_most))}")
            if lim.at_least is not None:
                bound.append(f"at least {fmt(exact(lim.at_least))}")
            scope = limit_scope(rs, lim.scope)
            if lim.applies_to:
                scope += " (" + ", ".join(lim.applies_to) + ")"
            _row(table, lim.label, Text(lim.severity, style="red" if lim.severity == "error" else "yellow"), scope,
                 rule + (f"\n{lim.description}" if lim.description else ""), ", ".join(bound) or "must hold")
        parts.append(table if rs.data.limits else Text("No composition limits.", style="dim"))
        if rs.data.matchup:
            mt = _table("Match-up rule", "Severity", "Check", title="Match-up (two armies)")
            for m in rs.data.matchup:
                _row(mt, m.label, m.severity, m.check + (f"\n{m.description}" if m.description else ""))
            parts += [Text(""), mt]
        return Group(*parts)
