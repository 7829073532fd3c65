"""Reference cards read as one: their subtitle says what they explain on one line, and the
weapon specials an export explains stand under one heading on one card; a melee weapon's reach
stands under the range band it is at ("0"), not centred under "-1"."""

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
SUBTITLES = {"Abilities", "Weapon specials", "Abilities and weapon specials"}


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
        assert lines[at + 1] in SUBTITLES, lines[:4]
        headed = "WEAPON SPECIALS" in lines
        specials += headed
        assert ("specials" in lines[at + 1]) == headed, lines
    assert specials <= 1, references


def test_hill_clans_explains_its_weapon_specials_on_one_card(sample_cards):
    """Hill clans at poker: the abilities' texts fill the first reference card, so its three weapon
    specials (*Cumbersome, *Magic, *Powerful) go together on a second."""
    shared = sample_cards(SAMPLES / "ares_hill_clans.toml", CardOptions(size="poker", paper="a4", summary=False))
    first, second = [c for c in _cards(shared) if c.startswith("Reference")]
    assert first.splitlines()[1].strip() == "Abilities" and "*" not in first, first
    assert second.splitlines()[1].strip() == "Weapon specials", second
    assert all(f"*{mark}:" in second for mark in ("Cumbersome", "Magic", "Powerful")), second


@pytest.mark.parametrize("size", SIZES)
def test_a_melee_weapons_reach_starts_under_the_first_band(sample_cards, size):
    """Kingsbridge's Militia (club), Sergeant Edda and Sir Aldric (swords): "melee 1"" starts at
    the left of the "0" band's column (melee is at no range penalty), left of the "-1" heading;
    centred across the three bands it stood under "-1"."""
    shared = sample_cards(SAMPLES / "lego_combat_kingsbridge_garrison.toml",
                          CardOptions(size=size, paper="a4", summary=False))
    seen = 0
    for page in _words(shared.path):
        heads = sorted((w for w in page if w[4] in ("0", "-1") and "Bold" in w[5]), key=lambda w: w[2])
        for melee in (w for w in page if w[4].startswith("melee 1")):
            # the heading row over it: the nearest "0" and "-1" above, over the same card's columns
            # (to its right, within its card: a card of melee weapons only sets its bands wider)
            above = [w for w in heads if 0 < w[2] - melee[2] < 4 * melee[3] and -5 < w[0] - melee[0] < 150]
            zero = min((w for w in above if w[4] == "0"), key=lambda w: w[2] - melee[2])
            minus = min((w for w in above if w[4] == "-1" and w[0] > zero[0]), key=lambda w: w[2] - melee[2])
            assert melee[0] <= zero[0] + 1 and melee[0] < minus[0] - 10, (melee, zero, minus)
            seen += 1
    assert seen == 3
