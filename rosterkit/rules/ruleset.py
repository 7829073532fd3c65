"""Loading a ruleset: check its shape, resolve its names, compile every formula once."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from difflib import get_close_matches
from functools import cached_property, lru_cache
from heapq import nsmallest
from pathlib import Path

from ..errors import FormulaError, Problem, ProblemList, RosterkitError
from .formula import Formula, Template, compile_formula, compile_template
from .functions import (
    CARD,
    FIGURE,
    FIGURE_CONDITION_FUNCTIONS,
    FIGURE_LIMIT,
    ITEM_ARG_FUNCTIONS,
    ITEM_NAME_FUNCTIONS,
    KIND_TOO_FUNCTIONS,
    ROSTER,
    STAT_ARG_FUNCTIONS,
    STAT_OR_ITEM_FUNCTIONS,
    TYPE_ARG_FUNCTIONS,
    UNIT,
    UNIT_LIMIT,
    WEAPON,
    functions_for,
)
from .numbers import Number, exact
from .schema import (
    CardRule,
    DerivedDef,
    FigureDef,
    ItemDef,
    LimitDef,
    MatchupDef,
    PlayEffect,
    PlayPoints,
    RulesetFile,
    StatDef,
    TrackerDef,
    TypeDef,
)
from .stats import coerce, formula_names, kind_of

ITEM_KINDS = ("weapons", "abilities", "equipment")
ITEM_SINGULAR = {"weapons": "weapon", "abilities": "ability", "equipment": "equipment"}
# what a figure limit sees besides the figure's names: how many of the figure the unit has, the
# figure's cost by the cost formula, and its cost with its items
FIGURE_LIMIT_NAMES = frozenset({"count", "figure_cost", "per_figure"})


@lru_cache(maxsize=8192)
def norm(name: str) -> str:
    """A name as compared: spaces collapsed, case folded ("Bow/Crossbow " -> "bow/crossbow")."""
    return " ".join(name.split()).casefold()


SUGGEST_FROM = 200  # names compared for a suggestion
# formulas in one ruleset (a built-in one has about a hundred): each takes 0.1 to 0.2 ms to compile,
# and the work a roster asks grows with them (rosterkit.engine.budget)
MAX_FORMULAS = 10_000

_LEVELLED = re.compile(r"(.*?\S)\s*:\s*([0-9]{1,6})\s*")


def split_level(name: str) -> tuple[str, int | None]:
    """An item's name as a roster lists it and the level it is taken at: "Hard to Kill:2" ->
    ("Hard to Kill", 2); a name without one -> (name, None)."""
    m = _LEVELLED.fullmatch(name)
    return (m.group(1), int(m.group(2))) if m else (name, None)


class NameIndex:
    """Case-insensitive lookup of entries by name and aliases, with suggestions."""

    def __init__(self, entries: Iterable[tuple[list[str], object]]):
        self._map: dict[str, object] = {}
        self._names: dict[str, str] = {}
        for names, entry in entries:
            for n in names:
                self._map.setdefault(norm(n), entry)
                self._names.setdefault(norm(n), n)

    def get(self, name: str) -> object | None:
        return self._map.get(norm(name))

    def suggest(self, name: str) -> str | None:
        """'did you mean ...?' for a name not found: among the names nearest in length when the
        catalogue is large, so a hundred misspellings against 20,000 entries take a second, not a minute."""
        wanted = norm(name)
        names = list(self._map)
        if len(names) > SUGGEST_FROM:
            names = nsmallest(SUGGEST_FROM, names, key=lambda n: abs(len(n) - len(wanted)))
        close = get_close_matches(wanted, names, n=3, cutoff=0.5)
        if not close:
            return None
        return "did you mean " + " or ".join(f"'{self._names[c]}'" for c in close) + "?"

    def __contains__(self, name: str) -> bool:
        return norm(name) in self._map


@dataclass(frozen=True)
class CompiledLimit:
    spec: LimitDef
    check: Formula
    measure: Formula | None
    message: Template
    # the ids of the types its measure and check name in points()/units()/figures() (army-wide limits)
    measured_types: frozenset[str] = frozenset()
    card: Template | None = None  # the message's short form for the cards

    @property
    def at_most(self) -> Number | None:
        """The measure's upper bound, exact ("1/3" is a third)."""
        return None if self.spec.at_most is None else exact(self.spec.at_most)

    @property
    def at_least(self) -> Number | None:
        return None if self.spec.at_least is None else exact(self.spec.at_least)

    @property
    def bound(self) -> Number:
        """The bound a broken limit's message names (``bound``): at_most, else at_least."""
        bound = self.at_most if self.at_most is not None else self.at_least
        return 0 if bound is None else bound

    def parts(self) -> list[tuple[Formula, str]]:
        """Its formulas, each with the key it comes from: measure, check and the message's."""
        out = [(self.measure, "measure")] if self.measure is not None else []
        out.append((self.check, "check" if self.spec.check is not None else "measure"))
        out.extend((p, "message") for p in self.message.parts if isinstance(p, Formula))
        if self.card is not None:
            out.extend((p, "card") for p in self.card.parts if isinstance(p, Formula))
        return out


@dataclass(frozen=True)
class CompiledMatchup:
    spec: MatchupDef
    check: Formula
    message: Template


@dataclass(frozen=True)
class Ruleset:
    """A loaded ruleset: the file's data plus compiled formulas and name indexes.

    Frozen once loaded: costing keeps what it remembers in its own context
    (:class:`rosterkit.engine.costing.Costing`), and the player's figures are a layer
    consulted after the ruleset's own (:class:`rosterkit.engine.costing.FigureShelf`).
    """

    data: RulesetFile
    path: Path | None
    stats: dict[str, StatDef]
    item_stats: dict[str, dict[str, StatDef]]
    roster_stats: dict[str, StatDef]
    types: dict[str, TypeDef]
    type_index: NameIndex
    items: dict[str, NameIndex]
    figure_index: NameIndex
    cost_terms: list[tuple[str, Formula]]
    cost_total: Formula
    item_formulas: dict[str, Formula | None]
    own_formulas: dict[tuple[str, str], Formula]
    figure_derived: list[tuple[DerivedDef, Formula]]
    unit_derived: list[tuple[DerivedDef, Formula]]
    limits: list[CompiledLimit]
    matchups: list[CompiledMatchup]
    card_columns: list[tuple[str, Template]]
    card_rows: list[tuple[str, list[Template]]]
    weapon_columns: list[tuple[str, Template]]
    card_track: Formula | None
    card_reminder: Template | None = None  # [card] reminder, a line under each unit card's stat band
    param_names: frozenset[str] = field(default_factory=frozenset)
    # the conditions of items('weapons', 'condition') in figure limits, compiled over the item's stats
    item_conditions: Mapping[tuple[str, str], Formula] = field(default_factory=dict)
    # the conditions of points_where('...') and the like, compiled over one figure
    figure_conditions: Mapping[str, Formula] = field(default_factory=dict)
    # each kind's named values ([formulas] weapon_values), in order
    item_values: Mapping[str, list[tuple[str, Formula]]] = field(default_factory=dict)
    # card.trackers printed on the cards, each with its compiled formulas (count, rows, start, when;
    # None where not given)
    card_trackers: list[tuple[TrackerDef, dict[str, Formula | None]]] = field(default_factory=list)
    # every one of card.trackers (the printed ones and those of play mode only), in the file's order
    play_trackers: list[tuple[TrackerDef, dict[str, Formula | None]]] = field(default_factory=list)
    # card.rules, each with its compiled when (None where not given)
    card_rules: list[tuple[CardRule, Formula | None]] = field(default_factory=list)
    # [play]: the points formulas, and each effect's when, show and value (None where not given)
    play_points: list[tuple[PlayPoints, Formula]] = field(default_factory=list)
    play_effects: list[tuple[PlayEffect, Formula | None, Template | None, Formula | None]] = \
        field(default_factory=list)

    def _scoped_limits(self, scope: str) -> list[tuple[CompiledLimit, frozenset[str] | None]]:
        return [(lim, frozenset(self.find_type(t).id for t in lim.spec.applies_to)  # type: ignore[union-attr]
                 if lim.spec.applies_to else None)
                for lim in self.limits if lim.spec.scope == scope]

    @cached_property
    def zero_terms_shown(self) -> frozenset[str]:
        """The labels of the figure cost terms shown in the cost breakdown even when they are 0."""
        fc = self.data.formulas.figure_cost
        return frozenset() if isinstance(fc, str) else frozenset(t.label for t in fc.terms if t.show_zero)

    def item_formula_label(self, kind: str) -> str:
        """How the kind's cost formula is described to players."""
        label = getattr(self.data.formulas, f"{ITEM_SINGULAR[kind]}_cost_label")
        return label or f"the {ITEM_SINGULAR[kind]} formula"

    @cached_property
    def passes(self) -> dict[str, int]:
        """For each scope whose functions go over many things ("unit" and "card": the figures of a
        unit; "army": every unit's figures; "figure": a figure's items), how many passes its formulas
        may make: one per value given to a function (``differing('a', 'b')`` goes over the figures
        once for each name). With the count of formulas in "card formulas" and "weapon formulas",
        for the work budget (:mod:`rosterkit.engine.budget`)."""
        def limit_parts(scope: str) -> list[Formula]:
            return [f for lim in self.limits if lim.spec.scope == scope for f, _ in lim.parts()]

        def in_templates(templates: Iterable[Template]) -> list[Formula]:
            return [p for t in templates for p in t.parts if isinstance(p, Formula)]

        card = in_templates([t for _, t in self.card_columns] + [t for _, ts in self.card_rows for t in ts]
                            + ([self.card_reminder] if self.card_reminder is not None else []))
        card += [self.card_track] if self.card_track is not None else []
        return {
            "unit": _passes([f for _, f in self.unit_derived] + limit_parts("unit")),
            "card": _passes(card),
            "army": _passes(limit_parts("roster")),
            "figure": _passes(limit_parts("figure")),
            # a figure's own formulas that work out an expression for each item it holds
            "figure formulas": _passes([f for _, f in self.figure_derived] + [f for _, f in self.cost_terms]
                                       + [self.cost_total], PER_ITEM_FUNCTIONS),
            "card formulas": len(card),
            "weapon formulas": len(in_templates(t for _, t in self.weapon_columns)),
        }

    @cached_property
    def unit_limits(self) -> list[tuple[CompiledLimit, frozenset[str] | None]]:
        """The unit-scope limits, each with the ids of the types it applies to (None: every type)."""
        return self._scoped_limits("unit")

    @cached_property
    def figure_limits(self) -> list[tuple[CompiledLimit, frozenset[str] | None]]:
        """The limits checked on each kind of figure, each with the ids of the types it applies to."""
        return self._scoped_limits("figure")

    @property
    def id(self) -> str:
        return self.data.id

    @property
    def name(self) -> str:
        return self.data.name

    def find_type(self, name: str) -> TypeDef | None:
        return self.type_index.get(name)  # type: ignore[return-value]

    def find_item(self, kind: str, name: str) -> ItemDef | None:
        return self.items[kind].get(name)  # type: ignore[return-value]

    def find_figure(self, name: str) -> FigureDef | None:
        """A figure of the ruleset's own catalogue (the player's are in a FigureShelf)."""
        return self.figure_index.get(name)  # type: ignore[return-value]

    def canonical(self, name: str) -> str:
        """The normalized catalogue name of an item, aliases resolved ("Bow" -> "bow/crossbow"),
        its level left out ("Hard to Kill:2" -> "hard to kill")."""
        for kind in ITEM_KINDS:
            item = self.items[kind].get(name)
            if item is not None:
                return norm(item.name)  # type: ignore[union-attr]
        base, level = split_level(name)
        if level is not None:
            for kind in ITEM_KINDS:
                item = self.items[kind].get(base)
                if item is not None:
                    return norm(item.name)  # type: ignore[union-attr]
        return norm(name)

    def catalogue(self, kind: str) -> list[ItemDef]:
        return list(getattr(self.data, kind))

    def source_line(self) -> str:
        s = self.data.source
        bits = [s.title]
        if s.author:
            bits.append(s.author)
        if s.publisher:
            bits.append(s.publisher)
        if s.year:
            bits.append(str(s.year))
        return ", ".join(bits)


PER_ITEM_FUNCTIONS = frozenset({"items", "item_names", "sum_items", "min_items", "max_items"})


def _passes(formulas: Iterable[Formula], only: frozenset[str] | None = None) -> int:
    """Passes the calls in ``formulas`` make (one per argument; ``only``: calls of these functions)."""
    return sum(max(1, len(node.args)) for f in formulas for node in ast.walk(f.tree) if isinstance(node, ast.Call)
               and (only is None or (isinstance(node.func, ast.Name) and node.func.id in only)))


def figure_scope_names(rf: RulesetFile) -> set[str]:
    names: set[str] = {"type"}
    for s in rf.stats:
        names.update(formula_names(s))
    for t in rf.types:
        names.update(t.params)
    return names


def _check_type_args(formula: Formula, types: NameIndex, problems: ProblemList, source: str, file: str,
                     key: str) -> frozenset[str]:
    """Text arguments of points()/units()/figures() must name types; the ids of the types they name."""
    named: set[str] = set()
    for node in ast.walk(formula.tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in TYPE_ARG_FUNCTIONS:
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    tdef = types.get(arg.value)
                    if tdef is None:
                        problems.add(f"unknown type '{arg.value}' in {node.func.id}()", file=file, key=key,
                                     source=source, column=arg.col_offset, hint=types.suggest(arg.value))
                    else:
                        named.add(tdef.id)  # type: ignore[attr-defined]
    return frozenset(named)


def formula_count(rf: RulesetFile) -> int:
    """How many formulas the ruleset's file holds: each expression, and each ``{...}`` of a message
    or a card's text."""
    def parts(text: str) -> int:
        return text.count("{") - 2 * text.count("{{")

    fc = rf.formulas.figure_cost
    card = rf.card
    return ((2 if isinstance(fc, str) else len(fc.terms) + 1) + 3 + len(rf.derived)
            + sum(1 for kind in ITEM_KINDS for it in getattr(rf, kind) if it.cost_formula)
            + sum(2 + parts(lim.message) + parts(lim.card or "") for lim in rf.limits)
            + sum(1 + parts(m.message) for m in rf.matchup)
            + sum(parts(col.show) for col in [*card.columns, *card.weapon_columns])
            + sum(parts(v) for row in card.rows for v in row.values) + (card.track is not None)
            + len(rf.play.points) + sum(1 + parts(e.show) for e in rf.play.effects)
            + sum(1 for r in card.rules if r.when))


MARK_SUFFIXES = ("", "_full", "_any")  # the marks, the rows all marked, the rows with a mark


def mark_names(rf: RulesetFile) -> dict[str, int]:
    """The names play-mode formulas read marks by, each with its tracker: 0 the card's track,
    ``i + 1`` the card's tracker ``i`` (only a unit's trackers with an id)."""
    out: dict[str, int] = {}
    ids = [(0, rf.card.track_id)] + [(i + 1, tr.id) for i, tr in enumerate(rf.card.trackers) if tr.on == "unit"]
    for pos, ident in ids:
        if ident:
            for suffix in MARK_SUFFIXES:
                out[ident + suffix] = pos
    return out


def compile_ruleset(rf: RulesetFile, path: Path | None = None,
                    find_line: Callable[[tuple], int | None] | None = None) -> Ruleset:
    """Check a ruleset's names and compile its formulas; ``find_line`` gives the line of a key
    in the file (for messages)."""
    count = formula_count(rf)
    if count > MAX_FORMULAS:  # refused before compiling any
        raise RosterkitError(Problem(f"{count:,} formulas; a ruleset may have at most {MAX_FORMULAS:,}",
                                     file=str(path) if path else rf.id))
    c = _Compiler(rf, str(path) if path else rf.id, find_line)
    stats, item_stats, roster_stats = c.stats()
    types, type_index, params = c.types(stats)
    figure_names, unit_names, figure_derived, unit_derived = c.derived()
    cost_terms, cost_total = c.cost_formula(figure_names)
    item_formulas, own_formulas, items = c.catalogues(item_stats, type_index, figure_names)
    figure_index = c.figures(stats, type_index, items)
    limits = c.limits(type_index, unit_names, figure_names, stats, item_stats)
    matchups = c.matchups()
    card_columns, card_rows, weapon_columns, card_track, card_reminder = c.card(item_stats, figure_names, unit_names)
    card_trackers = c.trackers(figure_names, unit_names, set(roster_stats))
    card_rules = c.rules(figure_names, unit_names)
    play_points, play_effects = c.play(figure_names, unit_names)
    c.problems.raise_if_any()
    return Ruleset(
        data=rf, path=path, stats=stats, item_stats=item_stats, roster_stats=roster_stats, types=types,
        type_index=type_index, items=items, figure_index=figure_index, cost_terms=cost_terms,
        cost_total=cost_total, item_formulas=item_formulas, own_formulas=own_formulas,
        figure_derived=figure_derived, unit_derived=unit_derived, limits=limits, matchups=matchups,
        card_columns=card_columns, card_rows=card_rows, weapon_columns=weapon_columns, card_track=card_track,
        card_reminder=card_reminder, param_names=params, item_conditions=c.item_conditions, figure_conditions=c.figure_conditions,
        item_values=c.item_values, card_trackers=[t for t in card_trackers if t[0].on_card],
        play_trackers=card_trackers, play_points=play_points, play_effects=play_effects, card_rules=card_rules,
    )


class _Compiler:
    """The steps of compiling one ruleset file. Each step checks its part of the file, records
    what is wrong in :attr:`problems` (with the file, key and line) and returns what it made."""

    def __init__(self, rf: RulesetFile, file: str, find_line: Callable[[tuple], int | None] | None):
        self.rf = rf
        self.file = file
        self.problems = ProblemList()
        self._find_line = find_line
        self.item_conditions: dict[tuple[str, str], Formula] = {}
        self.figure_conditions: dict[str, Formula] = {}
        self.item_values: dict[str, list[tuple[str, Formula]]] = {}
        self.item_names_by_kind: dict[str, set[str]] = {}  # the names a formula over one item sees
        # what text arguments may name (see text_arg): every catalogue item, every figure value
        self.item_index = NameIndex(([it.name, *it.aliases], it) for kind in ITEM_KINDS for it in getattr(rf, kind))
        self.stat_names = figure_scope_names(rf) | {s.id for s in rf.stats} | \
            {d.id for d in rf.derived if d.scope == "figure"}

    # ---------------------------------------------------------------- helpers

    def line_of(self, *loc) -> int | None:
        return self._find_line(loc) if self._find_line else None

    def add(self, message: str, key: str, *loc, **kw) -> None:
        """A problem at ``key``, on the line of ``loc`` (when given)."""
        self.problems.add(message, file=self.file, key=key, line=self.line_of(*loc) if loc else None, **kw)

    def formula(self, expr: str, names: Collection[str], scope: str | None, *loc) -> Formula | None:
        """``expr`` compiled with ``names`` and the functions of ``scope`` (None: none); None if it fails."""
        try:
            return compile_formula(expr, names, functions_for(scope) if scope else None, file=self.file,
                                   key=_key(loc), text_args=self.text_arg)
        except FormulaError as exc:
            self.problems.extend([_with_line(p, self.line_of(*loc)) for p in exc.problems])
            return None

    def template(self, expr: str, names: Collection[str], scope: str | None, *loc) -> Template | None:
        try:
            return compile_template(expr, names, functions_for(scope) if scope else None, file=self.file,
                                    key=_key(loc), text_args=self.text_arg)
        except FormulaError as exc:
            self.problems.extend([_with_line(p, self.line_of(*loc)) for p in exc.problems])
            return None

    def stat_table(self, defs: list[StatDef], where: str) -> dict[str, StatDef]:
        out: dict[str, StatDef] = {}
        for i, s in enumerate(defs):
            if s.id in out:
                self.add(f"stat id '{s.id}' is defined twice", f"{where}[{i}].id", where, i)
            out[s.id] = s
            if s.default is not None:
                _, err = coerce(s, s.default)
                if err:
                    self.add(f"default {err}", f"{where}[{i}].default", where, i)
        return out

    def check_values(self, values: Mapping[str, object], defs: Mapping[str, StatDef], key: str, line: int | None,
                     what: str = "stat") -> None:
        """Every value names a stat of ``defs`` and fits it."""
        for sid, raw in values.items():
            if sid not in defs:
                self.problems.add(f"unknown {what} '{sid}'", file=self.file, key=f"{key}.{sid}", line=line,
                                  hint=_suggest(sid, defs))
            else:
                _, err = coerce(defs[sid], raw)
                if err:
                    self.problems.add(err, file=self.file, key=f"{key}.{sid}", line=line)

    # ---------------------------------------------------------------- steps

    def stats(self) -> tuple[dict[str, StatDef], dict[str, dict[str, StatDef]], dict[str, StatDef]]:
        """The figure stats, each kind of item's stats, the army settings."""
        rf = self.rf
        stats = self.stat_table(rf.stats, "stats")
        item_stats = {
            "weapons": self.stat_table(rf.weapon_stats, "weapon_stats"),
            "abilities": self.stat_table(rf.ability_stats, "ability_stats"),
            "equipment": self.stat_table(rf.equipment_stats, "equipment_stats"),
        }
        return stats, item_stats, self.stat_table(rf.roster_stats, "roster_stats")

    def types(self, stats: dict[str, StatDef]) -> tuple[dict[str, TypeDef], NameIndex, frozenset[str]]:
        """The types, their index by name and alias, and the names of their parameters."""
        rf = self.rf
        types: dict[str, TypeDef] = {}
        for i, t in enumerate(rf.types):
            if t.id in types:
                self.add(f"type id '{t.id}' is defined twice", f"types[{i}].id", "types", i)
            types[t.id] = t
            self.check_values(t.set, stats, f"types[{i}].set", self.line_of("types", i))
            for sid in t.add:
                if sid not in stats:
                    self.add(f"unknown stat '{sid}'", f"types[{i}].add.{sid}", "types", i,
                             hint=_suggest(sid, stats))
                elif not kind_of(stats[sid]).numeric:
                    self.add(f"only number stats can be added to; '{sid}' is a {stats[sid].kind}",
                             f"types[{i}].add.{sid}", "types", i)
        type_index = NameIndex(([t.id, t.name, *t.aliases], t) for t in rf.types)
        params = {p for t in rf.types for p in t.params}
        for i, t in enumerate(rf.types):
            missing = sorted(params - set(t.params))
            if missing:
                self.add(f"type '{t.id}' lacks parameter(s) {', '.join(missing)} that other types define",
                         f"types[{i}].params", "types", i)
        clash = params & {n for s in rf.stats for n in formula_names(s)}
        if clash:
            self.add(f"type parameter(s) {', '.join(sorted(clash))} have the same name as a stat", "types")
        return types, type_index, frozenset(params)

    def derived(self) -> tuple[set[str], set[str], list[tuple[DerivedDef, Formula]], list[tuple[DerivedDef, Formula]]]:
        """The derived values: (names of the figure scope, names of the unit scope, figure derived,
        unit derived). Each derived value is a name for the formulas after it."""
        figure_names = figure_scope_names(self.rf)
        unit_names = {"type", "figures", "unit_points"} | {p for t in self.rf.types for p in t.params}
        figure_derived: list[tuple[DerivedDef, Formula]] = []
        unit_derived: list[tuple[DerivedDef, Formula]] = []
        seen: set[str] = set()
        for i, d in enumerate(self.rf.derived):
            if d.id in figure_names or d.id in seen or d.id in unit_names:
                self.add(f"derived id '{d.id}' is already a name", f"derived[{i}].id", "derived", i)
            seen.add(d.id)
            if d.scope == "figure":
                f = self.formula(d.expr, figure_names, FIGURE, "derived", i, "expr")
                if f:
                    figure_derived.append((d, f))
                figure_names = figure_names | {d.id}
        for i, d in enumerate(self.rf.derived):
            if d.scope == "unit":
                f = self.formula(d.expr, unit_names, UNIT, "derived", i, "expr")
                if f:
                    unit_derived.append((d, f))
                unit_names = unit_names | {d.id}
        return figure_names, unit_names, figure_derived, unit_derived

    def cost_formula(self, figure_names: set[str]) -> tuple[list[tuple[str, Formula]], Formula | None]:
        """The figure cost: its labelled terms and the total of them."""
        fc = self.rf.formulas.figure_cost
        terms: list[tuple[str, Formula]] = []
        joined = {"items_cost"} if self.rf.formulas.items_in_figure_cost else set()
        if isinstance(fc, str):
            if joined:
                self.add("items_in_figure_cost needs figure_cost as terms and a total that reads items_cost",
                         "formulas.items_in_figure_cost", "formulas", "items_in_figure_cost")
            f = self.formula(fc, figure_names, FIGURE, "formulas", "figure_cost")
            if f:
                terms.append(("Figure", f))
            return terms, self.formula("subtotal", {"subtotal"}, None, "formulas", "figure_cost")
        for i, term in enumerate(fc.terms):
            f = self.formula(term.expr, figure_names, FIGURE, "formulas", "figure_cost", "terms", i, "expr")
            if f:
                terms.append((term.label, f))
        total = self.formula(fc.total, figure_names | {"subtotal"} | joined, FIGURE, "formulas", "figure_cost",
                             "total")
        if total is not None and joined and "items_cost" not in total.names:
            self.add("items_in_figure_cost is true but the total formula does not read items_cost",
                     "formulas.figure_cost.total", "formulas", "figure_cost", "total")
        return terms, total

    def catalogues(self, item_stats: dict[str, dict[str, StatDef]], type_index: NameIndex, figure_names: set[str]
                   ) -> tuple[dict[str, Formula | None], dict[tuple[str, str], Formula], dict[str, NameIndex]]:
        """The weapons, abilities and equipment: each kind's cost formula, the items' own cost
        formulas, and each kind's index by name and alias."""
        rf = self.rf
        item_formulas: dict[str, Formula | None] = {}
        for kind in ITEM_KINDS:
            expr = getattr(rf.formulas, f"{ITEM_SINGULAR[kind]}_cost")
            names = self.item_scope(kind)
            item_formulas[kind] = (self.formula(expr, names, None, "formulas", f"{ITEM_SINGULAR[kind]}_cost")
                                   if expr else None)
        # items priced inside the figure's cost come before it: they cannot read what it comes to
        own_names = figure_names | (set() if rf.formulas.items_in_figure_cost else {"figure_cost", "weapons_cost"}) | \
            {"level"}
        own_formulas: dict[tuple[str, str], Formula] = {}
        items: dict[str, NameIndex] = {}
        for kind in ITEM_KINDS:
            entries: list[ItemDef] = getattr(rf, kind)
            seen: set[str] = set()  # the names and aliases of the items before
            for i, item in enumerate(entries):
                names = dict.fromkeys(norm(x) for x in [item.name, *item.aliases])
                for n in names:
                    if n in seen:
                        self.add(f"{ITEM_SINGULAR[kind]} name '{n}' is used twice", f"{kind}[{i}].name", kind, i)
                seen.update(names)
                self._item(kind, i, item, item_stats[kind], type_index)
                if item.cost_formula:
                    # the item's own stats and values too; a name both the figure and the item have
                    # is refused where it is read, as it could mean either
                    mine = self.item_scope(kind) - {"level"}
                    f = self.formula(item.cost_formula, own_names | mine, FIGURE, kind, i, "cost_formula")
                    both = sorted(f.names & own_names & mine) if f else []
                    if both:
                        self.add(f"'{both[0]}' is both the figure's and the {ITEM_SINGULAR[kind]}'s here; "
                                 f"name the {ITEM_SINGULAR[kind]}'s in [formulas] {ITEM_SINGULAR[kind]}_values "
                                 f"(such as {ITEM_SINGULAR[kind]}_{both[0]} = \"{both[0]}\") and read that",
                                 f"{kind}[{i}].cost_formula", kind, i)
                    elif f:
                        own_formulas[(kind, norm(item.name))] = f
                elif item.cost is None and not item.unpriced and item_formulas[kind] is None:
                    self.add(f"'{item.name}' has no price: give cost, cost_formula or unpriced = true "
                             f"(the ruleset has no {ITEM_SINGULAR[kind]}_cost formula)", f"{kind}[{i}]", kind, i)
                elif item.pricing == "formula" and item_formulas[kind] is None:
                    self.add(f"'{item.name}' is priced by the formula, but the ruleset has no "
                             f"{ITEM_SINGULAR[kind]}_cost formula", f"{kind}[{i}].pricing", kind, i)
            items[kind] = NameIndex(([it.name, *it.aliases], it) for it in entries)
        return item_formulas, own_formulas, items

    def _item(self, kind: str, i: int, item: ItemDef, stats: dict[str, StatDef], type_index: NameIndex) -> None:
        """One catalogue item's stats and the types it is allowed to."""
        one = ITEM_SINGULAR[kind]
        self.check_values(item.stats, stats, f"{kind}[{i}].stats", self.line_of(kind, i), f"{one} stat")
        for sid, sdef in stats.items():
            if sdef.required and sid not in item.stats:
                self.add(f"{one} '{item.name}' lacks {sdef.label} ('{sid}'), which every {one} must have",
                         f"{kind}[{i}].stats", kind, i)
        for tname in item.allowed_types:
            if tname not in type_index:
                self.add(f"unknown type '{tname}' in allowed_types", f"{kind}[{i}].allowed_types", kind, i,
                         hint=type_index.suggest(tname))

    def figures(self, stats: dict[str, StatDef], type_index: NameIndex, items: dict[str, NameIndex]) -> NameIndex:
        """The catalogue of figures: each of a known type, with known stats and items."""
        for i, fig in enumerate(self.rf.figures):
            if fig.type not in type_index:
                self.add(f"unknown type '{fig.type}'", f"figures[{i}].type", "figures", i,
                         hint=type_index.suggest(fig.type))
            self.check_values(fig.stats, stats, f"figures[{i}].stats", self.line_of("figures", i))
            for kind in ITEM_KINDS:
                for n in getattr(fig, kind):
                    if n not in items[kind]:
                        self.add(f"unknown {ITEM_SINGULAR[kind]} '{n}'", f"figures[{i}].{kind}", "figures", i,
                                 hint=items[kind].suggest(n))
        return NameIndex(([f.name, *f.aliases], f) for f in self.rf.figures)

    def limits(self, type_index: NameIndex, unit_names: set[str], figure_names: set[str],
               stats: dict[str, StatDef], item_stats: dict[str, dict[str, StatDef]]) -> list[CompiledLimit]:
        """The limits, army-wide (roster scope), checked on each unit, or on each kind of figure."""
        roster_names = {"total", "limit", "unit_count"} | {n for s in self.rf.roster_stats for n in formula_names(s)}
        out: list[CompiledLimit] = []
        ids: set[str] = set()
        for i, lim in enumerate(self.rf.limits):
            if lim.id in ids:
                self.add(f"limit id '{lim.id}' is used twice", f"limits[{i}].id", "limits", i)
            ids.add(lim.id)
            for tname in lim.applies_to:
                if tname not in type_index:
                    self.add(f"unknown type '{tname}' in applies_to", f"limits[{i}].applies_to", "limits", i,
                             hint=type_index.suggest(tname))
            if lim.scope == "roster":
                compiled = self._limit(i, lim, roster_names, ROSTER, type_index)
            elif lim.scope == "unit":
                compiled = self._limit(i, lim, unit_names, UNIT_LIMIT, None)
            else:
                compiled = self._limit(i, lim, figure_names | FIGURE_LIMIT_NAMES, FIGURE_LIMIT, None)
            if compiled:
                out.append(compiled)
        return out

    def text_arg(self, fname: str, i: int, texts: tuple) -> tuple[str, str | None, int | None] | None:
        """Whether the text argument ``i`` of a call of ``fname`` names what the function takes:
        an item of the catalogue, a stat, a kind of item (whose formula, the next argument, is
        compiled here once over the item's stats). See :data:`rosterkit.rules.formula.TextArgCheck`."""
        value = texts[i]
        if fname in ITEM_ARG_FUNCTIONS:
            kind = texts[0]
            if i == 0:
                if kind in ITEM_KINDS:
                    return None
                shown = f"; '{value}' is none of them" if value is not None else ""
                return ((f"{fname}() takes a kind of item in quotes first: 'weapons', 'abilities' or "
                        f"'equipment'{shown}"), _suggest(value or "", dict.fromkeys(ITEM_KINDS)), None)
            if value is None:
                return ((f"{fname}(): the {'condition' if fname in ('items', 'item_names') else 'formula'} must be "
                        f"a formula in quotes, such as 'range > 0'"), None, None)
            if kind not in ITEM_KINDS or (kind, value) in self.item_conditions:
                return None
            names = self.item_scope(kind)
            try:
                f = compile_formula(value, names, None, file=self.file)
            except FormulaError as exc:
                p = exc.problems[0]
                return f"in {fname}()'s formula over one {ITEM_SINGULAR[kind]}: {p.message}", p.hint, p.column
            self.item_conditions[(kind, value)] = f
            return None
        if value is None:
            return None
        if fname in FIGURE_CONDITION_FUNCTIONS:
            if value in self.figure_conditions:
                return None
            try:
                f = compile_formula(value, self.stat_names | FIGURE_LIMIT_NAMES, functions_for(FIGURE_LIMIT),
                                    file=self.file, text_args=self.text_arg)
            except FormulaError as exc:
                p = exc.problems[0]
                return f"in {fname}()'s condition over one figure: {p.message}", p.hint, p.column
            self.figure_conditions[value] = f
            return None
        if fname in ITEM_NAME_FUNCTIONS:
            if value in self.item_index:
                return None
            return f"unknown item '{value}' in {fname}()", self.item_index.suggest(value), None
        if fname in STAT_ARG_FUNCTIONS:
            if value in self.stat_names or (fname in KIND_TOO_FUNCTIONS and (value == "type" or value in ITEM_KINDS)):
                return None
            extra = ", 'type', 'weapons', 'abilities' or 'equipment'" if fname in KIND_TOO_FUNCTIONS else ""
            return (f"{fname}() takes names of stats or derived values in quotes{extra}; '{value}' is none of them",
                    _suggest(value, dict.fromkeys(self.stat_names)), None)
        if fname in STAT_OR_ITEM_FUNCTIONS:
            if value in self.stat_names or value in self.item_index:
                return None
            return (f"{fname}() takes the name of a stat or an item; '{value}' is neither",
                    _suggest(value, dict.fromkeys(self.stat_names)) or self.item_index.suggest(value), None)
        return None

    def item_scope(self, kind: str) -> set[str]:
        """The names a formula over one item of the kind sees: its stats, ``level`` and the kind's
        named values (compiled here, once, in order)."""
        if kind not in self.item_names_by_kind:
            one = ITEM_SINGULAR[kind]
            names = {n for s in self.rf_item_stats(kind) for n in formula_names(s)} | {"level"}
            values: list[tuple[str, Formula]] = []
            for vid, expr in getattr(self.rf.formulas, f"{one}_values").items():
                if vid in names:
                    self.add(f"the value '{vid}' is already a name", f"formulas.{one}_values.{vid}", "formulas",
                             f"{one}_values")
                f = self.formula(expr, names, None, "formulas", f"{one}_values", vid)
                if f is not None:
                    values.append((vid, f))
                names = names | {vid}
            self.item_values[kind] = values
            self.item_names_by_kind[kind] = names
        return self.item_names_by_kind[kind]

    def rf_item_stats(self, kind: str) -> list[StatDef]:
        return {"weapons": self.rf.weapon_stats, "abilities": self.rf.ability_stats,
                "equipment": self.rf.equipment_stats}[kind]

    def _limit(self, i: int, lim: LimitDef, names: set[str], scope: str, type_index: NameIndex | None
               ) -> CompiledLimit | None:
        """One limit's measure, check and message; ``type_index`` to check (and record) the types
        its measure and check name."""
        measure = self.formula(lim.measure, names, scope, "limits", i, "measure") if lim.measure is not None \
            else None
        if lim.check is not None:
            check = self.formula(lim.check, names, scope, "limits", i, "check")
        else:
            parts = []
            if lim.at_most is not None:
                parts.append("value <= at_most")
            if lim.at_least is not None:
                parts.append("value >= at_least")
            check = self.formula(" and ".join(parts), {"value", "at_most", "at_least"}, None, "limits", i, "measure")
        message = self.template(lim.message, names | {"value", "bound"}, scope, "limits", i, "message")
        card = self.template(lim.card, names | {"value", "bound"}, scope, "limits", i, "card") \
            if lim.card is not None else None
        measured: frozenset[str] = frozenset()
        if type_index is not None:
            for f, part in ((measure, "measure"), (check, "check")):
                if f is not None:
                    measured |= _check_type_args(f, type_index, self.problems, getattr(lim, part) or "", self.file,
                                                 f"limits[{i}].{part}")
        if check and message and (measure or lim.measure is None) and (card or lim.card is None):
            return CompiledLimit(lim, check, measure, message, measured, card)
        return None

    def matchups(self) -> list[CompiledMatchup]:
        """The checks of two armies against each other."""
        out: list[CompiledMatchup] = []
        names = {"mine", "theirs", "low", "high"}
        for i, m in enumerate(self.rf.matchup):
            check = self.formula(m.check, names, None, "matchup", i, "check")
            message = self.template(m.message, names, None, "matchup", i, "message")
            if check and message:
                out.append(CompiledMatchup(m, check, message))
        return out

    def card(self, item_stats: dict[str, dict[str, StatDef]], figure_names: set[str], unit_names: set[str]
             ) -> tuple[list[tuple[str, Template]], list[tuple[str, list[Template]]], list[tuple[str, Template]],
                        Formula | None, Template | None]:
        """The unit card: its columns, extra rows, weapon columns, track and reminder line."""
        card = self.rf.card
        names = unit_names | figure_names | {"count", "per_figure"}
        columns = []
        for i, col in enumerate(card.columns):
            t = self.template(col.show, names, CARD, "card", "columns", i, "show")
            if t:
                columns.append((col.label, t))
        rows = []
        for i, row in enumerate(card.rows):
            if len(row.values) != len(card.columns):
                self.add(f"row has {len(row.values)} values but the card has {len(card.columns)} columns",
                         f"card.rows[{i}].values")
            ts = [self.template(v, names, CARD, "card", "rows", i, "values") for v in row.values]
            rows.append((row.label, [t for t in ts if t]))
        # the weapon's names, and the figure's where the weapon has none of that name
        weapon_names = {n for s in item_stats["weapons"].values() for n in formula_names(s)} | {"name", "cost"} | \
            figure_names
        weapon_columns = []
        for i, col in enumerate(card.weapon_columns):
            t = self.template(col.show, weapon_names, WEAPON, "card", "weapon_columns", i, "show")
            if t:
                weapon_columns.append((col.label, t))
        track = self.formula(card.track, names, CARD, "card", "track") if card.track else None
        reminder = self.template(card.reminder, names, CARD, "card", "reminder") if card.reminder else None
        return columns, rows, weapon_columns, track, reminder or None


    def trackers(self, figure_names: set[str], unit_names: set[str], roster_names: set[str]
                 ) -> list[tuple[TrackerDef, dict[str, Formula | None]]]:
        """The card's trackers with their formulas: a unit's over its figures' and unit's values,
        the army card's over the roster's own stats."""
        out = []
        for i, tr in enumerate(self.rf.card.trackers):
            names = roster_names if tr.on == "army" else unit_names | figure_names | {"count", "per_figure"}
            scope = None if tr.on == "army" else CARD
            compiled: dict[str, Formula | None] = {}
            for key in ("count", "rows", "start", "dice", "when", "half"):
                expr = getattr(tr, key)
                if key == "half" and not isinstance(expr, str):
                    expr = None  # true or false: no formula
                compiled[key] = self.formula(expr, names, scope, "card", "trackers", i, key) if expr else None
            if tr.half is not False and tr.kind != "boxes":
                self.add("'half' marks half strength on a boxes tracker only", f"card.trackers[{i}].half",
                         "card", "trackers", i, "half")
            if tr.box_labels and not (tr.kind == "boxes" and tr.figure_lines):
                self.add("'box_labels' names the boxes of a figure's run: a boxes tracker with "
                         "figure_lines = true only", f"card.trackers[{i}].box_labels",
                         "card", "trackers", i, "box_labels")
            if tr.dice is not None and tr.kind != "die":
                self.add("'dice' counts the dice of a die tracker only", f"card.trackers[{i}].dice",
                         "card", "trackers", i, "dice")
            if tr.kind == "die" and (not tr.steps or tr.start is None):
                self.add("a die tracker needs steps and start", f"card.trackers[{i}]", "card", "trackers", i)
            if tr.only is not None and tr.only not in roster_names:
                self.add(f"'{tr.only}' is not a roster stat", f"card.trackers[{i}].only", "card", "trackers", i)
            out.append((tr, compiled))
        return out


    def rules(self, figure_names: set[str], unit_names: set[str]) -> list[tuple[CardRule, Formula | None]]:
        """The card's quick rules with their ``when`` compiled over a figure's values, as a tracker's."""
        names = unit_names | figure_names | {"count", "per_figure"}
        return [(r, self.formula(r.when, names, CARD, "card", "rules", i, "when") if r.when else None)
                for i, r in enumerate(self.rf.card.rules)]

    def play(self, figure_names: set[str], unit_names: set[str]
             ) -> tuple[list[tuple[PlayPoints, Formula]],
                        list[tuple[PlayEffect, Formula | None, Template | None, Formula | None]]]:
        """[play]: points and effects compiled over one kind of figure of a unit and its marks."""
        marks = mark_names(self.rf)
        names = unit_names | figure_names | {"count", "per_figure"}
        seen: set[str] = {self.rf.card.track_id} if self.rf.card.track_id else set()
        for i, tr in enumerate(self.rf.card.trackers):
            if tr.id and tr.id in seen:
                self.add(f"the id '{tr.id}' is given twice; each tracker's marks need a name of their own",
                         f"card.trackers[{i}].id", "card", "trackers", i, "id")
            if tr.id and tr.on == "army":
                self.add("an army tracker's marks are not read by play formulas (they score no points); "
                         "leave out its id", f"card.trackers[{i}].id", "card", "trackers", i, "id")
            seen.add(tr.id or "")
        for name in sorted(set(marks) & names):
            pos = marks[name]
            key = ("card", "track_id") if pos == 0 else ("card", "trackers", pos - 1, "id")
            self.add(f"the marks' name '{name}' is already a stat or value's name; give the tracker another id",
                     _key(key), *key)
        names = names | set(marks)
        points = []
        for i, p in enumerate(self.rf.play.points):
            f = self.formula(p.points, names, CARD, "play", "points", i, "points")
            if f is not None:
                points.append((p, f))
        effects = []
        for i, e in enumerate(self.rf.play.effects):
            when = self.formula(e.when, names, CARD, "play", "effects", i, "when") if e.when else None
            show = self.template(e.show, names, CARD, "play", "effects", i, "show") if e.show else None
            value = self.formula(e.value, names, CARD, "play", "effects", i, "value") if e.value else None
            effects.append((e, when, show, value))
        return points, effects


def _key(loc: tuple) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + part
    return out


def _with_line(p: Problem, line: int | None) -> Problem:
    if line is None or p.line is not None:
        return p
    return Problem(p.message, file=p.file, key=p.key, line=line, column=p.column, source=p.source, hint=p.hint)


def _suggest(name: str, known: Mapping[str, object]) -> str | None:
    close = get_close_matches(name, list(known), n=3, cutoff=0.6)
    return ("did you mean " + " or ".join(f"'{c}'" for c in close) + "?") if close else None
