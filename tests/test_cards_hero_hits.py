"""fast_universal: a hit takes a hero's action die one size down, and a hit at d4 removes the hero.
The card shows the whole track, the hero's own dice first (never ticked), a box for each smaller die
and one for the hit that removes it ("2d6 › [2d4] › [removed]"), even for a hero whose die is d6;
a hit keeps the number of dice (the text: "3d8 becomes 3d6")."""

from __future__ import annotations

import re

import pytest
from conftest import SAMPLES, load
from test_cards_lego import _words

from rosterkit.cards.pdf import CardOptions, export_cards
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.validation import validate_report
from rosterkit.files.rosters import loads_roster


def _card(sample_cards, sample: str, size: str, name: str) -> str:
    cards = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    # (one space either side of an arrow: the text's extraction sets them by the glyphs' gaps)
    text = re.sub(r"\s*›\s*", " › ", re.sub(r"\s+", " ", "\n".join(cards.pages)))
    return next(c for c in re.split(r"card \d+ of \d+", text) if c.strip().startswith(name))


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
@pytest.mark.parametrize(("sample", "hero", "track"), [
    ("fast_universal_iron_vanguard", "Captain Aldric", "Hits 1d8 › 1d6 › 1d4 › removed"),
    ("fast_universal_ashen_host", "Ember Shaman", "Hits 2d6 › 2d4 › removed"),
])
def test_the_hero_s_hit_track_runs_from_its_own_die_to_removed(sample_cards, sample, hero, track, size):
    card = _card(sample_cards, sample, size, hero)
    assert track in card, card


THREE_D12 = """
format = 1
name = "Giant's due"
ruleset = "fast_universal"

[[units]]
name = "Storm Giant"
type = "Hero"
count = 1
stats = { dice = 3, die = 12, move = 6, fight = 1, shoot = 0, defense = 10 }
"""


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_a_long_track_stays_on_its_card(tmp_path, size):
    """A hero of 3d12 has the longest track, "3d12 › [3d10] › [3d8] › [3d6] › [3d4] › [removed]":
    it goes under its label rather than beside it, and nothing of it passes the card's edge."""
    report = cost_roster(load("fast_universal"), loads_roster(THREE_D12, "giant.toml"))
    out = tmp_path / "giant.pdf"
    result = export_cards(report, validate_report(report), out, CardOptions(size=size, paper="a4", summary=False))
    x, y = result.sheet.slot(0)
    right = x + result.size.width * result.sheet.scale
    words = _words(out)[0]
    # (on the hero's card, not the quick rules of a reference card beside or under it; not the band's AD)
    steps = [w for w in words if re.fullmatch(r"3d(12|10|8|6|4)|removed", w[4]) and x <= w[0] < right
             and w[2] > y][-6:]
    assert [w[4] for w in steps] == ["3d12", "3d10", "3d8", "3d6", "3d4", "removed"], [w[4] for w in words]
    assert max(w[1] for w in steps) < right - 3, (steps, right)
    label = next(w for w in words if w[4] == "Hits")
    assert label[2] > steps[0][2] + steps[0][3] * 0.8  # (on a line over the dice)
