"""Laying a card out: one fixed structure, one body size for the whole export.

Every card of an export has the same structure and the same type sizes: a name band
(name, points badge), a subtitle (type, size, points), marks (the General) and a "not
valid" band when the unit breaks a rule, the stat band (large values in boxes, the
columns the ruleset gives), the weapon table (one row per weapon, in the ruleset's
columns; notes on a line under the row; its cells measured and wrapped by platypus
paragraphs), abilities and equipment, notes (with lines to write on where the cards of a
sheet have room to spare, see :meth:`CardLayout.with_ruled`), and the tracking boxes at the
bottom; the card's spare room stays in one place, between its notes and its boxes. The footer carries the roster, the ruleset, the roster's fingerprint and "card k of n".

:meth:`CardLayout.fit` chooses the export's body size: the largest, within the card
size's bounds, at which every unit card fits on one card with each weapon on one row and
a record line of stats on as few lines as it can take. A card that does not fit even at
the smallest size continues on further cards ("continued (2/3)"), as does an army card
that does not fit at the size its units print at.

Everything that flows is a list of rows (a line of text, a table line, a line of boxes);
rows are the units of fitting: a row is never split or clipped. Widths are measured once
per text and font, and wrapped lines and whole sections are cached (a roster repeats
the same weapons, abilities and stat lines on many cards).

CardLayout's tables (stat band, weapon table, chart) are in ``tables``, its tracking boxes in
``boxes``; what they share (type sizes, colours, rows) in ``style``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace

from reportlab.lib.colors import Color, white
from reportlab.lib.styles import ParagraphStyle

from .boxes import TrackerRows
from .content import CardContent, Entry, Table
from .fonts import DEJAVU, FontSet, Glyphs
from .sizes import CardSize
from .style import (
    BOX_LARGE,
    BOX_MAX,
    COLORS,
    GOLD,
    GREY,
    GROW_STEP,
    GROW_STEPS,
    INK,
    INSET,
    LEADING,
    NEUTRAL,
    NOTE_GAP,
    PAD,
    RED,
    RED_TINT,
    ROOMY_LOW,
    RULE,
    RULE_SPACE,
    RULED_MAX,
    RULED_PITCH,
    RULES_FULL,
    RULES_STEP,
    SPACE_MAX,
    STAT_MAX,
    STAT_MAX_LARGE,
    STATS_KEY,
    STEP,
    TINTS,
    Metrics,
    Row,
    Run,
    Seg,
    Type,
)
from .tables import _SLASHED, TableRows, models

# ---------------------------------------------------------------- text


# a line breaks after a slash or a dash, but not inside a range of numbers ("11-15") nor a list
# of numbers read in order ("0/1/2/3", "4+/5+/6+/7+": a target by Defense)
# (a sign opening a number or a word, "-1", "-target's Def", stays with it)
_TOKENS = re.compile(r"\n|\[U\+[0-9A-F]{4,6}\]|[^\S\n]+|(?:\d+\+?/)+\d+\+?:?(?![\w/])|(?:(?<!\S)\(?[\-–](?=\w))?(?:[^\s/\-–\[]*\d[\-–](?=\d))*[^\s/\-–\[]+[/\-–]*"
                     r"|[/\-–\[]+")


# an aside closing a name ("Heroic skirmish with God chips (MWAN #123)")
_ASIDE = re.compile(r"\s*\([^()]*\)\s*$")


# a subtitle's count of figures with its word, "10 miniatures × ", "2 figures of 3" (see short_counts())
_COUNT_WORD = re.compile(r"\b(\d+) [^\W\d_]+ (×|of) ")


class Wrapper:
    """Greedy line breaking of runs of text (bold name, plain text) into a width.

    A word longer than the line is broken between characters; a ``[U+XXXX]`` placeholder
    is one word and is never broken. Not platypus's Paragraph (the table cells'): it breaks
    "Claw/hand" as "Claw/ha" "nd" and wraps the quick rules 7 times slower (bench_wrap.py).
    """

    def __init__(self, metrics: Metrics) -> None:
        self.m = metrics
        self._cache: dict[tuple, list[list[Seg]]] = {}

    def wrap(self, runs: tuple[Run, ...], size: float, width: float, indent: float = 0.0,
             cache: bool = True) -> list[list[Seg]]:
        if not cache:
            return self._wrap(runs, size, max(width, size), indent)
        key = (runs, size, round(width, 2), indent)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        lines = self._wrap(runs, size, max(width, size), indent)
        if len(self._cache) > 8_000:
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
        pending = ""

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
                if not line and w > limit + 0.01 and not tok.startswith("[U+"):
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


# ---------------------------------------------------------------- the card


@dataclass
class Header:
    title_lines: list[list[Seg]]
    badge: str
    badge_w: float
    band_h: float
    sub_lines: list[list[Seg]]
    height: float  # band + subtitle strip
    badge_label: str = ""  # after the badge's number, at the labels' size (Type.small)


@dataclass
class LaidOut:
    content: CardContent
    color: int
    header: Header  # of the first card
    pages: list[list[Row]]  # the rows of each card
    size: float  # body text size used
    heads: list[Header] | None = None  # the header of each card (continuations say "continued")

    def head(self, page: int) -> Header:
        return self.heads[page] if self.heads else self.header


class CardLayout(TableRows, TrackerRows):
    """Lays out cards of one size for one export."""

    def __init__(self, size: CardSize, glyphs: Glyphs, footer: str, type_ids: list[str],
                 fonts: FontSet | None = None, record_line: bool = False, short_counts: bool = False,
                 band_rows: dict[str, int] | None = None, stat_max: float | None = None,
                 names: dict[str, str] | None = None):
        self.size = size
        self.names = names or {}  # a stat column's name spelt out, by label (see stat_table)
        # the stat band's row of each column (by label) where the ruleset declares rows (see declared_rows)
        self.band_rows = band_rows or {}
        self.declared_stat_max = stat_max  # the ruleset's [card] stat_max, see stat_max
        self.short_always = short_counts  # the ruleset's subtitles at this size leave out the count's word
        # the stat band is the book's card, one line of boxes (For the Masses' Mv to CP): a size
        # that would break it in two is not taken; another band may take two lines (see _fit)
        self.record_line = record_line
        self.glyphs = glyphs
        self.f = fonts or glyphs.fonts or DEJAVU
        self.m = Metrics(self.f)
        self.w = Wrapper(self.m)
        self.inner_w = size.width - 2 * (INSET + PAD)
        self.type_color = {t: i % NEUTRAL for i, t in enumerate(type_ids)}
        self.sizes = []
        s = size.high
        while s >= size.low - 1e-9:
            self.sizes.append(round(s, 2))
            s -= STEP
        self.top = 0  # the index in sizes of the largest body fit() may take (see export_cards)
        self._sections: dict[tuple, list[Row]] = {}
        # the quick rules' size grown to fill the cards they take (see fill_rules); 0: the card size's
        self.rules_room = 0.0
        # the stat bands and weapon tables of the export, every card's rows together: a table's
        # columns are as wide on every card (one layout for the ruleset's cards), see fit()
        self.models: dict[tuple, Table] = {}
        self._nat: dict[tuple, tuple[Table, list[float]]] = {}
        self._banded: dict[tuple, tuple[Table, Table]] = {}
        self._styles: dict[tuple, ParagraphStyle] = {}
        self.contents: list[CardContent] = []  # the export's cards, as fit() last saw them
        self._turn_all: dict[Type, bool] = {}
        self._runs_over: dict[Type, bool] = {}
        self._narrow_all: dict[Type, bool] = {}
        self._names_all: dict[Type, bool] = {}
        self._reminder_face: dict[Type, str] = {}
        self._reminder_size: dict[Type, tuple[float, Color]] = {}
        self.band_wrap = False  # whether a weapon cell listing bands may take two lines (see fit())
        self.name_wrap = False  # whether a weapon's name may break after a slash ("Claw/hand/ spear"; see fit())
        self.footer = glyphs.clean(footer)
        self._stat_at: dict[float, float] = {}
        self._faces: dict[float, tuple[str, str]] = {}  # see faces()
        self._short: dict[float, bool] = {}  # see short_counts()
        self.t = Type(self.sizes[-1], size.title, size.stat)
        # a card's header at least this tall (a card beside one with a taller header on its sheet)
        self.head_min: dict[CardContent, float] = {}

    # ------------------------------------------------------------ sizes

    def use(self, body: float, stat: float = 0.0, box: float = 0.0, space: float = 1.0) -> None:
        """The export's type sizes: ``body``, and the stat band's values at ``stat`` (by default
        the largest at which no stat band takes more lines than at the card size's smallest)."""
        self.t = Type(body, self.size.title, self.size.stat, stat or self.stat_for(body), box, space)

    def stat_for(self, body: float) -> float:
        """The stat band's value size at ``body``: 1.4 times the body, or less where that would
        break a stat band of the export onto more lines than the card size's smallest does
        (a long value such as "0 (bow +1)" beside "6 Sw 3 Cl 1 Ju 3")."""
        hit = self._stat_at.get(body)
        if hit is None:
            hit = self._stat_at[body] = self.largest_stat(body, max(self.size.stat, body * 1.4))
        return hit

    def largest_stat(self, body: float, high: float, slack: float = 1.0) -> float:
        """The largest stat value size from ``high`` down to the card size's smallest at which no
        stat band of the export takes more lines than at the smallest (with room for values
        ``slack`` times as large: a band grown to fill its line looks crammed)."""
        low = self.size.stat
        tables: dict[object, Table] = {}
        for c in self.contents:
            if c.kind != "unit":
                continue
            # (a band with a line per kind of figure turns instead, stats down the side: see stat_table;
            # a lone figure's band with its states in it, "Unwounded" over "Wounded", counts)
            for t in (c.stats, c.unit_wide):
                if t is not None and t.labels and (t.states or not (t.row_labels and len(t.rows) > 1)):
                    tables.setdefault(t.labels if not t.row_labels else t, t)
        if not tables or high <= low:
            return round(max(high, low), 2)
        saved = self.t

        def lines(stat: float) -> list[int]:
            # (twice the lines, one more where the band takes the condensed face: values are not
            # grown into it, as values grown until only the condensed face holds them look crammed;
            # a band that needs it at the smallest values keeps it)
            self.t = Type(body, self.size.title, low, stat)
            out = []
            for t in tables.values():
                groups, _, fonts = self._stat_plan(t, self.key_width(t))
                out.append(2 * len(groups) + (fonts[1] != self.f.bold))
            return out

        try:
            floor = lines(low)
            stat = high
            while stat > low + 1e-9:
                if all(a <= b for a, b in zip(lines(stat * slack), floor)):
                    return round(stat, 2)
                stat -= STEP
            return low
        finally:
            self.t = saved

    def key_width(self, t: Table) -> float:
        """The width of a stat band's first column (the kinds of figure of a mixed unit), if it has one."""
        if not t.row_labels:
            return 0.0
        return min(max(self.m.width(self.clean(lab), self.f.regular, self.t.small) for lab, _, _ in t.rows)
                   + 2 * self.padh, self.inner_w * 0.34)

    @property
    def footer_h(self) -> float:
        return 2 * self.t.small * LEADING + 3.0

    def footer_text(self, size: float, room: float, short: bool = True) -> tuple[str, str] | None:
        """The footer's first line and its face, whole in ``room`` at ``size``: in the regular face,
        else the condensed one, else (``short``) without a closing aside ("(MWAN #123)"); None if
        none fits."""
        for text in dict.fromkeys((self.footer, _ASIDE.sub("", self.footer) if short else self.footer)):
            for font in (self.f.regular, self.f.narrow(self.f.regular)):
                if self.m.width(text, font, size) <= room + 0.01:
                    return text, font
        return None

    def footer_lines(self, room: float | None = None, size: float | None = None) -> list[list[Seg]]:
        """The footer's first line (roster and ruleset) in ``room`` (the card's width by default), at
        ``size`` (the labels' by default)."""
        s = size or self.t.small
        room = self.inner_w if room is None else room
        text, font = self.footer_text(s, room) or (self.footer, self.f.narrow(self.f.regular))
        lines = self.w.wrap(((text, font, GREY),), s, room)
        if len(lines) > 1:  # one line: the rest is cut with an ellipsis
            first = lines[0]
            text = "".join(t for _, t, _, _ in first)
            while text and self.m.width(text + "…", font, s) > room:
                text = text[:-1]
            lines = [[(0.0, text.rstrip() + "…", font, GREY)]]
        return lines

    # ------------------------------------------------------------ helpers

    def clean(self, text: str, font: str | None = None, multiline: bool = False) -> str:
        return self.glyphs.clean(text, font or self.f.regular, multiline)

    def para(self, runs: tuple[Run, ...], size: float, width: float, x: float = 0.0, indent: float = 0.0,
             together: int = 4, cache: bool = True) -> list[Row]:
        """Lines of text; a paragraph of up to ``together`` lines is never split, a longer one
        leaves at least two lines on either side of a break."""
        lead = size * LEADING
        base = size * 0.9
        rows = []
        for line in self.w.wrap(runs, size, width, indent, cache):
            ops = tuple(("T", x + sx, base, font, size, colour, text) for sx, text, font, colour in line if text)
            rows.append(Row(lead, ops))
        n = len(rows)
        if 1 < n <= together:
            rows[0].keep = n - 1
        elif n > together:
            rows[0].keep = 1
            rows[-2].keep = 1
        return rows

    def heading(self, text: str, color: int, note: str = "") -> Row:
        """A section's heading, a rule after it; ``note`` (small, grey) in the rule's place when it
        fits there (the row's ``noted`` says whether it did)."""
        hs = self.t.small
        label = self.clean(text.upper(), self.f.bold)
        h = hs * LEADING + 2.0
        end = self.m.width(label, self.f.bold, hs) + 3
        noted = bool(note) and end + self.m.width(note, self.f.cond, hs) <= self.inner_w + 0.01
        ops: tuple = (("T", 0.0, hs * 0.95 + 1.5, self.f.bold, hs, COLORS[color], label),)
        if noted:
            ops += (("T", end, hs * 0.95 + 1.5, self.f.cond, hs, GREY, note),)
        else:
            ops += (("L", end, hs * 0.62 + 1.5, self.inner_w, hs * 0.62 + 1.5, TINTS[color], 0.6),)
        row = Row(h, ops, keep=1)
        row.noted = noted
        return row

    def band(self, text: str, ink: Color, fill: Color) -> list[Row]:
        """A coloured band of text across the card (not valid, General)."""
        s = self.t.body
        rows = self.para(((self.clean(text, self.f.bold), self.f.bold, ink),), s, self.inner_w - 6, x=3.0)
        out = []
        for i, r in enumerate(rows):
            top = 2.0 if i == 0 else 0.0
            bottom = 2.0 if i == len(rows) - 1 else 0.0
            h = r.height + top + bottom
            ops = (("F", 0.0, 0.0, self.inner_w, h, fill),) + tuple(
                (op[0], op[1], op[2] + top) + op[3:] for op in r.ops)
            out.append(Row(h, ops, keep=r.keep))
        return out

    # ------------------------------------------------------------ header

    def header(self, c: CardContent, continued: str | None = None) -> Header:
        t = self.t
        badge = "" if continued is not None else self.clean(c.badge, self.f.bold)
        badge_w = self.badge_width(badge, c.badge_label)
        face = self.faces()[0]
        avail = self.title_room(badge_w)
        lines = self.balanced(((self.clean(c.title, face), face, white),), t.title, avail)
        most = 2 if continued is not None else 3
        if len(lines) > most:  # a very long name: its first lines, then … (the whole name opens the card)
            lines = lines[:most]
            last = list(lines[-1])
            x, text, font, colour = last[-1]
            while text and x + self.m.width(text + "…", font, t.title) > avail:
                text = text[:-1]
            last[-1] = (x, text + "…", font, colour)
            lines[-1] = last
        band_h = len(lines) * t.title * 1.15 + 7
        sub = continued if continued is not None else c.subtitle
        sub_lines = self.subtitle(sub, c.marks if continued is None else ())
        height = band_h + len(sub_lines) * t.body * LEADING + 4
        if continued is None and self.head_min:
            height = max(height, self.head_min.get(c, 0.0))
        return Header(lines, badge, badge_w, band_h, sub_lines, height, c.badge_label if badge else "")

    def badge_width(self, badge: str, label: str) -> float:
        """The points badge's width: its number at the title's size, and its label after it small."""
        if not badge:
            return 0.0
        w = self.m.width(badge, self.f.bold, self.t.title) + 8
        return w + self.m.width(" " + label, self.f.bold, self.t.small) if label else w

    def title_room(self, badge_w: float) -> float:
        return self.inner_w - badge_w - (5 if badge_w else 0)

    def faces(self) -> tuple[str, str]:
        """The faces of the export's names and subtitles: the condensed one where it saves a line on
        any card of the export, else the regular one; the same on every card, so that the headers
        of a sheet read alike."""
        t = self.t
        hit = self._faces.get(t.body)
        if hit is not None:
            return hit
        f = self.f
        names = subs = False
        for c in self.contents:
            if not names:
                room = self.title_room(self.badge_width(self.clean(c.badge, f.bold), c.badge_label))
                names = self._saves_line(c.title, (f.bold, f.cond_bold), t.title, room)
            if not subs:  # (the subtitle, or its short form: see short_counts())
                subs = any(self._saves_line(sub, (f.regular, f.cond), t.body, self.inner_w)
                           for sub in {c.subtitle, _COUNT_WORD.sub(r"\1 \2 ", c.subtitle)})
            if names and subs:
                break
        hit = self._faces[t.body] = (f.cond_bold if names else f.bold, f.cond if subs else f.regular)
        return hit

    def short_counts(self) -> bool:
        """Whether the export's subtitles leave out the count's word ("10 × 21 = 210 points", not
        "10 miniatures × 21 = …"): where that keeps a subtitle of the export on one line that the
        subtitle face cannot; on every card alike, so that the subtitles of a sheet read alike; and at
        a size where the ruleset says so, on every export alike."""
        if self.short_always:
            return True
        hit = self._short.get(self.t.body)
        if hit is None:
            font, size = self.faces()[1], self.t.body
            hit = self._short[size] = any(
                len(self.w.wrap(((self.clean(short), font, GREY),), size, self.inner_w)) <
                len(self.w.wrap(((self.clean(c.subtitle), font, GREY),), size, self.inner_w))
                for c in self.contents if (short := _COUNT_WORD.sub(r"\1 \2 ", c.subtitle)) != c.subtitle)
        return hit

    def _saves_line(self, text: str, faces: tuple[str, str], size: float, width: float) -> bool:
        wide, narrow = ([(self.clean(text, font), font, INK)] for font in faces)
        return len(self.w.wrap(tuple(narrow), size, width)) < len(self.w.wrap(tuple(wide), size, width))

    def even(self, runs: tuple[Run, ...], size: float, width: float) -> list[list[Seg]]:
        """``runs`` wrapped into ``width``, in as few lines, the lines as nearly as long as each other
        as that allows: no word alone on the last line of a caption."""
        lines = self.w.wrap(runs, size, width, cache=False)
        if len(lines) < 2:
            return lines
        lo, hi = width / len(lines), width  # the narrowest width that takes no more lines
        for _ in range(10):
            mid = (lo + hi) / 2
            if len(self.w.wrap(runs, size, mid, cache=False)) > len(lines):
                lo = mid
            else:
                hi = mid
        return self.w.wrap(runs, size, hi, cache=False)

    def balanced(self, runs: tuple[Run, ...], size: float, width: float) -> list[list[Seg]]:
        """``runs`` wrapped into ``width``; on two lines, broken where the lines come out most
        nearly as long as each other ("Thane's Hearthguard:" over "Dwarf Warrior", not a last
        word alone on the second line)."""
        lines = self.w.wrap(runs, size, width, cache=False)
        if len(lines) != 2:
            return lines
        lo, hi = width / 2, width  # the narrowest width that still takes two lines
        for _ in range(10):
            mid = (lo + hi) / 2
            if len(self.w.wrap(runs, size, mid, cache=False)) > 2:
                lo = mid
            else:
                hi = mid
        return self.w.wrap(runs, size, hi, cache=False)

    def subtitle(self, text: str, marks: tuple[str, ...] = ()) -> list[list[Seg]]:
        """The subtitle's lines, in the export's subtitle face (see faces()); on two lines, broken
        before its last "=" or after its last "·" rather than leave one word alone on the second
        ("… = 258" over "points"). The unit's ``marks`` ("★ General") close it in gold: a band
        of their own would take a line and a half of the card."""
        size, W = self.t.body, self.inner_w
        font = self.faces()[1]
        if self.short_counts():
            text = _COUNT_WORD.sub(r"\1 \2 ", text)
        if marks:
            bold = self.f.cond_bold if font == self.f.cond else self.f.bold
            runs: tuple[Run, ...] = ((self.clean(text, font), font, GREY),)
            for mark in marks:
                runs += ((" · ", font, GREY), (self.clean("★ " + mark, bold), bold, GOLD))
            return self.w.wrap(runs, size, W)
        lines = self.w.wrap(((self.clean(text, font), font, GREY),), size, W)
        if len(lines) != 2 or " " in "".join(t for _, t, _, _ in lines[1]).strip():
            return lines
        for sep, left in ((" = ", False), (" · ", True)):
            k = text.rfind(sep)
            if k <= 0:
                continue
            head, tail = (text[:k + 2], text[k + 3:]) if left else (text[:k], text[k + 1:])
            parts = [self.w.wrap(((self.clean(p, font), font, GREY),), size, W) for p in (head, tail)]
            if all(len(p) == 1 for p in parts):
                return parts[0] + parts[1]
        return self.balanced(((self.clean(text, font), font, GREY),), size, W)

    def frame_height(self, header: Header) -> float:
        return self.size.height - 2 * INSET - header.height - self.footer_h - PAD - 2

    def fill(self, laid: LaidOut, page: int) -> float:
        """The share of the card's height between its name band's top and its footer that page
        ``page`` of a laid-out card uses (its lines to write on included)."""
        used = laid.head(page).height + 2 + sum(r.height for r in laid.pages[page])
        return used / (self.size.height - 2 * INSET - self.footer_h - PAD)

    # ------------------------------------------------------------ sections

    def color_of(self, c: CardContent) -> int:
        if c.kind != "unit":
            return 0 if c.kind == "army" else NEUTRAL
        return self.type_color.get(c.type_id or "", NEUTRAL)

    def rows(self, c: CardContent, early: bool = False) -> list[Row]:
        """The card's rows; ``early``: the boxes right after the weapons (a card that continues
        keeps its stat band, weapons and boxes together on its first card), else at the bottom.
        A reference card's texts, its abilities' and its quick rules', at rules_size() alike."""
        t = self.t
        s = t.body
        color = self.color_of(c)
        gap = Row(t.gap, spacer=True)
        out: list[Row] = []
        if len(self.w.wrap(((self.clean(c.title, self.f.bold), self.f.bold, white),), t.title,
                           self.inner_w * 0.6, cache=False)) > 3:
            out += self.para(((self.clean(c.title, self.f.bold), self.f.bold, INK),), s, self.inner_w, cache=False)
            out.append(gap)
        shorts = dict(c.shorts)
        for msg in c.invalid:  # at most two lines at every size: the summary page has it all
            text = card_error(msg, lambda s: len(self.w.wrap(((self.clean(s, self.f.bold), self.f.bold, RED),),
                                                             t.body, self.inner_w - 6, cache=False)) <= 2,
                              shorts.get(msg))
            out += self.band(text, RED, RED_TINT)
            out.append(Row(2.0, spacer=True))
        if c.chart is not None:
            out += self.chart(c, color)
        if c.stats.labels:
            out += self.cached(("stats", c.stats, color), lambda: self.stat_table(c.stats, color))
        if c.unit_wide is not None:
            out.append(Row(2.0, spacer=True))
            out += self.cached(("unit", c.unit_wide, color), lambda: self.stat_table(c.unit_wide, color, "Unit"))
        if (c.costs or c.asides or c.modes) and (c.stats.labels or c.unit_wide is not None):
            out.append(Row(NOTE_GAP))  # (a note under the stat band clears its bottom rule)
        for mode in c.modes:
            out += self.para(((self.clean(mode), self.f.regular, INK),), s, self.inner_w, cache=False)
        if c.costs:
            out += self.para(((self.clean(c.costs), self.f.regular, GREY),), s, self.inner_w, cache=False)
        for aside in c.asides:
            if aside == c.reminder:  # (read in play: on a large card, from across the table)
                size, colour = self.reminder_size()
                face = self.reminder_face()
                for line in self.reminder_lines(aside, face, size):
                    out += self.para(((line, face, colour),), size, self.inner_w, cache=False)
            else:  # a stat band's sparse row ("To hit: 4 + target's Def (Att)"): read in play as the reminder,
                # and set as it is beside one ("Melee: AD 1d4" at the body over the morale facts smaller
                # read as two kinds of line)
                if aside == c.legend:
                    out += self.para(((self.clean(aside), self.f.regular, GREY),), t.small, self.inner_w, cache=False)
                    continue
                # (in ink, its label bold: the number a player rolls against, "To hit: 4 + target's
                # Def", read grey as a footnote)
                size, colour, face = (t.remind, INK, self.f.regular) if not self.roomy else \
                    (*self.reminder_size(), self.reminder_face()) if c.reminder else (s, INK, self.f.regular)
                label, sep, rest = aside.partition(": ")
                runs = ((self.clean(label + sep), self.f.bold, colour), (self.clean(rest), face, colour)) if sep \
                    else ((self.clean(aside), face, colour),)
                out += self.para(runs, size, self.inner_w, cache=False)
        for msg in c.warnings:  # a reading or advice: the unit stays valid, so a quiet line, not a band
            if out:
                out.append(Row(NOTE_GAP, spacer=True))
            text = "Warning: " + msg
            if c.kind == "unit":  # a playing card: at most two lines, the summary page has the rest
                text = card_warning(msg, lambda s: len(self.w.wrap(((self.clean(s), self.f.regular, GREY),),
                                                                   t.small, self.inner_w, cache=False)) <= 2,
                                    shorts.get(msg))
            out += self.para(((self.clean(text), self.f.regular, GREY),), t.small, self.inner_w, cache=False)
        if c.weapons is not None and c.weapons.rows:
            out.append(gap)
            out += self.cached(("weapons", c.weapons, color), lambda: self.weapon_table(c.weapons, color))
        if c.tracks and early:
            out.append(gap)
            out += self.cached(("tracks", c.tracks, color), lambda: self.tracks(c.tracks, color))
        army = c.kind == "army"  # (its abilities are the army's settings)
        for title, entries in (("Settings" if army else c.abilities_label, c.abilities),
                               (c.specials_label, c.specials), ("Equipment", c.equipment)):
            if entries:
                # the weapon specials' heading right under the abilities (its rule sets them apart):
                # a card that had the room for their texts among the abilities has it under their own
                if not (entries is c.specials and c.abilities):
                    out.append(gap)
                out.append(head := self.heading(title, color))
                for e in entries:
                    out += self.reference_entry(e, head) if c.kind == "reference" else \
                        self.cached(("entry", e, c.kind), lambda e=e: self.entry(e, c.kind))
        if c.rules:
            out += self.rules(c, out, color)
        if c.notes:
            out.append(gap)
            out.append(self.heading("Notes", color))
            for n in c.notes:
                out += self.para(((self.clean(n, multiline=True), self.f.regular, INK),), s, self.inner_w,
                                 cache=False)
        for p in c.problems:
            out.append(gap)
            out += self.para(((self.clean("Cannot show: " + p, multiline=True), self.f.regular, RED),), s,
                             self.inner_w)
        if c.tracks and not early:
            out.append(gap)
            block = []
            for r in self.cached(("tracks", c.tracks, color), lambda: self.tracks(c.tracks, color)):
                block.append(Row(r.height, r.ops, r.keep, r.header, r.spacer, bottom=True))
                block[-1].apart = r.apart
            out += block
        return out

    def rules(self, c: CardContent, before: list[Row], color: int) -> list[Row]:
        """A reference card's quick rules (the game's rolls, read before play and looked up during
        it, not across the table), at rules_size()."""
        t = self.t
        # a card of rules alone says so in its subtitle: no heading over them
        head = [Row(t.gap, spacer=True), self.heading(c.rules_label, color)] if before else []
        # the stat bands' short labels spelt out first, where the bands do not spell them
        rules = ((Entry(STATS_KEY, c.key),) if c.key and not self.names_all() else ()) + c.rules
        with self.at_rules_size():
            # (the rules closer together than the abilities' texts: each opens with its name in bold)
            return head + [r for e in rules
                           for r in headed(self.cached(("rule", e), lambda e=e: self.entry(e, c.kind, RULE_SPACE)),
                                           head[-1] if head else None)]

    def reference_entry(self, e: Entry, head: Row) -> list[Row]:
        """An ability's text on a reference card, at rules_size() as the quick rules beside it."""
        with self.at_rules_size():
            return headed(self.cached(("entry", e, "reference"), lambda: self.entry(e, "reference")), head)

    @contextmanager
    def at_rules_size(self) -> Iterator[None]:
        """The layout's body at rules_size() for the texts of a reference card laid out inside."""
        t = self.t
        self.t = replace(t, body=self.rules_size())
        try:
            yield
        finally:
            self.t = t

    def rules_size(self) -> float:
        """The reference cards' size: the card size's size for them (``CardSize.rules``, the body's
        where that is smaller), larger as far as the cards they take at it have room (fill_rules),
        up to the card size's largest body: hill clans' four reference cards at its 7 pt body left
        their last a quarter blank, and read as small print as well as a spill."""
        return min(self.size.high, max(min(self.t.body, self.size.rules), self.rules_room))

    def fill_rules(self, c: CardContent, spare: int = 0) -> None:
        """Grow the texts of the reference card ``c`` by RULES_STEP up to the largest body, as far as
        they keep to the cards they take at the card size's own size for them: the rules of a
        second card half empty at 8 pt beside 11 pt unit cards read as small print and a spill.
        On a large card, with ``spare`` places left blank on the export's last sheet, they take one
        card more where that sets them a point larger or more and the cards stay RULES_FULL full
        (LEGO at tarot: one reference card at 8 pt beside two blank places and 10 pt unit cards read
        as small print; three cards each a third blank as a sprawl)."""
        self.rules_room = 0.0
        cards = self.cards(c)

        def largest(most: int) -> float:
            size = self.rules_size()
            while size + RULES_STEP <= self.size.high + 1e-9:
                self.rules_room = size + RULES_STEP
                if self.cards(c) > most:
                    break
                size += RULES_STEP
            self.rules_room = size
            return size

        size = largest(cards)
        if spare and self.roomy and size < self.size.high - 1e-9:
            self.rules_room = 0.0
            more = largest(cards + 1)
            self.rules_room = more if more >= size + 1 - 1e-9 and self.mean_fill(c) >= RULES_FULL - 1e-9 else size

    def mean_fill(self, c: CardContent) -> float:
        """How full, on average, the cards ``c`` takes at the current sizes are (pages unbalanced)."""
        laid = self.layout(c, balance=False)
        return sum(self.fill(laid, i) for i in range(len(laid.pages))) / len(laid.pages)

    def cached(self, key: tuple, build) -> list[Row]:
        k = key + (self.t,)
        hit = self._sections.get(k)
        if hit is None:
            if len(self._sections) > 4_000:
                self._sections.clear()
            hit = self._sections[k] = build()
        return hit

    def entry(self, e: Entry, kind: str, space: float = 0.35) -> list[Row]:
        """An ability's or a rule's lines; on a reference card ``space`` (of the body) after them."""
        s = self.t.body
        runs: list[Run] = [(self.clean(e.name, self.f.bold), self.f.bold, INK)]
        if e.who:
            runs.append((self.clean(f" ({e.who})"), self.f.regular, GREY))
        if e.in_glossary:
            runs.append((" – see the reference card", self.f.regular, GREY))
        elif e.text:
            runs.append((": " + self.clean(e.text, multiline=True), self.f.regular, INK))
        rows = self.para(tuple(runs), s, self.inner_w, indent=s * 0.9)
        if rows and kind == "reference":  # a text whole on one card (unless longer than a card), a space after it
            rows = [Row(r.height + (s * space if i == len(rows) - 1 else 0.0), r.ops, len(rows) - 1 - i)
                    for i, r in enumerate(rows)]
        return rows

    @property
    def roomy(self) -> bool:
        """Whether the cards are large ones (tarot, A6), read at arm's length and written on at the
        table: the army card has lines to write on too, as a unit's."""
        return self.size.low >= ROOMY_LOW - 1e-9

    def ruled(self, laid: LaidOut) -> int:
        """How many lines to write on (see with_ruled) a unit card laid out on one card has room for
        (on a large card, an army card too; three at most)."""
        if laid.content.kind not in (("unit", "army") if self.roomy else ("unit",)) or len(laid.pages) != 1:
            return 0
        t = self.t
        head = 0.0 if laid.content.notes else self.heading("Notes", laid.color).height
        room = self.frame_height(laid.header) - sum(r.height for r in laid.pages[0])
        fit = int((room - t.gap - head) // round(t.body * RULED_PITCH, 2))  # (a gap before them)
        return max(0, min(RULED_MAX, fit))

    def with_ruled(self, laid: LaidOut, n: int) -> None:
        """``n`` lines to write on in the card's spare room above its boxes, under a "Notes" heading
        (or after the card's own notes): a card with one weapon and no rules reads as a record card
        with room for the game's notes rather than as a card with a hole in it."""
        if n < 1:
            return
        t = self.t
        pitch = round(t.body * RULED_PITCH, 2)
        rows = laid.pages[0]
        block = [Row(t.gap, spacer=True)]
        if not laid.content.notes:
            block.append(self.heading("Notes", laid.color))
        for _ in range(n):
            line = Row(pitch, (("L", 0.0, pitch, self.inner_w, pitch, RULE, 0.5),))
            line.ruled = True
            block.append(line)
        # (an army card, a list of chips and events read from the top, has its notes last)
        at = next((i for i, r in enumerate(rows) if r.bottom), len(rows)) if laid.content.kind != "army" else len(rows)
        if at and at < len(rows) and rows[at - 1].spacer:  # (before the gap that sets the boxes apart)
            at -= 1
        if at < len(rows) and not laid.content.notes:
            # the lines go with the boxes, at the foot of the card, the spare room above them: between
            # the lines and the boxes it read as a gap left by mistake
            block[0].bottom = True
        laid.pages[0] = rows[:at] + block + rows[at:]

    # ------------------------------------------------------------ fitting

    def count(self, contents: list[CardContent]) -> int:
        """How many cards the contents print on at the current sizes."""
        return sum(self.cards(c) for c in contents)

    def cards(self, c: CardContent) -> int:
        """How many cards ``c`` prints on at the current sizes (its pages, not balanced)."""
        return len(self.layout(c, balance=False).pages)

    def one_card(self, c: CardContent) -> LaidOut | None:
        """The card at the current size, if it fits on one card."""
        head = self.header(c)
        rows = self.rows(c)
        if sum(r.height for r in rows) <= self.frame_height(head) + 0.01:
            return LaidOut(c, self.color_of(c), head, [rows], self.t.body)
        return None

    def fits(self, c: CardContent) -> bool:
        """Whether the card fits on one card at the smallest body size."""
        saved = self.t
        self.use(self.sizes[-1])
        try:
            return self.one_card(c) is not None
        finally:
            self.t = saved

    def fit(self, contents: list[CardContent]) -> float:
        """The export's body size: the largest of the size's bounds at which every card that can
        fit on one card does (a card that fits at none continues on further cards). A weapon
        cell listing bands ("0-9\" / 10-18\" / 19-27\"") goes on two lines, and a weapon's name
        listing several ("Claw/hand/spear/sword") breaks after a slash, when that lets the type
        grow by half a point or more; else each stays on one line."""
        self.models = models(contents)
        self.band_wrap = self.name_wrap = False
        plain = self._fit(contents)
        weapons = [cells for key, t in self.models.items() if key[0] == "weapons" for _, cells, _ in t.rows]
        bands = any(" / " in cell for cells in weapons for cell in cells[1:])
        names = any(_SLASHED.search(cells[0]) for cells in weapons)
        # the fewest lines first: a wrap is taken only where it lets the type grow half a point
        best, chosen, last = plain, (False, False), (False, False)
        for flags in ((True, False), (False, True), (True, True)):
            if (flags[0] and not bands) or (flags[1] and not names):
                continue
            self.band_wrap, self.name_wrap = last = flags
            body = self._fit(contents)
            if body >= plain + 0.5 - 1e-9 and body > best + 1e-9:
                best, chosen = body, flags
        if last != chosen:
            self.band_wrap, self.name_wrap = chosen
            return self._fit(contents)
        return best

    def _fit(self, contents: list[CardContent]) -> float:
        self.contents = contents
        self._turn_all.clear()
        self._runs_over.clear()
        self._narrow_all.clear()
        self._names_all.clear()
        self._reminder_face.clear()
        self._reminder_size.clear()
        self._sections.clear()
        self._stat_at.clear()
        self._faces.clear()
        self._short.clear()
        i = self.top
        sizes = self.sizes
        # the most lines a stat band of the export takes at the smallest size: another card's band
        # may take as many (the sheet's bands then read alike) before it holds the type down
        self.use(sizes[-1])
        widest = max((self.stat_bands(c) for c in contents if c.kind == "unit"), default=1)
        for c in contents:
            if c.kind == "reference":  # it goes on to a further card rather than shrink the others
                continue
            if c.kind == "army":  # its warnings in their brief form (see army_fit)
                c = self.brief_warnings(c)
            floor = None  # the stat band's lines at the smallest size: a size may not give it more
            while i < len(sizes) - 1:
                self.use(sizes[i])
                if self.one_card(c) is not None and self.one_row(c):
                    bands = self.stat_bands(c)
                    if bands == 1:
                        break
                    if floor is None:
                        self.use(sizes[-1])
                        floor = max(self.stat_bands(c), widest, 1 if self.record_line else 2)
                    if bands <= floor:
                        break
                else:
                    self.use(sizes[-1])
                    if self.one_card(c) is None or not self.one_row(c):
                        break  # continues (or wraps) at any size: it does not hold the others back
                i += 1
        self.use(sizes[i])
        return sizes[i]

    def fullest(self, contents: list[CardContent]) -> str:
        """The name of the card with the least room left at the current size among those that fit
        on one card (the one that holds the export's body size down), "" when there is none."""
        room = []
        for c in contents:
            if c.kind == "reference":
                continue
            laid = self.one_card(c) if c.kind != "army" else self.one_card(self.army_fit(c))
            if laid is not None:
                room.append((self.frame_height(laid.header) - sum(r.height for r in laid.pages[0]), c.name))
        return min(room)[1] if room else ""

    @property
    def slack(self) -> float:
        """How much larger than the stat values grown the bands must have room for (see
        largest_stat): the one-row card's boxes keep a margin by the values' size instead."""
        return 1.0 if self.record_line else 1.25

    def grow(self, contents: list[CardContent]) -> None:
        """Larger stat values, tracking boxes and gaps between sections, alike on every card of the
        export, as far as its fullest card leaves room (and each stat band keeps its lines): a
        large card with room for them reads and ticks more easily than one with room to spare."""
        t = self.t
        room = []
        for c in contents:
            laid = self.one_card(c)
            if laid is None and c.kind == "army":  # (as layout() prints it)
                c = self.army_fit(c)
                laid = self.one_card(c)
            if laid is not None:  # (a card that continues anyway does not hold the others back)
                room.append((self.frame_height(laid.header) - sum(r.height for r in laid.pages[0]), c))
        room.sort(key=lambda x: x[0])  # the fullest first: a step too far shows there first

        def lines(c: CardContent) -> int:
            """The lines of boxes of the card's trackers as they print: a line of boxes does not wrap,
            and a tracker's rows set two to a line stay so, as the boxes grow (a label or note may go
            above its boxes, as the card fits)."""
            return sum(any(op[0] == "B" for op in r.ops) for r in self.tracks(c.tracks, self.color_of(c)))

        base = [lines(c) for _, c in room]
        # (nor do the stat bands turn: larger values in a band turned on one export and not on
        # another would set a game's cards two ways at a size)
        turned = self.turn_all()
        # on a large card the boxes grow up to the size's box, whatever the export's body: every export
        # at a size that has the room ticks the same boxes (the body's own share of it, see CardSize.count_at)
        size_box = round((self.size.count_at or self.sizes[0]) * BOX_MAX, 2) if self.roomy else float("inf")
        best = t
        for k in range(1, GROW_STEPS + 1):
            g = 1 + k * GROW_STEP
            stat = max(t.stat, self.largest_stat(t.body, min(t.stat * g, t.body * self.stat_max(STAT_MAX)),
                                                 self.slack))
            self.use(t.body, stat, min(t.box * g, t.body * BOX_MAX), min(g, SPACE_MAX))
            if self.t.box > max(t.box, size_box):
                self.t = replace(self.t, box_size=max(t.box, size_box))
            if any(self.one_card(c) is None or lines(c) > n for (_, c), n in zip(room, base)) \
                    or self.turn_all() != turned:
                break
            best = self.t
        # then the stat values on their own, as far as the cards with a stat band have room: an
        # army card (chips and events, no band) holds the boxes and gaps, not the values
        most = t.body * self.stat_max(STAT_MAX_LARGE if self.roomy else STAT_MAX)
        for k in range(1, GROW_STEPS + 1):
            stat = self.largest_stat(t.body, min(t.stat * (1 + k * GROW_STEP), most), self.slack)
            if stat <= best.stat + 1e-9:
                continue
            self.t = replace(best, stat_size=stat)
            if any(self.one_card(c) is None or lines(c) > n for (_, c), n in zip(room, base)) \
                    or self.turn_all() != turned:
                break
            best = self.t
        # then the boxes on their own, as far as the cards with boxes have room, up to a size set by
        # the card size rather than the export's body: every export at a size that has the room ticks
        # the same boxes (a card with a long stat band or many rules holds the joint growth back)
        self.t = best
        if not self.roomy:
            return
        boxed = [(c, n) for (_, c), n in zip(room, base) if n]

        def fits(box: float, more: bool = False) -> bool:
            """Whether every card fits with boxes ``box`` wide (``more``: on more lines than now)."""
            self.t = replace(best, box_size=box)
            return all(self.one_card(c) is not None and (more or lines(c) <= n) for c, n in boxed)

        box, top = best.box, size_box
        # boxes a finger tip ticks easily, where the cards have the room, if on more lines: two
        # soldiers' runs or two rows of wound boxes a line go one a line (FtM's five elements' rows
        # of 5.6 mm boxes two a line left a tarot card's lower third empty)
        if boxed and box < BOX_LARGE and fits(BOX_LARGE, more=True):
            box = BOX_LARGE
            boxed = [(c, lines(c)) for c, _ in boxed]
        for step in (1.0, STEP):
            while box + step <= top + 1e-9 and fits(round(box + step, 2)):
                box = round(box + step, 2)
        self.t = replace(best, box_size=box) if boxed else best

    def brief_warnings(self, c: CardContent) -> CardContent:
        """The card with its warnings without their asides in brackets (the summary page has them all)."""
        shorts = dict(c.shorts)
        return replace(c, warnings=tuple(shorts.get(w) or invalid_text(w, 1) for w in c.warnings))

    def army_fit(self, c: CardContent) -> CardContent:
        """The army card with its warnings brief: the export's size leaves room for them (see fit()),
        and a warning never gives way (at the smallest size it goes on to a second card)."""
        return self.brief_warnings(c)

    def layout(self, c: CardContent, balance: bool = True) -> LaidOut:
        """The card's pages; ``balance=False`` leaves a reference card's pages unbalanced (as many
        of them, for counting: see cards())."""
        laid = self.one_card(c)
        if laid is not None:
            return laid
        if c.kind == "army":
            laid = self.one_card(self.army_fit(c))
            if laid is not None:
                return laid
        head = self.header(c)
        # (a mixed unit's card of one kind of figure names it on its next cards too)
        lead = f"{c.figure} · " if c.figure else ""
        cont = self.header(c, f"{lead}continued (88/88)")
        rows = self.rows(c, early=True)
        first_h, rest_h = self.frame_height(head), self.frame_height(cont)
        pages = paginate(rows, first_h, rest_h)
        n = len(pages)
        if balance and c.kind == "reference" and n > 1:
            # the reference cards filled alike (a last card holding one rule read as a spill): the
            # least height a card that keeps them to as many cards
            low, high = sum(r.height for r in rows) / n, max(first_h, rest_h)
            for _ in range(12):
                mid = (low + high) / 2
                if len(paginate(rows, min(first_h, mid), min(rest_h, mid))) > n:
                    low = mid
                else:
                    high = mid
            pages = paginate(rows, min(first_h, high), min(rest_h, high))
        heads = [head] + [self.header(c, f"{lead}continued ({k + 1}/{n})") for k in range(1, n)]
        return LaidOut(c, self.color_of(c), head, pages, self.t.body, heads)


_ASIDES = re.compile(r" \([^()]*\)")


def _ask(aside: str) -> tuple[str, str]:
    """An aside's reason and, after its last "; ", what it tells the player to do (a ruleset's
    entry note reads "why; what to enter"): ("the formula is not in the text", "enter the rating")."""
    reason, sep, ask = aside.rpartition("; ")
    return (reason, ask) if sep else (aside, "")


def _aside(inner: str, keep: int) -> str:
    """An aside in brackets with the first ``keep`` words of its reason, "…" closing it where cut
    short, and what it tells the player to do always whole."""
    reason, ask = _ask(inner)
    words = reason.split()
    kept = reason if keep >= len(words) else " ".join(words[:keep]) + "…"
    return f" ({kept}; {ask})" if ask else f" ({kept})"


def invalid_text(msg: str, detail: int) -> str:
    """A unit's error on its card: in full (``detail`` 2); without its asides' reasons in brackets,
    each marked "(…)" (1); or its first clause, "…" marking the rest (0). What an aside tells the
    player to do prints at every detail: the reasons give way first."""
    if detail >= 2:
        return msg
    if detail == 1:
        return _ASIDES.sub(lambda m: _aside(m.group(0)[2:-1], 0), msg)
    short = msg.split(" (", 1)[0].rstrip(" .;:")
    first = _ASIDES.search(msg)
    if first and first.start() == len(short) and _ask(first.group(0)[2:-1])[1]:
        return short + _aside(first.group(0)[2:-1], 0) + ("…" if msg[first.end():].strip(" .") else "")
    return short + ("…" if short != msg.rstrip(" .") else "")


def card_error(msg: str, fits, short: str | None = None) -> str:
    """A unit's error on its card, "Not valid: " first: its ``short`` form where it has one, else
    its first clause (what is wrong), words giving way from its end ("…") until it ``fits``."""
    text = "Not valid: " + (short if short is not None else invalid_text(msg, 0))
    words = text.split()
    for n in range(len(words), 2, -1):
        cut = " ".join(words[:n]).rstrip(" .,;:") + ("" if n == len(words) else "…")
        if fits(cut):
            return cut
    return " ".join(words[:3]) + "…"


def card_warning(msg: str, fits, short: str | None = None) -> str:
    """A warning on a unit card: whole where ``fits`` (two lines), else its ``short`` form where it
    has one, else its first clause (what is wrong) and "(see the summary)", words giving way from
    its end ("…") until it fits. A warning that is a reading says so on the card too."""
    whole = "Warning: " + msg
    if fits(whole):
        return whole
    if short is not None:
        label = "Warning, our reading: " if "our reading" in msg and "our reading" not in short else "Warning: "
        said = label + short + " (see the summary)"
        return said if fits(said) else label + short
    short = _CLAUSE.split(msg, 1)[0].rstrip(" .,;:")
    label = "Warning, our reading: " if "our reading" in msg and "our reading" not in short else "Warning: "
    words = short.split()
    for n in range(len(words), 0, -1):
        text = label + " ".join(words[:n]) + ("" if n == len(words) else "…") + " (see the summary)"
        if fits(text):
            return text
    return label + words[0] + "… (see the summary)"


_CLAUSE = re.compile(r" \(|[;:] ")  # where a finding's first clause ends


def headed(rows: list[Row], head: Row | None) -> list[Row]:
    """An entry's rows, its first carrying ``head`` (its section's heading) to print again over it
    at the top of a card it runs on to (see paginate); the rows as they are without one."""
    if head is None or not rows:
        return rows
    first = rows[0]
    return [Row(first.height, first.ops, first.keep, head, first.spacer, first.bottom)] + rows[1:]


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
        if need > (rest_h if cur else limit) + 0.01:
            need = r.height  # a group taller than a card: it breaks where it must
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
