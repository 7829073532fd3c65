"""What the ruleset's trackers (``[[card.trackers]]``) come to for an army: the numbers both the
printed cards and a game at the table are made from, so that the two always agree."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from ..errors import RosterkitError
from ..rules.ruleset import norm
from ..rules.stats import coerce
from .costing import CostReport, MemberCost, UnitCost
from .display import card_env

MAX_BOXES = 300  # boxes of one tracker printed one by one; more are kept as a tally


def whole(value) -> int:
    """A tracker's count as a whole number of boxes (a fraction rounds up; anything else is none)."""
    if isinstance(value, bool) or not isinstance(value, (int, Fraction, float)):
        return 0
    return min(math.ceil(value), MAX_BOXES + 1)


def holds(value) -> bool:
    """A tracker's condition: true, or a flag or number other than 0."""
    if isinstance(value, bool):
        return value
    return isinstance(value, (int, Fraction, float)) and value != 0


def die_sides(step: str) -> int:
    """The sides of a die step ("d8", "1d8": 8); a step that names no die counts as the largest."""
    m = re.search(r"d(\d+)", step)
    return int(m.group(1)) if m else 10**6


def carrying(f: dict, unit: UnitCost, members: list[MemberCost], funcs, ctx: str) -> list[MemberCost]:
    """The kinds of figure of a unit a tracker is for (its ``when`` holds for them)."""
    return [m for m in members if f["when"] is None or holds(f["when"].evaluate(card_env(unit, m), funcs, ctx))]


def die_steps(steps: list[str], f: dict, unit: UnitCost, member: MemberCost, funcs, ctx: str) -> tuple[str, ...]:
    """A die track's steps from the figure's own die down ("d8", "d6", "d4" for a d8)."""
    size = whole(f["start"].evaluate(card_env(unit, member), funcs, ctx))
    return tuple(s for s in steps if die_sides(s) <= size)


@dataclass(frozen=True)
class ArmyTracker:
    """One of the army's own trackers (God chips, God events) as this roster has it."""

    name: str
    kind: str  # boxes, check, counter
    boxes: int = 1
    items: tuple[str, ...] = ()  # check: the items chosen in the roster
    item_notes: tuple[str, ...] = ()
    note: str = ""


def army_trackers(report: CostReport) -> tuple[ArmyTracker, ...]:
    """The ruleset's trackers for the army (God chips, events), from the roster's own stats."""
    rs, roster = report.ruleset, report.roster
    env = {}
    for sid, sdef in rs.roster_stats.items():
        raw = roster.stats.get(sid, sdef.default)
        env[sid] = coerce(sdef, raw)[0] if raw is not None else 0
    out: list[ArmyTracker] = []
    for tr, f in rs.card_trackers:
        if tr.on != "army":
            continue
        try:
            if f["when"] is not None and not holds(f["when"].evaluate(env, None, "the army")):
                continue
            if tr.kind == "check":
                items = list(tr.items)
                if tr.only is not None:
                    chosen = env.get(tr.only)
                    chosen = {norm(str(c)) for c in chosen} if isinstance(chosen, (list, tuple, set, frozenset)) \
                        else set()
                    items = [i for i in items if norm(i.label) in chosen]
                    if not items:
                        continue
                out.append(ArmyTracker(tr.name, "check", max(1, len(items)), tuple(i.label for i in items),
                                       tuple(i.note for i in items), tr.note))
            elif tr.kind == "counter":
                out.append(ArmyTracker(tr.name, "counter", note=tr.note))
            else:
                n = whole(f["count"].evaluate(env, None, "the army")) if f["count"] else 1
                if n > 0:
                    out.append(ArmyTracker(tr.name, "boxes", n, note=tr.note))
        except RosterkitError:
            continue  # the summary page reports the roster's stats
    return tuple(out)
