"""What the ruleset's trackers (``[[card.trackers]]``) come to for an army: the numbers both the
printed cards and a game at the table are made from, so that the two always agree."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction

from ..errors import RosterkitError
from ..rules.ruleset import norm
from ..rules.schema import TrackerDef
from ..rules.stats import coerce
from .costing import CostReport, MemberCost, UnitCost
from .display import card_env

MAX_BOXES = 300  # boxes of one tracker a card prints one by one, and one row holds in play; more are a tally
MAX_ROWS = 1000  # rows (figures or elements) of one tracker marked one by one in play; more are a tally
MAX_TALLY = 1_000_000  # the largest tally kept (a game file holds a cell up to this)


def whole(value, most: int = MAX_BOXES + 1) -> int:
    """A tracker's count as a whole number of boxes, at most ``most`` (a fraction rounds up;
    anything else is none)."""
    if isinstance(value, bool) or not isinstance(value, (int, Fraction, float)):
        return 0
    return min(math.ceil(value), most)


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
    """A die track's steps from the figure's own die down ("d8", "d6", "d4" for a d8; "3d8", "3d6",
    "3d4" for a figure of three dice where the tracker counts them, ``dice``)."""
    env = card_env(unit, member)
    size = whole(f["start"].evaluate(env, funcs, ctx))
    count = f"{whole(f['dice'].evaluate(env, funcs, ctx))}" if f.get("dice") is not None else ""
    return tuple(count + s for s in steps if die_sides(s) <= size)


@dataclass(frozen=True)
class TrackerBoxes:
    """A boxes tracker for the figures of one kind: ``rows`` rows of ``per_row`` boxes. The rows
    are the tracker's own where it declares ``rows`` (elements), else one a figure where its count
    is so many per figure, else one; a tally is one row holding the number to keep count of."""

    tracker: TrackerDef | None  # None: the card's track ([card] track)
    member: MemberCost
    rows: int
    per_row: int
    tally: bool
    declared: bool  # the rows are the tracker's ``rows`` (labelled ``row_label`` and a number)
    halved: bool = False  # the tracker's ``half`` holds for these figures


    @property
    def boxes(self) -> int:
        return self.rows * self.per_row

    @property
    def half(self) -> int:
        """The boxes that take the figures to half strength (0: the tracker marks none): half or
        fewer left, so 2 of 3 (the rules' "half or less of its starting miniatures")."""
        return (self.boxes + 1) // 2 if self.halved else 0


def tracker_boxes(unit: UnitCost, members: list[MemberCost], tracker: TrackerDef | None, f: dict, funcs,
                  ctx: str, printed: bool) -> Iterator[TrackerBoxes]:
    """The rows and boxes of a boxes tracker (``f``: its formulas) for each kind of figure of
    ``members`` that has figures and carries it, as printed on a card (``printed``) or marked in play.
    A formula's error (RosterkitError) ends the tracker."""
    def count(m: MemberCost):
        return f["count"].evaluate(card_env(unit, m), funcs, ctx) if f["count"] is not None else 1

    def halved(m: MemberCost) -> bool:
        if tracker is None or tracker.half is False:
            return False
        if f.get("half") is None:
            return tracker.half is True
        return holds(f["half"].evaluate(card_env(unit, m), funcs, ctx))

    for m in carrying(f, unit, [m for m in members if m.count > 0], funcs, ctx):
        per_row = whole(count(m), MAX_TALLY)
        rows, declared = 1, f["rows"] is not None
        if declared:
            rows = whole(f["rows"].evaluate(card_env(unit, m), funcs, ctx), MAX_TALLY)
        elif m.count > 1 and 0 < per_row:  # a row a figure, when the count is so many per figure
            one = count(replace(m, count=1))
            if isinstance(one, (int, Fraction)) and not isinstance(one, bool) and one >= 1 and one == int(one) \
                    and per_row == int(one) * m.count:
                rows, per_row = m.count, int(one)
        if rows <= 0 or per_row <= 0:
            continue
        # a card has room for so many boxes; play keeps the rows longer, as its formulas count the rows lost
        tally = rows * per_row > MAX_BOXES if printed else rows > MAX_ROWS or per_row > MAX_BOXES
        if tally:
            rows, per_row = 1, min(rows * per_row, MAX_TALLY)
        yield TrackerBoxes(tracker, m, rows, per_row, tally, declared and not tally, halved(m))


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
