"""The ruleset language: copies counted, names inside function arguments checked when the
ruleset loads, sums over a figure's items, exact fractions in limits."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rosterkit.engine.costing import cost_roster
from rosterkit.engine.roster import RosterFile
from rosterkit.engine.validation import validate_report
from rosterkit.errors import RosterkitError
from rosterkit.files.rulesets import compile_ruleset_text

SHIPS = '''
id = "ships"
name = "Ships"
[source]
title = "Ships"

[[stats]]
id = "mass"
label = "Mass"
default = 10

[[weapon_stats]]
id = "mass"
label = "Mass"
default = 1

[[types]]
id = "ship"
name = "Ship"

[formulas]
figure_cost = "mass * 2 + has('Beam-1') * 5"

[[derived]]
id = "used"
label = "Mass used"
expr = "sum_items('weapons', 'mass')"
show = true

[[weapons]]
name = "Beam-1"
cost = 3
stats = { mass = 2 }

[[weapons]]
name = "Torpedo"
cost = 4
stats = { mass = 3 }

[[limits]]
id = "mass-budget"
label = "Mass budget"
scope = "figure"
measure = "sum_items('weapons', 'mass') - mass"
at_most = 0
message = "{sum_items('weapons', 'mass')} mass used of {mass}"

[[limits]]
id = "beams"
label = "Beams"
scope = "unit"
check = "sum_items('weapons', 'mass * 0 + 1') <= 5"
message = "at most five weapons"

[[limits]]
id = "fleet-mass"
label = "Fleet mass"
measure = "sum_items('weapons', 'mass')"
at_most = 12
message = "the fleet's weapons weigh {value}"
'''


def ship(weapons, mass=10, count=1):
    return {"name": "S", "type": "ship", "count": count, "stats": {"mass": mass}, "weapons": weapons}


def price(rs, *units):
    roster = RosterFile.model_validate({"name": "R", "ruleset": rs.id, "units": list(units)})
    return cost_roster(rs, roster)


def rules(report):
    return sorted(f.rule for f in validate_report(report).findings if f.severity == "error")


def test_has_counts_copies():
    rs = compile_ruleset_text(SHIPS, "ships.toml")
    report = price(rs, ship(["Beam-1", "Beam-1", "Beam-1"]))
    member = report.units[0].members[0]
    # 10 * 2 + 3 copies * 5, then three beams at 3
    assert member.figure_cost == 35
    assert report.total == 44


def test_a_sum_over_the_items_is_a_derived_value_and_a_limit():
    rs = compile_ruleset_text(SHIPS, "ships.toml")
    report = price(rs, ship(["Beam-1", "Beam-1", "Torpedo"]))
    assert report.units[0].members[0].derived["used"] == 7
    assert rules(report) == []
    heavy = price(rs, ship(["Torpedo", "Torpedo", "Torpedo", "Beam-1"]))  # 11 of 10
    assert rules(heavy) == ["mass-budget"]
    assert "11 mass used of 10" in next(f.message for f in validate_report(heavy).findings if f.rule == "mass-budget")


def test_sums_over_items_in_unit_and_army_limits_count_every_figure():
    rs = compile_ruleset_text(SHIPS, "ships.toml")
    assert rules(price(rs, ship(["Beam-1"], count=5))) == []
    assert rules(price(rs, ship(["Beam-1", "Beam-1"], count=3))) == ["beams"]
    # 2 figures x 2 beams x mass 2 = 8 for the fleet, and one torpedo (3) or two (6)
    assert rules(price(rs, ship(["Beam-1", "Beam-1"], count=2), ship(["Torpedo"]))) == []
    assert rules(price(rs, ship(["Beam-1", "Beam-1"], count=2), ship(["Torpedo", "Torpedo"]))) == ["fleet-mass"]


@pytest.mark.parametrize("old, new, message, caret", [
    ("has('Beam-1')", "has('Beam-2')", "unknown item 'Beam-2' in has()", "did you mean 'Beam-1'?"),
    ("sum_items('weapons', 'mass')\"\nshow", "sum_items('weapons', 'mas')\"\nshow", "unknown name 'mas'",
     "did you mean 'mass'?"),
    ("sum_items('weapons', 'mass')\"\nshow", "sum_items('weapon', 'mass')\"\nshow",
     "takes a kind of item in quotes first", "did you mean 'weapons'?"),
])
def test_names_inside_function_arguments_are_checked_when_the_ruleset_loads(old, new, message, caret):
    assert old in SHIPS
    with pytest.raises(RosterkitError) as exc:
        compile_ruleset_text(SHIPS.replace(old, new, 1), "ships.toml")
    problem = exc.value.problems[0]
    rendered = problem.render()
    assert message in rendered and caret in rendered, rendered
    assert problem.column is not None and "^" in rendered


def test_the_caret_points_at_the_misspelled_name():
    text = SHIPS.replace("has('Beam-1')", "has('Leadr')")
    with pytest.raises(RosterkitError) as exc:
        compile_ruleset_text(text, "ships.toml")
    problem = exc.value.problems[0]
    assert problem.source[problem.column:].startswith("'Leadr'")
    text = SHIPS.replace("sum_items('weapons', 'mass')\"\nshow", "sum_items('weapons', 'mass + spd')\"\nshow")
    with pytest.raises(RosterkitError) as exc:
        compile_ruleset_text(text, "ships.toml")
    problem = exc.value.problems[0]
    assert problem.source[problem.column:].startswith("spd")


SHARE = '''
id = "share"
name = "Share"
[source]
title = "Share"

[[stats]]
id = "points"
label = "Points"
default = 1

[[types]]
id = "hero"
name = "Hero"

[[types]]
id = "troop"
name = "Troop"

[formulas]
figure_cost = "points"

[[limits]]
id = "heroes"
label = "Heroes"
measure = "points('hero') / total"
at_most = "1/3"
message = "heroes are {pct(value)}: remove {points_to_remove(bound, 'hero')} points of heroes"
'''


def unit(type_, points):
    return {"name": type_, "type": type_, "stats": {"points": points}}


def test_a_fraction_written_as_text_is_exact():
    rs = compile_ruleset_text(SHARE, "share.toml")
    assert rules(price(rs, unit("hero", 100), unit("troop", 200))) == []
    broken = validate_report(price(rs, unit("hero", 101), unit("troop", 200)))
    assert [f.rule for f in broken.errors] == ["heroes"]
    # (101 - y) / (301 - y) <= 1/3: y = 1
    assert "remove 1 points of heroes" in broken.errors[0].message
    assert broken.limits[0].at_most == Fraction(1, 3)


@pytest.mark.parametrize("written, message", [
    ('"1/0"', "divides by zero"),
    ('"a third"', "is not a number"),
    ('"1e999/3"', "too large a power of ten"),
    ('"1/2/3"', "more than one '/'"),
])
def test_a_bad_fraction_is_a_clear_message(written, message):
    with pytest.raises(RosterkitError) as exc:
        compile_ruleset_text(SHARE.replace('"1/3"', written), "share.toml")
    rendered = "\n".join(p.render() for p in exc.value.problems)
    assert message in rendered and "at_most" in rendered, rendered


def test_a_limit_with_both_a_measure_and_a_check_is_refused():
    text = SHARE.replace('at_most = "1/3"', 'at_most = "1/3"\ncheck = "total > 0"')
    with pytest.raises(RosterkitError) as exc:
        compile_ruleset_text(text, "share.toml")
    assert "not both" in exc.value.problems[0].render()


def test_figure_limits_read_the_figure_cost_and_unit_limits_the_type_parameters():
    text = SHIPS.replace('''[[types]]
id = "ship"
name = "Ship"''', '''[[types]]
id = "ship"
name = "Ship"
params = { max_ships = 2 }''') + '''
[[limits]]
id = "dear"
label = "Dear"
scope = "figure"
check = "per_figure <= 40 and figure_cost <= 30"
message = "{figure_cost} for the hull, {per_figure} in all"

[[limits]]
id = "squadron"
label = "Squadron"
scope = "unit"
check = "figures <= max_ships"
message = "at most {max_ships}"
'''
    rs = compile_ruleset_text(text, "ships.toml")
    assert rules(price(rs, ship(["Torpedo"], count=2))) == []  # 20 + 4 = 24 each
    assert rules(price(rs, ship(["Torpedo"], count=3))) == ["squadron"]
    report = price(rs, ship(["Torpedo"] * 3, mass=9))  # 18 + 12 = 30; mass 9 holds 9
    assert rules(report) == []
    # 12 * 2 + 2 beams * 5 = 34 for the hull, then 3 + 3 + 4 for the weapons: 44
    report = price(rs, ship(["Beam-1"] * 2 + ["Torpedo"], mass=12))
    assert rules(report) == ["dear"]
    assert "34 for the hull, 44 in all" in validate_report(report).errors[0].message


def test_the_same_quotes_inside_a_condition_get_a_clear_message():
    text = SHIPS.replace("""check = "sum_items('weapons', 'mass * 0 + 1') <= 5\"""",
                         """check = '''items('weapons', 'name == 'Beam-1'') <= 5'''""")
    assert text != SHIPS
    with pytest.raises(RosterkitError) as exc:
        compile_ruleset_text(text, "ships.toml")
    rendered = exc.value.problems[0].render()
    assert "text in quotes inside text in the same quotes" in rendered and "forgot a comma" not in rendered
    ok = SHIPS.replace("""check = "sum_items('weapons', 'mass * 0 + 1') <= 5\"""",
                       """check = '''sum_items('weapons', 'mass') <= 5 and pct(1) != "x"'''""")
    assert compile_ruleset_text(ok, "ships.toml")


def test_an_items_own_cost_formula_sees_what_the_figure_holds():
    text = SHIPS + '''
[[equipment]]
name = "Fire control"
cost_formula = "2 * has('Beam-1') + sum_items('weapons', 'mass')"
'''
    rs = compile_ruleset_text(text, "ships.toml")
    report = price(rs, dict(ship(["Beam-1", "Beam-1", "Torpedo"]), equipment=["Fire control"]))
    items = {it.name: it.cost for it in report.units[0].members[0].items}
    # two beams: 2 * 2, and 2 + 2 + 3 mass
    assert items["Fire control"] == 11
    assert [f for f in report.findings if f.severity == "error"] == []


def test_an_items_own_cost_formula_reads_the_items_stats_and_refuses_a_name_both_have():
    text = SHIPS + '''
[[equipment_stats]]
id = "power"
label = "Power"
default = 1

[[equipment]]
name = "Shield generator"
stats = { power = 3 }
cost_formula = "power * mass"
'''
    rs = compile_ruleset_text(text, "ships.toml")
    report = price(rs, dict(ship([], mass=12), equipment=["Shield generator"]))
    # the generator's power 3 times the ship's mass 12
    assert report.units[0].members[0].items[0].cost == 36
    both = text.replace('cost = 4\nstats = { mass = 3 }', 'cost_formula = "mass * 2"\nstats = { mass = 3 }')
    assert both != text
    with pytest.raises(RosterkitError) as exc:
        compile_ruleset_text(both, "ships.toml")
    assert "'mass' is both the figure's and the weapon's here" in exc.value.problems[0].render()
