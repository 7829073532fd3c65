"""Changing a TOML document in place, keeping what a person wrote around the values.

A file written by hand carries more than its values: comments (on their own lines or
after a value), blank lines, the order of keys, inline tables or ``[tables]``, the
quoting of strings. These helpers change a tomlkit document value by value, so that
everything not changed stays as it was written:

* :func:`claim_leading_comments` first gives each table the comment lines written
  directly above its header (tomlkit keeps them at the end of the table before), so a
  table that is moved or removed takes its own comments with it;
* :func:`sync_value` changes one value: a table or an inline table key by key, a list
  element by element, a string in the quoting it had;
* :func:`add_value` puts a new key next to the key it follows;
* :func:`fresh_table` makes a table for an array of tables in the style of its siblings.

What they make must still be checked by parsing it again: the caller compares the
values read back with the values meant (:mod:`rosterkit.files.rosters` does).
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass
from itertools import pairwise

import tomlkit
from tomlkit.container import Container
from tomlkit.items import (
    AoT,
    Array,
    Comment,
    InlineTable,
    Item,
    Null,
    String,
    StringType,
    Table,
    Whitespace,
)


def same(a: object, b: object) -> bool:
    """Equal as TOML values: ``1``, ``1.0`` and ``true`` differ, lists and tables compare
    element by element (a table's key order aside), ``nan`` equals ``nan``."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        if len(a) != len(b):
            return False
        for key, value in a.items():
            if key not in b or not same(value, b[key]):
                return False
        return True
    if isinstance(a, list):
        if len(a) != len(b):
            return False
        for x, y in zip(a, b):
            if not same(x, y):
                return False
        return True
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return a == b


def plain(value: object) -> object:
    """A tomlkit item (or container) as plain Python values."""
    return value.unwrap() if hasattr(value, "unwrap") else value


def container_of(table: object) -> Container:
    return table if isinstance(table, Container) else table.value


def keys_of(table: object) -> list[str]:
    """The keys a table (a document, a table, an inline table) holds, in the order written."""
    seen: dict[str, None] = {}
    for key, _ in container_of(table).body:
        if key is not None:
            seen.setdefault(key.key, None)
    return list(seen)


def item_of(table: object, key: str) -> Item:
    return container_of(table).item(key)


# ---------------------------------------------------------------- comments above headers


def _is_header_table(item: object) -> bool:
    return isinstance(item, Table) and not item.is_super_table()


def _trailing_comments(container: Container, end: int) -> list[int]:
    """The places of the comment lines that end ``container.body[:end]`` with no blank line after them."""
    body = container.body
    found = []
    k = end
    while k and body[k - 1][0] is None and isinstance(body[k - 1][1], (Comment, Null)):
        k -= 1
        if isinstance(body[k][1], Comment):
            found.append(k)
    return sorted(found)


def _take(container: Container, places: list[int]) -> str:
    """The text of these items, taken off (left as nothing, so that no other item moves)."""
    body = container.body
    text = "".join(body[k][1].as_string() for k in places)
    for k in places:
        body[k] = (None, Null())
    return text


def claim_leading_comments(doc: Container) -> str:
    """Give each table header the comment lines directly above it (no blank line between).

    tomlkit keeps them with whatever comes before the header (the document's top-level
    keys, or the previous table, or that table's last sub-table); here they go into the
    header table's own leading text, so that they travel with it. Returns the comment
    lines that end the document after a blank line, taken off: they belong to the file,
    not to its last table, and go back at the end with :func:`with_tail`.
    """
    last: tuple[Container, int | None] = (doc, None)

    def walk(container: Container) -> None:
        nonlocal last
        for k, (_key, item) in enumerate(container.body):
            if not isinstance(item, (Table, AoT)):
                continue
            before = next((b for _kb, b in reversed(container.body[:k]) if not isinstance(b, Null)), None)
            if not isinstance(before, (Table, AoT)):
                last = (container, k)
            for table in item.body if isinstance(item, AoT) else [item]:
                if _is_header_table(table):
                    where, end = last
                    places = _trailing_comments(where, len(where.body) if end is None else end)
                    if places:
                        table.trivia.indent = _take(where, places) + table.trivia.indent
                    last = (table.value, None)
                walk(table.value)

    walk(doc)
    where = last[0]
    if where is doc:
        return ""
    body = where.body
    n = len(body)
    while n and body[n - 1][0] is None and isinstance(body[n - 1][1], (Comment, Whitespace, Null)):
        n -= 1
    first_blank = next((k for k in range(n, len(body))
                        if isinstance(body[k][1], Whitespace) and "\n" in body[k][1].as_string()), None)
    if first_blank is None or not any(isinstance(body[k][1], Comment) for k in range(first_blank, len(body))):
        return ""
    return _take(where, list(range(first_blank, len(body))))


def with_tail(text: str, tail: str) -> str:
    if not tail:
        return text
    return (text if text.endswith("\n") or not text else text + "\n") + tail


# ---------------------------------------------------------------- values

_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_CONTROL_ML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\r(?!\n)")


def _styled_string(value: str, old: object) -> Item:
    """A string written as the old one was: literal ('...') or basic ("..."), one line or several."""
    kind = getattr(old, "type", None) or getattr(old, "_t", None)  # tomlkit 0.13 keeps it as _t
    if isinstance(old, String) and isinstance(kind, StringType):
        multiline = kind in (StringType.MLB, StringType.MLL) and "\n" in value
        literal = kind in (StringType.SLL, StringType.MLL)
        if literal and multiline:  # '''...''': any text but ''' and control characters other than tab and newline
            literal = "'''" not in value and not _CONTROL_ML.search(value)
        elif literal:  # '...': one line, no quote, no control character other than tab
            literal = "'" not in value and not _CONTROL.search(value)
        try:
            return tomlkit.string(value, literal=literal, multiline=multiline)
        except Exception:  # a string the style cannot hold: the plain style
            pass
    return tomlkit.item(value)


def new_item(value: object, like: object = None) -> Item:
    """A value to write: a string in the quoting of ``like``, a list on one line, tables inline."""
    if isinstance(value, str):
        return _styled_string(value, like)
    if isinstance(value, list):
        return array(value, multiline=isinstance(like, Array) and not _one_line(like))
    if isinstance(value, dict):
        return inline_table(value)
    return tomlkit.item(value)


def _one_line(item: Item) -> bool:
    return "\n" not in item.as_string()


def _parse_value(text: str) -> Item:
    return tomlkit.parse(f"v = {text}\n").item("v")


def _spacing(old_text: str, open_: str, close: str) -> tuple[str, str, str]:
    pad_open = open_ + (" " if old_text.startswith(open_ + " ") else "")
    pad_close = (" " if old_text.endswith(" " + close) and len(old_text.strip(open_ + close + " ")) else "") + close
    comma = "," if ("," in old_text and ", " not in old_text) else ", "
    return pad_open, comma, pad_close


def _element_text(value: object, like: object) -> str:
    if isinstance(value, dict):
        return inline_table(value).as_string()
    if isinstance(value, list):
        return "[" + ", ".join(_element_text(v, None) for v in value) + "]"
    return new_item(value, like).as_string()


def array(values: list, multiline: bool = False) -> Item:
    """A list written out: on one line, or one element a line (tables inline)."""
    if not values:
        return _parse_value("[]")
    texts = [_element_text(v, None) for v in values]
    if multiline:
        return _parse_value("[\n" + "".join(f"  {t},\n" for t in texts) + "]")
    return _parse_value("[" + ", ".join(texts) + "]")


def _rebuilt_array(old: Array, new: list) -> Item:
    """A one-line list with new elements, spaced as the old one; unchanged elements keep their text."""
    olds = [(plain(v), v) for v in old]
    texts = []
    for value in new:
        found = next((k for k, (p, _item) in enumerate(olds) if same(p, value)), None)
        if found is not None:
            texts.append(olds.pop(found)[1].as_string())
        else:
            texts.append(_element_text(value, old[0] if len(old) else None))
    open_, comma, close = _spacing(old.as_string(), "[", "]")
    if not new:
        return _parse_value("[]")
    return _parse_value(open_ + comma.join(texts) + close)


def _rebuilt_inline_table(old: InlineTable, new: dict) -> Item:
    """A one-line inline table with new keys, spaced as the old one; unchanged entries keep their text."""
    written = {key.key: (key, item) for key, item in container_of(old).body if key is not None}
    sample = next(iter(written.values()), None)
    sep = " = "
    if sample is not None:  # the space before "=" is part of the key's text as written: "move "
        text = sample[0].as_string()
        sep = text[len(text.rstrip()):] + sample[0].sep
    parts = []
    for k, value in new.items():
        if k in written and same(plain(written[k][1]), value):
            key, item = written[k]
            parts.append(f"{key.as_string()}{key.sep}{item.as_string()}")
        else:
            if k in written:
                key, like = written[k]
                key_text = f"{key.as_string()}{key.sep}"
            else:
                key_text, like = f"{tomlkit.key(k).as_string()}{sep}", None
            parts.append(f"{key_text}{_inline_value_text(value, like)}")
    if not parts:
        return _parse_value("{}")
    open_, comma, close = _spacing(old.as_string(), "{", "}")
    return _parse_value(open_ + comma.join(parts) + close)


def _inline_value_text(value: object, like: object) -> str:
    return _element_text(value, like)


def inline_table(value: dict) -> Item:
    """``{ key = value, ... }``, as rosterkit writes stats in its sample files."""
    if not value:
        return _parse_value("{}")
    return _parse_value("{ " + ", ".join(f"{tomlkit.key(k).as_string()} = {_inline_value_text(v, None)}"
                                          for k, v in value.items()) + " }")


def _sync_array(table: object, key: str, old: Array, new: list) -> None:
    if _one_line(old) or any(isinstance(v, (dict, list)) for v in new) or any(
            isinstance(plain(v), (dict, list)) for v in old):
        table[key] = _rebuilt_array(old, new) if _one_line(old) else array(new, multiline=True)
        return
    # several lines, perhaps with comments: insert and delete elements, the rest stays as written
    tokens = [repr((type(v).__name__, v)) for v in (plain(x) for x in old)]
    wanted = [repr((type(v).__name__, v)) for v in new]
    ops = difflib.SequenceMatcher(a=tokens, b=wanted, autojunk=False).get_opcodes()
    like = old[0] if len(old) else None
    for tag, i1, i2, j1, j2 in reversed(ops):
        if tag == "equal":
            continue
        for i in reversed(range(i1, i2)):
            del old[i]
        for offset, value in enumerate(new[j1:j2]):
            old.insert(i1 + offset, new_item(value, like))
    if not same(plain(old), new):
        table[key] = new_item(new)


def sync_dict(table: object, new: dict) -> None:
    """Make a table hold ``new``, key by key (its keys removed, changed, added)."""
    if isinstance(table, InlineTable):
        raise TypeError("an inline table is rewritten whole: use sync_value on its parent")
    for key in keys_of(table):
        if key not in new:
            del table[key]
    present = set(keys_of(table))
    previous = None
    for key, value in new.items():
        if key in present:
            sync_value(table, key, value)
        else:
            add_value(table, key, value, after=previous)
        previous = key


def sync_value(table: object, key: str, new: object) -> None:
    """Make ``table[key]`` hold ``new``, changing as little of what is written as it can."""
    old = item_of(table, key)
    if same(plain(old), new):
        return
    if isinstance(new, dict) and isinstance(old, InlineTable) and _one_line(old):
        table[key] = _rebuilt_inline_table(old, new)
    elif isinstance(new, dict) and _is_header_table(old):
        sync_dict(old, new)
    elif isinstance(new, list) and isinstance(old, Array):
        _sync_array(table, key, old, new)
    else:
        table[key] = new_item(new, old)


def add_value(table: object, key: str, value: object, after: str | None = None, as_table: bool = False) -> None:
    """Add a key that is not there: after the key ``after`` when that is a plain value,
    else after the table's last plain value (before the comments that may end the
    table, and before its sub-tables)."""
    if isinstance(value, dict):
        item = tomlkit.table() if as_table else inline_table(value)
        if as_table:
            for k, v in value.items():
                item.append(k, new_item(v))
    else:
        item = new_item(value)
    if not isinstance(table, InlineTable) and not isinstance(item, (Table, AoT)):
        container = container_of(table)
        plain_keys = [k.key for k, v in container.body if k is not None and not isinstance(v, (Table, AoT))]
        anchor = after if after in plain_keys else (plain_keys[-1] if plain_keys else None)
        if anchor is not None and hasattr(container, "_insert_after"):
            try:
                container._insert_after(anchor, key, item)
                return
            except Exception:  # tomlkit's own way below
                pass
    table[key] = item


def space_tables(tables: list[Table], olds: list[Table]) -> None:
    """A blank line between two tables of an array of tables that were not next to each
    other before, when the file separates its tables so."""
    if not any(t.as_string().endswith("\n\n") for t in olds[:-1]):
        return
    place = {id(t): k for k, t in enumerate(olds)}
    for prev, table in pairwise(tables):
        if id(prev) in place and id(table) in place and place[id(table)] == place[id(prev)] + 1:
            continue
        if not prev.as_string().endswith("\n\n") and not table.trivia.indent.startswith("\n"):
            table.trivia.indent = "\n" + table.trivia.indent


def replace_tables(aot: AoT, tables: list[Table]) -> None:
    """Put ``tables`` in the array of tables, in this order."""
    del aot[:]
    for table in tables:
        aot.append(table)


def fresh_table(value: dict, tables: frozenset[str] = frozenset()) -> Table:
    """A table of an array of tables for ``value``: lists of tables as arrays of tables,
    other tables inline unless named in ``tables`` (the way the siblings write them)."""
    table = tomlkit.table()
    for key, v in value.items():
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            aot = tomlkit.aot()
            for x in v:
                aot.append(fresh_table(x, tables))
            table.append(key, aot)
        elif isinstance(v, dict):
            if key in tables:
                sub = tomlkit.table()
                for k, x in v.items():
                    sub.append(k, new_item(x))
                table.append(key, sub)
            else:
                table.append(key, inline_table(v))
        else:
            table.append(key, new_item(v))
    return table


def table_style(tables: list[Table]) -> frozenset[str]:
    """The keys these tables mostly write as ``[sub.tables]`` rather than inline."""
    votes: dict[str, int] = {}
    for t in tables:
        for key in keys_of(t):
            item = item_of(t, key)
            if _is_header_table(item):
                votes[key] = votes.get(key, 0) + 1
            elif isinstance(item, InlineTable):
                votes[key] = votes.get(key, 0) - 1
    return frozenset(key for key, vote in votes.items() if vote > 0)


# ---------------------------------------------------------------- cutting a document at its headers


@dataclass(frozen=True)
class Block:
    """A part of a TOML text: the top-level keys (``name`` ""), or a table header with its
    keys, starting with the comment lines written directly above the header."""

    name: tuple[str, ...]
    array: bool
    text: str


_HEADER = re.compile(r"[ \t]*(\[\[?)[ \t]*([^\[\]#\n]*?)[ \t]*(\]\]?)[ \t]*(#[^\n]*)?\r?\n?\Z")
_BARE = re.compile(r"[A-Za-z0-9_-]+\Z")
_TOKEN = re.compile(r'''
      (?P<ml> """ (?:[^"\\]|\\.|"(?!""))* """ "{0,2}
            | \'\'\' .*? \'\'\' '{0,2} )
    | (?P<string> " (?:[^"\\\n]|\\.)* " | ' [^'\n]* ' )
    | (?P<comment> \# [^\n]* )
    | (?P<open> [\[{] )
    | (?P<close> [\]}] )
    | (?P<newline> \n )
    | (?P<bad> ["'] )
''', re.DOTALL | re.VERBOSE)


def _header_name(text: str) -> tuple[str, ...] | None:
    parts = []
    for part in text.split("."):
        part = part.strip(" \t")
        if len(part) >= 2 and part[0] == part[-1] and part[0] in "\"'" and "\\" not in part:
            part = part[1:-1]
        elif not _BARE.match(part):
            return None
        parts.append(part)
    return tuple(parts)


def _is_comment(line: str) -> bool:
    return line.lstrip(" \t").startswith("#")


def _is_blank(line: str) -> bool:
    return not line.strip(" \t\r\n")


def split_blocks(text: str) -> list[Block] | None:
    """The text cut before each table header, or None when it cannot be cut surely
    (a header name with quoted dots, an unclosed string; the caller then parses the
    whole text, the slow way). Joined, the blocks give the text back.

    Strings, comments and brackets are followed, so that a ``[`` starting a line inside
    a multi-line string or list is no header. The comment lines right above a header
    (no blank line between) go with the header's block.
    """
    starts = _header_lines(text) if '"""' not in text and "'''" not in text else _header_lines_scanned(text)
    if starts is None:
        return None
    blocks: list[Block] = []
    name: tuple[str, ...] = ()
    array = False
    begin = 0
    for start, header, is_array in starts:
        cut = _comments_above(text, begin, start)
        blocks.append(Block(name, array, text[begin:cut]))
        begin, name, array = cut, header, is_array
    blocks.append(Block(name, array, text[begin:]))
    return blocks


_LINE_OPENING = re.compile(r"^[ \t]*\[", re.MULTILINE)


def _header_lines(text: str) -> list[tuple[int, tuple[str, ...], bool]] | None:
    """The headers of a text without multi-line strings: the lines that read as one.

    (A line of a list written over several lines reads as a header only if it is a list
    itself, which no roster has: the text made is read back, so such a file is only
    saved more slowly, never wrongly.)
    """
    starts = []
    for m in _LINE_OPENING.finditer(text):
        end = text.find("\n", m.start())
        line = text[m.start():len(text) if end < 0 else end + 1]
        header = _HEADER.match(line)
        if not header or len(header.group(1)) != len(header.group(3)):
            continue
        name = _header_name(header.group(2))
        if name is None:
            return None
        starts.append((m.start(), name, len(header.group(1)) == 2))
    return starts


def _header_lines_scanned(text: str) -> list[tuple[int, tuple[str, ...], bool]] | None:
    """The headers of any text, following strings, comments and brackets."""
    starts: list[tuple[int, tuple[str, ...], bool]] = []  # where each header's line begins
    depth = 0
    line_start: int | None = 0  # None: the line began inside a multi-line string
    pos = 0
    while True:
        m = _TOKEN.search(text, pos)
        if m is None:
            break
        kind = m.lastgroup
        pos = m.end()
        if kind == "newline":
            line_start = pos
        elif kind == "ml":
            if "\n" in m.group():
                line_start = None
        elif kind == "open":
            if depth == 0 and line_start is not None and not text[line_start:m.start()].strip(" \t"):
                end = text.find("\n", m.start())
                end = len(text) if end < 0 else end + 1
                header = _HEADER.match(text[line_start:end])
                name = _header_name(header.group(2)) if header and len(header.group(1)) == len(header.group(3)) \
                    else None
                if name is None:
                    return None
                starts.append((line_start, name, len(header.group(1)) == 2))
                line_start = pos = end
                continue
            depth += 1
        elif kind == "close":
            depth -= 1
            if depth < 0:
                return None
        elif kind == "bad":
            return None  # an unclosed string: not TOML
    return None if depth else starts


def _comments_above(text: str, begin: int, start: int) -> int:
    """Where the comment lines right above ``start`` begin (``start`` when there are none)."""
    cut = start
    while cut > begin:
        prev = max(text.rfind("\n", begin, cut - 1) + 1, begin)
        if not _is_comment(text[prev:cut]):
            break
        cut = prev
    return cut


def split_tail(text: str) -> tuple[str, str]:
    """``text`` and the comment lines that end it after a blank line (see :func:`claim_leading_comments`)."""
    lines = text.splitlines(keepends=True)
    n = len(lines)
    while n and (_is_comment(lines[n - 1]) or _is_blank(lines[n - 1])):
        n -= 1
    k = next((k for k in range(n, len(lines)) if _is_blank(lines[k])), None)
    if k is None or not any(_is_comment(line) for line in lines[k:]):
        return text, ""
    return "".join(lines[:k]), "".join(lines[k:])
