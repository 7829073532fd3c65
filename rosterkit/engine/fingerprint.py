"""A roster's fingerprint: a short code computed from what the army *is*, not how its file looks.

The same army gives the same fingerprint whatever its formatting, comments, key order, unit
order or notes; changing a unit, a stat, a piece of gear, a count, the points limit, the
ruleset or the ruleset's version changes it. It is printed by ``validate``, ``cost``,
``text``, on every card and on the summary page, so an organiser can match a printout or a
loose card to the list that was submitted.

Shape: ``XXXX-XXXX-XXXX-XXXX`` in Crockford's base 32 (no I, L, O or U). The first twelve
characters are 60 bits of a SHA-256 over the whole army; each of the last four is a 5-bit
digest of one part (ruleset, units, gear and stats, points), so a mismatch can say what kind
of thing differs. Matching needs all sixteen: the part digits alone prove nothing.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from fractions import Fraction

from ..rules.numbers import MAX_SHOWN, showable
from .costing import CostReport, UnitCost

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32
PARTS = ("ruleset", "units", "gear and stats", "points")


@dataclass(frozen=True)
class Fingerprint:
    code: str  # XXXX-XXXX-XXXX-XXXX
    parts: dict[str, str]  # part -> its one-character digest

    def __str__(self) -> str:
        return self.code


def _text(value) -> str:
    kind = type(value)
    if kind is str:  # the common cases first: names and whole numbers
        return value
    if kind is int and -MAX_SHOWN < value < MAX_SHOWN:
        return str(value)
    if kind is int or isinstance(value, Fraction):
        if showable(value):
            return str(value)  # Fraction: "31/3"
        # exact in hexadecimal, whatever the size (decimal text stops at 4,300 digits)
        value = Fraction(value)
        return f"0x{value.numerator:x}/0x{value.denominator:x}"
    if isinstance(value, float):
        return str(Fraction(repr(value)))  # 1.5 and 3/2 are the same number
    return str(value)  # bool: "True"


def _canon(obj: tuple) -> bytes:
    """Canonical bytes of nested tuples of texts (``repr`` of tuples of ``str`` is exact and fast)."""
    return repr(obj).encode("utf-8", "surrogatepass")


def _stats(stats: dict) -> tuple:
    return tuple(sorted((k, _text(v)) for k, v in stats.items()))


def _unit_parts(u: UnitCost) -> tuple[tuple, str, str, str]:
    """What orders the unit among units of the same name, and the ``repr`` of what follows its
    name in each part (units, gear and stats, points). Units costed alike share them."""
    parts = u.alike.get("fingerprint")
    if parts is None:
        members = sorted(
            ((m.name, str(m.count)), (_stats(m.stats), tuple(sorted((i.kind, i.name, _text(i.cost)) for i in m.items))))
            for m in u.members
        )
        figures, gear, points = tuple(w for w, _ in members), tuple(g for _, g in members), _text(u.total)
        order = (u.type_id or "", figures, gear, points)
        parts = u.alike["fingerprint"] = (order, repr(order[:2])[1:-1], repr(gear), repr(points))
    return parts


def _tuple_repr(items: list[str]) -> str:
    """``repr`` of a tuple whose items' ``repr`` are given."""
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def _base32(digest: bytes, chars: int) -> str:
    n = int.from_bytes(digest, "big")
    bits = len(digest) * 8
    return "".join(ALPHABET[(n >> (bits - 5 * (i + 1))) & 31] for i in range(chars))


def fingerprint(report: CostReport) -> Fingerprint:
    """The fingerprint of a costed roster."""
    rs, roster = report.ruleset, report.roster
    # the canonical texts are the repr of tuples of each unit's (name, ...) parts, sorted; a
    # unit's share of them is kept with its costs, so only its name is put in here
    units = sorted((u.name, *_unit_parts(u)) for u in report.units)
    texts = {
        "ruleset": _canon((rs.data.id, rs.data.version)),
        "units": _tuple_repr([f"({n!r}, {t})" for n, _, t, _, _ in units]).encode("utf-8", "surrogatepass"),
        "gear and stats": ("(" + _tuple_repr([f"({n!r}, {t})" for n, _, _, t, _ in units]) + ", "
                           + repr(_stats(roster.stats)) + ")").encode("utf-8", "surrogatepass"),
        "points": ("(" + repr("" if report.limit is None else _text(report.limit)) + ", " + repr(_text(report.total))
                   + ", " + _tuple_repr([f"({n!r}, {t})" for n, _, _, _, t in units]) + ")"
                   ).encode("utf-8", "surrogatepass"),
    }
    whole = hashlib.sha256(b"\x1e".join(texts[p] for p in PARTS)).digest()
    parts = {p: _base32(hashlib.sha256(texts[p]).digest()[:1], 1) for p in PARTS}
    chars = _base32(whole[:8], 12) + "".join(parts[p] for p in PARTS)
    return Fingerprint("-".join(chars[i:i + 4] for i in range(0, 16, 4)), parts)


def normalise(code: str) -> str | None:
    """A fingerprint as typed (any case, spaces or dashes, O for 0, I/L for 1) in its printed
    shape, or None when it cannot be one."""
    text = "".join(ch for ch in code.upper() if ch not in " -").translate(str.maketrans("OIL", "011"))
    if len(text) != 16 or any(ch not in ALPHABET for ch in text):
        return None
    return "-".join(text[i:i + 4] for i in range(0, 16, 4))


def differing_parts(actual: Fingerprint, expected: str) -> list[str]:
    """Which parts of a list seem to differ from the fingerprint given (by the part digits;
    a part whose digit matches may still differ, one time in 32)."""
    digits = expected.replace("-", "")[12:]
    return [p for p, ch in zip(PARTS, digits) if actual.parts[p] != ch]
