"""Lines to write on: every unit card with room for two or more has them (three at most), whatever
the other cards on its sheet have room for; a lone line reads as a stray rule and is never printed.
(A rule that went by sheets left lines off cards with room beside full ones, and put one line on
cards with room for no more.)"""

from __future__ import annotations

import pytest
from conftest import SAMPLES
from test_cards_layout import _marks_per_card

from rosterkit.cards.layout import RULED_MAX
from rosterkit.cards.pdf import CardOptions

SAMPLE_NAMES = sorted(p.stem for p in SAMPLES.glob("*.toml"))


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
@pytest.mark.parametrize("sample", SAMPLE_NAMES)
def test_no_card_prints_a_lone_line_to_write_on(sample_cards, sample, size):
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    lines = [len(ys) for ys in _marks_per_card(shared.path, shared.result.sheet, ruled=True)]
    assert all(n == 0 or 2 <= n <= RULED_MAX for n in lines), lines


def test_a_card_with_room_has_lines_though_no_card_beside_it_has_room_for_three(sample_cards):
    """heroic_gods, duplicate base IDs, poker: Diomedes' and the last figure's cards have room for
    two lines, the army card and the other figure none; the two have their lines."""
    shared = sample_cards(SAMPLES / "heroic_gods_warning_duplicate_base_ids.toml",
                          CardOptions(size="poker", paper="a4", summary=False))
    lines = [len(ys) for ys in _marks_per_card(shared.path, shared.result.sheet, ruled=True)]
    assert lines == [0, 2, 0, 2], lines
