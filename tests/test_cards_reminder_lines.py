"""A reminder line's facts ("rally 1D10 ≤ 7", "if wounded ≤ 4 (a reading)", "VP to enemy: 5 slain") are
read at a glance in play: each stays on one line at every card size, never broken inside."""

from __future__ import annotations

import re

import pytest
from conftest import SAMPLES
from test_cards_lego import _words

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
        assert re.search(r"rally 1D10 ≤ \d+( · if wounded ≤ \d+ \(a reading\))?( · |$)", line), (size, line)
    wounded = [line for line in lines if "if wounded" in line]
    assert len(wounded) == 7 and all(re.search(r"(^|· )if wounded ≤ \d+ \(a reading\)( · |$)", line) for line in wounded)


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_lego_rolls_and_their_exceptions_keep_their_phrases_whole(sample_cards, size):
    """Blackwater Corsairs: each card's two rolls ("Hit: 1D+2 - foe's Def: 4+", "Kill: 1D beats
    foe's Res"), each phrase whole on its line; Bosun Grell fights unarmed ("Unarmed: -1 to hit an
    armed foe", then what armed attackers gain)."""
    cards = sample_cards(SAMPLES / "lego_combat_blackwater_corsairs.toml",
                         CardOptions(rules=False, size=size, paper="a4", summary=False))
    lines = [line.strip() for page in cards.pages for line in page.splitlines()]
    unarmed = [line for line in lines if "Unarmed" in line]
    assert len(unarmed) == 1 and unarmed[0].startswith("Unarmed: -1 to hit an armed foe"), unarmed
    assert "armed attackers +1 to hit him" in " ".join(lines)
    hits = [line for line in lines if re.search(r"(^|· )Hit: 1D(\+\d+)?( shooting)? - foe's Def: 4\+( · |$)", line)]
    kills = [line for line in lines if re.search(r"(^|· )Kill: 1D(\+\d+)? beats foe's Res( · |$)", line)]
    assert len(hits) == len(kills) == len(cards.report.units), (size, lines)


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
@pytest.mark.parametrize("sample", ["fast_universal_iron_vanguard", "fast_universal_ashen_host"])
def test_fast_universal_morale_facts_keep_to_their_lines(sample_cards, sample, size):
    """fast_universal's morale facts, each whole on its line at every size: on a tarot card "Morale
    check: lost half in one combat action" left "action" alone on a line and "than odds" on
    another (the book: a check on losing half in a combat action; more evens than odds passes)."""
    cards = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    lines = [line.strip() for page in cards.pages for line in page.splitlines()]
    check = [line for line in lines if line.startswith("Morale check:")]
    roll = [line for line in lines if line.startswith("Roll those left:")]
    assert check and len(check) == len(roll), (check, roll)
    assert all(line == "Morale check: lost half in a combat action" for line in check), (size, check)
    assert all(line == "Roll those left: pass if evens beat odds" for line in roll), (size, roll)


@pytest.mark.parametrize("size, want", [
    # on a tarot card the morale test takes three lines either way: broken between its phrases
    ("tarot", ["Losing elements: morale 7+ on d10,", "-1 per element past the first;", "failed: lose 1 more"]),
    # on a poker card its phrases would take three lines where its words take two: it wraps
    ("poker", ["Losing elements: morale 7+ on d10, -1 per", "element past the first; failed: lose 1 more"]),
])
def test_a_long_fact_breaks_between_its_phrases_where_that_costs_no_line(sample_cards, size, want):
    """For the Masses' morale test, too long for one line at any size, on every Orc Warriors card:
    at tarot "failed," no longer ends a line with "lose 1 more" alone under it."""
    cards = sample_cards(SAMPLES / "for_the_masses_orc_warband.toml", CardOptions(size=size, paper="a4", summary=False))
    lines = [line.strip() for page in cards.pages for line in page.splitlines()]
    starts = [i for i, line in enumerate(lines) if line.startswith("Losing elements:")]
    assert len(starts) == 3, starts  # (the three Orc Warriors cards; the Chief has no Morale)
    for i in starts:
        assert lines[i:i + len(want)] == want, (size, lines[i:i + 4])


@pytest.mark.parametrize("size", ["tarot", "a6"])
def test_for_the_masses_reminder_reads_as_large_as_its_to_hit_line(sample_cards, size):
    """On a large card the reminder is at the body size unless a fact that keeps to its line at the
    labels' size would break at the body's: For the Masses' morale test breaks at either, so it no
    longer sets the Orc Warband's reminders smaller than the targets' line over them."""
    cards = sample_cards(SAMPLES / "for_the_masses_orc_warband.toml", CardOptions(size=size, paper="a4", summary=False))
    words = [w for page in _words(cards.path) for w in page]
    to_hit = {round(w[3], 2) for w in words if w[4].startswith("Hits v Def")}
    morale = {round(w[3], 2) for w in words if w[4].startswith("Losing elements:")}
    assert len(to_hit) == 1 and morale == to_hit, (to_hit, morale)
    assert to_hit == {cards.result.body_size}
