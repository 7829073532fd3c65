"""The stat band at a size a player reads: LEGO's swim, climb and jump at the size of the text,
For the Masses' one-row band as large as the card's width allows."""

from __future__ import annotations

import re

import pytest
from conftest import SAMPLES
from pypdf import PdfReader

from rosterkit.cards.pdf import CardOptions

SIZES = ["poker", "tarot", "a6"]
LEGO = ["lego_combat_blackwater_corsairs", "lego_combat_kingsbridge_garrison", "lego_combat_INVALID_over_points"]
MODES = re.compile(r"Swim (\d+) · Climb (\d+) · Jump (\d+)")


def _cards(sample_cards, sample: str, size: str, marker: str = "Weapon"):
    """The export's result and the strings of each card with a string opening with ``marker`` (a
    unit card: its weapons' heading), as drawn: (text, size)."""
    got = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    cards: list[list[tuple[str, float]]] = [[]]
    for page in PdfReader(str(got.path)).pages:
        def visit(text, cm, tm, font, fs):
            if text.strip():
                cards[-1].append((text.strip(), round(fs * tm[0] if tm[0] else fs, 2)))
                if re.search(r"card \d+ of \d+$", text.strip()):
                    cards.append([])
        page.extract_text(visitor_text=visit)
    return got.result, [c for c in cards if any(t.startswith(marker) for t, _ in c)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", LEGO)
def test_swim_climb_and_jump_are_named_in_full_at_the_size_of_the_text(sample_cards, sample, size):
    """The Move box holds the walking move alone; a figure's swim, climb and jump are a line under
    the band, "Swim 5 · Climb 3 · Jump 3", at the body size (never "Sw 3 Cl 1 Ju 3" at the labels'
    size beside the move): on every card at tarot and A6; at poker, where that would lower the
    body size, on the cards whose values are not the book's 3, 1 and 3, and the first card says
    the book's values once."""
    result, cards = _cards(sample_cards, sample, size)
    assert cards
    body = result.body_size
    first_only = 0
    for card in cards:
        text = " ".join(t for t, _ in card)
        assert not re.search(r"\b(Sw|Cl|Ju) \d", text), text
        band = next(i for i, (t, _) in enumerate(card) if t.startswith("Att"))
        labels = card[band][0].split()
        stat = card[band + 1][1]  # the values' size: the move a number alone among them
        values = " ".join(t for t, s in card[band + 1:band + 4] if s == stat).split()
        assert len(values) == len(labels) and values[labels.index("Move")].isdigit(), card[band + 1:band + 4]
        lines = [(t, s) for t, s in card if MODES.search(t)]
        if any(t.endswith("unless shown") for t, _ in lines):
            first_only += 1
            assert card is cards[0] and size == "poker", (size, text)
            continue
        if not lines:  # (a card with the book's values where the size has no room for the line)
            assert size == "poker" and first_only, text
            continue
        (line, fs), = lines
        assert fs == body and line == MODES.search(line).group(0), (line, fs, body)
        # under the band, before the weapons
        assert band + 1 < card.index((line, fs)) < next(i for i, (t, _) in enumerate(card) if t.startswith("Weapon"))
    if sample == "lego_combat_blackwater_corsairs":  # the bosun swims 5 and climbs 3
        assert any(("Swim 5 · Climb 3 · Jump 3", body) in card for card in cards)
    if size != "poker":
        assert first_only == 0


FTM = ["for_the_masses_orc_warband", "for_the_masses_alvernan_host"]
RECORD = "Mv Att Rng Def Wnd Mor ME CP"


@pytest.mark.parametrize(("size", "least"), [("poker", 11.0), ("tarot", 12.0), ("a6", 19.5)])
@pytest.mark.parametrize("sample", FTM)
def test_the_one_row_card_s_values_grow_as_far_as_the_width_allows(sample_cards, sample, size, least):
    """For the Masses' card is the book's one row, Mv to CP, at every size; its boxes are as wide as
    their values need (a short label is no reason for a wide box) and pad by the values' size, so
    the values grow with the card's width: on the orc warband 10.15 pt at poker, 12 pt at tarot and
    18 pt at A6 before, at least 11, 12 and 19.5 now (with clear room in their boxes, see
    test_cards_stat_padding; on a large card the labels clear of their lines too), the body size
    no smaller."""
    result, cards = _cards(sample_cards, sample, size, "Mv ")
    assert len(cards) == 4, len(cards)  # (the export prints as many cards as before)
    before = {("poker", 0): 8.5, ("tarot", 0): 9.25, ("a6", 0): 12.0,
              ("poker", 1): 9.0, ("tarot", 1): 10.25, ("a6", 1): 12.0}
    assert result.body_size >= before[size, FTM.index(sample)]
    sizes = set()
    for card in cards:
        band = [i for i, (t, _) in enumerate(card) if t == RECORD]
        assert len(band) == 1, card  # one row of labels: the card is not broken in two
        fs = card[band[0] + 1][1]
        row = []  # the values' strings, one after another at their size (a dash is drawn in its own face)
        for text, at in card[band[0] + 1:]:
            if at != fs:
                break
            row += text.split()
        assert len(row) == 8, card[band[0]:band[0] + 8]  # and one row of values
        sizes.add(fs)
    (stat,) = sizes
    assert stat >= least, (stat, least)
