"""What the formula functions of rosterkit.rules.functions do, over one unit or one roster.

Each class implements one scope of the table: a method per function, named as the
table names it; :meth:`table` binds them through the table, ready for
``Formula.evaluate``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from fractions import Fraction
from math import ceil
from typing import TYPE_CHECKING

from ..rules.formula import Function, joined, need_number
from ..rules.functions import (
    CARD,
    FIGURE,
    FIGURE_LIMIT,
    ROSTER,
    UNIT,
    UNIT_LIMIT,
    WEAPON,
    bind,
)
from ..rules.numbers import Number, exact_sum, fmt, fmt_pct
from ..rules.ruleset import ITEM_KINDS
from ..rules.stats import coerce, formula_values

if TYPE_CHECKING:
    from ..rules.ruleset import Ruleset
    from .costing import CostReport, MemberCost


def when(cond: object, text: object, otherwise: object = "") -> object:
    return text if cond else otherwise


def pct(share: Number) -> str:
    return fmt_pct(need_number(share, "pct()"), 1)  # never text: Fraction('1e99999999') would not end


class _Bound:
    scope: str

    def table(self) -> dict[str, Function]:
        """The scope's functions, bound to this unit or roster."""
        return bind(self.scope, self)


class UnitFunctions(_Bound):
    """The unit scope (unit derived values): over the figures of one unit."""

    scope = UNIT

    def __init__(self, rs: Ruleset, members: list[MemberCost]):
        self._rs = rs
        self._members = members

    def _values(self, stat: str) -> Iterator[tuple[MemberCost, object]]:
        for m in self._members:
            if m.count > 0:
                if stat in m.env:
                    yield m, m.env[stat]
                else:
                    raise ValueError(f"unknown stat '{stat}'")

    def has(self, *names: str) -> int:
        wanted = {self._rs.canonical(n) for n in names}
        return sum(m.count for m in self._members if m.held & wanted)

    def sum_of(self, stat: str):
        # a number per figure: text is refused before it could be repeated by the count
        return sum((need_number(v, "sum_of()") * m.count for m, v in self._values(stat)), 0)

    def max_of(self, stat: str):
        vals = [v for _, v in self._values(stat)]
        return max(vals) if vals else 0  # type: ignore[type-var]

    def min_of(self, stat: str):
        vals = [v for _, v in self._values(stat)]
        return min(vals) if vals else 0  # type: ignore[type-var]

    def _item_values(self, kind: str, formula: str) -> Iterator[tuple[Number, int]]:
        for m in self._members:
            if m.count > 0:
                for value in _Items(self._rs, m.items).values(kind, formula):
                    yield need_number(value, "sum_items()"), m.count

    def sum_items(self, kind: str, formula: str) -> Number:
        return exact_sum(v * n for v, n in self._item_values(kind, formula))

    def max_items(self, kind: str, formula: str) -> Number:
        return max((v for v, _ in self._item_values(kind, formula)), default=0)

    def min_items(self, kind: str, formula: str) -> Number:
        return min((v for v, _ in self._item_values(kind, formula)), default=0)


class UnitLimitFunctions(UnitFunctions):
    """The scope of limits checked on each unit: the unit's functions, differing() and pct()."""

    scope = UNIT_LIMIT
    pct = staticmethod(pct)

    def _value(self, m: MemberCost, name: str) -> object:
        if name in ITEM_KINDS:
            return frozenset(self._rs.canonical(it.name) for it in m.items if it.kind == name)
        if name == "type":
            return m.env.get("type")
        value = m.stats[name] if name in m.stats else m.derived.get(name)
        return tuple(value) if isinstance(value, list) else value

    def _label(self, name: str) -> str:
        if name in self._rs.stats:
            return self._rs.stats[name].label
        for d, _ in self._rs.figure_derived:
            if d.id == name:
                return d.label
        return name

    def differing(self, *names: str) -> str:
        members = [m for m in self._members if m.count > 0]
        if len(members) < 2:  # one kind of figure cannot differ from itself
            return ""
        out = []
        for name in names:
            if len({self._value(m, name) for m in members}) > 1:
                out.append(self._label(name))
        return joined(out)


def item_env(rs: Ruleset, kind: str, stats: dict, level: int | None = None) -> dict[str, object]:
    """The names a formula over one item sees: each of the kind's stats (its default when not
    given), its level, and the kind's named values."""
    env: dict[str, object] = {}
    for sid, sdef in rs.item_stats[kind].items():
        raw = stats.get(sid, sdef.default)
        value = coerce(sdef, raw)[0] if raw is not None else None
        env.update(formula_values(sdef, value))
    return item_values(rs, kind, env, level)


def item_values(rs: Ruleset, kind: str, env: dict[str, object], level: int | None = None,
                context: str | None = None) -> dict[str, object]:
    """``env`` with the item's level (1 for an item without levels, unless a stat is named so)
    and the kind's named values, each worked out over the names before it."""
    if level is not None:
        env["level"] = level
    else:
        env.setdefault("level", 1)
    for vid, f in rs.item_values.get(kind, ()):
        env[vid] = f.evaluate(env, None, context)
    return env


class _Items:
    """What a figure holds, for the functions over its items: each copy of each item with its
    stats, a formula over one item's stats worked out once per item priced (see ItemCost.conditions)."""

    def __init__(self, rs: Ruleset, items: list):
        self._rs = rs
        self._items = items  # ItemCost, or (kind, name, stats, level) before the figure is priced

    def _entries(self, kind: str) -> Iterator[tuple[str, dict, int | None, dict | None]]:
        for it in self._items:
            if isinstance(it, tuple):
                if it[0] == kind:
                    yield it[1], it[2], it[3], None
            elif it.kind == kind and it.source != "unknown":
                yield it.name, it.stats, it.level, it.conditions

    def values(self, kind: str, formula: str) -> Iterator[object]:
        """The formula's value for each item of the kind held ('' gives True for each)."""
        if kind not in ITEM_KINDS:
            raise ValueError(f"unknown kind of item '{kind}'")
        f = None
        if formula:
            f = self._rs.item_conditions.get((kind, formula))
            if f is None:
                raise ValueError(f"the formula '{formula}' was not compiled with the ruleset")
        for name, stats, level, remembered in self._entries(kind):
            if f is None:
                yield True
                continue
            value = remembered.get(formula) if remembered is not None else None
            if value is None:
                value = f.evaluate(item_env(self._rs, kind, stats, level), None, name)
                if remembered is not None:
                    remembered[formula] = value
            yield value

    def names(self, kind: str, condition: str) -> Iterator[str]:
        for (name, _, _, _), meets in zip(self._entries(kind), self.values(kind, condition)):
            if meets:
                yield name


class _FigureItemFunctions(_Bound):
    """The functions over one figure's items: has(), items(), sum_items() and the like."""

    def __init__(self, rs: Ruleset, items: list, counts: Mapping[str, int]):
        self._rs = rs
        self._held = _Items(rs, items)
        self._counts = counts

    def has(self, *names: str) -> int:
        return sum(self._counts.get(self._rs.canonical(name), 0) for name in names)

    def items(self, kind: str, condition: str = "") -> int:
        return sum(1 for meets in self._held.values(kind, condition) if meets)

    def item_names(self, kind: str, condition: str = "") -> str:
        return joined(self._held.names(kind, condition))

    def sum_items(self, kind: str, formula: str) -> Number:
        return exact_sum(need_number(v, "sum_items()") for v in self._held.values(kind, formula))

    def max_items(self, kind: str, formula: str) -> Number:
        return max((need_number(v, "max_items()") for v in self._held.values(kind, formula)), default=0)

    def min_items(self, kind: str, formula: str) -> Number:
        return min((need_number(v, "min_items()") for v in self._held.values(kind, formula)), default=0)


class FigureFunctions(_FigureItemFunctions):
    """The figure scope (figure derived values, the figure cost, items' own formulas): over what
    one figure holds, before it is priced (``items``: (kind, name, stats, level) for each copy)."""

    scope = FIGURE


class FigureLimitFunctions(_FigureItemFunctions):
    """The scope of limits checked on each kind of figure: what the figure holds."""

    scope = FIGURE_LIMIT
    pct = staticmethod(pct)

    def __init__(self, rs: Ruleset, member: MemberCost):
        super().__init__(rs, member.items, member.held_counts)


class CardFunctions(UnitFunctions):
    """The scope of card columns, rows and tracks: the unit's functions and when()."""

    scope = CARD
    when = staticmethod(when)


class WeaponFunctions(_Bound):
    """The scope of a card's weapon columns."""

    scope = WEAPON
    when = staticmethod(when)


class RosterFunctions(_Bound):
    """The roster scope (army-wide limits): over every unit of a costed roster."""

    scope = ROSTER

    def __init__(self, report: CostReport):
        self._report = report
        self._rs = report.ruleset
        self._unit_counts: Counter = Counter(u.type_id for u in report.units)
        self._figure_counts: Counter = Counter()
        for u in report.units:
            self._figure_counts[u.type_id] += u.figures

    def _type_ids(self, names: tuple[str, ...]) -> set[str] | None:
        if not names:
            return None
        out = set()
        for n in names:
            t = self._rs.find_type(n)
            if t is None:
                raise ValueError(f"unknown type '{n}'")
            out.add(t.id)
        return out

    def points(self, *names: str) -> Number:
        ids = self._type_ids(names)
        report = self._report
        return report.total if ids is None else exact_sum(report.by_type.get(t, 0) for t in ids)

    def _share_args(self, share: object, names: tuple[str, ...]) -> tuple[Fraction, Number]:
        if isinstance(share, (str, bool)) or not isinstance(share, (int, Fraction)):
            raise ValueError("the share is a number, such as 0.25 for a quarter")
        if not names:
            raise ValueError("name the types whose points are counted")
        return Fraction(share), self.points(*names)

    def points_to_add(self, share: Number, *names: str) -> int:
        s, p = self._share_args(share, names)
        report = self._report
        if report.limit:  # a share of the agreed size: it stays where it is
            need = s * report.limit - p
        elif s >= 1:  # a share of the total, which grows with what is added: only all of it is 100%
            if p < report.total:
                raise ValueError(f"no number of points makes {', '.join(names)} {fmt_pct(s, 1)} of the total")
            need = Fraction(0)
        else:  # (p + x) / (total + x) >= s
            need = (s * report.total - p) / (1 - s)
        return max(0, ceil(need))

    def points_to_remove(self, share: Number, *names: str) -> int:
        s, p = self._share_args(share, names)
        report = self._report
        if report.limit:
            need = p - s * report.limit
        elif s >= 1:
            need = Fraction(0)
        else:  # (p - y) / (total - y) <= s
            need = (p - s * report.total) / (1 - s)
        return max(0, ceil(min(need, p)))

    def units(self, *names: str) -> int:
        ids = self._type_ids(names)
        return len(self._report.units) if ids is None else sum(self._unit_counts[t] for t in ids)

    def figures(self, *names: str) -> int:
        ids = self._type_ids(names)
        counts = self._figure_counts
        return sum(counts.values()) if ids is None else sum(counts[t] for t in ids)

    def _member_has(self, m: MemberCost, name: str) -> bool:
        if name in m.env:
            return bool(m.env[name])
        return self._rs.canonical(name) in m.held

    def _meeting(self, condition: str) -> Iterator[tuple[int, MemberCost]]:
        """(unit index, figure) for each kind of figure of the roster that meets the condition."""
        f = self._rs.figure_conditions.get(condition)
        if f is None:
            raise ValueError(f"the condition '{condition}' was not compiled with the ruleset")
        for ui, u in enumerate(self._report.units):
            for m in u.members:
                if m.count <= 0:
                    continue
                env = dict(m.env, count=m.count, figure_cost=m.figure_cost, per_figure=m.per_figure)
                if f.evaluate(env, FigureLimitFunctions(self._rs, m).table(), f"unit '{u.name}'"):
                    yield ui, m

    def points_where(self, condition: str) -> Number:
        return exact_sum(m.total for _, m in self._meeting(condition))

    def figures_where(self, condition: str) -> int:
        return sum(m.count for _, m in self._meeting(condition))

    def units_where(self, condition: str) -> int:
        return len({ui for ui, _ in self._meeting(condition)})

    def having(self, name: str) -> int:
        return sum(m.count for u in self._report.units for m in u.members if self._member_has(m, name))

    def units_having(self, name: str) -> int:
        return sum(1 for u in self._report.units
                   if any(m.count and self._member_has(m, name) for m in u.members))

    def sum_of(self, stat: str) -> Number:
        return sum((UnitFunctions(self._rs, u.members).sum_of(stat) for u in self._report.units), 0)

    def sum_items(self, kind: str, formula: str) -> Number:
        return exact_sum(UnitFunctions(self._rs, u.members).sum_items(kind, formula) for u in self._report.units)

    def max_items(self, kind: str, formula: str) -> Number:
        return max((v for u in self._report.units
                    for v, _ in UnitFunctions(self._rs, u.members)._item_values(kind, formula)), default=0)

    def min_items(self, kind: str, formula: str) -> Number:
        return min((v for u in self._report.units
                    for v, _ in UnitFunctions(self._rs, u.members)._item_values(kind, formula)), default=0)

    def _value_counts(self, stat: str) -> Counter:
        counts: Counter = Counter()
        for u in self._report.units:
            for m in u.members:
                if m.count and stat in m.stats and m.stats[stat] is not None:
                    counts[m.stats[stat]] += m.count
                elif m.count and stat not in m.env:
                    raise ValueError(f"unknown stat '{stat}'")
        return counts

    def duplicates(self, stat: str) -> int:
        return sum(c for c in self._value_counts(stat).values() if c > 1)

    def repeated(self, stat: str) -> str:
        shown = [fmt(v) if not isinstance(v, str) else v for v, c in self._value_counts(stat).items() if c > 1]
        return joined(sorted(shown, key=lambda t: (len(t), t)))

    pct = staticmethod(pct)


IMPLEMENTATIONS: tuple[type[_Bound], ...] = (
    FigureFunctions, UnitFunctions, UnitLimitFunctions, FigureLimitFunctions, CardFunctions, WeaponFunctions, RosterFunctions)
