"""Writing a card's drawing operators in one block, fast.

reportlab's drawing calls format every coordinate in Python and re-encode every
string for the embedded font each time; a sheet of cards repeats the same labels,
weapon names and reminders hundreds of times. Here each card is written as one block
of PDF operators (``canvas.addLiteral``, inside ``q``/``Q`` so the canvas's graphics
state is untouched), coordinates are formatted by the interpreter's own float
formatting, and each text is encoded for its font subsets once per document
(reportlab's ``TTFont.splitString`` and ``getSubsetInternalName``, which also register
the subsets for embedding, exactly as reportlab's text objects do).
"""

from __future__ import annotations

from reportlab.lib.colors import Color
from reportlab.lib.rl_accel import escapePDF
from reportlab.pdfbase import pdfmetrics

KAPPA = 0.4477  # 1 - 0.5523: control points of a quarter circle drawn as a Bezier curve


class Encoder:
    """Texts encoded for the document's font subsets, once each."""

    def __init__(self, canvas) -> None:
        self.doc = canvas._doc
        self._fonts: dict[str, object] = {}
        self._cache: dict[tuple[str, str], list[tuple[str, str]]] = {}

    @classmethod
    def for_canvas(cls, canvas) -> "Encoder":
        """The canvas's encoder (one per document: encodings depend on the document's subsets)."""
        enc = getattr(canvas, "_rosterkit_encoder", None)
        if enc is None or enc.doc is not canvas._doc:
            enc = cls(canvas)
            canvas._rosterkit_encoder = enc
        return enc

    def encode(self, font: str, text: str) -> list[tuple[str, str]]:
        key = (font, text)
        hit = self._cache.get(key)
        if hit is None:
            f = self._fonts.get(font)
            if f is None:
                f = self._fonts[font] = pdfmetrics.getFont(font)
            hit = [(f.getSubsetInternalName(subset, self.doc), escapePDF(chunk))  # type: ignore[attr-defined]
                   for subset, chunk in f.splitString(text, self.doc)]  # type: ignore[attr-defined]
            if len(self._cache) > 20_000:
                self._cache.clear()
            self._cache[key] = hit
        return hit


_rgb_cache: dict[tuple[float, float, float], str] = {}


def rgb(color: Color) -> str:
    key = (color.red, color.green, color.blue)
    s = _rgb_cache.get(key)
    if s is None:
        s = _rgb_cache[key] = f"{color.red:.4g} {color.green:.4g} {color.blue:.4g}"
    return s


_paths: dict[tuple[float, float, float, str], str] = {}


def _round_rect_path(w: float, h: float, r: float, op: str) -> str:
    r = max(0.0, min(r, w / 2, h / 2))
    k = r * KAPPA
    return (f"{r:.2f} 0 m {w - r:.2f} 0 l {w - k:.2f} 0 {w:.2f} {k:.2f} {w:.2f} {r:.2f} c "
            f"{w:.2f} {h - r:.2f} l {w:.2f} {h - k:.2f} {w - k:.2f} {h:.2f} {w - r:.2f} {h:.2f} c "
            f"{r:.2f} {h:.2f} l {k:.2f} {h:.2f} 0 {h - k:.2f} 0 {h - r:.2f} c "
            f"0 {r:.2f} l 0 {k:.2f} {k:.2f} 0 {r:.2f} 0 c h {op}")


class Block:
    """Operators of one card; ``flush`` appends them to the page."""

    __slots__ = ("enc", "out", "_font", "_fill", "in_text")

    def __init__(self, encoder: Encoder) -> None:
        self.enc = encoder
        self.out: list[str] = ["q"]
        self._font: tuple[str, float] | None = None
        self._fill: str | None = None
        self.in_text = False

    # graphics
    def fill_color(self, color: Color) -> None:
        s = rgb(color)
        if s != self._fill:
            self.out.append(f"{s} rg")
            self._fill = s

    def stroke_color(self, color: Color) -> None:
        if self.in_text:
            self.end_text()
        self.out.append(f"{rgb(color)} RG")

    def line_width(self, w: float) -> None:
        if self.in_text:
            self.end_text()
        self.out.append(f"{w:.2f} w")

    def rect(self, x: float, y: float, w: float, h: float, op: str = "f") -> None:
        if self.in_text:
            self.end_text()
        self.out.append(f"{x:.2f} {y:.2f} {w:.2f} {h:.2f} re {op}")

    def line(self, x1: float, y1: float, x2: float, y2: float) -> None:
        if self.in_text:
            self.end_text()
        self.out.append(f"{x1:.2f} {y1:.2f} m {x2:.2f} {y2:.2f} l S")

    def round_rect(self, x: float, y: float, w: float, h: float, r: float, op: str = "f") -> None:
        """A rectangle with rounded corners; its path is worked out once per shape and moved into place."""
        if self.in_text:
            self.end_text()
        key = (round(w, 2), round(h, 2), round(r, 2), op)
        path = _paths.get(key)
        if path is None:
            if len(_paths) > 2_000:
                _paths.clear()
            path = _paths[key] = _round_rect_path(*key)
        self.out.append(f"q 1 0 0 1 {x:.2f} {y:.2f} cm {path} Q")

    # text
    def text(self, x: float, y: float, font: str, size: float, color: Color, s: str) -> None:
        out = self.out
        if not self.in_text:
            out.append("BT")
            self.in_text = True
            self._font = None
        c = rgb(color)
        if c != self._fill:
            out.append(f"{c} rg")
            self._fill = c
        out.append(f"1 0 0 1 {x:.2f} {y:.2f} Tm")
        for name, chunk in self.enc.encode(font, s):
            if self._font != (name, size):
                out.append(f"{name} {size:.2f} Tf")
                self._font = (name, size)
            out.append(f"({chunk}) Tj")

    def row_text(self, x: float, y: float, row) -> None:
        """The texts of a laid-out row (see layout.Row) with its top-left corner at (x, y).

        A row's operators are written relative to its corner once per document and kept
        on the row: rows are shared by every card that shows the same stat line, weapon
        or ability, so most cards only position them.
        """
        cached = row.pdf
        if cached is None or cached[0] is not self.enc:
            cached = row.pdf = (self.enc, self._row_ops(row))
        if not cached[1]:
            return
        if not self.in_text:
            self.out.append("BT")
            self.in_text = True
        self.out.append(f"1 0 0 1 {x:.2f} {y:.2f} Tm")
        self.out.append(cached[1])
        self._font = None  # the row set its own font and colour
        self._fill = None

    def _row_ops(self, row) -> str:
        parts: list[str] = []
        font_state = None
        fill = None
        px = py = 0.0
        for op in row.ops:
            if op[0] != "T":
                continue
            _, x, dy, font, size, colour, text = op
            c = rgb(colour)
            if c != fill:
                parts.append(f"{c} rg")
                fill = c
            x, y = round(x, 2), round(-dy, 2)
            parts.append(f"{x - px:.2f} {y - py:.2f} Td")
            px, py = x, y
            for name, chunk in self.enc.encode(font, text):
                if font_state != (name, size):
                    parts.append(f"{name} {size:.2f} Tf")
                    font_state = (name, size)
                parts.append(f"({chunk}) Tj")
        return "\n".join(parts)

    def end_text(self) -> None:
        if self.in_text:
            self.out.append("ET")
            self.in_text = False

    def flush(self, canvas) -> None:
        self.end_text()
        self.out.append("Q")
        canvas.addLiteral("\n".join(self.out))
        self.out = ["q"]
        self._fill = None
