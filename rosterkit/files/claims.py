"""Claims that last as long as the process holding them: an operating-system file lock.

A window of the interface claims each roster it has open by locking a small file (with a
record of who holds it: the process id and the roster's path). The lock is the system's
(``flock``): it is let go when the file is closed, and so when the process ends in any way,
a crash or a ``kill -9`` included. Another window asks :func:`held` to tell a live window's
files from those a dead one left behind. Where the system has no ``flock``, the process id in
the record is checked instead.
"""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

try:
    import fcntl
except ImportError:  # no flock on this system: the record's process id is checked instead
    fcntl = None  # type: ignore[assignment]


class Claim:
    """A lock file held by this process until :meth:`release` (or the process's end).

    Raises :class:`BlockingIOError` when another holder has the file locked.
    """

    def __init__(self, path: Path | str, record: dict) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            elif _pid_alive(_record_pid(self.path)):
                raise BlockingIOError(errno.EWOULDBLOCK, "held by a live process", str(self.path))
            os.ftruncate(fd, 0)
            os.write(fd, json.dumps({**record, "pid": os.getpid()}).encode("utf-8"))
        except BaseException:
            os.close(fd)
            raise
        self._fd: int | None = fd

    @property
    def active(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Remove the lock file and let the lock go (removed first: no one else can be holding it)."""
        if self._fd is None:
            return
        try:
            os.unlink(self.path)
        except OSError:
            pass
        os.close(self._fd)
        self._fd = None


def held(path: Path | str) -> bool:
    """Whether a live process holds the claim at ``path`` (this one included)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False
    try:
        if fcntl is None:
            return _pid_alive(_record_pid(Path(path)))
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        except OSError:
            return False
        return False
    finally:
        os.close(fd)  # (closing lets go of the lock just taken)


def record(path: Path | str) -> dict:
    """What the holder wrote in the claim (empty when it cannot be read)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def remove_stale(path: Path | str) -> bool:
    """Remove a claim no live process holds; False (and left as it is) when one does."""
    try:
        claim = Claim(path, {})
    except (BlockingIOError, OSError):
        return not Path(path).exists()
    claim.release()
    return True


def _record_pid(path: Path) -> int | None:
    pid = record(path).get("pid")
    return pid if isinstance(pid, int) else None


def _pid_alive(pid: int | None) -> bool:
    if pid is None or pid <= 0:
        return False
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's live process
    except OSError:
        return False
    return True
