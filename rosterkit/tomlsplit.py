"""Parsing a big roster's TOML on two processor cores at once.

The standard library's TOML parser is written in Python and takes 0.6 s for a 10,000-unit
roster. A roster is mostly a run of ``[[units]]`` tables, and a ``[[units]]`` header line
starts a table whose keys all come after it, so the text from such a line to the end is a
document of its own. :func:`parse_in_halves` cuts the text at the ``[[units]]`` header nearest
the middle, parses the second half in a forked child process while this process parses the
first, and joins the two.

The result is used only when it must equal parsing the whole text: both halves parse, every
``[[units]]`` header line made one unit in each half, and the second half defines no table the
first half has. Anything else (a broken file, a header line inside a multi-line string, tables
split across the cut, a date the child cannot send back) returns None and the caller parses the
whole text as usual, which also gives the usual error message with the right line.

Used on Linux only (forking is the cheap part), with two or more cores available to the
process, no other threads running, and texts of :data:`MIN_CHARS` or more.
"""

from __future__ import annotations

import marshal
import os
import re
import sys
import threading
from collections.abc import Callable

MIN_CHARS = 512 * 1024
_HEADER = re.compile(r"^\[\[units\]\][ \t]*\r?$", re.MULTILINE)


def available() -> bool:
    if sys.platform != "linux" or not hasattr(os, "fork") or threading.active_count() != 1:
        return False
    try:
        return len(os.sched_getaffinity(0)) >= 2
    except (AttributeError, OSError):
        return (os.cpu_count() or 1) >= 2


def parse_in_halves(text: str, parse: Callable[[str], dict]) -> dict | None:
    """``parse(text)`` computed as two halves at once, or None when that cannot be done exactly."""
    if len(text) < MIN_CHARS or not available():
        return None
    cut = _HEADER.search(text, len(text) // 2)
    if cut is None or cut.start() == 0:
        return None
    first, second = text[: cut.start()], text[cut.start():]
    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid == 0:  # the child: parse the second half, send it back, and leave at once
        status = 1
        try:
            os.close(read_end)
            payload = marshal.dumps(parse(second))
            with os.fdopen(write_end, "wb") as fh:
                fh.write(payload)
            status = 0
        except BaseException:  # noqa: BLE001 - any failure means: parse the whole text instead
            pass
        finally:
            os._exit(status)
    os.close(write_end)
    head: dict | None = None
    try:
        try:
            head = parse(first)
        except Exception:  # noqa: BLE001 - the whole text is parsed again for the message
            head = None
        with os.fdopen(read_end, "rb") as fh:
            blob = fh.read()
    finally:
        _, status = os.waitpid(pid, 0)
    if head is None or status != 0 or not blob:
        return None
    try:
        tail = marshal.loads(blob)
    except (ValueError, EOFError, TypeError):
        return None
    return _join(head, tail, _HEADER.findall(first), _HEADER.findall(second))


def _join(head: dict, tail: dict, head_headers: list, tail_headers: list) -> dict | None:
    units, more = head.get("units"), tail.get("units")
    if not isinstance(units, list) or not isinstance(more, list):
        return None
    if len(units) != len(head_headers) or len(more) != len(tail_headers) or not units:
        return None
    if any(key in head for key in tail if key != "units"):
        return None
    units.extend(more)
    for key, value in tail.items():
        if key != "units":
            head[key] = value
    return head
