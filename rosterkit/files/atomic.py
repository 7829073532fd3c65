"""Writing a file so that it is always either the old or the new version, complete."""

from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path

# a folder that cannot be fsynced (some file systems refuse): the rename still stands
_NO_DIR_FSYNC = {errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EBADF, errno.EACCES, errno.EPERM, errno.EROFS}


class NotAFileError(OSError):
    """The path names something other than a regular file (a device, a pipe, a socket)."""


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


def atomic_write(path: Path | str, data: str | bytes | bytearray | memoryview, keep_backup: bool = True) -> Path:
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
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    old = existing_file(path)
    target = target_of(path)
    folder = target.parent
    made: list[str] = []  # temporary files of ours, removed unless renamed into place
    try:
        tmp, fd = _create(folder, target.name, ".tmp", made, old)
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        if keep_backup and old is not None:
            backup = target.with_name(target.name + ".bak")
            _copy_for_backup(target, folder, made, old)
            os.replace(made[-1], backup)
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


def _copy_for_backup(path: Path, folder: Path, made: list[str], like: os.stat_result) -> None:
    """A copy of the current file, fsynced, as a temporary file (the last of ``made``)."""
    _tmp, fd = _create(folder, path.name, ".bak.tmp", made, like)
    with os.fdopen(fd, "wb") as fh:
        fh.write(path.read_bytes())
        fh.flush()
        os.fsync(fh.fileno())


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
    """What a file was when it was read or written: (modification time in ns, size, SHA-256)."""

    __slots__ = ()

    def __new__(cls, mtime_ns: int, size: int, digest: str) -> Fingerprint:
        return super().__new__(cls, (mtime_ns, size, digest))

    @property
    def digest(self) -> str:
        return self[2]


def fingerprint(path: Path | str) -> Fingerprint | None:
    """The file's fingerprint now (through links); None when there is no regular file there."""
    import hashlib

    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            return None
        with open(path, "rb") as fh:
            digest = hashlib.file_digest(fh, "sha256").hexdigest()
    except OSError:
        return None
    return Fingerprint(st.st_mtime_ns, st.st_size, digest)


def changed_since(path: Path | str, before: Fingerprint | None) -> bool:
    """Whether the file's content differs from what ``before`` recorded.

    The time and size are compared first; the content is read only when they differ (a file
    touched but not changed is not a change). A file that is gone is not a change either:
    writing it again loses nothing.
    """
    if before is None:
        return False
    try:
        st = os.stat(path)
    except OSError:
        return False
    if (st.st_mtime_ns, st.st_size) == (before[0], before[1]):
        return False
    now = fingerprint(path)
    return now is not None and now.digest != before.digest
