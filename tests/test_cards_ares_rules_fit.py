"""ARES rules on the unit cards: the ability texts as short facts, so that they print on the cards
that name them (read back from the PDF)."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from cardexports import without_flag
from conftest import SAMPLES
from pypdf import PdfReader

from rosterkit.cards import plan
from rosterkit.cards.pdf import CardOptions, export_cards
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.validation import validate_report
from rosterkit.files.rosters import load_roster
from rosterkit.files.rulesets import Registry

# the samples with Cavalry figures
CAVALRY = ["ares_INVALID_over_rating", "ares_MISMATCH_royal_host", "ares_border_levy", "ares_crown_household"]


def _cards(shared) -> list[str]:
    """Each card's text, whitespace made single spaces (a card's text ends with its "card n of m")."""
    text = re.sub(r"\s+", " ", "\n".join(shared.pages))
    return [without_flag(c.strip()) for c in re.split(r"card \d+ of \d+", text)[:-1]]


def _export(sample_cards, sample: str, size: str):
    return sample_cards(SAMPLES / f"{sample}.toml", CardOptions(rules=False, size=size, summary=False))


@pytest.mark.parametrize("sample", CAVALRY)
def test_cavalry_prints_whole_on_every_tarot_card_naming_it(sample_cards, sample):
    """At tarot every card of a Cavalry figure prints the rule with all its facts (base, sight,
    the infantry modifiers, leaving contact) and none refers to a reference card:
    royal host printed a fourth card holding Cavalry alone, its Knights' card having no room."""
    shared = _export(sample_cards, sample, "tarot")
    cards = _cards(shared)
    naming = [c for c in cards if not c.startswith("Reference") and "Cavalry" in c]
    assert naming
    for card in naming:
        assert "Cavalry – see the reference card" not in card, card
        text = card[card.index("Cavalry: "):]
        for fact in ('1x2" base', "front and rear", "+1 per die attacking infantry", "infantry -1",
                     "out of contact"):
            assert fact in text, (sample, fact, card)
    assert not any(c.startswith("Reference") and "Cavalry" in c for c in cards)


@pytest.mark.parametrize("size, sample, cards, body", [
    ("tarot", "ares_MISMATCH_royal_host", 3, 9.5),  # was 4 cards (the fourth for Cavalry alone)
    ("tarot", "ares_hill_clans", 4, 8.75),  # 9 pt before its Giant printed *Powerful's text
    # 8 pt on 6 cards while the Thane's unit's cards went without their losses line (7.75 before,
    # the sixth card the weapon specials'); with the line every text prints on its card
    ("poker", "ares_hill_clans", 5, 7.0),
    # (12.75 and 13.25 pt before a lost figure's cost went on every unit card: the texts still print)
    ("a6", "ares_MISMATCH_royal_host", 3, 12.5),
    ("a6", "ares_border_levy", 4, 12.5),
    # was 11.75 pt (12.5 without *Powerful's text; 12.25 before its heading of its own, Weapon specials;
    # 11.5 while the Thane's card said what losing the Leader costs on a line of its own, as well as
    # in his Leader rule)
    ("a6", "ares_hill_clans", 4, 12.0),
])
def test_short_rule_texts_print_larger_or_on_fewer_cards(sample_cards, size, sample, cards, body):
    """The shorter texts leave the cards naming them room: these exports print on fewer cards or
    at a larger body, and the body size is the one the PDF sets."""
    shared = _export(sample_cards, sample, size)
    assert shared.result.cards == cards and shared.result.continued == []
    assert shared.result.body_size == body
    assert shared.sizes.get(body, 0) > 20


@pytest.mark.parametrize("sample, cards, body, on_cards, on_reference", [
    ("ares_INVALID_morale_6", 3, 7.75, [], ["*Polearm"]),
    ("ares_INVALID_over_rating", 4, 8.0, [], ["*Magic"]),
    ("ares_MISMATCH_royal_host", 4, 7.25, ["*Magic"], []),
    ("ares_border_levy", 5, 8.0, [], ["*Magic", "*Polearm"]),
    ("ares_crown_household", 5, 8.0, ["*Polearm"], []),
])
def test_the_cards_or_the_reference_card_explain_the_weapon_specials_the_cards_mark(
        sample_cards, sample, cards, body, on_cards, on_reference):
    """At poker a weapon special a card marks ("Pike* (D8) *Polearm") is explained on every card
    marking it where they have the room, else on the reference card printed for a rule the cards
    have no room for: as many cards and the same body as without them."""
    shared = _export(sample_cards, sample, "poker")
    assert shared.result.cards == cards and shared.result.reference_cards == 1
    assert shared.result.body_size == body
    all_cards = _cards(shared)
    reference = [c for c in all_cards if c.startswith("Reference")]
    units = [c for c in all_cards if not c.startswith("Reference")]
    texts = {"*Magic": "*Magic: +1 per die on its attacks, except against Magic Resistant targets.",
             "*Polearm": "*Polearm: +1 per die when its bearer charges; enemy charges on the bearer's front -1."}
    for mark in on_reference:
        assert texts[mark] in reference[0], (mark, reference[0])
        assert any(f"{mark} " in c for c in units) and not any(f"{mark}:" in c for c in units)
    for mark in on_cards:
        assert f"{mark}:" not in reference[0]
        marking = [c for c in units if f"{mark} " in c]
        assert marking and all(texts[mark] in c for c in marking), (mark, marking)


def test_weapon_specials_go_on_their_cards_or_a_reference_card(sample_cards, monkeypatch):
    """Crown household's Pike Screen marks *Polearm: its card explains it at poker (beside its
    reminder of a lost figure's cost; the reference card printed for Cavalry does not) and at tarot
    (no reference card). Where the cards have no room for them (hill clans at poker without the
    Thane's unit's losses line) the reference card explains them with Individual, Cause Fear and
    Thick Skull, all at one size of its own (smaller than the 8 pt body, which took a second card)."""
    poker = _export(sample_cards, "ares_crown_household", "poker")
    assert not any(c.startswith("Reference") and "*Polearm:" in c for c in _cards(poker))
    assert any(c.startswith("Pike Screen") and "*Polearm:" in c and "A figure lost" in c for c in _cards(poker))
    shared = _export(sample_cards, "ares_crown_household", "tarot")
    assert shared.result.reference_cards == 0 and shared.result.cards == 4
    assert any("*Polearm:" in c for c in _cards(shared))
    monkeypatch.setattr(plan, "REMINDER_DROP", 0.5)  # (the losses line left off the Thane's unit's cards)
    result, cards = _exported("ares_hill_clans", "poker")
    assert result.reference_cards == 1 and result.cards == 5 and result.body_size == 8.0
    assert result.rules_size == 7.25
    [reference] = [c for c in cards if c.startswith("Reference")]
    assert all(f"{mark}:" in reference for mark in ("Thick Skull", "Individual", "Cause Fear", "*Magic",
                                                      "*Cumbersome", "*Powerful"))


def _exported(sample: str, size: str):
    """The export's result and its cards' texts (an export of its own, not shared)."""
    roster = load_roster(SAMPLES / f"{sample}.toml").roster
    report = cost_roster(Registry().get(roster.ruleset), roster)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "cards.pdf"
        result = export_cards(report, validate_report(report), out, CardOptions(rules=False, size=size, summary=False))
        text = re.sub(r"\s+", " ", "\n".join(p.extract_text() for p in PdfReader(out).pages))
    return result, [without_flag(c.strip()) for c in re.split(r"card \d+ of \d+", text)[:-1]]


@pytest.mark.parametrize("sample", CAVALRY)
def test_cavalry_prints_whole_on_a6_with_the_quick_rules(sample_cards, sample):
    """At A6, with the quick rules on a reference card of their own, a Cavalry card prints the rule
    rather than "see the reference card" (border levy did, its cards a sixth blank, to print at
    13.5 pt rather than 12.5): a body at or above the size's count_at (12 pt) is large enough, and
    the reference card holds the quick rules alone."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size="a6", summary=False))
    cards = _cards(shared)
    naming = [c for c in cards if not c.startswith("Reference") and "Cavalry" in c]
    assert naming
    for card in naming:
        assert "Cavalry – see the reference card" not in card and 'Cavalry: Mounted, 1x2" base' in card, card
    assert not any(c.startswith("Reference") and "Cavalry" in c for c in cards)
    assert shared.result.body_size >= 12 and shared.result.continued == []
