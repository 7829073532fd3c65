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
import json
from dataclasses import dataclass
from fractions import Fraction

from ..rules.numbers import fmt
from .costing import CostReport, MemberCost, UnitCost

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32
PARTS = ("ruleset", "units", "gear and stats", "points")


@dataclass(frozen=True)
class Fingerprint:
    code: str  # XXXX-XXXX-XXXX-XXXX
    parts: dict[str, str]  # part -> its one-character digest

    def __str__(self) -> str:
        return self.code


def _text(value) -> str:
    if isinstance(value, (int, float, Fraction)) and not isinstance(value, bool):
        return fmt(value)
    return str(value)


def _canon(obj) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=_text)


def _member_shape(m: MemberCost) -> tuple[str, str]:
    """(what the member is, what it carries and its stats) as canonical text."""
    what = _canon([m.name, m.count])
    gear = _canon([
        {k: _text(v) for k, v in m.stats.items()},
        sorted([i.kind, i.name, _text(i.cost)] for i in m.items),
    ])
    return what, gear


def _unit_parts(u: UnitCost) -> tuple[str, str, str]:
    members = sorted(_member_shape(m) for m in u.members)
    units = _canon([u.name, u.type_id, [w for w, _ in members]])
    gear = _canon([u.name, [g for _, g in members]])
    points = _canon([u.name, _text(u.total)])
    return units, gear, points


def _base32(digest: bytes, chars: int) -> str:
    n = int.from_bytes(digest, "big")
    bits = len(digest) * 8
    return "".join(ALPHABET[(n >> (bits - 5 * (i + 1))) & 31] for i in range(chars))


def fingerprint(report: CostReport) -> Fingerprint:
    """The fingerprint of a costed roster."""
    rs, roster = report.ruleset, report.roster
    unit_parts = sorted(_unit_parts(u) for u in report.units)
    texts = {
        "ruleset": _canon([rs.data.id, rs.data.version]),
        "units": _canon([p[0] for p in unit_parts]),
        "gear and stats": _canon([
            [p[1] for p in unit_parts],
            {k: _text(v) for k, v in roster.stats.items()},
        ]),
        "points": _canon([
            None if report.limit is None else _text(report.limit),
            _text(report.total),
            [p[2] for p in unit_parts],
        ]),
    }
    whole = hashlib.sha256("\x1e".join(texts[p] for p in PARTS).encode("utf-8")).digest()
    parts = {p: _base32(hashlib.sha256(texts[p].encode("utf-8")).digest()[:1], 1) for p in PARTS}
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
