"""Parsed large roster files, kept by content, so that reading one again skips the TOML parser.

The standard library's TOML parser is written in Python: about 60 microseconds a unit, 0.6 s
for a 10,000-unit roster, a third of validating it. The parsed data of a roster file of 64 KB or
more is kept in the player's cache folder (:func:`rosterkit.paths.cache_dir`), in a file named
by a hash of the file's text and of the Python version (the data is stored in Python's marshal
format, which belongs to the version). Reading the same text again loads the data from there
(30 ms for 10,000 units). A changed file has another hash and is parsed afresh; an entry that
is damaged, cut short or unreadable is ignored and the file is parsed afresh, so the cache can
make reading faster but never different. The folder keeps the :data:`MAX_ENTRIES` entries
used last. ``ROSTERKIT_NO_CACHE=1`` turns the cache off.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
import tempfile
import time
from pathlib import Path

from .paths import cache_dir

MIN_BYTES = 64 * 1024
MAX_ENTRIES = 16
MAGIC = b"rosterkit-parsed-1\n"
_DIGEST = 32
_VERSION = f"{sys.implementation.cache_tag}-{marshal.version}".encode()


def enabled() -> bool:
    return not os.environ.get("ROSTERKIT_NO_CACHE")


def _folder() -> Path:
    return cache_dir() / "parsed"


def _key(data: bytes) -> str:
    return hashlib.blake2b(_VERSION + b"\0" + data, digest_size=20).hexdigest()


def get(text: str) -> tuple[str | None, dict | None]:
    """(key, data): the cached parse of ``text``, or None; key is None when the text is not cached."""
    if not enabled() or len(text) < MIN_BYTES:
        return None, None
    key = _key(text.encode("utf-8", "surrogatepass"))
    path = _folder() / key
    try:
        blob = path.read_bytes()
    except OSError:
        return key, None
    head = len(MAGIC) + _DIGEST
    if not blob.startswith(MAGIC) or len(blob) < head:
        return key, None
    payload = blob[head:]
    if hashlib.blake2b(payload, digest_size=_DIGEST).digest() != blob[len(MAGIC):head]:
        return key, None
    try:
        data = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return key, None
    if not isinstance(data, dict):
        return key, None
    try:
        os.utime(path)  # used last: kept longest
    except OSError:
        pass
    return key, data


def put(key: str | None, data: dict) -> None:
    """Keep ``data`` as the parse of the text whose key :func:`get` gave; never fails."""
    if key is None:
        return
    try:
        payload = marshal.dumps(data)
    except ValueError:  # dates and times, which marshal cannot hold: such files are parsed each time
        return
    folder = _folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(MAGIC + hashlib.blake2b(payload, digest_size=_DIGEST).digest() + payload)
            os.replace(tmp, folder / key)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        _prune(folder)
    except OSError:
        pass  # a read-only or full disk: reading works, only without the cache


def _prune(folder: Path) -> None:
    """Keep the entries used last; remove temporary files left by a process that was stopped."""
    entries = []
    now = time.time()
    for p in folder.iterdir():
        try:
            mtime = p.stat().st_mtime
            if p.name.startswith("."):
                if p.name.endswith(".tmp") and now - mtime > 3600:
                    p.unlink()
                continue
        except OSError:
            continue
        entries.append((mtime, p))
    entries.sort(reverse=True)
    for _, p in entries[MAX_ENTRIES:]:
        try:
            p.unlink()
        except OSError:
            pass
