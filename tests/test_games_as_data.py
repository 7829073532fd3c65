"""Three point-buy games of different structures written as rulesets with no tricks, their
rosters priced to totals worked out by hand."""

from __future__ import annotations

import pytest
from conftest import FIXTURES

from rosterkit.engine.costing import cost_roster, explain_lines
from rosterkit.engine.display import stat_line
from rosterkit.engine.roster import RosterFile
from rosterkit.engine.validation import validate_report
from rosterkit.errors import RosterkitError
from rosterkit.files.rulesets import compile_ruleset_text, load_ruleset_file

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


@pytest.mark.parametrize("name", ["quality", "starship", "levels"])
def test_the_games_load_without_problems(name):
    assert game(name).id == name


# ---- levels set per unit

def test_advantages_and_skills_are_taken_at_a_level_set_in_the_roster():
    rs = game("levels")
    report = price(rs, {"name": "Sir Bors", "type": "hero", "stats": {"ST": 12, "DX": 11},
                        "abilities": ["Hard to Kill:2", "Combat Reflexes"], "weapons": ["Broadsword:3", "Knife"]})
    # ST 10 * 2 = 20, DX 20 * 1 = 20; Hard to Kill 2 * 2 = 4; Combat Reflexes 15;
    # Broadsword at skill 3 = 4; Knife at skill 1 (its least) = 1: 64
    member = report.units[0].members[0]
    assert [(it.name, it.cost) for it in member.items] == [
        ("Broadsword (skill 3)", 4), ("Knife (skill 1)", 1), ("Hard to Kill (level 2)", 4), ("Combat Reflexes", 15)]
    assert report.total == 64
    assert errors(report) == []


def test_a_level_out_of_range_or_on_an_item_without_levels_is_reported():
    rs = game("levels")
    report = price(rs, {"name": "X", "type": "hero", "abilities": ["Hard to Kill:9", "Combat Reflexes:2"]})
    messages = [f.message for f in validate_report(report).errors]
    assert "ability 'Hard to Kill:9': level 9 is out of range (1 to 5)" in messages
    assert "ability 'Combat Reflexes:2': 'Combat Reflexes' is not taken at a level; list it as 'Combat Reflexes'" \
        in messages


def test_has_sees_an_item_taken_at_a_level():
    text = (GAMES / "levels.toml").read_text().replace('{ label = "Dexterity", expr = "20 * (DX - 10)" },',
                                                      '{ label = "Dexterity", expr = "20 * (DX - 10)" },\n'
                                                      '  { label = "Tough", expr = "100 * has(\'Hard to Kill\')" },')
    rs = compile_ruleset_text(text, "levels.toml")
    report = price(rs, {"name": "X", "type": "hero", "abilities": ["Hard to Kill:3"]})
    assert report.total == 106


def test_named_values_serve_the_item_formulas_and_sums_see_the_level():
    text = (GAMES / "levels.toml").read_text().replace(
        'ability_cost = "per_level * level"',
        'ability_cost = "levelled"\nability_values = { base = "per_level * level", levelled = "base + base // 4" }')
    text += '''
[[derived]]
id = "advantages"
label = "Advantages"
expr = "sum_items('abilities', 'levelled')"
show = true
'''
    rs = compile_ruleset_text(text, "levels.toml")
    report = price(rs, {"name": "X", "type": "hero", "abilities": ["Hard to Kill:4"]})
    # base 2 * 4 = 8, levelled 8 + 2 = 10
    assert report.total == 10
    assert report.units[0].members[0].derived["advantages"] == 10
    with pytest.raises(RosterkitError) as exc:
        compile_ruleset_text(text.replace('"base + base // 4"', '"base + bsae // 4"'), "levels.toml")
    assert "did you mean 'base'?" in exc.value.problems[0].render()


# ---- repeated items shown with their count

def test_a_repeated_item_is_shown_with_its_count_in_text_cost_and_cards():
    from rosterkit.cards.content import CardBuilder
    from rosterkit.engine.textlist import roster_text

    rs = game("starship")
    report = price(rs, {"name": "Frigate", "type": "ship", "stats": {"mass": 20},
                        "weapons": ["Beam-1", "Beam-1", "Beam-1"], "equipment": ["Screen"]})
    assert "Frigate [63 pts]: 3x Beam-1, Screen" in roster_text(report)
    assert ("  + weapon: 3x Beam-1", "18 (6 each, the weapon formula: 3 * 2)") in explain_lines(report.units[0], rs)
    card = next(CardBuilder(report, "unit", []).cards())
    assert [row[1][0] for row in card.weapons.rows] == ["3x Beam-1"]
    assert [e.name for e in card.equipment] == ["Screen"]


def test_weapon_columns_read_the_figures_values_where_the_weapon_has_none():
    from rosterkit.cards.content import CardBuilder

    text = (GAMES / "starship.toml").read_text() + '''
weapon_columns = [
  { label = "Weapon", show = "{name}" },
  { label = "Share of the load", show = "{mass}/{mass_used}" },
]
'''
    rs = compile_ruleset_text(text, "starship.toml")
    report = price(rs, {"name": "Frigate", "type": "ship", "stats": {"mass": 20},
                        "weapons": ["Beam-1", "Torpedo"], "equipment": ["Screen"]})
    card = next(CardBuilder(report, "unit", []).cards())
    # the weapon's own mass, then the figure's mass used (2 + 3 + 4)
    assert [row[1] for row in card.weapons.rows] == [("Beam-1", "2/9"), ("Torpedo", "3/9")]
