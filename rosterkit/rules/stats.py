"""Stat values: checking a raw value against its definition, and showing it.

Each stat kind (``kind = "int"`` and so on in a ruleset) is one class here: it reads a
raw value, says what it expects, shows a value, gives formulas their names and tells
the interface which control edits it. Adding a kind means a class here, its name in
:data:`KINDS` and in ``StatKind`` of :mod:`rosterkit.rules.schema`, and the one
interface control for it (:mod:`rosterkit.tui.widgets.stat_field`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from difflib import get_close_matches
from typing import TYPE_CHECKING, ClassVar

from .numbers import Number, exact, fmt, parse_number

if TYPE_CHECKING:
    from .schema import StatDef

_POOL = re.compile(r"^\s*(\d{0,3})\s*[dD]\s*(\d{1,3})\s*$")  # "2d6"; "d8" is one die
_DIE = re.compile(r"^\s*[dD]\s*(\d{1,3})\s*$")
_SIDES = re.compile(r"^\s*(\d{1,3})\s*$")  # "8" is a d8
_INT = re.compile(r"^\s*[+-]?\d+\s*$")
_NUM = re.compile(r"^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$")


@dataclass(frozen=True)
class Pool:
    count: int
    sides: int

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"


class StatKind:
    """What one kind of stat means: the base gives the common behaviour, each kind its own."""

    name: ClassVar[str]
    words: ClassVar[str]  # what a value is, in "expected ..." texts
    numeric: ClassVar[bool] = False  # a type's ``add`` may add to it
    direct: ClassVar[bool] = False  # formulas see a (present) value as it is, under the stat's id
    bounded: ClassVar[bool] = False  # min and max bound it (a pool's count)
    needs_options: ClassVar[bool] = False  # the ruleset must list its options
    # the interface's control: "input" (typed text), "select" (one of options()),
    # "switch" (on or off) or "multiselect" (several of options())
    control: ClassVar[str] = "input"
    explained: ClassVar[bool] = True  # the control's help says what the stat expects
    missing: ClassVar[object] = 0  # what formulas see when there is no value

    # ---- reading a raw (TOML) value

    def coerce(self, stat: StatDef, raw: object) -> tuple[object, str | None]:
        """Return (value, problem). The value is usable even when a problem is reported."""
        raise NotImplementedError

    def expected(self, stat: StatDef) -> str:
        text = self.words
        if stat.min is not None and stat.max is not None:
            text += f" from {fmt(exact(stat.min))} to {fmt(exact(stat.max))}"
        elif stat.min is not None:
            text += f" of at least {fmt(exact(stat.min))}"
        elif stat.max is not None:
            text += f" of at most {fmt(exact(stat.max))}"
        return text

    def _not(self, stat: StatDef, raw: object) -> tuple[object, str | None]:
        return None, f"{raw!r} is not {self.expected(stat)}"

    def _bounded(self, stat: StatDef, value: Number, shown: str) -> tuple[object, str | None]:
        if (stat.min is not None and value < exact(stat.min)) or (stat.max is not None and value > exact(stat.max)):
            return value, f"{shown} is out of range: expected {self.expected(stat)}"
        return value, None

    # ---- formulas

    def formula_names(self, stat: StatDef) -> list[str]:
        return [stat.id]

    def formula_values(self, stat: StatDef, value: object) -> dict[str, object]:
        if value is None:
            return {stat.id: self.missing}
        return {stat.id: self.formula_value(value)}

    def formula_value(self, value: object) -> object:
        return value

    # ---- showing a value

    def text(self, stat: StatDef, value: object) -> str:
        """A present value, before the stat's prefix and suffix."""
        return fmt(value)

    def display(self, stat: StatDef, value: object) -> str:
        if value is None:
            return "-"
        return f"{stat.prefix}{self.text(stat, value)}{stat.suffix}"

    def brief(self, stat: StatDef, value: object) -> str | None:
        """The stat in a one-line summary of an item ("S 2"), None when it says nothing."""
        return f"{stat.short_label} {self.display(stat, value)}"

    # ---- the interface's control

    def options(self, stat: StatDef) -> list[tuple[str, object]]:
        """(text shown, value) for a select or multiselect control."""
        return []

    def from_input(self, stat: StatDef, text: str) -> object:
        """Text typed into an input -> the raw value to check."""
        return text.strip()

    def stored(self, stat: StatDef, raw: object, value: object) -> object:
        """A raw value that checked out -> the value as the roster file keeps it."""
        return raw

    def input_text(self, stat: StatDef, value: object) -> str:
        """A (raw or coerced) value as it reads in an input."""
        return str(value)


class IntKind(StatKind):
    name = "int"
    words = "a whole number"
    numeric = direct = bounded = True

    def coerce(self, stat: StatDef, raw: object) -> tuple[object, str | None]:
        if isinstance(raw, bool) or not isinstance(raw, int):
            if isinstance(raw, float) and raw.is_integer():
                raw = int(raw)
            else:
                return self._not(stat, raw)
        return self._bounded(stat, raw, str(raw))

    def brief(self, stat: StatDef, value: object) -> str | None:
        return None if value in (0, None) else super().brief(stat, value)

    def from_input(self, stat: StatDef, text: str) -> object:
        if _INT.match(text) or _NUM.match(text):
            try:
                value = parse_number(text)  # digits bounded before any conversion
            except ValueError:
                return text  # (then reported as not a number of this kind)
            return value if type(value) is int else float(value)
        return text

    def stored(self, stat: StatDef, raw: object, value: object) -> object:
        return int(raw) if isinstance(raw, float) else raw


class NumberKind(IntKind):
    name = "number"
    words = "a number"

    def coerce(self, stat: StatDef, raw: object) -> tuple[object, str | None]:
        if isinstance(raw, bool) or not isinstance(raw, (int, float)) \
                or (isinstance(raw, float) and not math.isfinite(raw)):
            return self._not(stat, raw)
        value = exact(raw)
        return self._bounded(stat, value, fmt(value))

    def stored(self, stat: StatDef, raw: object, value: object) -> object:
        return int(raw) if isinstance(raw, float) and raw.is_integer() else raw

    def input_text(self, stat: StatDef, value: object) -> str:
        try:
            return fmt(exact(value))
        except TypeError:
            return str(value)


class DieKind(StatKind):
    name = "die"
    words = "a die type"
    direct = True
    control = "select"

    def expected(self, stat: StatDef) -> str:
        return f"{self.words} " + ", ".join(f"{stat.die_letter}{d}" for d in stat.dice)

    def coerce(self, stat: StatDef, raw: object) -> tuple[object, str | None]:
        sides = None
        if isinstance(raw, int) and not isinstance(raw, bool):
            sides = raw
        elif isinstance(raw, str):
            m = _DIE.match(raw) or _SIDES.match(raw)
            sides = int(m.group(1)) if m else None
        if sides is None or sides not in stat.dice:
            return self._not(stat, raw)
        return sides, None

    def text(self, stat: StatDef, value: object) -> str:
        return f"{stat.die_letter}{value}"

    def options(self, stat: StatDef) -> list[tuple[str, object]]:
        return [(f"{stat.die_letter}{d}", d) for d in stat.dice]


class PoolKind(StatKind):
    name = "pool"
    words = "a dice pool such as 2d6"
    bounded = True

    def coerce(self, stat: StatDef, raw: object) -> tuple[object, str | None]:
        if isinstance(raw, str):
            m = _POOL.match(raw)
            if m:
                pool = Pool(int(m.group(1) or 1), int(m.group(2)))
                if pool.sides not in stat.dice:
                    return pool, f"{raw!r}: the die must be one of " + ", ".join(f"d{d}" for d in stat.dice)
                _, problem = self._bounded(stat, pool.count, str(pool))
                return pool, problem
        return self._not(stat, raw)

    def formula_names(self, stat: StatDef) -> list[str]:
        return [stat.id, f"{stat.id}_die"]

    def formula_values(self, stat: StatDef, value: object) -> dict[str, object]:
        if isinstance(value, Pool):
            return {stat.id: value.count, f"{stat.id}_die": value.sides}
        return {stat.id: 0, f"{stat.id}_die": 0}

    def text(self, stat: StatDef, value: object) -> str:
        return str(value)

    def stored(self, stat: StatDef, raw: object, value: object) -> object:
        return str(value)


class FlagKind(StatKind):
    name = "flag"
    words = "true or false"
    control = "switch"

    def coerce(self, stat: StatDef, raw: object) -> tuple[object, str | None]:
        if isinstance(raw, bool):
            return raw, None
        return self._not(stat, raw)

    def formula_value(self, value: object) -> object:
        return 1 if value else 0

    def text(self, stat: StatDef, value: object) -> str:
        return "yes" if value else "no"

    def brief(self, stat: StatDef, value: object) -> str | None:
        return stat.label if value else None


class TextKind(StatKind):
    name = "text"
    words = "text"
    direct = True
    explained = False
    missing = ""

    def coerce(self, stat: StatDef, raw: object) -> tuple[object, str | None]:
        if isinstance(raw, str):
            return raw, None
        return None, f"{raw!r} is not text"

    def from_input(self, stat: StatDef, text: str) -> object:
        return text


def _match_option(stat: StatDef, raw: str) -> str | None:
    low = raw.strip().casefold()
    for option in stat.options:
        if option.casefold() == low:
            return option
    return None


class ChoiceKind(StatKind):
    name = "choice"
    words = "one of the options"
    direct = True
    needs_options = True
    control = "select"
    missing = ""

    def expected(self, stat: StatDef) -> str:
        return "one of " + ", ".join(repr(o) for o in stat.options)

    def coerce(self, stat: StatDef, raw: object) -> tuple[object, str | None]:
        if isinstance(raw, str):
            match = _match_option(stat, raw)
            if match:
                return match, None
            close = get_close_matches(raw, stat.options, n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            return None, f"{raw!r} is not {self.expected(stat)}{hint}"
        return self._not(stat, raw)

    def options(self, stat: StatDef) -> list[tuple[str, object]]:
        return [(o, o) for o in stat.options]


class ChoicesKind(StatKind):
    name = "choices"
    words = "a list of options"
    needs_options = True
    control = "multiselect"

    def expected(self, stat: StatDef) -> str:
        return "a list from " + ", ".join(repr(o) for o in stat.options)

    def coerce(self, stat: StatDef, raw: object) -> tuple[object, str | None]:
        if isinstance(raw, list) and all(isinstance(x, str) for x in raw):
            out: list[str] = []
            for item in raw:
                match = _match_option(stat, item)
                if match is None:
                    return out, f"{item!r} is not {self.expected(stat)}"
                if match in out:
                    return out, f"{item!r} is listed twice (each may be chosen once)"
                out.append(match)
            return tuple(out), None
        return self._not(stat, raw)

    def formula_value(self, value: object) -> object:
        return len(value)  # type: ignore[arg-type]

    def text(self, stat: StatDef, value: object) -> str:
        return ", ".join(value) if value else "-"  # type: ignore[arg-type]

    def options(self, stat: StatDef) -> list[tuple[str, object]]:
        return [(o, o) for o in stat.options]


KINDS: dict[str, StatKind] = {k.name: k for k in (IntKind(), NumberKind(), DieKind(), PoolKind(), FlagKind(),
                                                    TextKind(), ChoiceKind(), ChoicesKind())}
KIND_WORDS = {name: k.words for name, k in KINDS.items()}


def kind_of(stat: StatDef) -> StatKind:
    return KINDS[stat.kind]


def expected(stat: StatDef) -> str:
    return KINDS[stat.kind].expected(stat)


def coerce(stat: StatDef, raw: object) -> tuple[object, str | None]:
    """Return (value, problem). The value is usable even when a problem is reported."""
    return KINDS[stat.kind].coerce(stat, raw)


def default_value(stat: StatDef) -> object:
    """The stat's default, already coerced; None when absent (optional or must be entered)."""
    return None if stat.default is None else coerce(stat, stat.default)[0]


def formula_values(stat: StatDef, value: object) -> dict[str, object]:
    """The names a stat gives formulas: its id (and ``<id>_die`` for pools)."""
    return KINDS[stat.kind].formula_values(stat, value)


def formula_names(stat: StatDef) -> list[str]:
    return KINDS[stat.kind].formula_names(stat)


def display(stat: StatDef, value: object) -> str:
    """A value as a player reads it on a card: D10, 2d6, 7+, yes, -."""
    return KINDS[stat.kind].display(stat, value)
