"""The `rosterkit` command: the arguments parsed by the table's parser, the command run, its
errors turned into messages and exit codes, and output that must arrive whole."""

from __future__ import annotations

import errno
import io
import os
import sys

from .commands import NAMES, build_parser, find
from .output import EXIT_ERRORS, EXIT_OK, EXIT_UNREADABLE, Out, print_problems

# the output could not be written: a full disk or quota, an I/O error, a file grown too large
_WRITE_ERRORS = {errno.ENOSPC, errno.EIO, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}


def _internal_error(exc: Exception) -> int:
    if os.environ.get("ROSTERKIT_DEBUG"):
        raise exc
    Out(sys.stderr).line(("internal error: ", "bold red"),
                         f"{type(exc).__name__}: {exc} (set ROSTERKIT_DEBUG=1 for details)")
    return 3


class _WholeWrites(io.RawIOBase):
    """Standard output where a write is written whole or fails with the reason.

    A full disk takes part of a write and refuses the rest; Python's own unbuffered
    standard output (``python -u``, ``PYTHONUNBUFFERED``) drops the rest without a word.
    Here the rest is written again, so the refusal comes back as an error (ENOSPC).
    """

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd
        self.failed: OSError | None = None  # the first write that failed, even if its caller let it pass

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return os.isatty(self._fd)

    def write(self, data) -> int:
        view = memoryview(data).cast("B")
        done = 0
        while done < len(view):
            try:
                done += os.write(self._fd, view[done:])
            except BlockingIOError:  # a non-blocking pipe that is full: wait until it takes more
                import select

                select.select([], [self._fd], [])
            except OSError as exc:
                if self.failed is None:
                    self.failed = exc
                raise
        return done


def _whole_writes_to_stdout() -> _WholeWrites | None:
    """Output to a file or a pipe goes through :class:`_WholeWrites` (a terminal is left as it is)."""
    stream = sys.stdout
    try:
        fd = stream.fileno()
        if os.isatty(fd):
            return None
    except (AttributeError, ValueError, OSError):
        return None
    raw = _WholeWrites(fd)
    unbuffered = isinstance(getattr(stream, "buffer", None), io.RawIOBase)
    sys.stdout = io.TextIOWrapper(raw if unbuffered else io.BufferedWriter(raw), encoding=stream.encoding,
                                  errors=stream.errors, newline="\n", line_buffering=stream.line_buffering,
                                  write_through=unbuffered)
    return raw


_output_failed = False  # "cannot write the output" was said already


def _output_error(exc: OSError) -> None:
    """The one line saying the output could not be written (said once)."""
    global _output_failed
    if _output_failed:
        return
    _output_failed = True
    try:
        Out(sys.stderr).line(("error: ", "bold red"), f"cannot write the output: {exc.strerror or exc}")
    except OSError:
        pass


def run() -> None:
    """The `rosterkit` command.

    What it prints must arrive whole: output that cannot be written (a full disk, say)
    is an error, exit code 2, never a cut file with exit code 0.
    """
    raw = _whole_writes_to_stdout()
    try:
        code = main()
    except SystemExit as exc:  # --help, --version, a usage error: their output is checked too
        if exc.code is not None and not isinstance(exc.code, int):
            raise
        code = exc.code or 0
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (`| head`): not an error
        # nothing more can reach the reader; keep the interpreter from complaining at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except OSError as exc:  # a full disk, say: the output is incomplete
        _output_error(exc)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if raw is not None and raw.failed is not None and not isinstance(raw.failed, BrokenPipeError):
        _output_error(raw.failed)  # a failed write that was let pass (argparse's help, say)
    if _output_failed and code in (EXIT_OK, EXIT_ERRORS):
        code = EXIT_UNREADABLE
    raise SystemExit(code)


def _installed_ids() -> str:
    from ..files.rulesets import Registry

    return ", ".join(Registry().ids())


def _first_word(argv: list[str]) -> str | None:
    """The first word that is neither an option nor the folder given to ``--rulesets``."""
    value_next = False
    for a in argv:
        if value_next:
            value_next = False
        elif a.startswith("--r") and "--rulesets".startswith(a):  # (argparse takes a prefix of an option)
            value_next = True
        elif not a.startswith("-"):
            return a
    return None


def _unknown_command(word: str) -> str | None:
    """Why ``word``, first on a line without a command, is neither a command nor a roster to open.

    A roster to open is a file that exists or a name ending in .toml (a new roster); any other
    word is a command mistyped, or one this version does not have."""
    from difflib import get_close_matches

    if os.path.exists(word) or word.endswith(".toml"):
        return None
    close = get_close_matches(word, sorted(NAMES), n=1, cutoff=0.7)
    if close:
        return f"unknown command '{word}'; did you mean 'rosterkit {close[0]}'? (rosterkit --help lists them)"
    return (f"unknown command '{word}' (rosterkit --help lists them); a roster to open is a file that exists "
            "or a name ending in .toml")


def main(argv: list[str] | None = None) -> int:
    global _output_failed
    _output_failed = False
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(_installed_ids() if "new" in argv and ("-h" in argv or "--help" in argv) else "")
    # `rosterkit` alone, or `rosterkit ROSTER`, opens the terminal interface.
    if not any(a in NAMES or a in ("-h", "--help", "--version") for a in argv):
        word = _first_word(argv)
        unknown = _unknown_command(word) if word is not None else None
        if unknown:
            Out(sys.stderr).line(("error: ", "bold red"), unknown)
            return EXIT_UNREADABLE
        argv = ["tui", *argv]
    args = parser.parse_args(argv)
    from ..errors import Problem, RosterkitError
    from ..files.rulesets import Registry

    registry = Registry(getattr(args, "rulesets", []))
    try:
        return find(args.command).function()(args, registry)
    except RosterkitError as exc:
        print_problems(exc)
        return EXIT_UNREADABLE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except OSError as exc:
        if exc.errno not in _WRITE_ERRORS and exc.filename is not None:  # a file named that cannot be used
            print_problems(RosterkitError(Problem(f"cannot use the file: {exc.strerror or exc}",
                                                  file=str(exc.filename))))
            return EXIT_UNREADABLE
        if exc.errno not in _WRITE_ERRORS:  # not the output failing: one of ours (below)
            return _internal_error(exc)
        _output_error(exc)
        return EXIT_UNREADABLE
    except Exception as exc:  # a bug of ours: one line, no traceback unless asked for
        return _internal_error(exc)
