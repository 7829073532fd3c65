"""The embedded Unicode font (DejaVu Sans, shipped in ``fonts/``) and glyph coverage.

Every text that goes on a page passes through :class:`Glyphs.clean`: it is put in
Unicode normal form C (so ``S`` + combining caron prints as ``Š``), control and
invisible format characters are dropped, and a character the font has no glyph
for is recorded and printed as its code point (``[U+4E2D]``) rather than as an
empty box.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = "RosterkitSans"
BOLD = "RosterkitSans-Bold"
FILES = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf"}

_registered = False
_cmaps: dict[str, frozenset[int]] = {}


def register() -> None:
    """Register the fonts with reportlab (once per process)."""
    global _registered
    if _registered:
        return
    for name, file in FILES.items():
        font = TTFont(name, str(FONT_DIR / file))
        pdfmetrics.registerFont(font)
        _cmaps[name] = frozenset(font.face.charToGlyph)
    pdfmetrics.registerFontFamily(REGULAR, normal=REGULAR, bold=BOLD, italic=REGULAR, boldItalic=BOLD)
    addMapping(REGULAR, 0, 0, REGULAR)
    addMapping(REGULAR, 1, 0, BOLD)
    addMapping(REGULAR, 0, 1, REGULAR)
    addMapping(REGULAR, 1, 1, BOLD)
    _registered = True


def has_glyph(char: str, font: str = REGULAR) -> bool:
    register()
    return ord(char) in _cmaps[font]


def placeholder(char: str) -> str:
    return f"[U+{ord(char):04X}]"


class Glyphs:
    """Cleans texts for one export and collects the characters the font lacks."""

    def __init__(self) -> None:
        register()
        self.missing: set[str] = set()
        self._cache: dict[tuple[str, str, bool], str] = {}

    def clean(self, text: str, font: str = REGULAR, multiline: bool = False) -> str:
        if text.isascii() and text.isprintable():
            return text  # DejaVu Sans covers printable ASCII
        key = (text, font, multiline)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        out = self._clean(text, font, multiline)
        if len(self._cache) > 10_000:
            self._cache.clear()
        self._cache[key] = out
        return out

    def _clean(self, text: str, font: str, multiline: bool) -> str:
        cmap = _cmaps[font]
        text = unicodedata.normalize("NFC", text.replace("\r\n", "\n"))
        out: list[str] = []
        for ch in text:
            code = ord(ch)
            if ch in "\r\n\u2028\u2029":
                out.append("\n" if multiline else " ")
                continue
            if ch == "\t":
                out.append(" ")
                continue
            cat = unicodedata.category(ch)
            if cat in ("Cc", "Cf", "Cs") or 0xFE00 <= code <= 0xFE0F:
                continue  # controls, zero-width joiners, variation selectors: nothing to print
            if code in cmap:
                out.append(ch)
            else:
                self.missing.add(ch)
                out.append(placeholder(ch))
        return "".join(out)


def describe_missing(chars: set[str], most: int = 12) -> str:
    """'中' (U+4E2D, CJK UNIFIED IDEOGRAPH-4E2D), ... in code point order (the first ``most``)."""
    parts = []
    for ch in sorted(chars)[:most]:
        name = unicodedata.name(ch, "")
        parts.append(f"'{ch}' (U+{ord(ch):04X}{', ' + name if name else ''})")
    if len(chars) > most:
        parts.append(f"and {len(chars) - most} more")
    return ", ".join(parts)
