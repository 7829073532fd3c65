"""LEGO's and heroic_gods' cards alike on every card and size: each LEGO card with its own swim,
climb and jump; heroic_gods' wounded factors in the band; reminder lines and God chips set one way
(read back from the PDF)."""

from __future__ import annotations

import re

import pytest
from conftest import SAMPLES
from pdfdraw import squares
from pypdf import PdfReader

from rosterkit.cards.pdf import CardOptions

SIZES = ["poker", "tarot", "a6"]
MODES = re.compile(r"Swim \d+ · Climb \d+ · Jump \d+")


def _cards(sample_cards, sample: str, size: str):
    return sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))


def _runs(path) -> list[list[tuple[str, float]]]:
    """Each page's text as drawn: (text, size) of each string."""
    pages = []
    for page in PdfReader(str(path)).pages:
        found: list[tuple[str, float]] = []

        def visit(text, cm, tm, font, size, found=found):
            if text.strip():
                found.append((text.strip(), round(size * tm[0] if tm[0] else size, 2)))
        page.extract_text(visitor_text=visit)
        pages.append(found)
    return pages


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", ["lego_combat_blackwater_corsairs", "lego_combat_kingsbridge_garrison"])
def test_every_lego_card_carries_its_own_movement_line(sample_cards, sample, size):
    """A card handed out alone still says how its figures swim, climb and jump: one line per unit
    card, at the body size, never a key on the first card only."""
    cards = _cards(sample_cards, sample, size)
    runs = [r for page in _runs(cards.path) for r in page]
    lines = [(text, pt) for text, pt in runs if MODES.search(text)]
    assert not [t for t, _ in lines if "unless shown" in t]
    assert len(lines) == cards.result.by_kind["unit"], lines
    assert {pt for _, pt in lines} == {round(cards.result.body_size, 2)}


HEROIC = ["heroic_gods_achaeans", "heroic_gods_trojans", "heroic_gods_warning_duplicate_base_ids"]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", HEROIC)
def test_heroic_gods_wounded_factors_are_a_row_of_the_band_at_every_size(sample_cards, sample, size):
    """A figure's wounded factors read one way on every card: an "Unwounded" row over a "Wounded"
    row in the band, never a small "Wounded: A 4, D 4" line under it."""
    cards = _cards(sample_cards, sample, size)
    runs = [text for page in _runs(cards.path) for text, _ in page]
    assert not [t for t in runs if t.startswith("Wounded:")]
    assert sum(t == "Unwounded" for t in runs) == cards.result.by_kind["unit"]
    assert sum(t == "Wounded" for t in runs) >= cards.result.by_kind["unit"]
    # the factors across, as on every other export at the size (never turned down the side, the
    # rows' labels over the columns): each row's label is followed by its values
    after = [runs[i + 1] for i, t in enumerate(runs) if t in ("Unwounded", "Wounded") and i + 1 < len(runs)]
    assert sum(t.replace(" ", "").isdigit() for t in after) >= 2 * cards.result.by_kind["unit"], after


@pytest.mark.parametrize("size", ["poker", "index", "tarot", "a6"])
@pytest.mark.parametrize("sample", HEROIC)
def test_the_reminder_line_never_ends_in_its_separator(sample_cards, sample, size):
    """"Spear throw 12\" · rally 1D10 ≤ 7 · if wounded ≤ 4 (a reading)" too long for a line breaks between its facts with
    the " · " dropped there, never "Spear throw 12\" ·" over the rest; every fact is printed whole."""
    cards = _cards(sample_cards, sample, size)
    runs = [text for page in _runs(cards.path) for text, _ in page]
    assert not [t for t in runs if t.endswith("·")]
    facts = [t for t in runs if "rally 1D10" in t]
    assert len(facts) == cards.result.by_kind["unit"]
    assert all(re.search(r"rally 1D10 ≤ \d+( · if wounded ≤ \d+ \(a reading\))?( · VP to enemy: \d+ slain, \d+ wounded)?$", t)
               for t in facts), facts
    wounded = [t for t in runs if "if wounded" in t]
    assert len(wounded) == len(facts) and all(
        re.search(r"(^|· )if wounded ≤ \d+ \(a reading\)( · VP to enemy: \d+ slain, \d+ wounded)?$", t) for t in wounded), wounded
    spears = sum('Spear throw 12"' in t for t in runs)
    assert spears == sum("Spear" in t and "no spear" not in t and "ID #" in t for t in runs), runs


@pytest.mark.parametrize("size", ["poker", "index", "tarot", "a6"])
def test_god_chips_boxes_sit_beside_their_label_on_every_army_card(sample_cards, size):
    """The army card's God chips read one way on every export at a size: the label, then its boxes
    on its line (never the boxes on a line of their own under the label on one army and beside it
    on the next)."""
    for sample in HEROIC:
        cards = _cards(sample_cards, sample, size)
        chips = cards.report.roster.stats["god_chips"]
        page = PdfReader(str(cards.path)).pages[0]
        at: list[tuple[float, float]] = []

        def visit(text, cm, tm, font, fsize, at=at):
            if text.strip() == "God chips":
                at.append((cm[0] * tm[4] + cm[4], cm[3] * tm[5] + cm[5]))
        page.extract_text(visitor_text=visit)
        (x, y), = at
        beside = [s for s in squares(page) if s[0] > x and s[1] - 1 <= y <= s[1] + s[2]]
        assert len(beside) == chips, (sample, size, x, y, beside)
