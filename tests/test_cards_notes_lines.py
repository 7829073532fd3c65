"""Lines to write on: every unit card with room for one or more has them under their heading (three
at most), whatever the other cards on its sheet have room for. (A rule that went by sheets left lines
off cards with room beside full ones; a rule of two lines at least left a card with room for one
blank beside ruled ones.)"""

from __future__ import annotations

import pytest
from conftest import SAMPLES
from test_cards_layout import _marks_per_card

from rosterkit.cards.layout import RULED_MAX
from rosterkit.cards.pdf import CardOptions

SAMPLE_NAMES = sorted(p.stem for p in SAMPLES.glob("*.toml"))


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
@pytest.mark.parametrize("sample", SAMPLE_NAMES)
def test_no_card_prints_more_than_three_lines_to_write_on(sample_cards, sample, size):
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    lines = [len(ys) for ys in _marks_per_card(shared.path, shared.result.sheet, ruled=True)]
    assert all(0 <= n <= RULED_MAX for n in lines), lines


@pytest.mark.parametrize("sample", ["heroic_gods_trojans", "for_the_masses_alvernan_host"])
def test_every_unit_card_of_a_roomy_sheet_has_lines(sample_cards, sample):
    """Tarot: the Trojans' Hector and Aeneas, and the Alvernan Men at Arms, had a blank stretch of
    four to five lines of type over their boxes and no lines, beside cards with them (room for one
    line with its heading, not two): every unit card of the first sheet has its lines now."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size="tarot", paper="a4", summary=False))
    per = shared.result.sheet.per_page
    lines = [len(ys) for ys in _marks_per_card(shared.path, shared.result.sheet, ruled=True)][:per]
    units = lines[1:] if sample.startswith("heroic") else lines  # (the army card reads from the top)
    assert all(n >= 1 for n in units), lines


def test_a_card_with_room_has_lines_though_no_card_beside_it_has_room_for_three(sample_cards):
    """heroic_gods, duplicate base IDs, poker: Diomedes' and the last figure's cards have room for
    a line (under the rally roll's two facts), the third card and the army card for none; each has
    the lines it has room for."""
    shared = sample_cards(SAMPLES / "heroic_gods_warning_duplicate_base_ids.toml",
                          CardOptions(rules=False, size="poker", paper="a4", summary=False))
    lines = [len(ys) for ys in _marks_per_card(shared.path, shared.result.sheet, ruled=True)]
    assert lines == [0, 1, 0, 1], lines
