"""Loading a ruleset: check its shape, resolve its names, compile every formula once."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from difflib import get_close_matches
from functools import cached_property, lru_cache
from pathlib import Path

from ..errors import FormulaError, Problem, ProblemList
from .formula import Formula, Function, Template, compile_formula, compile_template
from .schema import (
    DerivedDef,
    FigureDef,
    ItemDef,
    LimitDef,
    MatchupDef,
    RulesetFile,
    StatDef,
    TypeDef,
)
from .stats import coerce, formula_names, kind_of

ITEM_KINDS = ("weapons", "abilities", "equipment")
ITEM_SINGULAR = {"weapons": "weapon", "abilities": "ability", "equipment": "equipment"}


def _spec(lo: int, hi: int | None, doc: str) -> Function:
    return Function(lambda *a: 0, lo, hi, doc)  # the real callable is given at evaluation


FIGURE_FUNCTIONS = {
    "has": _spec(1, None, "has('Name', ...): how many of the named weapons/abilities/equipment the figure holds"),
}
UNIT_FUNCTIONS = {
    "has": _spec(1, None, "has('Name', ...): how many figures of the unit hold any of the named items"),
    "sum_of": _spec(1, 1, "sum_of('stat'): the stat added up over every figure of the unit"),
    "max_of": _spec(1, 1, "max_of('stat'): the highest value of the stat in the unit"),
    "min_of": _spec(1, 1, "min_of('stat'): the lowest value of the stat in the unit"),
}
ROSTER_FUNCTIONS = {
    "points": _spec(0, None, "points('type', ...): points of units of those types (all units if none)"),
    "units": _spec(0, None, "units('type', ...): number of units of those types"),
    "figures": _spec(0, None, "figures('type', ...): number of figures in units of those types"),
    "having": _spec(1, 1, "having('stat or item'): figures with the flag set or holding the item"),
    "units_having": _spec(1, 1, "units_having('stat or item'): units with any such figure"),
    "sum_of": _spec(1, 1, "sum_of('stat'): the stat added up over every figure of the roster"),
    "duplicates": _spec(1, 1, "duplicates('stat'): how many figures share a value of the stat with another"),
    "repeated": _spec(1, 1, "repeated('stat'): the values of the stat held by more than one figure, as text"),
    "pct": _spec(1, 1, "pct(share): a share shown as a percentage, e.g. 0.31 -> 31%"),
}
CARD_FUNCTIONS = {
    "when": _spec(2, 3, "when(condition, 'text', 'otherwise'): text shown only when the condition holds"),
    **{k: v for k, v in UNIT_FUNCTIONS.items()},
}
TYPE_ARG_FUNCTIONS = {"points", "units", "figures"}


@lru_cache(maxsize=8192)
def norm(name: str) -> str:
    """A name as compared: spaces collapsed, case folded ("Bow/Crossbow " -> "bow/crossbow")."""
    return " ".join(name.split()).casefold()


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
        close = get_close_matches(norm(name), list(self._map), n=3, cutoff=0.5)
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

    @cached_property
    def unit_limits(self) -> list[tuple[CompiledLimit, frozenset[str] | None]]:
        """The unit-scope limits, each with the ids of the types it applies to (None: every type)."""
        return [(lim, frozenset(self.find_type(t).id for t in lim.spec.applies_to)  # type: ignore[union-attr]
                 if lim.spec.applies_to else None)
                for lim in self.limits if lim.spec.scope == "unit"]

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
                     key: str) -> None:
    """Text arguments of points()/units()/figures() must name types."""
    for node in ast.walk(formula.tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in TYPE_ARG_FUNCTIONS:
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value not in types:
                    problems.add(f"unknown type '{arg.value}' in {node.func.id}()", file=file, key=key,
                                 source=source, column=arg.col_offset, hint=types.suggest(arg.value))


def compile_ruleset(rf: RulesetFile, path: Path | None = None,
                    find_line: Callable[[tuple], int | None] | None = None) -> Ruleset:
    """Check a ruleset's names and compile its formulas; ``find_line`` gives the line of a key
    in the file (for messages)."""
    file = str(path) if path else rf.id
    problems = ProblemList()

    def line_of(*loc) -> int | None:
        return find_line(loc) if find_line else None

    def comp(expr: str, names, funcs, *loc) -> Formula | None:
        key = _key(loc)
        try:
            return compile_formula(expr, names, funcs, file=file, key=key)
        except FormulaError as exc:
            problems.extend([_with_line(p, line_of(*loc)) for p in exc.problems])
            return None

    def templ(expr: str, names, funcs, *loc) -> Template | None:
        try:
            return compile_template(expr, names, funcs, file=file, key=_key(loc))
        except FormulaError as exc:
            problems.extend([_with_line(p, line_of(*loc)) for p in exc.problems])
            return None

    # --- stats -------------------------------------------------------------
    def stat_table(defs: list[StatDef], where: str) -> dict[str, StatDef]:
        out: dict[str, StatDef] = {}
        for i, s in enumerate(defs):
            if s.id in out:
                problems.add(f"stat id '{s.id}' is defined twice", file=file, key=f"{where}[{i}].id",
                             line=line_of(where, i))
            out[s.id] = s
            if s.default is not None:
                _, err = coerce(s, s.default)
                if err:
                    problems.add(f"default {err}", file=file, key=f"{where}[{i}].default", line=line_of(where, i))
        return out

    def check_values(values: Mapping[str, object], defs: Mapping[str, StatDef], key: str, line: int | None,
                     what: str = "stat") -> None:
        """Every value names a stat of ``defs`` and fits it."""
        for sid, raw in values.items():
            if sid not in defs:
                problems.add(f"unknown {what} '{sid}'", file=file, key=f"{key}.{sid}", line=line,
                             hint=_suggest(sid, defs))
            else:
                _, err = coerce(defs[sid], raw)
                if err:
                    problems.add(err, file=file, key=f"{key}.{sid}", line=line)

    stats = stat_table(rf.stats, "stats")
    item_stats = {
        "weapons": stat_table(rf.weapon_stats, "weapon_stats"),
        "abilities": stat_table(rf.ability_stats, "ability_stats"),
        "equipment": stat_table(rf.equipment_stats, "equipment_stats"),
    }
    roster_stats = stat_table(rf.roster_stats, "roster_stats")

    # --- types -------------------------------------------------------------
    types: dict[str, TypeDef] = {}
    for i, t in enumerate(rf.types):
        if t.id in types:
            problems.add(f"type id '{t.id}' is defined twice", file=file, key=f"types[{i}].id", line=line_of("types", i))
        types[t.id] = t
        check_values(t.set, stats, f"types[{i}].set", line_of("types", i))
        for sid in t.add:
            if sid not in stats:
                problems.add(f"unknown stat '{sid}'", file=file, key=f"types[{i}].add.{sid}",
                             line=line_of("types", i), hint=_suggest(sid, stats))
            elif not kind_of(stats[sid]).numeric:
                problems.add(f"only number stats can be added to; '{sid}' is a {stats[sid].kind}",
                             file=file, key=f"types[{i}].add.{sid}", line=line_of("types", i))
    type_index = NameIndex(([t.id, t.name, *t.aliases], t) for t in rf.types)
    all_params = {p for t in rf.types for p in t.params}
    for i, t in enumerate(rf.types):
        missing = sorted(all_params - set(t.params))
        if missing:
            problems.add(f"type '{t.id}' lacks parameter(s) {', '.join(missing)} that other types define",
                         file=file, key=f"types[{i}].params", line=line_of("types", i))
    clash = all_params & {n for s in rf.stats for n in formula_names(s)}
    if clash:
        problems.add(f"type parameter(s) {', '.join(sorted(clash))} have the same name as a stat", file=file,
                     key="types")

    # --- figure-level formulas ---------------------------------------------
    fig_names = figure_scope_names(rf)
    figure_derived: list[tuple[DerivedDef, Formula]] = []
    unit_derived: list[tuple[DerivedDef, Formula]] = []
    unit_names = {"type", "figures", "unit_points"}
    seen_derived: set[str] = set()
    for i, d in enumerate(rf.derived):
        if d.id in fig_names or d.id in seen_derived or d.id in unit_names:
            problems.add(f"derived id '{d.id}' is already a name", file=file, key=f"derived[{i}].id",
                         line=line_of("derived", i))
        seen_derived.add(d.id)
        if d.scope == "figure":
            f = comp(d.expr, fig_names, FIGURE_FUNCTIONS, "derived", i, "expr")
            if f:
                figure_derived.append((d, f))
            fig_names = fig_names | {d.id}
    for i, d in enumerate(rf.derived):
        if d.scope == "unit":
            f = comp(d.expr, unit_names, UNIT_FUNCTIONS, "derived", i, "expr")
            if f:
                unit_derived.append((d, f))
            unit_names = unit_names | {d.id}

    fc = rf.formulas.figure_cost
    cost_terms: list[tuple[str, Formula]] = []
    if isinstance(fc, str):
        f = comp(fc, fig_names, FIGURE_FUNCTIONS, "formulas", "figure_cost")
        if f:
            cost_terms.append(("Figure", f))
        total = comp("subtotal", {"subtotal"}, None, "formulas", "figure_cost")
    else:
        for i, term in enumerate(fc.terms):
            f = comp(term.expr, fig_names, FIGURE_FUNCTIONS, "formulas", "figure_cost", "terms", i, "expr")
            if f:
                cost_terms.append((term.label, f))
        total = comp(fc.total, fig_names | {"subtotal"}, FIGURE_FUNCTIONS, "formulas", "figure_cost", "total")

    # --- catalogues ----------------------------------------------------------
    item_formulas: dict[str, Formula | None] = {}
    for kind in ITEM_KINDS:
        expr = getattr(rf.formulas, f"{ITEM_SINGULAR[kind]}_cost")
        names = {n for s in item_stats[kind].values() for n in formula_names(s)}
        item_formulas[kind] = comp(expr, names, None, "formulas", f"{ITEM_SINGULAR[kind]}_cost") if expr else None

    own_names = fig_names | {"figure_cost", "weapons_cost"}
    own_formulas: dict[tuple[str, str], Formula] = {}
    items: dict[str, NameIndex] = {}
    for kind in ITEM_KINDS:
        entries: list[ItemDef] = getattr(rf, kind)
        seen: dict[str, int] = {}
        for i, item in enumerate(entries):
            for n in dict.fromkeys(norm(x) for x in [item.name, *item.aliases]):
                if n in seen:
                    problems.add(f"{ITEM_SINGULAR[kind]} name '{n}' is used twice", file=file,
                                 key=f"{kind}[{i}].name", line=line_of(kind, i))
                seen[n] = i
            check_values(item.stats, item_stats[kind], f"{kind}[{i}].stats", line_of(kind, i),
                         f"{ITEM_SINGULAR[kind]} stat")
            for sid, sdef in item_stats[kind].items():
                if sdef.required and sid not in item.stats:
                    problems.add(f"{ITEM_SINGULAR[kind]} '{item.name}' lacks {sdef.label} ('{sid}'), which every "
                                 f"{ITEM_SINGULAR[kind]} must have", file=file, key=f"{kind}[{i}].stats",
                                 line=line_of(kind, i))
            for tname in item.allowed_types:
                if tname not in type_index:
                    problems.add(f"unknown type '{tname}' in allowed_types", file=file,
                                 key=f"{kind}[{i}].allowed_types", line=line_of(kind, i),
                                 hint=type_index.suggest(tname))
            if item.cost_formula:
                f = comp(item.cost_formula, own_names, FIGURE_FUNCTIONS, kind, i, "cost_formula")
                if f:
                    own_formulas[(kind, norm(item.name))] = f
            elif item.cost is None and not item.unpriced and item_formulas[kind] is None:
                problems.add(f"'{item.name}' has no price: give cost, cost_formula or unpriced = true "
                             f"(the ruleset has no {ITEM_SINGULAR[kind]}_cost formula)", file=file,
                             key=f"{kind}[{i}]", line=line_of(kind, i))
        items[kind] = NameIndex(([it.name, *it.aliases], it) for it in entries)

    figure_index = NameIndex(([f.name, *f.aliases], f) for f in rf.figures)
    for i, fig in enumerate(rf.figures):
        if fig.type not in type_index:
            problems.add(f"unknown type '{fig.type}'", file=file, key=f"figures[{i}].type",
                         line=line_of("figures", i), hint=type_index.suggest(fig.type))
        check_values(fig.stats, stats, f"figures[{i}].stats", line_of("figures", i))
        for kind in ITEM_KINDS:
            for n in getattr(fig, kind):
                if n not in items[kind]:
                    problems.add(f"unknown {ITEM_SINGULAR[kind]} '{n}'", file=file, key=f"figures[{i}].{kind}",
                                 line=line_of("figures", i), hint=items[kind].suggest(n))

    # --- limits ------------------------------------------------------------
    roster_names = {"total", "limit", "unit_count"} | {n for s in rf.roster_stats for n in formula_names(s)}
    limits: list[CompiledLimit] = []
    ids: set[str] = set()
    for i, lim in enumerate(rf.limits):
        if lim.id in ids:
            problems.add(f"limit id '{lim.id}' is used twice", file=file, key=f"limits[{i}].id",
                         line=line_of("limits", i))
        ids.add(lim.id)
        for tname in lim.applies_to:
            if tname not in type_index:
                problems.add(f"unknown type '{tname}' in applies_to", file=file, key=f"limits[{i}].applies_to",
                             line=line_of("limits", i), hint=type_index.suggest(tname))
        if lim.scope == "roster":
            names, funcs = roster_names, ROSTER_FUNCTIONS
        else:
            names, funcs = unit_names | {n for d, _ in unit_derived for n in [d.id]}, {**UNIT_FUNCTIONS,
                                                                                       "pct": ROSTER_FUNCTIONS["pct"]}
        measure = comp(lim.measure, names, funcs, "limits", i, "measure") if lim.measure is not None else None
        if lim.check is not None:
            check = comp(lim.check, names, funcs, "limits", i, "check")
        else:
            parts = []
            if lim.at_most is not None:
                parts.append(f"value <= {lim.at_most!r}")
            if lim.at_least is not None:
                parts.append(f"value >= {lim.at_least!r}")
            check = comp(" and ".join(parts), {"value"}, None, "limits", i, "measure")
        msg = templ(lim.message, names | {"value", "bound"}, funcs, "limits", i, "message")
        for f, part in ((measure, "measure"), (check, "check")):
            if f is not None and lim.scope == "roster":
                _check_type_args(f, type_index, problems, getattr(lim, part) or "", file, f"limits[{i}].{part}")
        if check and msg and (measure or lim.measure is None):
            limits.append(CompiledLimit(lim, check, measure, msg))

    matchups: list[CompiledMatchup] = []
    mnames = {"mine", "theirs", "low", "high"}
    for i, m in enumerate(rf.matchup):
        check = comp(m.check, mnames, None, "matchup", i, "check")
        msg = templ(m.message, mnames, None, "matchup", i, "message")
        if check and msg:
            matchups.append(CompiledMatchup(m, check, msg))

    # --- card --------------------------------------------------------------
    card_names = unit_names | fig_names | {"count", "per_figure"} | {d.id for d, _ in unit_derived}
    card_columns = []
    for i, col in enumerate(rf.card.columns):
        t = templ(col.show, card_names, CARD_FUNCTIONS, "card", "columns", i, "show")
        if t:
            card_columns.append((col.label, t))
    card_rows = []
    for i, row in enumerate(rf.card.rows):
        if len(row.values) != len(rf.card.columns):
            problems.add(f"row has {len(row.values)} values but the card has {len(rf.card.columns)} columns",
                         file=file, key=f"card.rows[{i}].values")
        ts = [templ(v, card_names, CARD_FUNCTIONS, "card", "rows", i, "values") for v in row.values]
        card_rows.append((row.label, [t for t in ts if t]))
    weapon_names = {n for s in item_stats["weapons"].values() for n in formula_names(s)} | {"name", "cost"}
    weapon_columns = []
    for i, col in enumerate(rf.card.weapon_columns):
        t = templ(col.show, weapon_names, {"when": CARD_FUNCTIONS["when"]}, "card", "weapon_columns", i, "show")
        if t:
            weapon_columns.append((col.label, t))
    track = comp(rf.card.track, card_names, CARD_FUNCTIONS, "card", "track") if rf.card.track else None

    problems.raise_if_any()
    return Ruleset(
        data=rf, path=path, stats=stats, item_stats=item_stats, roster_stats=roster_stats, types=types,
        type_index=type_index, items=items, figure_index=figure_index, cost_terms=cost_terms,
        cost_total=total, item_formulas=item_formulas, own_formulas=own_formulas,
        figure_derived=figure_derived, unit_derived=unit_derived, limits=limits, matchups=matchups,
        card_columns=card_columns, card_rows=card_rows, weapon_columns=weapon_columns, card_track=track,
        param_names=frozenset(all_params),
    )


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
