"""The functions formulas may call, beyond min/max/round and the like: one table, by scope.

Each entry gives a function's name, the scopes it may be called in, how many values it
takes, the text a player reads about it, and whether its text arguments name types
(``points('heroes')`` measures the heroes type, so the compiler checks the name and
records it). The compiler checks calls against this table (:func:`functions_for`); at
evaluation the engine binds each scope's names to callables over one roster or unit
(:func:`bind`), so a function listed here has an implementation, and the other way round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .formula import Function

# The scopes: where in a ruleset a formula is written.
FIGURE = "figure"  # figure derived values, the figure cost, items' own cost formulas
UNIT = "unit"  # unit derived values
UNIT_LIMIT = "unit limit"  # limits checked on each unit (measure, check and message)
FIGURE_LIMIT = "figure limit"  # limits checked on each kind of figure in each unit
ROSTER = "roster"  # army-wide limits (measure, check and message)
CARD = "card"  # card columns, rows and track
WEAPON = "weapon"  # the weapon columns of a card
SCOPES = (FIGURE, UNIT, UNIT_LIMIT, FIGURE_LIMIT, ROSTER, CARD, WEAPON)

_UNIT_SCOPES = (UNIT, UNIT_LIMIT, CARD)


@dataclass(frozen=True)
class FormulaFunction:
    """One function formulas may call: where, with how many values, and what it does."""

    name: str
    scopes: tuple[str, ...]
    min_args: int
    max_args: int | None  # None: any number
    doc: str  # shown to players
    type_args: bool = False  # its text arguments name types
    item_args: bool = False  # its first argument names a kind of item, its second is a formula over one
    stat_args: bool = False  # its text arguments name the figure's stats or derived values
    kinds_too: bool = False  # (with stat_args) 'type' and the kinds of item are names it takes too
    item_names: bool = False  # its text arguments name items of the catalogue
    stat_or_item: bool = False  # its text argument names a stat or an item
    figure_condition: bool = False  # its text argument is a formula over one figure (a figure limit's names)

    def spec(self) -> Function:
        """Its name and argument counts for the compiler (the callable comes at evaluation)."""
        return Function(_unbound, self.min_args, self.max_args, self.doc)


def _unbound(*args: object) -> object:
    raise RuntimeError("a formula function called without binding it to a roster or unit")


_FIGURE_SCOPES = (FIGURE, FIGURE_LIMIT)
_ITEM_SCOPES = (FIGURE, FIGURE_LIMIT, UNIT, UNIT_LIMIT, CARD, ROSTER)

REGISTRY: tuple[FormulaFunction, ...] = (
    FormulaFunction("has", _FIGURE_SCOPES, 1, None,
                    "has('Name', ...): how many of the named weapons/abilities/equipment the figure holds, "
                    "each copy counted (three Beam-1 give 3)", item_names=True),
    FormulaFunction("items", _FIGURE_SCOPES, 1, 2,
                    "items('weapons', 'condition'): how many of the figure's weapons (or abilities, equipment) "
                    "meet the condition, a formula over the item's stats such as 'range > 0'; all of them "
                    "without one", item_args=True),
    FormulaFunction("item_names", _FIGURE_SCOPES, 1, 2,
                    "item_names('weapons', 'condition'): the names of those items, as text", item_args=True),
    FormulaFunction("has", _UNIT_SCOPES, 1, None,
                    "has('Name', ...): how many figures of the unit hold any of the named items", item_names=True),
    FormulaFunction("sum_of", _UNIT_SCOPES, 1, 1,
                    "sum_of('stat'): the stat added up over every figure of the unit", stat_args=True),
    FormulaFunction("max_of", _UNIT_SCOPES, 1, 1, "max_of('stat'): the highest value of the stat in the unit",
                    stat_args=True),
    FormulaFunction("min_of", _UNIT_SCOPES, 1, 1, "min_of('stat'): the lowest value of the stat in the unit",
                    stat_args=True),
    FormulaFunction("sum_items", _ITEM_SCOPES, 2, 2,
                    "sum_items('weapons', 'formula'): a formula over one item's stats (such as 'mass' or "
                    "'mass * 2') added up over the weapons (or abilities, equipment) held, each copy counted; "
                    "in a figure's formulas and limits, the figure's items; in a unit's, every figure of the "
                    "unit's; in army-wide limits, every figure's", item_args=True),
    FormulaFunction("min_items", _ITEM_SCOPES, 2, 2,
                    "min_items('weapons', 'formula'): the lowest value of the formula over those items "
                    "(0 when there are none)", item_args=True),
    FormulaFunction("max_items", _ITEM_SCOPES, 2, 2,
                    "max_items('weapons', 'formula'): the highest value of the formula over those items "
                    "(0 when there are none)", item_args=True),
    FormulaFunction("points", (ROSTER,), 0, None,
                    "points('type', ...): points of units of those types (all units if none)", type_args=True),
    FormulaFunction("units", (ROSTER,), 0, None, "units('type', ...): number of units of those types",
                    type_args=True),
    FormulaFunction("figures", (ROSTER,), 0, None,
                    "figures('type', ...): number of figures in units of those types", type_args=True),
    FormulaFunction("points_to_add", (ROSTER,), 2, None,
                    "points_to_add(share, 'type', ...): the fewest whole points of those types to add for "
                    "their points to reach the share (0.5: half) of the points limit, or of the total when "
                    "there is none (the total grows by what is added)", type_args=True),
    FormulaFunction("points_to_remove", (ROSTER,), 2, None,
                    "points_to_remove(share, 'type', ...): the fewest whole points of those types to remove "
                    "for their points to be at most the share of the points limit, or of the total when "
                    "there is none (the total shrinks by what is removed)", type_args=True),
    FormulaFunction("points_where", (ROSTER,), 1, 1,
                    "points_where('condition'): points of the figures that meet the condition, a formula "
                    "over one figure such as \"has('Leader', 'Hero') > 0\" (its names and functions are a "
                    "figure limit's)", figure_condition=True),
    FormulaFunction("figures_where", (ROSTER,), 1, 1,
                    "figures_where('condition'): how many figures meet the condition", figure_condition=True),
    FormulaFunction("units_where", (ROSTER,), 1, 1,
                    "units_where('condition'): how many units have a figure that meets the condition",
                    figure_condition=True),
    FormulaFunction("having", (ROSTER,), 1, 1,
                    "having('stat or item'): figures with the flag set or holding the item", stat_or_item=True),
    FormulaFunction("units_having", (ROSTER,), 1, 1, "units_having('stat or item'): units with any such figure",
                    stat_or_item=True),
    FormulaFunction("sum_of", (ROSTER,), 1, 1,
                    "sum_of('stat'): the stat added up over every figure of the roster", stat_args=True),
    FormulaFunction("duplicates", (ROSTER,), 1, 1,
                    "duplicates('stat'): how many figures share a value of the stat with another", stat_args=True),
    FormulaFunction("repeated", (ROSTER,), 1, 1,
                    "repeated('stat'): the values of the stat held by more than one figure, as text",
                    stat_args=True),
    FormulaFunction("differing", (UNIT_LIMIT,), 1, None,
                    "differing('stat', ...): the labels of the named stats (or 'type', 'weapons', 'abilities', "
                    "'equipment') on which the unit's figures differ, as text; empty when they all agree",
                    stat_args=True, kinds_too=True),
    FormulaFunction("pct", (ROSTER, UNIT_LIMIT, FIGURE_LIMIT), 1, 1,
                    "pct(share): a share shown as a percentage, e.g. 0.31 -> 31%"),
    FormulaFunction("when", (CARD, WEAPON), 2, 3,
                    "when(condition, 'text', 'otherwise'): text shown only when the condition holds"),
)


def _by_scope() -> dict[str, dict[str, FormulaFunction]]:
    out: dict[str, dict[str, FormulaFunction]] = {scope: {} for scope in SCOPES}
    for entry in REGISTRY:
        for scope in entry.scopes:
            if entry.name in out[scope]:
                raise ValueError(f"formula function '{entry.name}' is listed twice for the {scope} scope")
            out[scope][entry.name] = entry
    return out


_BY_SCOPE = _by_scope()
_SPECS = {scope: MappingProxyType({name: e.spec() for name, e in entries.items()})
          for scope, entries in _BY_SCOPE.items()}
_BINDING_SPECS = {scope: {name: (e.min_args, e.max_args, e.doc) for name, e in entries.items()}
                  for scope, entries in _BY_SCOPE.items()}

TYPE_ARG_FUNCTIONS: frozenset[str] = frozenset(e.name for e in REGISTRY if e.type_args)
ITEM_ARG_FUNCTIONS: frozenset[str] = frozenset(e.name for e in REGISTRY if e.item_args)
STAT_ARG_FUNCTIONS: frozenset[str] = frozenset(e.name for e in REGISTRY if e.stat_args)
KIND_TOO_FUNCTIONS: frozenset[str] = frozenset(e.name for e in REGISTRY if e.kinds_too)
ITEM_NAME_FUNCTIONS: frozenset[str] = frozenset(e.name for e in REGISTRY if e.item_names)
STAT_OR_ITEM_FUNCTIONS: frozenset[str] = frozenset(e.name for e in REGISTRY if e.stat_or_item)
FIGURE_CONDITION_FUNCTIONS: frozenset[str] = frozenset(e.name for e in REGISTRY if e.figure_condition)


def entries(scope: str) -> Mapping[str, FormulaFunction]:
    """The functions of a scope, by name."""
    return MappingProxyType(_BY_SCOPE[scope])


def functions_for(scope: str) -> Mapping[str, Function]:
    """The functions a formula of ``scope`` may call, for :func:`compile_formula`."""
    return _SPECS[scope]


class _BoundTable(Mapping[str, Function]):
    """A scope's functions bound to one implementation, each bound when a formula first calls
    it (a roster's limits call two or three of the scope's functions)."""

    __slots__ = ("_implementation", "_specs", "_bound")

    def __init__(self, implementation: object, specs: dict[str, tuple]):
        self._implementation = implementation
        self._specs = specs
        self._bound: dict[str, Function] = {}

    def __getitem__(self, name: str) -> Function:
        hit = self._bound.get(name)
        if hit is None:
            lo, hi, doc = self._specs[name]
            hit = self._bound[name] = Function(getattr(self._implementation, name), lo, hi, doc)
        return hit

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def __iter__(self):
        return iter(self._specs)

    def __len__(self) -> int:
        return len(self._specs)


def bind(scope: str, implementation: object) -> Mapping[str, Function]:
    """The scope's functions as callables: each name is the method of that name of ``implementation``
    (an implementation lacking one is refused at once, checked once per class)."""
    specs = _BINDING_SPECS[scope]
    if (scope, type(implementation)) not in _COMPLETE:
        for name in specs:
            getattr(implementation, name)  # AttributeError: the implementation lacks a function
        _COMPLETE.add((scope, type(implementation)))
    return _BoundTable(implementation, specs)


_COMPLETE: set[tuple[str, type]] = set()  # (scope, class) pairs found to implement every function


# The names each scope sees besides its functions, for the reference (rulesets/README.md).
SCOPE_NAMES: dict[str, str] = {
    FIGURE: "figure formulas (the figure cost's terms and total, figure `[[derived]]` values, an item's own "
            "`cost_formula`): the figure's stats, its type's `params`, `type` (the type id), the figure "
            "`[[derived]]` values before it; the cost's total also `subtotal` (the terms added up) and, with "
            "`items_in_figure_cost = true`, `items_cost`; an item's own `cost_formula` also the item's own stats and named values "
            "(a name the figure has too is refused there), `level`, `figure_cost` (before items) and "
            "`weapons_cost` (unless the items are inside the figure cost)",
    UNIT: "unit formulas (`[[derived]]` values with `scope = \"unit\"`, worked out once per unit after its "
          "figures): `type`, `figures` (how many), `unit_points`, the type's `params`, the unit values before it",
    UNIT_LIMIT: "limits with `scope = \"unit\"`: a unit formula's names and every unit value; in the message "
                "also `value` and `bound`",
    FIGURE_LIMIT: "limits with `scope = \"figure\"`, checked on each kind of figure in each unit: the figure's "
                  "names and derived values, `count` (figures of this kind in the unit), `figure_cost` (by the "
                  "cost formula) and `per_figure` (with its items); in the message also `value` and `bound`",
    ROSTER: "army-wide limits (`scope = \"roster\"`, the default): `total`, `limit` (the points limit, or the "
            "total without one), `unit_count`, the `[[roster_stats]]`; in the message also `value` and `bound`",
    CARD: "card columns, rows and track: the figure's and the unit's names, `count`, `per_figure`",
    WEAPON: "card weapon columns: the weapon's stats, `name`, `cost`, and the names of the figure holding it "
            "where the weapon has none of that name",
}

ITEM_FORMULA_NAMES = ("formulas over one item (each kind's cost formula, the formulas in quotes given to `items()`, "
                      "`sum_items()` and the like, `[formulas] weapon_values`): the item's stats, `level` (1 for "
                      "an item without levels) and the kind's named values before it")


_SCOPE_SHORT = {FIGURE: "figure formulas", UNIT: "unit formulas", UNIT_LIMIT: "unit limits",
                FIGURE_LIMIT: "figure limits", ROSTER: "army-wide limits", CARD: "cards", WEAPON: "weapon columns"}


def reference_markdown() -> str:
    """The reference of every scope (the names it sees, the functions it may call) and of every
    function, as the rulesets README prints it (a test keeps the two in step)."""
    lines = ["| where | names | functions |", "|---|---|---|",
             ("| everywhere | | `min`, `max`, `abs`, `round(x, digits)` (halves up), `floor`, `ceil`, "
             "`clamp(x, lo, hi)` |")]
    for scope in SCOPES:
        where, _, names = SCOPE_NAMES[scope].partition(": ")
        functions = ", ".join(f"`{name}`" for name in _BY_SCOPE[scope])
        lines.append(f"| {where} | {names} | {functions} |")
    where, _, names = ITEM_FORMULA_NAMES.partition(": ")
    lines.append(f"| {where} | {names} | |")
    lines.append("| match-up rules | `mine`, `theirs`, `low`, `high` (the two totals) | |")
    lines += ["", "| function | where | what it gives |", "|---|---|---|"]
    for e in REGISTRY:
        call, _, what = e.doc.partition(": ")
        where = ", ".join(_SCOPE_SHORT[scope] for scope in e.scopes)
        lines.append(f"| `{call}` | {where} | {what.replace('|', chr(92) + '|')} |")
    return "\n".join(lines) + "\n"
