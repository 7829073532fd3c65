"""ARES cards as a player reads them at the table (read back from the PDF): the range die of a
missile weapon as a row of cells in ink, name bands alike on a sheet, the Wounds label beside its
boxes on every card."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from conftest import SAMPLES
from pdfdraw import operations, squares
from pypdf import PdfReader

from rosterkit.cards.pdf import CardOptions

SIZES = ("poker", "tarot", "a6")


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
    return sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))


def _inked(t: Text) -> bool:
    return max(t.fill) < 0.25  # the card's ink (#1d1d1b), not the grey of notes and labels (#5f5f5a)


# ---------------------------------------------------------------- 2. name bands alike on a sheet


def _stat_tops(shared) -> list[list[float]]:
    """Per sheet, the heights of the stat bands' first label ("Combat" of "Combat Rating"), one per card."""
    return [sorted(t.y for t in texts(page) if t.text == "Combat") for page in PdfReader(str(shared.path)).pages]


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
    subtitle opening with the figure's kind."""
    shared = _export(sample_cards, "ares_crown_household", "poker")
    lines = [line.strip() for p in shared.pages for line in p.splitlines()]
    heads = [i for i, line in enumerate(lines) if line.startswith("Household Knights")]
    assert len(heads) == 2 and all(":" not in lines[i] for i in heads), [lines[i] for i in heads]
    subs = [lines[i + 1] for i in heads]
    assert subs[0].startswith("Human Hero · 1 ") and subs[1].startswith("Human Knight · 2 "), subs


# ---------------------------------------------------------------- 3. the Wounds label beside its boxes


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", ["ares_MISMATCH_royal_host", "ares_crown_household", "ares_hill_clans",
                                    "ares_INVALID_over_rating"])
def test_wounds_label_beside_its_boxes_on_every_card(sample_cards, sample, size):
    """Every "Wounds" label stands on the line of its first boxes, left of them (the King's
    Companions' 24 boxes included, which went two knights to a line under the label)."""
    shared = _export(sample_cards, sample, size)
    labels = 0
    for page in PdfReader(str(shared.path)).pages:
        boxes = list(squares(page))
        for t in texts(page):
            if t.text != "Wounds" or not _inked(t):  # (not the stat band's column label)
                continue
            # the boxes on the label's line: their bottom under its baseline, their top over it
            line = [(x, b, s) for x, b, s in boxes if b - 0.5 <= t.y <= b + s + 0.5 and 0 < x - t.x < 60]
            assert line, (sample, size, t)
            labels += 1
    assert labels >= 2
