"""Loading a ruleset: check its shape, resolve its names, compile every formula once."""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from difflib import get_close_matches
from functools import cached_property, lru_cache
from heapq import nsmallest
from pathlib import Path

from ..errors import FormulaError, Problem, ProblemList
from .formula import Formula, Template, compile_formula, compile_template
from .functions import (
    CARD,
    FIGURE,
    FIGURE_LIMIT,
    ITEM_ARG_FUNCTIONS,
    ROSTER,
    STAT_ARG_FUNCTIONS,
    TYPE_ARG_FUNCTIONS,
    UNIT,
    UNIT_LIMIT,
    WEAPON,
    functions_for,
)
from .schema import (
    DerivedDef,
    FigureDef,
    ItemDef,
    LimitDef,
    MatchupDef,
    RulesetFile,
    StatDef,
    TrackerDef,
    TypeDef,
)
from .stats import coerce, formula_names, kind_of

ITEM_KINDS = ("weapons", "abilities", "equipment")
ITEM_SINGULAR = {"weapons": "weapon", "abilities": "ability", "equipment": "equipment"}


@lru_cache(maxsize=8192)
def norm(name: str) -> str:
    """A name as compared: spaces collapsed, case folded ("Bow/Crossbow " -> "bow/crossbow")."""
    return " ".join(name.split()).casefold()


SUGGEST_FROM = 200  # names compared for a suggestion


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

    def parts(self) -> list[tuple[Formula, str]]:
        """Its formulas, each with the key it comes from: measure, check and the message's."""
        out = [(self.measure, "measure")] if self.measure is not None else []
        out.append((self.check, "check" if self.spec.check is not None else "measure"))
        out.extend((p, "message") for p in self.message.parts if isinstance(p, Formula))
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
    param_names: frozenset[str] = field(default_factory=frozenset)
    # the conditions of items('weapons', 'condition') in figure limits, compiled over the item's stats
    item_conditions: Mapping[tuple[str, str], Formula] = field(default_factory=dict)
    # card.trackers, each with its compiled formulas (count, rows, start, when; None where not given)
    card_trackers: list[tuple[TrackerDef, dict[str, Formula | None]]] = field(default_factory=list)

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
        """The normalized catalogue name of an item, aliases resolved ("Bow" -> "bow/crossbow")."""
        for kind in ITEM_KINDS:
            item = self.items[kind].get(name)
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


def compile_ruleset(rf: RulesetFile, path: Path | None = None,
                    find_line: Callable[[tuple], int | None] | None = None) -> Ruleset:
    """Check a ruleset's names and compile its formulas; ``find_line`` gives the line of a key
    in the file (for messages)."""
    c = _Compiler(rf, str(path) if path else rf.id, find_line)
    stats, item_stats, roster_stats = c.stats()
    types, type_index, params = c.types(stats)
    figure_names, unit_names, figure_derived, unit_derived = c.derived()
    cost_terms, cost_total = c.cost_formula(figure_names)
    item_formulas, own_formulas, items = c.catalogues(item_stats, type_index, figure_names)
    figure_index = c.figures(stats, type_index, items)
    limits = c.limits(type_index, unit_names, figure_names, stats, item_stats)
    matchups = c.matchups()
    card_columns, card_rows, weapon_columns, card_track = c.card(item_stats, figure_names, unit_names)
    card_trackers = c.trackers(figure_names, unit_names, set(roster_stats))
    c.problems.raise_if_any()
    return Ruleset(
        data=rf, path=path, stats=stats, item_stats=item_stats, roster_stats=roster_stats, types=types,
        type_index=type_index, items=items, figure_index=figure_index, cost_terms=cost_terms,
        cost_total=cost_total, item_formulas=item_formulas, own_formulas=own_formulas,
        figure_derived=figure_derived, unit_derived=unit_derived, limits=limits, matchups=matchups,
        card_columns=card_columns, card_rows=card_rows, weapon_columns=weapon_columns, card_track=card_track,
        param_names=params, item_conditions=c.item_conditions, card_trackers=card_trackers,
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
                                   key=_key(loc))
        except FormulaError as exc:
            self.problems.extend([_with_line(p, self.line_of(*loc)) for p in exc.problems])
            return None

    def template(self, expr: str, names: Collection[str], scope: str | None, *loc) -> Template | None:
        try:
            return compile_template(expr, names, functions_for(scope) if scope else None, file=self.file,
                                    key=_key(loc))
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
        unit_names = {"type", "figures", "unit_points"}
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
        if isinstance(fc, str):
            f = self.formula(fc, figure_names, FIGURE, "formulas", "figure_cost")
            if f:
                terms.append(("Figure", f))
            return terms, self.formula("subtotal", {"subtotal"}, None, "formulas", "figure_cost")
        for i, term in enumerate(fc.terms):
            f = self.formula(term.expr, figure_names, FIGURE, "formulas", "figure_cost", "terms", i, "expr")
            if f:
                terms.append((term.label, f))
        total = self.formula(fc.total, figure_names | {"subtotal"}, FIGURE, "formulas", "figure_cost", "total")
        return terms, total

    def catalogues(self, item_stats: dict[str, dict[str, StatDef]], type_index: NameIndex, figure_names: set[str]
                   ) -> tuple[dict[str, Formula | None], dict[tuple[str, str], Formula], dict[str, NameIndex]]:
        """The weapons, abilities and equipment: each kind's cost formula, the items' own cost
        formulas, and each kind's index by name and alias."""
        rf = self.rf
        item_formulas: dict[str, Formula | None] = {}
        for kind in ITEM_KINDS:
            expr = getattr(rf.formulas, f"{ITEM_SINGULAR[kind]}_cost")
            names = {n for s in item_stats[kind].values() for n in formula_names(s)}
            item_formulas[kind] = (self.formula(expr, names, None, "formulas", f"{ITEM_SINGULAR[kind]}_cost")
                                   if expr else None)
        own_names = figure_names | {"figure_cost", "weapons_cost"}
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
                    f = self.formula(item.cost_formula, own_names, FIGURE, kind, i, "cost_formula")
                    if f:
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
                compiled = self._limit(i, lim, figure_names | {"count"}, FIGURE_LIMIT, None)
            if compiled:
                stat_names = set(stats) | {d.id for d in self.rf.derived if d.scope == "figure"}
                for f, part in compiled.parts():
                    self._check_name_args(f, i, part, stat_names, item_stats)
                out.append(compiled)
        return out

    def _check_name_args(self, formula: Formula, i: int, part: str, stat_names: set[str],
                         item_stats: dict[str, dict[str, StatDef]]) -> None:
        """The text arguments of items(), item_names() and differing(): a kind of item and a
        condition over its stats (compiled here, once), or the names of stats."""
        key = f"limits[{i}].{part}"
        for node in ast.walk(formula.tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            name = node.func.id
            texts = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in node.args]
            if name in ITEM_ARG_FUNCTIONS:
                kind = texts[0] if texts else None
                if kind not in ITEM_KINDS:
                    self.add(f"{name}() takes a kind of item in quotes first: 'weapons', 'abilities' or 'equipment'",
                             key, "limits", i, source=formula.text)
                    continue
                if len(node.args) > 1:
                    condition = texts[1]
                    if condition is None:
                        self.add(f"{name}(): the condition must be a formula in quotes, such as 'range > 0'",
                                 key, "limits", i, source=formula.text)
                    elif (kind, condition) not in self.item_conditions:
                        names = {n for s in item_stats[kind].values() for n in formula_names(s)}
                        f = self.formula(condition, names, None, "limits", i, part)
                        if f is not None:
                            self.item_conditions[(kind, condition)] = f
            elif name in STAT_ARG_FUNCTIONS:
                for arg, text in zip(node.args, texts):
                    if text is None or not (text in stat_names or text == "type" or text in ITEM_KINDS):
                        shown = text if text is not None else ast.unparse(arg)
                        self.add(f"{name}() takes names of stats in quotes, 'type', 'weapons', 'abilities' or "
                                 f"'equipment'; '{shown}' is none of them", key, "limits", i, source=formula.text,
                                 column=arg.col_offset, hint=_suggest(shown, {n: 1 for n in stat_names}))

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
                parts.append(f"value <= {lim.at_most!r}")
            if lim.at_least is not None:
                parts.append(f"value >= {lim.at_least!r}")
            check = self.formula(" and ".join(parts), {"value"}, None, "limits", i, "measure")
        message = self.template(lim.message, names | {"value", "bound"}, scope, "limits", i, "message")
        measured: frozenset[str] = frozenset()
        if type_index is not None:
            for f, part in ((measure, "measure"), (check, "check")):
                if f is not None:
                    measured |= _check_type_args(f, type_index, self.problems, getattr(lim, part) or "", self.file,
                                                 f"limits[{i}].{part}")
        if check and message and (measure or lim.measure is None):
            return CompiledLimit(lim, check, measure, message, measured)
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
                        Formula | None]:
        """The unit card: its columns, extra rows, weapon columns and track."""
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
        weapon_names = {n for s in item_stats["weapons"].values() for n in formula_names(s)} | {"name", "cost"}
        weapon_columns = []
        for i, col in enumerate(card.weapon_columns):
            t = self.template(col.show, weapon_names, WEAPON, "card", "weapon_columns", i, "show")
            if t:
                weapon_columns.append((col.label, t))
        track = self.formula(card.track, names, CARD, "card", "track") if card.track else None
        return columns, rows, weapon_columns, track


    def trackers(self, figure_names: set[str], unit_names: set[str], roster_names: set[str]
                 ) -> list[tuple[TrackerDef, dict[str, Formula | None]]]:
        """The card's trackers with their formulas: a unit's over its figures' and unit's values,
        the army card's over the roster's own stats."""
        out = []
        for i, tr in enumerate(self.rf.card.trackers):
            names = roster_names if tr.on == "army" else unit_names | figure_names | {"count", "per_figure"}
            scope = None if tr.on == "army" else CARD
            compiled: dict[str, Formula | None] = {}
            for key in ("count", "rows", "start", "when"):
                expr = getattr(tr, key)
                compiled[key] = self.formula(expr, names, scope, "card", "trackers", i, key) if expr else None
            if tr.kind == "die" and (not tr.steps or tr.start is None):
                self.add("a die tracker needs steps and start", f"card.trackers[{i}]", "card", "trackers", i)
            if tr.only is not None and tr.only not in roster_names:
                self.add(f"'{tr.only}' is not a roster stat", f"card.trackers[{i}].only", "card", "trackers", i)
            out.append((tr, compiled))
        return out


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
