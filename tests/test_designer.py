"""The designer's report: published prices, dominated options, the cost of a step of each stat
per type, and the cheapest and dearest figure of each type."""

from __future__ import annotations

import json

from conftest import FIXTURES, run_cli

from rosterkit.engine.designer import designer_report, report_text
from rosterkit.files.rulesets import compile_ruleset_text

GAME = '''
id = "duel"
name = "Duel"
[source]
title = "Duel"

[[stats]]
id = "fight"
label = "Fight"
min = 1
max = 5
default = 2

[[stats]]
id = "armor"
label = "Armor"
min = 0
max = 3
default = 0

[[weapon_stats]]
id = "power"
label = "Power"
default = 1

[[weapon_stats]]
id = "reach"
label = "Reach"
default = 0

[[types]]
id = "soldier"
name = "Soldier"
params = { grade = 2 }

[[types]]
id = "hero"
name = "Hero"
params = { grade = 5 }

[formulas]
figure_cost = "grade * fight + 3 * armor"
weapon_cost = "2 * power + reach"

[[weapons]]
name = "Sword"
stats = { power = 2 }

[[weapons]]
name = "Gilded sword"
stats = { power = 2 }
cost = 7

[[weapons]]
name = "Spear"
stats = { power = 1, reach = 2 }

[[figures]]
name = "Guard"
type = "soldier"
stats = { fight = 2, armor = 1 }
weapons = ["Sword"]

[[figures]]
name = "Veteran"
type = "soldier"
stats = { fight = 3, armor = 1 }
weapons = ["Sword"]
cost = 11

[[figures]]
name = "Overpriced guard"
type = "soldier"
stats = { fight = 2, armor = 1 }
weapons = ["Gilded sword"]
'''


def test_a_step_of_each_stat_is_priced_per_type():
    rs = compile_ruleset_text(GAME, "duel.toml")
    steps = {(s.type_name, s.stat): s.cost for s in designer_report(rs).steps}
    assert steps == {("Soldier", "Fight"): 2, ("Soldier", "Armor"): 3, ("Hero", "Fight"): 5, ("Hero", "Armor"): 3}


def test_cheapest_and_dearest_figure_of_each_type():
    rs = compile_ruleset_text(GAME, "duel.toml")
    ranges = {r.type_name: (r.cheapest, r.cheapest_stats, r.dearest, r.dearest_stats)
              for r in designer_report(rs).ranges}
    assert ranges["Soldier"] == (2, {"fight": 1, "armor": 0}, 19, {"fight": 5, "armor": 3})
    assert ranges["Hero"] == (5, {"fight": 1, "armor": 0}, 34, {"fight": 5, "armor": 3})


def test_dominated_options_are_listed():
    rs = compile_ruleset_text(GAME, "duel.toml")
    report = designer_report(rs)
    found = {(d.what, d.name, d.by) for d in report.dominated}
    # the gilded sword is a sword printed dearer (7, the formula gives 4); the overpriced guard
    # holds it and is otherwise a guard (4 + 3 + 7 = 14 against 4 + 3 + 4 = 11); a veteran
    # (6 + 3 + 4 = 13) costs more than a guard and fights better, so nothing dominates it
    assert found == {("weapon", "Gilded sword", "Sword"), ("figure", "Overpriced guard", "Guard")}
    text = report_text(rs, report)
    assert "weapon Gilded sword (7) by Sword (4)" in text
    assert "figure Overpriced guard (14) by Guard (11)" in text


def test_the_report_from_the_command_line_as_text_and_json(tmp_path):
    path = tmp_path / "duel.toml"
    path.write_text(GAME)
    result = run_cli("check-ruleset", str(path), "--report")
    assert result.code == 0, result.err
    assert "Soldier: Fight 2 -> 3: +2" in result.out
    assert "Hero: 5 (Fight 1, Armor 0) to 34 (Fight 5, Armor 3)" in result.out
    result = run_cli("check-ruleset", str(path), "--report", "--json")
    data = json.loads(result.out)
    assert {"type": "Hero", "stat": "Fight", "change": "2 -> 3", "cost": 5} in data["report"]["stat_steps"]
    assert data["report"]["dominated"][0]["name"] == "Overpriced guard"


def test_the_report_on_a_game_with_items_inside_the_figure_cost():
    result = run_cli("check-ruleset", str(FIXTURES / "games" / "quality.toml"), "--report")
    assert result.code == 0, result.err
    assert "Troop: Quality 4 -> 5: -5" in result.out
    assert "Troop: 3 (Combat 1, Quality 6) to 75 (Combat 6, Quality 2)" in result.out
