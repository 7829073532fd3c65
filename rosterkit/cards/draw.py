"""Drawing laid-out cards, card backs and cut marks on a reportlab canvas (its public API only)."""

from __future__ import annotations

from reportlab.lib.colors import Color, white

from .fonts import DEJAVU, FontSet
from .layout import CardLayout, LaidOut
from .shaping import Shaper
from .style import COLORS, GREY, INSET, LEADING, PAD, RED, RULE, TINTS, Row

RADIUS = 5.0


class Text:
    """The texts of one card as one text object: font and colour set only when they change."""

    def __init__(self, canvas, shaper: Shaper, fonts: FontSet = DEJAVU) -> None:
        self.c = canvas
        self.t = canvas.beginText()
        self.font: tuple[str, float] | None = None
        self.fill = None
        self.shaper = shaper
        self.fonts = fonts

    def put(self, x: float, y: float, font: str, size: float, colour: Color, text: str) -> None:
        if not text:
            return
        if self.fill is not colour:
            self.t.setFillColor(colour)
            self.fill = colour
        self.t.setTextOrigin(x, y)
        for part, face in self.shaper.pieces(text, font, size, self.fonts):
            if self.font != (face, size):
                self.t.setFont(face, size)
                self.font = (face, size)
            self.t.textOut(part)

    def done(self) -> None:
        self.c.drawText(self.t)

    def flush(self) -> None:
        """Draw the texts so far and start a new text object: what is drawn next comes after them
        in the page's reading order (a text extractor or a screen reader keeps the card's order)."""
        self.done()
        self.t = self.c.beginText()
        self.font = None
        self.fill = None


def draw_card(c, lay: CardLayout, card: LaidOut, page: int, x: float, y: float, scale: float, footer: str,
              shaper: Shaper, flag: str | tuple[str, ...] = "") -> None:
    """Draw page ``page`` (0-based) of a laid-out card with its bottom-left corner at (x, y);
    ``footer`` goes to the right of the footer's second line (fingerprint, card k of n), ``flag``
    to its left in red (the army is not valid; of several, the first the footer has room for)."""
    size = lay.size
    t = lay.t
    w, h = size.width, size.height
    color = COLORS[card.color]
    head = card.head(page)
    c.saveState()
    c.translate(x, y)
    if scale != 1.0:
        c.scale(scale, scale)
    bx, by, bw, bh = INSET, INSET, w - 2 * INSET, h - 2 * INSET
    left = INSET + PAD
    right = w - INSET - PAD
    top = h - INSET

    # border, name band, points badge, footer rule
    c.setStrokeColor(color)
    c.setLineWidth(0.9)
    c.setFillColor(white)
    c.roundRect(bx, by, bw, bh, RADIUS, stroke=1, fill=1)
    c.setFillColor(color)
    c.roundRect(bx, top - head.band_h, bw, head.band_h, RADIUS, stroke=0, fill=1)
    c.rect(bx, top - head.band_h, bw, min(RADIUS, head.band_h), stroke=0, fill=1)
    badge_h = t.title * 1.25
    badge_x = right - head.badge_w  # (as far from the card's edge as the name)
    badge_y = top - 3.5 - badge_h + (badge_h - t.title) / 2 - 1
    if head.badge:
        c.setFillColor(white)
        c.roundRect(badge_x, badge_y, head.badge_w, badge_h, badge_h / 2.5, stroke=0, fill=1)
    foot_top = by + lay.footer_h
    c.setStrokeColor(RULE)
    c.setLineWidth(0.4)
    c.line(left, foot_top, right, foot_top)

    # the flowed rows: fills and lines first, then text over them; the boxes at the bottom
    frame_top = top - head.height - 2
    frame_bottom = foot_top + PAD / 2
    rows = card.pages[page]
    # (an army card's chips and events follow its subtitle, its spare room and notes under them)
    tops = _tops(rows, frame_top, frame_bottom, t.box * 0.35, anchored=card.content.kind != "army")
    text = Text(c, shaper, lay.f)
    _graphics(c, rows, tops, left)

    ty = top - 3.5 - t.title * 0.95
    for line in head.title_lines:
        for sx, s, font, _ in line:
            text.put(left + sx, ty, font, t.title, white, s)
        ty -= t.title * 1.15
    if head.badge:
        base = badge_y + (badge_h - t.title * 0.72) / 2
        text.put(badge_x + 4, base, lay.f.bold, t.title, color, head.badge)
        if head.badge_label:
            x = badge_x + 4 + lay.m.width(head.badge, lay.f.bold, t.title) + lay.m.width(" ", lay.f.bold, t.small)
            text.put(x, base, lay.f.bold, t.small, color, head.badge_label)
    sy = top - head.band_h - 2 - t.body * 0.92
    for line in head.sub_lines:
        for sx, s, font, colour in line:
            text.put(left + sx, sy, font, t.body, colour, s)
        sy -= t.body * LEADING
    for row, row_top in zip(rows, tops):
        for op in row.ops:
            if op[0] == "P":  # a platypus paragraph, wrapped already
                text.flush()
                op[3].drawOn(c, left + op[1], row_top - op[2] - op[4])
            elif op[0] == "T":
                _, dx, dy, font, fsize, colour, s = op
                text.put(left + dx, row_top - dy, font, fsize, colour, s)
    # footer: roster and ruleset; fingerprint and card number. A first line too long for the card
    # leaves out its closing aside (see footer_text), then takes a smaller size, rather than be cut
    # with "…" (at 5.5 pt whole it read smaller than the labels); the flag goes beside the
    # fingerprint, else ahead of the first line while that keeps it whole, else beside the
    # fingerprint at the smaller size
    room = right - left
    regular, cond = lay.f.regular, lay.f.cond

    def whole(size: float, before: float = 0.0) -> bool:
        return lay.footer_text(size, room - before) is not None

    fs = next((size for size in (t.small, t.tiny) for short in (False, True)
               if lay.footer_text(size, room, short) is not None), t.small)
    face, first = regular, False
    flags = (flag,) if isinstance(flag, str) else flag
    flag = flags[0] if flags else ""

    def placed(flag: str) -> tuple[float, str, bool, bool]:
        """(size, face, ahead of the first line, whole): where the flag goes."""
        def beside(size: float, font: str) -> bool:
            return lay.m.width(flag, lay.f.bold, size) + 4 + lay.m.width(footer, font, size) <= room

        ahead = whole(fs, lay.m.width(flag, lay.f.bold, fs) + 4)
        tries = [(fs, regular), (fs, cond)] + ([] if ahead else [(t.tiny, regular), (t.tiny, cond)])
        size, font = next(((size, font) for size, font in tries if beside(size, font)), (fs, regular))
        first = not beside(size, font)
        return size, font, first, not first or ahead

    if flag:
        # (the first of the flags that leaves the footer whole: "NOT VALID: 258/250" on a poker card,
        # "NOT VALID" where the card's footer has no room for the numbers)
        fits = [(f, placed(f)) for f in flags]
        flag, (fs, face, first, _) = next((x for x in fits if x[1][3]), fits[-1])
    fy = foot_top - 1.5 - fs * 0.92
    fw = lay.m.width(footer, face, fs)
    flag_w = lay.m.width(flag, lay.f.bold, fs) + 4 if flag else 0.0
    if first:
        text.put(left, fy, lay.f.bold, fs, RED, flag)
    for line in lay.footer_lines(room - flag_w if first else None, fs):
        for sx, s, font, colour in line:
            text.put(left + (flag_w if first else 0.0) + sx, fy, font, fs, colour, s)
    fy -= fs * LEADING
    text.put(max(left, right - fw), fy, face, fs, GREY, footer)
    if flag and not first:
        text.put(left, fy, lay.f.bold, fs, RED, flag)
    text.done()
    c.restoreState()


def _tops(rows: list[Row], top: float, bottom: float, apart: float = 0.0, anchored: bool = True) -> list[float]:
    """The top of each row: the content from the frame's top with its own gaps, and the block of
    boxes set at the frame's bottom (with the lines to write on over them), the card's spare room
    in one place between them: sections whose content is alike stand at the same heights on every
    card of a sheet.
    A tracker's lines of boxes move apart a little (by up to ``apart``) where there is room. Not
    ``anchored``: every row from the top, the spare room at the bottom."""
    start = next((i for i, r in enumerate(rows) if r.bottom), None) if anchored else None  # the boxes come last
    n = len(rows)
    extra = [0.0] * n  # below each row
    # a tracker's last line of boxes and the next tracker, in the block at the bottom
    slots = [] if start is None else [(i, apart) for i in range(start, n - 1) if rows[i].apart]
    spare = top - bottom - sum(r.height for r in rows)
    if slots and spare > 0:
        share = spare / (len(slots) + 1)
        for i, cap in slots:
            extra[i] = min(cap, share)
    tops = []
    y = top
    for i, r in enumerate(rows):
        if i == start:
            rest = sum(x.height for x in rows[i:]) + sum(extra[i:])
            y = min(y, bottom + rest)
        tops.append(y)
        y -= r.height + extra[i]
    return tops


def _graphics(c, rows: list[Row], tops: list[float], left: float) -> None:
    """Draw the rows' fills, rules and boxes."""
    stroke = None
    width = None
    fill = None
    for r, y in zip(rows, tops):
        for op in r.ops:
            k = op[0]
            if k in ("T", "P"):
                continue
            if k == "F":
                dx, dy, w, h, colour = op[1:6]
                if colour is not fill:
                    c.setFillColor(colour)
                    fill = colour
                if len(op) > 6:  # (a rounded fill: a figure's number badge)
                    c.roundRect(left + dx, y - dy - h, w, h, op[6], stroke=0, fill=1)
                else:
                    c.rect(left + dx, y - dy - h, w, h, stroke=0, fill=1)
                continue
            colour, lw = op[5], op[6]
            if colour is not stroke:
                c.setStrokeColor(colour)
                stroke = colour
            if lw != width:
                c.setLineWidth(lw)
                width = lw
            if k == "L":
                _, x1, y1, x2, y2, _, _ = op
                c.line(left + x1, y - y1, left + x2, y - y2)
            else:  # "B": a box to tick
                _, bx, dy, w, h, _, _ = op
                c.rect(left + bx, y - dy - h, w, h, stroke=1, fill=0)


def draw_back(c, lay: CardLayout, x: float, y: float, scale: float, lines: list[str], shaper: Shaper) -> None:
    """The back of a card, for printing on both sides: a frame and the army's name."""
    size = lay.size
    w, h = size.width, size.height
    c.saveState()
    c.translate(x, y)
    if scale != 1.0:
        c.scale(scale, scale)
    c.setStrokeColor(COLORS[0])
    c.setFillColor(COLORS[0])
    c.setLineWidth(0.9)
    c.roundRect(INSET, INSET, w - 2 * INSET, h - 2 * INSET, RADIUS, stroke=1, fill=1)
    c.setStrokeColor(TINTS[0])
    c.setLineWidth(0.6)
    c.roundRect(INSET + PAD, INSET + PAD, w - 2 * (INSET + PAD), h - 2 * (INSET + PAD), RADIUS, stroke=1, fill=0)
    text = Text(c, shaper, lay.f)
    t = lay.t
    sizes = [t.title] + [t.body] * (len(lines) - 1)
    wrapped = []
    for k, (line, s) in enumerate(zip(lines, sizes)):
        font = lay.f.bold if k == 0 else lay.f.regular
        for seg_line in lay.w.wrap(((lay.clean(line, font), font, white),), s, w - 2 * (INSET + 2 * PAD)):
            wrapped.append((seg_line, s))
    total = sum(s * LEADING for _, s in wrapped)
    yy = h / 2 + total / 2
    for seg_line, s in wrapped:
        yy -= s * LEADING
        lw = sum(lay.m.width(txt, f, s) for _, txt, f, _ in seg_line)
        for sx, txt, f, colour in seg_line:
            text.put((w - lw) / 2 + sx, yy + s * 0.2, f, s, colour, txt)
    text.done()
    c.restoreState()


def draw_cut_marks(c, sheet, used: int, margin: float, length: float = 14.0, gap: float = 2.0) -> None:
    """Short lines where the sheet is to be cut, outside the used cards, never closer to the
    paper's edge than ``margin`` (what a printer can print)."""
    segs: set[tuple[float, float, float, float]] = set()
    W, H = sheet.page_width, sheet.page_height
    cw, ch = sheet.card_width, sheet.card_height
    slots = [sheet.slot(i) for i in range(used)]
    cols: dict[int, list[int]] = {}
    rows: dict[int, list[int]] = {}
    for i in range(used):
        r, col = divmod(i, sheet.cols)
        cols.setdefault(col, []).append(i)
        rows.setdefault(r, []).append(i)

    def add(x1: float, y1: float, x2: float, y2: float) -> None:
        x1, x2 = (max(margin, min(W - margin, v)) for v in (x1, x2))
        y1, y2 = (max(margin, min(H - margin, v)) for v in (y1, y2))
        if abs(x2 - x1) + abs(y2 - y1) >= 2.0:
            segs.add((round(x1, 2), round(y1, 2), round(x2, 2), round(y2, 2)))

    for idx in cols.values():
        top = max(slots[i][1] for i in idx) + ch
        bottom = min(slots[i][1] for i in idx)
        x = slots[idx[0]][0]
        for xx in (x, x + cw):
            add(xx, top + gap, xx, min(top + gap + length, H - margin))
            add(xx, bottom - gap, xx, max(bottom - gap - length, margin))
    for idx in rows.values():
        left = min(slots[i][0] for i in idx)
        right = max(slots[i][0] for i in idx) + cw
        y = slots[idx[0]][1]
        for yy in (y, y + ch):
            add(left - gap, yy, max(left - gap - length, margin), yy)
            add(right + gap, yy, min(right + gap + length, W - margin), yy)
    c.saveState()
    c.setStrokeColor(Color(0, 0, 0))
    c.setLineWidth(0.3)
    for x1, y1, x2, y2 in sorted(segs):
        c.line(x1, y1, x2, y2)
    c.restoreState()
