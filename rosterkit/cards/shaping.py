"""Text as it is drawn: right-to-left scripts put in visual order and shaped (joined forms).

Texts are laid out in logical order (as typed). When ``uharfbuzz`` and ``python-bidi`` are
installed, a line holding right-to-left characters (Arabic, Hebrew) is reordered for display
(``bidi.get_display``) word by word and each word shaped by HarfBuzz through reportlab's own
``shapeStr``; without them, such a line prints in logical order, unjoined.
"""

from __future__ import annotations

import unicodedata

try:  # optional: shaping of right-to-left scripts
    import uharfbuzz  # noqa: F401
    from bidi import get_display
    from reportlab.pdfbase.ttfonts import shapeStr
except ImportError:  # pragma: no cover - depends on what is installed
    get_display = None
    shapeStr = None


def has_rtl(text: str) -> bool:
    return not text.isascii() and any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text)


class Shaper:
    def __init__(self) -> None:
        self.enabled = get_display is not None and shapeStr is not None
        self._cache: dict[tuple[str, str, float], str] = {}
        self._pieces: dict[tuple, list[tuple[str, str]]] = {}

    def shape(self, text: str, font: str, size: float) -> str:
        if not self.enabled or not has_rtl(text):
            return text
        key = (text, font, size)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = self._shape(text, font, size)
        return hit

    def pieces(self, text: str, font: str, size: float, fonts=None) -> list[tuple[str, str]]:
        """The text as it is drawn, in (text, face) pieces: in visual order and shaped when it
        holds right-to-left text; the characters ``font`` lacks in ``fonts``' fallback font."""
        if not self.enabled or not has_rtl(text):
            return fonts.runs(text, font) if fonts is not None else [(text, font)]
        key = (text, font, size, fonts)
        hit = self._pieces.get(key)
        if hit is None:
            if len(self._pieces) > 10_000:
                self._pieces.clear()
            out: list[tuple[str, str]] = []
            # spaces around the text stay where they are (a right-to-left line would take a
            # leading space to its other end: "Notes: " + an Arabic note lost its space)
            core = text.strip(" ")
            lead = text[:len(text) - len(text.lstrip(" "))]
            if lead:
                out.append((lead, font))
            for k, word in enumerate(get_display(core).split(" ")):
                if k:
                    out.append((" ", font))
                for run, rtl in _runs(word):
                    if rtl:  # (DejaVu has Arabic and Hebrew: a right-to-left run is shaped in its face)
                        out.append((shapeStr(run[::-1], font, size, force=True), font))
                    else:
                        out += fonts.runs(run, font) if fonts is not None else [(run, font)]
            trail = text[len(text.rstrip(" ")):]
            if trail:
                out.append((trail, font))
            hit = self._pieces[key] = out
        return hit

    def _shape(self, text: str, font: str, size: float) -> str:
        visual = get_display(text)
        # each right-to-left word shaped on its own, from its logical order (HarfBuzz joins its
        # letters and gives them in visual order); other words stay as they are (no ligatures)
        out: str = ""
        for k, word in enumerate(visual.split(" ")):
            if k:
                out = out + " "
            for run, rtl in _runs(word):
                # a right-to-left run of a mixed word ("عبد's") is shaped alone: the rest keeps its order
                out = out + (shapeStr(run[::-1], font, size, force=True) if rtl else run)
        return out


def _runs(word: str) -> list[tuple[str, bool]]:
    """A word of visual text cut into right-to-left runs and the rest (marks go with their letter)."""
    runs: list[list] = []
    for ch in word:
        kind = unicodedata.bidirectional(ch)
        rtl = kind in ("R", "AL") or (kind == "NSM" and bool(runs) and runs[-1][1])
        if runs and runs[-1][1] == rtl:
            runs[-1][0] += ch
        else:
            runs.append([ch, rtl])
    return [(text, rtl) for text, rtl in runs]
