"""Exact numbers for costs.

Costs are kept as ``int`` or :class:`fractions.Fraction` so that divisors
(a quarter, a half) never lose a fraction of a point and sums are exact.
Nothing is rounded unless a ruleset's formula asks for it (``round``,
``floor``, ``ceil``). Display shows up to four decimals exactly; a value that
has no short exact decimal (a third) is shown as a fraction with an
approximation beside it.
"""

from __future__ import annotations

import math
from fractions import Fraction

Number = int | Fraction


# Fraction is an abstract-base-class number: isinstance() against it is slow, so the
# functions below called once per value (thousands of times for a big roster) test the
# common types by identity first.


def exact(value: object) -> Number:
    """Turn a TOML number (int, float, bool) into an exact number."""
    if type(value) is int:
        return value
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, Fraction):
        return normalize(value)
    if isinstance(value, float):
        return normalize(Fraction(repr(value)))
    raise TypeError(f"not a number: {value!r}")


def normalize(value: Number) -> Number:
    """A Fraction with denominator 1 becomes an int."""
    if type(value) is not int and isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value


def exact_sum(values) -> Number:
    """Sum exactly and fast: whole numbers natively, fractions grouped by denominator."""
    whole = 0
    by_den: dict[int, int] = {}
    for v in values:
        if type(v) is not int and isinstance(v, Fraction):
            by_den[v.denominator] = by_den.get(v.denominator, 0) + v.numerator
        else:
            whole += v
    if not by_den:
        return whole
    return normalize(sum((Fraction(n, d) for d, n in by_den.items()), Fraction(whole)))


def divide(a: Number, b: Number) -> Number:
    if isinstance(a, int) and isinstance(b, int) and b and a % b == 0:
        return a // b
    return normalize(Fraction(a) / Fraction(b))


def _short_decimal(value: Fraction, places: int = 4) -> str | None:
    scaled = value * 10**places
    if scaled.denominator != 1:
        return None
    text = f"{abs(scaled.numerator) // 10**places}.{abs(scaled.numerator) % 10**places:0{places}d}"
    text = text.rstrip("0").rstrip(".")
    return ("-" if value < 0 else "") + text


def fmt(value: object) -> str:
    """Format a number for people: 21, 10.25, 31/3 (≈10.33)."""
    if type(value) is int:
        return str(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        value = Fraction(repr(value))
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        short = _short_decimal(value)
        if short is not None:
            return short
        return f"{value.numerator}/{value.denominator} (≈{float(value):.2f})"
    return str(value)


def fmt_pct(part: Number, whole: Number) -> str:
    """A share as a percentage: exact when it is a whole number or has one decimal (25%,
    12.5%), else to one decimal with halves rounded up, as players round (25.25% is 25.3%,
    never the 25.2% of rounding halves to even), computed exactly."""
    if not whole:
        return "0%"
    share = Fraction(part) * 100 / Fraction(whole)
    if share.denominator == 1:
        return f"{share.numerator}%"
    tenths = math.floor(abs(share) * 10 + Fraction(1, 2))  # halves away from zero
    sign = "-" if share < 0 and tenths else ""
    return f"{sign}{tenths // 10}.{tenths % 10}%"


def to_json(value: object) -> object:
    """JSON-safe: ints stay ints, fractions become floats (exact text kept by callers)."""
    if type(value) is int:
        return value
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    return value
