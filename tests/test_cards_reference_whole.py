"""Reference cards read as one: their subtitle says what they explain on one line, and the
weapon specials an export explains stand under one heading on one card; a melee weapon's reach
stands under the range band it is at ("0"), not centred under "-1", and a table of melee weapons
only has no band headings."""

from __future__ import annotations

import re

import pytest
from cardexports import without_flag
from conftest import SAMPLES
from test_cards_lego import _words

from rosterkit.cards.pdf import CardOptions

SIZES = ("poker", "tarot", "a6")
ARES = sorted(p.stem for p in SAMPLES.glob("ares*.toml"))
# what a reference card may say it explains: its headings in the order it prints them
SUBTITLES = {"Abilities", "Weapon specials", "Abilities and weapon specials", "Quick rules", "Abilities and quick rules",
             "Weapon specials and quick rules", "Abilities, weapon specials and quick rules"}


def _cards(shared) -> list[str]:
    text = "\n".join(shared.pages)
    # (an over-limit army's footer flag, "NOT VALID: 430/400", reads as the next card's first words)
    return [without_flag(c.strip()) for c in re.split(r"card \d+ of \d+", text)[:-1]]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", ARES)
def test_reference_cards_name_what_they_hold_and_keep_the_specials_together(sample_cards, sample, size):
    """Each reference card's subtitle names its headings ("Abilities", "Weapon specials", or both)
    on a line of its own, without the game's name (the footer has it: at poker it wrapped); at most
    one reference card has the heading "Weapon specials" (hill clans printed *Powerful on the first
    and *Magic and *Cumbersome on the second)."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    references = [c for c in _cards(shared) if c.startswith("Reference")]
    assert len(references) == shared.result.reference_cards
    specials = 0
    for card in references:
        lines = [line.strip() for line in card.splitlines() if line.strip()]
        at = next(i for i, line in enumerate(lines) if line == "Reference")
        if re.fullmatch(r"continued \(\d+/\d+\)", lines[at + 1]):  # (its texts run on, under their
            continue  # heading again where a section runs on)
        assert lines[at + 1] in SUBTITLES, lines[:4]
        headed = "WEAPON SPECIALS" in lines
        specials += headed
        assert ("specials" in lines[at + 1]) == headed, lines
    assert specials <= 1, references


def test_hill_clans_explains_its_weapon_specials_on_one_card(sample_cards):
    """Hill clans at poker: one reference card holds its three weapon specials (*Cumbersome, *Magic,
    *Powerful) under one heading (the abilities' texts print on their cards), then the quick rules
    run on (a card of the specials' own left a card half empty)."""
    shared = sample_cards(SAMPLES / "ares_hill_clans.toml", CardOptions(size="poker", paper="a4", summary=False))
    first, *more = [c for c in _cards(shared) if c.startswith("Reference")]
    assert first.splitlines()[1].strip() == "Weapon specials and quick rules", first
    assert all("continued" in c.splitlines()[1] for c in more), more
    text = "\n".join([first, *more])
    assert text.count("QUICK RULES") >= 1 and "WEAPON SPECIALS" in first, text
    for card in more:  # a section running on to the next card is headed there again
        body = [line.strip() for line in card.splitlines()[2:] if line.strip()]
        assert body[0] in ("WEAPON SPECIALS", "QUICK RULES"), card
    assert all(f"*{mark}:" in text for mark in ("Cumbersome", "Magic", "Powerful")), text


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample, mixed, alone", [("lego_combat_blackwater_corsairs", 2, 2),
                                                  ("lego_combat_kingsbridge_garrison", 0, 3)])
def test_a_melee_weapons_reach_starts_under_the_first_band(sample_cards, sample, size, mixed, alone):
    """Blackwater's Hook and Sword beside a Knife: "melee 1"" starts at the left of the "0" band's
    column (melee is at no range penalty), left of the "-1" heading; centred across the three bands
    it stood under "-1". A table of melee weapons only (Kingsbridge's Militia, Sergeant Edda and Sir
    Aldric; two of blackwater's cards) has no band headings over it: "0 -1 -2" over "melee 1""
    read as range penalties for a club."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    seen = {"mixed": 0, "alone": 0}
    for page in _words(shared.path):
        heads = sorted((w for w in page if w[4] in ("0", "-1", "-2") and "Bold" in w[5]), key=lambda w: w[2])
        weapons = [w for w in page if w[4] == "Weapon"]
        for melee in (w for w in page if w[4].startswith("melee 1")):
            # its table's heading row: the nearest "Weapon" above it, on the same card
            top = min((w for w in weapons if 0 < w[2] - melee[2] < 12 * melee[3] and -80 < w[0] - melee[0] < 5),
                      key=lambda w: w[2] - melee[2])
            above = [w for w in heads if abs(w[2] - top[2]) < 1 and -5 < w[0] - melee[0] < 150]
            if not above:
                seen["alone"] += 1
                continue
            zero = next(w for w in above if w[4] == "0")
            minus = next(w for w in above if w[4] == "-1")
            assert melee[0] <= zero[0] + 1 and melee[0] < minus[0] - 10, (melee, zero, minus)
            seen["mixed"] += 1
    assert seen == {"mixed": mixed, "alone": alone}, seen
