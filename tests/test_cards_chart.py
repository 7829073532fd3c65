"""A chart the game's text plays by and does not print (heroic_gods' combat chart): a card of its
own, blank to fill in, where the last sheet of cards has a free place for it (read back)."""

from __future__ import annotations

import re

import pytest
from conftest import SAMPLES, ruleset_with, run_cli

from rosterkit.cards.pdf import CardOptions


def _cards(shared) -> list[str]:
    """Each card's text, whitespace made single spaces (a card's text ends with its "card n of m")."""
    text = re.sub(r"\s+", " ", "\n".join(shared.pages))
    return [c.strip() for c in re.split(r"card \d+ of \d+", text)[:-1]]


@pytest.mark.parametrize("sample, size, cards", [
    ("heroic_gods_achaeans", "tarot", 10),  # 9 cards, four a sheet: the third sheet has room
    ("heroic_gods_achaeans", "a6", 10),  # 9 cards, two a sheet
    ("heroic_gods_warning_chips_without_hero", "poker", 6),  # 5 cards, nine a sheet
])
def test_the_combat_chart_prints_blank_where_the_last_sheet_has_room(sample_cards, sample, size, cards):
    """The article's combat chart (attack minus defense, 1D6) is not in its text: the last card is a
    blank chart headed by the six faces of the die, saying why it is blank and what to write in a
    cell, and the export takes no more sheets than without it."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4"))
    texts = _cards(shared)
    assert shared.result.cards == cards == len(texts)
    chart = texts[-1]
    assert chart.startswith("Combat chart not in the article: fill it in A - D 1 2 3 4 5 6"), chart
    assert "N no effect, P panic, W wound, K killed" in chart
    assert sum(t.startswith("Combat chart") for t in texts) == 1
    assert shared.result.by_kind.get("chart") == 1
    assert shared.result.card_pages == -(-(cards - 1) // shared.result.per_page)


def test_no_chart_where_it_would_take_a_sheet_of_its_own(sample_cards):
    """The Achaeans' nine poker cards fill one sheet: the chart would print a second for itself."""
    shared = sample_cards(SAMPLES / "heroic_gods_achaeans.toml", CardOptions(size="poker", paper="a4"))
    assert shared.result.cards == 9 and shared.result.card_pages == 1
    assert not any(t.startswith("Combat chart") for t in _cards(shared))


def test_the_summary_counts_the_chart_card_and_no_rules_leaves_it_out(tmp_path):
    out = tmp_path / "cards.pdf"
    result = run_cli("cards", SAMPLES / "heroic_gods_achaeans.toml", "-o", out, "--size", "a6", "--paper", "a4")
    assert result.code == 0, result.err
    from cardexports import read_back

    pages, _ = read_back(out)
    assert "1 chart card" in re.sub(r"\s+", " ", pages[0]), pages[0]
    bare = tmp_path / "bare.pdf"
    assert run_cli("cards", SAMPLES / "heroic_gods_achaeans.toml", "-o", bare, "--size", "a6", "--paper", "a4",
                   "--no-rules").code == 0
    assert "Combat chart" not in "\n".join(read_back(bare)[0])


@pytest.mark.parametrize("new, says", [
    ('columns = [],', "card.chart.columns"),
    ('columns = ["1", "2", "3", "4", "5", "sixsixsix"],', "card.chart.columns[5]: too long (at most 8 characters)"),
])
def test_check_ruleset_names_a_bad_chart(tmp_path, new, says):
    result = run_cli("check-ruleset", ruleset_with(tmp_path, "heroic_gods", 'columns = ["1", "2", "3", "4", "5", "6"],', new))
    assert result.code in (1, 2) and says in result.err, result.err
    assert "Traceback" not in result.err
