"""Unsaved work kept in the player's folder, and each window's claim on the roster it has open.

The folder is ``$ROSTERKIT_HOME`` when set, else ``$XDG_CONFIG_HOME/rosterkit``, else
``~/.config/rosterkit`` (the same rule as the rulesets folder).
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

from ..engine.roster import RosterFile
from ..errors import RosterkitError
from ..files.atomic import atomic_write
from ..files.claims import Claim, held, record, remove_stale
from ..files.paths import home_dir
from ..files.rosters import dumps_roster, loads_roster

# ---------------------------------------------------------------- crash recovery
#
# Each window (a running rosterkit) keeps the unsaved work of the roster it has open in a
# file of its own, ``<key>.<window>.json``, and claims ``<key>.<window>.lock`` for as long as
# the roster is open (an operating-system lock, let go when the process ends however it
# ends). Work whose claim no live process holds was left by a crash: it is offered. Work of a
# live window is never offered, restored or deleted by another window. ``<key>.json``
# (no window) is work kept aside, such as the edits set aside when the file's own version
# was loaded; it is offered like a crashed window's.


@dataclass(frozen=True)
class Recovery:
    """Unsaved work written after each edit; removed on a clean save or quit."""

    file: Path
    path: Path | None  # the roster it belongs to (None: never saved)
    key: str
    roster: RosterFile
    saved_at: float
    window: str | None = None  # the window that wrote it (None: kept aside, no window's)

    def when(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.saved_at))


def recovery_dir() -> Path:
    return home_dir() / "recovery"


def recovery_key(path: Path | None, fallback: str = "untitled") -> str:
    text = str(Path(path).resolve()) if path is not None else f"untitled:{fallback}"
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def new_window() -> str:
    """A name for this window, different from every other window's (live or not)."""
    return f"{os.getpid()}-{secrets.token_hex(4)}"


def recovery_file(key: str, window: str | None = None) -> Path:
    return recovery_dir() / (f"{key}.{window}.json" if window else f"{key}.json")


def claim_file(key: str, window: str) -> Path:
    return recovery_dir() / f"{key}.{window}.lock"


def write_recovery(key: str, path: Path | None, roster: RosterFile, window: str | None = None) -> Path:
    """Write unsaved work: the window's own file, or (no window) work kept aside."""
    target = recovery_file(key, window)
    target.parent.mkdir(parents=True, exist_ok=True)
    doc = {"path": str(Path(path).resolve()) if path is not None else None, "saved_at": time.time(),
           "window": window, "roster": dumps_roster(roster)}
    atomic_write(target, json.dumps(doc, indent=1), keep_backup=False)
    return target


def keep_aside(key: str, path: Path | None, roster: RosterFile) -> Path:
    """Keep work no window holds any more (offered when the roster is opened, and on the start
    screen), in a file of its own: never over other work kept aside."""
    return write_recovery(f"{key}.{time.strftime('%Y%m%d%H%M%S')}-{secrets.token_hex(2)}", path, roster)


def read_recovery(file: Path) -> Recovery | None:
    try:
        doc = json.loads(file.read_text(encoding="utf-8"))
        roster = loads_roster(doc["roster"], str(file))
        path = Path(doc["path"]) if doc.get("path") else None
        window = doc.get("window") if isinstance(doc.get("window"), str) else None
        key = file.stem.split(".")[0]
        return Recovery(file, path, key, roster, float(doc.get("saved_at", 0)), window)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RosterkitError):
        return None


def window_alive(key: str, window: str | None) -> bool:
    """Whether the window that wrote a recovery still has the roster open."""
    return window is not None and held(claim_file(key, window))


def _orphaned(found: list[Recovery], own: str | None) -> list[Recovery]:
    out = [r for r in found if r.window != own or own is None]
    out = [r for r in out if not window_alive(r.key, r.window)]
    return sorted(out, key=lambda r: -r.saved_at)


def find_recoveries(key: str, own: str | None = None) -> list[Recovery]:
    """The work left for a roster by windows that are gone (not ``own``), newest first."""
    files = _listing(f"{key}.*json")
    return _orphaned([r for r in map(read_recovery, files) if r is not None and r.key == key], own)


def find_recovery(key: str, own: str | None = None) -> Recovery | None:
    """The newest work left for a roster by a window that is gone."""
    found = find_recoveries(key, own)
    return found[0] if found else None


def all_recoveries(own: str | None = None) -> list[Recovery]:
    """Every work left by windows that are gone, newest first (a live window's is its own)."""
    return _orphaned([r for r in map(read_recovery, _listing("*.json")) if r is not None], own)


def _listing(pattern: str) -> list[Path]:
    """The recovery folder's files matching ``pattern``, sorted; none when the folder cannot be
    read (the player is told when autosave cannot write there)."""
    folder = recovery_dir()
    try:
        return sorted(folder.glob(pattern)) if folder.is_dir() else []
    except OSError:
        return []


def drop(found: Recovery) -> bool:
    """Delete recovered work, unless the window that wrote it is alive (then False)."""
    if found.window is not None and not remove_stale(claim_file(found.key, found.window)):
        return False
    try:
        found.file.unlink()
    except OSError:
        pass
    return True


def drop_recovery(key: str, window: str | None = None) -> None:
    """Delete a window's own work (``window``), or work kept aside under ``key``."""
    try:
        recovery_file(key, window).unlink()
    except OSError:
        pass


def others_open(key: str, own: str | None) -> list[int]:
    """The process ids of the other live windows that have this roster open."""
    pids = []
    for lock in _listing(f"{key}.*.lock"):
        window = lock.name[len(key) + 1:-len(".lock")]
        if window == own or not held(lock):
            continue
        pid = record(lock).get("pid")
        pids.append(pid if isinstance(pid, int) else 0)
    return pids


class RecoverySlot:
    """Where one window keeps the unsaved work of the roster it has open, and its claim on it."""

    def __init__(self, key: str, window: str) -> None:
        self.key = key
        self.window = window
        self._claim: Claim | None = None

    @property
    def file(self) -> Path:
        return recovery_file(self.key, self.window)

    @property
    def active(self) -> bool:
        """Whether this window holds its claim on the roster."""
        return self._claim is not None

    def claim(self, path: Path | None) -> None:
        """Hold the roster for this window (other windows see it open; best effort)."""
        if self._claim is not None:
            return
        try:
            self._claim = Claim(claim_file(self.key, self.window),
                                {"window": self.window, "path": str(path) if path is not None else None})
        except OSError:
            self._claim = None

    def release(self) -> None:
        if self._claim is not None:
            self._claim.release()
            self._claim = None

    def write(self, path: Path | None, roster: RosterFile) -> Path:
        return write_recovery(self.key, path, roster, self.window)

    def drop(self) -> None:
        drop_recovery(self.key, self.window)
