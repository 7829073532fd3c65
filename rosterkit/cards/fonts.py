"""The embedded Unicode fonts (DejaVu Sans and DejaVu Sans Condensed, shipped in ``fonts/``),
a font of the user's own for the characters DejaVu lacks, and glyph coverage.

Every text that goes on a page passes through :class:`Glyphs.clean`: it is put in
Unicode normal form C (so ``S`` + combining caron prints as ``Š``), control and
invisible format characters are dropped, and a character the font has no glyph
for is recorded and printed as its code point (``[U+4E2D]``) rather than as an
empty box.
"""

from __future__ import annotations

import hashlib
import io
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from ..errors import Problem, RosterkitError
from ..files.bounded import read_regular
from ..visible import visible

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = "RosterkitSans"
BOLD = "RosterkitSans-Bold"
COND = "RosterkitSansCondensed"
COND_BOLD = "RosterkitSansCondensed-Bold"
FILES = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf",
         COND: "DejaVuSansCondensed.ttf", COND_BOLD: "DejaVuSansCondensed-Bold.ttf"}

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


@dataclass(frozen=True)
class FontSet:
    """The four faces a card uses: regular, bold, and narrower ones for wide stat lines; and a
    player's font (``--font``) for the characters they lack, in any face."""

    regular: str = REGULAR
    bold: str = BOLD
    cond: str = COND
    cond_bold: str = COND_BOLD
    fallback: str | None = None

    def narrow(self, font: str) -> str:
        return {self.regular: self.cond, self.bold: self.cond_bold}.get(font, font)

    def runs(self, text: str, font: str) -> list[tuple[str, str]]:
        """The text cut into (text, face) runs: each character in ``font`` when it has it, else in
        the fallback font (a character neither has is a placeholder already, see Glyphs.clean)."""
        if self.fallback is None or text.isascii():
            return [(text, font)]
        cmap = _cmaps[font]
        out: list[list[str]] = []
        for ch in text:
            face = font if ord(ch) in cmap or ch.isspace() else self.fallback
            if out and out[-1][1] == face:
                out[-1][0] += ch
            else:
                out.append([ch, face])
        return [(t, f) for t, f in out]

    def width(self, text: str, font: str, size: float) -> float:
        return sum(pdfmetrics.stringWidth(t, f, size) for t, f in self.runs(text, font))

    def markup(self, text: str, font: str) -> str:
        """The text for a platypus paragraph set in ``font``: escaped (never read as markup), the
        characters ``font`` lacks in the fallback font."""
        return "".join(escape(t) if f == font else f'<font face="{f}">{escape(t)}</font>'
                       for t, f in self.runs(text, font))


DEJAVU = FontSet()


# The largest TrueType fonts a player would give are CJK ones: Arial Unicode MS is 23 MB, a
# Noto Sans CJK or SimSun collection about 20 MB; 32 MB takes them all and bounds what is read.
MAX_FONT_BYTES = 32 * 1024 * 1024


def user_fonts(path: str | Path) -> FontSet:
    """A TrueType font of the user's own (for CJK, say): DejaVu Sans stays the face of the text, in
    its regular and bold faces, and the player's font draws the characters DejaVu lacks.

    Only a regular file of at most :data:`MAX_FONT_BYTES` is read (a pipe or ``/dev/zero``
    is refused at once), and it must parse as a font."""
    p = Path(path).expanduser()
    data = read_regular(p, MAX_FONT_BYTES, kind="a .ttf file", key="--font", prefix="cannot read the font: ")
    register()
    name = "RosterkitUser-" + hashlib.sha256(data).hexdigest()[:10]
    if name not in _cmaps:
        try:
            font = TTFont(name, io.BytesIO(data))
        except Exception as exc:  # a damaged file fails in many ways inside the parser
            raise RosterkitError(Problem(f"not a TrueType font that can be embedded: {_reason(exc)}", file=str(p),
                                         key="--font", hint="give a .ttf file (or one face of a .ttc)")) from None
        pdfmetrics.registerFont(font)
        _cmaps[name] = frozenset(font.face.charToGlyph)
    return FontSet(fallback=name)


def _reason(exc: Exception) -> str:
    """The parser's reason, short (a damaged file's bytes can end up in it)."""
    text = visible(str(exc) or type(exc).__name__)
    return text if len(text) <= 120 else text[:117] + "..."


def placeholder(char: str) -> str:
    return f"[U+{ord(char):04X}]"


class Glyphs:
    """Cleans texts for one export and collects the characters the font lacks."""

    def __init__(self, fonts: FontSet = DEJAVU) -> None:
        register()
        self.fonts = fonts
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
        extra = _cmaps[self.fonts.fallback] if self.fonts.fallback else frozenset()
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
            if code in cmap or code in extra:
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
