"""Printed prices: a published cost is charged as printed unless the ruleset chooses its formula
for that entry (``pricing = "formula"``); either way the breakdown and check-ruleset show both."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from rosterkit.engine.checks import discrepancies
from rosterkit.engine.costing import cost_roster, explain_lines
from rosterkit.engine.roster import RosterFile
from rosterkit.errors import RosterkitError
from rosterkit.files.rulesets import compile_ruleset_text

# A tiny game: a figure costs 10 per inch of move over its divisor; the Boss's printed price
# (40) is not what the formula gives a default Boss (10 * 6 / 1 = 60); the Brute's is not
# either (printed 25, formula 30), but the ruleset charges the Brute by the formula.
RULESET = '''
format = 1
id = "tiny"
name = "Tiny"
[source]
title = "Test fixture"
[[stats]]
id = "move"
label = "Move"
min = 0
max = 12
default = 6
[[weapon_stats]]
id = "reach"
label = "Reach"
default = 0
[[types]]
id = "troop"
name = "Troop"
params = { divisor = 2 }
cost = 30
[[types]]
id = "boss"
name = "Boss"
params = { divisor = 1 }
cost = 40
note = "printed 40 in the text"
[[types]]
id = "brute"
name = "Brute"
params = { divisor = 2 }
cost = 25
pricing = "formula"
[formulas]
figure_cost = "10 * move / divisor"
weapon_cost = "5 * reach"
[[weapons]]
name = "Pike"
stats = { reach = 2 }
cost = 7
[[weapons]]
name = "Lance"
stats = { reach = 3 }
cost = 12
pricing = "formula"
'''


@pytest.fixture(scope="module")
def rs():
    return compile_ruleset_text(RULESET, "tiny.toml")


def cost(rs, type_, **fields):
    unit = {"name": "U", "type": type_, "count": 1, **fields}
    return cost_roster(rs, RosterFile.model_validate({"name": "r", "ruleset": "tiny", "units": [unit]}))


@pytest.mark.parametrize("type_, stats, expected", [
    ("troop", {}, 30),              # printed 30, the formula agrees
    ("troop", {"move": 8}, 40),     # the formula beyond the default
    ("boss", {}, 40),               # printed 40, the formula gives 60: charged 40
    ("boss", {"move": 7}, 50),      # 40 + what one more inch costs a boss (10)
    ("boss", {"move": 5}, 30),      # and less for less
    ("brute", {}, 30),              # pricing = "formula": the formula's 30, not the printed 25
])
def test_types_are_charged_their_printed_price_unless_the_ruleset_says_formula(rs, type_, stats, expected):
    report = cost(rs, type_, stats=stats)
    assert report.total == expected


def test_the_breakdown_shows_both_numbers(rs):
    u = cost(rs, "boss").units[0]
    lines = dict(explain_lines(u, rs))
    assert lines["  Figure cost by the formula"].endswith("60")
    assert lines["  Boss at its printed price"] == "-20 (printed 40; the formula gives a default Boss 60)"
    assert lines["  Figure cost"] == "40"
    assert "  Figure cost by the formula" not in dict(explain_lines(cost(rs, "troop").units[0], rs))


@pytest.mark.parametrize("weapon, charged, source, note", [
    ("Pike", 7, "published", "the formula gives 10"),
    ("Lance", 15, "formula", "printed 12; the ruleset charges the formula's 15"),
])
def test_items_are_charged_as_printed_unless_the_ruleset_says_formula(rs, weapon, charged, source, note):
    item = cost(rs, "troop", weapons=[weapon]).units[0].members[0].items[0]
    assert (item.cost, item.source, item.note) == (charged, source, note)
    assert item.printed in (7, 12)


def test_check_ruleset_lists_each_and_says_which_is_charged(rs):
    found, errors = discrepancies(rs)
    assert errors == []
    assert {(d.what, d.name, d.published, d.computed, d.charged) for d in found} == {
        ("weapon", "Pike", 7, 10, "printed"), ("weapon", "Lance", 12, 15, "formula"),
        ("type", "Boss", 40, 60, "printed"), ("type", "Brute", 25, 30, "formula")}


def test_check_ruleset_command_shows_the_charged_column(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(RULESET)
    result = run_cli("check-ruleset", path)
    assert result.code == 0, result.err
    assert "charged" in result.out
    doc = json.loads(run_cli("check-ruleset", "--json", path).out)
    assert {(d["name"], d["charged"]) for d in doc["discrepancies"]} == {
        ("Pike", "printed"), ("Lance", "formula"), ("Boss", "printed"), ("Brute", "formula")}


def test_a_type_whose_default_figure_needs_entering_is_charged_by_the_formula():
    text = RULESET.replace('default = 6\n[[weapon_stats]]', 'required = true\n[[weapon_stats]]')
    rs = compile_ruleset_text(text, "tiny.toml")
    assert cost(rs, "boss", stats={"move": 6}).total == 60  # no default figure to relate the printed 40 to


@pytest.mark.parametrize("change, message", [
    (('weapon_cost = "5 * reach"\n', ''), "'Lance' is priced by the formula, but the ruleset has no weapon_cost"),
    (('cost = 12\npricing = "formula"', 'unpriced = true\npricing = "formula"'),
     "an unpriced entry cannot be priced by the formula"),
    (('pricing = "formula"\n[formulas]', 'pricing = "guess"\n[formulas]'), "pricing"),
])
def test_pricing_mistakes_are_reported(change, message):
    text = RULESET.replace(*change)
    with pytest.raises(RosterkitError) as exc:
        compile_ruleset_text(text, "tiny.toml")
    assert message in "\n".join(p.render() for p in exc.value.problems)
