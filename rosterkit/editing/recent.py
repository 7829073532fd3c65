"""Recently opened rosters (in the player's folder) and the bundled sample armies."""

from __future__ import annotations

import json
from pathlib import Path

from ..files.atomic import atomic_write
from ..files.paths import home_dir

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
