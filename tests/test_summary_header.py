"""The summary page: a header that names the game once, and a unit table that names each figure
by its base number and its points by the ruleset's word."""

from __future__ import annotations

import pytest
from conftest import SAMPLES

from rosterkit.cards.pdf import CardOptions


def _summary(sample_cards, sample: str, size: str = "poker") -> list[str]:
    cards = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4"))
    return cards.pages[0].splitlines()


@pytest.mark.parametrize("sample, game, credit, title", [
    ("heroic_gods_trojans", "Heroic skirmish with God chips (MWAN #123), version 2", "Hal Thinglum, MagWeb, 2003",
     "Heroic skirmish rules with God chips"),
    ("fast_universal_ashen_host", "Fast Universal Wargame, version 2", "Bobby R. Wallen Jr., w00tgames, 2016",
     "A fast short universal wargame"),
])
def test_the_header_names_the_game_once(sample_cards, sample, game, credit, title):
    """Under the army's name: the game (the ruleset's name, then its version: "(MWAN #123) (version
    2)" read as doubled brackets) and who wrote and published it, without the source's own title
    saying the game's name a second time."""
    lines = _summary(sample_cards, sample)
    assert lines[1] == f"{game} · {credit}", lines[:3]
    assert not any(title in line for line in lines), lines[:3]


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_heroic_gods_units_table_has_each_figures_base_id_and_vp(sample_cards, size):
    """Each figure has its base number in the unit table, as its card says it ("ID #4"), and the
    factors it plays by; the points column is headed with the cards' word for them, VP."""
    lines = _summary(sample_cards, "heroic_gods_trojans", size)
    assert "# Unit ID A D M Bow Type VP" in lines, lines
    assert "1 Hector #1 8 7 6 - Hero 5" in lines and "7 Lycian archer #7 2 3 6 5 Common soldier 2" in lines, lines
    assert "Total 23" in [line.strip() for line in lines], lines
    # a ruleset without base numbers has no such column, and its points keep their word
    lines = _summary(sample_cards, "fast_universal_ashen_host", size)
    assert "# Unit Type Miniatures Points" in lines, lines
