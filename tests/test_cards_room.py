"""The room on large cards (tarot, A6): one notes area to write in, under a few lines, as on a printed record card."""

from __future__ import annotations

import itertools
import re

import pytest
from conftest import SAMPLES
from test_cards_layout import _marks_per_card

from rosterkit.cards.layout import RULED_MAX, RULED_PITCH
from rosterkit.cards.pdf import CardOptions

# (heroic_gods' chips without a Hero: the other sides' tarot cards give their room to the boxes' effects)
ROOMY = ["fast_universal_ashen_host", "for_the_masses_orc_warband", "heroic_gods_warning_chips_without_hero",
         "lego_combat_kingsbridge_garrison", "ares_crown_household"]


@pytest.mark.parametrize("size", ["tarot", "a6"])
@pytest.mark.parametrize("sample", ROOMY)
def test_a_large_card_keeps_its_room_in_one_notes_area(sample_cards, sample, size):
    """A large card's content sits at the top with its own gaps, its trackers at the bottom, and
    the room between them is one notes area: three lines to write on at most, and the rest of the
    room blank under them, rather than ruled filler down to the trackers or gaps drifting between
    its sections. Read back from the PDF: each card has at most one stretch with neither a line of
    text nor a rule taller than 4.5 times the body (the gaps around the trackers' heading), and on
    a card with lines to write on it starts at the last of them; the lines are evenly spaced."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    result = shared.result
    body = result.body_size
    cards = _marks_per_card(shared.path, result.sheet)
    ruled = _marks_per_card(shared.path, result.sheet, ruled=True)
    assert len(cards) == len(ruled) == result.cards
    for ys, lines in zip(cards, ruled):
        holes = [a for a, b in itertools.pairwise(ys) if a - b > body * 4.5]
        assert len(holes) <= 1, (holes, ys)
        assert not holes or not lines or abs(holes[0] - min(lines)) < 0.05, (holes, lines)
    for ys in ruled:
        steps = [a - b for a, b in itertools.pairwise(ys)]
        assert all(abs(step - body * RULED_PITCH) < 0.05 for step in steps), steps
    assert max(len(ys) for ys in ruled) == RULED_MAX  # (as on a small card)


def test_the_army_card_has_its_notes_above_the_god_chips(sample_cards):
    """heroic_gods' army card on an A6 card with room (the Trojans' six God events; the Achaeans'
    nine fill theirs at the larger body): its room above the God chips and events is a notes area
    (the heading and three lines to write on, read back from the PDF), as on its units' cards."""
    shared = sample_cards(SAMPLES / "heroic_gods_trojans.toml", CardOptions(size="a6", paper="a4", summary=False))
    result = shared.result
    army = re.split(r"card \d+ of \d+", "\n".join(shared.pages))[0]
    assert "God chips" in army
    assert army.index("NOTES") < army.index("God chips"), army
    assert len(_marks_per_card(shared.path, result.sheet, ruled=True)[0]) == RULED_MAX
