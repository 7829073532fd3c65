"""heroic_gods cards: victory points said as what the enemy scores, not as a stat a wound halves;
the Wounded, Panicked, Locked and Spear lost boxes with their effects from the article."""

from __future__ import annotations

import re

import pytest
from conftest import RULESETS, SAMPLES, load
from pypdf import PdfReader

from rosterkit.cards.pdf import CardOptions, export_cards
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.validation import validate_report
from rosterkit.files.rosters import loads_roster
from rosterkit.files.rulesets import compile_ruleset_text

SIZES = ["poker", "tarot", "a6"]


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _figure_cards(sample_cards, sample: str, size: str) -> list[str]:
    """The text of each figure card of the sample's export (the army card left out)."""
    cards = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(rules=False, size=size, paper="a4", summary=False))
    text = "\n".join(cards.pages)
    return [_flat(c).strip() for c in re.split(r"card \d+ of \d+", text)[:-1] if "Army ·" not in c]


@pytest.mark.parametrize("size", SIZES)
def test_victory_points_are_what_the_enemy_scores_not_a_band_column(sample_cards, size):
    """The article: a wound halves the figure's stats; the enemy scores 5 for a dead hero, 3 for
    a wounded one, 2 and 1 for a common soldier. No figure card has a VP column in its
    Unwounded / Wounded band (whose wounded row would read as the value halved); each says what
    the enemy scores for it, slain and wounded."""
    cards = _figure_cards(sample_cards, "heroic_gods_trojans", size)
    assert len(cards) == 7
    for card in cards:
        assert not re.search(r"\bM (Bow )?VP\b", card), card  # (no VP column after the factors)
        # (an A6 card spells the factors out: see test_cards_column_names)
        heads = "Attack Defense Move" if size == "a6" else "A D M"
        assert re.search(rf"\b{heads} (Bow )?Unwounded\b", card), card
    hector = next(c for c in cards if c.startswith("Hector"))
    assert "VP to enemy: 5 slain, 3 wounded" in hector, hector
    assert re.search(r"\bUnwounded 8 7 6 Wounded 4 4 3(?!\d)", hector), hector
    archer = next(c for c in cards if c.startswith("Lycian archer"))
    assert "VP to enemy: 2 slain, 1 wounded" in archer, archer
    assert re.search(r"\bUnwounded 2 3 6 5 Wounded 1 2 3 3(?!\d)", archer), archer


WOUNDED = "Wounded stats halved; a second wound kills"
PANICKED = "Panicked flees a full move, loses its spear; rally at the start of your turn"
PANICKED_NO_SPEAR = "Panicked flees a full move; rally at the start of your turn"
SPEAR_LOST = "Spear lost thrown or lost in panic: no +1 in hand-to-hand; back for a challenge"
LOCKED = "Locked in melee from the last phase: may choose to panic"


def _without_captions():
    """The heroic_gods ruleset with no effect declared for its Wounded, Panicked, Locked and Spear lost boxes."""
    text = (RULESETS / "heroic_gods.toml").read_text(encoding="utf-8")
    for line in ('track_note = "stats halved; a second wound kills"\n',
                 'note = "flees a full move, loses its spear; rally at the start of your turn"\n',
                 'note = "flees a full move; rally at the start of your turn"\n',
                 'note = "thrown or lost in panic: no +1 in hand-to-hand; back for a challenge"\n',
                 'note = "in melee from the last phase: may choose to panic"\n'):
        assert line in text
        text = text.replace(line, "")
    return compile_ruleset_text(text, "heroic_gods.toml")


def _export(tmp_path, roster_text: str, size: str, rs=None) -> tuple[list[str], float, int]:
    roster = loads_roster(roster_text, "side.toml")
    report = cost_roster(rs or load(roster.ruleset), roster)
    out = tmp_path / f"{size}-{'bare' if rs else 'full'}.pdf"
    result = export_cards(report, validate_report(report), out, CardOptions(rules=False, size=size, paper="a4", summary=False))
    text = "\n".join(p.extract_text() for p in PdfReader(str(out)).pages)
    cards = [_flat(c).strip() for c in re.split(r"card \d+ of \d+", text)[:-1] if "Army ·" not in c]
    return cards, result.body_size, result.cards


@pytest.mark.parametrize("size", SIZES)
def test_each_box_says_what_it_means_where_the_card_has_room(tmp_path, size):
    """The Wounded, Panicked, Locked and Spear lost boxes each carry their effect from the article beside
    them on every figure card, at no cost in cards or type size against the same cards without;
    a figure without a spear (Paris, the archers) is not told a panic loses it."""
    text = (SAMPLES / "heroic_gods_trojans.toml").read_text(encoding="utf-8")
    cards, body, count = _export(tmp_path, text, size)
    assert len(cards) == 7
    for card in cards:
        armed = "no spear" not in card
        assert WOUNDED in card and (PANICKED if armed else PANICKED_NO_SPEAR) in card and LOCKED in card, card
        assert (SPEAR_LOST in card) == armed and ("loses its spear" in card) == armed, card
    _, bare_body, bare_count = _export(tmp_path, text, size, _without_captions())
    assert (body, count) == (bare_body, bare_count)


def test_a_crowded_card_leaves_the_effects_off_every_card_alike(tmp_path):
    """One figure with a long note at poker: the effects would cost the export its type size, so
    no card prints them (never some cards with and some without); the body is the one the cards
    have without them."""
    note = " ".join(["Hector holds the gate and will not leave it before the walls fall."] * 3)
    text = (SAMPLES / "heroic_gods_trojans.toml").read_text(encoding="utf-8").replace(
        "stats = { base_id = 1,", f'notes = "{note}"\nstats = {{ base_id = 1,', 1)
    cards, body, count = _export(tmp_path, text, "poker")
    _, bare_body, bare_count = _export(tmp_path, text, "poker", _without_captions())
    assert (body, count) == (bare_body, bare_count)
    assert not any("stats halved" in c or "rally at the start" in c for c in cards), cards
    assert all(re.search(r"Wounded Panicked", c) for c in cards), cards
