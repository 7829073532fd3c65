"""Costing: every point of every unit, with the reason for it.

``cost_roster`` turns a roster and its ruleset into a :class:`CostReport`:
for each unit, each kind of figure in it, the figure cost term by term, each
weapon, ability and piece of equipment with where its price comes from, the
cost per figure, times the count, and the unit total; then the roster total
and the points per type. Problems met on the way (unknown names, stats out of
bounds, unpriced items) are recorded as findings, never raised, so that a
half-finished roster still shows everything that can be shown.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from difflib import get_close_matches
from fractions import Fraction
from functools import cached_property
from pathlib import Path
from typing import NamedTuple

from ..errors import FormulaError
from ..findings import Finding
from ..rules.formula import Formula, Function
from ..rules.functions import FIGURE, entries
from ..rules.numbers import MAX_SHOWN, Number, exact, exact_sum, fmt, showable
from ..rules.ruleset import (
    ITEM_KINDS,
    ITEM_SINGULAR,
    NameIndex,
    Ruleset,
    norm,
    split_level,
)
from ..rules.schema import FigureDef, ItemDef, StatDef, TypeDef
from ..rules.stats import coerce, default_value, formula_values, kind_of
from ..rules.stats import display as show_stat
from .budget import KNOWN_SHOWN, known_names, suggestable, unknown_keys
from .functions import FigureFunctions, UnitFunctions, item_values
from .roster import LocalItem, Member, RosterFile, Unit


@dataclass(slots=True)  # not frozen: a big roster makes one per cost term, and frozen ones are 4x slower to make
class Term:
    label: str
    value: Number
    formula: Formula = field(repr=False, compare=False)
    env: dict = field(repr=False, compare=False)

    @property
    def detail(self) -> str:
        """The formula with the figure's values put in, e.g. "1 * 6 * 6" (made when shown)."""
        return self.formula.substituted(self.env)

    @property
    def working(self) -> str:
        """The detail when it is plain arithmetic a player reads ("1 * 6 * 6"); "" when the
        formula reads names, texts or conditions."""
        return arithmetic(self.detail)


_ARITHMETIC = frozenset("0123456789. +-*/()")


def arithmetic(text: str) -> str:
    """``text`` when it is numbers and arithmetic only (a formula's working with the values put
    in), else "": the cost breakdown shows players no formula source."""
    return text if text and set(text) <= _ARITHMETIC and any(c.isdigit() for c in text) else ""


@dataclass(frozen=True)
class ItemCost:
    kind: str  # weapons, abilities, equipment
    name: str
    cost: Number
    source: str  # published, formula, own formula, roster, house price, unpriced, unknown
    note: str = ""
    formula_value: Number | None = None
    local: bool = False
    stats: dict = field(default_factory=dict)
    printed: Number | None = None  # the catalogue's printed cost, whichever is charged
    level: int | None = None  # the level it is taken at ("Hard to Kill:2"), for an item with levels
    # the roster's name for it where that is one of the catalogue's aliases ("Spear" for the book's
    # row "Claw/hand/spear/sword"): what a card calls the weapon the figure carries
    called: str = ""
    # the item conditions of figure limits (`items('weapons', 'range > 0')`) it meets, remembered:
    # a priced item is shared by every figure of the roster that holds it
    conditions: dict[str, bool] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class PrintedPrice:
    """A type's printed price, charged in place of what the formula gives a default figure of
    the type (the lego_combat grade list's hero at 20, where the cost rules give 25)."""

    what: str  # the type's name
    printed: Number  # the printed cost of a default figure of the type
    formula: Number  # what the figure cost formula gives a default figure of the type

    @property
    def adjustment(self) -> Number:
        """Added to the formula's figure cost: the printed price less the formula's."""
        return self.printed - self.formula


@dataclass
class MemberCost:
    index: int
    name: str
    count: int
    stats: dict[str, object]  # effective values (after type modifiers)
    env: dict[str, object]  # names for formulas
    derived: dict[str, object]
    terms: list[Term]
    subtotal: Number
    figure_cost: Number
    total_formula: Formula | None  # None when the figure could not be costed
    total_env: dict  # the names the total formula was evaluated with
    items: list[ItemCost]
    per_figure: Number
    total: Number
    held: frozenset[str]  # normalized names of items held
    held_counts: dict[str, int] = field(default_factory=dict)  # copies held, by normalized name
    notes: list[str] = field(default_factory=list)  # printed costs that disagree, from the catalogue
    not_costed: str = "-"  # shown as the working when there is no total formula result
    printed: PrintedPrice | None = None  # the type's printed price, when it is charged and differs
    formula_cost: Number | None = None  # the figure cost by the formula alone (None: the same as figure_cost)

    @property
    def total_detail(self) -> str:
        """The total formula with values put in, e.g. "84 / 4" (made when shown)."""
        if self.total_formula is None:
            return self.not_costed
        return self.total_formula.substituted(self.total_env)


@dataclass
class UnitCost:
    index: int
    name: str
    type_id: str | None
    type_name: str
    figures: int
    members: list[MemberCost]
    total: Number
    derived: dict[str, object]
    env: dict[str, object]
    findings: list[Finding]
    # findings of the unit-scope limits this unit breaks; filled by validation, once per costing
    broken_limits: list[Finding] | None = None
    # the figure-scope limits broken by figures alike, kept by the costing context (see validation)
    figure_limits_seen: dict | None = field(default=None, repr=False, compare=False)
    # what is worked out from the unit's costs alone (its unit-scope limits, its fingerprint
    # parts), shared by every unit costed alike in the costing context (see Costing.unit)
    alike: dict = field(default_factory=dict, repr=False, compare=False)


@dataclass
class CostReport:
    ruleset: Ruleset
    roster: RosterFile
    units: list[UnitCost]
    total: Number
    limit: Number | None
    by_type: dict[str, Number]
    findings: list[Finding]

    def share(self, type_id: str) -> Fraction:
        basis = self.limit or self.total
        return Fraction(self.by_type.get(type_id, 0)) / basis if basis else Fraction(0)


# ---------------------------------------------------------------- the figures a roster may name


class FigureShelf:
    """The figures a roster may name: the ruleset's catalogue first, then the player's own
    (``figures/<ruleset>.toml`` in the player's folder). The ruleset's figures win a clash of
    names; the ruleset itself is never changed."""

    def __init__(self, rs: Ruleset, own: Iterable[FigureDef] = (), source: Path | None = None):
        self.rs = rs
        self.own: tuple[FigureDef, ...] = tuple(own)
        self.source = source  # the player's file the own figures came from
        self._own_index = NameIndex(([f.name, *f.aliases], f) for f in self.own)
        self._all_index: NameIndex | None = None

    def find(self, name: str) -> FigureDef | None:
        return self.rs.find_figure(name) or self._own_index.get(name)  # type: ignore[return-value]

    def is_own(self, name: str) -> bool:
        """Whether the name finds one of the player's figures (not shadowed by the ruleset's)."""
        return self.rs.find_figure(name) is None and self._own_index.get(name) is not None

    def suggest(self, name: str) -> str | None:
        if self._all_index is None:
            self._all_index = NameIndex(([f.name, *f.aliases], f) for f in [*self.rs.data.figures, *self.own])
        return self._all_index.suggest(name)


# ---------------------------------------------------------------- pricing items


class Pricer:
    """Resolves and prices items for one roster (roster-local items first)."""

    def __init__(self, rs: Ruleset, roster: RosterFile, conditions: dict | None = None,
                 fixed: dict | None = None):
        self.rs = rs
        # per catalogue item, the item conditions it meets (see ItemCost.conditions): one dict for
        # every pricing of the item, shared with the costing context when it gives one
        self._conditions: dict[tuple[str, str], dict[str, bool]] = {} if conditions is None else conditions
        self._local_prices: dict[tuple[str, str], tuple[ItemCost, list[str]]] = {}
        self.local: dict[str, dict[str, LocalItem]] = {
            kind: {norm(it.name): it for it in getattr(roster, kind)} for kind in ITEM_KINDS
        }
        self.house = {rs.canonical(k): exact(v) for k, v in roster.house_prices.items()}
        self._fixed: dict[tuple[str, str], ItemCost] = {}  # unpriced items, at this roster's house prices
        self._allowed: dict[tuple[str, str], tuple[frozenset[str], str]] = {}  # see allowed()
        # catalogue items' fixed prices (the same for every roster, an unpriced one's house price
        # aside): shared with the costing context when it gives a dict
        self._catalogue_fixed: dict[tuple[str, str], ItemCost] = {} if fixed is None else fixed
        # what a unit's costs depend on besides the unit: the roster's own items and house prices
        try:
            self.key: tuple | None = (
                tuple(sorted(self.house.items())),
                tuple((kind, k, it.cost, _values_key(it.stats), tuple(it.allowed_types))
                      for kind, items in self.local.items() for k, it in items.items()))
            hash(self.key)
        except TypeError:  # a value that cannot be a key (a list of choices)
            self.key = None

    def allowed(self, kind: str, item: ItemDef | LocalItem) -> tuple[frozenset[str], str]:
        """The ids of the types an item is for, and their names as a message lists them; worked out
        once per item for the roster (every figure holding it is checked)."""
        key = (kind, norm(item.name))
        hit = self._allowed.get(key)
        if hit is None:
            types = [t for t in map(self.rs.find_type, item.allowed_types) if t is not None]
            names = ", ".join(t.name for t in types[:KNOWN_SHOWN])
            if len(types) > KNOWN_SHOWN:
                names += f" and {len(types) - KNOWN_SHOWN:,} more types"
            hit = self._allowed[key] = (frozenset(t.id for t in types), names)
        return hit

    def lookup(self, kind: str, name: str) -> ItemDef | LocalItem | None:
        found = self.local[kind].get(norm(name)) or self.rs.find_item(kind, name)
        if found is None:
            base, level = split_level(name)
            if level is not None:
                found = self.rs.find_item(kind, base)
        return found

    def item_env(self, kind: str, stats: dict, level: int | None = None) -> tuple[dict[str, object], list[str]]:
        env: dict[str, object] = {}
        problems = []
        for sid, sdef in self.rs.item_stats[kind].items():
            raw = stats.get(sid, sdef.default)
            value = None
            if raw is not None:
                value, err = coerce(sdef, raw)
                if err:
                    problems.append(f"{sid}: {err}")
            elif sdef.required:
                problems.append(f"{sdef.label} must be entered")
            env.update(formula_values(sdef, value))
        shown, more = unknown_keys(stats, self.rs.item_stats[kind])
        problems.extend(f"unknown {ITEM_SINGULAR[kind]} stat '{sid}'" for sid in shown)
        if more:
            problems.append(f"and {more:,} more unknown {ITEM_SINGULAR[kind]} stats "
                            f"(the first {len(shown)} are listed)")
        return item_values(self.rs, kind, env, level), problems

    def formula_note(self, kind: str, f: Formula, env: dict, value: Number) -> str:
        """How an item priced by its kind's formula was priced, in words with the working."""
        working = arithmetic(f.substituted(env))
        label = self.rs.item_formula_label(kind)
        return f"{label}: {working}" if working and working != fmt(value) else label

    def formula_price(self, kind: str, stats: dict, context: str, level: int | None = None) -> Number | None:
        f = self.rs.item_formulas.get(kind)
        if f is None:
            return None
        env, _ = self.item_env(kind, stats, level)
        return f.evaluate_number(env, None, context)

    def price(self, kind: str, name: str, fig_env: dict, figure_cost: Number, weapons_cost: Number,
              context: str, functions: Mapping[str, Function] | None = None) -> tuple[ItemCost, list[str]]:
        """(cost, problems). Fixed prices are cached; own formulas depend on the figure."""
        key = (kind, norm(name))
        local = self.local[kind].get(norm(name))
        if local is not None:
            hit = self._local_prices.get(key)
            if hit is None:
                hit = self._local_prices[key] = self._price_local(kind, local, context)
            return hit
        return self._catalogue_price(kind, name, fig_env, figure_cost, weapons_cost, context, functions)

    def _own_price(self, kind: str, item: ItemDef, shown: str, level: int | None, fig_env: dict,
                   figure_cost: Number, weapons_cost: Number, context: str, conditions: dict,
                   functions: Mapping[str, Function] | None = None) -> ItemCost:
        """An item priced by its own formula, over the figure that holds it."""
        f = self.rs.own_formulas[(kind, norm(item.name))]
        env = dict(fig_env)
        env["figure_cost"] = figure_cost
        env["weapons_cost"] = weapons_cost
        if level is not None:
            env["level"] = level
        env.setdefault("level", 1)
        if f.names - env.keys():  # it reads the item's own stats or values (never a name both have)
            mine, _ = self.item_env(kind, item.stats, env["level"])  # type: ignore[arg-type]
            env.update((k, v) for k, v in mine.items() if k in f.names and k not in fig_env)
        value = f.evaluate_number(env, functions, context)
        working = arithmetic(f.substituted(env))
        note = item.cost_label or "its own formula"
        if working and working != fmt(value):
            note += f": {working}"
        return ItemCost(kind, shown, value, "own formula", note, stats=dict(item.stats), conditions=conditions)

    def _levelled_price(self, kind: str, item: ItemDef, level: int | None, fig_env: dict, figure_cost: Number,
                        weapons_cost: Number, context: str, functions: Mapping[str, Function] | None = None
                        ) -> tuple[ItemCost, list[str]]:
        """An item taken at a level ("Hard to Kill:2"): its formulas read ``level``; a printed cost
        is the same at every level."""
        levels = item.levels
        problems = []
        if levels is None:
            problems.append(f"'{item.name}' is not taken at a level; list it as '{item.name}'")
            level = None
        elif level is None:
            level = levels.min
        elif not levels.min <= level <= levels.max:
            problems.append(f"{levels.label} {level} is out of range ({levels.min} to {levels.max})")
        cost, more = self._levelled(kind, item, level, fig_env, figure_cost, weapons_cost, context, functions)
        return dataclasses.replace(cost, level=level), problems + more

    def _levelled(self, kind: str, item: ItemDef, level: int | None, fig_env: dict, figure_cost: Number,
                  weapons_cost: Number, context: str, functions: Mapping[str, Function] | None = None
                  ) -> tuple[ItemCost, list[str]]:
        levels = item.levels
        problems: list[str] = []
        shown = item.name if levels is None else f"{item.name} ({levels.label} {level})"
        conditions = self._conditions.setdefault((kind, norm(shown)), {})
        if item.cost_formula:
            return self._own_price(kind, item, shown, level, fig_env, figure_cost, weapons_cost, context,
                                   conditions, functions), problems
        if item.unpriced or (item.cost is not None and item.pricing != "formula"):
            cost, more = self._catalogue_price(kind, item.name, fig_env, figure_cost, weapons_cost, context) \
                if levels is None else (self._fixed_levelled(kind, item, shown), [])
            return dataclasses.replace(cost, name=shown), problems + more
        value = self.formula_price(kind, item.stats, shown, level)
        if value is None:
            return ItemCost(kind, shown, 0, "unpriced", "no price in the rules; counted as 0",
                            stats=dict(item.stats), conditions=conditions), problems
        f = self.rs.item_formulas[kind]
        env, _ = self.item_env(kind, item.stats, level)
        return ItemCost(kind, shown, value, "formula", self.formula_note(kind, f, env, value),  # type: ignore
                        stats=dict(item.stats), conditions=conditions), problems

    def _fixed_levelled(self, kind: str, item: ItemDef, shown: str) -> ItemCost:
        if item.unpriced:
            house = self.house.get(norm(item.name))
            if house is not None:
                return ItemCost(kind, shown, house, "house price", "no price in the rules; this roster sets a house "
                                "price", stats=dict(item.stats))
            return ItemCost(kind, shown, 0, "unpriced", "no price in the rules; counted as 0", stats=dict(item.stats))
        published = exact(item.cost)
        return ItemCost(kind, shown, published, "published", "", stats=dict(item.stats), printed=published)

    def _price_local(self, kind: str, local: LocalItem, context: str) -> tuple[ItemCost, list[str]]:
        """A roster-local item's price and problems (the same for every figure that holds it)."""
        if local.cost is not None:
            return ItemCost(kind, local.name, exact(local.cost), "roster", "set in the roster",
                            local=True, stats=dict(local.stats)), []
        env, problems = self.item_env(kind, local.stats)
        f = self.rs.item_formulas.get(kind)
        if f is None:
            return ItemCost(kind, local.name, 0, "unpriced", "no cost given and the ruleset has no formula",
                            local=True, stats=dict(local.stats)), problems
        value = f.evaluate_number(env, None, f"{local.name} ({context})")
        return ItemCost(kind, local.name, value, "formula", self.formula_note(kind, f, env, value),
                        local=True, stats=dict(local.stats)), problems

    def _catalogue_price(self, kind: str, name: str, fig_env: dict, figure_cost: Number, weapons_cost: Number,
                         context: str, functions: Mapping[str, Function] | None = None
                         ) -> tuple[ItemCost, list[str]]:
        key = (kind, norm(name))
        hit = self._fixed.get(key) or self._catalogue_fixed.get(key)
        if hit is not None:  # a fixed price (an item with its own formula is never kept)
            return hit, []
        item = self.rs.find_item(kind, name)
        level = None
        if item is None:
            base, level = split_level(name)
            item = self.rs.find_item(kind, base) if level is not None else None
        if item is None:
            return ItemCost(kind, name, 0, "unknown"), []
        if level is not None or item.levels is not None:
            return self._levelled_price(kind, item, level, fig_env, figure_cost, weapons_cost, context, functions)
        if item.cost_formula:
            return self._own_price(kind, item, item.name, None, fig_env, figure_cost, weapons_cost, context,
                                   self._conditions.setdefault(key, {}), functions), []
        if item.unpriced:
            house = self.house.get(norm(item.name))
            if house is not None:
                cost = ItemCost(kind, item.name, house, "house price",
                                "no price in the rules; this roster sets a house price",
                                stats=dict(item.stats))
            else:
                cost = ItemCost(kind, item.name, 0, "unpriced", "no price in the rules; counted as 0",
                                stats=dict(item.stats))
        elif item.cost is not None:
            formula_value = self.formula_price(kind, item.stats, item.name)
            published = exact(item.cost)
            if item.pricing == "formula" and formula_value is not None:
                note = "" if formula_value == published else \
                    f"printed {fmt(published)}; the ruleset charges the formula's {fmt(formula_value)}"
                cost = ItemCost(kind, item.name, formula_value, "formula", note, formula_value, stats=dict(item.stats),
                                printed=published)
            else:
                note = ""
                if formula_value is not None and formula_value != published:
                    note = f"the formula gives {fmt(formula_value)}" + (f"; {item.note}" if item.note else "")
                cost = ItemCost(kind, item.name, published, "published", note, formula_value, stats=dict(item.stats),
                                printed=published)
        else:
            f = self.rs.item_formulas[kind]
            env, _ = self.item_env(kind, item.stats)
            value = f.evaluate_number(env, None, item.name)  # type: ignore[union-attr]
            cost = ItemCost(kind, item.name, value, "formula", self.formula_note(kind, f, env, value),  # type: ignore
                            stats=dict(item.stats))
        cost = dataclasses.replace(cost, conditions=self._conditions.setdefault(key, {}))
        if item.unpriced:
            self._fixed[key] = cost  # (this roster's house price)
        else:
            self._catalogue_fixed[key] = cost
        return cost, []


# ---------------------------------------------------------------- costing


def resolve_type(rs: Ruleset, unit: Unit, figure: FigureDef | None) -> TypeDef | None:
    if unit.type:
        return rs.find_type(unit.type)
    if figure is not None:
        return rs.find_type(figure.type)
    if len(rs.data.types) == 1:  # a game without troop types (ARES): every figure is of the one type
        return rs.data.types[0]
    return None


_SCALARS = frozenset((int, float, str, bool))


class Costing:
    """One costing context: a ruleset, the figures its rosters may name, and what costing
    remembers while it runs (stat checks and formula names per value: a roster repeats a few
    values per stat many times). The ruleset is only read.

    ``costing.report(roster)`` costs a whole roster; ``costing.unit(...)`` one unit (the
    interface re-costs only the units an edit changed).
    """

    def __init__(self, rs: Ruleset, figures: FigureShelf | None = None):
        self.rs = rs
        self.figures = figures if figures is not None else FigureShelf(rs)
        self._coerced: dict[tuple, tuple] = {}
        self._names: dict[tuple, dict] = {}
        self._canonical: dict[str, str] = {}
        self._type_prices: dict[str, PrintedPrice | None] = {}
        self._conditions: dict[tuple[str, str], dict[str, bool]] = {}
        self._figure_costs: dict[tuple, _FigureCost] = {}  # see _figure_cost
        self._defaults: dict[str, object] = {}
        self._figure_limits: dict[tuple, list] = {}  # see validation._broken_figure_limits
        self._units: dict[tuple, UnitCost] = {}  # see unit()
        self._catalogue_fixed: dict[tuple[str, str], ItemCost] = {}  # see Pricer
        self._suggestions: dict[tuple[str, str], str | None] = {}  # see suggest()

    def pricer(self, roster: RosterFile) -> Pricer:
        return Pricer(self.rs, roster, self._conditions, self._catalogue_fixed)

    def report(self, roster: RosterFile) -> CostReport:
        pricer = self.pricer(roster)
        return assemble(self.rs, roster, [self.unit(roster, u, i, pricer) for i, u in enumerate(roster.units)])

    def unit(self, roster: RosterFile, unit: Unit, index: int, pricer: Pricer | None = None) -> UnitCost:
        """One unit's costs. Units alike (the same type, figures, counts, stats and gear, under the
        same roster items and house prices: a tournament's common units, a roster's repeated ones)
        are costed once per context; another name or place in the roster is put on a copy."""
        pricer = pricer or self.pricer(roster)
        key = _unit_key(unit, pricer.key)
        if key is not None:
            hit = self._units.get(key)
            if hit is not None:  # (made directly: dataclasses.replace takes four times as long)
                return UnitCost(index, unit.name, hit.type_id, hit.type_name, hit.figures, hit.members, hit.total,
                                hit.derived, hit.env, [], None, hit.figure_limits_seen, hit.alike)
        cost = _UnitCosting(self, pricer, unit, index).run()
        if key is not None and not cost.findings:  # a unit with findings names itself in them: not kept
            self._units[key] = cost
        return cost

    def type_formula_cost(self, tdef: TypeDef) -> Number | None:
        """What the figure cost formula gives a default figure of the type (the ruleset's
        defaults, the type's own values, no items); None when that figure cannot be costed
        (a stat the player must enter, a formula that fails)."""
        unit = Unit(name=tdef.name, type=tdef.id, count=1)
        roster = RosterFile(name=tdef.name, ruleset=self.rs.id, units=[unit])
        uc = _UnitCosting(self, Pricer(self.rs, roster), unit, 0, printed=False).run()
        if not uc.members or uc.members[0].total_formula is None:
            return None
        missing = {f.field.removeprefix("stats.") for f in uc.findings if f.rule == "missing-stat" and f.field}
        if missing & self._cost_names:
            return None  # the formula needs a value only the player can enter
        return uc.members[0].figure_cost

    @cached_property
    def _cost_names(self) -> frozenset[str]:
        """Every name the figure cost formulas read (the terms, the total, the figure derived values)."""
        rs = self.rs
        formulas = [f for _, f in rs.cost_terms] + [f for _, f in rs.figure_derived] + [rs.cost_total]
        return frozenset(n for f in formulas if f is not None for n in f.names)

    @cached_property
    def item_formulas(self) -> bool:
        """Whether a figure formula reads its items' stats (items(), sum_items() and the like)."""
        rs = self.rs
        formulas = [f for _, f in rs.cost_terms] + [f for _, f in rs.figure_derived] + [rs.cost_total]
        return any(f.functions - {"has"} for f in formulas if f is not None)

    @cached_property
    def own_calls(self) -> bool:
        """Whether an item's own cost formula calls a function over the figure (has(), sum_items())."""
        return any(f.functions for f in self.rs.own_formulas.values())

    def type_price(self, tdef: TypeDef | None) -> PrintedPrice | None:
        """The type's printed price when the ruleset charges it (``pricing = "printed"``, the
        default) and the formula gives a default figure of the type something else."""
        if tdef is None or tdef.cost is None or tdef.pricing != "printed":
            return None
        if tdef.id not in self._type_prices:
            formula = self.type_formula_cost(tdef)
            printed = exact(tdef.cost)
            self._type_prices[tdef.id] = None if formula is None or formula == printed else \
                PrintedPrice(tdef.name, printed, formula)
        return self._type_prices[tdef.id]

    def suggest(self, kind: str, name: str) -> str | None:
        """"did you mean ...?" for an unknown type, figure or item (``kind``: "types", "figures" or a
        kind of item), remembered: a name misspelt in many units is compared with the catalogue once
        (a comparison takes up to a few milliseconds)."""
        key = (kind, name)
        if key not in self._suggestions:
            index = self.rs.type_index if kind == "types" else self.figures if kind == "figures" else \
                self.rs.items[kind]
            self._suggestions[key] = index.suggest(name)
        return self._suggestions[key]

    def canonical(self, name: str) -> str:
        """The ruleset's canonical name of an item (``has()`` asks this many times a figure)."""
        hit = self._canonical.get(name)
        if hit is None:
            hit = self._canonical[name] = self.rs.canonical(name)
        return hit

    def coerce(self, sdef: StatDef, raw: object) -> tuple[object, str | None]:
        """coerce(), remembered for scalar values."""
        if type(raw) not in _SCALARS:
            return coerce(sdef, raw)
        key = (sdef.id, type(raw), raw)
        hit = self._coerced.get(key)
        if hit is None:
            hit = self._coerced[key] = coerce(sdef, raw)
        return hit

    def default(self, sdef: StatDef) -> object:
        """default_value(), remembered per stat."""
        try:
            return self._defaults[sdef.id]
        except KeyError:
            value = self._defaults[sdef.id] = default_value(sdef)
            return value

    def formula_values(self, sdef: StatDef, value: object) -> dict[str, object]:
        """formula_values(), remembered per value (the dict returned is shared: read it, never change it)."""
        try:
            key = (sdef.id, type(value), value)
            hit = self._names.get(key)
        except TypeError:  # a value that cannot be a key
            return formula_values(sdef, value)
        if hit is None:
            hit = self._names[key] = formula_values(sdef, value)
        return hit


def cost_roster(rs: Ruleset, roster: RosterFile, figures: FigureShelf | None = None) -> CostReport:
    """Every point of a roster; ``figures`` adds the player's own figures after the ruleset's."""
    return Costing(rs, figures).report(roster)


def cost_unit(costing: Costing, roster: RosterFile, unit: Unit, index: int, pricer: Pricer | None = None) -> UnitCost:
    return costing.unit(roster, unit, index, pricer)


class StatSource(NamedTuple):
    """Where one stat's value comes from, in the order costing applies them: the roster's own
    value, else the catalogue figure's, else the ruleset's default; then the figure's type,
    which may set the value (replacing all of these) and may add to it."""

    stat: StatDef
    entered: object | None  # the roster's value (raw, as the file has it); None: it enters none
    figure: object | None  # the catalogue figure's value (raw); None: no figure, or it has none
    set_by: TypeDef | None  # the type that sets the value
    added_by: TypeDef | None  # the type that adds to it

    @property
    def given(self) -> object | None:
        """The value given for the figure before its type: the roster's, else the figure's."""
        return self.entered if self.entered is not None else self.figure

    @property
    def inherited(self) -> object | None:
        """What applies when the roster enters nothing: the figure's value, else the default."""
        return self.figure if self.figure is not None else self.stat.default

    @property
    def origin(self) -> str:
        """"type" (the type sets it), "roster", "figure", "default", "missing" (must be entered and
        nothing gives it) or "none" (optional, and nothing gives it)."""
        if self.set_by is not None:
            return "type"
        if self.entered is not None:
            return "roster"
        if self.figure is not None:
            return "figure"
        if self.stat.default is not None:
            return "default"
        return "missing" if self.stat.required else "none"

    @property
    def added(self) -> Number | None:
        return exact(self.added_by.add[self.stat.id]) if self.added_by is not None else None

    def note(self, effective: object | None = None) -> str:
        """Where the value comes from, in a few words ("from the figure", "set by Hero",
        "+1 Hero = 7" with ``effective``, the value costed)."""
        origin = self.origin
        if origin == "type":
            assert self.set_by is not None
            return f"set by {self.set_by.name}"
        if self.added_by is not None:
            amount = self.added
            assert amount is not None
            total = f" = {fmt(effective)}" if effective is not None else ""
            return f"{'+' if amount >= 0 else ''}{fmt(amount)} {self.added_by.name}{total}"
        return {"figure": "from the figure", "default": "default", "missing": "must be entered"}.get(origin, "")


def stat_source(stat: StatDef, entered: Mapping[str, object], figure: FigureDef | None,
                tdef: TypeDef | None) -> StatSource:
    """Where a stat's value comes from for a kind of figure: ``entered``, the stats the roster
    gives it; ``figure``, its catalogue figure; ``tdef``, the type it is costed as."""
    sid = stat.id
    return StatSource(stat, entered.get(sid), figure.stats.get(sid) if figure is not None else None,
                      tdef if tdef is not None and sid in tdef.set else None,
                      tdef if tdef is not None and sid in tdef.add else None)


def member_type(rs: Ruleset, unit_type: TypeDef | None, unit: Unit, figure: FigureDef | None) -> TypeDef | None:
    """The type a kind of figure is costed as: the unit's; in a unit of mixed figures that names
    no type, its catalogue figure's type."""
    if unit.members and figure is not None and not unit.type:
        return rs.find_type(figure.type) or unit_type
    return unit_type


def effective_stats(costing: Costing, tdef: TypeDef | None, figure: FigureDef | None, member: Member,
                    add: Callable[..., None]) -> dict[str, object]:
    """Stat values, each from where :func:`stat_source` says: the roster, else the catalogue
    figure, else the ruleset's default; then the type."""
    rs = costing.rs
    values: dict[str, object] = {}
    given = member.stats
    replaced = []
    for sid, sdef in rs.stats.items():
        source = stat_source(sdef, given, figure, tdef)
        raw = source.given
        if raw is None:
            value = costing.default(sdef)
            if sdef.required and value is None:
                note = f" ({sdef.entry_note})" if sdef.entry_note else ""
                add("error", "missing-stat", f"{sdef.label} must be entered{note}", f"stats.{sid}",
                    card=f"{sdef.label} not entered")
        else:
            value, err = costing.coerce(sdef, raw)
            if err:
                # (a card says what is wrong, "Morale: 6 is out of range"; the summary what is expected)
                add("error", "stat-range" if value is not None else "stat-type", f"{sdef.label}: {err}",
                    f"stats.{sid}", card=f"{sdef.label}: {err.split(': expected ', 1)[0]}")
                if value is None:
                    value = costing.default(sdef)
        if source.set_by is not None:
            entered = value
            value, _ = costing.coerce(sdef, source.set_by.set[sid])
            if source.entered is not None and entered is not None and entered != value:
                replaced.append((sdef, entered, value))
        if source.added_by is not None and value is not None:
            value = value + source.added  # type: ignore[operator]
        values[sid] = value
    shown, more = unknown_keys(member.stats, rs.stats)
    for sid in shown:
        close = get_close_matches(sid, suggestable(sid, rs.stats), n=1, cutoff=0.6)
        add("error", "unknown-stat", f"unknown stat '{sid}'", f"stats.{sid}",
            hint=(f"did you mean '{close[0]}'? " if close else "") + known_names("known stats", rs.stats))
    if more:
        add("error", "unknown-stat", f"and {more:,} more unknown stats (the first {len(shown)} are listed)",
            "stats")
    if replaced:  # the type's value is charged and played, not the player's: say so
        assert tdef is not None
        what = " and ".join(f"{sdef.label} to {show_stat(sdef, new)}" for sdef, _, new in replaced)
        old = " and ".join(f"{sdef.label} {show_stat(sdef, was)}" for sdef, was, _ in replaced)
        verb = "is" if len(replaced) == 1 else "are"
        add("warning", "type-sets-stat", f"{tdef.name} sets {what}: the entered {old} {verb} replaced, and the "
            f"figure is priced and played with the {tdef.name}'s values", f"stats.{replaced[0][0].id}",
            hint="remove the entered value, or make the figure another type and design it yourself")
    return values


class _UnitCosting:
    """The steps of costing one unit: its type, each kind of figure in it (stats, formula
    terms, items), then the unit's own derived values. Findings are collected, never raised."""

    def __init__(self, costing: Costing, pricer: Pricer, unit: Unit, index: int, printed: bool = True):
        self.costing = costing
        self.rs = costing.rs
        self.pricer = pricer
        self.unit = unit
        self.index = index
        self.printed = printed  # charge types' printed prices (False: the formula alone)
        self.findings: list[Finding] = []

    def add(self, severity: str, rule: str, message: str, fieldname: str | None = None, member: int | None = None,
            hint: str | None = None, card: str | None = None) -> None:
        self.findings.append(Finding(severity, rule, message, self.index, self.unit.name, fieldname, member, hint,
                                     card=card))

    def run(self) -> UnitCost:
        unit, rs = self.unit, self.rs
        unit_figure = self.figure(unit.figure, None) if unit.figure else None
        members = unit.member_list()
        if unit.members:
            first_fig = next((self.costing.figures.find(m.figure) for m in members if m.figure), None)
        else:
            first_fig = unit_figure
        tdef = self.unit_type(first_fig)
        params = {k: exact(v) for k, v in tdef.params.items()} if tdef else {p: 0 for p in rs.param_names}
        member_costs = [self.member(mi, m, unit_figure, tdef, params) for mi, m in enumerate(members)]
        figures = sum(m.count for m in member_costs)
        unit_total = sum((m.total for m in member_costs), 0)
        if not showable(unit_total) and all(showable(m.total) for m in member_costs):
            self.add("error", "too-large", f"the unit's total ({fmt(unit_total)}) {BEYOND_SHOWN}")
        if figures < 1:
            self.add("error", "unit-size", f"the unit has no {rs.data.count_label}", "count")
        uenv, uderived = self.unit_derived(tdef, figures, unit_total, member_costs)
        return UnitCost(self.index, unit.name, tdef.id if tdef else None, tdef.name if tdef else (unit.type or "?"),
                        figures, member_costs, unit_total, uderived, uenv, self.findings,
                        figure_limits_seen=self.costing._figure_limits)

    # --- the unit's type and figures

    def figure(self, name: str, mi: int | None) -> FigureDef | None:
        """A catalogue figure (the ruleset's, then the player's), noting an unknown name or a player's own."""
        shelf = self.costing.figures
        figure = shelf.find(name)
        fieldname = "figure" if mi is None else f"members[{mi}].figure"
        if figure is None:
            self.add("error", "unknown-figure", f"unknown figure '{name}' (not in the catalogue)", fieldname, mi,
                     self.costing.suggest("figures", name))
        elif shelf.is_own(name):
            message = f"figure '{name}' is your own, from {shelf.source}; share that file with this roster"
            if not any(f.message == message for f in self.findings):  # once a unit, for a mixed one too
                self.add("info", "personal-figure", message, "figure" if mi is None else "members")
        return figure

    def unit_type(self, figure: FigureDef | None) -> TypeDef | None:
        rs, unit = self.rs, self.unit
        tdef = resolve_type(rs, unit, figure)
        if tdef is None:
            types = known_names("types", rs.types) if len(rs.types) > KNOWN_SHOWN else \
                "types: " + ", ".join(t.name for t in rs.data.types)
            if unit.type:
                self.add("error", "unknown-type", f"unknown type '{unit.type}'", "type",
                         hint=self.costing.suggest("types", unit.type) or types)
            else:
                self.add("error", "unknown-type", "the unit has no type", "type", hint=types)
        return tdef

    # --- one kind of figure in the unit

    def member(self, mi: int, member: Member, unit_figure: FigureDef | None, tdef: TypeDef | None,
               params: dict[str, Number]) -> MemberCost:
        rs, unit = self.rs, self.unit
        mixed = bool(unit.members)

        def madd(sev, rule, msg, fld=None, hint=None, card=None):
            self.add(sev, rule, msg, _prefix(unit, mi, fld), mi if mixed else None, hint, card)

        figure = unit_figure
        if mixed:
            figure = self.figure(member.figure, mi) if member.figure else None
        count = member.count
        if not mixed and unit.count is None and figure is not None:
            count = figure.count
        mtype = member_type(rs, tdef, unit, figure)
        values = effective_stats(self.costing, mtype, figure, member, madd)
        env = self.formula_env(values, mtype, params if mtype is tdef else None)
        held_names = _held_names(member, figure)
        counts = Counter(self.costing.canonical(n) for kind in ITEM_KINDS for n in held_names[kind])
        held = frozenset(counts)
        joined = rs.data.formulas.items_in_figure_cost
        items = self.items(held_names, env, 0, mtype, madd) if joined else []
        items_cost = exact_sum(i.cost for i in items) if joined else None
        # what the figure holds, item by item, for figure formulas that read it (items(), sum_items())
        held_items = self.held_items(held_names) if self.costing.item_formulas else ()
        fc = _figure_cost(self.costing, env, held_items, counts, mtype, f"unit '{unit.name}'", madd, items_cost)
        printed = self.costing.type_price(mtype) if self.printed and fc.total_formula is not None else None
        figure_cost = fc.figure_cost + printed.adjustment if printed is not None else fc.figure_cost
        if joined:  # the items' cost is inside the figure cost already
            per_figure = figure_cost
        else:
            items = self.items(held_names, env, figure_cost, mtype, madd)
            per_figure = figure_cost + sum((i.cost for i in items), 0)
        points = rs.data.points_label
        if per_figure < 0:  # the cost rules subtract for values below the default and set no floor
            madd("warning", "negative-cost", f"a figure costs {fmt(per_figure)} {points}, less than nothing: the "
                 f"rules take {points} off for values below the default and set no floor, so our reading counts "
                 f"it as it comes, lowering the army's total", "stats")
        if figure is not None and figure.cost is not None and per_figure == exact(figure.cost):
            changes = _catalogue_changes(self.costing, figure, member, values, held_names)
            if changes:  # the printed cost describes the book's figure, not this one
                madd("warning", "catalogue-changed", f"{figure.name} is changed from the book's stat block ("
                     f"{'; '.join(changes)}) but is still charged its printed {fmt(exact(figure.cost))} {points}, "
                     f"which no longer describes it", "stats",
                     f"enter the changed figure's own {points}, or keep the book's figure as printed")
        _check_shown(figure_cost, items, per_figure * count, count, madd)
        notes = _figure_notes(figure, per_figure) if figure is not None else []
        if mtype is not None and (mtype.cost is not None or mtype.other_printings) and mtype.note:
            notes.append(f"{mtype.name}: {mtype.note}")
        return MemberCost(
            index=mi, name=member.name or (figure.name if figure else ""), count=count, stats=values, env=env,
            derived=fc.derived, terms=fc.terms, subtotal=fc.subtotal, figure_cost=figure_cost,
            total_formula=fc.total_formula, total_env=fc.total_env, items=items, per_figure=per_figure,
            total=per_figure * count, held=held, held_counts=dict(counts), notes=notes, not_costed=fc.not_costed, printed=printed,
            formula_cost=fc.figure_cost if printed is not None else None)

    def held_items(self, held_names: dict[str, list[str]]) -> tuple[tuple[str, str, dict, int | None], ...]:
        """(kind, name, stats, level) of each copy of each item the figure holds that is known (the
        roster's own items first), for the figure's formulas over its items."""
        out = []
        for kind in ITEM_KINDS:
            for name in held_names[kind]:
                item = self.pricer.lookup(kind, name)
                if item is not None:
                    out.append((kind, item.name, item.stats, split_level(name)[1]))
        return tuple(out)

    def formula_env(self, values: dict[str, object], mtype: TypeDef | None,
                    params: dict[str, Number] | None) -> dict[str, object]:
        """The names a figure's formulas see: its type, its stats, its type's parameters."""
        env: dict[str, object] = {"type": mtype.id if mtype else ""}
        for sid, sdef in self.rs.stats.items():
            value = values[sid]
            if value is not None and kind_of(sdef).direct:  # formulas see the value as it is
                env[sid] = value
            else:
                env.update(self.costing.formula_values(sdef, value))
        if params is None:
            params = {k: exact(v) for k, v in mtype.params.items()} if mtype else {}
        env.update(params)
        return env

    def items(self, held_names: dict[str, list[str]], env: dict, figure_cost: Number, mtype: TypeDef | None,
              madd) -> list[ItemCost]:
        rs, pricer = self.rs, self.pricer
        ctx = f"unit '{self.unit.name}'"
        items: list[ItemCost] = []
        weapons_cost: Number = 0
        # an item's own cost formula is a figure formula: has(), sum_items() and the like see the figure
        functions = None
        if self.costing.own_calls:
            counts = Counter(self.costing.canonical(n) for kind in ITEM_KINDS for n in held_names[kind])
            functions = FigureFunctions(rs, list(self.held_items(held_names)), counts).table()
        for kind in ITEM_KINDS:
            for name in held_names[kind]:
                try:
                    cost, problems = pricer.price(kind, name, env, figure_cost, weapons_cost, ctx, functions)
                except FormulaError as exc:
                    madd("error", "formula", exc.problems[0].message, kind, formula_source(exc))
                    cost, problems = ItemCost(kind, name, 0, "error"), []
                for p in problems:
                    madd("error", "item-stat", f"{ITEM_SINGULAR[kind]} '{name}': {p}", kind)
                if cost.source == "unknown":
                    other = [k for k in ITEM_KINDS if k != kind and pricer.lookup(k, name) is not None]
                    hint = f"'{name}' is listed under {other[0]}; move it there" if other else \
                        self.costing.suggest(kind, name)
                    madd("error", f"unknown-{ITEM_SINGULAR[kind]}", f"unknown {ITEM_SINGULAR[kind]} '{name}'", kind,
                         hint)
                elif cost.source == "unpriced":
                    madd("warning", "unpriced", f"{ITEM_SINGULAR[kind]} '{cost.name}' is unpriced in "
                         f"{rs.data.source.title}; counted as 0", kind,
                         f"set a house price: house_prices = {{ \"{cost.name}\" = N }}")
                if kind == "weapons":
                    weapons_cost += cost.cost
                    if cost.source not in ("unknown", "error") and norm(name) != norm(cost.name):
                        cost = dataclasses.replace(cost, called=name.strip())
                items.append(cost)
                _check_allowed(rs, pricer, kind, name, mtype, madd)
        return items

    # --- the unit as a whole

    def unit_derived(self, tdef: TypeDef | None, figures: int, unit_total: Number,
                     member_costs: list[MemberCost]) -> tuple[dict[str, object], dict[str, object]]:
        rs = self.rs
        uenv: dict[str, object] = {"type": tdef.id if tdef else "", "figures": figures, "unit_points": unit_total}
        # the type's parameters: unit values and limits read them as figures' formulas do
        uenv.update({k: exact(v) for k, v in tdef.params.items()} if tdef else dict.fromkeys(rs.param_names, 0))
        ufuncs = unit_functions(rs, member_costs) if rs.unit_derived else {}
        uderived: dict[str, object] = {}
        for d, f in rs.unit_derived:
            try:
                value = f.evaluate(uenv, ufuncs, f"unit '{self.unit.name}'")
            except FormulaError as exc:
                self.add("error", "formula", exc.problems[0].message, hint=formula_source(exc))
                value = 0
            uderived[d.id] = value
            uenv[d.id] = value
        return uenv, uderived


def _held_names(member: Member, figure: FigureDef | None) -> dict[str, list[str]]:
    """The items a figure holds, by kind: the roster's lists, else the catalogue figure's
    (an empty list the roster gives on purpose means none)."""
    held: dict[str, list[str]] = {}
    for kind in ITEM_KINDS:
        listed = getattr(member, kind)
        if not listed and figure is not None and not _explicit(member, kind):
            listed = getattr(figure, kind)
        held[kind] = list(listed)
    return held


@dataclass(slots=True)
class _FigureCost:
    derived: dict[str, object]
    terms: list[Term]
    subtotal: Number
    figure_cost: Number
    total_formula: Formula | None
    total_env: dict
    not_costed: str = "-"


def _figure_cost(costing: Costing, env: dict, items: tuple, counts: Counter, mtype: TypeDef | None, ctx: str,
                 madd, items_cost: Number | None = None) -> _FigureCost:
    """The figure's derived values, its cost terms and its cost by the ruleset's formulas.

    Figures alike (the same type, values and items: a roster's repeated troops, a
    tournament's common figures) are worked out once per costing context."""
    try:
        # the items' stats too: a roster's own item may share a name with another roster's
        key = (mtype.id if mtype is not None else None, frozenset(counts.items()), frozenset(env.items()),
               tuple((kind, name, _values_key(stats), level) for kind, name, stats, level in items) if costing.item_formulas
               else None, items_cost)
        hit = costing._figure_costs.get(key)
    except TypeError:  # a value that cannot be a key (a list of choices): worked out each time
        return _work_figure_cost(costing, env, items, counts, mtype, ctx, madd, items_cost)
    if hit is None:
        failed: list[tuple] = []

        def note(*args, **kw):
            failed.append(args)
            madd(*args, **kw)

        hit = _work_figure_cost(costing, env, items, counts, mtype, ctx, note, items_cost)
        if failed or hit.total_formula is None:
            return hit  # a figure that cannot be costed reports its problem each time
        costing._figure_costs[key] = hit
        return hit
    env.update(hit.derived)  # the names a costed figure's env holds (see _work_figure_cost)
    # the terms are shared: their values and working come from an env equal to this one
    return _FigureCost(dict(hit.derived), list(hit.terms), hit.subtotal, hit.figure_cost, hit.total_formula,
                       dict(hit.total_env, **env), hit.not_costed)


def _work_figure_cost(costing: Costing, env: dict, items: tuple, counts: Counter, mtype: TypeDef | None,
                      ctx: str, madd, items_cost: Number | None = None) -> _FigureCost:
    rs = costing.rs
    if mtype is None:
        return _FigureCost({}, [], 0, 0, None, env, "not costed: the type is unknown")
    # one scope for all of the figure's formulas: its names, then each derived value as made
    scope = dict(env)
    functions = FigureFunctions(rs, list(items), counts)
    scope.update({name: getattr(functions, name) for name in FIGURE_FUNCTION_NAMES})
    derived: dict[str, object] = {}
    try:
        for d, f in rs.figure_derived:
            value = f.evaluate(scope, None, ctx)
            derived[d.id] = env[d.id] = scope[d.id] = value
        terms = []
        subtotal: Number = 0
        for label, f in rs.cost_terms:
            value = f.evaluate_number(scope, None, ctx)
            terms.append(Term(label, value, f, env))
            subtotal += value
        scope["subtotal"] = subtotal
        extra = {"subtotal": subtotal}
        if items_cost is not None:
            scope["items_cost"] = extra["items_cost"] = items_cost
        figure_cost = rs.cost_total.evaluate_number(scope, None, ctx)
    except FormulaError as exc:
        madd("error", "formula", exc.problems[0].message, hint=formula_source(exc))
        return _FigureCost(derived, [], 0, 0, None, env)
    return _FigureCost(derived, terms, subtotal, figure_cost, rs.cost_total, dict(env, **extra))


FIGURE_FUNCTION_NAMES = tuple(entries(FIGURE))

_POWER = len(str(MAX_SHOWN)) - 1
BEYOND_SHOWN = f"is beyond what can be shown exactly (below 10^{_POWER}, and no finer than 1/10^{_POWER})"


def _check_shown(figure_cost: Number, items: list[ItemCost], total: Number, count: int, madd) -> None:
    """A finding naming what makes a figure's points too large (or too finely divided) to show:
    an item, the figure's cost, or the cost of the count of them."""
    if showable(total):
        return
    named = False
    if not showable(figure_cost):
        madd("error", "too-large", f"the figure cost ({fmt(figure_cost)}) {BEYOND_SHOWN}")
        named = True
    for it in items:
        if not showable(it.cost):
            madd("error", "too-large", f"{ITEM_SINGULAR[it.kind]} '{it.name}' costs {fmt(it.cost)}, which "
                 f"{BEYOND_SHOWN}", it.kind)
            named = True
    if not named:
        madd("error", "too-large", f"{count} figures at their cost ({fmt(total)}) {BEYOND_SHOWN}", "count")


def _figure_notes(figure: FigureDef, per_figure: Number) -> list[str]:
    """What the catalogue says about a figure's printed cost(s), for the breakdown."""
    notes = []
    if figure.cost is not None and exact(figure.cost) != per_figure:
        notes.append(f"the catalogue prints {fmt(exact(figure.cost))} for {figure.name}")
    for p in figure.other_printings:
        notes.append(f"{figure.name} is also printed at {fmt(exact(p.cost))} in {p.where}")
    if notes and figure.note:
        notes.append(figure.note)
    return notes


def _catalogue_changes(costing: Costing, figure: FigureDef, member: Member, values: dict,
                       held_names: dict[str, list[str]]) -> list[str]:
    """What a roster changed on a catalogue figure: entered stats that differ from its stat
    block ("Wounds 12, the book 6") and items added or taken away. Filling in a value the
    book leaves for the player (a required stat the figure does not print) is no change, nor
    is a stat the card's stat line does not show (a marker such as For the Masses' General)."""
    rs = costing.rs
    block = {n for _, t in rs.card_columns for part in t.parts if not isinstance(part, str) for n in part.names}
    changes = []
    for sid, raw in member.stats.items():
        sdef = rs.stats.get(sid)
        if sdef is None or raw is None or (block and sid not in block):
            continue
        if sid in figure.stats:
            book = costing.coerce(sdef, figure.stats[sid])[0]
        elif sdef.required:
            continue
        else:
            book = costing.default(sdef)
        if values.get(sid) != book:
            printed = "none" if book is None else show_stat(sdef, book)
            changes.append(f"{sdef.label} {show_stat(sdef, values.get(sid))}, the book {printed}")
    for kind in ITEM_KINDS:
        have = {costing.canonical(n): n for n in held_names[kind]}
        book_items = {costing.canonical(n): n for n in getattr(figure, kind)}
        added = [n for k, n in have.items() if k not in book_items]
        taken = [n for k, n in book_items.items() if k not in have]
        if added:
            changes.append(f"{kind} added: {', '.join(added)}")
        if taken:
            changes.append(f"{kind} taken away: {', '.join(taken)}")
    return changes


def _values_key(stats: dict) -> tuple:
    return tuple((k, type(v), v) for k, v in stats.items())  # 1, 1.0 and True kept apart


def _unit_key(unit: Unit, prices: tuple | None) -> tuple | None:
    """What a unit's costs depend on (all of it but its name and notes, and the roster's own
    prices), or None when a value cannot be a key (a list of choices)."""
    if prices is None:
        return None
    key = (prices, unit.type, *(
        (m.name if m is not unit else None, m.figure, m.count, tuple(m.weapons), tuple(m.abilities),
         tuple(m.equipment), _ITEM_KEYS & m.model_fields_set, _values_key(m.stats) if m.stats else ())
        for m in (unit, *unit.members)))
    try:
        hash(key)
    except TypeError:
        return None
    return key


_ITEM_KEYS = frozenset(ITEM_KINDS)


def _explicit(member: Member, kind: str) -> bool:
    return kind in member.model_fields_set


def _prefix(unit: Unit, mi: int, fld: str | None) -> str | None:
    if not unit.members:
        return fld
    return f"members[{mi}]" + (f".{fld}" if fld else "")


def _check_allowed(rs: Ruleset, pricer: Pricer, kind: str, name: str, tdef: TypeDef | None, add) -> None:
    item = pricer.lookup(kind, name)
    if item is None or not item.allowed_types or tdef is None:
        return
    ids, names = pricer.allowed(kind, item)
    if tdef.id not in ids:
        add("error", "not-allowed", f"{ITEM_SINGULAR[kind]} '{item.name}' is for {names} only, "
            f"not {tdef.name}", kind)


def formula_source(exc: FormulaError) -> str | None:
    """Where the formula that failed is written: "the ruleset's formula in FILE, key KEY"."""
    p = exc.problems[0]
    if not p.file and not p.key:
        return None
    where = [x for x in (p.file, f"key {p.key}" if p.key else None) if x]
    return "the ruleset's formula in " + ", ".join(where)


def unit_functions(rs: Ruleset, members: list[MemberCost]) -> dict[str, Function]:
    """The unit scope's formula functions (rules/functions.py), bound to these figures."""
    return UnitFunctions(rs, members).table()


def assemble(rs: Ruleset, roster: RosterFile, units: list[UnitCost]) -> CostReport:
    """Totals and roster-level findings from already-costed units."""
    total = exact_sum(u.total for u in units)
    per_type: dict[str, list[Number]] = {t: [] for t in rs.types}
    for u in units:
        if u.type_id is not None:
            per_type[u.type_id].append(u.total)
    by_type: dict[str, Number] = {t: exact_sum(v) for t, v in per_type.items()}
    limit = exact(roster.points_limit) if roster.points_limit is not None else None
    findings: list[Finding] = []
    for u in units:
        findings.extend(u.findings)
    if not showable(total) and all(showable(u.total) for u in units):
        findings.append(Finding("error", "too-large", f"the roster's total ({fmt(total)}) {BEYOND_SHOWN}"))
    if limit is not None and not showable(limit):
        findings.append(Finding("error", "too-large", f"the points limit ({fmt(limit)}) {BEYOND_SHOWN}",
                                field="points_limit"))
    for kind in ITEM_KINDS:
        for i, item in enumerate(getattr(roster, kind)):
            if rs.find_item(kind, item.name) is not None:
                findings.append(Finding("warning", "shadowed", f"roster {ITEM_SINGULAR[kind]} '{item.name}' "
                                        f"replaces the catalogue entry of the same name", field=f"{kind}[{i}]"))
    for name in roster.house_prices:
        item = next((rs.find_item(k, name) for k in ITEM_KINDS if rs.find_item(k, name)), None)
        if item is None:
            findings.append(Finding("warning", "house-price", f"house price for '{name}', which is not in the "
                                    "catalogue", field="house_prices"))
        elif not item.unpriced:
            findings.append(Finding("warning", "house-price", f"house price for '{item.name}' is ignored: the "
                                    f"source prices it", field="house_prices"))
    return CostReport(rs, roster, units, total, limit, by_type, findings)


def explain_lines(unit: UnitCost, rs: Ruleset) -> list[tuple[str, str]]:
    """(label, value) lines explaining a unit's cost, as shown by the CLI and the TUI."""

    lines: list[tuple[str, str]] = []
    label = rs.data.count_label
    joined = rs.data.formulas.items_in_figure_cost
    for m in unit.members:
        if len(unit.members) > 1 or m.name:
            lines.append((f"{m.name or 'figure'} x{m.count}", ""))
        for t in m.terms:
            if t.value == 0 and len(m.terms) > 1 and t.label not in rs.zero_terms_shown:
                continue  # nothing to pay for: left out
            shown = fmt(t.value)
            working = t.working
            lines.append((f"  {t.label}", f"{working} = {shown}" if working and working != shown else shown))
        if joined:  # the items' cost is part of the figure cost's working: listed before it
            lines.extend(_item_lines(rs, m))
        if m.printed is not None:
            p = m.printed
            by_formula = fmt(m.formula_cost)
            working = arithmetic(m.total_detail)
            lines.append(("  Figure cost by the formula",
                          f"{working} = {by_formula}" if working and working != by_formula else by_formula))
            lines.append((f"  {p.what} at its printed price",
                          (f"{fmt_signed(p.adjustment)} (printed {fmt(p.printed)}; the formula gives a default "
                           f"{p.what} {fmt(p.formula)})")))
            lines.append(("  Figure cost", fmt(m.figure_cost)))
        elif len(m.terms) > 1 or rs.cost_total.text != "subtotal" or joined:
            shown = fmt(m.figure_cost)
            working = arithmetic(m.total_detail)
            lines.append(("  Figure cost", f"{working} = {shown}" if working and working != shown else shown))
        if not joined:
            lines.extend(_item_lines(rs, m))
        lines.append((f"  Per {singular(label)}", fmt(m.per_figure)))
        for d, _ in rs.figure_derived:
            if d.show and d.id in m.derived:
                lines.append((f"  {d.label}", d.shown(m.derived[d.id])))
        for note in m.notes:
            lines.append(("  Note", note))
        lines.append((f"  x {m.count} {label if m.count != 1 else singular(label)}", fmt(m.total)))
    lines.append(("Unit total", fmt(unit.total)))
    return lines


def _item_lines(rs: Ruleset, m: MemberCost) -> list[tuple[str, str]]:
    """The breakdown's lines for a figure's items, each with its price and where it comes from."""
    from .display import with_copies, written_weapon  # (display builds on costing)

    lines = []
    # copies of an item priced alike are one line: "+ weapon: 3x Fire control  9 (3 each, as printed)"
    groups: dict[tuple, list[ItemCost]] = {}
    for it in m.items:
        groups.setdefault((it.kind, it.name, it.cost, item_how(it)), []).append(it)
    for (kind, _, cost, how), same in groups.items():
        it = same[0]
        shown = written_weapon(rs, it, m) if kind == "weapons" else None
        name = shown.name if shown else it.name
        copies = len(same)
        value = f"{fmt(cost * copies)} ({fmt(cost)} each, {how})" if copies > 1 else f"{fmt(cost)} ({how})"
        lines.append((f"  + {ITEM_SINGULAR[kind]}: {with_copies(name, copies)}", value))
        lines.extend((f"      {label}", text) for label, text in (shown.lines if shown else ()))
    return lines


_SOURCE_WORDS = {"published": "as printed", "formula": "by the formula", "own formula": "its own formula",
                 "roster": "set in the roster", "house price": "house price", "unpriced": "no price in the rules",
                 "unknown": "unknown", "error": "could not be priced"}


def price_source(it: ItemCost) -> str:
    """Where an item's price comes from, in a few words ("as printed", "by the formula", "no
    price in the rules"), for a line whose note is shown apart."""
    return _SOURCE_WORDS.get(it.source, it.source)


def item_how(it: ItemCost) -> str:
    """Where an item's price comes from, in words: "as printed", "the weapon formula: 1 * 10",
    "set in the roster", "no price in the rules; counted as 0"."""
    if it.source in ("formula", "own formula", "roster", "unpriced"):
        return it.note or "by the formula"
    head = _SOURCE_WORDS.get(it.source, it.source)
    return f"{head}; {it.note}" if it.note else head


def fmt_signed(value: Number) -> str:
    """A change in points with its sign: +6, -5."""
    return f"+{fmt(value)}" if value > 0 else fmt(value)


def singular(label: str) -> str:
    return label.removesuffix("s")
