"""A chart the game's text plays by and does not print (heroic_gods' combat chart): a card of its
own after the reference cards of every export with the quick rules, even on a sheet alone, blank
to fill in or the one the roster gives as its players' (read back)."""

from __future__ import annotations

import re

import pytest
from conftest import SAMPLES, ruleset_with, run_cli

from rosterkit.cards.pdf import CardOptions


def _cards(shared) -> list[str]:
    """Each card's text, whitespace made single spaces (a card's text ends with its "card n of m")."""
    text = re.sub(r"\s+", " ", "\n".join(shared.pages))
    return [c.strip() for c in re.split(r"card \d+ of \d+", text)[:-1]]


@pytest.mark.parametrize("sample, size, cards, sheets", [
    # the army card, the figures', the quick rules' reference cards and the chart
    ("heroic_gods_warning_chips_without_hero", "poker", 7, 1),
    ("heroic_gods_achaeans", "poker", 11, 2),  # (nine cards fill a sheet: the rolls and chart on a second)
])
def test_the_combat_chart_prints_in_every_export(sample_cards, sample, size, cards, sheets):
    """The article's combat chart (attack minus defense, 1D6) is not in its text: the last card is a
    chart headed by the six faces of the die, saying whose it is and what a cell says (every fight
    is resolved on it: a card even on a sheet of its own). The achaeans give
    the chart their players agreed, printed filled in, row by row; a roster without one prints it
    blank, saying why."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4"))
    texts = _cards(shared)
    assert shared.result.cards == cards == len(texts)
    chart = texts[-1]
    if sample == "heroic_gods_achaeans":
        assert chart.startswith("Combat chart the players' chart, not the article's A - D 1 2 3 4 5 6 "
                                "≤ -4 N N N N N P -3 N N N N P P"), chart
        assert "+3 W W K K K K ≥ +4 W K K K K K" in chart and "fill it in" not in chart
    else:
        assert chart.startswith("Combat chart not in the article: fill it in A - D 1 2 3 4 5 6"), chart
    assert "N no effect, P panic, W wound, K killed" in chart
    assert sum(t.startswith("Combat chart") for t in texts) == 1
    assert shared.result.by_kind.get("chart") == 1
    assert shared.result.card_pages == sheets


def test_the_summary_counts_the_chart_card_and_no_rules_leaves_it_out(tmp_path):
    out = tmp_path / "cards.pdf"
    result = run_cli("cards", SAMPLES / "heroic_gods_achaeans.toml", "-o", out, "--paper", "a4")
    assert result.code == 0, result.err
    from cardexports import read_back

    pages, _ = read_back(out)
    assert "1 chart card" in re.sub(r"\s+", " ", pages[0]), pages[0]
    bare = tmp_path / "bare.pdf"
    assert run_cli("cards", SAMPLES / "heroic_gods_achaeans.toml", "-o", bare, "--size", "a6", "--paper", "a4",
                   "--no-rules").code == 0  # (neither on a card nor on the page)
    assert "Combat chart" not in "\n".join(read_back(bare)[0])


@pytest.mark.parametrize("new, says", [
    ('columns = [],', "card.chart.columns"),
    ('columns = ["1", "2", "3", "4", "5", "sixsixsix"],', "card.chart.columns[5]: too long (at most 8 characters)"),
])
def test_check_ruleset_names_a_bad_chart(tmp_path, new, says):
    result = run_cli("check-ruleset", ruleset_with(tmp_path, "heroic_gods", 'columns = ["1", "2", "3", "4", "5", "6"],', new))
    assert result.code in (1, 2) and says in result.err, result.err
    assert "Traceback" not in result.err


def _page(pdf) -> str:
    from cardexports import read_back

    return re.sub(r"\s+", " ", read_back(pdf)[0][0])


@pytest.mark.parametrize("size", ["tarot", "a6"])
def test_a_chart_alone_on_a_sheet_still_prints_as_a_card(tmp_path, size):
    """The Leaderless Levy's army card and three figures' fill two tarot sheets (four a sheet) or
    A6 sheets (two): the chart prints alone on the next, blank, its note and key with it, and the
    summary page counts it and does not print it."""
    sample = SAMPLES / "heroic_gods_warning_chips_without_hero.toml"
    out = tmp_path / "cards.pdf"
    result = run_cli("cards", sample, "-o", out, "--size", size, "--paper", "a4")
    assert result.code == 0, result.err
    from cardexports import read_back

    pages, _ = read_back(out)
    page = re.sub(r"\s+", " ", pages[0])
    assert "1 chart card" in page and "Combat chart" not in page and "Challenge:" in page, page
    # (the sheet's other places: the quick rules, printed on the page too)
    last = re.split(r"card \d+ of \d+", re.sub(r"\s+", " ", pages[-1]))[-2].strip()
    assert last.startswith("Combat chart not in the article: fill it in A - D 1 2 3 4 5 6"), last
    assert "1D6 across, A - foe's D down: N no effect, P panic, W wound, K killed; agree it before play" in last
    assert len(pages) == (3 if size == "tarot" else 4)  # the page, the cards' sheets, the chart's


def test_a_chart_that_shares_its_sheet_stays_a_card(tmp_path):
    """At poker the levy's four cards leave five places on the sheet: the chart takes one of them."""
    out = tmp_path / "cards.pdf"
    assert run_cli("cards", SAMPLES / "heroic_gods_warning_chips_without_hero.toml", "-o", out).code == 0
    page = _page(out)
    assert "1 chart card" in page and "Combat chart ·" not in page


@pytest.mark.parametrize("size, pages", [("tarot", 4), ("a6", 6)])
def test_a_players_chart_prints_filled_in_on_its_card(tmp_path, size, pages):
    """The Achaeans' army card and seven figures' fill two tarot sheets (four A6 ones): their
    agreed chart prints on a card of its own on the next, row by row, said to be theirs."""
    out = tmp_path / "cards.pdf"
    result = run_cli("cards", SAMPLES / "heroic_gods_achaeans.toml", "-o", out, "--size", size, "--paper", "a4")
    assert result.code == 0, result.err
    from cardexports import read_back

    texts, _ = read_back(out)
    assert len(texts) == pages
    page = re.sub(r"\s+", " ", texts[0])
    assert "1 chart card" in page and "Combat chart" not in page, page
    last = re.split(r"card \d+ of \d+", re.sub(r"\s+", " ", texts[-1]))[-2].strip()
    assert last.startswith("Combat chart the players' chart, not the article's A - D 1 2 3 4 5 6 ≤ -4 N N N N N P"), last
    assert "≥ +4 W K K K K K" in last and "fill it in" not in last
