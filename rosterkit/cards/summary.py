"""The summary page (army, points, validation, fingerprint).

It is flowed with platypus frames on the same canvas as the cards, and continues on
further pages when it is long (a roster with many errors or units).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from functools import partial

from reportlab.graphics.barcode.qr import QrCode
from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.utils import simpleSplit
from reportlab.platypus import Flowable, Frame, Paragraph, Spacer, Table, TableStyle

from ..engine.costing import CostReport, singular
from ..engine.display import stat_line
from ..engine.textlist import compact_text
from ..engine.validation import Validation
from ..rules.numbers import fmt, fmt_pct
from ..words import count_of
from .content import CardContent
from .draw import Text
from .fonts import BOLD, DEJAVU, REGULAR, FontSet, Glyphs
from .layout import Wrapper
from .shaping import Shaper, has_rtl
from .style import COLORS, GREY, INK, RULE, STATS_KEY, TINTS, Metrics

MARGIN = 0.6 * 72
# the quick rules' sizes: the page's cells' size, down to the poker cards' body where that keeps
# them on the page they start on
RULES_SIZES = (9.0, 8.5, 8.0)
BARS_BESIDE = 8  # points by type beside the QR code for as many types at most (else under it)
GREEN = HexColor("#2e6b2e")
RED = HexColor("#a3231c")
AMBER = HexColor("#8a5a0b")


def _styles() -> dict[str, ParagraphStyle]:
    # wordWrap "LTR": reportlab puts right-to-left runs (Arabic, Hebrew) in reading order
    base = ParagraphStyle("base", fontName=REGULAR, fontSize=9.5, leading=12.5, textColor=INK, wordWrap="LTR")
    return {
        "base": base,
        "title": ParagraphStyle("title", base, fontName=BOLD, fontSize=22, leading=26),
        "sub": ParagraphStyle("sub", base, fontSize=10, leading=13, textColor=GREY),
        "h": ParagraphStyle("h", base, fontName=BOLD, fontSize=12, leading=15, spaceBefore=10, spaceAfter=4),
        "big": ParagraphStyle("big", base, fontName=BOLD, fontSize=15, leading=19),
        "small": ParagraphStyle("small", base, fontSize=8.5, leading=11, textColor=GREY),
        "cell": ParagraphStyle("cell", base, fontSize=9, leading=11.5),
        "cellr": ParagraphStyle("cellr", base, fontSize=9, leading=11.5, alignment=2),
        "finding": ParagraphStyle("finding", base, fontSize=9, leading=11.5, leftIndent=12, firstLineIndent=-12),
        "gloss": ParagraphStyle("gloss", base, fontSize=9, leading=11.5, spaceAfter=5),
    }


class Bars(Flowable):
    """Points by type as horizontal bars, measured against the limit (or the total).

    Type names go to the left of their bar, or above it when one is too long for that.
    """

    SIZE = 9.0

    def __init__(self, rows: list[tuple[str, float, str, int]], width: float, fonts: FontSet = DEJAVU):
        super().__init__()
        self.rows = rows  # (label, share 0..1+, text, colour index)
        self.width = width
        self.fonts = fonts
        self.shaper = Shaper()
        self.bar_h = 11.0
        self.gap = 4.0
        self.text_w = 118.0
        widest = max((fonts.width(r[0], REGULAR, self.SIZE) for r in rows), default=30.0)
        self.above = widest + 10 > width * 0.3
        self.label_w = 0.0 if self.above else widest + 10
        self.lines = [simpleSplit(r[0], REGULAR, self.SIZE, width - self.text_w) if self.above else [r[0]]
                      for r in rows]
        lead = self.SIZE * 1.25
        self.heights = [self.bar_h + self.gap + (len(ls) * lead if self.above else 0) for ls in self.lines]
        self.height = sum(self.heights) + 12

    def wrap(self, aw, ah):
        return self.width, self.height

    def split(self, aw, ah):
        """Between bars, for a ruleset with more types than a page holds."""
        used, k = 12.0, 0
        while k < len(self.rows) and used + self.heights[k] <= ah:
            used += self.heights[k]
            k += 1
        if k == 0 or k == len(self.rows):
            return [] if k == 0 else [self]
        return [Bars(self.rows[:k], self.width, self.fonts), Bars(self.rows[k:], self.width, self.fonts)]

    def draw(self):
        c = self.canv
        bar_x = self.label_w
        full = self.width - bar_x - self.text_w
        y = self.height - 12
        c.setStrokeColor(RULE)
        c.setLineWidth(0.4)
        c.setFont(REGULAR, 7)
        c.setFillColor(GREY)
        # names above their bars: a tick under each share's label only (a line down the bars
        # struck through the names, hidden under the bars anyway)
        foot = y - 2 if self.above else 0
        for q in (0, 0.25, 0.5, 0.75, 1.0):
            gx = bar_x + full * q
            c.line(gx, foot, gx, y + 2)
            c.drawCentredString(gx, y + 4, f"{int(q * 100)}%")
        c.setFont(REGULAR, self.SIZE)
        for (label, share, text, color), lines, h in zip(self.rows, self.lines, self.heights):
            y -= h
            c.setFillColor(INK)
            if self.above:
                ly = y + self.bar_h + self.gap / 2 + (len(lines) - 1) * self.SIZE * 1.25 + 2
                for line in lines:
                    draw_text(c, 0, ly, line, REGULAR, self.SIZE, self.fonts, self.shaper)
                    ly -= self.SIZE * 1.25
            else:
                draw_text(c, 0, y + 2.5, label, REGULAR, self.SIZE, self.fonts, self.shaper)
            c.setFillColor(TINTS[color])
            c.rect(bar_x, y, full, self.bar_h, stroke=0, fill=1)
            c.setFillColor(COLORS[color])
            c.rect(bar_x, y, full * max(0.0, min(share, 1.0)), self.bar_h, stroke=0, fill=1)
            if share > 1.0:
                c.setFillColor(RED)
                c.rect(bar_x + full - 3, y, 3, self.bar_h, stroke=0, fill=1)
            c.setFillColor(INK)
            c.drawString(bar_x + full + 6, y + 2.5, text)


class RowsTable(Flowable):
    """A plain table drawn row by row: cheap for thousands of rows, split between any two
    rows, its header repeated on every page; long cells wrap. The last row is a total."""

    SIZE = 9.0
    LEAD = 11.5
    PAD = 3.0

    def __init__(self, header: tuple[str, ...], rows: list[tuple[str, ...]], shares: tuple[float, ...],
                 align: str, width: float, fonts: FontSet = DEJAVU):
        super().__init__()
        self.header, self.rows, self.align, self.width, self.fonts = header, rows, align, width, fonts
        self.shaper = Shaper()
        self.col_w = [width * f for f in shares]
        self._lines: list[list[list[str]] | None] = [None] * len(rows)  # wrapped cells, shared by the parts
        self.start, self.end = 0, len(rows)

    def _part(self, start: int, end: int) -> RowsTable:
        part = RowsTable.__new__(RowsTable)
        Flowable.__init__(part)
        part.__dict__.update({k: v for k, v in self.__dict__.items() if k in (
            "header", "rows", "align", "width", "col_w", "_lines", "shaper", "fonts")})
        part.start, part.end = start, end
        return part

    def _cells(self, i: int) -> list[list[str]]:
        cells = self._lines[i]
        if cells is None:
            font = BOLD if i == len(self.rows) - 1 else REGULAR
            cells = self._lines[i] = [
                [text] if self.fonts.width(text, font, self.SIZE) <= w - 2 * self.PAD
                else split_cell(text, font, self.SIZE, w - 2 * self.PAD, self.fonts)
                for text, w in zip(self.rows[i], self.col_w)]
        return cells

    def _height(self, i: int) -> float:
        return max(len(c) for c in self._cells(i)) * self.LEAD + 3

    def _head_h(self) -> float:
        return max(len(split_cell(h, BOLD, self.SIZE, w - 2 * self.PAD, self.fonts))
                   for h, w in zip(self.header, self.col_w)) * self.LEAD + 4

    def wrap(self, aw, ah):
        self.height = self._head_h() + sum(self._height(i) for i in range(self.start, self.end))
        return self.width, self.height

    def split(self, aw, ah):
        h = self._head_h()
        end = self.start
        while end < self.end and h + self._height(end) <= ah:
            h += self._height(end)
            end += 1
        if end == self.start:
            return []
        if end == self.end:
            return [self]
        return [self._part(self.start, end), self._part(end, self.end)]

    def _draw_row(self, t, y: float, cells: list[list[str]], font: str) -> None:
        t.setFont(font, self.SIZE)
        x = 0.0
        for lines, w, al in zip(cells, self.col_w, self.align):
            ly = y - self.SIZE - 1
            for line in lines:
                if al == "R":
                    lx = x + w - self.PAD - self.fonts.width(line, font, self.SIZE)
                else:
                    lx = x + self.PAD
                t.setTextOrigin(lx, ly)
                for part, face in self.shaper.pieces(line, font, self.SIZE, self.fonts):
                    t.setFont(face, self.SIZE)
                    t.textOut(part)
                ly -= self.LEAD
            x += w

    def draw(self):
        c = self.canv
        y = self.height
        c.setStrokeColor(INK)
        c.setLineWidth(0.6)
        head_h = self._head_h()
        c.line(0, y - head_h + 1, self.width, y - head_h + 1)
        y -= head_h
        last = len(self.rows) - 1
        c.setFillColor(TINTS[0])
        for i in range(self.start, self.end):
            h = self._height(i)
            if i == last:
                c.line(0, y, self.width, y)
            elif i % 2:
                c.rect(0, y - h, self.width, h, stroke=0, fill=1)
            y -= h
        t = c.beginText()
        t.setFillColor(INK)
        self._draw_row(t, self.height, [split_cell(h, BOLD, self.SIZE, w - 2 * self.PAD, self.fonts)
                                        for h, w in zip(self.header, self.col_w)], BOLD)
        y = self.height - head_h
        for i in range(self.start, self.end):
            self._draw_row(t, y, self._cells(i), BOLD if i == last else REGULAR)
            y -= self._height(i)
        c.drawText(t)


class Columns(Flowable):
    """Short texts in two columns, the second beside the first and as long (a text never split
    between them). Where the page has room for them all at a smaller size (down to the last of
    ``sizes``) they take it, rather than a few lines going onto a page of their own; else they
    continue on the next page, at the first size, in two columns again.
    (platypus's BalancedColumns needs a document template: this page is flowed on the cards' canvas.)"""

    GAP = 16.0

    def __init__(self, make: Callable[[float], list[Flowable]], sizes: tuple[float, ...], start: int = 0,
                 end: int | None = None):
        super().__init__()
        self.make, self.sizes, self.start, self.end = make, sizes, start, end
        self.size = sizes[0]
        self.cols: tuple[list[tuple[Flowable, float]], ...] = ([], [])

    def _items(self, size: float) -> list[Flowable]:
        return self.make(size)[self.start:self.end]

    def _heights(self, items: list[Flowable], aw: float) -> list[float]:
        cw = (aw - self.GAP) / 2
        return [it.wrap(cw, 1e9)[1] + it.getSpaceAfter() for it in items]

    @staticmethod
    def _fill(heights: list[float], h: float) -> int:
        """How many of the items two columns of height ``h`` hold, in order."""
        n, col, used = 0, 0, 0.0
        for hi in heights:
            if hi > h + 1e-6:  # (taller than a column: on a page of its own, see PageFlow.run)
                break
            if used + hi > h + 1e-6:
                col, used = col + 1, 0.0
                if col == 2:
                    break
            used += hi
            n += 1
        return n

    def wrap(self, aw, ah):
        items = self._items(self.size)
        heights = self._heights(items, aw)
        # the lowest height at which two columns hold them all: half the whole at least, all of it at most
        lo, hi = max([max(heights, default=0.0), sum(heights) / 2]), sum(heights)
        while hi - lo > 0.5:
            mid = (lo + hi) / 2
            lo, hi = (lo, mid) if self._fill(heights, mid) == len(heights) else (mid, hi)
        self.cols, col, used = ([], []), 0, 0.0
        for it, h in zip(items, heights):
            if used + h > hi + 1e-6 and used > 0 and col == 0:
                col, used = 1, 0.0
            self.cols[col].append((it, h))
            used += h
        self.width, self.height = aw, max((sum(h for _, h in c) for c in self.cols), default=0.0)
        return aw, self.height

    def split(self, aw, ah):
        for size in self.sizes:
            items = self._items(size)
            if self._fill(self._heights(items, aw), ah) == len(items):
                whole = Columns(self.make, self.sizes, self.start, self.end)
                whole.size = size
                return [whole]
        items = self._items(self.sizes[0])
        n = self._fill(self._heights(items, aw), ah)
        if n == 0:
            return []
        return [Columns(self.make, self.sizes[:1], self.start, self.start + n),
                Columns(self.make, self.sizes[:1], self.start + n, self.end)]

    def draw(self):
        cw = (self.width - self.GAP) / 2
        for i, col in enumerate(self.cols):
            y = self.height
            for it, h in col:
                y -= h
                it.drawOn(self.canv, i * (cw + self.GAP), y + it.getSpaceAfter())


def split_cell(text: str, font: str, size: float, width: float, fonts: FontSet = DEJAVU) -> list[str]:
    """Lines of a table cell: at spaces, and a word wider than the cell between its characters."""
    out: list[str] = []
    for line in simpleSplit(text, font, size, width) or [""]:
        while fonts.width(line, font, size) > width and len(line) > 1:
            k = len(line) - 1
            while k > 1 and fonts.width(line[:k], font, size) > width:
                k -= 1
            out.append(line[:k])
            line = line[k:]
        out.append(line)
    return out


class PageFlow:
    """Flows a story of platypus flowables onto as many pages as it needs.

    The story may be a generator: flowables are taken as the frames need them, so a
    long units table is never held in memory at once. A flowable that does not fit is
    split (paragraphs by lines, tables by rows) and continues in the next frame.
    """

    def __init__(self, canvas, page_size: tuple[float, float], columns: int = 1):
        self.c = canvas
        self.w, self.h = page_size
        self.columns = columns
        self.pages = 0

    def frame_width(self) -> float:
        return (self.w - 2 * MARGIN - 18.0 * (self.columns - 1)) / self.columns

    def frames(self) -> list[Frame]:
        gutter = 18.0
        cw = self.frame_width()
        return [Frame(MARGIN + i * (cw + gutter), MARGIN, cw, self.h - 2 * MARGIN, leftPadding=0,
                      rightPadding=0, topPadding=0, bottomPadding=0, showBoundary=0)
                for i in range(self.columns)]

    def run(self, story: Iterable) -> int:
        source = iter(story)
        pending: list = []

        def head():
            if not pending:
                nxt = next(source, None)
                if nxt is None:
                    return None
                pending.append(nxt)
            return pending[0]

        while head() is not None:
            self.c.setPageSize((self.w, self.h))
            for frame in self.frames():
                empty = True
                while (f := head()) is not None:
                    if frame.add(f, self.c, trySplit=1):
                        pending.pop(0)
                        empty = False
                        continue
                    parts = frame.split(f, self.c)
                    if parts and frame.add(parts[0], self.c, trySplit=1):
                        pending[0:1] = parts[1:]
                    elif empty:
                        # taller than an empty frame and unsplittable: draw it all the same
                        # (nothing is ever left out); our own content never gets here
                        _, fh = f.wrapOn(self.c, self.frame_width(), self.h - 2 * MARGIN)
                        f.drawOn(self.c, frame.x1, max(frame.y1, frame.y1 + self.h - 2 * MARGIN - fh))
                        pending.pop(0)
                    break
                if head() is None:
                    break
            self.c.showPage()
            self.pages += 1
        return self.pages


QR_SIDE = 1.6 * 72  # 41 mm: big enough for a phone at the largest list that fits (version 40)
QR_MODULE = 0.025 * 72  # points: a module is 3.75 pixels at 150 dpi
QR_MAX_BYTES = 2800  # what reportlab's encoder fits in the largest QR code (version 40, level L)


def list_qr(text: str) -> QrCode | None:
    """A QR code of the list's text, or None when it holds more than a QR code can."""
    size = len(text.encode("utf-8"))
    if size > QR_MAX_BYTES:
        return None
    qr = QrCode(text, width=QR_SIDE, height=QR_SIDE, qrLevel="L" if size > 300 else "M")
    # each module at least QR_MODULE wide (the quiet zone of 4 modules a side included), so a
    # long list's code still reads when the page is scanned or photographed at 150 dpi
    modules = qr.qr.calculate_version() * 4 + 17
    side = max(QR_SIDE, (modules + 8) * QR_MODULE)
    qr.width = qr.height = side
    return qr


def draw_text(c, x: float, y: float, text: str, font: str, size: float, fonts: FontSet, shaper: Shaper) -> None:
    """A line of text at (x, y) in the canvas's fill colour: shaped when right to left, else in
    ``font`` with the characters it lacks in the fallback font."""
    t = c.beginText(x, y)
    for part, face in shaper.pieces(text, font, size, fonts):
        t.setFont(face, size)
        t.textOut(part)
    c.drawText(t)


def paragraph(text: str, style: ParagraphStyle) -> Paragraph:
    """A paragraph of the page's own words (markup allowed); a text from the roster or the ruleset
    goes through :func:`para`."""
    return Paragraph(text, style)


Piece = tuple[str, bool, "HexColor | None"]  # text (cleaned, not markup), bold, colour (None: the style's)


def para(pieces: list[Piece], style: ParagraphStyle, fonts: FontSet) -> Flowable:
    """Text from the roster or the ruleset: a platypus paragraph (escaped: never read as markup),
    or, when it holds right-to-left text, laid out and drawn as the cards' text is (:class:`Shaped`)."""
    if any(has_rtl(text) for text, _, _ in pieces):
        return Shaped([(text, BOLD if bold else style.fontName, colour or style.textColor)
                       for text, bold, colour in pieces], style, fonts)
    out = ""
    for text, bold, colour in pieces:
        face = BOLD if bold else style.fontName
        part = fonts.markup(text, face)
        if bold and style.fontName != BOLD:
            part = f"<b>{part}</b>"
        if colour is not None:
            part = f'<font color="#{colour.hexval()[2:]}">{part}</font>'
        out += part
    return Paragraph(out, style)


def cleaned(glyphs: Glyphs, style: ParagraphStyle, *pieces: Piece) -> Flowable:
    """:func:`para` of texts as the roster or the ruleset gives them: each cleaned (control
    characters made visible) for the font it sets in."""
    return para([(glyphs.clean(text, BOLD if bold else style.fontName), bold, colour)
                 for text, bold, colour in pieces], style, glyphs.fonts)


class Shaped(Flowable):
    """Text holding right-to-left script, set as the cards set theirs: wrapped in logical order
    (the order it was typed in), then each line put in visual order and shaped (Shaper.pieces),
    so the summary and the cards read alike and a text extractor reads both in reading order."""

    def __init__(self, runs: list[tuple[str, str, object]], style: ParagraphStyle, fonts: FontSet):
        super().__init__()
        self.runs = tuple(runs)  # (text, font, colour)
        self.style = style
        self.fonts = fonts
        self.wrapper = Wrapper(Metrics(fonts))
        self.lines: list = []
        self.x0 = style.leftIndent + style.firstLineIndent

    def wrap(self, aw, ah):
        st = self.style
        # a hanging indent (a finding's lines under its first word) as the paragraph style says
        self.lines = self.wrapper.wrap(self.runs, st.fontSize, aw - self.x0, indent=st.leftIndent - self.x0,
                                       cache=False)
        self.width = aw
        self.height = len(self.lines) * st.leading
        return aw, self.height

    def getSpaceBefore(self):
        return self.style.spaceBefore

    def getSpaceAfter(self):
        return self.style.spaceAfter

    def draw(self):
        st = self.style
        text = Text(self.canv, Shaper(), self.fonts)
        y = self.height - st.fontSize
        for line in self.lines:
            for sx, txt, font, colour in line:
                text.put(self.x0 + sx, y, font, st.fontSize, colour, txt)
            y -= st.leading
        text.done()


_WHOLE = re.compile(r"(?<![\d.,])\d{4,}")  # a number's whole part of four digits or more


def grouped(value) -> str:
    """A number of ours on the summary page, its thousands grouped as a player writes them: 1,121."""
    return _WHOLE.sub(lambda m: f"{int(m.group(0)):,}", fmt(value))


def unlimited(report: CostReport) -> set[str]:
    """The army-wide limits against the points limit, when the roster sets none: they measure
    nothing then (the limit reads as the total), so the page does not call them met."""
    if report.limit is not None:
        return set()
    return {lim.spec.id for lim in report.ruleset.limits
            if any(isinstance(n, ast.Name) and n.id == "limit" for f, _ in lim.parts() for n in ast.walk(f.tree))}


def credit(rs) -> str:
    """The source's title, author, publisher and year, the title left out where it names the game
    the ruleset's name has named already ("A fast short universal wargame" after "Fast Universal
    Wargame"): the page's header names the game once."""
    src = rs.data.source
    words = set(re.findall(r"\w+", rs.name.casefold()))
    if words and words <= set(re.findall(r"\w+", src.title.casefold())):
        return ", ".join(b for b in (src.author, src.publisher, str(src.year) if src.year else "") if b)
    return rs.source_line()


def summary_story(report: CostReport, validation: Validation, glyphs: Glyphs, fingerprint: str,
                  width: float, card_label: str, rules: CardContent | None = None, *,
                  trial: bool = False) -> Iterator:
    """Army, points against the limit, points by type, limits, validation, fingerprint, units;
    then the game's quick rules where ``rules`` holds them (content.with_rules), in two columns.
    ``trial``: the page to measure only, its QR code a blank of its size (encoding one is most of
    the page's time).

    ``card_label``: the cards the export prints, by kind (pdf.card_line)."""
    page = _Story(report, validation, glyphs)
    yield from page.opening(card_label)
    yield page.validity()
    yield from page.code(fingerprint, width, trial)  # (the limits beside the code, or under it)
    yield from page.findings()
    yield from page.units(width)
    if rules is not None and rules.rules:
        yield from page.quick_rules(rules)


class _Story:
    """The summary page's sections, in the order summary_story sets them."""

    def __init__(self, report: CostReport, validation: Validation, glyphs: Glyphs):
        self.st = _styles()
        self.report, self.validation, self.glyphs = report, validation, glyphs
        self.rs = report.ruleset
        self.label = self.rs.data.points_label
        self.p = partial(cleaned, glyphs)
        self.said: set[tuple[str, str]] = set()  # the army-wide findings a limit's row prints: listed once
        self.warnings = [f for f in validation.findings if f.severity == "warning"]
        self.figures = sum(u.figures for u in report.units)
        self.type_rows = self._type_rows()

    def t(self, text: str, font: str = REGULAR) -> str:
        return self.glyphs.fonts.markup(self.glyphs.clean(text, font), font)

    def opening(self, card_label: str) -> Iterator:
        """The army's name, game and notes; its points against the limit; its units, figures and cards."""
        st, p, report, rs, glyphs, label = self.st, self.p, self.report, self.rs, self.glyphs, self.label
        roster = report.roster
        yield p(st["title"], (roster.name, False, None))
        by = credit(rs)
        yield p(st["sub"], (f"{rs.name}, version {rs.data.version}" + (f" · {by}" if by else ""), False, None))
        # the army's notes under its name (a section of their own at the end spilled onto a page alone)
        for k, para_text in enumerate(glyphs.clean(roster.notes.strip(), multiline=True).split("\n")
                                      if roster.notes.strip() else []):
            yield para(([("Notes: ", True, None)] if k == 0 else []) + [(para_text, False, None)], st["sub"],
                       glyphs.fonts)
        yield Spacer(1, 10)
        if report.limit is not None:
            yield p(st["big"], (f"{grouped(report.total)} / {grouped(report.limit)} {label}", False, None))
        else:
            yield p(st["big"], (f"{grouped(report.total)} {label}", False, None))
            yield paragraph("No points limit set.", st["small"])
        yield p(st["base"], ((f"{count_of(len(report.units), 'unit')}, "
                              f"{count_of(self.figures, singular(rs.data.count_label), rs.data.count_label)}; "
                              + card_label), False, None))
        yield Spacer(1, 6)

    def validity(self) -> Flowable:
        """VALID (with its warnings' count) or NOT VALID with its errors' count."""
        validation = self.validation
        if validation.ok:
            status = f'<font color="#{GREEN.hexval()[2:]}"><b>VALID</b></font>'
            if self.warnings:
                status += self.t(f" ({count_of(len(self.warnings), 'warning')}, listed below)")
        else:
            status = (f'<font color="#{RED.hexval()[2:]}"><b>NOT VALID</b></font>' +
                      self.t(f": {count_of(len(validation.errors), 'error')}"))
        return paragraph(status, ParagraphStyle("status", self.st["big"], fontSize=13, leading=17))

    def _type_rows(self) -> list[tuple]:
        """Points by type: (name, share of the limit or total, its words, colour) of each type."""
        report, rs = self.report, self.rs
        basis = report.limit or report.total
        type_rows = []
        # empty types are left out, but a type a limit measures keeps its row at 0 (the player reads
        # that limit's share against it), and so does a type whose units cost nothing
        named = {tid for lim in rs.limits for tid in lim.measured_types}
        for i, tdef in enumerate(rs.data.types):
            pts = report.by_type.get(tdef.id, 0)
            if not pts and tdef.id not in named and not any(u.type_id == tdef.id for u in report.units):
                continue
            # the bar's fill (past 1: its over-the-limit mark), bounded before float() so any total converts
            share = float(min(max(Fraction(pts) / basis, 0), 2)) if basis else 0.0
            type_rows.append((self.glyphs.clean(tdef.name), share,
                              f"{grouped(pts)} ({fmt_pct(pts, basis) if basis else '0%'})", i % len(COLORS)))
        return type_rows

    def bars(self, w: float) -> list[Flowable]:
        if len(self.type_rows) < 2:  # one bar says no more than the total above
            return []
        label = self.label
        return [self.p(self.st["h"], (f"{label[:1].upper()}{label[1:]} by type"
                                      + (" (share of the limit)" if self.report.limit else " (share of the total)"),
                                      False, None)),
                Bars(self.type_rows, w, self.glyphs.fonts)]

    def limits(self, w: float) -> list[Flowable]:
        """The composition limits, ``w`` wide: a row a limit with a measure or broken, the others met on one."""
        st, p, validation = self.st, self.p, self.validation
        if not validation.limits:
            return []
        data, met = [], []
        vacuous = unlimited(self.report)
        for s in validation.limits:
            if s.ok and s.id in vacuous:
                continue
            if s.ok and not (s.value is not None and s.show_as == "percent"
                             and (s.at_least is not None or s.at_most is not None)):
                met.append(s.label)  # (a rule kept with no measure to show: named on one line below)
                continue
            mark = "✓" if s.ok else ("✗" if s.severity == "error" else "!")
            colour = GREEN if s.ok else (RED if s.severity == "error" else AMBER)
            value = ""
            if s.value is not None and s.show_as == "percent" and (s.at_least is not None or s.at_most is not None):
                value = fmt_pct(s.value, 1)
                bound = []
                if s.at_least is not None:
                    bound.append(f"at least {fmt_pct(s.at_least, 1)}")
                if s.at_most is not None:
                    bound.append(f"at most {fmt_pct(s.at_most, 1)}")
                value += f" ({', '.join(bound)})" if bound else ""
            elif not s.ok and s.message:
                value = s.message
                self.said.add((s.id, s.message))
            data.append([paragraph(f'<font color="#{colour.hexval()[2:]}"><b>{mark}</b></font>', st["cell"]),
                         p(st["cell"], (s.label, False, None)), p(st["cell"], (value, False, None))])
        if not data and not met:
            return []
        if met:
            data.append([paragraph(f'<font color="#{GREEN.hexval()[2:]}"><b>✓</b></font>', st["cell"]),
                         p(st["cell"], (("Also met: " if data else "All met: ") + ", ".join(met), False, None)), ""])
        tbl = Table(data, colWidths=[16, w * 0.4, w * 0.6 - 16])
        tbl.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), REGULAR), ("VALIGN", (0, 0), (-1, -1), "TOP"),
                                 ("LEFTPADDING", (0, 0), (-1, -1), 2),
                                 ("BOTTOMPADDING", (0, 0), (-1, -1), 2), ("TOPPADDING", (0, 0), (-1, -1), 1)]
                                + ([("SPAN", (1, -1), (2, -1))] if met else [])))
        return [paragraph("Composition limits", st["h"]), tbl]

    def code(self, fingerprint: str, width: float, trial: bool) -> Iterator:
        """The fingerprint and the QR code of the list, the bars and the limits beside the code
        where they fit, else under it."""
        st, t, report = self.st, self.t, self.report
        about = [paragraph(f"Roster fingerprint <b>{fingerprint}</b>", st["base"]),
                 paragraph(t("On every card, to match a loose card to this list; it changes with the army, not "
                             "with the file's layout."), st["small"])]
        placed = False  # the limits beside the QR code
        qr = list_qr(compact_text(report))
        whole = qr is not None
        if qr is None:  # a long list: its units by name, without the stats
            qr = list_qr(compact_text(report, stats=False))
        if qr is None:
            yield from about
            yield paragraph(t("The list is too long for a QR code; “rosterkit text --compact” prints it."), st["small"])
            yield from self.bars(width)
        else:
            about.append(paragraph(t("The QR code holds the list as text." if whole else
                                     "The QR code holds the units by name (the whole list is too long for one: "
                                     "“rosterkit text --compact” prints it)."), st["small"]))
            # the bars beside the code, in the room its text leaves (a page's quick rules may then fit
            # under the units), where they are few enough (the box is one row: it does not split)
            beside = len(self.type_rows) <= BARS_BESIDE
            side = width - qr.width - 8 - 12  # (the cell's padding)
            column = about + (self.bars(side) if beside else [])
            # the limits too, where the code's height holds them (ARES's one type has no bars: the room
            # beside its code held its fingerprint alone, and its quick rules then fit under the units)
            by_code = self.limits(side)
            if by_code and sum(f.wrap(side, 1e9)[1] + f.getSpaceBefore() + f.getSpaceAfter()
                               for f in column + by_code) <= qr.height:
                column += by_code
                placed = True
            box = Table([[Spacer(qr.width, qr.height) if trial else qr, column]],
                        colWidths=[qr.width + 8, None])
            box.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (0, 0), 0),
                                     ("FONTNAME", (0, 0), (-1, -1), REGULAR)]))  # not the default Helvetica
            yield box
            if not beside:
                yield from self.bars(width)
        if not placed:
            yield from self.limits(width)

    def findings(self) -> Iterator:
        """The errors and warnings, but an army-wide one a limit's row says already."""
        errors, warnings = ([f for f in fs if f.unit is not None or (f.rule, f.message) not in self.said]
                            for fs in (self.validation.errors, self.warnings))
        if errors or warnings:
            yield paragraph("Errors and warnings" if errors else "Warnings", self.st["h"])
            for f in errors + warnings:
                colour = RED if f.severity == "error" else AMBER
                where = f.where()
                text = f"{where}: {f.message}" + (f" ({f.hint})" if f.hint else "")
                yield self.p(self.st["finding"], (f.severity, True, colour), (" " + text, False, None))

    def units(self, width: float) -> Iterator:
        """The units: a table that continues on as many pages as it needs, its header on each; a
        column with one value on every unit's row says nothing there: it is said once, in the heading."""
        report, rs, glyphs, label = self.report, self.rs, self.glyphs, self.label
        n_units = len(report.units)
        # (a long word for the points: the cards' short one, heroic_gods' VP)
        points_head = label.capitalize() if len(label) <= 12 else rs.data.card.points_label or "Points"
        count = rs.data.count_label
        types = {u.type_name for u in report.units}
        counts = {u.figures for u in report.units}
        one_type = types.pop() if len(types) == 1 else None
        # (a lone unit keeps its count: the total row repeats it)
        one_count = counts.pop() if n_units > 1 and len(counts) == 1 else None
        heading = "Units"
        if one_type and len(rs.data.types) > 1:  # (a ruleset of one type, ARES's Figure: nothing to say)
            heading += (", all of type " if n_units > 1 else ", of type ") + one_type
        if one_count is not None:
            heading += f", {one_count} {count if one_count != 1 else singular(count)} each"
        columns = [("#", 0.05, "R", lambda u: str(u.index + 1), ""),
                   ("Unit", 0.41, "L", lambda u: glyphs.clean(u.name), "Total")]
        # the card columns the ruleset names each figure by (heroic_gods' base ID, "#4" on its card)
        # or lists its figures' factors by (its A D M Bow): a short label a narrow column
        for col in (c for c in rs.data.card.columns if c.summary):
            columns.append((glyphs.clean(col.label), 0.06 if len(col.label) <= 3 else 0.1, "L",
                            lambda u, col=col: glyphs.clean(", ".join(dict.fromkeys(
                                text for m in u.members if m.count > 0
                                for label, text in stat_line(rs, u, m) if label == col.label))), ""))
        if one_type is None:
            columns.append(("Type", 0.24, "L", lambda u: glyphs.clean(u.type_name), ""))
        if one_count is None:
            columns.append((glyphs.clean(count.capitalize()), 0.15, "R", lambda u: grouped(u.figures),
                            grouped(self.figures)))
        columns.append((glyphs.clean(points_head), 0.15, "R", lambda u: glyphs.clean(grouped(u.total)),
                        glyphs.clean(grouped(report.total))))
        shares = [share for _, share, _, _, _ in columns]
        shares[1] += 1 - sum(shares)  # the unit's name takes the room of the columns left out
        yield self.p(self.st["h"], (heading, False, None))
        rows = [tuple(cell(u) for _, _, _, cell, _ in columns) for u in report.units]
        rows.append(tuple(total for *_, total in columns))
        yield RowsTable(tuple(head for head, *_ in columns), rows, tuple(shares),
                        "".join(al for _, _, al, _, _ in columns), width, glyphs.fonts)

    def quick_rules(self, rules: CardContent) -> Iterator:
        """The game's quick rules in two columns, at the largest size the page's room holds."""
        st, p = self.st, self.p
        yield p(st["h"], (rules.rules_label, False, None))

        def texts(size: float) -> list[Flowable]:
            style = ParagraphStyle("rule", st["base"], fontSize=size, leading=size * 1.25, spaceAfter=size / 3,
                                   leftIndent=10, firstLineIndent=-10)
            # (the cards' short stat labels spelt out first, as the reference card does)
            return [p(style, (name, True, None), (": " + text, False, None))
                    for name, text in ([(STATS_KEY, rules.key)] if rules.key else [])
                    + [(entry.name, entry.text) for entry in rules.rules]]

        yield Columns(texts, RULES_SIZES)
