"""Exact numbers for costs.

Costs are kept as ``int`` or :class:`fractions.Fraction` so that divisors
(a quarter, a half) never lose a fraction of a point and sums are exact.
Nothing is rounded unless a ruleset's formula asks for it (``round``,
``floor``, ``ceil``). Display shows up to four decimals exactly; a value that
has no short exact decimal (a third) is shown as a fraction with an
approximation beside it.

Numbers are shown and written with integer arithmetic only, never through
``float`` (which overflows past 1.8e308): a value beyond :data:`MAX_SHOWN` is
shown as a short approximation, and costing reports it as a finding. Text
becomes a number only through :func:`parse_number`, which bounds its digits and
exponent before any arithmetic is done.
"""

from __future__ import annotations

import math
import re
from decimal import MAX_EMAX, MIN_EMIN, Context
from fractions import Fraction

Number = int | Fraction

# A price or total is shown exactly while its size and its denominator stay below this: up to
# it a double (JSON readers, spreadsheets) still holds every whole number, so what is shown and
# written is what is meant. Past it, a value is shown approximately and costing reports it.
MAX_SHOWN = 10**15
# Numbers written as text (typed, given on the command line, read by a formula function):
# at most this many digits, and a power of ten of at most this size either way.
MAX_DIGITS = 30
MAX_EXPONENT = 30


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
        if not math.isfinite(value):
            raise ValueError(f"not a finite number: {value!r}")
        return normalize(Fraction(repr(value)))
    raise TypeError(f"not a number: {value!r}")


def showable(value: object) -> bool:
    """Whether a number is shown and written exactly: its size and denominator under :data:`MAX_SHOWN`."""
    if type(value) is int:
        return -MAX_SHOWN < value < MAX_SHOWN
    if isinstance(value, Fraction):
        return -MAX_SHOWN < value.numerator < MAX_SHOWN * value.denominator and value.denominator < MAX_SHOWN
    if isinstance(value, float):
        return math.isfinite(value) and -MAX_SHOWN < value < MAX_SHOWN
    return True  # bools, text: not numbers to bound


# Decimal contexts for approx(): wide enough for any exponent, so nothing overflows
_WORKING = Context(prec=30, Emax=MAX_EMAX, Emin=MIN_EMIN)
_SHOWN = Context(prec=3, Emax=MAX_EMAX, Emin=MIN_EMIN)


def approx(value: Number) -> str:
    """A number of any size to three significant digits, as ``≈3.58e+308``, in time linear in its
    size: the leading 200 bits of its numerator and denominator and the power of two left over
    are worked out to 30 digits (converting a number of 300,000 digits to a decimal whole takes
    seconds)."""
    num, den = value.numerator, value.denominator
    negative = num < 0
    num = -num if negative else num
    drop_num, drop_den = max(0, num.bit_length() - 200), max(0, den.bit_length() - 200)
    shown = _WORKING.divide(num >> drop_num, den >> drop_den)
    if drop_num != drop_den:
        shown = _WORKING.multiply(shown, _WORKING.power(2, drop_num - drop_den))
    return f"≈{'-' if negative else ''}{_SHOWN.plus(shown):.2e}"


def fixed(value: Number, places: int) -> str:
    """``value`` to ``places`` decimals, halves away from zero, by integer arithmetic (no float)."""
    value = Fraction(value)
    scaled = math.floor(abs(value) * 10**places + Fraction(1, 2))
    whole, part = divmod(scaled, 10**places)
    sign = "-" if value < 0 and scaled else ""
    return f"{sign}{whole}.{part:0{places}d}" if places else f"{sign}{whole}"


_NUMBER_TEXT = re.compile(r"\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*")


def parse_number(text: str) -> Number:
    """Text such as ``12``, ``-0.25`` or ``1.5e3`` as an exact number. Its digits (at most
    :data:`MAX_DIGITS`) and exponent (at most :data:`MAX_EXPONENT` either way) are checked
    before anything is computed; anything else raises ValueError saying what is wrong."""
    m = _NUMBER_TEXT.fullmatch(text)
    if m is None or not (m.group(2) or m.group(3)):
        raise ValueError(f"{_excerpt(text)} is not a number")
    sign, exponent = m.group(1), m.group(4)
    whole, part = m.group(2).lstrip("0"), (m.group(3) or "").rstrip("0")  # zeros that add nothing
    if len(whole) + len(part) > MAX_DIGITS:
        raise ValueError(f"{_excerpt(text)} has too many digits (at most {MAX_DIGITS})")
    power = 0
    if exponent is not None:
        size = exponent.lstrip("+-").lstrip("0")
        if len(size) > 3 or int(size or 0) > MAX_EXPONENT:
            raise ValueError(f"{_excerpt(text)} has too large a power of ten (at most e{MAX_EXPONENT} "
                             f"either way)")
        power = -int(size or 0) if exponent.startswith("-") else int(size or 0)
    mantissa = int(whole + part or "0")
    value = Fraction(-mantissa if sign == "-" else mantissa, 10 ** len(part)) * Fraction(10) ** power
    return normalize(value)


def parse_fraction(text: str) -> Number:
    """Text such as ``1/3``, ``2.5`` or ``-3/4`` as an exact number: a number, or two numbers
    with ``/`` between them, each read by :func:`parse_number` (bounded before any work)."""
    if len(text) > 2 * MAX_DIGITS + 20:
        raise ValueError(f"{_excerpt(text)} is too long for a number")
    top, slash, bottom = text.partition("/")
    if not slash:
        return parse_number(text)
    if "/" in bottom:
        raise ValueError(f"{_excerpt(text)} has more than one '/'; write a fraction as 1/3")
    numerator, denominator = parse_number(top), parse_number(bottom)
    if denominator == 0:
        raise ValueError(f"{_excerpt(text)} divides by zero")
    return divide(numerator, denominator)


def _excerpt(text: str) -> str:
    return repr(text if len(text) <= 24 else text[:20] + "...")


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
    """Format a number for people: 21, 10.25, 31/3 (≈10.33); beyond :data:`MAX_SHOWN`, ≈3.58e+308."""
    if type(value) is int:
        return str(value) if -MAX_SHOWN < value < MAX_SHOWN else approx(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return fmt(int(value))
    if isinstance(value, float):
        if not math.isfinite(value):
            return str(value)
        value = Fraction(repr(value))
    if isinstance(value, Fraction):
        if not showable(value):
            return approx(value)
        if value.denominator == 1:
            return str(value.numerator)
        short = _short_decimal(value)
        if short is not None:
            return short
        return f"{value.numerator}/{value.denominator} (≈{fixed(value, 2)})"
    return str(value)


def exact_text(value: Number) -> str:
    """A number's exact text for a file or a report ("31/3"), or its approximation when it is
    beyond :data:`MAX_SHOWN` (costing reports such a value as a finding)."""
    return str(value) if showable(value) else approx(value)


def fmt_pct(part: Number, whole: Number) -> str:
    """A share as a percentage: exact when it is a whole number or has one decimal (25%,
    12.5%), else to one decimal with halves rounded up, as players round (25.25% is 25.3%,
    never the 25.2% of rounding halves to even), computed exactly."""
    if not whole:
        return "0%"
    share = Fraction(part) * 100 / Fraction(whole)
    if not showable(share):
        return f"{approx(share)}%"
    if share.denominator == 1:
        return f"{share.numerator}%"
    tenths = math.floor(abs(share) * 10 + Fraction(1, 2))  # halves away from zero
    sign = "-" if share < 0 and tenths else ""
    return f"{sign}{tenths // 10}.{tenths % 10}%"


def to_json(value: object) -> object:
    """JSON-safe: ints stay ints, fractions become floats (exact text kept by callers). A number
    beyond :data:`MAX_SHOWN` (which costing reports) is written as its approximation, as text:
    no float holds it and no reader could use all its digits."""
    if type(value) is int or isinstance(value, Fraction):
        if not showable(value):
            return approx(value)
        if type(value) is int or value.denominator == 1:
            return int(value)
        return value.numerator / value.denominator  # exact ints, one correct rounding: no overflow here
    return value
