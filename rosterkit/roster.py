"""Roster files: load with clear messages, save atomically keeping the previous file."""

from __future__ import annotations

import os
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

import tomli_w
from pydantic import ValidationError

from . import parsecache
from .errors import Problem, RosterkitError, UnreadableError
from .schema import RosterFile
from .tomlfile import parse_toml, read_text, validation_problems
from .tomlsplit import parse_in_halves

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


MAX_UNITS = 100_000


def _check_size(text: str, file: str) -> None:
    """Refuse a roster declaring absurdly many units before spending time parsing it."""
    declared = text.count("[[units]]")
    if declared > MAX_UNITS:
        raise RosterkitError(Problem(f"{declared:,} units declared; a roster may have at most {MAX_UNITS:,}",
                                     file=file, key="units"))


def _parse(text: str, file: str) -> dict:
    """The file's TOML data: from the parse cache when this text was read before, else parsed
    (on two cores at once for a large file, see :mod:`rosterkit.tomlsplit`)."""
    key, data = parsecache.get(text)
    if data is None:
        data = parse_in_halves(text, tomllib.loads)
        if data is None:
            data = parse_toml(text, file)
        parsecache.put(key, data)
    return data


def load_roster(path: Path | str) -> LoadedRoster:
    path = Path(path)
    text = read_text(path)
    _check_size(text, str(path))
    return LoadedRoster(roster_from_data(_parse(text, str(path)), str(path), text), path, text)


def loads_roster(text: str, file: str = "<roster>") -> RosterFile:
    _check_size(text, file)
    return roster_from_data(_parse(text, file), file, text)


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


def atomic_write(path: Path, text: str, keep_backup: bool = True) -> None:
    """Write ``text`` to ``path`` so that the file is always either old or new, complete.

    A temporary file in the same folder is written, flushed and fsynced, then
    renamed over the target. The previous version is kept as ``<name>.bak``.
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    data = text.encode("utf-8")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    temps = [tmp]
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if keep_backup and path.exists():
            backup = path.with_name(path.name + ".bak")
            temps.append(_copy_for_backup(path, folder))
            os.replace(temps[-1], backup)
        os.replace(tmp, path)
    except BaseException:
        for t in temps:
            if os.path.exists(t):
                os.unlink(t)
        raise
    _fsync_dir(folder)


def _copy_for_backup(path: Path, folder: Path) -> str:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".bak.tmp", dir=folder)
    with os.fdopen(fd, "wb") as fh:
        fh.write(path.read_bytes())
        fh.flush()
        os.fsync(fh.fileno())
    return tmp


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def save_roster(roster: RosterFile, path: Path | str) -> None:
    path = Path(path)
    try:
        atomic_write(path, dumps_roster(roster))
    except OSError as exc:
        raise RosterkitError(Problem(f"cannot save: {exc.strerror or exc}", file=str(path))) from None
