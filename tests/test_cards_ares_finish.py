"""ARES cards as a player reads them at the table (read back from the PDF): the range die of a
missile weapon as a row of cells in ink, name bands alike on a sheet, the Wounds label beside its
boxes on every card."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from cardexports import without_flag
from conftest import SAMPLES
from pdfdraw import operations, squares
from pypdf import PdfReader

from rosterkit.cards.pdf import CardOptions

SIZES = ("poker", "tarot", "a6")
# the body sizes these exports printed at with the range die as a small grey line under the weapon
# (at poker, less the half point the losses reminder on every unit card costs them: REMINDER_DROP)
BODY_BEFORE = {("ares_crown_household", "poker"): 8.0, ("ares_crown_household", "tarot"): 9.5,
               ("ares_crown_household", "a6"): 12.0, ("ares_MISMATCH_royal_host", "poker"): 7.25,
               ("ares_MISMATCH_royal_host", "tarot"): 9.5, ("ares_MISMATCH_royal_host", "a6"): 12.0}


@dataclass(frozen=True)
class Text:
    x: float  # left end of the string's baseline on the page
    y: float  # the baseline's height on the page
    size: float  # the type size on the page
    fill: tuple[float, ...]  # the fill colour it is set in (rg)
    text: str


def texts(page) -> list[Text]:
    """Every string the page shows, where, how large and in what colour (one per Tj)."""
    out: list[Text] = []
    fill: tuple[float, ...] = (0.0, 0.0, 0.0)
    size = 0.0
    at = (0.0, 0.0)
    for op, operands, state in operations(page):
        if op == b"rg":
            fill = tuple(float(v) for v in operands)
        elif op == b"Tf":
            size = float(operands[1])
        elif op == b"Tm":
            at = (float(operands[4]), float(operands[5]))
        elif op == b"Tj":
            x, y = state.point(*at)
            out.append(Text(x, y, size * state.scale, fill, str(operands[0])))
    return out


def _export(sample_cards, sample: str, size: str):
    return sample_cards(SAMPLES / f"{sample}.toml", CardOptions(rules=False, size=size, paper="a4", summary=False))


def _inked(t: Text) -> bool:
    return max(t.fill) < 0.25  # the card's ink (#1d1d1b), not the grey of notes and labels (#5f5f5a)


# ---------------------------------------------------------------- 1. the range die


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", ["ares_crown_household", "ares_MISMATCH_royal_host"])
def test_range_die_reads_as_a_row_of_cells_in_ink(sample_cards, sample, size):
    """A longbow (range factor 5) prints its range die as five cells: each die over its band of
    inches, in ink, the bands at the body size (at the labels' where "Range die" needs the room
    beside them) and the dice no smaller than the column labels, on one line each across the
    weapon's width (not one small grey line of text); the body size holds."""
    shared = _export(sample_cards, sample, size)
    body = shared.result.body_size
    assert body >= BODY_BEFORE[sample, size]
    small = round(max(5.5, body * 0.82), 2)
    dice = ["D4", "D6", "D8", "D10", "D12"]
    bands = ['0-5"', '6-10"', '11-15"', '16-20"', '21-25"']
    found = 0
    for page in PdfReader(str(shared.path)).pages:
        shown = texts(page)
        for first in (t for t in shown if t.text == bands[0]):
            # the row of bands: on the baseline of the first, left to right
            row = sorted((t for t in shown if abs(t.y - first.y) < 0.05 and t.text in bands
                          and t.x >= first.x), key=lambda t: t.x)[:5]  # (not a card's beside it)
            assert [t.text for t in row] == bands, [t.text for t in row]
            assert all(_inked(t) for t in row) and len({t.size for t in row}) == 1, row
            assert any(abs(row[0].size - x) < 0.01 for x in (body, small)), row
            # the dice: one line above the bands, each centred over its band
            over = [t for t in shown if t.text in dice and 0 < t.y - first.y < body * 2.5
                    and first.x - 20 < t.x < row[-1].x + 30 and t.size < body + 0.01]
            over.sort(key=lambda t: t.x)
            assert [t.text for t in over] == dice, [t.text for t in over]
            assert len({round(t.y, 1) for t in over}) == 1
            assert all(_inked(t) and t.size >= small - 0.01 for t in over), over
            found += 1
        assert not any("Range die:" in t.text for t in shown)
    assert found >= 1


# ---------------------------------------------------------------- 2. name bands alike on a sheet


def _stat_tops(shared) -> list[list[float]]:
    """Per sheet, the heights of the stat bands' first label ("Combat" of "Combat Rating", not of a
    second band's "Close Combat"), one per card."""
    tops = []
    for page in PdfReader(str(shared.path)).pages:
        shown = texts(page)
        rating = [t for t in shown if t.text == "Rating"]
        tops.append(sorted(t.y for t in shown if t.text == "Combat"
                           and any(abs(r.x - t.x) < 12 and 0 < t.y - r.y < 15 for r in rating)))
    return tops


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", ["ares_crown_household", "ares_MISMATCH_royal_host", "ares_hill_clans",
                                    "ares_INVALID_over_rating"])
def test_stat_bands_of_cards_side_by_side_start_level(sample_cards, sample, size):
    """The cards of one row of a sheet start their stat bands at one height: a mixed unit's cards
    are titled by the unit on one line like the others, the kind of figure opening the subtitle
    (so the cards of the unit still tell the figures apart)."""
    shared = _export(sample_cards, sample, size)
    for tops in _stat_tops(shared):
        rows: list[list[float]] = []
        for y in tops:  # cards of one row of the sheet: within a stat band's height of each other
            if rows and y - rows[-1][0] < 40:
                rows[-1].append(y)
            else:
                rows.append([y])
        for row in rows:
            assert max(row) - min(row) < 0.05, (sample, size, row)


def test_a_mixed_units_cards_name_the_unit_then_the_figure(sample_cards):
    """Household Knights at poker: one card per kind of figure, each titled by the unit, its
    subtitle counting the unit's cards, then the figure's kind."""
    shared = _export(sample_cards, "ares_crown_household", "poker")
    lines = [line.strip() for p in shared.pages for line in p.splitlines()]
    heads = [i for i, line in enumerate(lines) if line.startswith("Household Knights")]
    assert len(heads) == 2 and all(":" not in lines[i] for i in heads), [lines[i] for i in heads]
    subs = [lines[i + 1] for i in heads]
    assert subs[0].startswith("1/2 · Human Hero · 110 "), subs
    assert subs[1].startswith("2/2 · Human Knight × 2 · "), subs


# ---------------------------------------------------------------- 3. the Wounds label beside its boxes


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", ["ares_MISMATCH_royal_host", "ares_crown_household", "ares_hill_clans",
                                    "ares_INVALID_over_rating"])
def test_wounds_label_beside_its_boxes_on_every_card(sample_cards, sample, size):
    """Every "Wounds" label stands on the line of its first boxes, left of them, or over its rows
    of boxes numbered per figure, the first row right under it (the King's Companions' 24 boxes at
    poker, two knights to a line, where the export's cards set their rows that way: see
    test_cards_ares_rows)."""
    shared = _export(sample_cards, sample, size)
    labels = 0
    for page in PdfReader(str(shared.path)).pages:
        boxes = list(squares(page))
        for t in texts(page):
            if t.text != "Wounds" or not _inked(t):  # (not the stat band's column label)
                continue
            # the boxes on the label's line: their bottom under its baseline, their top over it
            # (beside the label's column: at A6 it is as wide as "per figure" under "Wounds", then a
            # figure's number)
            line = [(x, b, s) for x, b, s in boxes if b - 0.5 <= t.y <= b + s + 0.5 and 0 < x - t.x < 90]
            under = [(x, b, s) for x, b, s in boxes if t.y - 3 * t.size <= b + s <= t.y and 0 < x - t.x < 15]
            assert line or under, (sample, size, t)
            labels += 1
    assert labels >= 2


# ---------------------------------------------------------------- 4. a rule printed or referred alike


def _cards(shared) -> list[str]:
    """Each card's text, whitespace made single spaces."""
    text = re.sub(r"\s+", " ", "\n".join(shared.pages))
    return [without_flag(c.strip()) for c in re.split(r"card \d+ of \d+", text)[:-1]]


ARES = sorted(p.stem for p in SAMPLES.glob("ares_*.toml"))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", ARES)
def test_every_card_naming_a_rule_prints_it_or_every_one_refers(sample_cards, sample, size):
    """A rule the cards name (Cavalry on a mixed unit's cards and a rider's) is printed on all of
    them, or all of them send the player to the reference card, which then holds it; none prints it
    while another refers (royal host at tarot: the Noble printed Cavalry, the Knights referred)."""
    shared = _export(sample_cards, sample, size)
    cards = _cards(shared)
    units = [c for c in cards if not c.startswith("Reference")]
    reference = " ".join(c for c in cards if c.startswith("Reference"))
    for name in {m for c in units for m in re.findall(r"((?:[A-Z][a-z'][\w'-]*)(?: [A-Z][a-z'][\w'-]*)*) – see the reference card", c)}:
        printing = [c for c in units if re.search(rf"\b{re.escape(name)}: ", c)]
        assert not printing, (sample, size, name, printing)
        assert f"{name}: " in reference, (sample, size, name)


def test_a_one_rule_reference_card_goes_where_every_card_has_room(sample_cards):
    """ARES morale 6 at tarot: the cards naming Regenerate all have room for its text at the export's
    size, so they print it and no reference card is printed for it alone; the type does not drop."""
    shared = _export(sample_cards, "ares_INVALID_morale_6", "tarot")
    cards = _cards(shared)
    assert shared.result.reference_cards == 0 and not any(c.startswith("Reference") for c in cards)
    assert any("Regenerate: An action: regains" in c for c in cards)
    assert shared.result.body_size >= 10.0 and shared.result.cards <= 3


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", ["ares_hill_clans", "ares_crown_household", "ares_border_levy"])
def test_the_range_die_row_says_what_it_is(sample_cards, sample, size):
    """Under a missile weapon, the row of dice over bands of range ("D4 0-4"" ... "D12 17-20"") is the
    defender's range die: it says so on its left ("Range die", or "Range" over "die"), in grey at
    5.5 pt or more, at every size (at poker the row had no name)."""
    found = 0
    for page in PdfReader(str(_export(sample_cards, sample, size).path)).pages:
        shown = texts(page)
        # (the D4 of a range die: its first band, "0-4"", under it; not a stat band's D4)
        for die in (d for d in shown if d.text == "D4" and any(
                re.fullmatch(r'0-\d+"', b.text) and 0 < d.y - b.y < 3 * d.size and abs(b.x - d.x) < 20
                for b in shown)):
            name = [t for t in shown if t.text in ("Range die", "Range", "die") and die.x - 90 < t.x < die.x
                    and -15 < t.y - die.y < 3]
            assert name and all(t.size >= 5.5 - 1e-6 for t in name), (sample, size, name)
            found += 1
    assert found, (sample, size)
