"""Finding and loading ruleset files: the built-ins, the player's folder, ``--rulesets`` folders."""

from __future__ import annotations

import os
from collections.abc import Iterable
from difflib import get_close_matches
from pathlib import Path

from pydantic import ValidationError

from ..errors import Problem, RosterkitError, UnreadableError
from ..rules.ruleset import Ruleset, compile_ruleset
from ..rules.schema import RulesetFile
from .paths import home_dir
from .tomlfile import find_line, load_toml, parse_toml, read_text, validation_problems


def load_ruleset_file(path: Path | str) -> Ruleset:
    path = Path(path)
    return compile_ruleset_text(read_text(path), str(path), path)


def compile_ruleset_text(text: str, file: str, path: Path | None = None) -> Ruleset:
    """A ruleset from its file's text; problems name ``file``, the key and the line."""
    data = parse_toml(text, file)
    if "units" in data or ("ruleset" in data and "types" not in data):
        raise UnreadableError(Problem("this is a roster, not a ruleset; check it with rosterkit validate",
                                      file=file))
    try:
        rf = RulesetFile.model_validate(data)
    except ValidationError as exc:
        raise RosterkitError(validation_problems(exc, file, text)) from None
    return compile_ruleset(rf, path, lambda loc: find_line(text, loc))


# ---------------------------------------------------------------- finding rulesets


def builtin_dir() -> Path:
    """The built-in rulesets: in the source tree, or inside the installed package."""
    here = Path(__file__).resolve().parent.parent  # the package folder
    shipped = here / "_rulesets"
    if shipped.is_dir():
        return shipped
    return here.parent / "rulesets"


def user_dir() -> Path:
    """The per-user folder for a player's own rulesets."""
    return home_dir() / "rulesets"


class Registry:
    """Finds rulesets by id in, in order: ``--rulesets`` folders, the user folder, the built-ins."""

    def __init__(self, extra_dirs: Iterable[Path | str] = ()):
        self.dirs = [Path(d) for d in extra_dirs] + [user_dir(), builtin_dir()]
        self._cache: dict[str, Ruleset] = {}

    def files(self) -> list[Path]:
        """The ruleset files of every folder that can be searched (:meth:`unsearchable` names the others)."""
        out = []
        for d in self.dirs:
            try:
                out.extend(toml_files(d))
            except UnreadableError:
                continue
        return out

    def unsearchable(self) -> list[UnreadableError]:
        """Why each folder that cannot be searched cannot (a rulesets folder without permissions, say)."""
        out = []
        for d in self.dirs:
            try:
                toml_files(d)
            except UnreadableError as exc:
                out.append(exc)
        return out

    def get(self, ruleset_id: str) -> Ruleset:
        if ruleset_id in self._cache:
            return self._cache[ruleset_id]
        for d in self.dirs:  # the first folder that has it wins, whatever its file is called
            found = self._find_in(d, ruleset_id)
            if found is not None:
                self._cache[ruleset_id] = found
                return found
        raise RosterkitError(Problem(f"unknown ruleset '{ruleset_id}'", hint=self.suggest(ruleset_id)))

    def suggest(self, text: str) -> str | None:
        """'did you mean ...?' for an unknown id: the same id in another case, ids it begins, then
        ids spelt alike; else the installed ids."""
        known = self.ids()
        low = text.casefold()
        close = [k for k in known if k.casefold() == low] or [k for k in known if k.casefold().startswith(low)] \
            or get_close_matches(low, known, n=2, cutoff=0.5)
        if close:
            return "did you mean " + " or ".join(f"'{c}'" for c in close[:3]) + "?"
        return "installed: " + ", ".join(known) if known else None

    def resolve(self, text: str) -> Ruleset:
        """A ruleset named on the command line: its id, in any case (``ARES`` finds ``ares``)."""
        try:
            return self.get(text)
        except RosterkitError:
            same = [k for k in self.ids() if k.casefold() == text.casefold()]
            if len(same) == 1:
                return self.get(same[0])
            raise

    def _find_in(self, folder: Path, ruleset_id: str) -> Ruleset | None:
        # a folder that cannot be searched is an error, not skipped: a ruleset of the player's
        # there would otherwise give way to a built-in of the same id, with other points
        files = toml_files(folder)
        candidate = folder / f"{ruleset_id}.toml"
        if candidate in files:
            rs = load_ruleset_file(candidate)
            if rs.id == ruleset_id:
                return rs
        for path in (p for p in files if p != candidate):
            try:
                data, _ = load_toml(path)
            except RosterkitError:
                continue
            if data.get("id") == ruleset_id:
                return load_ruleset_file(path)
        return None

    def ids(self) -> list[str]:
        return list(dict.fromkeys(rid for rid, _ in self.titles()))

    def titles(self) -> list[tuple[str, str]]:
        """Each ruleset file's id and name as the file writes them, in search order: read, not
        compiled (a ruleset named in a list is found without compiling every one)."""
        out = []
        for path in self.files():
            try:
                data, _ = load_toml(path)
            except RosterkitError:
                continue
            rid, name = data.get("id"), data.get("name")
            if isinstance(rid, str):
                out.append((rid, name if isinstance(name, str) else rid))
        return out

    def all(self) -> list[tuple[Path, Ruleset | RosterkitError]]:
        out: list[tuple[Path, Ruleset | RosterkitError]] = []
        seen: set[str] = set()
        for path in self.files():
            try:
                rs = load_ruleset_file(path)
            except RosterkitError as exc:
                out.append((path, exc))
                continue
            if rs.id in seen:
                continue
            seen.add(rs.id)
            self._cache.setdefault(rs.id, rs)
            out.append((path, rs))
        return out


def toml_files(folder: Path) -> list[Path]:
    """The ``*.toml`` files in a rulesets folder, sorted (none when there is no such folder).
    Raises :class:`UnreadableError` naming the folder when it cannot be searched."""
    try:
        with os.scandir(folder) as entries:
            return sorted(folder / e.name for e in entries if e.name.endswith(".toml") and e.is_file())
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as exc:
        denied = isinstance(exc, PermissionError)
        raise UnreadableError(Problem(
            f"cannot search the rulesets folder: {'permission denied' if denied else exc.strerror or exc}",
            file=str(folder), hint="make it readable (chmod u+rx), or move it away" if denied else None)) from None
