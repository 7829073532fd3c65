"""heroic_gods cards: victory points said as what the enemy scores, not as a stat a wound halves;
the Wounded, Panicked and Spear lost boxes with their effects from the article."""

from __future__ import annotations

import re

import pytest
from conftest import SAMPLES

from rosterkit.cards.pdf import CardOptions

SIZES = ["poker", "tarot", "a6"]


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _figure_cards(sample_cards, sample: str, size: str) -> list[str]:
    """The text of each figure card of the sample's export (the army card left out)."""
    cards = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    text = "\n".join(cards.pages)
    return [_flat(c).strip() for c in re.split(r"card \d+ of \d+", text)[:-1] if "Army ·" not in c]


@pytest.mark.parametrize("size", SIZES)
def test_victory_points_are_what_the_enemy_scores_not_a_band_column(sample_cards, size):
    """The article: a wound halves the figure's stats; the enemy scores 5 for a dead hero, 3 for
    a wounded one, 2 and 1 for a common soldier. No figure card has a VP column in its
    Unwounded / Wounded band (whose wounded row would read as the value halved); each says what
    the enemy scores for it, slain and wounded."""
    cards = _figure_cards(sample_cards, "heroic_gods_trojans", size)
    assert len(cards) == 7
    for card in cards:
        assert not re.search(r"\bVP\b", card), card
        assert re.search(r"\bA D M (Bow )?Unwounded\b", card), card
    hector = next(c for c in cards if c.startswith("Hector"))
    assert "enemy scores 5 if slain, 3 if wounded" in hector, hector
    assert re.search(r"\bUnwounded 8 7 6 Wounded 4 4 3(?!\d)", hector), hector
    archer = next(c for c in cards if c.startswith("Lycian archer"))
    assert "enemy scores 2 if slain, 1 if wounded" in archer, archer
    assert re.search(r"\bUnwounded 2 3 6 5 Wounded 1 2 3 3(?!\d)", archer), archer
