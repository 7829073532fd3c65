"""The designer's report (``rosterkit check-ruleset FILE --report``): what a person designing or
balancing a points system wants to see of a ruleset.

Published prices against the formulas (:func:`rosterkit.engine.checks.discrepancies`),
options another option dominates (as good in every stat, holding at least what it holds, and
costing no more), what one step of each stat costs on each type, and the cheapest and
dearest figure each type allows within its stats' ranges. Every price comes from costing a
figure as a roster would, so the report reads the ruleset as players are charged.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..errors import FormulaError
from ..rules.numbers import Number, exact, fmt, to_json
from ..rules.ruleset import ITEM_KINDS, ITEM_SINGULAR, Ruleset
from ..rules.schema import StatDef, TypeDef
from ..rules.stats import display as show_stat
from .checks import Discrepancy, discrepancies
from .costing import Costing, Pricer
from .roster import RosterFile, Unit

MAX_CANDIDATES = 25  # values tried for one stat when searching a type's cheapest and dearest figure


@dataclass(frozen=True)
class Dominated:
    what: str  # "figure", "weapon", "ability", "equipment"
    name: str
    cost: Number
    by: str
    by_cost: Number


@dataclass(frozen=True)
class StatStep:
    type_name: str
    stat: str  # its label
    change: str  # "2 -> 3", "D6 -> D8", "no -> yes"
    cost: Number  # what the step adds to a figure's points (negative: it takes off)


@dataclass(frozen=True)
class TypeRange:
    type_name: str
    cheapest: Number | None  # None: unbounded (a stat that costs has no bound that way) or not costed
    cheapest_stats: dict = field(default_factory=dict)
    dearest: Number | None = None
    dearest_stats: dict = field(default_factory=dict)
    unbounded: tuple[str, ...] = ()  # the labels of the costing stats without a min or max


@dataclass(frozen=True)
class DesignerReport:
    discrepancies: list[Discrepancy]
    errors: list[str]
    dominated: list[Dominated]
    steps: list[StatStep]
    ranges: list[TypeRange]


class _Prices:
    """Prices of made-up figures: one default figure of a type with some stats changed."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.costing = Costing(rs)
        self.roster = RosterFile(name="report", ruleset=rs.id, units=[])

    def figure(self, tdef: TypeDef, stats: dict, **held) -> Number | None:
        unit = Unit(name="report", type=tdef.id, count=1, stats=stats, **held)
        try:
            uc = self.costing.unit(self.roster, unit, 0)
        except FormulaError:
            return None
        if not uc.members or uc.members[0].total_formula is None or any(
                f.severity == "error" and f.rule in ("formula", "missing-stat", "stat-range", "stat-type")
                for f in uc.findings):
            return None
        return uc.members[0].per_figure


def _candidates(sdef: StatDef) -> list[object] | None:
    """The values a stat may take, in order (None: too many or not a stat to search)."""
    if sdef.kind == "flag":
        return [False, True]
    if sdef.kind == "die":
        return list(sdef.dice)
    if sdef.kind == "choice":
        return list(sdef.options)
    if sdef.kind in ("int", "number") and sdef.min is not None and sdef.max is not None:
        low, high = exact(sdef.min), exact(sdef.max)
        if (sdef.kind == "int" or (low == int(low) and high == int(high))) and high - low + 1 <= MAX_CANDIDATES:
            return list(range(int(low), int(high) + 1))
        return [low, high]
    return None


def _base(rs: Ruleset) -> dict[str, object]:
    """Entered values that make a default figure costable: a required stat at its least value."""
    out: dict[str, object] = {}
    for sid, sdef in rs.stats.items():
        if sdef.required:
            values = _candidates(sdef)
            if values:
                out[sid] = values[0]
            elif sdef.kind == "pool":
                out[sid] = f"{max(1, int(sdef.min or 1))}d{sdef.dice[0]}"
            elif sdef.min is not None:
                out[sid] = sdef.min
    return out


def _value_of(rs: Ruleset, tdef: TypeDef, base: dict, sid: str) -> object:
    sdef = rs.stats[sid]
    if sid in base:
        return base[sid]
    return sdef.default


def _step(sdef: StatDef, value: object) -> object | None:
    """The next value up from ``value`` within the stat's range (None: there is none)."""
    if sdef.kind == "flag":
        return True if not value else None
    if sdef.kind == "die":
        bigger = [d for d in sdef.dice if value is None or d > value]
        return min(bigger) if bigger else None
    if sdef.kind in ("int", "number") and isinstance(value, (int, float)) and not isinstance(value, bool):
        up = exact(value) + 1
        return up if sdef.max is None or up <= exact(sdef.max) else None
    return None


def _fixed_by_type(tdef: TypeDef) -> set[str]:
    return set(tdef.set)


def stat_steps(rs: Ruleset, prices: _Prices) -> list[StatStep]:
    out: list[StatStep] = []
    base = _base(rs)
    for tdef in rs.data.types:
        before = prices.figure(tdef, base)
        if before is None:
            continue
        for sid, sdef in rs.stats.items():
            if sid in _fixed_by_type(tdef):
                continue
            value = _value_of(rs, tdef, base, sid)
            up = _step(sdef, value)
            if up is None:
                continue
            after = prices.figure(tdef, dict(base, **{sid: up}))
            if after is None:
                continue
            out.append(StatStep(tdef.name, sdef.label, f"{show_stat(sdef, value)} -> {show_stat(sdef, up)}",
                                after - before))
    return out


def type_ranges(rs: Ruleset, prices: _Prices, steps: list[StatStep]) -> list[TypeRange]:
    """For each type, the cheapest and dearest figure within its stats' ranges: each stat in turn
    set to the value that makes the figure cheapest (dearest), twice over, from the defaults."""
    out = []
    base = _base(rs)
    costing_stats = {(s.type_name, s.stat) for s in steps if s.cost != 0}
    for tdef in rs.data.types:
        if prices.figure(tdef, base) is None:
            out.append(TypeRange(tdef.name, None))
            continue
        searched = {sid: _candidates(sdef) for sid, sdef in rs.stats.items() if sid not in _fixed_by_type(tdef)}
        unbounded = tuple(rs.stats[sid].label for sid, values in searched.items()
                          if values is None and (tdef.name, rs.stats[sid].label) in costing_stats)
        start = dict(base)
        for sid in searched:
            value = _value_of(rs, tdef, base, sid)
            if value is not None:
                start[sid] = value
        ends = []
        for dearest in (False, True):
            stats = dict(start)
            best = prices.figure(tdef, stats)
            for _ in range(2):
                for sid, values in searched.items():
                    for v in values or ():
                        cost = prices.figure(tdef, dict(stats, **{sid: v}))
                        if cost is not None and best is not None and (cost > best if dearest else cost < best):
                            best, stats = cost, dict(stats, **{sid: v})
            ends.append((None if unbounded else best, stats))
        (low, low_stats), (high, high_stats) = ends
        out.append(TypeRange(tdef.name, low, low_stats, high, high_stats, unbounded))
    return out


def _item_direction(rs: Ruleset, pricer: Pricer, kind: str) -> dict[str, int]:
    """+1 where more of an item stat costs more (more is better), -1 where it costs less, 0 where
    the formula does not tell (such stats must be equal for one item to dominate another)."""
    out: dict[str, int] = {}
    items = [it for it in getattr(rs.data, kind)]
    for sid, sdef in rs.item_stats[kind].items():
        out[sid] = 0
        if sdef.kind not in ("int", "number", "die", "flag"):
            continue
        for it in items:
            value = it.stats.get(sid, sdef.default)
            up = _step(sdef, value if value is not None else 0)
            if up is None:
                continue
            try:
                before = pricer.formula_price(kind, it.stats, it.name)
                after = pricer.formula_price(kind, dict(it.stats, **{sid: up}), it.name)
            except FormulaError:
                break
            if before is None or after is None:
                break
            if after != before:
                out[sid] = 1 if after > before else -1
                break
    return out


def _at_least_as_good(a: dict, b: dict, directions: dict[str, int], defaults: dict) -> bool:
    """Whether stats ``b`` are at least as good as ``a`` in every stat."""
    for sid, way in directions.items():
        va, vb = a.get(sid, defaults.get(sid)), b.get(sid, defaults.get(sid))
        if va == vb:
            continue
        if way == 0 or va is None or vb is None or isinstance(va, str) or isinstance(vb, str):
            return False
        if (vb - va) * way < 0:
            return False
    return True


def _item_order(rs: Ruleset) -> tuple[list[Dominated], dict[tuple[str, str], set[str]]]:
    """The items another dominates, and for each item (kind, name) the names of the items at
    least as good in every stat and no dearer (itself among them)."""
    pricer = Pricer(rs, RosterFile(name="report", ruleset=rs.id, units=[]))
    out = []
    as_good: dict[tuple[str, str], set[str]] = {}
    for kind in ITEM_KINDS:
        if not rs.item_stats[kind]:
            continue  # items without stats differ by their rules text alone: none can be compared
        directions = _item_direction(rs, pricer, kind)
        defaults = {sid: sdef.default for sid, sdef in rs.item_stats[kind].items()}
        priced = []
        for it in getattr(rs.data, kind):
            if it.cost_formula or it.unpriced or it.levels is not None or not it.stats:
                continue  # its price depends on the figure, there is none, or its stats say nothing of it
            cost, problems = pricer.price(kind, it.name, {}, 0, 0, it.name)
            if not problems and cost.source != "unknown":
                priced.append((it, cost.cost))
        for a, cost_a in priced:
            found = None
            as_good[(kind, a.name)] = {a.name}
            for b, cost_b in priced:
                if a is b or cost_b > cost_a or (b.allowed_types and set(b.allowed_types) - set(a.allowed_types)):
                    continue
                if not _at_least_as_good(a.stats, b.stats, directions, defaults):
                    continue
                as_good[(kind, a.name)].add(b.name)
                if cost_b == cost_a and _at_least_as_good(b.stats, a.stats, directions, defaults):
                    continue  # the same option twice (equal stats, equal price): neither dominates
                found = found or Dominated(ITEM_SINGULAR[kind], a.name, cost_a, b.name, cost_b)
            if found:
                out.append(found)
    return out, as_good


def _covers(held_a: list[tuple[str, str]], held_b: list[tuple[str, str]],
            as_good: dict[tuple[str, str], set[str]]) -> bool:
    """Whether figure b holds, for each item figure a holds, that item or one at least as good."""
    left = list(held_b)
    for kind, name in held_a:
        better = as_good.get((kind, name), {name})
        match = next((i for i, (k, n) in enumerate(left) if k == kind and n in better), None)
        if match is None:
            return False
        left.pop(match)
    return True


def dominated_figures(rs: Ruleset, prices: _Prices, steps: list[StatStep],
                      as_good: dict[tuple[str, str], set[str]]) -> list[Dominated]:
    costing = prices.costing
    out = []
    by_type: dict[str, list] = {}
    for fig in rs.data.figures:
        unit = Unit(name=fig.name, figure=fig.name, count=1)
        uc = costing.unit(prices.roster, unit, 0)
        if not uc.members or uc.members[0].total_formula is None or uc.type_id is None:
            continue
        m = uc.members[0]
        by_type.setdefault(uc.type_id, []).append((fig, m))
    for tid, figures in by_type.items():
        tname = rs.types[tid].name
        directions = {}
        for sid, sdef in rs.stats.items():
            step = next((s for s in steps if s.type_name == tname and s.stat == sdef.label), None)
            directions[sid] = 0 if step is None or step.cost == 0 else (1 if step.cost > 0 else -1)
        for fa, ma in figures:
            held_a = [(it.kind, it.name) for it in ma.items]
            for fb, mb in figures:
                if fa is fb or mb.per_figure > ma.per_figure:
                    continue
                held_b = [(it.kind, it.name) for it in mb.items]
                if not _covers(held_a, held_b, as_good):
                    continue  # a holds something b has nothing as good as
                if not _at_least_as_good(ma.stats, mb.stats, directions, {}):
                    continue
                if mb.per_figure == ma.per_figure and Counter(held_a) == Counter(held_b) and \
                        _at_least_as_good(mb.stats, ma.stats, directions, {}):
                    continue
                out.append(Dominated("figure", fa.name, ma.per_figure, fb.name, mb.per_figure))
                break
    return out


def designer_report(rs: Ruleset) -> DesignerReport:
    found, errors = discrepancies(rs)
    prices = _Prices(rs)
    steps = stat_steps(rs, prices)
    items, as_good = _item_order(rs)
    dominated = dominated_figures(rs, prices, steps, as_good) + items
    return DesignerReport(found, errors, dominated, steps, type_ranges(rs, prices, steps))


def _stats_text(rs: Ruleset, stats: dict) -> str:
    return ", ".join(f"{rs.stats[sid].label} {show_stat(rs.stats[sid], v)}" for sid, v in stats.items()) or \
        "the defaults"


def report_text(rs: Ruleset, report: DesignerReport) -> str:
    """The report as plain text, section by section."""
    points = rs.data.points_label
    lines = [f"Designer's report: {rs.name} ({rs.id})", ""]
    lines.append("Published prices against the formulas")
    if report.discrepancies:
        for d in report.discrepancies:
            other = fmt(d.computed) if d.computed is not None else "-"
            lines.append(f"  {d.what} {d.name}: printed {fmt(d.published)}, {d.how} {other}; charged {d.charged}"
                         + (f" ({d.note})" if d.note else ""))
    else:
        lines.append("  every published price agrees with the formulas")
    lines += ["", "Dominated options (another is as good in every stat, holds at least as much, costs no more)"]
    if report.dominated:
        for d in report.dominated:
            lines.append(f"  {d.what} {d.name} ({fmt(d.cost)}) by {d.by} ({fmt(d.by_cost)})")
    else:
        lines.append("  none")
    lines += ["", f"What one step of each stat costs ({points} per figure)"]
    for s in report.steps:
        lines.append(f"  {s.type_name}: {s.stat} {s.change}: {'+' if s.cost > 0 else ''}{fmt(s.cost)}")
    if not report.steps:
        lines.append("  no stat could be stepped on a default figure")
    lines += ["", "Cheapest and dearest figure of each type, within its stats' ranges"]
    for r in report.ranges:
        if r.unbounded:
            lines.append(f"  {r.type_name}: no bound: {', '.join(r.unbounded)} cost(s) {points} and have no "
                         f"min or max")
        elif r.cheapest is None:
            lines.append(f"  {r.type_name}: a default figure cannot be costed")
        else:
            lines.append(f"  {r.type_name}: {fmt(r.cheapest)} ({_stats_text(rs, r.cheapest_stats)}) to "
                         f"{fmt(r.dearest)} ({_stats_text(rs, r.dearest_stats)})")
    return "\n".join(lines) + "\n"


def report_json(rs: Ruleset, report: DesignerReport) -> dict:
    def stats(values: dict) -> dict:
        return {sid: to_json(v) if not isinstance(v, (str, bool)) else v for sid, v in values.items()}

    return {
        "dominated": [{"what": d.what, "name": d.name, "cost": to_json(d.cost), "by": d.by,
                       "by_cost": to_json(d.by_cost)} for d in report.dominated],
        "stat_steps": [{"type": s.type_name, "stat": s.stat, "change": s.change, "cost": to_json(s.cost)}
                       for s in report.steps],
        "type_ranges": [{"type": r.type_name, "cheapest": to_json(r.cheapest), "cheapest_stats": stats(r.cheapest_stats),
                         "dearest": to_json(r.dearest), "dearest_stats": stats(r.dearest_stats),
                         "unbounded": list(r.unbounded)} for r in report.ranges],
    }
