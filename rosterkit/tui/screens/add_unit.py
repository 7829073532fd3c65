"""Add a unit: one of the player's own figures, a ready figure from the ruleset's catalogue, or a
blank unit of a type."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text
from textual.widgets.option_list import Option

from ...editing import edits
from ...editing.document import Document
from ...engine.costing import singular
from ...engine.roster import Member, Unit
from ...rules.numbers import exact, fmt
from ...rules.ruleset import ITEM_KINDS
from ...rules.schema import FigureDef, TypeDef
from ..render import figure_lines
from .picker import PickerScreen, matches

Choice = tuple[str, FigureDef | TypeDef]  # kind: "mine" (the player's figure), "figure" or "type"


class AddUnitScreen(PickerScreen[Unit | Member | None]):
    """Returns a new Unit (or, for a unit of mixed figures, a Member)."""

    PREFIX = "add"

    def __init__(self, session: Document, member: bool = False) -> None:
        super().__init__()
        self.session = session
        self.member = member
        self.rs = session.rs
        # the player's own figures, where the ruleset has none of the same name (its own win)
        mine = [f for f in session.user_figures if session.figures.find(f.name) is f]
        self.choices: list[Choice] = [("mine", f) for f in mine] + [("figure", f) for f in self.rs.data.figures] + \
                                     [("type", t) for t in self.rs.data.types]

    def heading(self) -> str:
        return "Add figures to the unit" if self.member else "Add a unit"

    def placeholder(self) -> str:
        return "Search figures and types…"

    def _unit(self, choice: Choice) -> Unit:
        kind, entry = choice
        if kind in ("figure", "mine"):
            return edits.unit_from_figure(entry)  # type: ignore[arg-type]
        taken = {u.name for u in self.session.roster.units}
        return edits.blank_unit(self.rs, entry.id, taken)  # type: ignore[union-attr]

    def fill(self, query: str) -> list[tuple[Option, Choice | None]]:
        q = query.strip()
        rs = self.rs
        label = singular(rs.data.count_label)
        lines: list[tuple[Option, Choice | None]] = []

        mine = [c for c in self.choices if c[0] == "mine" and
                matches(q, c[1].name, c[1].type, *c[1].aliases, c[1].description, "mine", "yours")]  # type: ignore
        figures = [c for c in self.choices if c[0] == "figure" and
                   matches(q, c[1].name, c[1].type, *c[1].aliases, c[1].description)]  # type: ignore[union-attr]
        types = [c for c in self.choices if c[0] == "type" and
                 matches(q, c[1].name, c[1].id, *c[1].aliases, "blank")]  # type: ignore[union-attr]
        if self.session.figures_error is not None and not q:
            lines.append((Option(Text("Your figures file has a mistake: see Design (F3)", style="red"),
                                 disabled=True), None))
        for heading, group in (("Your figures", mine), ("From the catalogue", figures)):
            if not group:
                continue
            lines.append((Option(Text(heading, style="bold underline"), disabled=True), None))
            for c, uc in zip(group, self.session.cost_apart([self._unit(c) for c in group])):
                fig: FigureDef = c[1]  # type: ignore[assignment]
                tname = rs.find_type(fig.type).name if rs.find_type(fig.type) else fig.type
                per = fmt(uc.members[0].per_figure) if uc.members else "?"
                text = Text.assemble(("★ ", "green") if c[0] == "mine" else "", (fig.name, "bold"),
                                     (f"  {tname}, x{fig.count}, {per} per {label}", "dim"))
                lines.append((Option(text), c))
        if types:
            lines.append((Option(Text("Blank unit of a type", style="bold underline"), disabled=True), None))
            for c in types:
                tdef: TypeDef = c[1]  # type: ignore[assignment]
                lines.append((Option(Text.assemble(("Blank ", "dim"), (tdef.name, "bold"))), c))
        return lines

    def describe(self, choice: Choice) -> RenderableType:
        rs = self.rs
        uc = self.session.cost_apart([self._unit(choice)])[0]
        kind, entry = choice
        parts: list = []
        if kind in ("figure", "mine"):
            fig: FigureDef = entry  # type: ignore[assignment]
            tdef = rs.find_type(fig.type)
            parts.append(Text.assemble((fig.name, "bold"), ("  your own figure (from your figures file)", "green")
                                       if kind == "mine" else ""))
            parts.append(Text(f"{tdef.name if tdef else fig.type}, {fig.count} "
                              f"{rs.data.count_label if fig.count != 1 else singular(rs.data.count_label)}",
                              style="dim"))
            if fig.description:
                parts.append(Text(fig.description))
            if fig.note:
                parts.append(Text(fig.note, style="italic yellow"))
        else:
            tdef = entry  # type: ignore[assignment]
            parts.append(Text(f"Blank {tdef.name} unit", style="bold"))
            if tdef.description:
                parts.append(Text(tdef.description))
            parts.append(Text("Starts with the ruleset's default stats; edit them after adding.", style="dim"))
        if uc.members:
            m = uc.members[0]
            parts.extend(figure_lines(rs, uc, m))
            cost = Text.assemble(("Cost: ", "bold"), f"{fmt(m.per_figure)} per {singular(rs.data.count_label)}")
            if kind == "figure" and entry.cost is not None and exact(entry.cost) != m.per_figure:  # type: ignore
                cost.append(f" (printed {fmt(exact(entry.cost))})", style="yellow")  # type: ignore[union-attr]
            if uc.figures != 1:
                cost.append(f", {fmt(uc.total)} for {uc.figures}")
            parts.append(cost)
        return Group(*parts)

    def chosen(self, choice: Choice) -> Unit | Member:
        if not self.member:
            return self._unit(choice)
        kind, entry = choice
        if kind in ("figure", "mine"):
            fields: dict = {"figure": entry.name, "count": entry.count}  # type: ignore[union-attr]
            for k in ITEM_KINDS:
                if getattr(entry, k):
                    fields[k] = list(getattr(entry, k))
            return Member(**fields)
        else:
            return Member(name=f"{entry.name} figures", count=1)  # type: ignore[union-attr]
