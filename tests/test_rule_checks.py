"""Rules the texts state about what a figure carries and what a unit is made of.

The format: limits checked on each kind of figure (``scope = "figure"``) with ``items()``
and ``item_names()`` over the weapons, abilities and equipment it holds, and
``differing()`` for units whose figures must be alike. The rulesets: ARES's weapon rules
(Chapter One, Weapons; Chapter Eight), the fast universal wargame's units (Basing and
Stats; Vehicles). Each rule has fixture rosters at its boundary in tests/fixtures/rosters:
the last allowed case passes, the first forbidden one fails.
"""

from __future__ import annotations

import json

import pytest
from conftest import FIXTURES, load, run_cli

from rosterkit.engine.costing import cost_roster
from rosterkit.engine.roster import RosterFile
from rosterkit.engine.validation import validate, validate_report
from rosterkit.errors import RosterkitError
from rosterkit.files.rulesets import compile_ruleset_text

ROSTERS = FIXTURES / "rosters"

# fixture roster -> the one rule it breaks (None: valid, with no warnings either)
BOUNDARIES = {
    "ares_missile_with_ranged_die.toml": None,
    "ares_missile_without_ranged_die.toml": "missile-needs-ranged-die",
    "ares_one_missile_weapon.toml": None,
    "ares_two_missile_weapons.toml": "one-missile-weapon",
    "ares_one_melee_weapon.toml": None,
    "ares_no_melee_weapon.toml": "melee-weapon",
    "ares_area_effect_ranged.toml": None,
    "ares_area_effect_melee.toml": "area-effect-ranged",
    "ares_chain_melee.toml": None,
    "ares_chain_ranged.toml": "chain-melee",
    "fast_universal_one_vehicle.toml": None,
    "fast_universal_two_vehicles.toml": "vehicle-own-unit",
    "fast_universal_alike_members.toml": None,
    "fast_universal_mixed_members.toml": "unit-same-miniatures",
    "fast_universal_mixed_specials.toml": "unit-same-miniatures",
}


def test_every_fixture_roster_is_listed():
    assert {p.name for p in ROSTERS.glob("*.toml")} == set(BOUNDARIES)


@pytest.mark.parametrize("name, rule", sorted(BOUNDARIES.items()))
def test_boundary_rosters(name, rule):
    result = run_cli("validate", "--json", "--strict", ROSTERS / name)
    doc = json.loads(result.out)
    findings = doc["rosters"][0]["findings"]
    if rule is None:
        assert result.code == 0 and findings == [], findings
    else:
        assert result.code == 1
        assert [(f["severity"], f["rule"]) for f in findings] == [("error", rule)]
        assert findings[0]["unit"] == 0  # pointed at the unit that breaks it


# ---------------------------------------------------------------- ARES


@pytest.fixture(scope="module")
def ares():
    return load("ares")


FOOT = {"rating": 20, "wounds": 3, "move": 4, "morale": 2, "armor": "D6", "close": "D6", "magic": "D6"}


def ares_roster(*members, weapons=()):
    return RosterFile.model_validate({"name": "t", "ruleset": "ares", "weapons": list(weapons), "units": [
        {"name": "Band", "type": "Figure", "members": list(members)}]})


def test_every_book_figure_keeps_the_weapon_rules(ares):
    units = [{"name": f.name, "figure": f.name} for f in ares.data.figures]
    v = validate(ares, RosterFile.model_validate({"name": "book", "ruleset": "ares", "units": units}))
    assert v.findings == []


def test_in_a_mixed_unit_the_message_names_the_figure(ares):
    archer = {"name": "Archer", "count": 3, "stats": FOOT, "weapons": ["Dagger (D4)", "Bow (3/D8)"]}
    soldier = {"name": "Soldier", "count": 5, "stats": FOOT, "weapons": ["Sword (D8)"]}
    [finding] = validate(ares, ares_roster(soldier, archer)).findings
    assert finding.rule == "missile-needs-ranged-die"
    assert finding.message.startswith("Archer: Bow (3/D8): only a figure with a Ranged Combat die")
    assert (finding.member, finding.field) == (1, "members[1]")


@pytest.mark.parametrize("stats, severity", [(FOOT, None), ({k: v for k, v in FOOT.items() if k != "magic"},
                                                               "warning")])
def test_a_figure_without_a_magic_die_is_a_warning(ares, stats, severity):
    member = {"name": "Soldier", "stats": stats, "weapons": ["Sword (D8)"]}
    findings = validate(ares, ares_roster(member)).findings
    assert [(f.severity, f.rule) for f in findings] == ([] if severity is None else [(severity, "magic-die")])


@pytest.mark.parametrize("weapons, stats, warned", [
    (["Dagger (D4)", "Bow (3/D8)"], dict(FOOT, ranged="D8"), False),
    (["Dagger (D4)"], FOOT, True),
])
def test_snap_fire_without_a_missile_weapon_is_a_warning(ares, weapons, stats, warned):
    member = {"name": "Sniper", "stats": stats, "weapons": weapons, "abilities": ["Snap-Fire"]}
    v = validate(ares, ares_roster(member))
    assert v.ok
    assert [f.rule for f in v.findings] == (["snap-fire-missile"] if warned else [])


def test_an_unknown_weapon_is_not_counted_as_either_kind(ares):
    member = {"name": "Soldier", "stats": FOOT, "weapons": ["Sword (D8)", "Mystery"]}
    assert [f.rule for f in validate(ares, ares_roster(member)).findings] == ["unknown-weapon"]


# ---------------------------------------------------------------- fast universal


@pytest.fixture(scope="module")
def fast():
    return load("fast_universal")


HUMAN = {"dice": 1, "die": 6, "move": 6, "fight": 0, "shoot": 0, "defense": 8}


@pytest.mark.parametrize("change, differing", [
    ({}, ""),
    ({"dice": 2}, "Action dice"),
    ({"die": 8}, "Die type"),
    ({"move": 7, "defense": 9}, "Move, Defense"),
    ({"fight": 1}, "Fight"),
    ({"shoot": 1}, "Shoot"),
])
def test_a_units_miniatures_share_dice_and_stats(fast, change, differing):
    members = [{"name": "A", "count": 3, "stats": HUMAN}, {"name": "B", "count": 3, "stats": dict(HUMAN, **change)}]
    roster = RosterFile.model_validate({"name": "t", "ruleset": "fast_universal", "units": [
        {"name": "U", "type": "basic", "members": members}]})
    findings = [f for f in validate(fast, roster).findings if f.rule == "unit-same-miniatures"]
    if not differing:
        assert findings == []
    else:
        [finding] = findings
        assert f"these differ here: {differing}:" in finding.message


@pytest.mark.parametrize("count, ok", [(1, True), (2, False), (3, False)])
def test_every_vehicle_is_a_unit_of_its_own(fast, count, ok):
    roster = RosterFile.model_validate({"name": "t", "ruleset": "fast_universal", "units": [
        {"name": "Tanks", "type": "vehicle", "count": count, "stats": HUMAN}]})
    rules = [f.rule for f in validate(fast, roster).errors]
    assert ("vehicle-own-unit" not in rules) is ok


def test_other_types_may_have_many_miniatures(fast):
    roster = RosterFile.model_validate({"name": "t", "ruleset": "fast_universal", "units": [
        {"name": "Elite", "type": "elite", "count": 5, "stats": HUMAN}]})
    assert "vehicle-own-unit" not in [f.rule for f in validate(fast, roster).findings]


# ---------------------------------------------------------------- the format, on a ruleset of its own

RULESET = '''
format = 1
id = "kit"
name = "Kit"
[source]
title = "Test fixture"
[[stats]]
id = "move"
label = "Move"
default = 6
[[stats]]
id = "aim"
label = "Aim"
default = 0
[[weapon_stats]]
id = "range"
label = "Range"
default = 0
[[weapon_stats]]
id = "heavy"
label = "Heavy"
kind = "flag"
default = false
[[ability_stats]]
id = "level"
label = "Level"
default = 1
[[types]]
id = "foot"
name = "Foot"
[[types]]
id = "beast"
name = "Beast"
[formulas]
figure_cost = "move"
weapon_cost = "1"
ability_cost = "level"
[[weapons]]
name = "Sword"
[[weapons]]
name = "Bow"
stats = { range = 12 }
[[weapons]]
name = "Cannon"
stats = { range = 24, heavy = true }
[[abilities]]
name = "Strong"
[[abilities]]
name = "Mighty"
stats = { level = 3 }
[[figures]]
name = "Wolf"
type = "beast"
stats = { move = 8 }
[[figures]]
name = "Guard"
type = "foot"
stats = { move = 8 }
weapons = ["Sword"]
[[limits]]
id = "one-gun"
label = "One gun"
scope = "figure"
check = "items('weapons', 'range > 0') <= 1"
message = "{count} x {item_names('weapons', 'range > 0')}: at most one"
[[limits]]
id = "aim-for-guns"
label = "Aim"
scope = "figure"
applies_to = ["foot"]
check = "items('weapons', 'heavy') == 0 or aim >= 2"
message = "{item_names('weapons', 'heavy')} needs Aim 2"
[[limits]]
id = "gear-count"
label = "Gear"
severity = "warning"
scope = "figure"
measure = "items('weapons') + items('abilities', 'level >= 2') + has('Sword')"
at_most = 3
message = "{value} is a lot"
[[limits]]
id = "alike"
label = "Alike"
scope = "unit"
check = "differing('move', 'type', 'weapons') == ''"
message = "differ: {differing('move', 'type', 'weapons')}"
'''


@pytest.fixture(scope="module")
def kit():
    return compile_ruleset_text(RULESET, "kit.toml")


def kit_findings(kit, *members, type_="foot"):
    unit = {"name": "U", "members": list(members)}
    if type_:
        unit["type"] = type_
    roster = RosterFile.model_validate({"name": "t", "ruleset": "kit", "units": [unit]})
    return [(f.rule, f.message) for f in validate_report(cost_roster(kit, roster)).findings]


def test_items_counts_the_items_meeting_a_condition(kit):
    assert kit_findings(kit, {"name": "A", "count": 2, "weapons": ["Sword", "Bow"]}) == []
    assert kit_findings(kit, {"name": "A", "count": 2, "weapons": ["Bow", "Cannon"], "stats": {"aim": 2}}) == [
        ("one-gun", "2 x Bow, Cannon: at most one")]


@pytest.mark.parametrize("aim, type_, broken", [(1, "foot", True), (2, "foot", False), (0, "beast", False)])
def test_a_figure_limit_applies_to_its_types_and_sees_the_figures_stats(kit, aim, type_, broken):
    found = kit_findings(kit, {"name": "A", "weapons": ["Cannon"], "stats": {"aim": aim}}, type_=type_)
    assert (("aim-for-guns", "Cannon needs Aim 2") in found) is broken


@pytest.mark.parametrize("weapons, abilities, warned", [
    (["Sword", "Bow"], ["Strong"], False),            # 2 weapons + 0 + has(Sword) 1 = 3
    (["Sword", "Bow"], ["Mighty"], True),             # 2 + 1 + 1 = 4
    (["Bow"], ["Mighty", "Strong"], False),           # 1 + 1 + 0 = 2
])
def test_items_without_a_condition_counts_them_all(kit, weapons, abilities, warned):
    found = kit_findings(kit, {"name": "A", "weapons": weapons, "abilities": abilities})
    assert (("gear-count", "4 is a lot") in found) is warned


def test_differing_names_what_differs(kit):
    a = {"name": "A", "weapons": ["Sword"]}
    assert kit_findings(kit, a, dict(a, name="B")) == []
    assert kit_findings(kit, a, dict(a, name="B", weapons=["Bow"])) == [("alike", "differ: weapons")]
    assert kit_findings(kit, a, dict(a, name="B", stats={"move": 5})) == [("alike", "differ: Move")]
    # without a unit type each catalogue figure brings its own
    assert kit_findings(kit, {"name": "Wolf", "figure": "Wolf"}, dict(a, figure="Wolf", stats={"move": 8}),
                        type_=None) == [("alike", "differ: weapons")]
    wolf, guard = {"name": "Wolf", "figure": "Wolf", "weapons": ["Sword"]}, {"name": "Guard", "figure": "Guard"}
    assert kit_findings(kit, wolf, guard, type_=None) == [("alike", "differ: type")]


@pytest.mark.parametrize("old, new, message", [
    ("items('weapons', 'range > 0') <= 1", "items('swords', 'range > 0') <= 1",
     "items() takes a kind of item in quotes first"),
    ("items('weapons', 'range > 0') <= 1", "items('weapons', move) <= 1",
     "items(): the condition must be a formula in quotes"),
    ("items('weapons', 'range > 0') <= 1", "items('weapons', 'reach > 0') <= 1", "unknown name 'reach'"),
    ("items('weapons', 'range > 0') <= 1", "items('weapons', 'range >') <= 1", "syntax error"),
    ("differing('move', 'type', 'weapons') == ''", "differing('mvoe') == ''", "'mvoe' is none of them"),
    ('scope = "figure"\ncheck = "items', 'scope = "unit"\ncheck = "items', "unknown function 'items'"),
])
def test_mistakes_in_the_new_functions_are_reported_when_the_ruleset_loads(old, new, message):
    assert old in RULESET
    with pytest.raises(RosterkitError) as exc:
        compile_ruleset_text(RULESET.replace(old, new, 1), "kit.toml")
    rendered = "\n".join(p.render() for p in exc.value.problems)
    assert message in rendered, rendered


def test_figure_limits_show_in_the_limit_states(kit):
    roster = RosterFile.model_validate({"name": "t", "ruleset": "kit", "units": [
        {"name": "U", "type": "foot", "weapons": ["Bow", "Cannon"], "stats": {"aim": 2}}]})
    v = validate_report(cost_roster(kit, roster))
    state = next(s for s in v.limits if s.id == "one-gun")
    assert not state.ok and state.message == "1 kind of figure breaks this"


@pytest.mark.parametrize("ruleset_id", ["ares", "fast_universal", "for_the_masses", "lego_combat", "heroic_gods"])
def test_every_limit_says_where_it_comes_from_and_why_its_severity(ruleset_id):
    rs = load(ruleset_id)
    for spec in [*rs.data.limits, *rs.data.matchup]:
        assert spec.description, f"{ruleset_id}: limit '{spec.id}' has no description"
