"""Synthetic rosters for any ruleset: varied stats, weapons and abilities, within the ruleset's bounds."""

from __future__ import annotations

import random

from rosterkit.engine.roster import RosterFile, Unit
from rosterkit.rules.ruleset import Ruleset


def _value(stat, rng: random.Random):
    kind = stat.kind
    lo = int(stat.min) if stat.min is not None else 0
    hi = int(stat.max) if stat.max is not None else lo + 10
    hi = min(hi, lo + 12)
    if kind in ("int", "number"):
        return rng.randint(lo, max(lo, hi))
    if kind == "die":
        return rng.choice(stat.dice)
    if kind == "pool":
        return f"{rng.randint(max(1, lo), max(1, min(hi, 4)))}d{rng.choice(stat.dice)}"
    if kind == "flag":
        return rng.random() < 0.3
    if kind == "text":
        return rng.choice(["", "Fire bolt", "Heal"])
    if kind == "choice":
        return rng.choice(stat.options)
    if kind == "choices":
        return rng.sample(stat.options, k=min(1, len(stat.options)))
    raise AssertionError(kind)


def synthetic_roster(rs: Ruleset, units: int, seed: int = 1) -> RosterFile:
    rng = random.Random(seed)
    types = rs.data.types
    out = []
    for i in range(units):
        t = rng.choice(types)
        stats = {s.id: _value(s, rng) for s in rs.data.stats if not s.optional or rng.random() < 0.5}
        picks = {}
        for kind in ("weapons", "abilities", "equipment"):
            allowed = [it.name for it in getattr(rs.data, kind)
                       if not it.allowed_types or any(rs.find_type(a) is t for a in it.allowed_types)]
            if allowed:
                picks[kind] = rng.sample(allowed, k=min(len(allowed), rng.randint(0, 2)))
        out.append(Unit(name=f"Unit {i + 1}", type=t.id, count=rng.randint(1, 12), stats=stats, **picks))
    return RosterFile(name=f"Synthetic {units}", ruleset=rs.id, points_limit=100 * units, units=out)
