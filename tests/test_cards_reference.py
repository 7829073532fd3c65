"""Reference cards: a text goes there only when the cards naming it cannot print it (read back)."""

from __future__ import annotations

import re

import pytest
from conftest import SAMPLES

from rosterkit.cards.pdf import CardOptions


def _cards(shared) -> list[str]:
    """Each card's text, whitespace made single spaces (a card's text ends with its "card n of m")."""
    text = re.sub(r"\s+", " ", "\n".join(shared.pages))
    return [c.strip().removeprefix("NOT VALID ") for c in re.split(r"card \d+ of \d+", text)[:-1]]


@pytest.mark.parametrize("size, body", [("poker", 7.25)])
def test_the_cards_naming_a_rule_print_it_alike(sample_cards, size, body):
    """ARES royal host: the Knights' card (24 wound boxes) has no room for Cavalry's text at the
    export's size, so the Noble's card, which has, refers to the reference card as well: the cards
    naming the rule read alike. The type does not drop and no other unit's card names the rule."""
    shared = sample_cards(SAMPLES / "ares_MISMATCH_royal_host.toml", CardOptions(rules=False, size=size, summary=False))
    cards = _cards(shared)
    noble = [c for c in cards if c.startswith("King's Companions") and "Human Noble ·" in c]
    knight = [c for c in cards if c.startswith("King's Companions") and "Human Knight × 4 ·" in c]
    assert len(noble) == 1 and len(knight) == 1
    assert all("Cavalry – see the reference card" in c and "Cavalry: " not in c for c in noble + knight)
    reference = [c for c in cards if c.startswith("Reference")]
    assert shared.result.reference_cards == 1 and "Cavalry: Mounted, 1x2" in reference[0]
    assert not any("Cavalry" in c for c in cards if c.startswith("Royal Archers"))
    assert shared.result.body_size == body and shared.result.continued == []
