"""The army card's subtitle counts what the cards are made for: a game with a card per figure
counts figures (a unit of several figures keeps "units")."""

from __future__ import annotations

import re

import pytest
from conftest import SAMPLES

from rosterkit.cards.pdf import CardOptions


def _army_subtitle(sample_cards, sample: str) -> str:
    cards = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size="poker", paper="a4", summary=False))
    text = re.sub(r"\s+", " ", "\n".join(cards.pages))
    found = re.search(r"Army · [^·]+ ·", text)
    assert found, text[:300]
    return found.group(0)


@pytest.mark.parametrize("sample, expected", [
    ("heroic_gods_trojans", "Army · 7 figures ·"),  # one figure a card, each with its base ID
    ("heroic_gods_warning_chips_without_hero", "Army · 3 figures ·"),
])
def test_the_army_card_counts_what_each_card_is(sample_cards, sample, expected):
    """heroic_gods' army card said "7 units" of a side of seven figures, each on its own card."""
    assert _army_subtitle(sample_cards, sample) == expected


def test_god_fights_adds_to_the_attack_roll_not_the_factor(sample_cards):
    """The article: God fights gives +2 defense and +2 to the figure's attack roll (Strength &
    courage is the one that adds to the attack factor). The army card said "+2 A, +2 D"."""
    cards = sample_cards(SAMPLES / "heroic_gods_trojans.toml", CardOptions(size="poker", paper="a4", summary=False))
    text = re.sub(r"\s+", " ", "\n".join(cards.pages))
    assert "God fights: +2 D, +2 attack roll" in text, text[:600]
    assert "Strength & courage" not in text or "Strength & courage: +1 A, +1 D" in text
