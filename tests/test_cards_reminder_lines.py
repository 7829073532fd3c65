"""A reminder line's facts ("rally 1D10 ≤ 7, wounded: modified", "VP to enemy: 5 slain, 3 wounded") are
read at a glance in play: each stays on one line at every card size, never broken inside."""

from __future__ import annotations

import re

import pytest
from conftest import SAMPLES

from rosterkit.cards.pdf import CardOptions


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
@pytest.mark.parametrize("sample", ["heroic_gods_trojans", "heroic_gods_achaeans"])
def test_each_fact_of_the_reminder_keeps_to_one_line(sample_cards, sample, size):
    cards = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    lines = [line.strip() for page in cards.pages for line in page.splitlines()]
    vp = [line for line in lines if "VP to enemy" in line]
    assert len(vp) == 7, vp  # one per figure card
    for line in vp:
        assert re.search(r"VP to enemy: \d+ slain, \d+ wounded", line), (size, line)
    rally = [line for line in lines if "rally 1D10" in line]
    assert len(rally) == 7, rally
    for line in rally:
        assert re.search(r"rally 1D10 ≤ \d+, wounded: modified", line), (size, line)
