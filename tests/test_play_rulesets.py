"""Each ruleset declares what a player marks and how a game is scored, once for cards and play;
`check-ruleset` checks the [play] formulas like any other."""

from __future__ import annotations

import pytest
from conftest import load, ruleset_with, run_cli

from rosterkit.rules.ruleset import formula_count
from rosterkit.rules.schema import PlayDef


@pytest.mark.parametrize("ruleset, points", [
    ("ares", ["Figures eliminated or routed"]),
    ("heroic_gods", ["Dead heroes", "Wounded heroes", "Dead common soldiers", "Wounded common soldiers"]),
    ("fast_universal", []),
    ("for_the_masses", []),
    ("lego_combat", []),
])
def test_each_ruleset_scores_by_its_text_or_says_it_gives_no_points(ruleset, points):
    rs = load(ruleset)
    assert [p.label for p, _ in rs.play_points] == points
    assert all(p.rule for p, _ in rs.play_points)
    if not points:
        assert "no victory points" in rs.data.play.scoring and "nothing is scored" in rs.data.play.scoring


def test_figures_gone_from_the_table_are_marked_in_play_only():
    for ruleset, name in (("ares", "Routed"), ("heroic_gods", "Dead")):
        rs = load(ruleset)
        assert name in [tr.name for tr, _ in rs.play_trackers]
        assert name not in [tr.name for tr, _ in rs.card_trackers]


@pytest.mark.parametrize("old, new, says", [
    ('points = "when(type == \'hero\', 5 * min(count, dead), 0)"', 'points = "5 * dead_heroes"',
     "play.points[0].points: unknown name 'dead_heroes'"),
    ('when = "wounded > 0 and dead < count"', 'when = "wounded >"', "play.effects[0].when: "),
    ('id = "panicked"', 'id = "attack"',
     "card.trackers[1].id: the marks' name 'attack' is already a stat or value's name"),
    ('id = "panicked"', 'id = "dead"', "card.trackers[1].id: the id 'dead' is given twice"),
    ('label = "Wounded"\nwhen', 'label = "Wounded"\nscope = "unit"\nwhen', "a unit effect has a value"),
])
def test_check_ruleset_names_a_bad_play_declaration(tmp_path, old, new, says):
    result = run_cli("check-ruleset", ruleset_with(tmp_path, "heroic_gods", old, new))
    assert result.code in (1, 2) and says in result.err, result.err
    assert "Traceback" not in result.err


def test_play_formulas_count_toward_the_ruleset_formula_budget():
    rs = load("heroic_gods")
    without = rs.data.model_copy(update={"play": PlayDef()})
    # four points formulas, one effect's condition and the five {...} parts of what it shows
    assert formula_count(rs.data) - formula_count(without) == 4 + 1 + 5
