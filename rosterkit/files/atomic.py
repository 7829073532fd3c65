"""Writing a file so that it is always either the old or the new version, complete."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


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
