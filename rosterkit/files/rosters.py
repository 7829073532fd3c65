"""Roster files: load with clear messages, save atomically keeping the previous file."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import tomli_w
from pydantic import ValidationError

from ..engine.roster import RosterFile
from ..errors import Problem, RosterkitError, UnreadableError
from .atomic import atomic_write
from .tomlfile import parse_toml, read_text, validation_problems

FORMAT = 1


@dataclass(frozen=True)
class LoadedRoster:
    roster: RosterFile
    path: Path | None
    text: str | None = None  # the file's text, for finding lines of later findings


def roster_from_data(data: dict, file: str, text: str | None = None) -> RosterFile:
    if "formulas" in data and "types" in data and "units" not in data:
        raise UnreadableError(Problem(
            f"this is a ruleset file ({data.get('id', 'no id')}), not a roster; check it with rosterkit check-ruleset",
            file=file))
    if isinstance(data.get("format"), int) and data["format"] != FORMAT:
        raise RosterkitError(Problem(
            f"roster format {data['format']} is not supported (this rosterkit reads format {FORMAT})",
            file=file, key="format"))
    try:
        return RosterFile.model_validate(data)
    except ValidationError as exc:
        raise RosterkitError(validation_problems(exc, file, text)) from None


MAX_UNITS = 20_000  # a real army is 5 to 50 units
_UNIT_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*(?:units|\"units\"|'units')[ \t]*\]\]", re.M)


def _check_size(text: str, file: str) -> None:
    """Refuse a roster declaring absurdly many units before spending time parsing it."""
    declared = 0
    for _ in _UNIT_HEADER.finditer(text):
        declared += 1
    if declared > MAX_UNITS:
        raise RosterkitError(Problem(f"{declared:,} units declared; a roster may have at most {MAX_UNITS:,}",
                                     file=file, key="units"))


def load_roster(path: Path | str) -> LoadedRoster:
    path = Path(path)
    text = read_text(path)
    _check_size(text, str(path))
    return LoadedRoster(roster_from_data(parse_toml(text, str(path)), str(path), text), path, text)


def loads_roster(text: str, file: str = "<roster>") -> RosterFile:
    _check_size(text, file)
    return roster_from_data(parse_toml(text, file), file, text)


def roster_to_data(roster: RosterFile) -> dict:
    """The roster as plain data in the documented key order, without empty defaults."""
    data = roster.model_dump(mode="python", exclude_defaults=True)
    # A unit that names a catalogue figure and sets an empty list on purpose ("no weapons")
    # must keep it: left out, the figure's own list would come back on loading.
    for i, unit in enumerate(roster.units):
        for key in ("weapons", "abilities", "equipment"):
            if key in unit.model_fields_set and not getattr(unit, key) and unit.figure:
                data["units"][i][key] = []
        for j, member in enumerate(unit.members):
            for key in ("weapons", "abilities", "equipment"):
                if key in member.model_fields_set and not getattr(member, key) and member.figure:
                    data["units"][i]["members"][j][key] = []
    out: dict = {"format": FORMAT, "name": roster.name, "ruleset": roster.ruleset}
    for key in ("points_limit", "notes", "stats", "house_prices", "units", "weapons", "abilities", "equipment"):
        if key in data:
            out[key] = data[key]
    return out


def dumps_roster(roster: RosterFile) -> str:
    return tomli_w.dumps(roster_to_data(roster))


def save_roster(roster: RosterFile, path: Path | str) -> None:
    path = Path(path)
    try:
        atomic_write(path, dumps_roster(roster))
    except OSError as exc:
        raise RosterkitError(Problem(f"cannot save: {exc.strerror or exc}", file=str(path))) from None
