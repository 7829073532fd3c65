"""Card sizes, paper sizes and how many cards fit on a sheet (pure arithmetic, in points)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from ..errors import Problem, RosterkitError
from ..rules.numbers import parse_number
from ..words import with_article

MM = 72 / 25.4
INCH = 72.0

# Printers cannot print right up to the edge of a sheet: keep this much paper free on
# every side (a quarter inch), which also leaves room for the cut marks.
SHEET_MARGIN = 0.25 * INCH


@dataclass(frozen=True)
class CardSize:
    id: str
    label: str
    width: float  # points
    height: float
    low: float  # the smallest body text size an export may use on this card
    high: float  # the largest (an export uses the largest at which its fullest card fits)
    title: float  # the unit's name
    stat: float = 10.0  # the smallest size of a value in the stat band
    # an export takes a body above this only where it prints no more cards than at it, and sends no
    # rule's text to a reference card for a body above it (see texts_where_room); 0: the largest body
    count_at: float = 0.0
    # the quick rules on the reference card (read before play and looked up in it, not across the
    # table): their smallest size at this card size, the body's where that is smaller (7 at poker:
    # at 6.5 every reader of the cards asked for larger); they grow to fill their cards (fill_rules)
    rules: float = 7.0

    @property
    def body(self) -> float:
        return self.high


@dataclass(frozen=True)
class Paper:
    id: str
    label: str
    width: float
    height: float


def _size(id_: str, label: str, w: float, h: float) -> CardSize:
    short = min(w, h)
    if short < 190:
        return CardSize(id_, label, w, h, 6.5, 9.0, 10.5)
    if short < 250 and w > h:  # a landscape card as low as a poker card is wide (index cards)
        return CardSize(id_, label, w, h, 7.0, 10.0, 11.5)
    # tall cards (tarot, A6) are read at arm's length across a table: larger body and stats
    # (tarot 11.5, A6 13.5: a roomy export fills its card, and reads as a card, not large print); an A6
    # title at 16 pt stands above its 13.5 pt body (at 14 it read as one more line of text)
    if short < 250:
        return CardSize(id_, label, w, h, 8.0, 11.5, 12.0, 12.0, 10.5, rules=8.0)
    return CardSize(id_, label, w, h, 8.0, 13.5, 16.0, 12.0, 12.0, rules=11.0)


CARD_SIZES: dict[str, CardSize] = {
    "poker": _size("poker", "poker 63 x 88 mm", 63 * MM, 88 * MM),
    "tarot": _size("tarot", "tarot 70 x 120 mm", 70 * MM, 120 * MM),
    "index": _size("index", "index card 5 x 3 in", 5 * INCH, 3 * INCH),
    "a6": _size("a6", "A6 105 x 148 mm", 105 * MM, 148 * MM),
}
SIZE_ALIASES = {"large": "tarot", "3x5": "index", "5x3": "index", "index-card": "index", "a6": "a6"}

PAPERS: dict[str, Paper] = {
    "letter": Paper("letter", "Letter", 8.5 * INCH, 11 * INCH),
    "a4": Paper("a4", "A4", 210 * MM, 297 * MM),
}

_CUSTOM = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(mm|in|cm)?\s*$", re.IGNORECASE)
_UNITS = {"mm": MM, "cm": 10 * MM, "in": INCH}


def card_size(name: str) -> CardSize:
    """A named size (poker, tarot/large, index, a6) or a custom one such as ``57x89mm`` or ``2.5x3.5in``."""
    key = name.strip().lower()
    key = SIZE_ALIASES.get(key, key)
    if key in CARD_SIZES:
        return CARD_SIZES[key]
    m = _CUSTOM.match(name)
    if m:
        unit = (m.group(3) or "mm").lower()
        try:
            w, h = (float(parse_number(m.group(i))) * _UNITS[unit] for i in (1, 2))
        except ValueError as exc:
            raise RosterkitError(Problem(f"card size: {exc}", key="size")) from None
        if min(w, h) < 40 * MM:
            raise RosterkitError(Problem(f"card size '{name}' is too small to print a unit on (at least 40 mm a side)",
                                         key="size"))
        shown = f"{m.group(1)} x {m.group(2)} {unit}"
        return _size(f"{m.group(1)}x{m.group(2)}{unit}", shown, w, h)
    raise RosterkitError(Problem(f"unknown card size '{name}'", key="size",
                                 hint="sizes: " + ", ".join(CARD_SIZES) + ", large (= tarot), or WxH in mm/in "
                                 "such as 57x89mm"))


def paper(name: str) -> Paper:
    key = name.strip().lower()
    if key in PAPERS:
        return PAPERS[key]
    raise RosterkitError(Problem(f"unknown paper '{name}'", key="paper", hint="papers: " + ", ".join(PAPERS)))


def default_paper() -> str:
    """Letter where the locale says North America, else A4."""
    for var in ("LC_PAPER", "LC_ALL", "LANG"):
        value = os.environ.get(var, "")
        if value:
            region = value.split(".")[0].split("_")[-1].upper() if "_" in value else ""
            return "letter" if region in {"US", "CA", "MX", "PH", "CL", "CO", "VE"} else "a4"
    return "a4"


@dataclass(frozen=True)
class Sheet:
    """Where cards go on a sheet: a grid of cards (butted together, or with a gutter between
    them), centred on the page, always at their true size (an A6 card is A6: two to a sheet)."""

    page_width: float
    page_height: float
    cols: int
    rows: int
    card_width: float  # as printed (scaled)
    card_height: float
    x0: float  # left edge of the grid
    y0: float  # bottom edge of the grid
    scale: float = 1.0
    gutter: float = 0.0

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def landscape(self) -> bool:
        return self.page_width > self.page_height

    def placing(self, paper_label: str) -> str:
        """How the cards go on it, as the summary page, the command and the interface say it: "9 to
        an A4 sheet", "2 to a landscape A4 sheet" (A6, beside a portrait summary page)."""
        turned = "landscape " if self.landscape else ""
        return f"{self.per_page} to {with_article(f'{turned}{paper_label} sheet')}"

    def slot(self, i: int) -> tuple[float, float]:
        """Bottom-left corner of the i-th card on a page: rows top to bottom, left to right."""
        row, col = divmod(i, self.cols)
        return (self.x0 + col * (self.card_width + self.gutter),
                self.y0 + (self.rows - 1 - row) * (self.card_height + self.gutter))

    def back_slot(self, i: int) -> tuple[float, float]:
        """Where the back of the i-th card goes on the back of the sheet (turned over its long edge
        in portrait, its short edge in landscape: either way, left and right swap)."""
        row, col = divmod(i, self.cols)
        return self.slot(row * self.cols + (self.cols - 1 - col))


def plan_sheet(card: CardSize, sheet: Paper, margin: float = SHEET_MARGIN, gutter: float = 0.0) -> Sheet:
    """As many cards as fit, in whichever page orientation holds more (portrait on a tie)."""
    best: Sheet | None = None
    w, h = card.width, card.height
    for pw, ph in ((sheet.width, sheet.height), (sheet.height, sheet.width)):
        cols = int((pw - 2 * margin + gutter + 1e-6) // (w + gutter))
        rows = int((ph - 2 * margin + gutter + 1e-6) // (h + gutter))
        if cols < 1 or rows < 1:
            continue
        cand = Sheet(pw, ph, cols, rows, w, h, (pw - cols * w - (cols - 1) * gutter) / 2,
                     (ph - rows * h - (rows - 1) * gutter) / 2, 1.0, gutter)
        if best is None or cand.per_page > best.per_page:
            best = cand
    if best is None:
        raise RosterkitError(Problem(f"a {card.label} card does not fit on {sheet.label} paper", key="size"))
    return best
