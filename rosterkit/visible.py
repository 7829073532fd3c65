"""Text from a file, made safe to show: control characters become visible.

Names, messages and keys come from files players exchange. Shown raw, an escape sequence
in a unit's name could clear the terminal, set its title, rewrite a line or put a command on
the clipboard; a bidirectional override could make a line read backwards. :func:`visible`
shows each such character instead of sending it: C0 controls and DEL as the Unicode control
pictures (ESC as ␛, a newline as ␊), C1 controls and the bidirectional controls as <U+XXXX>.
Every front-end shows file text through it (:func:`plain` for Rich and Textual, which
also keeps it from being read as markup); JSON output escapes the same characters.
"""

from __future__ import annotations

import json

_BIDI = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]

# C0 controls (0x00-0x1F) and DEL: their control pictures; C1 controls and bidi marks: <U+XXXX>
_TABLE = {c: 0x2400 + c for c in range(0x20)} | {0x7F: 0x2421} | \
    {c: f"<U+{c:04X}>" for c in (*range(0x80, 0xA0), *_BIDI)}

_UNSAFE = frozenset(chr(c) for c in _TABLE)


def visible(text: object) -> str:
    """The text with every control character shown instead of sent to the terminal."""
    text = str(text)
    # most text has none: checking first is much cheaper than translating
    if text.isprintable() or not any(ch in _UNSAFE for ch in text):
        return text
    return text.translate(_TABLE)


def plain(text: object, style: str = "", *, newlines: bool = False):
    """File text for Rich or Textual: a rich Text, which neither reads markup (``[@click=...]``,
    ``[link=...]``, ``[/]`` stay as written) nor sends control characters (shown by :func:`visible`;
    ``newlines`` keeps line breaks, for a screen that lays out a description's lines). A Text is
    returned as it is: it is never read as markup."""
    # (imported here: the core and `rosterkit --help` do not load rich)
    from rich.text import Text

    if isinstance(text, Text):
        return text
    text = str(text)
    shown = "\n".join(map(visible, text.split("\n"))) if newlines else visible(text)
    return Text(shown, style=style)


_JSON_ESCAPES = {c: f"\\u{c:04x}" for c in (0x7F, *range(0x80, 0xA0), *_BIDI)}


def json_text(doc: object, indent: int | None = None) -> str:
    """JSON with every control character escaped (the standard escapes C0 only)."""
    return json.dumps(doc, indent=indent, ensure_ascii=False).translate(_JSON_ESCAPES)
