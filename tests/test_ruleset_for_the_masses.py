"""For the Masses (Majestic Twelve Games, 2004): the published numbers, the record card and the limits."""

from __future__ import annotations

import json

import pytest
from conftest import RULESETS, SAMPLES, cost_sample, load

from rosterkit.engine.costing import cost_roster
from rosterkit.engine.display import card_env, stat_line
from rosterkit.engine.roster import RosterFile
from rosterkit.engine.validation import validate

RULESET = RULESETS / "for_the_masses.toml"
CARD_LABELS = ["Mv", "Att", "Rng", "Def", "Wnd", "Mor", "ME", "CP"]

# The totals printed with the sample game's force lists.
PRINTED_ORC_TOTAL = 966
PRINTED_ALVERNAN_TOTAL = 1000
PRINTED_CHAMPION_IN_FORCE_LIST = 98
PRINTED_MEN_AT_ARMS_LINE = 912


@pytest.fixture(scope="module")
def rs():
    return load("for_the_masses")


def roster(*units: dict, limit=None) -> RosterFile:
    return RosterFile.model_validate({"name": "test", "ruleset": "for_the_masses", "points_limit": limit,
                                      "units": list(units)})


def general(figure: str = "Orc Chief, on foot") -> dict:
    return {"name": "General", "figure": figure, "stats": {"general": True}}


def rules_broken(rs, r: RosterFile, severity: str = "error") -> list[str]:
    return [f.rule for f in validate(rs, r).findings if f.severity == severity]


# ---------------------------------------------------------------- published costs


@pytest.mark.parametrize("figure, cost", [
    ("Men at Arms", 38),
    ("Orc Warriors", 54),
    ("Orc Chief, on foot", 156),
    ("Order Champion", 209),
])
def test_published_cost_per_element(rs, figure, cost):
    assert rs.find_figure(figure).cost == cost
    report = cost_roster(rs, roster({"name": figure, "figure": figure, "count": 1}))
    assert report.units[0].members[0].per_figure == cost
    assert report.total == cost


@pytest.mark.parametrize("figure, elements, total", [
    ("Orc Warriors", 5, 270),    # one unit of the sample Orc force
    ("Men at Arms", 8, 304),     # one unit of the sample Alvernan force
    ("Orc Warriors", 12, 648),
])
def test_unit_cost_is_elements_times_cost_per_element(rs, figure, elements, total):
    report = cost_roster(rs, roster({"name": "u", "figure": figure, "count": elements}))
    assert report.units[0].figures == elements
    assert report.total == total


def test_own_unit_is_priced_from_the_entered_cost_per_element(rs):
    unit = {"name": "Spearmen", "type": "infantry", "count": 10,
            "stats": {"mv": 4, "att": "2d6", "defense": 2, "wnd": 3, "mor": 6, "element_cost": 25}}
    assert cost_roster(rs, roster(unit)).total == 250


def test_cost_per_element_must_be_entered_when_the_text_prints_none(rs):
    unpriced = {"name": "Light horse", "figure": "Light cavalry with bows and hand weapons"}
    findings = validate(rs, roster(general(), unpriced)).findings
    missing = [f for f in findings if f.rule == "missing-stat"]
    assert [f.field for f in missing] == ["stats.element_cost"]
    assert "not in the text" in missing[0].message
    priced = dict(unpriced, stats={"element_cost": 20})
    report = cost_roster(rs, roster(general(), priced))
    assert report.units[1].total == 7 * 20
    assert validate(rs, roster(general(), priced)).ok


# ---------------------------------------------------------------- the sample game's forces


def test_orc_force_matches_its_printed_total():
    _, report = cost_sample("for_the_masses_orc_warband.toml")
    assert [u.total for u in report.units] == [156, 270, 270, 270]
    assert report.by_type["infantry"] == 810 == 3 * 5 * 54
    assert report.total == PRINTED_ORC_TOTAL == 966


def test_alvernan_force_total_differs_from_the_printed_1000():
    """The book prints 1,000; its cards give 912 + 209 = 1,121 (121 more), and the force
    list's own 98 for the Order Champion would give 1,010. Neither matches 1,000."""
    _, report = cost_sample("for_the_masses_alvernan_host.toml")
    assert [u.total for u in report.units] == [209, 304, 304, 304]
    assert report.by_type["infantry"] == PRINTED_MEN_AT_ARMS_LINE == 3 * 8 * 38
    assert report.total == 1121
    assert report.total - PRINTED_ALVERNAN_TOTAL == 121
    assert PRINTED_MEN_AT_ARMS_LINE + PRINTED_CHAMPION_IN_FORCE_LIST == 1010 != PRINTED_ALVERNAN_TOTAL


@pytest.mark.parametrize("sample, general_name", [
    ("for_the_masses_orc_warband.toml", "Orc Chief"),
    ("for_the_masses_alvernan_host.toml", "Order Champion"),
])
def test_each_sample_force_has_one_personality_as_general(sample, general_name):
    rs, report = cost_sample(sample)
    generals = [u for u in report.units if u.members[0].stats["general"]]
    assert [(u.name, u.type_id) for u in generals] == [(general_name, "personality")]
    assert validate(rs, report.roster).ok


# ---------------------------------------------------------------- the unit record card


def test_card_columns_are_the_books(rs):
    assert [label for label, _ in rs.card_columns] == CARD_LABELS


@pytest.mark.parametrize("figure, elements, line", [
    ("Men at Arms", 8, ["4", "2d6", "-/-", "2", "3", "7+", "-", "-"]),
    ("Orc Warriors", 5, ["5", "2d8", "-/-", "2", "4", "7+", "-", "-"]),
    ("Order Champion", 1, ["6", "3d8", "-/-", "3", "6", "-", "-", "d8"]),
    ("Orc Chief, on foot", 1, ["5", "2d10", "-/-", "2", "6", "-", "-", "2d6"]),
    ("Light cavalry with bows and hand weapons", 7, ["9", "2d4", "d8/10", "0", "5", "4+", "-", "-"]),
    ("Heavy cavalry with hand weapons", 6, ["8", "2d10", "-/-", "1", "6", "5+", "-", "-"]),
    ("Cavalry with hand weapons", 12, ["8", "2d4", "d4/10", "0", "5", "5+", "-", "-"]),
])
def test_catalogue_card_line_and_default_size(rs, figure, elements, line):
    assert rs.find_figure(figure).count == elements
    report = cost_roster(rs, roster({"name": figure, "figure": figure}))
    unit = report.units[0]
    assert unit.figures == elements
    assert stat_line(rs, unit, unit.members[0]) == list(zip(CARD_LABELS, line))


@pytest.mark.parametrize("figure, elements, wounds", [
    ("Men at Arms", 8, 24),
    ("Orc Warriors", 5, 20),
    ("Order Champion", 1, 6),
    ("Orc Warriors", 12, 48),
])
def test_wounds_track_is_elements_times_wounds_per_element(rs, figure, elements, wounds):
    report = cost_roster(rs, roster({"name": "u", "figure": figure, "count": elements}))
    unit = report.units[0]
    assert unit.derived["unit_wounds"] == wounds
    assert rs.card_track.evaluate(card_env(unit, unit.members[0]), None, "test") == wounds


# ---------------------------------------------------------------- limits


@pytest.mark.parametrize("elements, ok", [(1, True), (12, True), (13, False), (20, False)])
def test_a_unit_has_at_most_12_elements(rs, elements, ok):
    r = roster(general(), {"name": "Horde", "figure": "Orc Warriors", "count": elements})
    broken = rules_broken(rs, r)
    assert ("unit-elements-max" not in broken) is ok
    assert validate(rs, r).ok is ok


@pytest.mark.parametrize("generals, broken", [
    (0, ["general-missing"]),
    (1, []),
    (2, ["general-several"]),
    (3, ["general-several"]),
])
def test_exactly_one_general(rs, generals, broken):
    units = [dict(general(), name=f"Chief {i}") for i in range(generals)]
    units.append({"name": "Warriors", "figure": "Orc Warriors"})
    units.append({"name": "Second chief", "figure": "Orc Chief, on foot"})  # a personality, not General
    # one General comes only from the sample force lists: a warning, never an error
    assert rules_broken(rs, roster(*units), "warning") == broken
    assert rules_broken(rs, roster(*units)) == []


@pytest.mark.parametrize("generals, words", [(0, "no General"), (2, "2 units are marked as General")])
def test_general_messages_say_what_is_wrong(rs, generals, words):
    units = [dict(general(), name=f"Chief {i}") for i in range(generals)] or [
        {"name": "Chief", "figure": "Orc Chief, on foot"}]
    v = validate(rs, roster(*units))
    messages = [f.message for f in v.findings if f.severity == "warning"]
    assert len(messages) == 1 and words in messages[0]
    assert v.ok


def test_only_a_personality_can_be_general(rs):
    r = roster({"name": "Warriors", "figure": "Orc Warriors", "stats": {"general": True}})
    assert rules_broken(rs, r, "warning") == ["general-personality"]
    assert rules_broken(rs, r) == []


@pytest.mark.parametrize("rule, severity", [
    ("unit-elements-max", "error"),       # stated as a rule (with the Regroup action, for any unit)
    ("general-missing", "warning"),       # only from the sample force lists
    ("general-several", "warning"),
    ("general-personality", "warning"),
    ("personality-single", "warning"),    # our reading of the printed personalities
])
def test_each_limit_has_the_severity_of_its_source_and_says_why(rs, rule, severity):
    spec = next(lim.spec for lim in rs.limits if lim.spec.id == rule)
    assert spec.severity == severity
    assert spec.description  # the reading and its reason


@pytest.mark.parametrize("strict, code", [(False, 0), (True, 1)])
def test_validate_strict_fails_on_a_warning(cli, tmp_path, strict, code):
    path = tmp_path / "no_general.toml"
    path.write_text('format = 1\nname = "No general"\nruleset = "for_the_masses"\n\n'
                    '[[units]]\nname = "Chief"\nfigure = "Orc Chief, on foot"\n')
    result = cli("validate", *(["--strict"] if strict else []), path)
    assert result.code == code, result.out
    assert "general-missing" in result.out and "1 warning" in result.out
    doc = json.loads(cli("validate", "--json", *(["--strict"] if strict else []), path).out)
    assert doc["ok"] and doc["warnings"] and doc["strict"] is strict


@pytest.mark.parametrize("sample", ["for_the_masses_orc_warband.toml", "for_the_masses_alvernan_host.toml"])
def test_validate_strict_passes_a_list_without_warnings(cli, sample):
    assert cli("validate", "--strict", SAMPLES / sample).code == 0


def test_a_personality_of_several_elements_is_flagged(rs):
    r = roster(dict(general(), count=2))
    assert rules_broken(rs, r, "warning") == ["personality-single"]
    assert validate(rs, r).ok  # a warning only: the text has no explicit rule


@pytest.mark.parametrize("size, broken", [(None, []), (1, []), (3, [])])
def test_a_monster_needs_no_size(rs, size, broken):  # the text states no rule that it have one
    stats = {"mv": 4, "att": "3d10", "defense": 3, "wnd": 12, "mor": 5, "element_cost": 150}
    if size is not None:
        stats["size"] = size
    r = roster(general(), {"name": "Troll", "type": "monster", "stats": stats})
    assert rules_broken(rs, r) == broken


def test_points_limit_when_players_agree_one(rs):
    orcs = [general()] + [{"name": f"W{i}", "figure": "Orc Warriors"} for i in range(3)]
    assert validate(rs, roster(*orcs, limit=966)).ok
    assert rules_broken(rs, roster(*orcs, limit=965)) == ["points-limit"]


# ---------------------------------------------------------------- command line


@pytest.mark.parametrize("sample, total", [
    ("for_the_masses_orc_warband.toml", 966),
    ("for_the_masses_alvernan_host.toml", 1121),
])
def test_cli_validate_and_cost_valid_samples(cli, sample, total):
    result = cli("validate", SAMPLES / sample)
    assert result.code == 0, result.out + result.err
    assert "valid" in result.out
    cost = cli("cost", "--json", SAMPLES / sample)
    assert cost.code == 0
    assert json.loads(cost.out)["total"] == total


@pytest.mark.parametrize("sample, rule", [
    ("for_the_masses_INVALID_thirteen_elements.toml", "unit-elements-max"),
])
def test_cli_validate_invalid_sample(cli, sample, rule):
    result = cli("validate", "--json", SAMPLES / sample)
    assert result.code == 1
    findings = json.loads(result.out)["rosters"][0]["findings"]
    assert [(f["severity"], f["rule"]) for f in findings] == [("error", rule)]
    assert "at most 12" in findings[0]["message"]


def test_cli_check_ruleset_lists_the_order_champion_misprint(cli):
    result = cli("check-ruleset", RULESET)
    assert result.code == 0, result.err
    assert "Order Champion" in result.out and "209" in result.out and "98" in result.out
    doc = json.loads(cli("check-ruleset", "--json", RULESET).out)
    assert doc["ok"] and doc["errors"] == []
    assert [(d["name"], d["published"], d["computed"]) for d in doc["discrepancies"]] == [
        ("Order Champion", 209, 98)]
    assert doc["discrepancies"][0]["note"]  # acknowledged in the data


# ---------------------------------------------------------------- the target number


@pytest.mark.parametrize("attacker, defender, needed", [
    ("Men at Arms", "Orc Warriors", 5),         # the sample game: 11d6 against the Orcs' Defense 2 need 5
    ("Orc Chief, on foot", "Men at Arms", 7),   # d10s against the Alvernans' Defense 2 need 7
    ({"name": "d10s", "type": "infantry", "stats": {"mv": 4, "att": "2d10", "defense": 1, "wnd": 3,
                                                     "element_cost": 30}}, "Order Champion", 8),  # d10 vs Def 3
])
def test_the_target_number_is_half_the_die_plus_the_targets_defense(rs, attacker, defender, needed):
    unit = attacker if isinstance(attacker, dict) else {"name": attacker, "figure": attacker}
    report = cost_roster(rs, roster(unit, {"name": "target", "figure": defender}))
    mine = report.units[0].members[0]
    target = report.units[1].members[0]
    assert mine.derived["melee_target"] + target.stats["defense"] == needed


@pytest.mark.parametrize("figure, melee, ranged", [
    ("Men at Arms", "3 + the target's Defense", "-"),
    ("Light cavalry with bows and hand weapons", "2 + the target's Defense", "4 + the target's Defense"),
    ("Order Champion", "4 + the target's Defense", "-"),
])
def test_the_target_numbers_show_in_the_cost_breakdown_and_the_text_list(rs, cli, tmp_path, figure, melee, ranged):
    from rosterkit.engine.costing import explain_lines

    unit = {"name": "U", "figure": figure, "stats": {"element_cost": 10}}
    report = cost_roster(rs, roster(unit))
    lines = dict(explain_lines(report.units[0], rs))
    assert lines["  Melee target number"] == melee and lines["  Ranged target number"] == ranged
    path = tmp_path / "r.toml"
    path.write_text(f'format = 1\nname = "r"\nruleset = "for_the_masses"\n\n[[units]]\nname = "U"\n'
                    f'figure = "{figure}"\nstats = {{ element_cost = 10 }}\n')
    text = cli("text", path).out
    assert f"Melee target number: {melee}; Ranged target number: {ranged}" in text
    cost_line = next(x for x in cli("cost", path).out.splitlines() if "Melee target number" in x)
    assert cost_line.endswith(melee)
