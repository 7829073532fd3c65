"""Checking a ruleset's own published numbers against its formulas (``rosterkit check-ruleset``)."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import FormulaError
from ..rules.numbers import Number, exact
from ..rules.ruleset import ITEM_KINDS, ITEM_SINGULAR, Ruleset
from .costing import Costing, Pricer
from .roster import RosterFile, Unit


@dataclass(frozen=True)
class Discrepancy:
    what: str  # "weapon", "figure", "type", ...
    name: str
    published: Number
    computed: Number | None
    how: str  # where the other number comes from
    note: str  # the ruleset's own note on it ("" when the data does not acknowledge it)
    charged: str = "printed"  # which of the two a roster pays: "printed" or "formula"

    @property
    def acknowledged(self) -> bool:
        return bool(self.note)


def _figure_roster(rs: Ruleset, units: list[Unit]) -> RosterFile:
    return RosterFile(name="check", ruleset=rs.id, units=units)


def discrepancies(rs: Ruleset) -> tuple[list[Discrepancy], list[str]]:
    """Every published cost that disagrees with the formula or with another printing; and errors."""
    out: list[Discrepancy] = []
    errors: list[str] = []
    costing = Costing(rs)
    for kind in ITEM_KINDS:
        f = rs.item_formulas[kind]
        for item in getattr(rs.data, kind):
            if item.cost is not None and f is not None:
                try:
                    computed = Pricer(rs, _figure_roster(rs, [])).formula_price(kind, item.stats, item.name)
                except FormulaError as exc:
                    errors.append(exc.problems[0].render())
                    continue
                if computed != exact(item.cost):
                    out.append(Discrepancy(ITEM_SINGULAR[kind], item.name, exact(item.cost), computed,
                                           f"{ITEM_SINGULAR[kind]}_cost formula", item.note, item.pricing))
            for p in item.other_printings:
                out.append(Discrepancy(ITEM_SINGULAR[kind], item.name, exact(item.cost or 0), exact(p.cost),
                                       f"also printed in {p.where}", item.note))
    for fig in rs.data.figures:
        unit = Unit(name=fig.name, figure=fig.name, count=1)
        uc = costing.unit(_figure_roster(rs, [unit]), unit, 0)
        for finding in uc.findings:
            if finding.severity == "error" and finding.rule not in ("missing-stat",):
                errors.append(f"figure '{fig.name}': {finding.message}")
        per = uc.members[0].per_figure if uc.members else 0
        if fig.cost is not None and per != exact(fig.cost) and not any(
                f.rule == "missing-stat" for f in uc.findings):
            out.append(Discrepancy("figure", fig.name, exact(fig.cost), per, "figure cost formula", fig.note))
        for p in fig.other_printings:
            out.append(Discrepancy("figure", fig.name, exact(fig.cost) if fig.cost is not None else per,
                                   exact(p.cost), f"also printed in {p.where}", fig.note))
    for t in rs.data.types:
        if t.cost is None and not t.other_printings:
            continue
        per = costing.type_formula_cost(t)  # None: a default figure of the type cannot be costed
        if t.cost is not None and per is not None and per != exact(t.cost):
            out.append(Discrepancy("type", t.name, exact(t.cost), per, "figure cost formula on default stats",
                                   t.note, t.pricing))
        for p in t.other_printings:
            out.append(Discrepancy("type", t.name, exact(t.cost) if t.cost is not None else (per or 0), exact(p.cost),
                                   f"also printed in {p.where}", t.note))
    return out, errors
