"""What the cards say about a roster that is not valid, or has warnings: each error on the card it
concerns, in a short form that is whole (the summary page and `validate` have the full text)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import SAMPLES

from rosterkit.cards.content import CardBuilder
from rosterkit.cards.pdf import CardOptions
from rosterkit.errors import RosterkitError
from rosterkit.files.rulesets import compile_ruleset_text

POKER = CardOptions(size="poker", paper="a4", summary=False)
A6 = CardOptions(size="a6", paper="a4", summary=False)


def _contents(cards):
    return list(CardBuilder(cards.report, "unit", [], cards.validation).cards())


def test_a_figures_error_is_on_that_figures_card_only(sample_cards):
    """Troll Guard: the Bridge Troll's Morale 6 is out of range; the Human Pikeman of the same unit
    (Morale 2) does not carry it, at every size, whether the unit prints on one card or one per figure."""
    for options in (POKER, A6):
        cards = sample_cards(SAMPLES / "ares_INVALID_morale_6.toml", options)
        text = "\n".join(cards.pages)
        assert text.count("Morale: 6 is out") == 1, (options.size, text)
        assert "NOT VALID" in text
    # the unit on one card names the figure its error concerns
    whole = _contents(sample_cards(SAMPLES / "ares_INVALID_morale_6.toml", POKER))
    assert [c.invalid for c in whole if c.kind == "unit"] == [
        ("Bridge Troll: Morale: 6 is out of range: expected a whole number from 1 to 5",)]
    assert [c.shorts for c in whole if c.kind == "unit"] == [
        (("Bridge Troll: Morale: 6 is out of range: expected a whole number from 1 to 5",
          "Bridge Troll: Morale: 6 is out of range"),)]


def test_a_stat_not_entered_keeps_its_column(sample_cards):
    """The Ogre's Combat Rating is not entered: its card keeps the Combat Rating column with "?",
    so the stat band reads as every other ARES card's (Close Combat stays in the second row)."""
    cards = sample_cards(SAMPLES / "ares_INVALID_unrated_figure.toml", POKER)
    ogre = next(c for c in _contents(cards) if c.title == "Ogre")
    assert ogre.stats.labels[0] == "Combat Rating", ogre.stats.labels
    assert ogre.stats.rows[0][1][0] == "?", ogre.stats.rows
    others = [c for c in _contents(cards) if c.kind == "unit" and c.title != "Ogre"]
    at = ogre.stats.labels.index("Close Combat")
    assert others and all(c.stats.labels.index("Close Combat") == at for c in others), \
        [c.stats.labels for c in others]


def test_points_not_known_read_as_a_question_mark(sample_cards):
    """The Ogre's rating is not entered, so its points are not known: its badge says "?" as its
    band does, not 0, and its subtitle gives no "0 rating" (read back from the PDF)."""
    cards = sample_cards(SAMPLES / "ares_INVALID_unrated_figure.toml", POKER)
    ogre = next(c for c in _contents(cards) if c.title == "Ogre")
    assert ogre.badge == "?" and "0" not in ogre.subtitle, (ogre.badge, ogre.subtitle)
    text = " ".join(" ".join(cards.pages).split())
    assert "Ogre ? Ogre Brute" in text and not re.search(r"(?<!\d)0 rating", text), text


def _said(cards) -> str:
    """The cards' text, a line break read as a space."""
    return " ".join(" ".join(cards.pages).split())


def test_cards_print_an_errors_short_form_whole(sample_cards):
    """An error or warning a poker card has no room for in full prints in its short form, whole
    (no "…", no "(…)"); `validate` and the summary page keep the full text."""
    cases = {
        "for_the_masses_INVALID_thirteen_elements": "Not valid: 13 elements, at most 12: remove 1",
        "ares_INVALID_unrated_figure": "Not valid: Combat Rating not entered",
        "heroic_gods_warning_duplicate_base_ids": "Warning, our reading: Base ID 3 on 2 figures: renumber",
        "ares_INVALID_morale_6": "Not valid: Morale: 6 is out of range",
    }
    for sample, short in cases.items():
        cards = sample_cards(SAMPLES / f"{sample}.toml", POKER)
        text = _said(cards)
        assert short in text, (sample, text)
        assert "…" not in text, (sample, text)
        full = [f.message for f in cards.validation.findings]
        assert all(len(m) > len(short) for m in full), full
    summary = sample_cards(SAMPLES / "for_the_masses_INVALID_thirteen_elements.toml",
                           CardOptions(size="poker", paper="a4", summary=True))
    assert "(the Regroup rule: no unit grows beyond 12 elements)" in _said(summary)


def test_the_army_card_keeps_its_warning(sample_cards):
    """Chips without a Hero: the army card says so at every size, in a line that fits."""
    for options in (POKER, CardOptions(size="tarot", paper="a4", summary=False), A6):
        cards = sample_cards(SAMPLES / "heroic_gods_warning_chips_without_hero.toml", options)
        text = _said(cards)
        assert "Warning: 2 God chips, no Hero to play them" in text or \
            "Warning: " + cards.validation.findings[0].message in text, (options.size, text)
        kinds = cards.result.by_kind  # the army card and three figures: no second card
        assert kinds["army"] + kinds["unit"] == 4, kinds


def test_an_army_wide_error_is_on_the_cards_it_counts(sample_cards):
    """Heroes over 25% of the points: the hero's card says so, the basic troops' cards do not."""
    cards = sample_cards(SAMPLES / "fast_universal_INVALID_hero_heavy.toml", POKER)
    assert _said(cards).count("Heroes 31% > 25%: remove 30 points") == 1, cards.pages
    hero = next(c for c in _contents(cards) if c.title == "Warlord Ghor")
    assert [m[:14] for m in hero.invalid] == ["Heroes are 31%"], hero.invalid
    assert all(not c.invalid for c in _contents(cards) if c.title != "Warlord Ghor")


def test_a_limits_card_form_is_checked_like_its_message():
    """A `card` form naming what the limit does not know is an error at its key and line, as the
    message's would be."""
    text = (Path(SAMPLES).parent / "rulesets" / "fast_universal.toml").read_text(encoding="utf-8")
    good = "card = \"Heroes {pct(value)} > 25%"
    assert good in text
    with pytest.raises(RosterkitError) as caught:
        compile_ruleset_text(text.replace(good, good.replace("value", "valu")), "fast_universal.toml")
    problem = caught.value.problems[0]
    assert problem.key.endswith(".card") and "unknown name 'valu'" in problem.message, problem
    assert problem.line == text[:text.index(good)].count("\n") + 1
