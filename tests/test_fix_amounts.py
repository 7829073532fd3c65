"""A limit's message that says how much to change gives the amount that, done, makes the limit
pass, while one point less does not: with a points limit (the share is of a fixed size) and
without one (the share is of a total that moves with what is added or removed)."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from conftest import load
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rosterkit.engine.costing import cost_roster
from rosterkit.engine.roster import RosterFile
from rosterkit.engine.validation import check_matchup, validate

RS = load("fast_universal")
ARES = load("ares")

TYPES = ("basic", "ordnance", "elite", "hero", "vehicle")
DIVISOR = {"basic": 4, "ordnance": 4, "elite": 2, "hero": 2, "vehicle": 1}
# a miniature of 1d4, move 0, defense 1 costs 4 / divisor; a roster weapon makes up the rest
FIGURE = {"dice": 1, "die": 4, "move": 0, "fight": 0, "shoot": 0, "defense": 1}

# limit id -> (add or remove, the types it counts)
LIMITS = {
    "basic-ordnance-min": ("add", ("basic", "ordnance")),
    "elite-vehicle-max": ("remove", ("elite", "vehicle")),
    "hero-max": ("remove", ("hero",)),
}


def army(points: dict[str, int], limit: int | None) -> RosterFile:
    """One unit of one miniature per type with points, costing exactly those points."""
    units, weapons = [], []
    for t in TYPES:
        p = points.get(t, 0)
        if p > 0:
            units.append({"name": t, "type": t, "count": 1, "stats": FIGURE, "weapons": [f"kit {t}"]})
            weapons.append({"name": f"kit {t}", "cost": p - 4 // DIVISOR[t]})
    return RosterFile.model_validate({"name": "t", "ruleset": "fast_universal", "points_limit": limit,
                                      "units": units, "weapons": weapons})


def finding(points: dict[str, int], limit: int | None, rule: str):
    v = validate(RS, army(points, limit))
    assert v.report.total == sum(points.values())
    return next((f for f in v.findings if f.rule == rule), None)


def amount(message: str, verb: str) -> int:
    match = re.search(rf"{verb} (\d+) points", message)
    assert match, message
    return int(match.group(1))


def changed(points: dict[str, int], verb: str, types: tuple[str, ...], n: int) -> dict[str, int]:
    """The points after adding n to the first type, or removing n from the types in order."""
    out = dict(points)
    if verb == "add":
        out[types[0]] = out.get(types[0], 0) + n
        return out
    for t in types:
        cut = min(n, out.get(t, 0))
        out[t] = out.get(t, 0) - cut
        n -= cut
    assert n == 0
    return out


def check_amount(points: dict[str, int], limit: int | None, rule: str) -> None:
    broken = finding(points, limit, rule)
    if broken is None:
        return
    verb, types = LIMITS[rule]
    n = amount(broken.message, verb)
    assert n >= 1
    assert finding(changed(points, verb, types, n), limit, rule) is None, (points, limit, n)
    assert finding(changed(points, verb, types, n - 1), limit, rule) is not None, (points, limit, n)


points_strategy = st.fixed_dictionaries({t: st.integers(0, 600) for t in TYPES}).filter(
    lambda d: all(v == 0 or v >= 4 for v in d.values()) and sum(d.values()) > 0)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(points=points_strategy, rule=st.sampled_from(sorted(LIMITS)))
def test_amounts_are_right_without_a_points_limit(points, rule):
    check_amount(points, None, rule)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(points=points_strategy, limit=st.integers(100, 3000), rule=st.sampled_from(sorted(LIMITS)))
def test_amounts_are_right_with_a_points_limit(points, limit, rule):
    check_amount(points, limit, rule)


@pytest.mark.parametrize("points, limit, rule, said, right", [
    # no limit: 42 of 100 points of basic; half needs 16 more (8 would leave 50 of 108)
    ({"basic": 42, "hero": 20, "elite": 38}, None, "basic-ordnance-min", "add", 16),
    # with a limit of 200 the limit stays: 100 - 42
    ({"basic": 42, "hero": 20, "elite": 38}, 200, "basic-ordnance-min", "add", 58),
    # no limit: 100 of 200 points of elite; removing 50 would leave 50 of 150 (a third): the cap
    # is met by removing 200/3, so 67 whole points (66 leave 34 of 134, above a quarter)
    ({"basic": 100, "elite": 100}, None, "elite-vehicle-max", "remove", 67),
    ({"basic": 100, "elite": 100}, 200, "elite-vehicle-max", "remove", 50),
])
def test_worked_amounts(points, limit, rule, said, right):
    f = finding(points, limit, rule)
    assert amount(f.message, said) == right


def test_an_unreachable_share_is_reported_not_guessed():
    from rosterkit.engine.costing import cost_roster as cost
    from rosterkit.engine.functions import RosterFunctions

    funcs = RosterFunctions(cost(RS, army({"basic": 40, "hero": 10}, None)))
    assert funcs.points_to_add(Fraction(1, 2), "basic") == 0
    assert funcs.points_to_remove(Fraction(1, 4), "hero") == 0
    assert funcs.points_to_remove(0, "hero") == 10  # none at all: all of them
    with pytest.raises(ValueError):
        funcs.points_to_add(1, "hero")  # 100% of a total that grows with it: never


# ---------------------------------------------------------------- ARES match-up


def side(total: int) -> RosterFile:
    stats = {"rating": total, "wounds": 3, "move": 4, "morale": 2, "armor": "D6", "close": "D6", "magic": "D6"}
    return RosterFile.model_validate({"name": f"side {total}", "ruleset": "ares", "units": [
        {"name": "Band", "type": "Figure", "stats": stats, "weapons": ["Dagger (D4)"]}]})


def balanced(a: int, b: int) -> bool:
    return not check_matchup(ARES, cost_roster(ARES, side(a)), cost_roster(ARES, side(b)))


@settings(max_examples=80, deadline=None)
@given(a=st.integers(1, 2000), b=st.integers(1, 2000))
def test_matchup_amounts_are_right(a, b):
    findings = check_matchup(ARES, cost_roster(ARES, side(a)), cost_roster(ARES, side(b)))
    if not findings:
        return
    low, high = min(a, b), max(a, b)
    message = findings[0].message
    off = int(re.search(r"take at least (\d+) rating off", message).group(1))
    add = int(re.search(r"add at least (\d+) to the smaller", message).group(1))
    assert balanced(high - off, low) and not balanced(high - off + 1, low)
    assert balanced(high, low + add) and not balanced(high, low + add - 1)
