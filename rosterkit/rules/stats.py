"""Stat values: checking a raw value against its definition, and showing it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import get_close_matches

from .numbers import Number, exact, fmt
from .schema import StatDef

_POOL = re.compile(r"^\s*(\d{0,3})\s*[dD]\s*(\d{1,3})\s*$")  # "2d6"; "d8" is one die
_DIE = re.compile(r"^\s*[dD]\s*(\d{1,3})\s*$")

KIND_WORDS = {
    "int": "a whole number",
    "number": "a number",
    "die": "a die type",
    "pool": "a dice pool such as 2d6",
    "flag": "true or false",
    "text": "text",
    "choice": "one of the options",
    "choices": "a list of options",
}


@dataclass(frozen=True)
class Pool:
    count: int
    sides: int

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"


def expected(stat: StatDef) -> str:
    if stat.kind == "die":
        return "a die type " + ", ".join(f"{stat.die_letter}{d}" for d in stat.dice)
    if stat.kind in ("choice", "choices"):
        return ("one of " if stat.kind == "choice" else "a list from ") + ", ".join(repr(o) for o in stat.options)
    text = KIND_WORDS[stat.kind]
    if stat.min is not None and stat.max is not None:
        text += f" from {fmt(exact(stat.min))} to {fmt(exact(stat.max))}"
    elif stat.min is not None:
        text += f" of at least {fmt(exact(stat.min))}"
    elif stat.max is not None:
        text += f" of at most {fmt(exact(stat.max))}"
    return text


def _bounded(stat: StatDef, value: Number, shown: str) -> tuple[object, str | None]:
    if (stat.min is not None and value < exact(stat.min)) or (stat.max is not None and value > exact(stat.max)):
        return value, f"{shown} is out of range: expected {expected(stat)}"
    return value, None


def coerce(stat: StatDef, raw: object) -> tuple[object, str | None]:
    """Return (value, problem). The value is usable even when a problem is reported."""
    kind = stat.kind
    if kind == "int":
        if isinstance(raw, bool) or not isinstance(raw, int):
            if isinstance(raw, float) and raw.is_integer():
                raw = int(raw)
            else:
                return None, f"{raw!r} is not {expected(stat)}"
        return _bounded(stat, raw, str(raw))
    if kind == "number":
        if isinstance(raw, bool) or not isinstance(raw, (int, float)):
            return None, f"{raw!r} is not {expected(stat)}"
        value = exact(raw)
        return _bounded(stat, value, fmt(value))
    if kind == "die":
        sides = None
        if isinstance(raw, int) and not isinstance(raw, bool):
            sides = raw
        elif isinstance(raw, str):
            m = _DIE.match(raw) or re.match(r"^\s*(\d{1,3})\s*$", raw)
            sides = int(m.group(1)) if m else None
        if sides is None or sides not in stat.dice:
            return None, f"{raw!r} is not {expected(stat)}"
        return sides, None
    if kind == "pool":
        if isinstance(raw, str):
            m = _POOL.match(raw)
            if m:
                pool = Pool(int(m.group(1) or 1), int(m.group(2)))
                if pool.sides not in stat.dice:
                    return pool, f"{raw!r}: the die must be one of " + ", ".join(f"d{d}" for d in stat.dice)
                _, problem = _bounded(stat, pool.count, str(pool))
                return pool, problem
        return None, f"{raw!r} is not {expected(stat)}"
    if kind == "flag":
        if isinstance(raw, bool):
            return raw, None
        return None, f"{raw!r} is not {expected(stat)}"
    if kind == "text":
        if isinstance(raw, str):
            return raw, None
        return None, f"{raw!r} is not text"
    if kind == "choice":
        if isinstance(raw, str):
            match = _match_option(stat, raw)
            if match:
                return match, None
            close = get_close_matches(raw, stat.options, n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            return None, f"{raw!r} is not {expected(stat)}{hint}"
        return None, f"{raw!r} is not {expected(stat)}"
    if kind == "choices":
        if isinstance(raw, list) and all(isinstance(x, str) for x in raw):
            out: list[str] = []
            for item in raw:
                match = _match_option(stat, item)
                if match is None:
                    return out, f"{item!r} is not {expected(stat)}"
                if match in out:
                    return out, f"{item!r} is listed twice (each may be chosen once)"
                out.append(match)
            return tuple(out), None
        return None, f"{raw!r} is not {expected(stat)}"
    raise AssertionError(kind)


def _match_option(stat: StatDef, raw: str) -> str | None:
    low = raw.strip().casefold()
    for option in stat.options:
        if option.casefold() == low:
            return option
    return None


def default_value(stat: StatDef) -> object:
    """The stat's default, already coerced; None when absent (optional or must be entered)."""
    if stat.default is None:
        return None
    value, _ = coerce(stat, stat.default)
    return value


def formula_values(stat: StatDef, value: object) -> dict[str, object]:
    """The names a stat gives formulas: its id (and ``<id>_die`` for pools)."""
    if stat.kind == "pool":
        if isinstance(value, Pool):
            return {stat.id: value.count, f"{stat.id}_die": value.sides}
        return {stat.id: 0, f"{stat.id}_die": 0}
    if value is None:
        if stat.kind in ("text", "choice"):
            return {stat.id: ""}
        if stat.kind == "choices":
            return {stat.id: 0}
        return {stat.id: 0}
    if stat.kind == "flag":
        return {stat.id: 1 if value else 0}
    if stat.kind == "choices":
        return {stat.id: len(value)}
    return {stat.id: value}


def formula_names(stat: StatDef) -> list[str]:
    return [stat.id, f"{stat.id}_die"] if stat.kind == "pool" else [stat.id]


def display(stat: StatDef, value: object) -> str:
    """A value as a player reads it on a card: D10, 2d6, 7+, yes, -."""
    if value is None:
        return "-"
    if stat.kind == "die":
        text = f"{stat.die_letter}{value}"
    elif stat.kind == "pool":
        text = str(value)
    elif stat.kind == "flag":
        text = "yes" if value else "no"
    elif stat.kind == "choices":
        text = ", ".join(value) if value else "-"
    else:
        text = fmt(value)
    return f"{stat.prefix}{text}{stat.suffix}"
