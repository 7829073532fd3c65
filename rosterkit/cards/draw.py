"""Drawing laid-out cards and cut marks on a reportlab canvas."""

from __future__ import annotations

from reportlab.lib.colors import Color, white

from .fonts import BOLD
from .layout import COLORS, FLOOR, INSET, LEADING, PAD, RULE, CardLayout, LaidOut, Row
from .pdfops import Block, Encoder

RADIUS = 5.0


def draw_card(c, enc: Encoder, lay: CardLayout, card: LaidOut, page: int, x: float, y: float) -> None:
    """Draw page ``page`` (0-based) of a laid-out card with its bottom-left corner at (x, y)."""
    size = lay.size
    w, h = size.width, size.height
    color = COLORS[card.color]
    n = len(card.pages)
    head = card.header if page == 0 else lay.header(card.content, f"… continued ({page + 1}/{n})")
    bx, by, bw, bh = x + INSET, y + INSET, w - 2 * INSET, h - 2 * INSET
    left = x + INSET + PAD
    right = x + w - INSET - PAD
    top = y + h - INSET
    b = Block(enc)

    # border, name band, points badge, footer rule
    b.stroke_color(color)
    b.line_width(0.9)
    b.fill_color(white)
    b.round_rect(bx, by, bw, bh, RADIUS, "B")
    b.fill_color(color)
    b.round_rect(bx, top - head.band_h, bw, head.band_h, RADIUS)
    b.rect(bx, top - head.band_h, bw, min(RADIUS, head.band_h))
    badge_h = head.badge_size * 1.25
    badge_x = right - head.badge_w + 2
    badge_y = top - head.band_h / 2 - badge_h / 2
    b.fill_color(white)
    b.round_rect(badge_x, badge_y, head.badge_w, badge_h, badge_h / 2.5)
    foot_top = by + lay.footer_h
    b.stroke_color(RULE)
    b.line_width(0.4)
    b.line(left, foot_top, right, foot_top)

    # the flowed rows: fills and lines first, then text over them
    frame_top = top - head.height - 2
    texts = _graphics(b, card.pages[page], left, frame_top)

    # title, badge, subtitle
    lines_h = len(head.title_lines) * head.title_size * 1.15
    ty = top - 3.5 - head.title_size * 0.95 - max(0.0, (head.band_h - 7 - lines_h) / 2)
    for line in head.title_lines:
        for sx, s, font, _ in line:
            b.text(left + sx, ty, font, head.title_size, white, s)
        ty -= head.title_size * 1.15
    b.text(badge_x + 4, badge_y + (badge_h - head.badge_size * 0.72) / 2, BOLD, head.badge_size, color, head.badge)
    sy = top - head.band_h - 2 - head.sub_size * 0.92
    for line in head.sub_lines:
        for sx, s, font, colour in line:
            b.text(left + sx, sy, font, head.sub_size, colour, s)
        sy -= head.sub_size * LEADING
    for row, row_top in texts:
        b.row_text(left, row_top, row)
    # footer: roster and ruleset
    fy = foot_top - 1.5 - FLOOR * 0.92
    for line in lay.footer_lines:
        for sx, s, font, colour in line:
            b.text(left + sx, fy, font, FLOOR, colour, s)
        fy -= FLOOR * LEADING
    b.flush(c)


def _graphics(b: Block, rows: list[Row], left: float, top: float) -> list[tuple[Row, float]]:
    """Draw the rows' fills, rules and boxes; return the rows with text, with their tops."""
    texts = []
    stroke = None
    width = None
    y = top
    for r in rows:
        has_text = False
        for op in r.ops:
            k = op[0]
            if k == "T":
                has_text = True
            elif k == "F":
                _, dx, dy, w, h, colour = op
                b.fill_color(colour)
                b.rect(left + dx, y - dy - h, w, h)
            else:
                if k == "L":
                    _, x1, y1, x2, y2, colour, lw = op
                else:  # "B": a box to tick
                    _, x1, y1, size, colour, lw = op
                if colour is not stroke:
                    b.stroke_color(colour)
                    stroke = colour
                if lw != width:
                    b.line_width(lw)
                    width = lw
                if k == "L":
                    b.line(left + x1, y - y1, left + x2, y - y2)
                else:
                    b.rect(left + x1, y - y1 - size, size, size, "S")
        if has_text:
            texts.append((r, y))
        y -= r.height
    return texts


def draw_cut_marks(c, sheet, length: float = 14.0, gap: float = 3.0) -> None:
    """Short lines in the margins where the sheet is to be cut, outside the cards."""
    x0, y0 = sheet.x0, sheet.y0
    x1 = x0 + sheet.cols * sheet.card_width
    y1 = y0 + sheet.rows * sheet.card_height
    c.saveState()
    c.setStrokeColor(Color(0, 0, 0))
    c.setLineWidth(0.3)
    lx = min(length, x0 - gap - 1)
    ly = min(length, y0 - gap - 1)
    if ly > 2:
        for i in range(sheet.cols + 1):
            xx = x0 + i * sheet.card_width
            c.line(xx, y1 + gap, xx, y1 + gap + ly)
            c.line(xx, y0 - gap, xx, y0 - gap - ly)
    if lx > 2:
        for j in range(sheet.rows + 1):
            yy = y0 + j * sheet.card_height
            c.line(x0 - gap, yy, x0 - gap - lx, yy)
            c.line(x1 + gap, yy, x1 + gap + lx, yy)
    c.restoreState()
