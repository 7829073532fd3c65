"""The cost breakdown is read by players: each term by its label, the working only when it is
plain arithmetic, no formula source, zero terms left out, items priced in words."""

from __future__ import annotations

import re

import pytest
from conftest import SAMPLES, cost_sample, load

from rosterkit.engine.costing import arithmetic, cost_roster, explain_lines
from rosterkit.engine.roster import RosterFile
from rosterkit.files.rulesets import compile_ruleset_text

SOURCE_MARKS = ("if ", " else", "==", "_", "formula;", "subtotal", "divisor", "figure_cost")
QUOTED = re.compile(r"'[^' ]+'")  # a text in quotes, as formulas write them ('expert'), not an apostrophe


def lines_of(rs, roster) -> list[tuple[str, str]]:
    report = cost_roster(rs, roster)
    return [line for u in report.units for line in explain_lines(u, rs)]


def assert_readable(lines):
    for label, value in lines:
        if label.strip() == "Note":
            continue  # the ruleset's own sentences
        assert not any(mark in value for mark in SOURCE_MARKS), (label, value)
        assert not QUOTED.search(value), (label, value)


@pytest.mark.parametrize("sample", sorted(p.name for p in SAMPLES.glob("*.toml")))
def test_no_formula_source_in_any_sample_breakdown(sample):
    rs, report = cost_sample(sample)
    assert_readable([line for u in report.units for line in explain_lines(u, rs)])


def roster(ruleset_id, *units, **extra):
    return RosterFile.model_validate({"name": "t", "ruleset": ruleset_id, "units": list(units), **extra})


LEGO = load("lego_combat")
FAST = load("fast_universal")


def test_zero_terms_are_left_out():
    lines = dict(lines_of(LEGO, roster("lego_combat", {"name": "Soldier", "type": "standard"})))
    assert lines["  Base soldier"] == "10"
    assert not any(k.strip().startswith(("Combat", "Resistance", "Flying", "Expert", "Attacks")) for k in lines)


@pytest.mark.parametrize("unit, label, shown", [
    ({"name": "E", "type": "expert", "stats": {"expert_bonus": "attack"}}, "  Expert bonus", "2"),
    ({"name": "W", "type": "monster", "stats": {"fly": 9}}, '  Flying (10 at 6", +/-2 per 3")', "12"),
    ({"name": "C", "type": "standard", "stats": {"combat": 2}}, "  Combat x 6", "6 * 2 = 12"),
    ({"name": "R", "type": "standard", "stats": {"resistance": 1}}, "  Resistance x 4", "4 * 1 = 4"),
])
def test_terms_show_the_working_only_when_it_is_arithmetic(unit, label, shown):
    lines = dict(lines_of(LEGO, roster("lego_combat", unit)))
    assert lines[label] == shown
    assert_readable(lines.items())


def test_items_priced_by_a_formula_say_so_in_words():
    r = roster("fast_universal", {"name": "Tank", "type": "vehicle", "count": 1,
                                  "stats": {"dice": 6, "die": 8, "move": 8, "defense": 10},
                                  "weapons": ["Laser"], "abilities": ["Rear Attack Arc"]},
               weapons=[{"name": "Laser", "stats": {"shoot": 3, "range": 12}}])
    lines = dict(lines_of(FAST, r))
    assert lines["  + weapon: Laser"] == "54 (Weapon Cost: fight x 10 + shoot x 10 + range x 2: " \
                                         "0 * 10 + 3 * 10 + 12 * 2)"
    assert lines["  + ability: Rear Attack Arc"] == "92.8 (20% of the vehicle's original cost: 0.2 * 464)"
    assert_readable(lines.items())


def test_items_at_their_printed_cost_read_as_printed():
    r = roster("fast_universal", {"name": "Gunners", "type": "elite", "count": 2,
                                  "stats": {"dice": 1, "die": 6, "move": 6, "defense": 8},
                                  "weapons": ["Machine Gun", "Pistol"]})
    lines = dict(lines_of(FAST, r))
    assert lines["  + weapon: Machine Gun"] == ("68 (as printed; the formula gives 40; our reading keeps the printed 68 and "
                                              "range 0; a range of 14 would give 68, 40 + 2 x 14)")
    assert lines["  + weapon: Pistol"] == "22 (as printed)"


def test_ares_weapons_are_covered_by_the_rating():
    rs, report = cost_sample("ares_hill_clans.toml")
    lines = dict(explain_lines(report.units[1], rs))
    assert lines["  + weapon: Crossbow (4/D10)"] == "0 (covered by the figure's Combat Rating)"


def test_a_term_marked_show_zero_is_shown_at_zero():
    rs = compile_ruleset_text('''
format = 1
id = "z"
name = "Z"
[source]
title = "Test fixture"
[[stats]]
id = "move"
label = "Move"
default = 6
[[stats]]
id = "armour"
label = "Armour"
default = 0
[[types]]
id = "troop"
name = "Troop"
[formulas.figure_cost]
terms = [
  { label = "Base", expr = "move" },
  { label = "Armour", expr = "armour * 2", show_zero = true },
  { label = "Swagger", expr = "armour * 3" },
]
''', "z.toml")
    lines = dict(lines_of(rs, roster("z", {"name": "T", "type": "troop"})))
    assert lines["  Armour"] == "0 * 2 = 0" and "  Swagger" not in lines


@pytest.mark.parametrize("text, shown", [
    ("1 * 6 * 6", "1 * 6 * 6"), ("84 / 4", "84 / 4"), ("(9 - 6) + (3 - 3)", "(9 - 6) + (3 - 3)"),
    ("2 if 'hero' == 'expert' else 0", ""), ("0.2 * figure_cost", ""), ("31/3 (≈10.33) * 2", ""), ("", ""),
])
def test_arithmetic(text, shown):
    assert arithmetic(text) == shown
