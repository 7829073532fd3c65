"""Three point-buy games of different structures written as rulesets with no tricks, their
rosters priced to totals worked out by hand."""

from __future__ import annotations

import pytest
from conftest import FIXTURES

from rosterkit.engine.costing import cost_roster, explain_lines
from rosterkit.engine.display import stat_line
from rosterkit.engine.roster import RosterFile
from rosterkit.engine.validation import validate_report
from rosterkit.files.rulesets import load_ruleset_file

GAMES = FIXTURES / "games"


def game(name):
    return load_ruleset_file(GAMES / f"{name}.toml")


def price(rs, *units):
    return cost_roster(rs, RosterFile.model_validate({"name": "R", "ruleset": rs.id, "units": list(units)}))


def errors(report):
    return sorted(f.rule for f in validate_report(report).errors)


# ---- (5 x Combat + specials) x (7 - Quality) / 2, rounded once

def test_specials_are_priced_inside_the_multiplier_and_rounded_once():
    rs = game("quality")
    report = price(
        rs,
        # (5*3 + Tough 5 + Fast 3) * (7-4) / 2 = 23 * 3 / 2 = 34.5 -> 35, five of them 175
        {"name": "Spears", "type": "troop", "count": 5, "stats": {"combat": 3, "quality": 4},
         "abilities": ["Tough", "Fast"]},
        # (5*2 + Leader 10) * (7-5) / 2 = 20
        {"name": "Captain", "type": "personality", "stats": {"combat": 2, "quality": 5}, "abilities": ["Leader"]},
        # (5*2) * 3 / 2 = 15, ten of them 150
        {"name": "Levy", "type": "troop", "count": 10},
    )
    assert [u.total for u in report.units] == [175, 20, 150]
    assert report.total == 345
    assert errors(report) == []
    lines = dict(explain_lines(report.units[0], rs))
    assert list(lines)[:4] == ["  Combat", "  + ability: Tough", "  + ability: Fast", "  Figure cost"]
    assert lines["  Figure cost"] == "35" and lines["  Per figure"] == "35"


def test_a_special_rule_listed_twice_is_charged_twice_and_refused():
    rs = game("quality")
    report = price(rs, {"name": "T", "type": "troop", "count": 10, "abilities": ["Tough", "Tough"]})
    # (10 + 5 + 5) * 3 / 2 = 30 each
    assert report.total == 300
    assert errors(report) == ["once"]


def test_personalities_are_counted_by_what_they_hold_not_by_type():
    rs = game("quality")
    # a troop holding Hero counts: (10 + 8) * 3 / 2 = 27 of 27 + 150 = 177; 27/177 is under a quarter
    ok = price(rs, {"name": "H", "type": "troop", "abilities": ["Hero"]}, {"name": "L", "type": "troop", "count": 10})
    assert ok.total == 177 and errors(ok) == []
    # two of them: 54 of 204, more than a quarter
    over = price(rs, {"name": "H", "type": "troop", "count": 2, "abilities": ["Hero"]},
                 {"name": "L", "type": "troop", "count": 10})
    assert over.total == 204 and errors(over) == ["personalities"]


# ---- a mass budget

def test_the_mass_used_is_priced_shown_on_the_card_and_in_the_breakdown():
    rs = game("starship")
    # hull 2*20 = 40; three Beam-1 at 3*2 = 6 each, 18; a Screen 4+1 = 5: 63
    report = price(rs, {"name": "Frigate", "type": "ship", "stats": {"mass": 20},
                        "weapons": ["Beam-1", "Beam-1", "Beam-1"], "equipment": ["Screen"]})
    assert report.total == 63
    unit, member = report.units[0], report.units[0].members[0]
    assert member.derived["mass_used"] == 10
    assert stat_line(rs, unit, member) == [("Mass", "10/20")]
    assert ("  Mass used", "10") in explain_lines(unit, rs)
    assert errors(report) == []


def test_a_ship_over_its_mass_budget_is_refused():
    rs = game("starship")
    report = price(rs, {"name": "Overloaded", "type": "ship", "stats": {"mass": 10},
                        "weapons": ["Torpedo", "Torpedo", "Beam-1"], "equipment": ["Screen"]})
    # 20 + 9 + 9 + 6 + 5
    assert report.total == 49
    broken = validate_report(report).errors
    assert [f.rule for f in broken] == ["mass-budget"]
    assert "12 mass used of 10" in broken[0].message


@pytest.mark.parametrize("name", ["quality", "starship"])
def test_the_games_load_without_problems(name):
    assert game(name).id == name
