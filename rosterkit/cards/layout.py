"""Laying a card out: text flowed into the card's frame, fitted, never clipped.

The card's chrome (border, name band, points badge, footer) is drawn on the canvas;
everything else flows, top to bottom, in the frame between header and footer as a
list of rows (a line of text, a table row, a line of boxes). Rows are the units of
fitting: if they do not fit, the text shrinks step by step down to ``FLOOR``; if they
still do not fit, they continue on further cards of the same unit (marked "…
continued", 2/2), at the largest size that needs no more cards than the floor does.

This is the platypus Frame/Paragraph idea cut down to what cards need, for speed:
widths are measured once per text and font, wrapped lines and whole sections are
cached (a roster repeats the same weapons, abilities and stat lines on many cards),
and a card is written as one block of PDF operators (see pdfops).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reportlab.lib.colors import Color, HexColor, white
from reportlab.pdfbase.pdfmetrics import stringWidth

from .content import MAX_BOXES, CardContent, Entry, Table, Track
from .fonts import BOLD, REGULAR, Glyphs
from .sizes import CardSize

FLOOR = 6.0  # the smallest text size used on a card
STEP = 0.5
LEADING = 1.2
INSET = 3.5  # the card's border, inside the cut line
PAD = 4.5  # between border and text

INK = HexColor("#1d1d1b")
GREY = HexColor("#5f5f5a")
RULE = HexColor("#b9b6ac")
PALETTE = ["#2f4858", "#7a2e28", "#2e5d4b", "#5a3d85", "#8a5a0b", "#1f4f7a", "#6b4a36", "#4b4b4b",
           "#3d6b1f", "#7a2f5e"]


def tint(color: Color, amount: float = 0.86) -> Color:
    return Color(color.red + (1 - color.red) * amount, color.green + (1 - color.green) * amount,
                 color.blue + (1 - color.blue) * amount)


COLORS = [HexColor(c) for c in PALETTE]
TINTS = [tint(c) for c in COLORS]


class Row:
    """One unit of flow: its height and what to draw, relative to its top-left corner."""

    __slots__ = ("height", "ops", "keep", "header", "spacer", "pdf")

    def __init__(self, height: float, ops: tuple = (), keep: int = 0, header: "Row | None" = None,
                 spacer: bool = False):
        self.height = height
        self.ops = ops  # ("T", x, dy, font, size, color, text) | ("F", x, dy, w, h, color) | ("L", ...) | ("B", ...)
        self.keep = keep  # how many of the following rows must stay on the same card as this one
        self.header = header  # repeated at the top of a continuation card
        self.spacer = spacer  # dropped at the top of a card
        self.pdf: tuple | None = None  # its text operators, once written (see pdfops.Block.row_text)


# ---------------------------------------------------------------- text


_TOKENS = re.compile(r"\n|[^\S\n]+|[^\s/\-–]+[/\-–]*|[/\-–]+")


class Metrics:
    """String widths, measured once per text and font (at 1 pt, scaled)."""

    def __init__(self) -> None:
        self._w: dict[tuple[str, str], float] = {}

    def width(self, text: str, font: str, size: float) -> float:
        key = (text, font)
        w = self._w.get(key)
        if w is None:
            if len(self._w) > 10_000:
                self._w.clear()
            w = self._w[key] = stringWidth(text, font, 1000) / 1000
        return w * size


Run = tuple[str, str, Color]  # text, font, colour
Seg = tuple[float, str, str, Color]  # x, text, font, colour


class Wrapper:
    """Greedy line breaking of runs of text (bold name, plain text) into a width."""

    def __init__(self, metrics: Metrics) -> None:
        self.m = metrics
        self._cache: dict[tuple, list[list[Seg]]] = {}

    def wrap(self, runs: tuple[Run, ...], size: float, width: float, indent: float = 0.0,
             cache: bool = True) -> list[list[Seg]]:
        """Lines of (x, text, font, colour) segments. ``cache=False`` for texts met once (names)."""
        if not cache:
            return self._wrap(runs, size, max(width, size), indent)
        key = (runs, size, round(width, 2), indent)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        lines = self._wrap(runs, size, max(width, size), indent)
        if len(self._cache) > 4_000:
            self._cache.clear()
        self._cache[key] = lines
        return lines

    def _wrap(self, runs, size, width, indent) -> list[list[Seg]]:
        m = self.m
        lines: list[list[Seg]] = []
        line: list[list] = []  # [x, text, font, colour]
        x = 0.0
        start = 0.0
        limit = width
        pending = ""  # spaces waiting for the next word on this line

        def newline() -> None:
            nonlocal line, x, start, limit, pending
            lines.append([tuple(s) for s in line])  # type: ignore[misc]
            line = []
            start = x = indent
            limit = width - indent
            pending = ""

        def put(text: str, font: str, colour: Color, w: float) -> None:
            nonlocal x
            if line and line[-1][2] == font and line[-1][3] is colour:
                line[-1][1] += text
            else:
                line.append([x, text, font, colour])
            x += w

        for text, font, colour in runs:
            for tok in _TOKENS.findall(text):
                if tok == "\n":
                    newline()
                    continue
                if tok.isspace():
                    if line:
                        pending += " "
                    continue
                w = m.width(tok, font, size)
                sw = m.width(pending, font, size) if pending else 0.0
                if line and x + sw + w > start + limit + 0.01:
                    newline()
                    sw = 0.0
                if not line and w > limit + 0.01:
                    # a word longer than the line: break it between characters
                    piece, pw = "", 0.0
                    for ch in tok:
                        cw = m.width(ch, font, size)
                        if piece and x + pw + cw > start + limit + 0.01:
                            put(piece, font, colour, pw)
                            newline()
                            piece, pw = ch, cw
                        else:
                            piece, pw = piece + ch, pw + cw
                    tok, w = piece, pw
                    if line and x + w > start + limit + 0.01:
                        newline()
                if pending and line:
                    put(pending, font, colour, sw)
                pending = ""
                put(tok, font, colour, w)
        if line or not lines:
            lines.append([tuple(s) for s in line])  # type: ignore[misc]
        return lines


def line_width(line: list[Seg], metrics: Metrics, size: float) -> float:
    if not line:
        return 0.0
    x, text, font, _ = line[-1]
    return x + metrics.width(text, font, size)


# ---------------------------------------------------------------- the card


@dataclass
class Header:
    title_lines: list[list[Seg]]
    title_size: float
    badge: str
    badge_size: float
    badge_w: float
    band_h: float
    sub_lines: list[list[Seg]]
    sub_size: float
    height: float  # band + subtitle strip


@dataclass
class LaidOut:
    content: CardContent
    color: int
    header: Header  # of the first card; continuation cards say "… continued (2/3)" instead
    pages: list[list[Row]]  # the rows of each card
    size: float  # body text size used


class CardLayout:
    """Lays out cards of one size for one export."""

    def __init__(self, size: CardSize, glyphs: Glyphs, footer: str, type_ids: list[str]):
        self.size = size
        self.glyphs = glyphs
        self.m = Metrics()
        self.w = Wrapper(self.m)
        self.inner_w = size.width - 2 * (INSET + PAD)
        self.type_color = {t: i % len(COLORS) for i, t in enumerate(type_ids)}
        self.sizes = []
        s = size.body
        while s >= FLOOR - 1e-9:
            self.sizes.append(round(s, 2))
            s -= STEP
        self._sections: dict[tuple, list[Row]] = {}
        # footer: roster and ruleset
        ftext = glyphs.clean(footer)
        self.footer_lines = self.w.wrap(((ftext, REGULAR, GREY),), FLOOR, self.inner_w)
        self.footer_h = len(self.footer_lines) * FLOOR * LEADING + 3.0

    # ------------------------------------------------------------ helpers

    def clean(self, text: str, font: str = REGULAR, multiline: bool = False) -> str:
        return self.glyphs.clean(text, font, multiline)

    def para(self, runs: tuple[Run, ...], size: float, width: float, x: float = 0.0, indent: float = 0.0,
             together: int = 4, cache: bool = True) -> list[Row]:
        """Lines of text; a paragraph of up to ``together`` lines is never split, a longer one
        leaves at least two lines on either side of a break."""
        lead = size * LEADING
        base = size * 0.9
        rows = []
        lines = self.w.wrap(runs, size, width, indent, cache)
        for line in lines:
            ops = tuple(("T", x + sx, base, font, size, colour, text) for sx, text, font, colour in line if text)
            rows.append(Row(lead, ops))
        n = len(rows)
        if 1 < n <= together:
            rows[0].keep = n - 1
        elif n > together:
            rows[0].keep = 1
            rows[-2].keep = 1
        return rows

    def heading(self, text: str, size: float, color: int) -> Row:
        hs = max(FLOOR, size * 0.92)
        label = self.clean(text.upper(), BOLD)
        h = hs * LEADING + 1.0
        ops = (("T", 0.0, hs * 0.95 + 0.5, BOLD, hs, COLORS[color], label),
               ("L", self.m.width(label, BOLD, hs) + 3, hs * 0.62, self.inner_w, hs * 0.62, TINTS[color], 0.6))
        return Row(h, ops, keep=1)

    # ------------------------------------------------------------ header

    def header(self, c: CardContent, continued: str | None = None) -> Header:
        size = self.size
        W = self.inner_w
        badge = self.clean(c.badge, BOLD)
        badge_size = size.title
        badge_w = self.m.width(badge, BOLD, badge_size) + 8
        if badge_w > W * 0.42:
            badge_size = max(FLOOR, badge_size * W * 0.42 / badge_w)
            badge_w = self.m.width(badge, BOLD, badge_size) + 8
        title = self.clean(c.title, BOLD)
        avail = W - badge_w - 5
        t = size.title
        natural = self.m.width(title, BOLD, t)
        if natural > avail:
            t = max(7.0, size.title * 0.8, t * avail / natural)
        lines = self.w.wrap(((title, BOLD, white),), t, avail, cache=False)
        if len(lines) * t * 1.15 > size.height * 0.35:
            t = FLOOR
            lines = self.w.wrap(((title, BOLD, white),), t, avail, cache=False)
        band_h = max(len(lines) * t * 1.15, badge_size * 1.2) + 7
        sub_size = max(FLOOR, size.body - 0.5)
        sub = continued if continued is not None else c.subtitle
        sub_lines = self.w.wrap(((self.clean(sub), REGULAR, GREY),), sub_size, W)
        height = band_h + len(sub_lines) * sub_size * LEADING + 4
        return Header(lines, t, badge, badge_size, badge_w, band_h, sub_lines, sub_size, height)

    def frame_height(self, header: Header) -> float:
        return self.size.height - 2 * INSET - header.height - self.footer_h - PAD - 2

    # ------------------------------------------------------------ sections

    def rows(self, c: CardContent, s: float, max_row: float) -> list[Row]:
        color = self.type_color.get(c.type_id or "", len(COLORS) - 1)
        gap = Row(s * 0.45, spacer=True)
        out: list[Row] = []
        if c.stats.labels:
            out += self.cached(("stats", c.stats, color), s, max_row,
                               lambda: self.table(c.stats, s, color, stat=True, max_row=max_row))
        if c.costs:
            out += self.para(((self.clean(c.costs), REGULAR, GREY),), max(FLOOR, s - 0.5), self.inner_w,
                             cache=False)
        if c.weapons is not None and c.weapons.rows:
            out.append(gap)
            out += self.cached(("weapons", c.weapons, color), s, max_row,
                               lambda: self.table(c.weapons, s, color, stat=False, max_row=max_row))
        for title, entries in (("Abilities", c.abilities), ("Equipment", c.equipment)):
            if entries:
                out.append(gap)
                out.append(self.heading(title, s, color))
                for e in entries:
                    out += self.cached(("entry", e), s, max_row, lambda e=e: self.entry(e, s))
        if c.tracks:
            out.append(gap)
            if c.tracks[0].heading:
                out.append(self.heading(c.tracks[0].heading, s, color))
            for t in c.tracks:
                out += self.cached(("track", t, color), s, max_row, lambda t=t: self.track(t, s, color))
        if c.notes:
            out.append(gap)
            out.append(self.heading("Notes", s, color))
            for n in c.notes:
                out += self.para(((self.clean(n, multiline=True), REGULAR, INK),), s, self.inner_w, cache=False)
        for p in c.problems:
            out.append(gap)
            out += self.para(((self.clean("Cannot show: " + p, multiline=True), REGULAR, COLORS[1]),), s,
                             self.inner_w)
        return out

    def cached(self, key: tuple, s: float, max_row: float, build) -> list[Row]:
        k = key + (s, round(max_row, 1))
        hit = self._sections.get(k)
        if hit is None:
            if len(self._sections) > 2_000:
                self._sections.clear()
            hit = self._sections[k] = build()
        return hit

    def entry(self, e: Entry, s: float) -> list[Row]:
        runs: list[Run] = [(self.clean(e.name, BOLD), BOLD, INK)]
        if e.who:
            runs.append((self.clean(f" ({e.who})"), REGULAR, GREY))
        if e.in_glossary:
            runs.append((" – see glossary", REGULAR, GREY))
        elif e.text:
            runs.append((": " + self.clean(e.text, multiline=True), REGULAR, INK))
        return self.para(tuple(runs), s, self.inner_w, indent=s * 0.9)

    def track(self, t: Track, s: float, color: int) -> list[Row]:
        W = self.inner_w
        label = self.clean(t.label, BOLD)
        ls = max(FLOOR, s * 0.92)
        if t.boxes > MAX_BOXES:
            return self.para(((label + ": ", BOLD, INK),
                              (f"{t.boxes} (too many boxes to print; keep a tally)", REGULAR, INK)), s, W)
        box = max(6.0, s * 0.95)
        gap = box * 0.22
        group_gap = box * 0.55
        label_w = min(self.m.width(label, BOLD, ls) + 4, W * 0.4)
        label_lines = self.w.wrap(((label, BOLD, INK),), ls, label_w - 4)
        avail = W - label_w
        g = max(1, t.group)
        per_line = 0
        x = 0.0
        while True:
            nxt = x + box + (group_gap if per_line and per_line % g == 0 else gap if per_line else 0)
            if nxt > avail + 0.01:
                break
            x = nxt
            per_line += 1
        if g <= per_line:
            per_line -= per_line % g  # a figure's boxes stay on one line
        per_line = max(per_line, 1)
        n_lines = -(-t.boxes // per_line)
        row_h = box + 2.2
        rows = []
        left = t.boxes
        for i in range(max(n_lines, len(label_lines))):
            ops: list[tuple] = []
            if i < len(label_lines):
                for sx, text, font, colour in label_lines[i]:
                    ops.append(("T", sx, ls * 0.95 + (row_h - ls * LEADING) / 2 + 0.6, font, ls, colour, text))
            n = min(left, per_line)
            bx = label_w
            for k in range(n):
                if k:
                    bx += group_gap if k % g == 0 else gap
                ops.append(("B", bx, 1.1, box, COLORS[color], 0.6))
                bx += box
            left -= n
            rows.append(Row(max(row_h, ls * LEADING), tuple(ops)))
        return rows

    def table(self, t: Table, s: float, color: int, stat: bool, max_row: float) -> list[Row]:
        """A table of labelled columns; split into stacked groups of columns when too wide.

        Stat tables: the first column holds row labels (a mixed unit's members, the
        ruleset's extra rows such as "Wounded") when there are any; main lines are bold
        and a little larger. Weapon tables: the first column is the weapon's name.
        The first column is repeated in every group and takes (or gives up) the room.
        A stat table with row labels that would need three groups or more is turned
        round instead (stats down the side, members across) when that fits.
        """
        plan = self._plan(t, s, stat, None)
        if stat and t.row_labels and len(plan[3]) >= 3:
            turned = Table(tuple(lab for lab, _, _ in t.rows),
                           tuple((t.labels[j], tuple(cells[j] for _, cells, _ in t.rows), False)
                                 for j in range(len(t.labels))), True)
            turned_plan = self._plan(turned, s, stat, [False] + [main for _, _, main in t.rows])
            if len(turned_plan[3]) == 1:
                plan = turned_plan
        (cols_text, cell_font, _, key, padh, padv), s, widths, groups = plan
        W = self.inner_w
        rows: list[Row] = []
        for gi, group in enumerate(groups):
            cols = ([key] if key is not None else []) + group
            gw = {c: widths[c] for c in cols}
            used = sum(gw.values())
            if used < W - 0.01 and group:
                spread = group if (stat or key is None or len(groups) > 1) else [key]
                for c in spread:
                    gw[c] += (W - used) / len(spread)
            if gi:
                rows.append(Row(s * 0.35, spacer=True))
            rows += self._group_rows(cols, cols_text, gw, cell_font, color, padh, padv, key, max_row)
        return rows

    def _plan(self, t: Table, s: float, stat: bool, col_mains: list[bool] | None):
        """(measures, text size, column widths, groups of columns) for a table."""
        W = self.inner_w
        # rather than split the table: labels on two lines, then smaller text (to the floor)
        # (main stat lines are printed a little larger: that goes first)
        ts = s
        for wrap_labels, big in ((False, 1.12), (False, 1.0), (True, 1.12), (True, 1.0)):
            spec = self._measure(t, s, stat, wrap_labels, col_mains, big)
            if self._fits(spec, W):
                break
        else:
            while not self._fits(spec, W) and ts - 0.25 >= FLOOR - 1e-9:
                ts -= 0.25
                spec = self._measure(t, ts, stat, True, col_mains, 1.0)
            if not self._fits(spec, W):
                ts = s
                spec = self._measure(t, s, stat, True, col_mains, 1.12)
        cols_text, _, nat, key, _, _ = spec
        others = [c for c in range(len(cols_text)) if c != key]
        widths: dict[int, float] = {}
        if key is not None:
            rest = sum(nat[c] for c in others)
            if nat[key] + rest <= W:
                widths = {c: nat[c] for c in range(len(cols_text))}
                spread = others if (stat and others) else [key]
                for c in spread:
                    widths[c] += (W - nat[key] - rest) / len(spread)
                groups = [others]
            elif W - rest >= min(nat[key], W * 0.38):
                widths = {c: nat[c] for c in others}
                widths[key] = W - rest
                groups = [others]
            else:
                widths[key] = min(nat[key], W * 0.38)
                groups = self._groups(others, nat, W - widths[key], widths)
        else:
            groups = self._groups(others, nat, W, widths)
        return spec, ts, widths, groups

    def _measure(self, t: Table, s: float, stat: bool, wrap_labels: bool, col_mains: list[bool] | None = None,
                 big: float = 1.12):
        """Texts, fonts and natural column widths; with ``wrap_labels`` a column label
        may take two or more lines (it is then as wide as its longest word)."""
        m = self.m
        hs = max(FLOOR, s * 0.85)  # column labels
        vs = s * big if stat else s  # main stat lines
        padh, padv = max(1.2, s * 0.28), max(0.8, s * 0.16)
        labels = [self.clean(x, BOLD) for x in t.labels]
        body = [(self.clean(lab), [self.clean(c) for c in cells], main) for lab, cells, main in t.rows]
        cols_text = [[""] + [lab for lab, _, _ in body]] if t.row_labels else []
        cols_text += [[labels[j]] + [cells[j] for _, cells, _ in body] for j in range(len(labels))]
        mains = [False] + [main for _, _, main in body]
        key = 0 if (t.row_labels or not stat) else None

        def cell_font(r: int, c: int) -> tuple[str, float]:
            if r == 0:
                return BOLD, hs
            if c == key and t.row_labels:
                return REGULAR, hs
            if mains[r] if col_mains is None else col_mains[c]:
                return BOLD, vs
            return REGULAR, s

        nat = []
        for c in range(len(cols_text)):
            w = 0.0
            for r, text in enumerate(cols_text[c]):
                font, size = cell_font(r, c)
                if r == 0 and wrap_labels:
                    w = max([w] + [m.width(word, font, size) for word in text.split()])
                else:
                    w = max(w, m.width(text, font, size))
            nat.append(w + 2 * padh)
        return cols_text, cell_font, nat, key, padh, padv

    @staticmethod
    def _fits(spec, W: float) -> bool:
        _, _, nat, key, _, _ = spec
        if key is None:
            return sum(nat) <= W + 0.01
        rest = sum(nat) - nat[key]
        return W - rest >= min(nat[key], W * 0.38) - 0.01

    def _groups(self, cols: list[int], nat: list[float], avail: float, widths: dict) -> list[list[int]]:
        groups: list[list[int]] = []
        cur: list[int] = []
        used = 0.0
        for c in cols:
            w = min(nat[c], avail)
            if cur and used + w > avail + 0.01:
                groups.append(cur)
                cur, used = [], 0.0
            cur.append(c)
            widths[c] = w
            used += w
        if cur:
            groups.append(cur)
        # the same number of groups, with the columns shared out evenly when they fit so
        k, n = len(groups), len(cols)
        if k > 1:
            even, i = [], 0
            for g in range(k):
                size = n // k + (1 if g < n % k else 0)
                even.append(cols[i:i + size])
                i += size
            if all(sum(min(nat[c], avail) for c in g) <= avail + 0.01 for g in even):
                return even
        return groups

    def _group_rows(self, cols, cols_text, widths, cell_font, color, padh, padv, key, max_row) -> list[Row]:
        W = sum(widths[c] for c in cols)
        out: list[Row] = []
        header: Row | None = None
        for r in range(len(cols_text[cols[0]])):
            wrapped = []
            for c in cols:
                font, size = cell_font(r, c)
                lines = self.w.wrap(((cols_text[c][r], font, GREY if r == 0 else INK),), size,
                                    widths[c] - 2 * padh)
                wrapped.append((c, size, lines))
            lead = max(size * LEADING for _, size, _ in wrapped)
            nlines = max(len(lines) for _, _, lines in wrapped)
            # a row taller than max_row is cut into pieces of whole lines
            per_piece = max(1, int((max_row - 2 * padv) // lead))
            for start in range(0, nlines, per_piece):
                end = min(nlines, start + per_piece)
                h = (end - start) * lead + 2 * padv
                ops: list[tuple] = []
                if r == 0:
                    ops.append(("F", 0.0, 0.0, W, h, TINTS[color]))
                x = 0.0
                for c, size, lines in wrapped:
                    cw = widths[c]
                    for li in range(start, min(end, len(lines))):
                        line = lines[li]
                        off = padh if c == key else max(padh, (cw - line_width(line, self.m, size)) / 2)
                        base = padv + (li - start) * lead + (lead - size * LEADING) / 2 + size * 0.93
                        for sx, text, f, colour in line:
                            if text:
                                ops.append(("T", x + off + sx, base, f, size, colour, text))
                    x += cw
                if r > 0:
                    ops.append(("L", 0.0, h, W, h, RULE, 0.4))
                row = Row(h, tuple(ops), keep=1 if r == 0 else 0, header=header if r > 0 else None)
                if r == 0 and nlines <= per_piece:
                    header = row
                out.append(row)
        return out

    # ------------------------------------------------------------ fitting

    def layout(self, c: CardContent) -> LaidOut:
        head = self.header(c)
        first_h = self.frame_height(head)
        color = self.type_color.get(c.type_id or "", len(COLORS) - 1)
        for s in self.sizes:
            rows = self.rows(c, s, first_h * 0.45)
            if sum(r.height for r in rows) <= first_h + 0.01:
                return LaidOut(c, color, head, [rows], s)
        head = self.header(c, c.subtitle + " · card 1/88")
        first_h = self.frame_height(head)
        cont = self.header(c, "… continued (88/88)")
        rest_h = self.frame_height(cont)
        max_row = min(first_h, rest_h) * 0.45
        floor_pages = paginate(self.rows(c, FLOOR, max_row), first_h, rest_h)
        pages, used = floor_pages, FLOOR
        for s in self.sizes[:-1]:
            cand = paginate(self.rows(c, s, max_row), first_h, rest_h)
            if len(cand) <= len(floor_pages):
                pages, used = cand, s
                break
        head = self.header(c, f"{c.subtitle} · card 1/{len(pages)}")
        return LaidOut(c, color, head, pages, used)


def paginate(rows: list[Row], first_h: float, rest_h: float) -> list[list[Row]]:
    """Rows onto cards: the first card has ``first_h`` of frame, the others ``rest_h``.

    A row is never split or clipped; a row that keeps with the next moves on with it;
    a table row on a new card is preceded by its table's header again.
    """
    pages: list[list[Row]] = []
    cur: list[Row] = []
    h = 0.0
    limit = first_h
    i = 0
    n = len(rows)
    while i < n:
        r = rows[i]
        if r.spacer and (not cur or (len(cur) == 1 and cur[0] is r.header)):
            i += 1
            continue
        end = i + r.keep
        k = i + 1
        while k <= end and k < n:
            end = max(end, k + rows[k].keep)
            k += 1
        need = sum(x.height for x in rows[i:min(end, n - 1) + 1])
        if cur and h + need > limit + 0.01 and not (len(cur) == 1 and cur[0] is r.header):
            pages.append(cur)
            cur, h, limit = [], 0.0, rest_h
            if r.header is not None:
                cur.append(r.header)
                h += r.header.height
            continue
        cur.append(r)
        h += r.height
        i += 1
    if cur or not pages:
        pages.append(cur)
    return pages
