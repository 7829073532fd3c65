"""The work a roster asks of its ruleset, bounded before any of it is done.

Each part of a ruleset is worked out for each part of a roster: the figure formulas and
figure limits for each kind of figure, the unit formulas and unit limits for each unit (over
its figures), the army-wide limits over every figure. A file of each size is bounded on its
own (8 MB, 20,000 units, 60,000 tables, 10,000 formulas), but the products are not: 10,000
unit limits over 5,000 units is fifty million checks. :func:`check_work` adds the products up
(in steps of about a microsecond) where every front-end opens a roster (:mod:`rosterkit.workspace`),
before it is costed, and refuses a roster that asks for more than :data:`MAX_WORK`, naming the
largest product. A roster of 20,000 units of a built-in ruleset asks for at most two thirds of
it; a list of 20 units, a thousandth.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from heapq import nsmallest
from typing import TYPE_CHECKING

from ..errors import Problem, RosterkitError
from ..rules.ruleset import ITEM_KINDS, norm

if TYPE_CHECKING:
    from ..rules.ruleset import Ruleset
    from .costing import FigureShelf
    from .roster import RosterFile

# steps for one roster: a formula evaluated, a stat worked out, a figure looked over, each about a
# microsecond; a roster of 20,000 units of a built-in ruleset takes at most 6,600,000
MAX_WORK = 10_000_000
# a limit checked counts as this many steps: broken, it makes a finding, its message and its line
LIMIT_WEIGHT = 25
# a value kept for each kind of figure (a stat, a derived value, a cost term) counts as this many:
# it is kept in several tables (about 100 bytes in all), so memory stays under a gigabyte
VALUE_WEIGHT = 2
UNKNOWN_SHOWN = 10  # unknown keys of one stats table reported one by one; the rest are counted
# an unknown stat or name reported counts as this many steps: its finding, a "did you mean", its line
UNKNOWN_WEIGHT = 80
# a name misspelt (once however often it is repeated) counts as this many more: its "did you mean" is
# looked for among the catalogue's names nearest in length, up to 5 ms against hundreds alike
SUGGEST_WEIGHT = 8_000
KNOWN_SHOWN = 40  # names listed in a hint ("known stats: ...")
SUGGEST_FROM = 200  # names compared for a "did you mean"


class TooMuchWork(RosterkitError):
    """The roster asks more work of its ruleset than rosterkit does for one roster."""


def work_parts(rs: Ruleset, roster: RosterFile, figures: FigureShelf | None = None,
               described: bool = True) -> list[tuple[int, str]]:
    """(work, what it is) for each product of ruleset size and roster size (``described=False``:
    the work alone, with empty descriptions, as a list is checked on opening)."""
    per_figure = len(rs.stats) + len(rs.param_names) + len(rs.figure_derived) + len(rs.cost_terms) + 1
    passes = rs.passes  # passes over figures (or items) the functions of each scope's formulas make
    card = passes["card formulas"]
    figure_limits = len(rs.figure_limits)
    unit_values, unit_limits = len(rs.unit_derived), len(rs.unit_limits)
    army_limits = len(rs.limits) - figure_limits - unit_limits
    per_item = 1 + passes["weapon formulas"]
    stat_ids = rs.stats.keys()
    find_figure = figures.find if figures is not None else rs.find_figure
    # the roster's own items by name (they come before the catalogue's)
    local = {kind: {norm(it.name): it for it in getattr(roster, kind)} for kind in ITEM_KINDS}
    # kinds of figure; items they hold; (kind of figure, figure of its unit) pairs; unknown stats and
    # names reported; the names misspelt, each once
    kinds = items = pairs = unknown = 0
    misspelt: set[tuple[str, str]] = set()
    # each kind of item: name -> how many kinds of figure list it
    held_weapons: dict[str, int] = {}
    held_abilities: dict[str, int] = {}
    held_equipment: dict[str, int] = {}
    types_seen: set[str] = set()
    for unit in roster.units:
        members = unit.members or (unit,)
        kinds += len(members)
        pairs += len(members) * len(members)
        if unit.type and unit.type not in types_seen and rs.find_type(unit.type) is None:
            misspelt.add(("types", unit.type))
            unknown += 1
        elif unit.type:
            types_seen.add(unit.type)
        for m in members:
            held = 0
            for names, counts in ((m.weapons, held_weapons), (m.abilities, held_abilities),
                                  (m.equipment, held_equipment)):
                if names:
                    held += len(names)
                    for name in names:
                        counts[name] = counts.get(name, 0) + 1
            if m.figure:
                fig = find_figure(m.figure)
                if fig is None:
                    misspelt.add(("figures", m.figure))
                    unknown += 1
                elif not held:
                    held = len(fig.weapons) + len(fig.abilities) + len(fig.equipment)
            items += held
            if m.stats and not stat_ids >= m.stats.keys():
                unknown += min(UNKNOWN_SHOWN + 1, len(m.stats.keys() - stat_ids))
    allowed = 0  # the types the items held are for (allowed_types), looked up once for the roster
    held_names = [(kind, name, times) for kind, counts in zip(ITEM_KINDS, (held_weapons, held_abilities,
                                                                          held_equipment))
                  for name, times in counts.items()]
    for kind, name, times in held_names:  # each name looked up once
        item = local[kind].get(norm(name)) if local[kind] else None
        if item is not None:  # its unknown stats are reported to each figure holding it
            unknown += times * min(UNKNOWN_SHOWN + 1, len(item.stats.keys() - rs.item_stats[kind].keys()))
        else:
            item = rs.items[kind].get(name)
        if item is None:
            misspelt.add((kind, name))
            unknown += times
        else:
            allowed += len(item.allowed_types)  # type: ignore[attr-defined]  (once: the roster remembers)
    units = len(roster.units)
    work = [VALUE_WEIGHT * per_figure * kinds, card * kinds + passes["card"] * pairs,
            figure_limits * LIMIT_WEIGHT * kinds + (passes["figure"] + passes["figure formulas"]) * items,
            per_item * items + allowed,
            (unit_values + LIMIT_WEIGHT * unit_limits) * units + passes["unit"] * kinds,
            army_limits + passes["army"] * kinds, UNKNOWN_WEIGHT * unknown + SUGGEST_WEIGHT * len(misspelt)]
    if not described:
        return [(w, "") for w in work]
    return list(zip(work, [
        f"{per_figure:,} stats, parameters and figure formulas x {kinds:,} kinds of figure",
        f"{card:,} card formulas x {kinds:,} kinds of figure (over the figures of their unit)",
        f"{figure_limits:,} figure limits x {kinds:,} kinds of figure (and the {items:,} items they and the figure formulas go over)",
        f"{per_item:,} weapon columns x {items:,} items held"
        + (f", {allowed:,} allowed types checked" if allowed else ""),
        f"{_listed((unit_values, 'unit values'), (unit_limits, 'unit limits'))} x {units:,} units",
        f"{army_limits:,} army-wide limits x {kinds:,} kinds of figure",
        f"{unknown:,} unknown stats and names to report in {units:,} units"
        + (f" ({len(misspelt):,} names misspelt)" if misspelt else ""),
    ]))


def _listed(*counts: tuple[int, str]) -> str:
    """ "3 unit values and 400 unit limits", leaving out what there is none of."""
    return " and ".join(f"{n:,} {what}" for n, what in counts if n) or f"0 {counts[-1][1]}"


def check_work(rs: Ruleset, roster: RosterFile, figures: FigureShelf | None = None) -> None:
    """Refuse a roster asking more than :data:`MAX_WORK` of its ruleset, naming the largest product."""
    total = sum(work for work, _ in work_parts(rs, roster, figures, described=False))
    if total > MAX_WORK:
        parts = work_parts(rs, roster, figures)
        work, what = max(parts)
        hint = ("correct the names and stats the ruleset does not know (a part of the roster at a time "
                "lists them)") if (work, what) == parts[-1] else \
            (f"ruleset {rs.id} is too large for a roster of this size: split the roster, or use fewer "
             "limits or formulas in the ruleset")
        raise TooMuchWork(Problem(
            f"too much work for one roster: {what} ({total:,} steps in all; rosterkit does at most {MAX_WORK:,})",
            hint=hint))


def unknown_keys(keys: Iterable[str], known: Collection[str]) -> tuple[list[str], int]:
    """The first :data:`UNKNOWN_SHOWN` keys not in ``known``, and how many more there are: a table of
    200,000 unknown stats gets ten findings and a count, not 200,000 findings."""
    shown: list[str] = []
    more = 0
    for key in keys:
        if key not in known:
            if len(shown) < UNKNOWN_SHOWN:
                shown.append(key)
            else:
                more += 1
    return shown, more


def suggestable(name: str, known: Collection[str]) -> list[str]:
    """The names a "did you mean" compares ``name`` with: those nearest in length when there are
    many, so the comparison costs the same in a ruleset of 10 stats as of 10,000."""
    if len(known) <= SUGGEST_FROM:
        return list(known)
    return nsmallest(SUGGEST_FROM, known, key=lambda n: abs(len(n) - len(name)))


def known_names(lead: str, known: Collection[str]) -> str:
    """A hint listing the known names ("known stats: a, b, c"), or how many there are when too many to list."""
    if len(known) <= KNOWN_SHOWN:
        return f"{lead}: {', '.join(known)}"
    return f"{lead}: {len(known):,} (see the ruleset)"
