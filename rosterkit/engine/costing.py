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

from collections.abc import Callable
from dataclasses import dataclass, field
from difflib import get_close_matches
from fractions import Fraction

from ..errors import FormulaError
from ..findings import Finding
from ..rules.formula import Formula, Function
from ..rules.numbers import Number, exact, exact_sum, fmt
from ..rules.ruleset import ITEM_KINDS, ITEM_SINGULAR, Ruleset, norm
from ..rules.schema import FigureDef, ItemDef, TypeDef
from ..rules.stats import coerce, default_value, formula_values
from .roster import LocalItem, Member, RosterFile, SingleMember, Unit


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
    notes: list[str] = field(default_factory=list)  # printed costs that disagree, from the catalogue
    not_costed: str = "-"  # shown as the working when there is no total formula result

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


# ---------------------------------------------------------------- helpers


def _has_function(held: frozenset[str], rs: Ruleset) -> Callable[..., int]:
    """``has(name, ...)``: how many of the names the figure holds (aliases count as the item)."""
    known = rs.canonical_names

    def has(*names: str) -> int:
        n = 0
        for name in names:
            c = known.get(name)
            if (c if c is not None else canonical(rs, name)) in held:
                n += 1
        return n
    return has


def canonical(rs: Ruleset, name: str) -> str:
    """The normalized catalogue name of an item, resolving aliases (cached per ruleset)."""
    cache = rs.canonical_names
    hit = cache.get(name)
    if hit is not None:
        return hit
    result = norm(name)
    for kind in ITEM_KINDS:
        item = rs.items[kind].get(name)
        if item is not None:
            result = norm(item.name)  # type: ignore[union-attr]
            break
    if len(cache) < 10_000:
        cache[name] = result
    return result


class Pricer:
    """Resolves and prices items for one roster (roster-local items first)."""

    def __init__(self, rs: Ruleset, roster: RosterFile):
        self.rs = rs
        self.local: dict[str, dict[str, LocalItem]] = {
            kind: {norm(it.name): it for it in getattr(roster, kind)} for kind in ITEM_KINDS
        }
        self.house = {canonical(rs, k): exact(v) for k, v in roster.house_prices.items()}
        self._fixed: dict[tuple[str, str], ItemCost | None] = {}

    def lookup(self, kind: str, name: str) -> ItemDef | LocalItem | None:
        return self.local[kind].get(norm(name)) or self.rs.find_item(kind, name)

    def item_env(self, kind: str, stats: dict) -> tuple[dict[str, object], list[str]]:
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
        for sid in stats:
            if sid not in self.rs.item_stats[kind]:
                problems.append(f"unknown {ITEM_SINGULAR[kind]} stat '{sid}'")
        return env, problems

    def formula_price(self, kind: str, stats: dict, context: str) -> Number | None:
        f = self.rs.item_formulas.get(kind)
        if f is None:
            return None
        env, _ = self.item_env(kind, stats)
        return exact(f.evaluate(env, None, context))

    def price(self, kind: str, name: str, fig_env: dict, figure_cost: Number, weapons_cost: Number,
              context: str) -> tuple[ItemCost, list[str]]:
        """(cost, problems). Fixed prices are cached; own formulas depend on the figure."""
        key = (kind, norm(name))
        local = self.local[kind].get(norm(name))
        if local is not None:
            if local.cost is not None:
                return ItemCost(kind, local.name, exact(local.cost), "roster", "set in the roster",
                                local=True, stats=dict(local.stats)), []
            env, problems = self.item_env(kind, local.stats)
            f = self.rs.item_formulas.get(kind)
            if f is None:
                return ItemCost(kind, local.name, 0, "unpriced", "no cost given and the ruleset has no formula",
                                local=True, stats=dict(local.stats)), problems
            value = exact(f.evaluate(env, None, f"{local.name} ({context})"))
            return ItemCost(kind, local.name, value, "formula", f"{f.text} = {f.substituted(env)}",
                            local=True, stats=dict(local.stats)), problems
        item = self.rs.find_item(kind, name)
        if item is None:
            return ItemCost(kind, name, 0, "unknown"), []
        if item.cost_formula:
            f = self.rs.own_formulas[(kind, norm(item.name))]
            env = dict(fig_env)
            env["figure_cost"] = figure_cost
            env["weapons_cost"] = weapons_cost
            value = exact(f.evaluate(env, None, context))
            return ItemCost(kind, item.name, value, "own formula", f"{f.text} = {fmt(value)}",
                            stats=dict(item.stats)), []
        if key in self._fixed:
            return self._fixed[key], []  # type: ignore[return-value]
        if item.unpriced:
            house = self.house.get(norm(item.name))
            if house is not None:
                cost = ItemCost(kind, item.name, house, "house price",
                                "the source gives no price; this roster sets a house price",
                                stats=dict(item.stats))
            else:
                cost = ItemCost(kind, item.name, 0, "unpriced", "the source gives no price; counted as 0",
                                stats=dict(item.stats))
        elif item.cost is not None:
            formula_value = self.formula_price(kind, item.stats, item.name)
            published = exact(item.cost)
            note = ""
            if formula_value is not None and formula_value != published:
                note = f"printed {fmt(published)}; the formula gives {fmt(formula_value)}"
            cost = ItemCost(kind, item.name, published, "published", note, formula_value, stats=dict(item.stats))
        else:
            f = self.rs.item_formulas[kind]
            env, _ = self.item_env(kind, item.stats)
            value = exact(f.evaluate(env, None, item.name))  # type: ignore[union-attr]
            cost = ItemCost(kind, item.name, value, "formula", f"{f.text} = {f.substituted(env)}",  # type: ignore
                            stats=dict(item.stats))
        self._fixed[key] = cost
        return cost, []


# ---------------------------------------------------------------- costing


class _NoType(Exception):
    """A figure of unknown type cannot be costed (its type gives the formula's parameters)."""


def resolve_type(rs: Ruleset, unit: Unit, figure: FigureDef | None) -> TypeDef | None:
    if unit.type:
        return rs.find_type(unit.type)
    if figure is not None:
        return rs.find_type(figure.type)
    return None


_MEMO_LIMIT = 100_000
_SCALARS = frozenset((int, float, str, bool))


def _coerce(rs: Ruleset, sdef, raw: object) -> tuple[object, str | None]:
    """coerce(), remembered per ruleset for scalar values."""
    if type(raw) not in _SCALARS:
        return coerce(sdef, raw)
    key = (sdef.id, type(raw), raw)
    hit = rs.stat_memo.get(key)
    if hit is None:
        hit = coerce(sdef, raw)
        if len(rs.stat_memo) < _MEMO_LIMIT:
            rs.stat_memo[key] = hit
    return hit


def _formula_values(rs: Ruleset, sdef, value: object) -> dict[str, object]:
    """formula_values(), remembered per ruleset (the dict returned is shared: read it, never change it)."""
    try:
        key = (sdef.id, type(value), value)
        hit = rs.names_memo.get(key)
    except TypeError:  # a value that cannot be a key
        return formula_values(sdef, value)
    if hit is None:
        hit = formula_values(sdef, value)
        if len(rs.names_memo) < _MEMO_LIMIT:
            rs.names_memo[key] = hit
    return hit


def effective_stats(rs: Ruleset, tdef: TypeDef | None, figure: FigureDef | None, member: Member | SingleMember,
                    add: Callable[..., None]) -> dict[str, object]:
    """Stat values: ruleset defaults, then the catalogue figure, then the roster, then the type."""
    values: dict[str, object] = {}
    given = member.stats
    for sid, sdef in rs.stats.items():
        raw = given.get(sid)
        if raw is None and figure is not None:
            raw = figure.stats.get(sid)
        if raw is None:
            values[sid] = default_value(sdef)
            if sdef.required and values[sid] is None:
                note = f" ({sdef.entry_note})" if sdef.entry_note else ""
                add("error", "missing-stat", f"{sdef.label} must be entered{note}", f"stats.{sid}")
            continue
        value, err = _coerce(rs, sdef, raw)
        if err:
            add("error", "stat-range" if value is not None else "stat-type", f"{sdef.label}: {err}",
                f"stats.{sid}")
            if value is None:
                value = default_value(sdef)
        values[sid] = value
    for sid in member.stats:
        if sid not in rs.stats:
            close = get_close_matches(sid, list(rs.stats), n=1, cutoff=0.6)
            hint = f"known stats: {', '.join(rs.stats)}"
            add("error", "unknown-stat", f"unknown stat '{sid}'", f"stats.{sid}",
                hint=(f"did you mean '{close[0]}'? " if close else "") + hint)
    if tdef is not None:
        for sid, raw in tdef.set.items():
            values[sid], _ = coerce(rs.stats[sid], raw)
        for sid, amount in tdef.add.items():
            if values.get(sid) is not None:
                values[sid] = values[sid] + exact(amount)  # type: ignore[operator]
    return values


_DIRECT_KINDS = frozenset(("int", "number", "die", "text", "choice"))  # formulas see these values as they are


def cost_unit(rs: Ruleset, roster: RosterFile, unit: Unit, index: int, pricer: Pricer | None = None) -> UnitCost:
    pricer = pricer or Pricer(rs, roster)
    findings: list[Finding] = []

    def add(severity: str, rule: str, message: str, fieldname: str | None = None, member: int | None = None,
            hint: str | None = None) -> None:
        findings.append(Finding(severity, rule, message, index, unit.name, fieldname, member, hint))

    unit_figure = None
    if unit.figure:
        unit_figure = rs.find_figure(unit.figure)
        if unit_figure is None:
            add("error", "unknown-figure", f"unknown figure '{unit.figure}' (not in the catalogue)", "figure",
                hint=rs.figure_index.suggest(unit.figure))
    members = unit.member_list()
    if unit.members:
        first_fig = next((rs.find_figure(m.figure) for m in members if m.figure), None)
    else:
        first_fig = unit_figure
    tdef = resolve_type(rs, unit, first_fig)
    if tdef is None:
        if unit.type:
            add("error", "unknown-type", f"unknown type '{unit.type}'", "type", hint=rs.type_index.suggest(unit.type)
                or "types: " + ", ".join(t.name for t in rs.data.types))
        else:
            add("error", "unknown-type", "the unit has no type", "type",
                hint="types: " + ", ".join(t.name for t in rs.data.types))
    params = dict(tdef.params) if tdef else {p: 0 for p in rs.param_names}
    params = {k: exact(v) for k, v in params.items()}

    member_costs: list[MemberCost] = []
    for mi, member in enumerate(members):
        madd = (lambda sev, rule, msg, fld=None, hint=None, _mi=mi:
                add(sev, rule, msg, _prefix(unit, _mi, fld), _mi if unit.members else None, hint))
        figure = unit_figure if not unit.members else None
        if unit.members and member.figure:
            figure = rs.find_figure(member.figure)
            if figure is None:
                madd("error", "unknown-figure", f"unknown figure '{member.figure}' (not in the catalogue)", "figure",
                     rs.figure_index.suggest(member.figure))
        count = member.count
        if not unit.members and unit.count is None and figure is not None:
            count = figure.count
        mtype = tdef
        if unit.members and figure is not None and not unit.type:
            mtype = rs.find_type(figure.type) or tdef
        values = effective_stats(rs, mtype, figure, member, madd)
        env: dict[str, object] = {"type": mtype.id if mtype else ""}
        for sid, sdef in rs.stats.items():
            value = values[sid]
            if value is not None and sdef.kind in _DIRECT_KINDS:
                env[sid] = value
            else:
                env.update(_formula_values(rs, sdef, value))
        env.update(params if mtype is tdef else {k: exact(v) for k, v in mtype.params.items()})  # type: ignore

        # items held
        held_names: dict[str, list[str]] = {}
        for kind in ITEM_KINDS:
            listed = getattr(member, kind)
            if not listed and figure is not None and not _explicit(member, kind):
                listed = getattr(figure, kind)
            held_names[kind] = list(listed)
        held = frozenset(canonical(rs, n) for kind in ITEM_KINDS for n in held_names[kind])
        # one scope for all of the figure's formulas: its names, then each derived value as made
        scope = dict(env)
        scope["has"] = _has_function(held, rs)
        ctx = f"unit '{unit.name}'"
        derived: dict[str, object] = {}
        total_formula: Formula | None = None
        not_costed = "-"
        try:
            if mtype is None:
                raise _NoType
            for d, f in rs.figure_derived:
                value = f.evaluate(scope, None, ctx)
                derived[d.id] = value
                env[d.id] = value
                scope[d.id] = value
            terms = []
            subtotal: Number = 0
            for label, f in rs.cost_terms:
                value = f.evaluate(scope, None, ctx)
                if type(value) is not int:
                    value = exact(value)
                terms.append(Term(label, value, f, env))
                subtotal += value
            tenv = dict(env, subtotal=subtotal)
            scope["subtotal"] = subtotal
            figure_cost = rs.cost_total.evaluate(scope, None, ctx)
            if type(figure_cost) is not int:
                figure_cost = exact(figure_cost)
            total_formula = rs.cost_total
        except FormulaError as exc:
            madd("error", "formula", exc.problems[0].message)
            terms, subtotal, figure_cost, tenv = [], 0, 0, env
        except _NoType:
            terms, subtotal, figure_cost, tenv = [], 0, 0, env
            not_costed = "not costed: the type is unknown"

        items: list[ItemCost] = []
        weapons_cost: Number = 0
        for kind in ITEM_KINDS:
            for name in held_names[kind]:
                try:
                    cost, problems = pricer.price(kind, name, env, figure_cost, weapons_cost, ctx)
                except FormulaError as exc:
                    madd("error", "formula", exc.problems[0].message, kind)
                    cost, problems = ItemCost(kind, name, 0, "error"), []
                for p in problems:
                    madd("error", "item-stat", f"{ITEM_SINGULAR[kind]} '{name}': {p}", kind)
                if cost.source == "unknown":
                    other = [k for k in ITEM_KINDS if k != kind and pricer.lookup(k, name) is not None]
                    hint = rs.items[kind].suggest(name)
                    if other:
                        hint = f"'{name}' is listed under {other[0]}; move it there"
                    madd("error", f"unknown-{ITEM_SINGULAR[kind]}",
                         f"unknown {ITEM_SINGULAR[kind]} '{name}'", kind, hint)
                elif cost.source == "unpriced":
                    madd("warning", "unpriced", f"{ITEM_SINGULAR[kind]} '{cost.name}' is unpriced in "
                         f"{rs.data.source.title}; counted as 0", kind,
                         f"set a house price: house_prices = {{ \"{cost.name}\" = N }}")
                if kind == "weapons":
                    weapons_cost += cost.cost
                items.append(cost)
                _check_allowed(rs, pricer, kind, name, mtype, madd)
        per_figure = figure_cost + sum((i.cost for i in items), 0)
        total = per_figure * count
        notes = _figure_notes(figure, per_figure) if figure is not None else []
        if mtype is not None and (mtype.cost is not None or mtype.other_printings) and mtype.note:
            notes.append(f"{mtype.name}: {mtype.note}")
        member_costs.append(MemberCost(
            index=mi, name=member.name or (figure.name if figure else ""), count=count, stats=values, env=env,
            derived=derived, terms=terms, subtotal=subtotal, figure_cost=figure_cost, total_formula=total_formula,
            total_env=tenv, items=items, per_figure=per_figure, total=total, held=held, notes=notes,
            not_costed=not_costed))

    figures = sum(m.count for m in member_costs)
    unit_total = sum((m.total for m in member_costs), 0)
    if figures < 1:
        add("error", "unit-size", f"the unit has no {rs.data.count_label}", "count")
    uenv: dict[str, object] = {"type": tdef.id if tdef else "", "figures": figures, "unit_points": unit_total}
    ufuncs = unit_functions(rs, member_costs) if rs.unit_derived else {}
    uderived: dict[str, object] = {}
    for d, f in rs.unit_derived:
        try:
            value = f.evaluate(uenv, ufuncs, f"unit '{unit.name}'")
        except FormulaError as exc:
            add("error", "formula", exc.problems[0].message)
            value = 0
        uderived[d.id] = value
        uenv[d.id] = value
    return UnitCost(index, unit.name, tdef.id if tdef else None, tdef.name if tdef else (unit.type or "?"),
                    figures, member_costs, unit_total, uderived, uenv, findings)


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


def _explicit(member: Member | SingleMember, kind: str) -> bool:
    return kind in member.model_fields_set


def _prefix(unit: Unit, mi: int, fld: str | None) -> str | None:
    if not unit.members:
        return fld
    return f"members[{mi}]" + (f".{fld}" if fld else "")


def _check_allowed(rs: Ruleset, pricer: Pricer, kind: str, name: str, tdef: TypeDef | None, add) -> None:
    item = pricer.lookup(kind, name)
    if item is None or not item.allowed_types or tdef is None:
        return
    allowed = [rs.find_type(t) for t in item.allowed_types]
    if tdef not in allowed:
        names = ", ".join(t.name for t in allowed if t)
        add("error", "not-allowed", f"{ITEM_SINGULAR[kind]} '{item.name}' is for {names} only, "
            f"not {tdef.name}", kind)


def unit_functions(rs: Ruleset, members: list[MemberCost]) -> dict[str, Function]:
    """The unit scope's formula functions (rules/functions.py), bound to these figures."""
    from .functions import UnitFunctions  # it uses canonical(), from here

    return UnitFunctions(rs, members).table()


def cost_roster(rs: Ruleset, roster: RosterFile) -> CostReport:
    pricer = Pricer(rs, roster)
    units = [cost_unit(rs, roster, u, i, pricer) for i, u in enumerate(roster.units)]
    return assemble(rs, roster, units)


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
    for m in unit.members:
        if len(unit.members) > 1 or m.name:
            lines.append((f"{m.name or 'figure'} x{m.count}", ""))
        for t in m.terms:
            shown = fmt(t.value)
            lines.append((f"  {t.label}", shown if t.detail == shown else f"{t.detail} = {shown}"))
        if len(m.terms) > 1 or rs.cost_total.text != "subtotal":
            shown = fmt(m.figure_cost)
            lines.append(("  Figure cost", shown if m.total_detail == shown else f"{m.total_detail} = {shown}"))
        for it in m.items:
            extra = f" ({it.source}" + (f"; {it.note}" if it.note else "") + ")"
            lines.append((f"  + {ITEM_SINGULAR[it.kind]}: {it.name}", fmt(it.cost) + extra))
        lines.append((f"  Per {singular(label)}", fmt(m.per_figure)))
        for note in m.notes:
            lines.append(("  Note", note))
        lines.append((f"  x {m.count} {label if m.count != 1 else singular(label)}", fmt(m.total)))
    lines.append(("Unit total", fmt(unit.total)))
    return lines


def singular(label: str) -> str:
    return label[:-1] if label.endswith("s") else label
