"""fast_universal: a hit takes a hero's action die one size down, and a hit at d4 removes the hero.
The card shows the whole track, the hero's own die first (never ticked), a box for each smaller die
and one for the hit that removes it ("d6 › [d4] › [removed]"), even for a hero whose die is d6."""

from __future__ import annotations

import re

import pytest
from conftest import SAMPLES

from rosterkit.cards.pdf import CardOptions


def _card(sample_cards, sample: str, size: str, name: str) -> str:
    cards = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    # (one space either side of an arrow: the text's extraction sets them by the glyphs' gaps)
    text = re.sub(r"\s*›\s*", " › ", re.sub(r"\s+", " ", "\n".join(cards.pages)))
    return next(c for c in re.split(r"card \d+ of \d+", text) if c.strip().startswith(name))


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
@pytest.mark.parametrize(("sample", "hero", "track"), [
    ("fast_universal_iron_vanguard", "Captain Aldric", "Hits d8 › d6 › d4 › removed"),
    ("fast_universal_ashen_host", "Ember Shaman", "Hits d6 › d4 › removed"),
])
def test_the_hero_s_hit_track_runs_from_its_own_die_to_removed(sample_cards, sample, hero, track, size):
    card = _card(sample_cards, sample, size, hero)
    assert track in card, card
