"""Reading a file the player named: a regular file only, and no more than a bound.

A path can name a pipe (reading it waits for a writer that may never come), a device such as
``/dev/zero`` (it never ends), a folder or a huge file. The file is opened without waiting
(``O_NONBLOCK``: opening a pipe returns at once), checked on the open descriptor (what was
checked is what is read, even if the name is swapped meanwhile), and read up to the bound.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..errors import Problem, UnreadableError

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def megabytes(n: int) -> str:
    return f"{n // (1024 * 1024):,} MB"


def read_regular(path: Path | str, limit: int, *, kind: str, key: str | None = None, prefix: str = "") -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, or :class:`UnreadableError`
    naming the file (and ``key``, the option that named it). ``kind`` says what the file
    should be ("a .toml file"); ``prefix`` starts each message ("cannot read the font: ")."""
    name = str(path)

    def refused(message: str) -> UnreadableError:
        return UnreadableError(Problem(prefix + message, file=name, key=key))

    def kind_of(info: os.stat_result) -> None:
        if stat.S_ISDIR(info.st_mode):
            raise refused("is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise refused(f"is not a regular file (a pipe, a device or a socket); give the path of {kind}")
        if info.st_size > limit:
            raise refused(f"file too large ({megabytes(max(info.st_size, limit + 1))}; at most {megabytes(limit)})")

    try:
        kind_of(os.stat(path))  # a device is refused before it is opened at all
        fd = os.open(path, _FLAGS)
        try:
            kind_of(os.fstat(fd))  # the file opened is the one checked
            chunks, size = [], 0
            while size <= limit:
                chunk = os.read(fd, min(1 << 20, limit + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
        finally:
            os.close(fd)
    except FileNotFoundError:
        raise refused("no such file") from None
    except PermissionError:
        raise refused("permission denied: cannot read the file") from None
    except OSError as exc:
        raise refused(f"cannot read: {exc.strerror or exc}") from None
    if size > limit:  # it grew while being read (or says it is empty, as /proc files do)
        raise refused(f"file too large (more than {megabytes(limit)})")
    return b"".join(chunks)
