"""ARES weapon specials as a player reads them on the printed cards: every starred special a card
marks ("*Polearm" under a weapon's Special) is explained somewhere in the same PDF, on the cards
marking it where they have the room, else on a reference card."""

from __future__ import annotations

import re

import pytest
from conftest import SAMPLES, load

from rosterkit.cards.pdf import CardOptions

SIZES = ("poker", "tarot", "a6")
ARES = sorted(p.stem for p in SAMPLES.glob("ares*.toml"))
# (cards, body) of each export: as before the specials were explained, but for hill clans, whose
# Hired Giant holds the body: at poker a reference card of the specials' own (on the same sheet), at
# tarot and A6 the Giant's *Powerful on its card a step down rather than a sheet more
# (at A6 the over-rating Noble's *Magic and the Giant's *Powerful take a step more, under a heading
# of their own, Weapon specials, rather than among the abilities)
# (a lost figure's cost on every unit card of an export where that costs half a point at most at
# poker, a quarter of one for border levy at tarot, up to a point at A6; else on the cards with room)
EXPECTED = {
    ("ares_INVALID_morale_6", "poker"): (3, 7.75), ("ares_INVALID_morale_6", "tarot"): (2, 10.0),
    ("ares_INVALID_morale_6", "a6"): (2, 13.5),
    ("ares_INVALID_over_rating", "poker"): (4, 8.0), ("ares_INVALID_over_rating", "tarot"): (3, 9.5),
    ("ares_INVALID_over_rating", "a6"): (3, 12.5),
    ("ares_INVALID_unrated_figure", "poker"): (2, 8.0), ("ares_INVALID_unrated_figure", "tarot"): (2, 9.5),
    ("ares_INVALID_unrated_figure", "a6"): (2, 13.5),
    ("ares_MISMATCH_royal_host", "poker"): (4, 7.25), ("ares_MISMATCH_royal_host", "tarot"): (3, 9.5),
    ("ares_MISMATCH_royal_host", "a6"): (3, 12.5),
    # (9.25 at tarot while Cavalry's rule ended "no knockdowns", an optional rule the cards leave out)
    ("ares_border_levy", "poker"): (5, 8.0), ("ares_border_levy", "tarot"): (4, 9.5),
    ("ares_border_levy", "a6"): (4, 12.5),
    ("ares_crown_household", "poker"): (5, 8.0), ("ares_crown_household", "tarot"): (4, 9.5),
    ("ares_crown_household", "a6"): (4, 13.0),
    # (6 cards at 8 pt while the Thane's unit's cards went without their losses line)
    ("ares_hill_clans", "poker"): (5, 7.0), ("ares_hill_clans", "tarot"): (4, 8.75),
    # (11.5 while the Thane's card said what losing the last Leader costs twice: on a line and in his rule)
    ("ares_hill_clans", "a6"): (4, 12.0),
}


def _flat(text: str) -> str:
    return "".join(text.split())


def _specials() -> dict[str, str]:
    """Each weapon special's mark as the cards print it, with its text (the ruleset's)."""
    return {f"*{s.label}": s.description.strip() for s in load("ares").item_stats["weapons"].values()
            if s.description.strip()}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", ARES)
def test_every_marked_weapon_special_is_explained_in_the_pdf(sample_cards, sample, size):
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(rules=False, size=size))
    text = "\n".join(shared.pages)
    flat = _flat(text)
    specials = _specials()
    marked = {m for m in re.findall(r"(?<![\w*])\*[A-Z][a-z]+(?: [A-Z][a-z]+)?", text) if m in specials}
    for mark in marked:
        assert _flat(f"{mark}: {specials[mark]}") in flat, (mark, size)
    # all the cards marking a special print its text, or it is printed once (on a reference card)
    for mark in marked:
        told = flat.count(_flat(f"{mark}:"))
        shown = len(re.findall(re.escape(mark) + r"(?!:)", text))
        assert told in (1, shown), (mark, told, shown)
    cards, body = EXPECTED[sample, size]
    assert (shared.result.cards, shared.result.body_size) == (cards, body)


def test_every_sample_marks_a_special_somewhere():
    """The samples the test above reads mark all of Polearm, Magic, Cumbersome and Powerful."""
    from conftest import cost_sample

    from rosterkit.cards.plan import weapon_specials

    marks = {e.name for name in ARES for e in weapon_specials(cost_sample(f"{name}.toml")[1])}
    assert {"*Polearm", "*Magic", "*Cumbersome", "*Powerful"} <= marks


def test_hill_clans_at_poker_puts_the_specials_on_the_reference_card(sample_cards):
    """Hill clans at poker: the abilities' texts print on their cards, the weapon specials on the
    one reference card, under their heading."""
    shared = sample_cards(SAMPLES / "ares_hill_clans.toml", CardOptions(size="poker", rules=False))
    assert shared.result.reference_cards == 1
    text = _flat("\n".join(shared.pages))
    assert _flat("Weapon specials") in text and _flat("*Powerful: +1 wound") in text
    assert _flat("Leader: Immune") in text and "seethereferencecard" not in text


@pytest.mark.parametrize("per", ["unit", "figure"])
def test_specials_are_explained_without_a_glossary_or_one_card_per_figure(sample_cards, per):
    """Hill clans at poker with every rule's text on the cards (no glossary), or a card per figure:
    every special its cards mark is explained, and no unit runs onto a second card for it."""
    shared = sample_cards(SAMPLES / "ares_hill_clans.toml", CardOptions(size="poker", glossary=per == "figure",
                                                                        per=per))
    flat = _flat("\n".join(shared.pages))
    for mark in ("*Magic", "*Cumbersome", "*Powerful"):
        assert _flat(f"{mark}: {_specials()[mark]}") in flat, mark
    assert shared.result.continued == []
