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


@pytest.mark.parametrize("sample, size", [("lego_combat_kingsbridge_garrison", "poker"),
                                          ("lego_combat_kingsbridge_garrison", "tarot"),
                                          ("lego_combat_kingsbridge_garrison", "a6"),
                                          ("lego_combat_blackwater_corsairs", "poker"),
                                          ("lego_combat_blackwater_corsairs", "a6")])
def test_lego_attack_roll_keeps_to_one_line(sample_cards, sample, size):
    """LEGO's attack roll on every unit card, whole on its line: on Kingsbridge's tarot cards at
    the body size "-target's Def" went to a line of its own (and the three lines cost the export
    its rolls); there the reminder takes the labels' size, in ink. (Blackwater's tarot body, 10.5
    pt, is too large for the roll on one line at the labels' size as well: it breaks there.)"""
    cards = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    lines = [line.strip() for page in cards.pages for line in page.splitlines()]
    hit = [line for line in lines if line.startswith("Hit: 1D")]
    assert len(hit) == len(cards.report.units), hit
    assert all(line == "Hit: 1D 4+ (6 always, 1 never), +Att, -target's Def" for line in hit), (size, hit)


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
@pytest.mark.parametrize("sample", ["fast_universal_iron_vanguard", "fast_universal_ashen_host"])
def test_a_fact_too_long_for_a_line_leaves_no_word_alone(sample_cards, sample, size):
    """fast_universal's morale facts on a tarot card, at the reminder's size, each take two lines:
    about one width each ("Morale check: lost half" over "in one combat action"), not a word or two
    left alone on the second ("action", "than odds")."""
    cards = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    lines = [line.strip() for page in cards.pages for line in page.splitlines()]
    facts = {"Morale check:": "Morale check: lost half in one combat action",
             "Roll those left:": "Roll those left: pass on more evens than odds"}
    seen = 0
    for k, line in enumerate(lines):
        for start, fact in facts.items():
            if not line.startswith(start):
                continue
            seen += 1
            if line != fact:  # (on two lines: the rest of the fact opens the next)
                rest = lines[k + 1]
                assert f"{line} {rest}" == fact and len(rest.split()) >= len(line.split()) - 1, (size, line, rest)
    assert seen >= 2
