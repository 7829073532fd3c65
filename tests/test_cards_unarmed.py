"""LEGO: a soldier with small weapons only (a hook, a knife) fights unarmed (Weapons: -1 to hit an
armed foe; an armed attacker +1 against him unless he has a shield): his card says so where the
rule applies (Blackwater's Bosun Grell, Hook and Knife), not on a card with a real weapon beside
its knife (the Musketeers)."""

from __future__ import annotations

import re

import pytest
from conftest import SAMPLES

from rosterkit.cards.pdf import CardOptions


@pytest.mark.parametrize("size", ["poker", "tarot"])
def test_the_bosun_s_card_says_he_fights_unarmed(sample_cards, size):
    cards = sample_cards(SAMPLES / "lego_combat_blackwater_corsairs.toml",
                         CardOptions(size=size, paper="a4", summary=False))
    text = re.sub(r"\s+", " ", "\n".join(cards.pages))
    per_card = re.split(r"card \d+ of \d+", text)
    said = [card for card in per_card if "Unarmed: -1 to hit an armed foe; armed attackers +1 to hit him" in card]
    assert len(said) == 1 and "Bosun Grell" in said[0], said
