"""Roster files: load with clear messages, save atomically keeping the previous file.

Saving over a roster file changes that file in place (see :func:`roster_text`): what a
player wrote by hand around the values (comments, blank lines, key order, inline tables
or tables, quoting) stays. A new file is written in rosterkit's own layout
(:func:`dumps_roster`). Either way the text is read back before it is written, and
must give the roster being saved.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import tomli_w
from pydantic import ValidationError

from ..engine.costing import CostReport
from ..engine.roster import RosterFile
from ..engine.versions import recorded
from ..errors import Problem, RosterkitError, UnreadableError
from .atomic import FileChangedError, Fingerprint, atomic_write, fingerprint
from .tomlfile import (
    MAX_FILE_BYTES,
    count_lines,
    parse_toml,
    read_text,
    validation_problems,
)

FORMAT = 1


@dataclass(frozen=True)
class LoadedRoster:
    roster: RosterFile
    path: Path | None
    text: str | None = None  # the file's text, for finding lines of later findings
    disk: Fingerprint | None = None  # the file just before it was read, for a save over it to compare with


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
_UNIT_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*(?:units|\"units\"|'units')[ \t]*\]\]", re.MULTILINE)


def _check_size(text: str, file: str) -> None:
    """Refuse a roster declaring absurdly many units before spending time parsing it."""
    if len(text) < 10 * MAX_UNITS:  # "[[units]]" and its line end, more than MAX_UNITS times: not here
        return
    declared = count_lines(_UNIT_HEADER, text)
    if declared > MAX_UNITS:
        raise RosterkitError(Problem(f"{declared:,} units declared; a roster may have at most {MAX_UNITS:,}",
                                     file=file, key="units"))


def load_roster(path: Path | str) -> LoadedRoster:
    path = Path(path)
    disk = fingerprint(path)  # taken first: a change after it, even while reading, stops a save over the file
    text = read_text(path)
    _check_size(text, str(path))
    return LoadedRoster(roster_from_data(parse_toml(text, str(path)), str(path), text), path, text, disk)


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
    for key in ("ruleset_version", "points_limit", "notes", "stats", "house_prices", "chart", "units", "weapons", "abilities", "equipment"):
        if key in data:
            out[key] = data[key]
    return out


def dumps_roster(roster: RosterFile) -> str:
    return tomli_w.dumps(roster_to_data(roster))


class ChangedOnDisk(RosterkitError):
    """The file was not saved: it is not what was read (:class:`FileChangedError`); ``reason`` says how."""

    def __init__(self, path: Path, reason: str) -> None:
        self.reason = reason
        super().__init__(Problem(f"changed on disk while it was being saved ({reason}); nothing was written",
                                 file=str(path)))


def save_roster(roster: RosterFile, path: Path | str, keep_layout: bool = True,
                report: CostReport | None = None, expect: Fingerprint | None = None,
                like: str | None = None) -> None:
    """Write the roster to ``path`` atomically, the previous file kept as ``<name>.bak``.

    Over an existing roster file the file is changed in place, so that what the player
    wrote around the values stays (:func:`roster_text`); ``keep_layout=False`` writes
    it fresh (a new roster replacing a file). Given the roster's cost ``report``, the
    ruleset's version and each unit's points are recorded in the file
    (:func:`rosterkit.engine.versions.recorded`). Given ``expect``, the file as it was read,
    a file changed since is not replaced (:class:`ChangedOnDisk`). ``like``: the text of the file
    the roster was read from, whose layout and comments a new file keeps (a copy saved as).
    """
    path = Path(path)
    if report is not None:
        roster = recorded(roster, report)
    old = _old_text(path) if keep_layout else None
    text = roster_text(roster, old if old is not None or not keep_layout else like)
    try:
        atomic_write(path, text, expect=expect)
    except FileChangedError as exc:
        raise ChangedOnDisk(path, exc.strerror or str(exc)) from None
    except OSError as exc:
        raise RosterkitError(Problem(f"cannot save: {exc.strerror or exc}", file=str(path))) from None


def roster_text(roster: RosterFile, old: str | None = None) -> str:
    """The text to save ``roster`` as, over a file that held ``old`` (None: no file).

    A file that parses as TOML is changed in place (:mod:`rosterkit.files.inplace`):
    top-level keys set or removed as the roster says, units matched to the file's units
    (moved units take their comments with them), stats and lists changed key by key and
    element by element; a new file is laid out the same way, as the README's examples are. A file
    that is not TOML, or one just as :func:`dumps_roster` writes it, gets :func:`dumps_roster`. Each text is read back first: one that would not
    load as the roster gives way to the next, and if none does the save is refused.
    """
    want = roster_to_data(roster)
    for text in _candidates(roster, want, old):
        if _loads_as(text, want):
            return text
    raise RosterkitError(Problem("cannot save: the roster would not read back as it is (a bug in rosterkit; "
                                 "the file is left as it was)"))


def _candidates(roster: RosterFile, want: dict, old: str | None) -> Iterator[str]:
    fresh = None
    if old is None:  # a new file: laid out as the README's examples ([[units]] tables, stats inline)
        old = ""
    elif "#" not in old:  # a file rosterkit wrote, saved again unchanged: that text
        fresh = tomli_w.dumps(want)
        if fresh == old:
            old = None
    if old is not None:
        from .inplace import in_place_texts

        bom = "\ufeff" if old.startswith("\ufeff") else ""
        crlf = "\r\n" in old and "\n" not in old.replace("\r\n", "")
        for text in in_place_texts(roster, want, old[len(bom):]):
            if crlf:  # a file of CRLF lines stays so
                yield bom + text.replace("\r\n", "\n").replace("\n", "\r\n")
            yield bom + text
    yield fresh if fresh is not None else tomli_w.dumps(want)


def _old_text(path: Path) -> str | None:
    """The text of the file being saved over, when it is a readable text file of a sensible size."""
    try:
        if not path.is_file() or path.stat().st_size > MAX_FILE_BYTES:
            return None
        return path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _loads_as(text: str, want: dict) -> bool:
    from .tomlstyle import same

    try:
        return same(roster_to_data(loads_roster(text.removeprefix("\ufeff"))), want)
    except Exception:  # anything that does not read back is not written
        return False
