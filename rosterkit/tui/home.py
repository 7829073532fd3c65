"""The player's own folder: recent rosters, recovery files, and where the sample armies live.

The folder is ``$ROSTERKIT_HOME`` when set, else ``$XDG_CONFIG_HOME/rosterkit``, else
``~/.config/rosterkit`` (the same rule as the rulesets folder). Nothing here imports Textual.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path

from ..engine.roster import RosterFile
from ..errors import RosterkitError
from ..files.atomic import atomic_write
from ..files.paths import home_dir
from ..files.rosters import dumps_roster, loads_roster

RECENT_MAX = 12


def samples_dir() -> Path:
    """The bundled sample armies: inside the installed package, or the source tree's folder."""
    here = Path(__file__).resolve().parent.parent
    shipped = here / "_samples"
    if shipped.is_dir():
        return shipped
    return here.parent / "sample_armies"


def sample_files() -> list[Path]:
    folder = samples_dir()
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.toml") if p.is_file())


# ---------------------------------------------------------------- recent rosters


def _recent_file() -> Path:
    return home_dir() / "recent.json"


def recent_rosters() -> list[Path]:
    """Recently opened rosters that still exist, newest first."""
    try:
        data = json.loads(_recent_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(data, list):
        return []
    out = []
    for item in data:
        if isinstance(item, str):
            p = Path(item)
            if p.is_file() and p not in out:
                out.append(p)
    return out


def remember(path: Path) -> None:
    """Put a roster at the top of the recent list (best effort: never fails the caller)."""
    path = Path(path).resolve()
    items = [path] + [p for p in recent_rosters() if p != path]
    try:
        _recent_file().parent.mkdir(parents=True, exist_ok=True)
        atomic_write(_recent_file(), json.dumps([str(p) for p in items[:RECENT_MAX]], indent=1), keep_backup=False)
    except OSError:
        pass


def forget(path: Path) -> None:
    """Take a roster off the recent list."""
    path = Path(path).resolve()
    items = [p for p in recent_rosters() if p != path]
    try:
        atomic_write(_recent_file(), json.dumps([str(p) for p in items], indent=1), keep_backup=False)
    except OSError:
        pass


# ---------------------------------------------------------------- crash recovery


@dataclass(frozen=True)
class Recovery:
    """Unsaved work written after each edit; removed on a clean save or quit."""

    file: Path
    path: Path | None  # the roster it belongs to (None: never saved)
    key: str
    roster: RosterFile
    saved_at: float

    def when(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.saved_at))


def recovery_dir() -> Path:
    return home_dir() / "recovery"


def recovery_key(path: Path | None, fallback: str = "untitled") -> str:
    text = str(Path(path).resolve()) if path is not None else f"untitled:{fallback}"
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def recovery_file(key: str) -> Path:
    return recovery_dir() / f"{key}.json"


def write_recovery(key: str, path: Path | None, roster: RosterFile) -> Path:
    target = recovery_file(key)
    target.parent.mkdir(parents=True, exist_ok=True)
    doc = {"path": str(Path(path).resolve()) if path is not None else None, "saved_at": time.time(),
           "roster": dumps_roster(roster)}
    atomic_write(target, json.dumps(doc, indent=1), keep_backup=False)
    return target


def read_recovery(file: Path) -> Recovery | None:
    try:
        doc = json.loads(file.read_text(encoding="utf-8"))
        roster = loads_roster(doc["roster"], str(file))
        path = Path(doc["path"]) if doc.get("path") else None
        return Recovery(file, path, file.stem, roster, float(doc.get("saved_at", 0)))
    except (OSError, ValueError, KeyError, TypeError, RosterkitError):
        return None


def find_recovery(key: str) -> Recovery | None:
    file = recovery_file(key)
    return read_recovery(file) if file.is_file() else None


def all_recoveries() -> list[Recovery]:
    folder = recovery_dir()
    if not folder.is_dir():
        return []
    out = [r for r in (read_recovery(f) for f in sorted(folder.glob("*.json"))) if r is not None]
    return sorted(out, key=lambda r: -r.saved_at)


def drop_recovery(key: str) -> None:
    try:
        recovery_file(key).unlink()
    except OSError:
        pass
