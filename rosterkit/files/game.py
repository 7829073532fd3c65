"""The game file of play mode: plain TOML a person can read, beside the roster.

```toml
format = 1
turn = 3

[[sides]]
roster = "ares_border_levy.toml"       # relative to the game file's folder
fingerprint = "ABCD-EFGH-JKLM-NPQR"    # the roster when the game began

[[sides.marks]]
unit = "Spearmen"                      # the unit's name, and its place in the roster (1 first)
number = 2
kind = 1                               # the kind of figure in a mixed unit (1 first; 0: the unit's own)
tracker = "Wounds"
row = 3                                # the figure or element (1 first)
value = 2
```

A mark of the army's own trackers (God chips) has ``number = 0``; a mark of a list of checks
names its ``item``. Everything read is bounded; the numbers are checked against the trackers
by :mod:`rosterkit.editing.play`, which knows their sizes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import tomlkit
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from ..engine.trackers import MAX_TALLY
from ..errors import Problem, RosterkitError, UnreadableError
from .bounded import read_regular
from .tomlfile import parse_toml, validation_problems

MAX_GAME_BYTES = 16 * 1024 * 1024  # 100,000 marks of long unit names are under 16 MB
MAX_TURN = 10_000
MAX_MARKS = 100_000  # marked cells per side (a real game has dozens)
MAX_NUMBER = 20_000  # a unit's place, a kind, a row (rosters hold at most 20,000 units)
MAX_VALUE = MAX_TALLY  # a cell's value before it is checked against its tracker's size (a tally's at most)
SUFFIX = ".game.toml"

Text = Annotated[StrictStr, Field(max_length=200)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MarkEntry(_Strict):
    unit: Text = ""
    number: Annotated[StrictInt, Field(ge=0, le=MAX_NUMBER)] = 0
    kind: Annotated[StrictInt, Field(ge=0, le=MAX_NUMBER)] = 0
    tracker: Annotated[StrictStr, Field(min_length=1, max_length=200)]
    row: Annotated[StrictInt, Field(ge=1, le=MAX_NUMBER)] = 1
    item: Text = ""
    value: Annotated[StrictInt, Field(ge=0, le=MAX_VALUE)]


class SideEntry(_Strict):
    roster: Annotated[StrictStr, Field(min_length=1, max_length=1000)]
    fingerprint: Annotated[StrictStr, Field(max_length=40)]
    marks: Annotated[list[MarkEntry], Field(max_length=MAX_MARKS)] = []


class GameFile(_Strict):
    format: Literal[1] = 1
    turn: Annotated[StrictInt, Field(ge=1, le=MAX_TURN)] = 1
    sides: Annotated[list[SideEntry], Field(min_length=1, max_length=2)]


def default_game_path(army: Path) -> Path:
    """``ARMY.game.toml`` beside ``ARMY.toml``."""
    name = army.name[:-5] if army.name.lower().endswith(".toml") else army.name
    return army.with_name(name + SUFFIX)


def load_game_file(path: Path) -> tuple[GameFile, str]:
    """The game file read and checked for shape, with its text (for the lines of later problems);
    :class:`RosterkitError` naming the file, key and line otherwise."""
    name = str(path)
    data = read_regular(path, MAX_GAME_BYTES, kind="a game file (.game.toml)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableError(Problem(f"not UTF-8 text (byte {exc.start}); save the file as UTF-8", file=name,
                                      line=data[:exc.start].count(b"\n") + 1)) from None
    raw = parse_toml(text, name)
    try:
        return GameFile.model_validate(raw), text
    except ValidationError as exc:
        raise RosterkitError(validation_problems(exc, name, text)) from None


def game_text(game: GameFile) -> str:
    """The game file's text: a comment saying what it is, then the values (tomlkit quotes the names)."""
    doc = tomlkit.document()
    doc.add(tomlkit.comment("A game in progress (rosterkit play). Marks: unit name and number (1 first), the"))
    doc.add(tomlkit.comment("kind of figure (0: the unit's own), tracker, row (figure or element), item, value."))
    doc.add("format", game.format)
    doc.add("turn", game.turn)
    sides = tomlkit.aot()
    for side in game.sides:
        t = tomlkit.table()
        t.add("roster", side.roster)
        t.add("fingerprint", side.fingerprint)
        marks = tomlkit.aot()
        for m in side.marks:
            mt = tomlkit.table()
            if m.number:
                mt.add("unit", m.unit)
            mt.add("number", m.number)
            if m.kind:
                mt.add("kind", m.kind)
            mt.add("tracker", m.tracker)
            if m.row != 1:
                mt.add("row", m.row)
            if m.item:
                mt.add("item", m.item)
            mt.add("value", m.value)
            marks.append(mt)
        if side.marks:
            t.add("marks", marks)
        sides.append(t)
    doc.add("sides", sides)
    return tomlkit.dumps(doc)
