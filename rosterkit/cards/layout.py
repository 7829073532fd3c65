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
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from itertools import pairwise

from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph

from ..engine.trackers import MAX_BOXES
from ..rules.numbers import fmt
from .content import NOTHING, CardContent, Entry, Table, Track
from .fonts import DEJAVU, FontSet, Glyphs, register
from .shaping import has_rtl
from .sizes import CardSize

STEP = 0.25
LEADING = 1.2
INSET = 3.5  # the card's border, inside the cut line
PAD = 4.5  # between border and text
STAT_MIN = 10.0  # the smallest size of a value in the stat band
REMIND_MIN = 6.5  # the reminder line on a small card: no smaller than the body may be
# how far grow() takes a card with room: stat values up to twice the body, boxes up to 2.2 times
# (on a large card, 2.2 times the size's largest body: 9.3 mm on A6), gaps between sections up to a
# line; in steps of a tenth
STAT_MAX = 2.0
STAT_MAX_LARGE = 2.5  # on a large card (tarot, A6) a band with room: values read from across the table
BOX_MAX = 2.2
SPACE_MAX = 2.0
GROW_STEP = 0.1
BOX_LARGE = 17.25  # the side of a tracking box on a large card with the room (6.1 mm), see grow()
GROW_STEPS = 8
BOX_LINE = 0.6  # the width of a stat band's box lines
# lines to write on in a unit card's spare room, 1.8 times the body apart (5.5 to 7.5 mm), under their
# heading: on every card with room for one or more, whatever its neighbours have (a card with room for
# one beside ruled cards read as a hole; a rule by sheets left lines off cards beside full ones), three
# at most on every card size (more read as filler; the rest of the room stays blank under them, above
# the trackers: see draw._tops)
RULED_PITCH = 1.8
RULED_MIN = 1
RULED_MAX = 3
ROOMY_LOW = 8.0  # a card size whose smallest body is this or more is a large card (tarot, A6; see sizes)

# the most boxes to a line in a tracker numbered figure by figure (LEGO's stun levels, 4 a soldier:
# two soldiers), on every card size that has room for them: the same shape on every card
EACH_MAX = 8
# the padding of a band's column (a list of bands set one band to a column), as a share of another column's
BAND_PAD = 0.6
NOTE_GAP = 2.0  # between the stat band and a note under it ("To hit: 4 + target's Def (Att)")

INK = HexColor("#1d1d1b")
GREY = HexColor("#5f5f5a")
LABEL = HexColor("#45453f")  # a table's column labels on its tint: the grey of notes read faint there at 5.5-6.5 pt
RULE_SPACE = 0.15  # after each quick rule on a reference card, of its size
RULES_STEP = 0.25  # the steps by which the quick rules grow to fill their cards (fill_rules)
RULES_FULL = 0.8  # how full, on average, the quick rules keep their cards where they take a blank place
STATS_KEY = "Stats"  # the quick rule that spells out the stat bands' short labels (CardContent.key)
RULE = HexColor("#b9b6ac")
RED = HexColor("#a3231c")
RED_TINT = HexColor("#f6dcd9")
GOLD = HexColor("#7a5a0b")
GOLD_TINT = HexColor("#f5ead0")
# the types' colours, then the reference cards' grey: none of a type's (a plum of the types' read as
# LEGO's Expert or Hero)
PALETTE = ["#2f4858", "#7a2e28", "#2e5d4b", "#5a3d85", "#8a5a0b", "#1f4f7a", "#6b4a36", "#3d6b1f",
           "#7a2f5e", "#4d4a45"]


def tint(color: Color, amount: float = 0.86) -> Color:
    return Color(color.red + (1 - color.red) * amount, color.green + (1 - color.green) * amount,
                 color.blue + (1 - color.blue) * amount)


COLORS = [HexColor(c) for c in PALETTE]
TINTS = [tint(c) for c in COLORS]
NEUTRAL = len(COLORS) - 1


@dataclass(frozen=True)
class Type:
    """The type sizes of one export: every card uses these and no others."""

    body: float
    title: float
    stat_min: float = STAT_MIN
    stat_size: float = 0.0  # values in the stat band, as the export chose it (0: from the body)
    box_size: float = 0.0  # the side of a tracking box (0: from the body)
    space: float = 1.0  # how much the gaps between sections grow (1: half a line)

    @property
    def small(self) -> float:  # column labels, footer
        return round(max(5.5, self.body * 0.82), 2)

    @property
    def remind(self) -> float:  # the rules read in play under a small card's band: the body's floor
        return round(min(self.body, max(REMIND_MIN, self.small)), 2)  # (at 5.7 pt readers asked for larger)

    @property
    def stat(self) -> float:  # values in the stat band
        return round(self.stat_size or max(self.stat_min, self.body * 1.4), 2)

    @property
    def box(self) -> float:  # a tracking box's side
        return round(self.box_size or self.body * 1.35, 2)

    @property
    def gap(self) -> float:  # between two sections of a card
        return round(self.body * 0.5 * self.space, 2)

    @property
    def tiny(self) -> float:  # numbers in the tracking boxes
        return round(max(5.5, self.body * 0.62), 2)

    def all(self) -> set[float]:
        return {self.body, self.title, self.small, self.remind, self.stat, self.tiny}


class Row:
    """One unit of flow: its height and what to draw, relative to its top-left corner."""

    __slots__ = ("height", "ops", "keep", "header", "spacer", "bottom", "noted", "apart", "ruled",
                 "figures")

    def __init__(self, height: float, ops: tuple = (), keep: int = 0, header: "Row | None" = None,
                 spacer: bool = False, bottom: bool = False):
        self.height = height
        # ("T", x, dy, font, size, colour, text) | ("F", x, dy, w, h, colour) | ("L", x1, dy1, x2, dy2, colour, lw)
        # | ("B", x, dy, w, h, colour, lw): a box to tick | ("P", x, dy, flowable, h): a platypus paragraph, wrapped
        self.ops = ops
        self.keep = keep  # how many of the following rows must stay on the same card as this one
        self.header = header  # repeated at the top of a continuation card
        self.spacer = spacer  # dropped at the top of a card
        self.bottom = bottom  # the first row of the block set at the bottom of the card (the boxes)
        self.noted = False  # a heading that carries its section's note
        self.apart = False  # a tracker's last line: a card with room may set the next row further down
        self.ruled = False  # a line to write on, in the room a card has to spare (see with_ruled())


# ---------------------------------------------------------------- text


# a line breaks after a slash or a dash, but not inside a range of numbers ("11-15") nor a list
# of numbers read in order ("0/1/2/3", "4+/5+/6+/7+": a target by Defense)
# (a sign opening a number or a word, "-1", "-target's Def", stays with it)
_TOKENS = re.compile(r"\n|\[U\+[0-9A-F]{4,6}\]|[^\S\n]+|(?:\d+\+?/)+\d+\+?:?(?![\w/])|(?:(?<!\S)\(?[\-–](?=\w))?(?:[^\s/\-–\[]*\d[\-–](?=\d))*[^\s/\-–\[]+[/\-–]*"
                     r"|[/\-–\[]+")


# an aside closing a name ("Heroic skirmish with God chips (MWAN #123)")
_ASIDE = re.compile(r"\s*\([^()]*\)\s*$")

# a slash between two letters ("Claw/hand", not "(5/D10)"), and the places after such a slash
_SLASHED = re.compile(r"[^\W\d_]/[^\W\d_]")
_AFTER_SLASH = re.compile(r"(?<=[^\W\d_]/)(?=[^\W\d_])")

# the space between a die or a word and the range of inches it goes with ("D8 11-15\"")
# a subtitle's count of figures with its word, "10 miniatures × ", "2 figures of 3" (see short_counts())
_COUNT_WORD = re.compile(r"\b(\d+) [^\W\d_]+ (×|of) ")
_BAND = re.compile(r'(?<=[A-Za-z0-9]) (?=\d+-\d+")')
# a die for each band of range, "D4 0-5\" D6 6-10\" D8 11-15\"" (an ARES missile weapon's range die)
_DIE_BAND = re.compile(r'(D\d+) (\d+-\d+")')
_DIE_BAND_LIST = re.compile(r'\s*(?:D\d+ \d+-\d+"\s*){2,}$')


class Metrics:
    """String widths, measured once per text and font (at 1 pt, scaled); the characters a face
    lacks are measured in the export's fallback font, which draws them."""

    def __init__(self, fonts: FontSet = DEJAVU) -> None:
        register()  # the widths are the registered fonts' (once per process)
        self.fonts = fonts
        self._w: dict[tuple[str, str], float] = {}

    def width(self, text: str, font: str, size: float) -> float:
        key = (text, font)
        w = self._w.get(key)
        if w is None:
            if len(self._w) > 20_000:
                self._w.clear()
            w = self._w[key] = self.fonts.width(text, font, 1000) / 1000
        return w * size


Run = tuple[str, str, Color]  # text, font, colour
Seg = tuple[float, str, str, Color]  # x, text, font, colour


class Wrapper:
    """Greedy line breaking of runs of text (bold name, plain text) into a width.

    A word longer than the line is broken between characters; a ``[U+XXXX]`` placeholder
    is one word and is never broken.
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


def line_width(line: list[Seg], metrics: Metrics, size: float) -> float:
    if not line:
        return 0.0
    x, text, font, _ = line[-1]
    return x + metrics.width(text, font, size)


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


class CardLayout:
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
        sub_lines = self.subtitle(sub)
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

    def subtitle(self, text: str) -> list[list[Seg]]:
        """The subtitle's lines, in the export's subtitle face (see faces()); on two lines, broken
        before its last "=" or after its last "·" rather than leave one word alone on the second
        ("… = 258" over "points")."""
        size, W = self.t.body, self.inner_w
        font = self.faces()[1]
        if self.short_counts():
            text = _COUNT_WORD.sub(r"\1 \2 ", text)
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
        for mark in c.marks:
            out += self.band("★ " + mark, GOLD, GOLD_TINT)
            out.append(Row(2.0, spacer=True))
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

    # ------------------------------------------------------------ tracking boxes

    def tracks(self, tracks: tuple[Track, ...], color: int) -> list[Row]:
        """Boxes to tick, one line of boxes per kind of figure, the labels in one column so the
        boxes line up; a label too long for that column goes above its boxes (for every track
        of the card). Each box carries its number; a lone box is ticked, not counted, and has none.
        A tracker's rows (a figure's or element's wounds) go as runs numbered 1, 2, ..., as many to a
        line as fit, beside their label or, on every card of the export (see runs_over), under it."""
        t = self.t
        W = self.inner_w
        ls = t.small
        bold = self.f.bold
        out: list[Row] = []
        labels = [self.clean(tr.label, bold) for tr in tracks]
        label_w = self.label_column(tracks)
        above = not label_w
        over = self.runs_over()
        box = t.box
        gap = box * 0.25
        group_gap = box * 0.7
        heading = ""
        checks: list[str] = []  # single check boxes of the card, set side by side on one line
        # one side for the card's boxes to tick (its single checks, its choices: "Formation: Regiment
        # Skirmish" beside "Failed morale"), the smallest that each keeps to its line; the boxes a
        # tracker counts with keep theirs
        singles = [lab for tr, lab in zip(tracks, labels) if _single(tr)]
        tick = self.check_fit(singles, box)[0] if singles else box
        for tr, lab in zip(tracks, labels):
            if not _single(tr) and tr.kind == "check" and not tr.note and not any(tr.notes):
                tick = min(tick, self.choice_fit(lab, [self.clean(item, bold) for item in tr.marks], tick)[0])
        noted: list[tuple[str, str]] = []  # single boxes with their effects, one under the other
        for tr, label in zip(tracks, labels):
            if tr.heading and tr.heading != heading:
                out.append(self.heading(tr.heading, color))
            heading = tr.heading
            if _single(tr):
                checks.append(label)  # (one box counts nothing: a figure's Wounded is a plain box, as Panicked)
                continue
            if single_box(tr):  # a plain box with what it means beside it (heroic_gods' Panicked)
                noted.append((label, self.clean(tr.note)))
                continue
            if tr.kind == "check" and not tr.note and not any(tr.notes):  # items named alone (Regiment, Skirmish)
                out += self.choice_line(label, [self.clean(item, bold) for item in tr.marks], color, tick)
                continue
            if tr.kind != "boxes":
                out += self.marked(tr, label, color, box)
                continue
            if tr.boxes > MAX_BOXES:
                out += self.para(((label + ": ", bold, INK),
                                  (f"{fmt(tr.boxes)} (too many boxes to print; keep a tally)", self.f.regular, INK)),
                                 t.body, W)
                continue
            # the half-strength bar between two boxes takes a group's gap, so it never crowds them
            bar = group_gap - gap if tr.mark and tr.mark < tr.boxes else 0.0
            g = max(1, tr.group)
            # numbered figure by figure (tr.each, or runs under their label): the label opens the note
            # over the boxes, which start at the card's edge, so that as many figures go to a line on
            # every card and size
            edge = tr.each or tr.runs and over
            x0 = 0.0 if edge else label_w
            # the label stays beside the boxes even where, over them, two figures' boxes would go to a
            # line: the cards of an export then set their trackers alike
            # each figure's run opens with its number ("1", "2": which soldier a run of stun levels is,
            # which figure or element a row of wounds; a lone figure's needs none)
            restart = tr.each or tr.runs and g > 1  # (each run's boxes numbered from 1)
            bw = self.box_width(tr, restart)
            tag_w = self.m.width(str(-(-tr.boxes // g)), bold, ls) + ls * 0.35 \
                if (tr.each or tr.runs) and 1 < g < tr.boxes else 0.0
            # (the number in the gap between two runs, most of a box clear of the run before it, so
            # that "[4] 2 [1]" does not read as one run)
            runs_gap = max(group_gap, bw * 0.8 + tag_w) if tag_w else group_gap
            # a run's boxes with a label of their own (LEGO's wake-up rolls "5+", "12") stay empty, to
            # tick: the labels stand over the first line's runs, each centred on its box, in the condensed
            # face at the box numbers' size, on one line where the boxes a little further apart keep as many
            # figures to a line (judged for runs opening with their soldier's number, so that a lone
            # soldier's run is set as his army's pairs are), else on two, broken at a space; a box widens only
            # for a label too wide even so
            names = [self.clean(x, self.f.cond) for x in tr.labels[:g]] if tr.each else []
            hs = t.tiny
            step = gap
            heads: list[list[str]] = []
            if names:
                # (two labels side by side at least a little more than a word's space apart, over half
                # the label's size: "2D 12  3D 18" does not read "12 3D")
                lw = [self.m.width(x, self.f.cond, hs) for x in names]
                tag_as = tag_w or self.m.width("8", bold, ls) + ls * 0.35
                gap_as = max(group_gap, bw * 0.8 + tag_as)
                most = _per_line(W - x0 - bar - tag_as, [bw] * g, gap, gap_as, g, True)
                for apart in (0.6, 0.45):
                    wide = max([gap] + [(a + b) / 2 + hs * apart - bw for a, b in pairwise(lw)])
                    # (boxes more than half a box apart, three quarters on a poker card, no longer read
                    # as one soldier's run; a landscape index card, short of lines, keeps them so rather
                    # than take the labels' second line)
                    if (wide <= bw * (0.5 if self.roomy else 0.75) or self.size.width > self.size.height) \
                            and _per_line(W - x0 - bar - tag_as, [bw] * g, wide, gap_as, g, True) == most:
                        step = wide
                        heads = [[x] for x in names]
                        break
                else:
                    heads = [self.head_lines(x, hs, bw + gap - hs * 0.6) for x in names]
            widths = [max(bw, max(self.m.width(x, self.f.cond, hs) for x in lines) + 1.0 - step) for lines in heads] \
                + [bw] * (g - len(names))
            per_line = _per_line(W - x0 - bar - tag_w, widths, step, runs_gap, g, tr.each)
            if per_line < tr.boxes:  # on two lines or more: as many on each (10: 5 | 5), none alone
                even = -(-tr.boxes // -(-tr.boxes // per_line))
                if 1 < g <= per_line:
                    even = -(-even // g) * g  # (a figure's boxes still on one line)
                per_line = min(per_line, even)
            if tr.mark and tr.mark <= per_line < tr.boxes:  # on two lines or more: the first ends at the bar
                per_line = tr.mark
            row_h = box + 2.5
            lines = -(-tr.boxes // per_line)
            # the note after the boxes when they take one line and it fits there, else above them
            note = self.clean(tr.note) if tr.note else ""
            boxes_w = sum(widths[k % g] for k in range(tr.boxes)) + (tr.boxes - 1) * step \
                + ((tr.boxes - 1) // g) * (group_gap - step) + bar
            beside = bool(note) and lines == 1 and not edge \
                and label_w + boxes_w + 4 + self.m.width(note, self.f.cond, ls) <= W
            # else the boxes stay beside their label, the note under them, where it fits there (on
            # every card size: boxes under their label on one export and beside it on the next read two ways)
            under = bool(note) and not beside and lines == 1 and not edge and not above \
                and label_w + boxes_w <= W and x0 + self.m.width(note, self.f.cond, ls) <= W
            # what a numbered run is ("per figure"): after the label over the runs, else under it
            # where the runs take two lines or more
            per_run = f"per {tr.caption.lower()}" if tr.runs and tr.caption and tag_w else ""

            first = min(tr.boxes, per_line)  # (the first line's boxes, which the labels stand over)
            # (the label, what a numbered run counts, the note: the line over the runs set at the edge)
            caption = ((label + "  ", bold, INK),) + (((per_run + "  ", self.f.cond, GREY),) if per_run else ()) \
                + (((note, self.f.cond, INK),) if note else ())

            xs = _lefts(first, 0, x0, g, tr.mark, step, runs_gap, tag_w, widths)[0]
            if above and not edge:  # the label above its boxes, the note (if any) after it
                runs: tuple[Run, ...] = ((label + (": " if note and not beside else ""), bold, INK),)
                if per_run:
                    runs += ((per_run + ("  " if note and not beside else ""), self.f.cond, GREY),)
                if note and not beside:
                    runs += ((note, self.f.regular, INK),)
                for r in self.para(runs, ls, W, together=8):
                    r.keep = 1
                    out.append(r)
            elif edge or (note and not beside and not under):
                # the label opens its note, over the boxes: label, note and boxes read as one block, set
                # apart from the tracker above (whose caption the note would otherwise seem to be)
                if out:
                    out.append(Row(ls * 0.25, spacer=True))
                for line in self.even(caption, ls, W):
                    ops = tuple(("T", sx, ls * 0.9, font, ls, colour, text) for sx, text, font, colour in line if text)
                    out.append(Row(ls * LEADING, ops, keep=1))
            # the labels over the boxes on a row of their own, over each run of the first line (and over
            # every line where a figure's run takes more than one): as many lines as the longest label
            # takes, the last just over the boxes
            head_h = (max(map(len, heads), default=1) - 1) * hs * 1.05 + hs * 0.75 + 0.25
            tops = self.run_heads(_labelled(xs, range(first), 0, widths, heads, g), head_h, hs)
            if tops:
                out.append(Row(head_h, tuple(tops), keep=1))
            n_done = 0
            # a track that goes on to the next card takes its label with it (and its boxes' labels)
            again = Row(ls * LEADING, (("T", 0.0, ls * 0.95, bold, ls, INK, label),), bottom=True)
            if tops:
                again = Row(ls * LEADING + head_h, again.ops + tuple(
                    (op[0], op[1], op[2] + ls * LEADING) + op[3:] for op in tops), bottom=True)
            for i in range(lines):
                ops: list[tuple] = []
                if i == 0 and not above and (beside or under or not note) and not edge:
                    ops.append(("T", 0.0, (row_h + ls * 0.7) / 2, bold, ls, INK, label))
                if i == 1 and per_run and not above and (beside or under or not note) and not edge:
                    ops.append(("T", 0.0, (row_h + ls * 0.7) / 2 - 0.5, self.f.cond, ls, GREY, per_run))
                n = min(tr.boxes - n_done, per_line)
                xs, tags = _lefts(n, n_done, x0, g, tr.mark, step, runs_gap, tag_w, widths)
                if i and heads and per_line < g:  # (a run on more than one line: its labels over each)
                    again_heads = self.run_heads(_labelled(xs, range(n), n_done, widths, heads, g), head_h, hs)
                    out.append(Row(head_h, tuple(again_heads), keep=1))
                for k, bx in enumerate(xs):
                    if tag_w and k % g == 0:
                        ops.append(("T", tags[k // g], (row_h + ls * 0.7) / 2, bold, ls, INK,
                                    str((n_done + k) // g + 1)))
                    number = str(k % g + 1 if restart else n_done + k + 1)
                    face, w = self.f.regular, widths[k % g]
                    ops.append(("B", bx, 1.2, w, box, COLORS[color], 0.7))
                    if tr.mark and n_done + k + 1 == tr.mark:  # half strength: a bar after this box
                        bar_x = bx + w + group_gap / 2
                        ops.append(("L", bar_x, 0.0, bar_x, box + 2.4, RED, 1.4))
                    if k % g >= len(names):
                        ops.append(("T", bx + (w - self.m.width(number, face, t.tiny)) / 2,
                                    1.2 + (box + t.tiny * 0.7) / 2, face, t.tiny, GREY, number))
                    bx += w
                if beside:
                    ops.append(("T", bx + 4, (row_h + ls * 0.7) / 2, self.f.cond, ls, INK, note))
                n_done += n
                # (a tracker's own lines a little closer than two trackers: each reads as one block;
                # numbered runs stay together, a figure's or element's row never apart from the others)
                out.append(Row(row_h - (0.5 if i < lines - 1 else 0.0), tuple(ops),
                               keep=1 if i < lines - 1 and (i == 0 or tr.runs) else 0, header=again if i else None))
                out[-1].apart = i == lines - 1
            if under:  # (the note under the boxes, kept with them)
                out[-1].keep, out[-1].apart = 1, False
                out.append(Row(ls * LEADING, (("T", x0, ls * 0.95, self.f.cond, ls, INK, note),)))
                out[-1].apart = True
        if noted:
            out += self.noted_checks(noted, color, tick)
        if checks:
            out += self.check_line(checks, color, tick)
        return out

    def run_heads(self, boxes: list[tuple[float, float, list[str]]], base: float, size: float) -> list[tuple]:
        """Labels over their boxes ((left, width, the label's lines) each), each centred on its box
        and kept within the card, the last line of each on the baseline ``base``."""
        ops = []
        for bx, w, text_lines in boxes:
            for up, text in enumerate(reversed(text_lines)):
                tw = self.m.width(text, self.f.cond, size)
                ops.append(("T", min(max(0.0, bx + (w - tw) / 2), self.inner_w - tw), base - up * size * 1.05,
                            self.f.cond, size, INK, text))
        return ops

    def head_lines(self, text: str, size: float, room: float) -> list[str]:
        """A box's label over it: one line where it is at most ``room`` wide in the condensed face,
        else two, broken at the space that leaves the wider line narrowest ("2D" over "12")."""
        width = self.m.width
        cond = self.f.cond
        cuts = [i for i, ch in enumerate(text) if ch == " "]
        if width(text, cond, size) <= room or not cuts:
            return [text]
        i = min(cuts, key=lambda i: max(width(text[:i], cond, size), width(text[i + 1:], cond, size)))
        return [text[:i].rstrip(), text[i + 1:].lstrip()]

    def label_column(self, tracks: tuple[Track, ...]) -> float:
        """The width of the column the trackers' labels take beside their boxes (and what numbered
        runs count, "per element", under a label), 0 when the widest is too long for one (the labels
        go above their boxes)."""
        bold, ls = self.f.bold, self.t.small
        widest = max([self.m.width(self.clean(tr.label, bold), bold, ls) for tr in tracks if tr.kind == "boxes"]
                     + [self.m.width(f"per {tr.caption.lower()}", self.f.cond, ls) for tr in tracks
                        if tr.kind == "boxes" and tr.runs and tr.caption] or [0.0]) + 5
        return 0.0 if widest > self.inner_w * 0.42 else widest

    def box_width(self, tr: Track, restart: bool) -> float:
        """A box to tick as wide as the largest number it carries, a point clear each side: each
        run's numbers from 1 where ``restart`` (1-4 in each of five figures' runs, not 20)."""
        digits = len(str(min(max(1, tr.group), tr.boxes) if restart else tr.boxes))
        return max(self.t.box, self.m.width("8" * digits, self.f.regular, self.t.tiny) + 2.0)

    def run_lines(self, tr: Track, avail: float) -> int:
        """The lines a tracker's numbered runs take ``avail`` wide (as tracks() sets them)."""
        t = self.t
        box, ls, g = t.box, t.small, max(1, tr.group)
        bw = self.box_width(tr, g > 1)  # (each run numbered from 1, as tracks() sets them)
        tag_w = self.m.width(str(-(-tr.boxes // g)), self.f.bold, ls) + ls * 0.35 if 1 < g < tr.boxes else 0.0
        runs_gap = max(box * 0.7, bw * 0.8 + tag_w) if tag_w else box * 0.7
        return -(-tr.boxes // _per_line(avail - tag_w, [bw] * g, box * 0.25, runs_gap, g, False))

    def runs_over(self) -> bool:
        """Whether the export's numbered runs go under their label rather than beside it: so on every
        card where on one card the label's column would cost them a line (For the Masses' 13
        elements two to a line under "Wounds" rather than one beside it); the cards of an export
        then set their rows alike."""
        hit = self._runs_over.get(self.t)
        if hit is None:
            hit = False
            for c in self.contents:
                label_w = self.label_column(c.tracks) if c.kind == "unit" else 0.0
                if any(tr.runs and tr.kind == "boxes" and tr.boxes <= MAX_BOXES
                       and self.run_lines(tr, self.inner_w - label_w) > 1 + self.run_lines(tr, self.inner_w)
                       for tr in c.tracks if label_w):
                    hit = True
                    break
            self._runs_over[self.t] = hit
        return hit

    def check_line(self, labels: list[str], color: int, box: float) -> list[Row]:
        """Single check boxes side by side, each followed by its label, on as few lines as they take
        at the card size's largest body (its plain boxes): every export at a size, whatever its body,
        breaks them alike ("Wounded  Panicked" over "Spear lost" on a poker card's figure), as many on
        each line. On a large card boxes grown too wide for that shrink, to the body's plain boxes at
        least; else (grow() stops short of it) or where even those do not fit, a line more."""
        box, per, gap = self.check_fit(labels, box)
        ls = self.t.small
        bold = self.f.bold
        rows: list[Row] = []
        row_h = box + 2.5
        for k in range(0, len(labels), per):
            ops: list[tuple] = []
            x = 0.0
            for label in labels[k:k + per]:
                ops.append(("B", x, 1.2, box, box, COLORS[color], 0.7))
                ops.append(("T", x + box + 3, (row_h + ls * 0.7) / 2, bold, ls, INK, label))
                x += box + 3 + self.m.width(label, bold, ls) + box * gap
            rows.append(Row(row_h, tuple(ops)))
            rows[-1].apart = True
        return rows

    def check_fit(self, labels: list[str], box: float) -> tuple[float, int, float]:
        """The side of check_line's boxes (``box`` or less), how many go to a line and how far apart
        (a share of the side)."""
        ls = self.t.small
        bold = self.f.bold
        top = Type(self.sizes[0], self.size.title, self.size.stat)
        W = self.inner_w + 0.01

        def width(bx: float, size: float, per: int, gap: float) -> float:
            """The widest line with ``per`` checks to a line, boxes ``bx`` wide, ``gap`` boxes apart."""
            return max(sum(bx + 3 + self.m.width(lab, bold, size) for lab in labels[k:k + per])
                       + (len(labels[k:k + per]) - 1) * bx * gap for k in range(0, len(labels), per))

        def per_line(bx: float, size: float) -> tuple[int, float]:
            """As many to a line as fit, as many on each line; closer together rather than a line more."""
            for n in range(1, len(labels) + 1):
                per = -(-len(labels) // n)  # n lines, as many on each
                for gap in (0.9, 0.5):
                    if per == 1 or width(bx, size, per, gap) <= W:
                        return per, gap
            return 1, 0.9

        per, gap = per_line(top.box, top.small)
        # (on a large card not below a box a finger ticks, where the boxes have grown to it)
        plain = min(box, max(replace(self.t, box_size=0.0).box, BOX_LARGE)) if self.roomy else box
        while box > plain and width(box, ls, per, gap) > W:
            box = max(plain, round(box - STEP, 2))
        if width(box, ls, per, gap) > W:
            per, gap = per_line(box, ls)
        return box, per, gap

    def noted_checks(self, checks: list[tuple[str, str]], color: int, box: float) -> list[Row]:
        """Single boxes, each with its label and its effect after it (condensed) in the lines
        beside the box: one block a box, one under the other, the boxes lined up at the left."""
        ls = self.t.small
        x = box + 3
        rows: list[Row] = []
        for label, note in checks:
            lines = self.para(((label + "  ", self.f.bold, INK), (note, self.f.cond, INK)), ls,
                              self.inner_w - x, x=x)
            text_h = sum(r.height for r in lines)
            h = max(box + 2.5, text_h + 1.2)
            top = 1.2 + max(0.0, (box - text_h) / 2)  # (lines fewer than the box is tall: centred on it)
            ops: list[tuple] = [("B", 0.0, 1.2, box, box, COLORS[color], 0.7)]
            for r in lines:
                ops += [(op[0], op[1], op[2] + top) + op[3:] for op in r.ops]
                top += r.height
            rows.append(Row(h, tuple(ops)))
            rows[-1].apart = True
        return rows

    def choice_line(self, label: str, items: list[str], color: int, box: float) -> list[Row]:
        """One choice among named items, read as one: "Formation: [] Regiment [] Skirmish", the
        items after the label on its line (more lines, under the first item, only where they do
        not fit)."""
        ls = self.t.small
        box, bold, regular, lead, apart = self.choice_fit(label, items, box)
        row_h = box + 2.5
        head = label + ":"
        indent = self.m.width(head, bold, ls) + box * lead
        rows: list[Row] = []
        ops: list[tuple] = [("T", 0.0, (row_h + ls * 0.7) / 2, bold, ls, INK, head)]
        x = indent
        for item in items:
            w = box + 3 + self.m.width(item, regular, ls)
            if x > indent and x + w > self.inner_w + 0.01:
                rows.append(Row(row_h, tuple(ops), keep=1))
                ops, x = [], indent
            ops.append(("B", x, (row_h - box) / 2, box, box, COLORS[color], 0.7))
            ops.append(("T", x + box + 3, (row_h + ls * 0.7) / 2, regular, ls, INK, item))
            x += w + box * apart
        rows.append(Row(row_h, tuple(ops)))
        rows[-1].apart = True
        return rows

    def choice_fit(self, label: str, items: list[str], box: float) -> tuple[float, str, str, float, float]:
        """The side of choice_line's boxes (``box`` or less), the faces of its label and items, and
        the gaps after the label and between items (shares of the side). Where the body's own boxes
        leave no room for the choice on one line, the boxes shrink (to the body's size at least) as
        far as keeps it there; grown boxes that do not fit wrap, so grow() stops before them. Where
        the regular faces leave no room for the boxes given, the condensed ones, a little closer
        together, do as far as they go: the choice's boxes then stay as large as the card's other
        boxes to tick (see tracks())."""
        ls = self.t.small
        head = label + ":"

        def fit(bold: str, regular: str, lead: float, apart: float) -> float:
            fixed = self.m.width(head, bold, ls) + sum(3 + self.m.width(item, regular, ls) for item in items)
            return (self.inner_w - fixed - 0.01) / (lead + len(items) + apart * (len(items) - 1)) if items else box

        way = (self.f.bold, self.f.regular, 0.6, 0.7)
        narrow = (self.f.cond_bold, self.f.cond, 0.3, 0.4)
        condensed = fit(*way) < box and fit(*narrow) > fit(*way)
        if condensed:
            way = narrow
        room = fit(*way)
        if room < replace(self.t, box_size=0.0).box or condensed and room < box:
            # (on a large card as small as the label's letters: the choice stays beside its label)
            box = max(min(box, room), min(box, ls if self.roomy else self.t.body))
        return (box, *way)

    def marked(self, tr: Track, label: str, color: int, box: float) -> list[Row]:
        """A die track (a box per die size, each named), a list of checks with their effects,
        or a counter (a space to write a number in)."""
        ls = self.t.small
        s = self.t.body
        W = self.inner_w
        bold = self.f.bold
        row_h = box + 2.5
        out: list[Row] = []
        if tr.kind == "die":
            # the figure's own die first, never ticked, then a box for each smaller die and the ruleset's
            # last box after them ("d6 › [d4] › [removed]": the whole track, from a d6 hero's too)
            marks = tr.marks + ((tr.after,) if tr.after else ())
            if not marks:  # no smaller die: the note says what a hit does
                runs: tuple[Run, ...] = ((label, bold, INK),)
                if tr.note:
                    runs += ((": " + self.clean(tr.note), self.f.regular, INK),)
                return self.para(runs, ls, W, together=8)
            def track(lw: float, face: str, wrap: bool = False) -> tuple[list[tuple], float, float]:
                """The dice and their boxes from ``lw`` on in ``face``, where they end and their height
                (``wrap``: a box that would pass the card's edge starts a line of its own)."""
                ops: list[tuple] = []
                x, y = lw, 0.0
                mid = 1.2 + (box + s * 0.7) / 2
                if tr.start:
                    own = self.clean(tr.start)
                    ops.append(("T", x, mid, face, s, INK, own))
                    x += self.m.width(own, face, s)
                    ops.append(("T", x + 2, mid, face, s, GREY, "›"))
                    x += self.m.width("›", face, s) + 4
                # the dice in the body's type, the arrows between them as large (a player reads them at arm's length)
                for k, step in enumerate(marks):
                    text = self.clean(step)
                    tw = self.m.width(text, face, s)
                    bw = max(box, tw + 4)  # (a box as easy to tick as the others)
                    if wrap and x > 0 and x + bw > W + 0.01:
                        x, y = 0.0, y + row_h
                    ops.append(("B", x, y + 1.2, bw, box, COLORS[color], 0.7))
                    ops.append(("T", x + (bw - tw) / 2, y + mid, face, s, INK, text))
                    x += bw
                    if k < len(marks) - 1:
                        ops.append(("T", x + 2, y + mid, face, s, GREY, "›"))
                        x += self.m.width("›", face, s) + 4
                return ops, x, y + row_h

            # beside its label where the track fits the line ("3d12 › [3d10] › ... › [removed]" may
            # not), else under it, condensed if need be, else on as many lines as it takes
            lw = self.m.width(label, bold, ls) + 5
            ops, x, track_h = track(lw, self.f.regular)
            if x > W + 0.01:
                out.append(Row(ls * LEADING, (("T", 0.0, ls * 0.95, bold, ls, INK, label),), keep=1))
                ops, x, track_h = track(0.0, self.f.regular)
                if x > W + 0.01:
                    ops, x, track_h = track(0.0, self.f.cond)
                if x > W + 0.01:
                    ops, x, track_h = track(0.0, self.f.regular, wrap=True)
            else:
                ops.insert(0, ("T", 0.0, (row_h + ls * 0.7) / 2, bold, ls, INK, label))
            wrapped, row_h = track_h > row_h + 0.01, track_h
            below = self.para(((self.clean(tr.note), self.f.regular, INK),), ls, W, together=8) if tr.note else []
            # the note beside the dice where that takes less height than a line of its own under them
            nx = x + ls
            side = self.para(((self.clean(tr.note), self.f.cond, INK),), ls, W - nx, x=nx) \
                if tr.note and W - nx > W * 0.3 and not wrapped else []
            side_h = sum(r.height for r in side)
            if side and max(row_h, side_h) < row_h + sum(r.height for r in below):
                h = max(row_h, side_h)
                shift = (h - row_h) / 2  # the dice centred on the note's lines
                ops = [(op[0], op[1], op[2] + shift) + op[3:] for op in ops]
                top = (h - side_h) / 2
                for r in side:
                    ops += [(op[0], op[1], op[2] + top) + op[3:] for op in r.ops]
                    top += r.height
                out.append(Row(h, tuple(ops)))
                return out
            out.append(Row(row_h, tuple(ops), keep=1 if tr.note else 0))
            out += below
            return out
        if tr.kind == "counter":
            ops = [("T", 0.0, (row_h + ls * 0.7) / 2, bold, ls, INK, label)]
            x = self.m.width(label, bold, ls) + 5
            ops.append(("B", x, 1.2, box * 2.5, box, COLORS[color], 0.7))
            out.append(Row(row_h, tuple(ops), keep=1 if tr.note else 0))
            if tr.note:
                out += self.para(((self.clean(tr.note), self.f.regular, INK),), ls, W, together=8)
            return out
        # checks: a heading (its note beside it when it fits), then each item's box with its name
        # and effect (the effect in the condensed face), all on one card; in two columns when
        # that takes fewer lines
        head = self.heading(tr.label, color, self.clean(tr.note) if tr.note else "")
        out.append(head)
        if tr.note and not head.noted:  # (grey, as beside its heading: a caption, not an effect)
            out += self.para(((self.clean(tr.note), self.f.regular, GREY),), ls, W, together=8)
        items = tr.marks or (tr.label,)
        notes = tr.notes or ("",) * len(items)
        col_gap = s
        one = [self.check_item(item, note, color, W) for item, note in zip(items, notes)]
        two = [self.check_item(item, note, color, (W - col_gap) / 2) for item, note in zip(items, notes)]
        counts = [len(x) for x in two]
        # two columns read down one then the other: split where the taller column is shortest
        split = min(range(1, len(two)), key=lambda k: (max(sum(counts[:k]), sum(counts[k:])), -k), default=0)
        lines = max(sum(counts[:split]), sum(counts[split:])) if split else 0
        if len(items) > 3 and lines < sum(len(x) for x in one):
            lead = s * LEADING
            ops: list[tuple] = []
            for col, items_rows in ((0, two[:split]), (1, two[split:])):
                dx = col * (W + col_gap) / 2
                k = 0
                for item_rows in items_rows:
                    for r in item_rows:
                        ops += [(op[0], op[1] + dx, op[2] + k * lead) + op[3:] for op in r.ops]
                        k += 1
            # one row: the columns stay together and a reader takes the left one first
            out.append(Row(lines * lead, tuple(ops)))
        else:
            for lines_ in one:
                out += lines_
        for r in out[:-1]:
            r.keep = max(r.keep, 1)
        return out

    def check_item(self, item: str, note: str, color: int, width: float) -> list[Row]:
        """A check box with an item's name and its effect, in the condensed faces, wrapped in ``width``."""
        s = self.t.body
        bold = self.f.cond_bold
        indent = s * 0.85 + 3
        runs: list[Run] = [(self.clean(item, bold), bold, INK)]
        if note:
            runs.append((": " + self.clean(note, self.f.cond), self.f.cond, INK))
        lines = self.para(tuple(runs), s, width - indent, x=indent, together=8)
        first = lines[0]
        side = s * 0.85  # a box as tall as the line's capitals, on its first line
        lines[0] = Row(first.height, (("B", 0.0, s * 0.9 - side, side, side, COLORS[color], 0.7),) + first.ops,
                       first.keep)
        return lines

    # ------------------------------------------------------------ tables

    def _fit_columns(self, t: Table, fonts: tuple[str, str, str], sizes: tuple[float, float, float],
                     wrap_labels: bool, key: int | None, bands: bool = False,
                     padh: tuple[float, float] = (0.0, 0.0)) -> list[float]:
        """Natural widths: (label font, main font, other font) at (label size, main size, other size);
        ``bands``: a cell listing bands ("0-9\" / 10-18\" / 19-27\"") on two lines, broken between two;
        ``padh``: the padding at each side of a label and of a value (0: the cards' usual)."""
        k = (id(t), fonts, sizes, wrap_labels, key, bands, padh)
        hit = self._nat.get(k)
        if hit is None or hit[0] is not t:  # (the table is kept with its widths: its id stays its own)
            if len(self._nat) > 2_000:
                self._nat.clear()
            hit = self._nat[k] = (t, self._measure(t, fonts, sizes, wrap_labels, key, bands, padh))
        return hit[1]

    def _two_lines(self, text: str, font: str, size: float) -> float:
        """The width of a list of bands set on two lines, broken between two bands where that is narrowest."""
        parts = text.split(" / ")
        if len(parts) < 2:
            return self.m.width(text, font, size)
        return min(max(self.m.width(" / ".join(parts[:k]) + " /", font, size),
                       self.m.width(" / ".join(parts[k:]), font, size)) for k in range(1, len(parts)))

    def _measure(self, t: Table, fonts: tuple[str, str, str], sizes: tuple[float, float, float],
                 wrap_labels: bool, key: int | None, bands: bool = False,
                 padh: tuple[float, float] = (0.0, 0.0)) -> list[float]:
        m = self.m
        lf, mf, of = fonts
        ls, ms, os_ = sizes
        pad = 2 * (padh[1] or self.padh)
        lpad = 2 * (padh[0] or self.padh)
        cols = []
        n = len(t.labels)
        spans = t.spans if isinstance(t, Banded) else ()
        spanned = {(r, j) for r, j0, k in spans for j in range(j0, j0 + k)}
        for j in range(n):
            lab = self.clean(t.labels[j], lf)
            w = 0.0 if (-1, j) in spanned else \
                max([m.width(word, lf, ls) for word in lab.split()] or [0.0]) if wrap_labels \
                else m.width(lab, lf, ls)
            w += lpad - pad  # (the column's padding is added below)
            for r, (_, cells, main) in enumerate(t.rows):
                if (r, j) in spanned:
                    continue
                text = self.clean(cells[j])
                if j == key:
                    w = max(w, m.width(text, of, os_))
                elif main and key is None and qualified(text):  # a stat band's "6 Sw 3 Cl 1 Ju 3"
                    head, tail = qualified(text)
                    if _ASIDE_OF.fullmatch(tail):  # "0 (bow +1)": the aside on a line under the number
                        w = max(w, m.width(head, mf, ms), m.width(tail, of, ls))
                        continue
                    w = max(w, m.width(head, mf, ms) + ls * 0.3 + min(
                        max(m.width(x, of, ls) for x in split) for split in _tail_splits(tail)))
                else:
                    tw = m.width(text, mf if main else of, ms if main else os_)
                    if bands and j > 0:
                        tw = self._two_lines(text, mf if main else of, ms if main else os_)
                    elif tw > self.inner_w * 0.3 and key is not None:  # a long note wraps in its column
                        tw = max([m.width(word, of, os_) for word in text.split()] + [self.inner_w * 0.3])
                    w = max(w, tw)
            # a list's bands sit closer to one another than two columns do (a column of their own each)
            inside = any(j0 <= j < j0 + k for r, j0, k in spans if r < 0)
            cols.append(w + (pad * BAND_PAD if inside else pad))
        for r, j0, k in spans:  # a cell across a list's columns: they share out what it needs beyond them
            text = self.clean(t.labels[j0], lf) if r < 0 else self.clean(t.rows[r][1][j0])
            main = r >= 0 and t.rows[r][2]
            need = m.width(text, lf if r < 0 else mf if main else of, ls if r < 0 else ms if main else os_) + pad
            short = need - sum(cols[j0:j0 + k])
            if short > 0:
                cols[j0:j0 + k] = [w + short / k for w in cols[j0:j0 + k]]
        return cols

    @property
    def padh(self) -> float:
        return max(1.5, self.t.body * 0.3)

    def stat_max(self, most: float) -> float:
        """The largest stat value as a multiple of the body: ``most``, or the ruleset's own limit."""
        declared = self.declared_stat_max
        return most if declared is None else min(most, declared)

    @property
    def band_padh(self) -> float:
        """The padding at each side of a value in a stat band's box, to the middle of the box's line:
        clear room by the values' size (a value grown against its lines reads cramped), and the
        cards' usual padding where that is more. The book's one-row card (For the Masses' Mv to CP)
        is as wide as the card allows, its values as large: its boxes pad by the values alone (see
        _by_values)."""
        room = value_room(self.t.stat) + BOX_LINE / 2
        return room if self.record_line else max(self.padh, room)

    @property
    def label_padh(self) -> float:
        """The padding at each side of a stat band's label: on the one-row card the boxes are as
        wide as their values need, a short label between the lines where it is the widest thing
        (clear of them: a bold "Mv" against its lines reads as part of them)."""
        return max(1.5, self.t.small * 0.2) + BOX_LINE / 2 if self.record_line else self.padh

    def stat_table(self, t: Table, color: int, caption: str = "") -> list[Row]:
        """The stat band: the ruleset's columns as boxes, a small label over a large value;
        as many bands of boxes as the card's width needs (all boxes of a band equally wide).
        A mixed unit has a line per kind of figure (its name in a first column); extra rows
        (such as "Wounded") come under the main line in body size.
        """
        tsz = self.t
        f = self.f
        row_labels = t.row_labels
        # row label column
        key_w, key_font = self.key_column(t) if row_labels else (0.0, f.regular)
        best = self._stat_plan(t, key_w)
        turned_t = None  # (turned, the labels are the kinds of figure: never given a column's name)
        if row_labels and len(t.rows) > 1 and not caption and (len(best[0]) >= 2 or self.turn_all()):
            # stats down the side and the kinds of figure across, when that takes one band (on
            # every card of the export that can, when one card needs it: the cards look alike)
            turned = self._turned(t)
            if turned is not None:
                t, key_w, best = turned
                turned_t = t
        groups, widths, fonts = best
        lf, mf, of = fonts
        rows: list[Row] = []
        padv = 1.6
        for b, cols in enumerate(groups):
            ws = [widths[j] for j in cols]
            xs = [key_w]
            for w_ in ws[:-1]:
                xs.append(xs[-1] + w_)
            if b:
                rows.append(Row(2.0, spacer=True))
            # labels: the columns' names spelt out ("Move" for "M") where the export takes them (see
            # names_all) and each keeps to one line in its column
            heads = [self.clean(t.labels[j], lf) for j in cols]
            if t is not turned_t and self.names_all():
                names = [self.clean(self.names.get(t.labels[j], t.labels[j]), lf) for j in cols]
                if names != heads and all(self.m.width(name, lf, tsz.small) <= ws[k] - 2 * self.label_padh
                                          for k, name in enumerate(names)):
                    heads = names
            wrapped = [self.w.wrap(((head, lf, LABEL),), tsz.small, ws[k] - 2 * self.label_padh)
                       for k, head in enumerate(heads)]
            nl = max(len(x) for x in wrapped)
            lead = tsz.small * 1.1
            h = nl * lead + 2 * padv
            ops: list[tuple] = [("F", 0.0, 0.0, key_w + sum(ws), h, TINTS[color])]
            for k, lines in enumerate(wrapped):
                x0 = xs[k]
                for li, line in enumerate(lines):
                    lw = line_width(line, self.m, tsz.small)
                    for sx, text, font, colour in line:
                        ops.append(("T", x0 + (ws[k] - lw) / 2 + sx, padv + li * lead + tsz.small * 0.9, font,
                                    tsz.small, colour, text))
            ops += self._grid(key_w, ws, h, color, top=True)
            header = Row(h, tuple(ops), keep=1)
            rows.append(header)
            for ri, (lab, cells, main) in enumerate(t.rows):
                size = tsz.stat if main else tsz.body
                font = mf if main else of
                # a stat the unit has none of ("-", "-/-") reads light: a thin dash in the labels' colour
                looks = [(of, GREY) if _DASHES.fullmatch(cells[j]) else (font, INK) for j in cols]
                wl = [self.w.wrap(((self.clean(cells[j]), *looks[k]),), size, ws[k] - 2 * self.band_padh)
                      for k, j in enumerate(cols)]
                # the number large, its qualifier small after it on the value's baseline (see qualified())
                # (on one line, else on two beside the number, where the band's width asks for it)
                beside: dict[int, tuple[str, tuple[str, ...], float, float, str]] = {}
                tail_lead = tsz.small * 1.1
                below: dict[int, tuple[str, str]] = {}  # an aside in brackets, on its own line under the number
                for k, j in enumerate(cols):
                    parts = qualified(self.clean(cells[j])) if main else None
                    if not parts:
                        continue
                    if _ASIDE_OF.fullmatch(parts[1]):
                        below[k] = parts
                        wl[k] = [[]]
                        continue
                    hw = self.m.width(parts[0], font, size)
                    room = ws[k] - 2 * self.band_padh - hw - tsz.small * 0.3 + 0.01
                    for split in _tail_splits(parts[1]):
                        tw = max(self.m.width(x, of, tsz.small) for x in split)
                        if tw <= room:
                            beside[k] = (parts[0], split, hw, hw + tsz.small * 0.3 + tw, of)
                            wl[k] = [[]]
                            break
                klines = self.w.wrap(((self.clean(lab), key_font, LABEL),), tsz.small, key_w - 2 * self.padh) \
                    if row_labels else []
                lead_v = size * LEADING
                nv = max(len(x) for x in wl)
                tails = max([len(b[1]) * tail_lead for b in beside.values()] or [0.0])
                h = max(nv * lead_v, len(klines) * tsz.small * LEADING, tails,
                        lead_v + tail_lead if below else 0.0) + 2 * padv
                ops = []
                for li, line in enumerate(klines):
                    for sx, text, fnt, colour in line:
                        ops.append(("T", self.padh + sx, padv + li * tsz.small * LEADING + tsz.small * 0.95
                                    + (h - 2 * padv - len(klines) * tsz.small * LEADING) / 2,
                                    fnt, tsz.small, colour, text))
                for k, lines in enumerate(wl):
                    x0 = xs[k]
                    if k in below:
                        head, tail = below[k]
                        top = (h - lead_v - tail_lead) / 2
                        ops.append(("T", x0 + (ws[k] - self.m.width(head, font, size)) / 2, top + size * 0.93,
                                    font, size, INK, head))
                        ops.append(("T", x0 + (ws[k] - self.m.width(tail, of, tsz.small)) / 2,
                                    top + lead_v + tsz.small * 0.9, of, tsz.small, INK, tail))
                        continue
                    if k in beside:
                        head, split, hw, whole, face = beside[k]
                        x = x0 + (ws[k] - whole) / 2
                        base = (h - lead_v) / 2 + size * 0.93
                        ops.append(("T", x, base, font, size, INK, head))
                        tail_top = (h - len(split) * tail_lead) / 2 + tsz.small * 0.9
                        for i, part in enumerate(split):
                            ops.append(("T", x + hw + tsz.small * 0.3, base if len(split) == 1 else
                                        tail_top + i * tail_lead, face, tsz.small, INK, part))
                        continue
                    top = (h - len(lines) * lead_v) / 2
                    for li, line in enumerate(lines):
                        lw = line_width(line, self.m, size)
                        for sx, text, fnt, colour in line:
                            ops.append(("T", x0 + (ws[k] - lw) / 2 + sx, top + li * lead_v + size * 0.93, fnt,
                                        size, colour, text))
                ops += self._grid(key_w, ws, h, color, top=False)
                rows.append(Row(h, tuple(ops), keep=1 if ri < len(t.rows) - 1 and len(t.rows) <= 4 else 0,
                                header=header))
        return rows

    def chart(self, c: CardContent, color: int) -> list[Row]:
        """A chart (see CardChart): the columns' labels over a row of cells for each of its rows, its
        key under it. Blank, to fill in: the rows as tall as the card has room for (from two lines of
        the body, room to write a result in, to three and a half); filled in (a roster's), the results
        in bold, the rows from one and a half lines to two and a half."""
        t, f = self.t, self.f
        ch = c.chart
        assert ch is not None
        padv = 1.6
        key = self.para(((self.clean(c.legend), f.regular, GREY),), t.small, self.inner_w, cache=False) \
            if c.legend else []
        labels = [self.clean(x, f.bold) for x in (c.corner, *(lab for lab, _, _ in ch.rows))]
        filled = any(any(cells) for _, cells, _ in ch.rows)
        # a filled chart's rows are looked up by their labels: at the results' size, not the column heads'
        lsize = t.body if filled else t.small
        key_w = max(self.m.width(labels[0], f.bold, t.small),
                    *(self.m.width(x, f.bold, lsize) for x in labels[1:])) + 2 * self.label_padh
        n = len(ch.labels)
        ws = [(self.inner_w - key_w) / n] * n
        head_h = t.small * 1.1 + 2 * padv
        room = self.frame_height(self.header(c)) - head_h - t.gap - sum(r.height for r in key) - 2.0
        low, high = (1.5, 2.5) if filled else (2.0, 3.5)
        h = max(t.body * low, min(t.body * high, room / len(ch.rows)))
        base = padv + t.small * 0.9
        ops: list[tuple] = [("F", 0.0, 0.0, key_w + sum(ws), head_h, TINTS[color]),
                            ("T", self.label_padh, base, f.bold, t.small, LABEL, labels[0])]
        for k, lab in enumerate(ch.labels):
            text = self.clean(lab, f.bold)
            ops.append(("T", key_w + ws[0] * k + (ws[0] - self.m.width(text, f.bold, t.small)) / 2, base, f.bold,
                        t.small, LABEL, text))
        header = Row(head_h, tuple(ops + self._grid(key_w, ws, head_h, color, top=True)), keep=1)
        out = [header]
        for i, text in enumerate(labels[1:]):
            ops = [("T", self.label_padh, (h + lsize * 0.7) / 2, f.bold, lsize, INK, text)] if text else []
            for k, cell in enumerate(ch.rows[i][1]):
                cell = self.clean(cell, f.bold)
                if not cell:
                    continue
                # at the body, else the labels' size, else condensed, else cut short
                face, size = next(((fc, sz) for fc, sz in ((f.bold, t.body), (f.bold, t.small), (f.cond_bold, t.small))
                                   if self.m.width(cell, fc, sz) <= ws[k] - 2), (f.cond_bold, t.small))
                while len(cell) > 1 and self.m.width(cell, face, size) > ws[k] - 2:
                    cell = cell[:-2] + "…"
                ops.append(("T", key_w + ws[0] * k + (ws[0] - self.m.width(cell, face, size)) / 2,
                            (h + size * 0.7) / 2, face, size, INK, cell))
            out.append(Row(h, tuple(ops + self._grid(key_w, ws, h, color, top=False)),
                           keep=1 if i < len(ch.rows) - 1 else 0, header=header))
        return out + ([Row(t.gap, spacer=True)] + key if key else [])

    def key_column(self, t: Table) -> tuple[float, str]:
        """The width and face of a stat band's first column, its rows' labels: in the condensed face
        where a word would not fit the column otherwise ("Unwounded" on a tarot card)."""
        W, ls, f = self.inner_w, self.t.small, self.f
        face = f.regular
        if max(self.m.width(word, f.regular, ls) for lab, _, _ in t.rows
               for word in self.clean(lab).split() or [""]) + 2 * self.padh > W * 0.34:
            face = f.cond
        return min(max(self.m.width(self.clean(lab), face, ls) for lab, _, _ in t.rows) + 2 * self.padh, W * 0.34), face

    def _turned(self, t: Table) -> tuple[Table, float, tuple] | None:
        """The stat band turned (stats down the side), its key column and plan, if it takes one band."""
        W = self.inner_w
        turned = Table(tuple(lab for lab, _, _ in t.rows),
                       tuple((t.labels[j], tuple(cells[j] for _, cells, _ in t.rows), True)
                             for j in range(len(t.labels))), True)
        key_w = min(max(self.m.width(self.clean(lab), self.f.regular, self.t.small) for lab in t.labels)
                    + 2 * self.padh, W * 0.34)
        plan = self._stat_plan(turned, key_w)
        return (turned, key_w, plan) if len(plan[0]) == 1 else None

    def turn_all(self) -> bool:
        """Whether a card of the export turns its stat band at the current size (the others then do too)."""
        hit = self._turn_all.get(self.t)
        if hit is None:
            hit = False
            for c in self.contents:
                t = c.stats
                if c.kind != "unit" or not t.row_labels or len(t.rows) < 2:
                    continue
                key_w = min(max(self.m.width(self.clean(lab), self.f.regular, self.t.small) for lab, _, _ in t.rows)
                            + 2 * self.padh, self.inner_w * 0.34)
                if len(self._stat_plan(t, key_w)[0]) >= 2 and self._turned(t) is not None:
                    hit = True
                    break
            self._turn_all[self.t] = hit
        return hit

    def reminder_size(self) -> tuple[float, Color]:
        """The reminder line's type size and colour: on a large card in ink, at the body size where
        every fact keeps to its line there in the condensed face or breaks at the labels' size too,
        else at the labels' (a fact broken in two, "-target's Def" alone on a line, cost LEGO's tarot
        cards their rolls; For the Masses' morale test, too long for a line at either, read smaller
        than the "To hit" line over it)."""
        if not self.roomy:  # (in ink: read in play, in grey it read as faint at the labels' size)
            return self.t.remind, INK
        hit = self._reminder_size.get(self.t)
        if hit is None:  # (one answer for the export's cards at a size, as reminder_face)
            facts = [part for c in self.contents if c.reminder for part in self.clean(c.reminder).split(" · ")]

            def fits(fact: str, size: float) -> bool:
                return self.m.width(fact, self.f.cond, size) <= self.inner_w

            # (a fact too long for its line at either size breaks at either: it keeps no line smaller)
            whole = all(fits(x, self.t.body) or not fits(x, self.t.small) for x in facts)
            hit = self._reminder_size[self.t] = (self.t.body if whole else self.t.small), INK
        return hit

    def reminder_lines(self, reminder: str, face: str, size: float, broken: bool = True) -> list[str]:
        """A reminder's lines: a line too long breaks between its facts, the " · " between them
        dropped there (the spear's throw over "rally 1D10 ≤ 7"): no line ends in a separator.
        A fact too long for a line of its own breaks between its phrases where that takes no more
        lines than breaking between words ("(6 always, 1 never)" whole under the attack roll, not
        "1" and "never)" apart), and the next fact starts a line of its own (``broken``: else whole)."""
        lines = [""]
        ended = True  # (the last line ends a fact: the next fact may join it)
        for part in self.clean(reminder).split(" · "):
            joined = f"{lines[-1]} · {part}" if lines[-1] else part
            if lines[-1] and (not ended or self.m.width(joined, face, size) > self.inner_w):
                lines.append(part)
            else:
                lines[-1] = joined
            phrases = self.phrases(lines[-1], face, size) if broken else [lines[-1]]
            ended = len(phrases) == 1
            lines[-1:] = phrases
        return lines

    def phrases(self, fact: str, face: str, size: float) -> list[str]:
        """A fact too long for its line as lines broken after a comma or semicolon or before a
        bracket (outside brackets), each as long as fits; ``[fact]`` where it fits, or where its
        phrases would take more lines than its words (the word wrap then breaks it)."""
        def fits(text: str) -> bool:
            return self.m.width(text, face, size) <= self.inner_w

        if fits(fact):
            return [fact]
        out, rest = [], fact
        while not fits(rest):
            cuts = [(i + 1, i + 2) for i in range(len(rest) - 1) if rest[i] in ",;" and rest[i + 1] == " "] \
                + [(i, i + 1) for i in range(1, len(rest) - 1) if rest[i] == " " and rest[i + 1] == "("]
            heads = [(end, start) for end, start in cuts  # (never inside brackets)
                     if fits(rest[:end]) and rest[:end].count("(") == rest[:end].count(")")]
            if not heads:
                break
            end, start = max(heads)
            out.append(rest[:end])
            rest = rest[start:]
        out.append(rest)
        words = len(self.w.wrap(((fact, face, INK),), size, self.inner_w, cache=False))
        taken = sum(len(self.w.wrap(((x, face, INK),), size, self.inner_w, cache=False)) for x in out)
        return out if taken <= words else [fact]

    def reminder_face(self) -> str:
        """The face of the export's reminder lines: condensed on every card where a fact too long for
        its line in the regular face keeps to one line so ("VP to enemy: 5 slain, 3 wounded" on a
        tarot card), else regular (one face in every reminder of the export: a fact condensed beside
        a regular one read as two designs)."""
        hit = self._reminder_face.get(self.t)
        if hit is None:
            size = self.reminder_size()[0]
            regular, cond = self.f.regular, self.f.cond
            fits = [(self.m.width(line, regular, size) <= self.inner_w, self.m.width(line, cond, size) <= self.inner_w)
                    for c in self.contents if c.reminder
                    for line in self.reminder_lines(c.reminder, regular, size, broken=False)]
            hit = cond if any(not r and k for r, k in fits) else regular
            self._reminder_face[self.t] = hit
        return hit

    def narrow_all(self) -> bool:
        """Whether a card's stat band of the export takes the condensed face at the current size (the
        others then do too: regular values on one card of a sheet and condensed on the next read as
        two designs)."""
        hit = self._narrow_all.get(self.t)
        if hit is None:
            self._narrow_all[self.t] = hit = any(
                self._stat_plan(c.stats, self.key_width(c.stats), alone=True, names=False)[2][1] != self.f.bold
                for c in self.contents
                if c.kind == "unit" and c.stats.labels and not (c.stats.row_labels and len(c.stats.rows) > 1))
        return hit

    def names_all(self) -> bool:
        """Whether the stat bands of the export head their boxes with the columns' names spelt out
        ("Action dice Move Fight Shoot Defense"): on a large card, where every unit card's band takes
        them, each row of boxes still across the card ("Attack Defense Move" on one card of a sheet
        and "A D M Bow" on the next read as two designs; "Attack Def Dmg" in one row too)."""
        if not (self.roomy and self.names):
            return False
        hit = self._names_all.get(self.t)
        if hit is None:
            hit = True
            for c in self.contents:
                t = c.stats
                if c.kind != "unit" or not t.labels:
                    continue
                groups, nat, fonts, _, avail = self._natural(t, self.key_column(t)[0] if t.row_labels else 0.0, False)
                if self._named(t, groups, nat, fonts[0], avail) is None:
                    hit = False
                    break
            self._names_all[self.t] = hit
        return hit

    def _stat_plan(self, t: Table, key_w: float, alone: bool = False,
                   names: bool = True) -> tuple[list[list[int]], list[float], tuple[str, str, str]]:
        """(bands of columns, column widths, fonts) of a stat band: as few bands as the card's width
        allows, the columns shared out evenly among them; DejaVu Sans Condensed when it takes fewer
        (on every card of the export when one card's does, unless ``alone``); each box as wide as
        its column's name where the export's bands take names (``names``, see names_all)."""
        groups, nat, fonts, model, avail = self._natural(t, key_w, alone)
        if names and self.names_all():
            nat = self._named(t, groups, nat, fonts[0], avail) or nat
        if self.record_line and len(groups) == 1:
            return groups, self._by_values(model or t, nat, fonts, avail), fonts
        if model is not None and len(groups) > 1:
            nat = self._shared_rows(model, nat, groups, fonts, avail)
        widths = list(nat)
        for g in groups:  # each band spans the card: what is left is shared out among its boxes
            # the narrowest boxes widened first, to a common width ("0" as roomy as "+1" beside it)
            order = sorted(g, key=lambda j: -nat[j])
            for k in range(len(order)):
                common = (avail - sum(nat[j] for j in order[:k])) / (len(order) - k)
                if common >= nat[order[k]]:
                    break
            for j in order[k:]:
                widths[j] = common
        return groups, widths, fonts

    def _natural(self, t: Table, key_w: float,
                 alone: bool) -> tuple[list[list[int]], list[float], tuple[str, str, str], Table | None, float]:
        """A stat band's bands of columns, natural widths, fonts, model (see models) and the width
        its boxes share (see _stat_plan)."""
        f = self.f
        tsz = self.t
        avail = self.inner_w - key_w
        best = None
        model = None
        for narrow in (False, True) if alone or not self.narrow_all() else (True,):
            fonts = (f.narrow(f.bold) if narrow else f.bold, f.narrow(f.bold) if narrow else f.bold,
                     f.narrow(f.regular) if narrow else f.regular)
            model = self.models.get(("stats", t.labels)) if not t.row_labels else None
            nat = [min(w, avail) for w in self._fit_columns(model or t, fonts, (tsz.small, tsz.stat, tsz.body),
                                                            True, None, padh=(self.label_padh, self.band_padh))]
            groups = self._bands(t.labels, nat, avail)
            if best is None or len(groups) < len(best[0]):
                best = (groups, nat, fonts)
            if len(groups) == 1:
                break
        assert best is not None
        return best[0], best[1], best[2], model, avail

    def _named(self, t: Table, groups: list[list[int]], nat: list[float], face: str,
               avail: float) -> list[float] | None:
        """``nat`` with each box as wide as its column's name needs in ``face`` at the labels' size
        (its label's where it has none); None where a band would then pass the card's width."""
        out = []
        for j, w in enumerate(nat):
            name = self.clean(self.names.get(t.labels[j], t.labels[j]), face)
            out.append(max(w, self.m.width(name, face, self.t.small) + 2 * self.label_padh))
        return out if all(sum(out[j] for j in g) <= avail + 0.01 for g in groups) else None

    def _bands(self, labels: tuple[str, ...], nat: list[float], avail: float) -> list[list[int]]:
        """The columns into bands: one where they fit; else a band for each row the ruleset declares,
        each split further where it is too wide, so that a column keeps its row on every card."""
        rows = [self.band_rows.get(lab) for lab in labels]
        if sum(nat) <= avail + 0.01 or None in rows:
            return _groups(nat, avail)
        out: list[list[int]] = []
        start = 0
        for j in range(1, len(labels) + 1):
            if j == len(labels) or rows[j] != rows[start]:
                out += [[start + k for k in g] for g in _groups(nat[start:j], avail)]
                start = j
        return out

    def _shared_rows(self, model: Table, nat: list[float], groups: list[list[int]], fonts: tuple[str, str, str],
                     avail: float) -> list[float]:
        """``nat`` with each band that is a whole declared row as wide, box by box, as that row on
        every card of the export with the same columns in it (where it still fits across): the
        row's stats then line up from card to card, whatever the other row holds."""
        out = list(nat)
        for g in groups:
            row = tuple(model.labels[j] for j in g)
            at = self.band_rows.get(row[0])
            if at is None or tuple(lab for lab in model.labels if self.band_rows.get(lab) == at) != row:
                continue
            widest = [nat[j] for j in g]
            for key, other in self.models.items():
                if key[0] != "stats" or other is model:
                    continue
                where = [j for j, lab in enumerate(other.labels) if self.band_rows.get(lab) == at]
                if tuple(other.labels[j] for j in where) != row:
                    continue
                theirs = self._fit_columns(other, fonts, (self.t.small, self.t.stat, self.t.body), True, None,
                                           padh=(self.label_padh, self.band_padh))
                widest = [max(w, min(theirs[j], avail)) for w, j in zip(widest, where)]
            if sum(widest) <= avail + 0.01:
                for j, w in zip(g, widest):
                    out[j] = w
        return out

    def _by_values(self, t: Table, nat: list[float], fonts: tuple[str, str, str], avail: float) -> list[float]:
        """The one-row band's boxes across the card, the room left over given to the values: each
        box as wide as its widest value with the same margin at each side ("2d10" as roomy as "5"),
        or as its label needs where that is wider."""
        _, mf, of = fonts
        tsz = self.t
        values = [max([self.m.width(self.clean(cells[j]), of if _DASHES.fullmatch(cells[j]) or not main else mf,
                                    tsz.stat if main else tsz.body) for _, cells, main in t.rows] or [0.0])
                  for j in range(len(nat))]

        def widths(margin: float) -> list[float]:
            return [max(n, v + 2 * margin) for n, v in zip(nat, values)]

        low, high = 0.0, avail
        for _ in range(40):  # (the widest margin at which the boxes fill the card's width)
            mid = (low + high) / 2
            low, high = (mid, high) if sum(widths(mid)) <= avail else (low, mid)
        out = widths(low)
        spare = (avail - sum(out)) / len(out)
        return [w + spare for w in out]

    def _grid(self, key_w: float, ws: list[float], h: float, color: int, top: bool) -> list[tuple]:
        """The box lines of one line of the stat band."""
        col = COLORS[color]
        right = key_w + sum(ws)
        ops: list[tuple] = [("L", 0.0, h, right, h, col, 0.6)]
        if top:
            ops.append(("L", 0.0, 0.0, right, 0.0, col, 0.6))
        xs = [0.0] if key_w else []
        x = key_w
        xs.append(x)
        for w in ws:
            x += w
            xs.append(x)
        for x in xs:
            ops.append(("L", x, 0.0, x, h, col, BOX_LINE))
        return ops

    def weapon_table(self, t: Table, color: int) -> list[Row]:
        """The weapon table, one row per weapon: its name, then the ruleset's columns, each as wide
        as its widest cell in the export (so the same on every card); the columns the ruleset sets
        under the row (notes) take a line of their own across the table. Each row is one unit of
        flow, so a card may break between two weapons and never inside one."""
        tsz = self.t
        W = self.inner_w
        lf, of, widths, cols, under, _ = self.weapon_plan(t)
        t = self.banded(t, t.bands)
        xs = [sum(widths[:k]) for k in range(len(widths))]
        padv = 1.4
        spans = t.spans if isinstance(t, Banded) else ()
        # the columns of a list of bands (padded less, see _measure)
        inside = {[0, *cols].index(j) for r, j0, k in spans if r < 0 for j in range(j0, j0 + k)}

        def cells(texts: list[str], font: str, size: float, colour: Color, row: int) -> tuple[list[tuple], float]:
            ops: dict[int, list[tuple]] = {}
            h = size * LEADING
            # a cell across a list of bands' columns ("melee 1\""); the labels head a band each
            across = {[0, *cols].index(j0): k for r, j0, k in spans if r == row and r >= 0}
            reach = self.into_bands(texts, widths, inside, font, size) if row < 0 else None
            for k, text in reversed(list(enumerate(texts))):  # (the name last: it may use the others' room)
                width = sum(widths[k:k + across.get(k, 1)])
                pad = self.padh * (BAND_PAD if k in inside and k not in across else 1.0)
                if k == 0 and colour is INK:  # a weapon's name: broken between words, or after a slash
                    # its lines after the first run under the other cells when each of those takes one line
                    later = W - 2 * pad if h <= size * LEADING + 0.01 else width - 2 * pad
                    cell, ch = self.name_cell(text, font, size, xs[k] + pad, padv, width - 2 * pad, later)
                elif k == len(texts) - 1 and reach is not None:  # (on one line, reaching left)
                    cell, ch = [("T", xs[k] + width - pad - reach[0], padv + size, reach[2], size, colour,
                                 self.clean(text, reach[2]))], size * LEADING
                else:
                    shift = reach[1] if reach is not None and k == len(texts) - 2 else 0.0
                    # (a cell across the bands starts under the first, "0": a melee weapon's reach is
                    # at no range penalty, and centred it read as the "-1" band's)
                    cell, ch = self.cell(text, font, size, colour, xs[k] + pad - shift, padv, width - 2 * pad,
                                         centre=k > 0 and k not in across)
                ops[k] = cell
                h = max(h, ch)
            return [op for k in sorted(ops) for op in ops[k]], h + 2 * padv  # (drawn, so read, left to right)

        head_ops, hh = cells(band_labels(t, [0] + cols), lf, tsz.small, LABEL, -1)
        header = Row(hh, (("F", 0.0, 0.0, W, hh, TINTS[color]),) + tuple(head_ops), keep=1)
        rows: list[Row] = [header]
        for r, (_, texts, _) in enumerate(t.rows):
            ops, h = cells([texts[j] for j in [0] + cols], of, tsz.body, INK, r)
            said = [j for j in under if texts[j].strip() not in NOTHING]
            for j in said:  # a note listing a die for each band of range: a row of cells across the weapon
                grid = self.die_bands(t.labels[j], texts[j], color, h)
                if grid is not None:
                    ops += grid[0]
                    h += grid[1]
            said = [j for j in said if not _DIE_BAND_LIST.match(texts[j])]
            notes = "; ".join(f"{t.labels[j]}: {texts[j].strip()}" for j in said)
            if notes:
                indent = self.padh + tsz.body
                # (in ink: a reach or a weapon's rule is played by, no footnote)
                sub, sh = self.cell(notes, of, tsz.small, INK, indent, h - padv, W - indent - self.padh)
                ops += sub
                h += sh
            ops.append(("L", 0.0, h, W, h, RULE, 0.4))
            rows.append(Row(h, tuple(ops), header=header))
        return rows

    def into_bands(self, labels: list[str], widths: list[float], bands: set[int],
                   font: str, size: float) -> tuple[float, float, str] | None:
        """The last column's label on one line, reaching left into the room the band's label beside
        it leaves in its column (LEGO's "Once every" beside the "-2" over the range's last band):
        (its width, how far the band's label moves left of its band's centre to make the room,
        never out of its column's padding, as little as will do; its face); None where the label
        fits its column, or would crowd its neighbour."""
        k = len(labels) - 1
        if k < 2 or self.m.width(self.clean(labels[k], font), font, size) <= widths[k] - 2 * self.padh + 0.01:
            return None
        p = max((j for j in range(1, k) if labels[j].strip()), default=0)
        if p not in bands or p != k - 1:
            return None
        x = sum(widths[:p])
        pw = self.m.width(self.clean(labels[p], font), font, size)
        most = max(0.0, (widths[p] - pw) / 2 - self.padh * BAND_PAD)
        end = x + (widths[p] + pw) / 2  # (the band's label, centred over its band)
        faces = (font, self.f.narrow(font))  # (DejaVu Sans Condensed where the regular face has no room)
        # a word's room between the two ("-2" and "Once every" read as two headings), else half of it
        for gap in (size, size * 0.5):
            for face, moves in [(f, False) for f in faces] + [(f, True) for f in faces]:
                tw = self.m.width(self.clean(labels[k], face), face, size)
                shift = max(0.0, end + gap - (x + widths[p] + widths[k] - self.padh - tw))
                if shift <= (most if moves else 0.0) + 0.01:
                    return tw, shift, face
        return None

    def die_bands(self, label: str, text: str, color: int, top: float) -> tuple[list[tuple], float] | None:
        """A note listing a die for each band of range ("D4 0-5\" D6 6-10\" ..." under an ARES missile
        weapon) as a row of cells across the table, each die over its band, in ink: the dice in the
        labels' size, the bands at the body size (condensed, else at the labels' size, where that keeps
        the note's label on their left); None when the text is no such list or its cells do not fit."""
        if not _DIE_BAND_LIST.match(text):
            return None
        pairs = _DIE_BAND.findall(text)
        tsz, W, pad = self.t, self.inner_w, 1.5
        bold = self.f.bold
        label = self.clean(label, bold)
        # the label on one line, else two ("Range" over "die"): without it the row of dice reads as
        # nobody's (the defender's die by distance)
        heads = [[label]] + ([label.split(" ", 1)] if " " in label else [])
        tries = [(tsz.body, face, lines) for face in (self.f.regular, self.f.cond) for lines in heads] \
            + [(tsz.small, self.f.regular, heads[-1]), (tsz.body, self.f.regular, []), (tsz.small, self.f.regular, [])]
        for size, face, lines in tries:
            cell_w = max(max(self.m.width(self.clean(d), bold, tsz.small), self.m.width(self.clean(b), face, size))
                         for d, b in pairs) + 2 * pad
            x0 = max((self.m.width(x, bold, tsz.tiny) for x in lines), default=-2 * self.padh) + 2 * self.padh
            # (the label only where the cells keep their padding around their bands beside it)
            if x0 + cell_w * len(pairs) <= W + 0.01:
                break
        else:
            return None
        cell_w = (W - x0) / len(pairs)
        y = top - 0.9  # (in the weapon row's bottom padding: the row of dice reads as part of its weapon)
        h1, h2 = tsz.small * LEADING + 0.6, size * LEADING + 0.6
        ops: list[tuple] = [("F", x0, y, W - x0, h1, TINTS[color])]
        base = y + (h1 + h2 - (len(lines) - 1) * tsz.tiny * 1.1 + tsz.tiny * 0.7) / 2
        for k, word in enumerate(lines):
            ops.append(("T", self.padh, base + k * tsz.tiny * 1.1, bold, tsz.tiny, LABEL, word))
        for k, (die, band) in enumerate(pairs):
            x = x0 + k * cell_w
            if k:
                ops.append(("L", x, y, x, y + h1 + h2, RULE, 0.5))
            die, band = self.clean(die), self.clean(band)
            ops.append(("T", x + (cell_w - self.m.width(die, bold, tsz.small)) / 2, y + 0.3 + tsz.small * 0.95,
                        bold, tsz.small, INK, die))
            ops.append(("T", x + (cell_w - self.m.width(band, face, size)) / 2, y + h1 + 0.3 + size * 0.95,
                        face, size, INK, band))
        return ops, y + h1 + h2 - top

    def name_cell(self, text: str, font: str, size: float, x: float, top: float,
                  width: float, later: float | None = None) -> tuple[list[tuple], float]:
        """A weapon's name in its cell, and the cell's height. A name listing several ("Big bite/big
        claw/big fist") breaks after a slash, between two of them; a name (or one of them) too long
        for a line breaks between its words; ``later``: the width of its lines after the first.
        Right-to-left text goes to platypus (as cell()), which shapes it."""
        clean = self.clean(text, font)
        if has_rtl(clean) or not clean.strip():
            return self.cell(text, font, size, INK, x, top, width)
        lines: list[list[Seg]] = []
        line = ""
        for piece in _AFTER_SLASH.split(clean) + [None]:
            room = width if not lines or later is None else later
            if line and (piece is None or self.m.width(line + piece, font, size) > room + 0.01):
                lines += self.w.wrap(((line.strip(), font, INK),), size, room)
                line = ""
            line += piece or ""
        ops = [("T", x + sx, top + size + k * size * LEADING, f, size, c, t)
               for k, line in enumerate(lines) for sx, t, f, c in line if t]
        return ops, len(lines) * size * LEADING

    def cell(self, text: str, font: str, size: float, colour: Color, x: float, top: float, width: float,
             centre: bool = False) -> tuple[list[tuple], float]:
        """A table cell's text and its height: a platypus paragraph measures and wraps it; a cell on
        one line is set as plain text with the card's others (most cells, and the quick way), a
        longer one is drawn by platypus."""
        clean = self.clean(text, font)
        if not clean.strip():
            return [], size * LEADING
        # a band of a range table ("D8 11-15\"") is never broken: the space before its range holds
        text = _BAND.sub("\u00a0", text)
        para = self.paragraph(text, font, size, colour, TA_CENTER if centre else TA_LEFT)
        h = para.wrap(width, 1e6)[1]
        if h > size * LEADING + 0.01 or has_rtl(clean):
            return [("P", x, top, para, h)], h
        dx = (width - self.m.width(clean, font, size)) / 2 if centre else 0.0
        return [("T", x + dx, top + size, font, size, colour, clean)], h

    def banded(self, t: Table, bands: tuple[tuple[str, str], ...]) -> Table:
        """``banded(t, bands)``, made once per table (its columns' widths are measured once, see _fit_columns)."""
        if not bands:
            return t
        hit = self._banded.get((id(t), bands))
        if hit is None or hit[0] is not t:
            if len(self._banded) > 2_000:
                self._banded.clear()
            hit = self._banded[(id(t), bands)] = (t, banded(t, bands))
        return hit[1]

    def weapon_plan(self, t: Table) -> tuple[str, str, list[float], list[int], list[int], bool]:
        """(label font, cell font, column widths, columns in the row, columns under it, whether
        every cell but the names fits its column on one line)."""
        W = self.inner_w
        tsz = self.t
        model = self.banded(self.models.get(("weapons", t.labels)) or t, t.bands)
        t = self.banded(t, t.bands)
        under = [j for j in range(1, len(t.labels)) if t.labels[j] in t.under]
        cols = [j for j in range(1, len(t.labels)) if j not in under]
        # DejaVu Sans Condensed when the regular face does not fit; then a list of bands on two
        # lines (broken between two bands) when that does not either
        for bands, narrow in ((False, False), (False, True), (True, False), (True, True))[:4 if self.band_wrap else 2]:
            lf = self.f.narrow(self.f.bold) if narrow else self.f.bold
            of = self.f.narrow(self.f.regular) if narrow else self.f.regular
            nat = self._fit_columns(model, (lf, of, of), (tsz.small, tsz.body, tsz.body), True, None, bands)
            if min(nat[0], W * 0.5) + sum(nat[j] for j in cols) <= W + 0.01:  # (a very long name may wrap)
                break
        nat = [w + 0.5 for w in nat]  # (a text as wide as its cell's room wraps: a little to spare)
        key_min = min(nat[0], W * 0.34)
        rest = sum(nat[j] for j in cols)
        if not cols:
            return lf, of, [W], cols, under, True
        if rest > W - key_min:  # too wide even so: the columns share what the name leaves (cells wrap)
            return lf, of, [key_min] + [nat[j] * (W - key_min) / rest for j in cols], cols, under, False
        # the name takes what it needs (or what is left); the rest is shared out among the others
        key_w = min(nat[0], W - rest)
        # a name may wrap between its words, not inside one ("Claw/hand/spear/sword")
        words = [w for _, cells, _ in model.rows for w in self.clean(cells[0]).split()]
        if self.name_wrap:  # ... or after a slash inside one
            words = [piece for w in words for piece in _AFTER_SLASH.split(w)]
        word = max(self.m.width(w, of, tsz.body) for w in words or [""]) + 2 * self.padh + 0.5
        fits = key_w >= word - 0.01
        if fits:  # a name listing several ("Big bite/big claw/...") takes two lines at most
            pad = self.padh
            fits = all(self.name_cell(cells[0], of, tsz.body, 0.0, 0.0, key_w - 2 * pad, W - 2 * pad)[1]
                       <= 2 * tsz.body * LEADING + 0.01 for _, cells, _ in model.rows if _SLASHED.search(cells[0]))
        return (lf, of, [key_w] + [nat[j] + (W - key_w - rest) / len(cols) for j in cols], cols, under, fits)

    def stat_bands(self, c: CardContent) -> int:
        """How many lines of boxes the card's stat band takes at the current size: counted for a
        band of eight or more stats, which split in two reads as two tables (For the Masses' record
        line, Mv to CP) or in three as a pile of boxes (ARES' nine); a shorter band (three wide
        boxes) splits cleanly and counts as one."""
        if len(c.stats.labels) < 8 or c.stats.row_labels:
            return 1
        return len(self._stat_plan(c.stats, 0.0)[0])

    def one_row(self, c: CardContent) -> bool:
        """Whether each weapon of the card takes one row (its name aside) at the current size."""
        return c.weapons is None or not c.weapons.rows or self.weapon_plan(c.weapons)[5]

    def paragraph(self, text: str, font: str, size: float, colour: Color, align: int) -> Paragraph:
        """A cell's text as a platypus paragraph: escaped (a name is never read as markup), in the
        export's fonts, shaped when it holds right-to-left text."""
        key = (text, font, size, colour, align)
        style = self._styles.get(key[1:])
        if style is None:
            style = self._styles[key[1:]] = ParagraphStyle(
                f"cell{len(self._styles)}", fontName=font, fontSize=size, leading=size * LEADING, textColor=colour,
                alignment=align, wordWrap="LTR")
        clean = self.clean(text, font)
        if has_rtl(clean):
            style = ParagraphStyle(style.name + "-shaped", style, shaping=1)
        return Paragraph(self.f.markup(clean, font), style)

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


def value_room(size: float) -> float:
    """The clear room each side of a stat value in its box, from the value to its box's line: 15%
    of the value (a large value against its lines reads as one block with them), 1.5 pt at least."""
    return max(1.5, size * 0.15)


def _per_line(avail: float, widths: list[float], gap: float, group_gap: float, g: int, each: bool) -> int:
    """How many boxes go on a line ``avail`` wide, runs of ``g`` a group's gap apart, the boxes of a
    run as wide as ``widths`` in turn: a figure's boxes on one line (``each``: at most EACH_MAX,
    whole figures)."""
    per_line, x = 0, 0.0
    while True:
        bw = widths[per_line % len(widths)]
        nxt = x + bw + (group_gap if per_line and per_line % g == 0 else gap if per_line else 0)
        if nxt > avail + 0.01:
            break
        x = nxt
        per_line += 1
    if g <= per_line:
        per_line -= per_line % g  # a figure's boxes stay on one line
        if each:
            per_line = min(per_line, max(g, EACH_MAX - EACH_MAX % g))
    return max(per_line, 1)


def _lefts(n: int, n_done: int, x0: float, g: int, mark: int, step: float, runs_gap: float, tag_w: float,
           widths: list[float]) -> tuple[list[float], list[float]]:
    """Where a line of ``n`` boxes of a tracker (after its first ``n_done``) sets each box and each
    run's number: from ``x0``, runs of ``g`` boxes ``widths`` wide ``step`` apart, ``runs_gap``
    between two runs and at the half-strength bar after box ``mark``, a run's number ``tag_w`` wide
    before it (none where 0)."""
    boxes, tags, bx = [], [], x0
    for k in range(n):
        if k:
            bx += runs_gap if k % g == 0 or n_done + k == mark else step
        if tag_w and k % g == 0:
            if k:
                bx -= tag_w
            tags.append(bx)
            bx += tag_w
        boxes.append(bx)
        bx += widths[k % g]
    return boxes, tags


def _labelled(xs: list[float], ks: range, n_done: int, widths: list[float], heads: list[list[str]],
              g: int) -> list[tuple[float, float, list[str]]]:
    """The boxes ``ks`` of a line of boxes at ``xs`` (after the tracker's first ``n_done``, runs of
    ``g`` boxes ``widths`` wide) that have labels (``heads``, the lines of each): for run_heads()."""
    return [(xs[k], widths[(n_done + k) % g], heads[(n_done + k) % g]) for k in ks if (n_done + k) % g < len(heads)]


def single_box(tr: Track) -> bool:
    """Whether a tracker is one plain box to tick (a figure's Wounded, Panicked), its note or none."""
    return tr.kind == "check" and not tr.marks or tr.kind == "boxes" and tr.boxes == 1 and not tr.heading \
        and not tr.mark and not tr.runs


def without_box_notes(content: CardContent) -> CardContent:
    """The card with its single boxes' effects left off (the boxes and their labels stay)."""
    tracks = tuple(replace(tr, note="") if tr.note and single_box(tr) else tr for tr in content.tracks)
    return replace(content, tracks=tracks) if tracks != content.tracks else content


def _single(tr: Track) -> bool:
    """Whether a tracker is a single check box without a note, set on the card's line of such boxes."""
    return single_box(tr) and not tr.note


def qualified(value: str) -> tuple[str, str] | None:
    """A stat value with a qualifier after its number, split: "6 Sw 3 Cl 1 Ju 3" -> ("6", "Sw 3
    Cl 1 Ju 3"), "0 (bow +1)" -> ("0", "(bow +1)"); None for a value of one word or one that
    does not open with a number. The stat band prints the qualifier small beside the number, so
    the band keeps its columns on one line."""
    head, _, tail = value.strip().partition(" ")
    return (head, tail.strip()) if _NUMBER.fullmatch(head) and tail.strip() else None


_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?\"?")
_ASIDE_OF = re.compile(r"\([^()]+\)")  # a qualifier in brackets, "(bow +1)": a line of its own


def _tail_splits(tail: str) -> list[tuple[str, ...]]:
    """A qualifier on one line, then each way of setting it on two, broken between words: after
    a number where it has one ("Sw 3 Cl 1" over "Ju 3", keeping "Cl 1" together)."""
    words = tail.split()
    breaks = [k for k in range(1, len(words)) if words[k - 1][-1].isdigit()] or list(range(1, len(words)))
    return [(tail,)] + [(" ".join(words[:k]), " ".join(words[k:])) for k in breaks]


_ASIDES = re.compile(r" \([^()]*\)")
_DASHES = re.compile(r"\s*[-–—]+(\s*/\s*[-–—]+)*\s*")  # "-", "–", "-/-": a value that says "none"


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


def models(contents: list[CardContent]) -> dict[tuple, Table]:
    """For each kind of table of an export (stat band or weapon table, by its columns), a table
    holding the rows of every card: its column widths are every card's."""
    rows: dict[tuple, dict] = {}
    for c in contents:
        if c.kind != "unit":
            continue
        if c.stats.labels and not c.stats.row_labels:
            rows.setdefault(("stats", c.stats.labels), {}).update(dict.fromkeys(c.stats.rows))
        if c.weapons is not None and c.weapons.rows:
            rows.setdefault(("weapons", c.weapons.labels), {}).update(dict.fromkeys(c.weapons.rows))
    return {key: Table(key[1], tuple(r), False) for key, r in rows.items()}


@dataclass(frozen=True)
class Banded(Table):
    """A weapon table with each list of bands set one band to a column: ``spans`` holds the cells
    that take all the columns of their list, (row, first column, columns), row -1 the labels."""

    spans: tuple[tuple[int, int, int], ...] = ()


def banded(t: Table, bands: tuple[tuple[str, str], ...]) -> Table:
    """``t`` with each column listed in ``bands`` (label, heading) split into a column per band:
    "0-9\" / 10-18\" / 19-27\"" in three columns under one label, "Range 0 / -1 / -2". A cell
    that is not such a list ("melee 1\"") takes the columns together."""
    heads = dict(bands)
    if isinstance(t, Banded) or not any(lab in heads and " / " in lab for lab in t.labels[1:]):
        return t
    labels: list[str] = []
    cells: list[list[str]] = [[] for _ in t.rows]
    spans: list[tuple[int, int, int]] = []
    for j, lab in enumerate(t.labels):
        k = len(lab.split(" / "))
        if j == 0 or lab not in heads or k < 2:
            labels.append(lab)
            for r, (_, texts, _) in enumerate(t.rows):
                cells[r].append(texts[j])
            continue
        spans.append((-1, len(labels), k))
        for r, (_, texts, _) in enumerate(t.rows):
            parts = texts[j].split(" / ")
            if len(parts) == k:
                cells[r] += [p.strip() for p in parts]
            else:
                spans.append((r, len(labels), k))
                cells[r] += [texts[j]] + [""] * (k - 1)
        labels += [f"{heads[lab]} {lab}".strip()] + [""] * (k - 1)
    return Banded(tuple(labels), tuple((lab, tuple(c), main) for (lab, _, main), c in zip(t.rows, cells)),
                  t.row_labels, t.under, t.bands, spans=tuple(spans))


def band_labels(t: Table, columns: list[int]) -> list[str]:
    """The labels over ``columns`` of a weapon table, a list of bands' label set as one over each
    of its bands ("0", "-1", "-2" over LEGO's range bands, as the book's range table heads each band
    on its own), so each stands over its column; the list's heading ("Range") is left to the bands
    under them, which say their inches. Where no weapon of the table has bands (a card of melee
    weapons: "Club  melee 1\"" across them), the bands' labels stand over nothing and are left out."""
    labels = [t.labels[j] for j in columns]
    if not isinstance(t, Banded):
        return labels
    for r, j0, k in t.spans:
        if r >= 0 or j0 not in columns:
            continue
        i = columns.index(j0)
        parts = next((lab.split(" / ") for lab, head in t.bands
                      if f"{head} {lab}".strip() == t.labels[j0] and len(lab.split(" / ")) == k), None)
        if parts is not None and columns[i:i + k] == list(range(j0, j0 + k)):
            across = sum(1 for r2, j2, _ in t.spans if r2 >= 0 and j2 == j0) == len(t.rows)
            labels[i:i + k] = [""] * k if across else [part.strip() for part in parts]
    return labels


def declared_rows(columns) -> dict[str, int]:
    """The stat band's row of each of a ruleset's card columns, by label: a column with ``new_band``
    starts the next; {} where the ruleset declares no rows (the band then folds by width alone)."""
    if not any(col.new_band for col in columns):
        return {}
    rows: dict[str, int] = {}
    row = 0
    for col in columns:
        if col.new_band and rows:
            row += 1
        rows[col.label] = row
    return rows


def _groups(nat: list[float], avail: float) -> list[list[int]]:
    """Columns into as few bands as fit ``avail``, in order; then shared out evenly when that fits too."""
    groups: list[list[int]] = []
    cur: list[int] = []
    used = 0.0
    for j, w in enumerate(nat):
        if cur and used + w > avail + 0.01:
            groups.append(cur)
            cur, used = [], 0.0
        cur.append(j)
        used += w
    if cur:
        groups.append(cur)
    k, n = len(groups), len(nat)
    if k > 1:
        even, i = [], 0
        for g in range(k):
            size = n // k + (1 if g < n % k else 0)
            even.append(list(range(i, i + size)))
            i += size
        if all(sum(nat[j] for j in g) <= avail + 0.01 for g in even):
            return even
    return groups


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
