"""Reading TOML files with messages that name the file, the key and the line.

TOML is parsed with rtoml (a compiled parser in Rust), about five times as fast as tomli's
compiled wheel on a 20-unit list (0.14 against 0.71 ms). A file rtoml refuses is read again
with tomli, which words the problem as the standard library's tomllib does, with its line and
column, and reads the little rtoml cannot (integers wider than 64 bits, deeper nesting); the
file's checks after parsing then refuse those.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import rtoml
import tomli
from pydantic import ValidationError

from ..errors import Problem, RosterkitError, UnreadableError
from ..words import count_of
from .bounded import read_regular

MAX_FILE_BYTES = 8 * 1024 * 1024  # a real army is a few KB; 10,000 units are under 3 MB
MAX_TABLES = 60_000  # table headers ([units], [[units.members]], ...) in one file
MAX_PROBLEMS = 50  # problems reported from one file; the rest are counted
MAX_KEY_SHOWN = 60  # characters of a key quoted in a message


def read_text(path: Path) -> str:
    """Read a UTF-8 text file, or raise a one-line :class:`RosterkitError`.

    Only regular files are read (a pipe or a device could block or never end), and no more
    than :data:`MAX_FILE_BYTES` of them (:func:`read_regular`).
    """
    name = str(path)
    data = read_regular(path, MAX_FILE_BYTES, kind="a .toml file")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise UnreadableError(
            Problem(f"not UTF-8 text (byte {exc.start}); save the file as UTF-8", file=name, line=line)
        ) from None


def count_lines(pattern: re.Pattern, text: str, stop: int | None = None) -> int:
    """How many matches of ``pattern`` the text has, counting no further than ``stop``."""
    count = 0
    for _ in pattern.finditer(text):
        count += 1
        if stop is not None and count >= stop:
            break
    return count


def check_tables(text: str, file: str) -> None:
    """Refuse a file of absurdly many tables before the parser spends time and memory on them."""
    # a header takes a line of two characters at least ("[" and its line end): a shorter
    # text cannot hold too many, and is not searched
    if len(text) > 2 * MAX_TABLES and count_lines(_TABLE_HEADER, text, MAX_TABLES + 1) > MAX_TABLES:
        raise RosterkitError(Problem(f"more than {MAX_TABLES:,} tables; a file may have at most {MAX_TABLES:,}",
                                     file=file))


_TABLE_HEADER = re.compile(r"^[ \t]*\[", re.MULTILINE)


def check_inline_tables(data: dict, text: str, file: str) -> None:
    """Tables written inline (``members = [{ count = 1 }, ...]``) count against :data:`MAX_TABLES` with
    those under headers: the parsed data is counted when the text could hold too many."""
    if len(text) <= 2 * MAX_TABLES or text.count("{") + count_lines(_TABLE_HEADER, text, MAX_TABLES + 1) <= MAX_TABLES:
        return
    tables = -1  # the document itself is not counted
    stack: list = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            tables += 1
            if tables > MAX_TABLES:
                raise RosterkitError(Problem(
                    f"more than {MAX_TABLES:,} tables (with those written inline, {{ ... }}); a file may have "
                    f"at most {MAX_TABLES:,}", file=file))
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)


def parse_toml(text: str, file: str) -> dict:
    check_tables(text, file)
    data = _parse(text, file)
    check_inline_tables(data, text, file)
    return data


def _parse(text: str, file: str) -> dict:
    try:
        return rtoml.loads(text)
    except ValueError:  # rtoml's TomlParsingError: tomli reads it again, to read it or to word why not
        pass
    try:
        return tomli.loads(text)
    except tomli.TOMLDecodeError as exc:
        msg = str(exc)
        m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
        line = int(m.group(1)) if m else None
        column = int(m.group(2)) - 1 if m else None
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", msg)
        src = text.splitlines()[line - 1] if line and line <= len(text.splitlines()) else None
        raise RosterkitError(
            Problem(f"not valid TOML: {msg}", file=file, line=line, column=column if src is not None else None,
                    source=src)
        ) from None
    except RecursionError:
        raise RosterkitError(Problem("not valid TOML: nested too deeply", file=file)) from None
    except ValueError:  # an integer of thousands of digits: Python refuses to read it
        raise RosterkitError(Problem("not valid TOML: a number too long to read (thousands of digits)",
                                     file=file)) from None


def load_toml(path: Path) -> tuple[dict, str]:
    text = read_text(path)
    return parse_toml(text, str(path)), text


def key_path(loc: tuple) -> str:
    """A key as a player writes it (units[2].stats.move); an overlong key part is cut short."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            text = str(part)
            if len(text) > MAX_KEY_SHOWN:
                text = text[:MAX_KEY_SHOWN - 20] + f"...({len(text):,} characters)"
            out += ("." if out else "") + text
    return out


_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?")


@dataclass(frozen=True)
class _LineIndex:
    lines: list[str]
    arrays: dict[str, list[int]]  # array-of-tables name -> the lines of its headers, in order
    headers: list[int]  # the lines of every table header, in order
    names: dict[int, str]  # header line -> table name


@lru_cache(maxsize=8)
def _line_index(text: str) -> _LineIndex:
    """The file's lines and where its table headers are, made once per text."""
    lines = text.splitlines()
    arrays: dict[str, list[int]] = {}
    headers: list[int] = []
    names: dict[int, str] = {}
    for n, line in enumerate(lines):
        if line[:1] == "[" or line.lstrip()[:1] == "[":
            m = _HEADER.match(line)
            if m:
                headers.append(n)
                names[n] = m.group(2)
                if m.group(1) == "[[":
                    arrays.setdefault(m.group(2), []).append(n)
    return _LineIndex(lines, arrays, headers, names)


@lru_cache(maxsize=512)
def _key_pattern(key: str) -> re.Pattern:
    """`key =` (bare or quoted) at the start of a line or inside an inline table."""
    k = re.escape(key)
    return re.compile(r'(^|[{,\s])("' + k + r'"|' + k + r")\s*=")


def find_line(text: str, loc: tuple) -> int | None:
    """Best-effort line of the key at ``loc`` (the parser does not report key lines).

    Array-of-tables headers are indexed once per text, so finding the line of a
    key in the 5,000th unit costs no more than in the first.
    """
    if not loc:
        return None  # the whole file (an army-wide finding): no line
    index = _line_index(text)
    lines = index.lines
    pos = 0
    found: int | None = None
    prefix: list[str] = []
    parts = list(loc)
    if any(isinstance(p, str) and len(p) > 200 for p in parts):
        return None  # no key that long is worth searching the file for
    i = 0
    while i < len(parts):
        part = parts[i]
        if isinstance(part, int):
            i += 1
            continue
        prefix.append(part)
        nxt = parts[i + 1] if i + 1 < len(parts) else None
        dotted = ".".join(prefix)
        if isinstance(nxt, int):
            starts = index.arrays.get(dotted, [])
            k = bisect_left(starts, pos) + nxt
            if k >= len(starts):
                break
            pos = starts[k]
            found = pos + 1
            i += 2
            continue
        # a key of the current table: between its header (or the top) and the next header
        start = 0 if found is None else pos + 1
        k = bisect_left(index.headers, start)
        end = index.headers[k] if k < len(index.headers) else len(lines)
        hit = None
        pattern = None
        for n in range(start, end):
            if part in lines[n]:
                pattern = pattern or _key_pattern(part)
                if pattern.search(lines[n]):
                    hit = n
                    break
        if hit is None:
            # else a sub-table of that name: at the top level any header, inside a table the next one
            candidates = index.headers[k:] if found is None else index.headers[k:k + 1]
            hit = next((n for n in candidates if index.names[n] == dotted), None)
        if hit is None:
            break
        pos, found = hit, hit + 1
        i += 1
    return found


def _describe_input(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


_UNION_TAGS = {"int": "a whole number", "float": "a number", "str": "text", "bool": "true or false",
               "list[str]": "a list of text", "CostFormula": "a table of terms"}


def _strip_tags(loc: tuple) -> tuple:
    return tuple(p for p in loc if not (isinstance(p, str) and (
        p in _UNION_TAGS or ("[" in p and p.split("[")[0] in {"function-after", "function-before", "function-wrap",
                                                               "union", "list", "dict"}))))


def validation_problems(exc: ValidationError, file: str, text: str | None) -> list[Problem]:
    """Turn pydantic's errors into problems that name file, key and line.

    A value that matches none of a union's kinds gives one problem listing them
    ("expected a whole number or a number"), not one per kind.
    """
    errors = exc.errors(include_url=False)
    if len(errors) > MAX_PROBLEMS:  # thousands of unknown keys: the first ones say what is wrong
        more = len(errors) - MAX_PROBLEMS
        return validation_problems_of(errors[:MAX_PROBLEMS], file, text) + [
            Problem(f"and {count_of(more, 'more problem')} (the first {MAX_PROBLEMS} are shown)", file=file)]
    return validation_problems_of(errors, file, text)


def validation_problems_of(errors: list, file: str, text: str | None) -> list[Problem]:
    problems = []
    merged: dict[tuple, list[str]] = {}
    for err in errors:
        raw = tuple(err["loc"])
        if raw and isinstance(raw[-1], str) and raw[-1] in _UNION_TAGS and err["type"] != "extra_forbidden":
            merged.setdefault(_strip_tags(raw), []).append(_UNION_TAGS[raw[-1]])
    done: set[tuple] = set()
    for err in errors:
        loc = _strip_tags(tuple(err["loc"]))
        if loc in merged:
            if loc in done:
                continue
            done.add(loc)
            kinds = list(dict.fromkeys(merged[loc]))
            if "a whole number" in kinds and "a number" in kinds:
                kinds.remove("a whole number")
            given = err.get("input")
            if isinstance(given, float) and not math.isfinite(given):
                kinds = ["a finite number" if k == "a number" else k for k in kinds]
            line = find_line(text, loc) if text else None
            problems.append(Problem(f"expected {' or '.join(kinds)} (got {_describe_input(err.get('input'))})",
                                    file=file, key=key_path(loc) or None, line=line))
            continue
        kind = err["type"]
        if kind == "extra_forbidden":
            msg = "unknown key"
            hint = None
        elif kind == "missing":
            msg = "required key is missing"
            hint = None
        else:
            hint = None
            ctx = err.get("ctx") or {}
            plain = {
                "int_type": "expected a whole number", "int_parsing": "expected a whole number",
                "int_from_float": "expected a whole number", "float_type": "expected a number",
                "float_parsing": "expected a number", "string_type": "expected text",
                "bool_type": "expected true or false", "bool_parsing": "expected true or false",
                "list_type": "expected a list", "dict_type": "expected a table",
                "model_type": "expected a table", "model_attributes_type": "expected a table",
                "literal_error": f"expected {ctx.get('expected', 'another value')}",
                "greater_than_equal": f"must be at least {ctx.get('ge')}",
                "less_than_equal": f"must be at most {ctx.get('le')}",
                "string_too_short": "must not be empty",
                "string_too_long": f"too long (at most {ctx.get('max_length')} characters)",
                "too_long": f"too many entries (at most {ctx.get('max_length')})",
                "too_short": f"needs at least {ctx.get('min_length')} entr{'y' if ctx.get('min_length') == 1 else 'ies'}",
                "string_pattern_mismatch": "use letters, digits and '_' only, starting with a letter",
            }
            msg = plain.get(kind) or err["msg"].replace("Value error, ", "")
            if kind not in {"value_error", "assertion_error"} and "input" in err:
                msg += f" (got {_describe_input(err['input'])})"
        line = find_line(text, loc) if text else None
        problems.append(Problem(msg, file=file, key=key_path(loc) or None, line=line, hint=hint))
    return problems
