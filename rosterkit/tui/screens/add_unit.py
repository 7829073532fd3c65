"""Add a unit: one of the player's own figures, a ready figure from the ruleset's catalogue, or a
blank unit of a type."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...editing import edits
from ...editing.document import Document as RosterSession
from ...engine.costing import singular
from ...engine.roster import Member, Unit
from ...rules.numbers import exact, fmt
from ...rules.ruleset import ITEM_KINDS
from ...rules.schema import FigureDef, TypeDef
from ..render import figure_lines
from ..widgets.ordered_input import OrderedInput

Choice = tuple[str, FigureDef | TypeDef]  # kind: "mine" (the player's figure), "figure" or "type"


class AddUnitScreen(ModalScreen[Unit | Member | None]):
    """Returns a new Unit (or, for a unit of mixed figures, a Member)."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("down", "move(1)", "Next", show=False),
        Binding("up", "move(-1)", "Previous", show=False),
    ]

    def __init__(self, session: RosterSession, member: bool = False) -> None:
        super().__init__()
        self.session = session
        self.member = member
        self.rs = session.rs
        # the player's own figures, where the ruleset has none of the same name (its own win)
        mine = [f for f in session.user_figures if session.figures.find(f.name) is f]
        self.choices: list[Choice] = [("mine", f) for f in mine] + [("figure", f) for f in self.rs.data.figures] + \
                                     [("type", t) for t in self.rs.data.types]
        self.shown: list[Choice | None] = []
        self._cost_cache: dict[str, object] = {}

    def compose(self) -> ComposeResult:
        title = "Add figures to the unit" if self.member else "Add a unit"
        with Vertical(classes="dialog wide", id="add-unit"):
            yield Label(title, classes="dialog-title", markup=False)
            yield OrderedInput(placeholder="Search figures and types…", id="add-search", compact=True)
            with Horizontal(id="add-body"):
                yield OptionList(id="add-list")
                with VerticalScroll(id="add-detail-box"):
                    yield Static("", id="add-detail", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Add", id="ok", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        self._fill("")
        self.set_focus(self.query_one("#add-search", Input))  # typing filters; enter adds the highlighted

    # ------------------------------------------------------------ the list

    def _cost(self, unit: Unit):
        key = unit.name + "|" + (unit.figure or "") + "|" + (unit.type or "")
        if key not in self._cost_cache:
            # priced as it would be in this roster (its own items, house prices and settings)
            roster = self.session.roster.model_copy(update={"units": []})
            self._cost_cache[key] = self.session.costing.unit(roster, unit, 0)
        return self._cost_cache[key]

    def _unit(self, choice: Choice) -> Unit:
        kind, entry = choice
        if kind in ("figure", "mine"):
            return edits.unit_from_figure(entry)  # type: ignore[arg-type]
        taken = {u.name for u in self.session.roster.units}
        return edits.blank_unit(self.rs, entry.id, taken)  # type: ignore[union-attr]

    def _fill(self, query: str) -> None:
        q = query.strip().casefold()
        rs = self.rs
        label = singular(rs.data.count_label)
        options: list[Option] = []
        self.shown = []

        def matches(*texts: str) -> bool:
            return not q or any(q in t.casefold() for t in texts if t)

        mine = [c for c in self.choices if c[0] == "mine" and
                matches(c[1].name, c[1].type, *c[1].aliases, c[1].description, "mine", "yours")]  # type: ignore
        figures = [c for c in self.choices if c[0] == "figure" and
                   matches(c[1].name, c[1].type, *c[1].aliases, c[1].description)]  # type: ignore[union-attr]
        types = [c for c in self.choices if c[0] == "type" and
                 matches(c[1].name, c[1].id, *c[1].aliases, "blank")]  # type: ignore[union-attr]
        if self.session.figures_error is not None and not q:
            options.append(Option(Text("Your figures file has a mistake: see Design (F3)", style="red"),
                                  disabled=True))
            self.shown.append(None)
        for heading, group in (("Your figures", mine), ("From the catalogue", figures)):
            if not group:
                continue
            options.append(Option(Text(heading, style="bold underline"), disabled=True))
            self.shown.append(None)
            for c in group:
                fig: FigureDef = c[1]  # type: ignore[assignment]
                uc = self._cost(self._unit(c))
                tname = rs.find_type(fig.type).name if rs.find_type(fig.type) else fig.type
                per = fmt(uc.members[0].per_figure) if uc.members else "?"
                text = Text.assemble(("★ ", "green") if c[0] == "mine" else "", (fig.name, "bold"),
                                     (f"  {tname}, x{fig.count}, {per} per {label}", "dim"))
                options.append(Option(text))
                self.shown.append(c)
        if types:
            options.append(Option(Text("Blank unit of a type", style="bold underline"), disabled=True))
            self.shown.append(None)
            for c in types:
                tdef: TypeDef = c[1]  # type: ignore[assignment]
                options.append(Option(Text.assemble(("Blank ", "dim"), (tdef.name, "bold"))))
                self.shown.append(c)
        if not options:
            options.append(Option(Text("Nothing matches.", style="dim"), disabled=True))
            self.shown.append(None)
        lst = self.query_one("#add-list", OptionList)
        lst.set_options(options)
        first = next((i for i, c in enumerate(self.shown) if c is not None), None)
        if first is not None:
            lst.highlighted = first
        self._detail()

    @property
    def current(self) -> Choice | None:
        i = self.query_one("#add-list", OptionList).highlighted
        return self.shown[i] if i is not None and i < len(self.shown) else None

    def _detail(self) -> None:
        box = self.query_one("#add-detail", Static)
        choice = self.current
        self.query_one("#ok", Button).disabled = choice is None
        if choice is None:
            box.update("")
            return
        rs = self.rs
        unit = self._unit(choice)
        uc = self._cost(unit)
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
        box.update(Group(*parts))

    @on(Input.Changed, "#add-search")
    def _search(self, event: Input.Changed) -> None:
        self._fill(event.value)

    @on(Input.Submitted, "#add-search")
    def _search_done(self) -> None:
        if self.current is not None:
            self._ok()
        else:
            self.query_one("#add-list").focus()

    @on(OptionList.OptionHighlighted, "#add-list")
    def _moved(self) -> None:
        self._detail()

    @on(OptionList.OptionSelected, "#add-list")
    @on(Button.Pressed, "#ok")
    def _ok(self) -> None:
        choice = self.current
        if choice is None:
            return
        if not self.member:
            self.dismiss(self._unit(choice))
            return
        kind, entry = choice
        if kind in ("figure", "mine"):
            fields: dict = {"figure": entry.name, "count": entry.count}  # type: ignore[union-attr]
            for k in ITEM_KINDS:
                if getattr(entry, k):
                    fields[k] = list(getattr(entry, k))
            self.dismiss(Member(**fields))
        else:
            self.dismiss(Member(name=f"{entry.name} figures", count=1))  # type: ignore[union-attr]

    def action_move(self, step: int) -> None:
        lst = self.query_one("#add-list", OptionList)
        lst.action_cursor_down() if step > 0 else lst.action_cursor_up()

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
