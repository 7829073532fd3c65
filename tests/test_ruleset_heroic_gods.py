"""The heroic_gods ruleset: heroic skirmish rules with God chips (Hal Thinglum, MWAN #123, 2003).

Every number the article publishes is checked here: victory points 5/3/2/1, the wound
that halves every value rounding up, the nine God events each usable once, and that
only a Hero may play a God chip. Base ID numbers differing within a side is our reading (a
warning): the article numbers every base but states no rule that the numbers differ.
"""

from __future__ import annotations

import json
import math

import pytest
from conftest import RULESETS, SAMPLES, cost_sample, load

from rosterkit.engine.costing import cost_roster
from rosterkit.engine.display import extra_rows, reminder_line, stat_line
from rosterkit.engine.validation import validate
from rosterkit.files.rosters import loads_roster

RULESET = RULESETS / "heroic_gods.toml"

GOD_EVENTS = [
    "God fights",
    "Strength & courage",
    "Render an enemy helpless",
    "Deflect weapon",
    "Stop weapon",
    "Mist",
    "Rescue a hero",
    "Rescue a slain hero",
    "Heal",
]

VALID_SAMPLES = sorted(p.name for p in SAMPLES.glob("heroic_gods_*.toml") if "INVALID" not in p.name)
INVALID_SAMPLES = sorted(p.name for p in SAMPLES.glob("heroic_gods_INVALID_*.toml"))

COLUMNS = ["ID", "Rank", "A", "D", "M", "Bow", "Spear", "VP"]


@pytest.fixture(scope="module")
def rs():
    return load("heroic_gods")


def figure(name="Hero", type="hero", base_id=1, attack=6, defense=5, move=6, spear=True, bow=None):
    stats = {"base_id": base_id, "attack": attack, "defense": defense, "move": move, "spear": spear}
    if bow is not None:
        stats["bow"] = bow
    return {"name": name, "type": type, "stats": stats}


def roster(units, god_chips=0, god_events=None, extra=""):
    """A roster file's text with the given figures (dicts from figure())."""
    lines = ['format = 1', 'name = "Test side"', 'ruleset = "heroic_gods"', "", "[stats]",
             f"god_chips = {god_chips}"]
    if god_events is not None:
        lines.append("god_events = " + json.dumps(god_events))
    lines.append(extra)
    for u in units:
        stats = ", ".join(f"{k} = {json.dumps(v)}" for k, v in u["stats"].items())
        lines += ["", "[[units]]", f"name = {json.dumps(u['name'])}", f"type = {json.dumps(u['type'])}"]
        if "count" in u:
            lines.append(f"count = {u['count']}")
        lines.append(f"stats = {{ {stats} }}")
    return loads_roster("\n".join(lines) + "\n")


def rules(findings, severity=None):
    return [f.rule for f in findings if severity is None or f.severity == severity]


# ---------------------------------------------------------------- the ruleset file


def test_check_ruleset_passes(cli):
    result = cli("check-ruleset", RULESET)
    assert result.code == 0, result.out + result.err
    assert "heroic_gods" in result.out and "ok" in result.out
    assert "disagree" not in result.out  # the type values 5 and 2 agree with the formula


def test_check_ruleset_strict_finds_no_disagreement(cli):
    assert cli("check-ruleset", "--strict", RULESET).code == 0


def test_no_points_only_victory_points(rs):
    assert "victory points" in rs.data.points_label
    assert "enemy" in rs.data.points_label
    assert rs.data.card.per == "figure"


def test_missing_character_roster_is_a_documented_gap(rs):
    gaps = [n for n in rs.data.notes if n.startswith("GAP")]
    assert any("Character Names and Values Roster" in n for n in gaps)
    assert any("God chips" in n for n in gaps)
    # the article names no character with values, so there is nothing to put in the catalogue
    assert rs.data.figures == []


@pytest.mark.parametrize("sid", ["base_id", "attack", "defense", "move", "spear"])
def test_values_from_the_missing_roster_must_be_entered(rs, sid):
    units = [figure()]
    del units[0]["stats"][sid]
    v = validate(rs, roster(units))
    missing = [f for f in v.errors if f.rule == "missing-stat"]
    assert [f.field for f in missing] == [f"stats.{sid}"]
    assert rs.stats[sid].label in missing[0].message


def test_bow_is_optional(rs):
    v = validate(rs, roster([figure(bow=None)]))
    assert v.ok, v.findings
    assert not any(f.field == "stats.bow" for f in v.findings)


def test_god_chips_must_be_entered(rs):
    r = loads_roster('format = 1\nname = "x"\nruleset = "heroic_gods"\n\n[[units]]\nname = "Hector"\n'
                     'type = "hero"\nstats = { base_id = 1, attack = 6, defense = 5, move = 6, spear = true }\n')
    v = validate(rs, r)
    assert [(f.rule, f.field) for f in v.errors] == [("missing-stat", "stats.god_chips")]


# ---------------------------------------------------------------- victory points


@pytest.mark.parametrize("type_name, killed, wounded", [
    ("hero", 5, 3),
    ("Hero", 5, 3),
    ("Heroes", 5, 3),
    ("common", 2, 1),
    ("Common soldier", 2, 1),
    ("Soldier", 2, 1),
])
def test_victory_points_per_figure(rs, type_name, killed, wounded):
    report = cost_roster(rs, roster([figure(type=type_name)]))
    unit = report.units[0]
    member = unit.members[0]
    assert member.per_figure == killed
    assert member.derived["wounded_value"] == wounded
    assert unit.derived["unit_wounded_value"] == wounded
    assert report.total == killed
    # the card shows both: VP column on the normal line, the wounded value on the wounded line
    assert dict(stat_line(rs, unit, member))["VP"] == str(killed)
    (label, values), = extra_rows(rs, unit, member)
    assert label == "Wounded"
    assert values[COLUMNS.index("VP")] == str(wounded)
    # a card says both on its reminder line, out of its band (the column is for text lists)
    assert reminder_line(rs, unit, member).endswith(f"VP to enemy: {killed} slain, {wounded} wounded")


@pytest.mark.parametrize("heroes, commons, total", [
    (0, 1, 2),
    (1, 0, 5),
    (1, 1, 7),
    (2, 3, 16),
    (3, 4, 23),
    (5, 10, 45),
])
def test_side_total_is_every_figure_killed(rs, heroes, commons, total):
    units = [figure(f"Hero {i}", "hero", base_id=i + 1) for i in range(heroes)]
    units += [figure(f"Soldier {i}", "common", base_id=100 + i) for i in range(commons)]
    report = cost_roster(rs, roster(units, god_chips=1 if heroes else 0))
    assert report.total == total
    assert report.by_type == {"hero": 5 * heroes, "common": 2 * commons}


@pytest.mark.parametrize("sample, total", [
    ("heroic_gods_achaeans.toml", 23),
    ("heroic_gods_trojans.toml", 23),
    ("heroic_gods_warning_chips_without_hero.toml", 6),
    ("heroic_gods_warning_duplicate_base_ids.toml", 9),
])
def test_sample_totals(sample, total):
    _, report = cost_sample(sample)
    assert report.total == total


def test_cost_command_labels_victory_points(cli):
    result = cli("cost", SAMPLES / "heroic_gods_achaeans.toml")
    assert result.code == 0
    assert "Victory points for the enemy if killed" in result.out
    assert "Victory points for the enemy if wounded" in result.out
    assert "23" in result.out


# ---------------------------------------------------------------- wounds halve, rounding up


@pytest.mark.parametrize("value, halved", [
    (0, 0), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3), (7, 4), (8, 4), (9, 5), (10, 5),
    (11, 6), (12, 6), (15, 8), (24, 12),
])
def test_wound_halves_every_value_rounding_up(rs, value, halved):
    assert halved == math.ceil(value / 2)  # the table itself is the article's rule
    bow = value if value >= 1 else None
    report = cost_roster(rs, roster([figure(attack=value, defense=value, move=value, bow=bow)]))
    unit = report.units[0]
    member = unit.members[0]
    normal = dict(stat_line(rs, unit, member))
    (label, values), = extra_rows(rs, unit, member)
    wounded = dict(zip(COLUMNS, values))
    assert label == "Wounded"
    for col in ("A", "D", "M"):
        assert normal[col] == str(value)
        assert wounded[col] == str(halved)
    assert wounded["Bow"] == (str(halved) if bow else "-")


@pytest.mark.parametrize("attack, defense, move, bow, wounded", [
    (8, 7, 6, None, ["4", "4", "3", "-"]),
    (4, 5, 6, 6, ["2", "3", "3", "3"]),
    (2, 3, 6, 4, ["1", "2", "3", "2"]),
    (1, 1, 1, 1, ["1", "1", "1", "1"]),
])
def test_wounded_line_for_figures(rs, attack, defense, move, bow, wounded):
    report = cost_roster(rs, roster([figure(attack=attack, defense=defense, move=move, bow=bow)]))
    unit = report.units[0]
    (_, values), = extra_rows(rs, unit, unit.members[0])
    assert values[2:6] == wounded


def test_card_columns_and_wounded_row(rs):
    rs_, report = cost_sample("heroic_gods_achaeans.toml")
    lines = {u.name: (stat_line(rs_, u, u.members[0]), extra_rows(rs_, u, u.members[0])) for u in report.units}
    line, rows = lines["Teucer"]
    assert [label for label, _ in line] == COLUMNS
    assert [text for _, text in line] == ["#3", "Hero", "4", "5", "6", "6", "no", "5"]
    assert rows == [("Wounded", ["#3", "Hero", "2", "3", "3", "3", "no", "3"])]
    line, rows = lines["Locrian archer"]
    assert [text for _, text in line] == ["#7", "Common", "2", "3", "6", "4", "no", "2"]
    assert rows == [("Wounded", ["#7", "Common", "1", "2", "3", "2", "no", "1"])]
    line, rows = lines["Achilles"]
    assert [text for _, text in line] == ["#1", "Hero", "8", "7", "6", "-", "yes", "5"]
    assert rows == [("Wounded", ["#1", "Hero", "4", "4", "3", "-", "yes", "3"])]


def test_every_card_row_has_one_value_per_column(rs):
    assert [label for label, _ in rs.card_columns] == COLUMNS
    for _, values in rs.card_rows:
        assert len(values) == len(COLUMNS)


# ---------------------------------------------------------------- base ID numbers


def test_distinct_base_ids_pass(rs):
    v = validate(rs, roster([figure("A", base_id=1), figure("B", "common", base_id=2),
                             figure("C", "common", base_id=3)], god_chips=1))
    assert v.ok, v.findings
    assert v.findings == []


@pytest.mark.parametrize("ids, sharing", [
    ([1, 1], 2),
    ([1, 2, 2], 2),
    ([3, 3, 3], 3),
    ([1, 1, 2, 2], 4),
])
def test_duplicate_base_id_is_a_reading_warning(rs, ids, sharing):
    units = [figure(f"Figure {i}", "common", base_id=b) for i, b in enumerate(ids)]
    v = validate(rs, roster(units))
    warnings = [f for f in v.findings if f.rule == "base-id-unique"]
    assert [f.severity for f in warnings] == ["warning"]
    assert warnings[0].message.startswith(f"{sharing} figures share a base ID number")
    assert "our reading" in warnings[0].message
    assert v.ok


def test_a_unit_of_several_figures_shares_one_base_id(rs):
    units = [dict(figure("Spearmen", "common", base_id=4), count=2)]
    v = validate(rs, roster(units))
    assert "base-id-unique" in rules(v.findings, "warning")


def test_base_ids_may_repeat_on_the_other_side(rs):
    a = roster([figure("Hector", base_id=1)], god_chips=1)
    b = roster([figure("Achilles", base_id=1)], god_chips=1)
    assert validate(rs, a).ok and validate(rs, b).ok


# ---------------------------------------------------------------- God chips and events


def test_nine_god_events_each_once_by_default(rs):
    events = rs.roster_stats["god_events"]
    assert events.kind == "choices"
    assert events.options == GOD_EVENTS
    assert events.default == GOD_EVENTS
    report = cost_roster(rs, roster([figure()], god_chips=2))
    from rosterkit.engine.validation import roster_env
    env, _ = roster_env(report)
    assert env["god_events"] == 9


def test_god_event_listed_twice_is_an_error(rs):
    v = validate(rs, roster([figure()], god_chips=1, god_events=["Mist", "Heal", "mist"]))
    errors = [f for f in v.errors if f.field == "stats.god_events"]
    assert errors and "listed twice" in errors[0].message


def test_unknown_god_event_is_an_error(rs):
    v = validate(rs, roster([figure()], god_chips=1, god_events=["Thunderbolt"]))
    assert [f.field for f in v.errors] == ["stats.god_events"]


def test_god_events_are_matched_without_case(rs):
    v = validate(rs, roster([figure()], god_chips=2, god_events=["strength & courage", "HEAL"]))
    assert v.ok and v.findings == []


@pytest.mark.parametrize("heroes, chips, warned", [
    (0, 0, False),
    (0, 1, True),
    (0, 3, True),
    (1, 0, False),
    (1, 3, False),
    (2, 9, False),
])
def test_god_chips_without_a_hero_is_a_warning(rs, heroes, chips, warned):
    units = [figure(f"Hero {i}", "hero", base_id=i + 1) for i in range(heroes)]
    units += [figure("Soldier", "common", base_id=50)]
    v = validate(rs, roster(units, god_chips=chips))
    assert v.ok  # a warning only: the side is still legal
    found = [f for f in v.findings if f.rule == "god-chips-need-hero"]
    assert bool(found) == warned
    if warned:
        assert found[0].severity == "warning"
        assert f"{chips} God chip" in found[0].message and "Hero" in found[0].message


@pytest.mark.parametrize("chips, events, warned", [
    (9, None, False),
    (10, None, True),
    (2, ["Mist", "Heal"], False),
    (3, ["Mist", "Heal"], True),
    (1, [], True),
    (0, [], False),
])
def test_more_chips_than_events_is_a_warning(rs, chips, events, warned):
    v = validate(rs, roster([figure()], god_chips=chips, god_events=events))
    assert v.ok
    assert ("god-chips-events" in rules(v.findings, "warning")) == warned


def test_negative_god_chips_is_an_error(rs):
    v = validate(rs, roster([figure()], god_chips=-1))
    assert [(f.rule, f.field) for f in v.errors] == [("stat-range", "stats.god_chips")]


# ---------------------------------------------------------------- samples on the command line


def test_samples_exist():
    assert len(VALID_SAMPLES) >= 3
    assert INVALID_SAMPLES == []
    assert "heroic_gods_warning_duplicate_base_ids.toml" in VALID_SAMPLES


@pytest.mark.parametrize("sample", VALID_SAMPLES)
def test_valid_samples_validate(cli, sample):
    result = cli("validate", SAMPLES / sample)
    assert result.code == 0, result.out + result.err
    assert "valid" in result.out


def test_the_two_sides_validate_together(cli):
    result = cli("validate", SAMPLES / "heroic_gods_achaeans.toml", SAMPLES / "heroic_gods_trojans.toml")
    assert result.code == 0, result.out
    assert result.out.count("23 victory points the enemy can score") == 2


def test_warning_sample_reports_duplicate_base_ids(cli):
    result = cli("validate", SAMPLES / "heroic_gods_warning_duplicate_base_ids.toml")
    assert result.code == 0
    assert "base-id-unique" in result.out
    assert cli("validate", "--strict", SAMPLES / "heroic_gods_warning_duplicate_base_ids.toml").code == 1
    result = cli("validate", "--json", SAMPLES / "heroic_gods_warning_duplicate_base_ids.toml")
    doc = json.loads(result.out)
    assert doc["ok"] is True
    assert [(f["severity"], f["rule"]) for f in doc["rosters"][0]["findings"]] == [("warning", "base-id-unique")]
    assert "(base ID 3 used more than once)" in doc["rosters"][0]["findings"][0]["message"]


def test_chips_without_hero_sample_warns_but_passes(cli):
    result = cli("validate", "--json", SAMPLES / "heroic_gods_warning_chips_without_hero.toml")
    assert result.code == 0
    doc = json.loads(result.out)
    assert doc["ok"] is True
    assert [(f["severity"], f["rule"]) for f in doc["rosters"][0]["findings"]] == [
        ("warning", "god-chips-need-hero")]


@pytest.mark.parametrize("sample", ["heroic_gods_achaeans.toml", "heroic_gods_trojans.toml"])
def test_playable_sides_have_heroes_and_clean_findings(sample, rs):
    _, report = cost_sample(sample)
    v = validate(rs, report.roster)
    assert v.findings == []
    assert report.by_type["hero"] > 0
    ids = [u.members[0].stats["base_id"] for u in report.units]
    assert len(ids) == len(set(ids))
