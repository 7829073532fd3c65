"""Writing a file so that it is always either the old or the new version, complete."""

from __future__ import annotations

import errno
import hashlib
import io
import os
import secrets
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Self

try:
    import fcntl
except ImportError:  # no flock on this system: writers are not kept apart
    fcntl = None  # type: ignore[assignment]

# a folder that cannot be fsynced (some file systems refuse): the rename still stands
_NO_DIR_FSYNC = {errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EBADF, errno.EACCES, errno.EPERM, errno.EROFS}


LOCK_WAIT = 10.0  # seconds to wait for another writer in the same folder before giving up
HASH_LIMIT = 16 * 1024 * 1024  # a file larger than this is not read to compare it (twice the largest roster)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a pipe put in a file's place is not waited on


class NotAFileError(OSError):
    """The path names something other than a regular file (a device, a pipe, a socket)."""


class FileChangedError(OSError):
    """The file is not what was read: another program wrote it, or put a symbolic link in its place."""


class LinkRefusedError(OSError):
    """The path is a symbolic link, and this write must not go through one (the player did not name it)."""


def target_of(path: Path | str) -> Path:
    """Where writing ``path`` lands: the file itself, or the file a symbolic link leads to."""
    path = Path(path)
    if not os.path.islink(path):
        return path
    target = Path(os.path.realpath(path))
    if os.path.islink(target):  # a loop of links
        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), str(path))
    return target


def existing_file(path: Path | str) -> os.stat_result | None:
    """The status of the regular file at ``path`` (through links), None when there is none.

    Raises :class:`IsADirectoryError` for a folder and :class:`NotAFileError` for a
    device, a pipe or a socket: what must not be replaced by a file.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISREG(st.st_mode):
        return st
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a folder", str(path))
    raise NotAFileError(errno.EINVAL, f"not a regular file ({kind_of(st)})", str(path))


def kind_of(st: os.stat_result) -> str:
    mode = st.st_mode
    for test, name in ((stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a pipe"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder")):
        if test(mode):
            return name
    return "not a file"


def atomic_write(path: Path | str, data: str | bytes | bytearray | memoryview, keep_backup: bool = True, *,
                 expect: Fingerprint | None = None, follow_links: bool = True) -> Path:
    """Write ``data`` (text as UTF-8) to ``path`` so that the file is always old or new, complete.

    A temporary file in the same folder is written, flushed and fsynced, then renamed
    over the target; the folder is fsynced last. The previous version is kept as
    ``<name>.bak``. Returns the file written; raising means the new version is not
    (or not surely) in place.

    * a symbolic link is written through: its target gets the new version, the link stays;
    * the file keeps its permissions (and, where allowed, its owner); a new file gets
      the permissions the umask gives new files;
    * a path naming a folder, a device, a pipe or a socket is refused with
      :class:`NotAFileError` / :class:`IsADirectoryError` (never replaced by a file);
    * on any failure, an interruption (Ctrl-C) included, no temporary file is left and
      the old file is as it was.

    ``expect``, the file as it was read (:func:`fingerprint`), is compared with the file
    just before it is replaced: a file another program changed since, or a symbolic link
    where a file was read (or a link leading elsewhere), raises :class:`FileChangedError`
    and nothing is written. A file that already holds ``data`` is left as it is, and so is
    its backup (when another writer got there first, or nothing changed, the backup stays
    the file before either). A file gone since is written anew.

    ``follow_links=False`` (a name rosterkit chose, not the player) raises
    :class:`LinkRefusedError` for a symbolic link instead of writing through it.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    path = Path(path)
    # a link is followed only where the player made it: named to be written, or there when the file was read
    follow = follow_links and (expect is None or expect.link is not None)
    target = _landing(path, follow, expect)
    old = existing_file(target)
    folder = target.parent
    made: list[str] = []  # temporary files of ours, removed unless renamed into place
    try:
        tmp, fd = _create(folder, target.name, ".tmp", made, old)
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        # one writer at a time in a folder, so that no other save comes between the check, the backup and the rename
        with _one_writer(folder):
            if _landing(path, follow, expect) != target:
                raise FileChangedError(errno.ESTALE, "a symbolic link was put in its place or changed while "
                                                     "it was being written", str(path))
            now = existing_file(target)
            if expect is not None and now is not None and now.st_size not in (expect.size, len(payload)):
                raise FileChangedError(errno.ESTALE, "another program changed it since it was read", str(path))
            copied = None
            if keep_backup and now is not None:
                copied = _copy_for_backup(target, folder, made, now)
            if expect is not None and now is not None:
                held = copied if copied is not None else _digest_of(target)
                if held == hashlib.sha256(payload).hexdigest():
                    return target  # nothing to change: the backup stays the file as it was before
                if not expect.digest or held != expect.digest:
                    raise FileChangedError(errno.ESTALE, "another program changed it since it was read", str(path))
            if copied is not None:
                os.replace(made[-1], target.with_name(target.name + ".bak"))
                made.pop()
            os.replace(tmp, target)
            made.remove(tmp)
            _fsync_dir(folder)
    finally:
        for name in made:
            try:
                os.unlink(name)
            except OSError:
                pass
    return target


def _landing(path: Path, follow: bool, expect: Fingerprint | None) -> Path:
    """Where writing ``path`` lands now, refusing a link not to be followed."""
    if not os.path.islink(path):
        if expect is not None and expect.link is not None:
            raise FileChangedError(errno.ESTALE, "it was a symbolic link when read and is now a file", str(path))
        return path
    if expect is not None and expect.link is None:
        raise FileChangedError(errno.ELOOP, "it was a file when read and is now a symbolic link; "
                                            "a link that was not there is not written through", str(path))
    if not follow:
        raise LinkRefusedError(errno.ELOOP, "is a symbolic link, which is written through only when named "
                                            "as the file to write", str(path))
    target = target_of(path)
    if expect is not None and str(target) != expect.link:
        raise FileChangedError(errno.ESTALE, "its symbolic link leads elsewhere since it was read", str(path))
    return target


@contextmanager
def _one_writer(folder: Path) -> Iterator[None]:
    """An advisory lock on the folder (``flock``) for the time of a rename; where it cannot be
    had (no flock, a folder that cannot be opened, a file system without locks) none is taken."""
    fd = -1
    if fcntl is not None:
        try:
            fd = os.open(folder, os.O_RDONLY | _CLOEXEC | getattr(os, "O_DIRECTORY", 0))
        except OSError:
            fd = -1
    try:
        if fd >= 0:
            _lock(fd, folder)
        yield
    finally:
        if fd >= 0:
            os.close(fd)  # (closing lets go of the lock)


def _lock(fd: int, folder: Path) -> None:
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise BlockingIOError(errno.EWOULDBLOCK, f"another program has been writing in this folder for "
                                                         f"{LOCK_WAIT:g} seconds", str(folder)) from None
            time.sleep(0.01)
        except OSError:  # a file system without locks
            return


def _digest_of(path: Path) -> str | None:
    now = fingerprint(path, follow=False)
    return now.digest if now is not None else None


def _create(folder: Path, name: str, suffix: str, made: list[str], like: os.stat_result | None) -> tuple[str, int]:
    """A new temporary file next to the target, recorded in ``made`` as soon as it exists.

    It gets the old file's permissions (and owner, when allowed); with no old file, the
    permissions the umask gives new files (the system applies it to the 0o666 asked for).
    """
    for _ in range(100):
        tmp = os.path.join(folder, f".{name}.{secrets.token_hex(4)}{suffix}")
        made.append(tmp)
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0),
                         0o600 if like is not None else 0o666)
        except FileExistsError:
            made.remove(tmp)  # someone else's
            continue
        try:
            if like is not None and hasattr(os, "fchmod"):
                _same_owner(fd, like)
                os.fchmod(fd, stat.S_IMODE(like.st_mode))
        except BaseException:
            os.close(fd)
            raise
        return tmp, fd
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(folder))


def _same_owner(fd: int, like: os.stat_result) -> None:
    st = os.fstat(fd)
    if (st.st_uid, st.st_gid) != (like.st_uid, like.st_gid):
        try:
            os.fchown(fd, like.st_uid, like.st_gid)
        except OSError:  # only root may give a file away; the group may still be ours to set
            try:
                os.fchown(fd, -1, like.st_gid)
            except OSError:
                pass


def _copy_for_backup(path: Path, folder: Path, made: list[str], like: os.stat_result) -> str:
    """A copy of the current file, fsynced, as a temporary file (the last of ``made``); the
    digest of what was copied. A link put in the file's place meanwhile is not followed."""
    src = _open_file(path)
    digest = hashlib.sha256()
    with io.FileIO(src, "rb") as source:
        _tmp, fd = _create(folder, path.name, ".bak.tmp", made, like)
        with os.fdopen(fd, "wb") as fh:
            while chunk := source.read(1 << 20):
                digest.update(chunk)
                fh.write(chunk)
            fh.flush()
            os.fsync(fh.fileno())
    return digest.hexdigest()


def _open_file(path: Path) -> int:
    """The regular file at ``path`` opened for reading, not through a link."""
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | _NOFOLLOW | _CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise FileChangedError(errno.ELOOP, "a symbolic link was put in its place", str(path)) from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise FileChangedError(errno.ESTALE, "something other than a file was put in its place", str(path))
    return fd


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in _NO_DIR_FSYNC:
            raise
    finally:
        os.close(fd)


class Fingerprint(tuple):
    """What a file was when it was read or written: (modification time in ns, size, SHA-256,
    the file a symbolic link at its path led to, or None when the path was the file itself).
    An empty digest: a file too large to read (:data:`HASH_LIMIT`), the same as nothing."""

    __slots__ = ()

    def __new__(cls, mtime_ns: int, size: int, digest: str, link: str | None = None) -> Self:
        return super().__new__(cls, (mtime_ns, size, digest, link))

    @property
    def size(self) -> int:
        return self[1]

    @property
    def digest(self) -> str:
        return self[2]

    @property
    def link(self) -> str | None:
        return self[3]


def fingerprint(path: Path | str, follow: bool = True) -> Fingerprint | None:
    """The file's fingerprint now (through links unless ``follow`` is False); None when there
    is no regular file there."""
    try:
        link = str(target_of(path)) if os.path.islink(path) else None
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | _CLOEXEC | (0 if follow else _NOFOLLOW))
        with io.FileIO(fd, "rb") as fh:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                return None
            digest = hashlib.file_digest(fh, "sha256").hexdigest() if st.st_size <= HASH_LIMIT else ""
    except OSError:
        return None
    return Fingerprint(st.st_mtime_ns, st.st_size, digest, link)


def changed_since(path: Path | str, before: Fingerprint | None) -> bool:
    """Whether the file differs from what ``before`` recorded: its content, or whether its
    path is a symbolic link (and where it leads).

    The time and size are compared first; the content is read only when they differ (a file
    touched but not changed is not a change). A file that is gone is not a change either:
    writing it again loses nothing.
    """
    if before is None:
        return False
    try:
        st = os.stat(path)
        link = str(target_of(path)) if os.path.islink(path) else None
    except OSError:
        return False
    if link != before.link:
        return True
    if (st.st_mtime_ns, st.st_size) == (before[0], before[1]):
        return False
    now = fingerprint(path)
    return now is not None and (now.digest != before.digest or not now.digest)
