"""What the parts of a card's layout share: the type sizes of an export, the colours, a row of a
card's flow, and the widths of text (see layout)."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import Color, HexColor

from .fonts import DEJAVU, FontSet, register

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

    __slots__ = (
        "apart",
        "bottom",
        "figures",
        "header",
        "height",
        "keep",
        "noted",
        "ops",
        "ruled",
        "spacer",
    )

    def __init__(self, height: float, ops: tuple = (), keep: int = 0, header: Row | None = None,
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


def line_width(line: list[Seg], metrics: Metrics, size: float) -> float:
    if not line:
        return 0.0
    x, text, font, _ = line[-1]
    return x + metrics.width(text, font, size)
