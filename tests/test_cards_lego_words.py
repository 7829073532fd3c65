"""LEGO cards read without the book: the weapon table says how often each weapon is used in the
rules' words, the stun track what each level needs to wake up, and neither costs a card or a
step of type at any size."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import load

from rosterkit.cards.pdf import CardOptions

RS = load("lego_combat")
SAMPLES = Path(__file__).resolve().parents[1] / "sample_armies"
LEGO = ("lego_combat_INVALID_over_points", "lego_combat_blackwater_corsairs", "lego_combat_kingsbridge_garrison")
# cards and body size of each sample (gallery) since every unit card printed the attack and damage
# rolls (a reminder may cost the body REMINDER_DROP); at index the over-points army's Bowmen hold
# it a step lower (9.5 pt, not 9.75) since the rolls went to the reference card
# (and the wake-up rolls over every soldier's run of the first line, a line of their own); at tarot
# the over-points army a quarter point lower since a bow's rate reads "round", and at index
# Kingsbridge since a soldier slowed by his gear says so
BEFORE = {
    "poker": {LEGO[0]: (4, 9.0), LEGO[1]: (6, 8.25), LEGO[2]: (5, 7.0)},
    "tarot": {LEGO[0]: (4, 10.5), LEGO[1]: (6, 10.5), LEGO[2]: (5, 9.75)},
    "a6": {LEGO[0]: (4, 13.5), LEGO[1]: (6, 13.5), LEGO[2]: (5, 13.25)},
    "index": {LEGO[0]: (4, 9.5), LEGO[1]: (6, 7.25), LEGO[2]: (5, 7.0)},
}
# the caption beside "Stun": the roll that wakes a soldier from each level, in the order of the
# levels numbered in the boxes (stun-1 5 or 6 on 1D, stun-2 a 6, stun-3 12 on 2D, stun-4 18 on 3D,
# see test_cards_stun_heads)
WAKE = re.compile(r"Stun\s+wakes on 5\+, 6, 12 on 2D, 18 on 3D")


def no_dearer(cards, sample: str, size: str) -> None:
    """The export prints no more cards than before, at a body no smaller."""
    count, body = BEFORE[size][sample]
    assert cards.result.cards <= count and cards.result.body_size >= body, (cards.result.cards, cards.result.body_size)


def export(sample_cards, sample: str, size: str):
    return sample_cards(SAMPLES / f"{sample}.toml", CardOptions(rules=False, size=size, paper="a4", summary=False))


@pytest.mark.parametrize("size", sorted(BEFORE))
@pytest.mark.parametrize("sample", LEGO)
def test_stun_track_gives_the_wake_up_rolls_on_its_own_line(sample_cards, sample, size):
    """Every card that tracks stun says beside the word "Stun", on one line with it, the roll that
    wakes a soldier from each level its boxes number, on every card of the export."""
    cards = export(sample_cards, sample, size)
    # (the rolls end a line beside the next card's "Stun": "18Stun"; a club's damage roll, "Stun:
    # 1D beats foe's Res", is no tracker)
    stun = sum(len(re.findall(r"(?<![A-Za-z])Stun\b(?!: 1D)", line)) for line in cards.layout_lines)
    wake = sum(len(WAKE.findall(line)) for line in cards.layout_lines)
    assert stun == len(cards.report.units) and wake == stun  # (each LEGO unit card tracks stun)
    no_dearer(cards, sample, size)


@pytest.mark.parametrize("size", sorted(BEFORE))
@pytest.mark.parametrize("sample", LEGO)
def test_the_weapon_table_says_how_often_each_weapon_is_used(sample_cards, sample, size):
    """The rules' "once every 2" in the table: the heading "Once every" on one line beside the range
    bands' headings ("0", "-1", "-2", one over each band) on every card with a weapon that has a
    range, the rounds under it (a bow's "round", a crossbow's 2); a card of melee weapons only has
    no such column ("Club melee 1" 1" read as a rule of its own); none of the shorthand a player had to guess ("rnd",
    "2nd", "3rd")."""
    cards = export(sample_cards, sample, size)
    lines = cards.layout_lines
    tables = sum(len(re.findall(r"\bWeapon\b", line)) for line in lines)
    headings = sum(len(re.findall(r"Weapon\s+0\s+-1\s+-2\s+Once every", line)) for line in lines)
    ranged = sum(any(RS.find_item("weapons", i.name).stats.get("range_short") for m in u.members for i in m.items
                     if i.kind == "weapons") for u in cards.report.units)
    assert tables == len(cards.report.units) and headings == ranged > 0, lines
    assert not any(re.search(r"\b(rnd|2nd|3rd)\b", line) for line in lines), lines
    rows = {
        "lego_combat_kingsbridge_garrison": [r'Crossbow\s+0-24"\s+25-48"\s+48-72"\s+2\b', r'Club\s+melee 1"(?!\s+1\b)'],
        "lego_combat_blackwater_corsairs": [r'Musket\s+0-9"\s+10-18"\s+19-27"\s+3\b', r'Bow\s+0-12"\s+13-24"\s+25-36"\s+round\b'],
        "lego_combat_INVALID_over_points": [],
    }[sample]
    for row in rows:
        assert any(re.search(row, line) for line in lines), (row, lines)
    no_dearer(cards, sample, size)


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_a_house_priced_item_says_its_price_on_the_card(sample_cards, size):
    """Kingsbridge agrees house prices for helmets and shields (the rules price neither): each card
    carrying one names its price beside it, so the Gate spearmen's 4 × 23 can be checked at the
    table without the summary page, at no cost in cards or type; the Quiver (the book's) names none."""
    cards = export(sample_cards, LEGO[2], size)
    text = re.sub(r"\s+", " ", "\n".join(cards.pages))
    assert text.count("Helmet (house price 3)") == 3 and text.count("Shield (house price 3)") == 2, text
    assert "Quiver (" not in text and "Quiver:" in text
    no_dearer(cards, LEGO[2], size)


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_a_soldier_slowed_by_his_gear_says_by_how_much(sample_cards, size):
    """Kingsbridge: the Gate spearmen (helmet and shield: Move 5 of 6) and Sir Aldric (a champion's
    9, helmet and shield: 8) say so under their band, as the Move and the Move without the gear; the Militia (no armor) and
    Sergeant Edda (a helmet alone: no penalty) do not."""
    cards = export(sample_cards, LEGO[2], size)
    text = re.sub(r"\s+", " ", "\n".join(cards.pages))
    units = {m.group(1): m.group(2) for m in re.finditer(r"(Gate spearmen|Wall crossbowmen|Militia|Sergeant Edda|"
                                                         r"Sir Aldric) \d+ (.*?)card \d+ of \d+", text)}
    assert len(units) == 5, units
    slowed = {name: re.search(r"Slowed by gear: Move (\d+), not (\d+)", card) for name, card in units.items()}
    slowed = {name: m.groups() for name, m in slowed.items() if m}
    assert slowed == {"Gate spearmen": ("5", "6"), "Sir Aldric": ("8", "9")}, units
