"""lego_combat (seed 003): every published number, the grade misprints, gear effects, the samples."""

import json
from fractions import Fraction

import pytest
from conftest import SAMPLES, cost_sample, load

from rosterkit.engine.checks import discrepancies
from rosterkit.engine.costing import Costing, ItemCost, cost_roster, cost_unit
from rosterkit.engine.display import stat_line, weapon_line
from rosterkit.engine.roster import RosterFile, Unit
from rosterkit.engine.validation import validate
from rosterkit.files.rosters import load_roster

RS = load("lego_combat")
VALID_SAMPLES = ["lego_combat_kingsbridge_garrison.toml", "lego_combat_blackwater_corsairs.toml"]
INVALID_SAMPLE = "lego_combat_INVALID_over_points.toml"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    """CLI paths below are relative to the project folder."""
    monkeypatch.chdir(SAMPLES.parent)


def unit(**kw):
    kw.setdefault("name", "U")
    kw.setdefault("type", "standard")
    return Unit(**kw)


def roster(*units, limit=None, house=None):
    return RosterFile(name="t", ruleset="lego_combat", points_limit=limit, units=list(units),
                      house_prices=house or {})


def member(u: Unit, house=None):
    return cost_unit(Costing(RS), roster(u, house=house), u, 0).members[0]


def per_figure(u: Unit):
    return member(u).per_figure


def findings(*units, limit=None, house=None):
    return validate(RS, roster(*units, limit=limit, house=house)).findings


def rules(fs, severity=None):
    return {f.rule for f in fs if severity is None or f.severity == severity}


# ---------------------------------------------------------------- soldiers and grades


def test_default_soldier_costs_10_with_the_published_defaults():
    m = member(unit())
    assert m.per_figure == 10
    assert {k: m.stats[k] for k in ("combat", "resistance", "move", "swim", "climb", "jump", "attacks")} == {
        "combat": 0, "resistance": 0, "move": 6, "swim": 3, "climb": 1, "jump": 3, "attacks": 1}
    assert m.terms[0].label == "Base soldier" and m.terms[0].value == 10
    assert all(t.value == 0 for t in m.terms[1:])


GRADES = [
    # type, printed in the grade list, cost-rule value of a default figure, combat, move, attacks
    ("standard", 10, 10, 0, 6, 1),
    ("expert", 12, 12, 0, 6, 1),
    ("elite", 16, 16, 1, 6, 1),
    ("hero", 20, 25, 2, 9, 1),
    ("champion", 25, 19, 1, 9, 1),
    ("legend", 40, 40, 2, 9, 2),
]


@pytest.mark.parametrize("type_, printed, formula, combat, move, attacks", GRADES)
def test_grades_are_charged_their_printed_price(type_, printed, formula, combat, move, attacks):
    assert RS.types[type_].cost == printed
    stats = {"expert_bonus": "attack"} if type_ == "expert" else {}
    m = member(unit(type=type_, stats=stats))
    assert m.per_figure == printed
    assert (m.formula_cost if m.formula_cost is not None else m.figure_cost) == formula
    assert (m.printed is None) == (printed == formula)
    assert (m.stats["combat"], m.stats["move"], m.stats["attacks"]) == (combat, move, attacks)


@pytest.mark.parametrize("type_, stats, expected", [
    ("hero", {"resistance": 1}, 20 + 4),          # the grade as printed, the extra by the cost rules
    ("hero", {"attacks": 2}, 20 + 15),
    ("champion", {"combat": 1}, 25 + 6),          # Combat 2 on top of the grade's +1
    ("champion", {"move": 6}, 25),                # the grade fixes a 9" move
    ("standard", {"combat": 2, "move": 9}, 25),   # designed from the cost rules: no grade price to charge
])
def test_a_graded_figure_pays_the_printed_grade_and_the_cost_rules_beyond_it(type_, stats, expected):
    assert per_figure(unit(type=type_, stats=stats)) == expected


@pytest.mark.parametrize("type_, printed, formula, shown", [
    ("hero", 20, 25, "-5"), ("champion", 25, 19, "+6")])
def test_the_breakdown_shows_the_formula_figure_beside_the_printed_price(cli, tmp_path, type_, printed, formula,
                                                                         shown):
    path = tmp_path / "g.toml"
    path.write_text(f'format = 1\nname = "g"\nruleset = "lego_combat"\n\n[[units]]\nname = "G"\n'
                    f'type = "{type_}"\n')
    out = cli("cost", path).out
    assert "Figure cost by the formula" in out and f"{formula}" in out
    line = next(x for x in out.splitlines() if "at its printed price" in x)
    assert shown in line and f"printed {printed}" in line and f"gives a default {type_.capitalize()} {formula}" in line
    assert next(x for x in out.splitlines() if x.strip().startswith("Figure cost ") and "formula" not in x
                ).split()[-1] == str(printed)
    doc = json.loads(cli("cost", "--json", path).out)
    m = doc["units"][0]["members"][0]
    assert m["figure_cost"] == printed and m["printed_price"]["figure_cost_by_formula"] == formula


@pytest.mark.parametrize("type_", ["standard", "expert", "elite", "legend"])
def test_these_grades_agree_with_the_cost_rules(type_):
    assert per_figure(unit(type=type_)) == RS.types[type_].cost


def test_legend_is_priced_term_by_term():
    # 10 + 2 x 6 (Combat) + 3 (9" move) + 15 (second attack) = 40
    m = member(unit(type="legend"))
    assert {t.label: t.value for t in m.terms if t.value} == {
        "Base soldier": 10, "Combat x 6": 12, "Move/swim/climb/jump vs 6/3/1/3": 3,
        "Attacks beyond the first x 15": 15}


def test_check_ruleset_lists_exactly_the_hero_and_champion_misprints():
    found, errors = discrepancies(RS)
    assert errors == []
    assert {(d.what, d.name, d.published, d.computed) for d in found} == {
        ("type", "Hero", 20, 25), ("type", "Champion", 25, 19)}
    assert all(d.acknowledged for d in found)


def test_check_ruleset_cli(cli):
    r = cli("check-ruleset", "rulesets/lego_combat.toml")
    assert r.code == 0, r.out + r.err
    assert "ok" in r.out
    assert "type: Hero" in r.out and "type: Champion" in r.out
    assert "not acknowledged" not in r.out
    r = cli("check-ruleset", "--json", "rulesets/lego_combat.toml")
    doc = json.loads(r.out)
    assert doc["ok"] is True
    assert sorted((d["name"], d["published"], d["computed"]) for d in doc["discrepancies"]) == [
        ("Champion", 25, 19), ("Hero", 20, 25)]


# ---------------------------------------------------------------- the cost rules


@pytest.mark.parametrize("stats, expected", [
    ({"combat": 1}, 16), ({"combat": -1}, 4), ({"combat": 3}, 28),
    ({"move": 7}, 11), ({"move": 5}, 9), ({"swim": 5}, 12), ({"swim": 0}, 7),
    ({"climb": 2}, 11), ({"climb": 0}, 9), ({"jump": 4}, 11), ({"jump": 1}, 8),
    ({"resistance": 1}, 14), ({"resistance": 3}, 22),
    ({"attacks": 2}, 25), ({"attacks": 3}, 40),
    ({"attack": 1}, 12), ({"dodge": 1}, 12), ({"strength": 1}, 12), ({"strength": -1}, 8),
    ({"attack": 1, "dodge": 1, "strength": 1}, 16),
    ({"combat": 2, "move": 9}, 25),  # a home-made hero: the cost rules' 25
    ({"combat": 1, "resistance": 1, "swim": 5, "climb": 3}, 24),
])
def test_cost_rules(stats, expected):
    assert per_figure(unit(stats=stats)) == expected


@pytest.mark.parametrize("fly, expected", [(6, 20), (9, 22), (12, 24), (3, 18), (7, Fraction(62, 3))])
def test_flying_monsters(fly, expected):
    assert per_figure(unit(type="monster", stats={"fly": fly})) == expected


def test_flying_is_for_monsters_and_off_step_speeds_warn():
    assert "flying-monsters-only" in rules(findings(unit(stats={"fly": 6})), "error")
    assert "flying-monsters-only" not in rules(findings(unit(type="monster", stats={"fly": 6})))
    assert "fly-steps" in rules(findings(unit(type="monster", stats={"fly": 7})), "warning")
    assert "fly-steps" not in rules(findings(unit(type="monster", stats={"fly": 9})))


def test_grafted_weapon_is_for_monsters():
    assert per_figure(unit(type="monster", abilities=["Grafted weapon"])) == 17
    assert "not-allowed" in rules(findings(unit(abilities=["Grafted weapon"])), "error")


# ---------------------------------------------------------------- the expert's choice


@pytest.mark.parametrize("choice, to_hit, defense, damage", [
    ("attack", 1, 0, 0), ("defense", 0, 1, 0), ("damage", 0, 0, 1)])
def test_expert_bonus_goes_where_chosen(choice, to_hit, defense, damage):
    m = member(unit(type="expert", stats={"expert_bonus": choice}))
    assert m.per_figure == 12
    assert (m.derived["to_hit"], m.derived["defense"], m.derived["damage_bonus"]) == (to_hit, defense, damage)


def test_expert_must_choose_and_only_experts_choose():
    assert "expert-bonus-missing" in rules(findings(unit(type="expert")), "error")
    assert rules(findings(unit(type="expert", stats={"expert_bonus": "damage"})), "error") == set()
    assert "expert-bonus-not-expert" in rules(findings(unit(stats={"expert_bonus": "attack"})), "error")


# ---------------------------------------------------------------- catalogue


WEAPON_COSTS = [("Axe", 6), ("Club", 1), ("Hook", 1), ("Knife", 2), ("Lance", 8), ("Mace", 7),
                ("Polearm", 5), ("Spear", 7), ("Staff", 2), ("Sword", 4), ("Torch", 2), ("Bow", 8),
                ("Crossbow", 10), ("Musket", 12)]


@pytest.mark.parametrize("name, cost", WEAPON_COSTS)
def test_weapon_costs(name, cost):
    assert RS.find_item("weapons", name).cost == cost
    m = member(unit(weapons=[name]))
    assert m.per_figure == 10 + cost
    assert m.items[0].source == "published"


def test_quiver_costs_4():
    assert RS.find_item("equipment", "Quiver").cost == 4
    assert per_figure(unit(weapons=["Bow"], equipment=["Quiver"])) == 22


UNPRICED = [("weapons", "Pistol"), ("equipment", "Helmet"), ("equipment", "Great helmet"),
            ("equipment", "Light armor"), ("equipment", "Plate armor"), ("equipment", "Shield"),
            ("equipment", "Body shield"), ("equipment", "Peg leg"), ("equipment", "Horse")]


@pytest.mark.parametrize("kind, name", UNPRICED)
def test_items_without_a_price_are_unpriced(kind, name):
    item = RS.find_item(kind, name)
    assert item.unpriced and item.cost is None and item.cost_formula is None


RANGES = [
    # weapon, reach, no-penalty, -1, -2 (= maximum)
    ("Sword", 1, None, None, None),
    ("Axe", 1, None, None, None),
    ("Spear", 2, 6, 12, 18),
    ("Lance", 3, None, None, None),
    ("Knife", 1, 6, 12, 18),
    ("Pistol", None, 6, 12, 18),
    ("Musket", None, 9, 18, 27),
    ("Bow", None, 12, 24, 36),
    ("Crossbow", None, 24, 48, 72),
]


@pytest.mark.parametrize("name, reach, short, medium, long", RANGES)
def test_reach_and_range_bands(name, reach, short, medium, long):
    s = RS.find_item("weapons", name).stats
    assert (s.get("reach"), s.get("range_short"), s.get("range_medium"), s.get("range_long")) == (
        reach, short, medium, long)
    if short:  # each band is one more base increment: the maximum is three
        assert (medium, long) == (2 * short, 3 * short)


# One column for the three bands (no penalty / -1 / -2), as the range table prints them; a
# weapon without a range shows its melee reach there, and a thrown one its reach in the notes.
@pytest.mark.parametrize("name, bands, most, notes", [
    ("Bow", '0-12" / 13-24" / 25-36"', '36"', ""),
    ("Crossbow", '0-24" / 25-48" / 48-72"', '72"', ""),  # the -2 band as the table prints it
    ("Musket", '0-9" / 10-18" / 19-27"', '27"', ""),  # its move penalty: in the Move box
    ("Spear", '0-6" / 7-12" / 13-18"', '18"', 'melee 2"'),  # thrown: the bands say so
    ("Knife", '0-6" / 7-12" / 13-18"', '18"', 'melee 1"; small, counts as unarmed'),
    ("Pistol", '0-6" / 7-12" / 13-18"', '18"', "ignores up to 3 levels of armor"),
    ("Sword", 'melee 1"', "-", ""),
    ("Lance", 'melee 3"', "-", ""),
])
def test_card_weapon_columns_show_the_bands(name, bands, most, notes):
    item = RS.find_item("weapons", name)
    line = dict(weapon_line(RS, ItemCost("weapons", item.name, item.cost or 0, "published",
                                          stats=dict(item.stats))))
    assert list(line) == ["Weapon", "0 / -1 / -2", "Max", "Hit", "Dmg", "Once every", "Notes"]
    assert [line["0 / -1 / -2"], line["Max"], line["Notes"]] == [bands, most, notes]


@pytest.mark.parametrize("name, rate", [("Bow", "round"), ("Crossbow", "2"), ("Pistol", "2"),
                                        ("Musket", "3"), ("Knife", "round"), ("Sword", ""), ("Club", "")])
def test_card_weapon_rate(name, rate):
    """How often it shoots under "Once every", in the rules' words: "round" (a
    bare 1 read as a count), "2" (the rules' "once every 2"); a weapon
    without a range strikes every round, and "Once every round" beside its reach would read as a
    rule of its own: empty."""
    item = RS.find_item("weapons", name)
    line = dict(weapon_line(RS, ItemCost("weapons", item.name, 0, "published", stats=dict(item.stats))))
    assert line["Once every"] == rate


# ---------------------------------------------------------------- gear on figures


MOVES = [
    # type, weapons, equipment, mounted, move on the card
    ("standard", [], [], False, 6),
    ("standard", [], ["Helmet"], False, 6),
    ("standard", [], ["Shield"], False, 6),
    ("standard", [], ["Helmet", "Shield"], False, 5),
    ("standard", [], ["Light mail", "Shield"], False, 5),
    ("standard", [], ["Helmet", "Light armor", "Shield"], False, 5),
    ("standard", [], ["Plate armor"], False, 4),
    ("standard", [], ["Plate armor", "Helmet", "Shield"], False, 3),
    ("standard", ["Musket"], [], False, 5),
    ("standard", ["Polearm"], [], False, 4),
    ("standard", ["Lance"], [], False, 3),
    ("standard", ["Lance"], [], True, 6),
    ("standard", [], ["Body shield"], False, 5),
    ("standard", [], ["Great helmet"], False, 5),
    ("standard", [], ["Great helmet", "Body shield"], False, 4),
    ("standard", ["Musket", "Polearm"], ["Plate armor"], False, 1),
    ("standard", ["Lance"], ["Plate armor", "Great helmet", "Body shield"], False, 0),  # never below 0
    ("hero", [], ["Plate armor", "Helmet"], False, 7),
    ("standard", [], ["Peg leg"], False, 3),
]


@pytest.mark.parametrize("type_, weapons, equipment, mounted, move", MOVES)
def test_movement_penalties(type_, weapons, equipment, mounted, move):
    m = member(unit(type=type_, weapons=weapons, equipment=equipment, stats={"mounted": mounted}))
    assert m.derived["real_move"] == move


RESISTANCES = [
    # natural resistance, equipment, resistance on the card
    (0, [], 0),
    (0, ["Helmet"], 2),
    (0, ["Great helmet"], 3),
    (0, ["Light armor"], 3),
    (0, ["Plate armor"], 4),
    (0, ["Helmet", "Light armor"], 5),
    (0, ["Great helmet", "Plate armor"], 7),
    (1, ["Helmet"], 3),
    (0, ["Helmet", "Great helmet"], 3),  # two helmets: only the better counts (with a warning)
]


@pytest.mark.parametrize("resistance, equipment, expected", RESISTANCES)
def test_armor_resistance(resistance, equipment, expected):
    m = member(unit(equipment=equipment, stats={"resistance": resistance}))
    assert m.derived["real_resistance"] == expected


def test_two_pieces_for_one_place_warn():
    assert "armor-overlap" in rules(findings(unit(equipment=["Helmet", "Great helmet"])), "warning")
    assert "armor-overlap" not in rules(findings(unit(equipment=["Helmet", "Plate armor"])))


@pytest.mark.parametrize("type_, weapons, equipment, to_hit, quiver, defense", [
    ("standard", [], ["Shield"], 0, 0, 1),
    ("standard", [], ["Body shield"], 0, 0, 2),
    ("elite", [], ["Shield"], 1, 0, 2),
    ("hero", [], ["Body shield"], 2, 0, 4),
    ("standard", ["Bow"], ["Quiver"], 0, 1, 0),
    ("standard", ["Crossbow"], ["Quiver"], 0, 1, 0),
    ("standard", ["Musket"], ["Quiver"], 0, 0, 0),  # the quiver helps bows and crossbows only
    ("standard", ["Bow"], [], 0, 0, 0),
])
def test_shields_and_quiver(type_, weapons, equipment, to_hit, quiver, defense):
    m = member(unit(type=type_, weapons=weapons, equipment=equipment))
    assert (m.derived["to_hit"], m.derived["quiver_bonus"], m.derived["defense"]) == (to_hit, quiver, defense)


def test_card_shows_move_and_resistance_with_gear():
    u = unit(type="champion", weapons=["Sword"], equipment=["Plate armor", "Helmet", "Shield"])
    r = roster(u)
    uc = cost_unit(Costing(RS), r, u, 0)
    line = dict(stat_line(RS, uc, uc.members[0]))
    # champion 9", plate -2, helmet and shield -1; plate 4 + helmet 2
    assert line["Move"] == "6 Sw 3 Cl 1 Ju 3"  # written as the rules write a soldier's movement
    assert line["Res"] == "6"
    assert line["Cbt"] == "+1" and line["Att"] == "+1" and line["Def"] == "+2"


def test_card_attack_column_shows_the_quiver():
    u = unit(type="elite", weapons=["Bow"], equipment=["Quiver"])
    uc = cost_unit(Costing(RS), roster(u), u, 0)
    assert dict(stat_line(RS, uc, uc.members[0]))["Att"] == "+1 (bow +2)"


# ---------------------------------------------------------------- unpriced items and house prices


def test_unpriced_item_warns_and_counts_nothing(cli, tmp_path):
    m = member(unit(weapons=["Pistol"]))
    pistol = m.items[0]
    assert (pistol.source, pistol.cost) == ("unpriced", 0)
    fs = findings(unit(weapons=["Pistol"]))
    unpriced = [f for f in fs if f.rule == "unpriced"]
    assert len(unpriced) == 1 and unpriced[0].severity == "warning"
    assert "Pistol" in unpriced[0].message and "house_prices" in unpriced[0].hint
    path = tmp_path / "pistoleers.toml"
    path.write_text('format = 1\nname = "Pistoleers"\nruleset = "lego_combat"\npoints_limit = 50\n'
                    '[[units]]\nname = "Gunner"\ntype = "Standard"\nweapons = ["Pistol"]\n')
    r = cli("cost", path)
    assert r.code == 0 and "Pistol  0 (no price in the rules; counted as 0)" in r.out
    r = cli("validate", path)
    assert r.code == 0 and "unpriced" in r.out and "warning" in r.out


def test_house_price_replaces_the_warning():
    u = unit(weapons=["Pistol"], equipment=["Helmet"])
    m = member(u, house={"Pistol": 9, "Helmet": 3})
    assert [(i.name, i.cost, i.source) for i in m.items] == [("Pistol", 9, "house price"),
                                                             ("Helmet", 3, "house price")]
    assert m.per_figure == 22
    assert "unpriced" not in rules(findings(u, house={"Pistol": 9, "Helmet": 3}))


def test_house_price_for_a_priced_item_is_ignored_with_a_warning():
    fs = validate(RS, roster(unit(weapons=["Sword"]), house={"Sword": 1})).findings
    assert "house-price" in rules(fs, "warning")
    assert per_figure(unit(weapons=["Sword"])) == 14


def test_mounted_figures_are_reminded_of_their_mount():
    knight = dict(type="standard", weapons=["Lance"], stats={"mounted": True})
    assert "mount-needed" in rules(findings(unit(**knight)), "warning")
    ok = findings(unit(**knight, equipment=["Horse"]), house={"Horse": 10})
    assert "mount-needed" not in rules(ok) and "unpriced" not in rules(ok)


# ---------------------------------------------------------------- samples


def test_garrison_sample_uses_house_prices_and_has_no_warnings():
    rs, report = cost_sample("lego_combat_kingsbridge_garrison.toml")
    sources = {i.name: i.source for u in report.units for m in u.members for i in m.items}
    assert sources["Helmet"] == sources["Shield"] == "house price"
    assert validate(rs, report.roster).findings == []
    # the same army without its house prices: the warnings come back and the total drops
    bare = report.roster.model_copy(update={"house_prices": {}})
    plain = validate(rs, bare)
    assert {f.rule for f in plain.findings} == {"unpriced"}
    assert plain.ok
    assert report.total - plain.report.total == 4 * 6 + 3 + 6  # 4 spearmen, Edda, Aldric


@pytest.mark.parametrize("name, total, figures", [
    ("lego_combat_kingsbridge_garrison.toml", 240, 11),  # the champion at the printed 25
    ("lego_combat_blackwater_corsairs.toml", 219, 12),  # Captain Redbeard at the printed hero price
    ("lego_combat_INVALID_over_points.toml", 258, 11),
])
def test_sample_totals(name, total, figures):
    _, report = cost_sample(name)
    assert report.total == total
    assert sum(u.figures for u in report.units) == figures


def test_valid_samples_face_each_other_at_the_same_limit():
    limits = {load_roster(SAMPLES / n).roster.points_limit for n in VALID_SAMPLES}
    assert limits == {250}
    for n in VALID_SAMPLES:
        rs, report = cost_sample(n)
        assert report.total <= report.limit
        assert validate(rs, report.roster).findings == []


@pytest.mark.parametrize("name", VALID_SAMPLES)
def test_validate_valid_samples(cli, name):
    r = cli("validate", SAMPLES / name)
    assert r.code == 0, r.out
    assert "valid" in r.out


def test_validate_both_samples_together(cli):
    r = cli("validate", *(SAMPLES / n for n in VALID_SAMPLES))
    assert r.code == 0, r.out


def test_validate_invalid_sample(cli):
    r = cli("validate", "--json", SAMPLES / INVALID_SAMPLE)
    assert r.code == 1
    doc = json.loads(r.out)
    errors = [f for f in doc["rosters"][0]["findings"] if f["severity"] == "error"]
    assert [f["rule"] for f in errors] == ["points-limit"]
    assert "remove 8 points" in errors[0]["message"]
    r = cli("validate", SAMPLES / INVALID_SAMPLE)
    assert r.code == 1 and "points-limit" in r.out


@pytest.mark.parametrize("name", [*VALID_SAMPLES, INVALID_SAMPLE])
def test_cost_samples(cli, name):
    r = cli("cost", SAMPLES / name)
    assert r.code == 0, r.err
    assert "Base soldier" in r.out and "Combat x 6" in r.out


def test_corsairs_hero_is_charged_the_printed_grade_price():
    _, report = cost_sample("lego_combat_blackwater_corsairs.toml")
    captain = next(u for u in report.units if u.name == "Captain Redbeard")
    assert captain.members[0].figure_cost == 20  # the grade list's price; the cost rules give 25
    assert captain.members[0].formula_cost == 25
    bosun = next(u for u in report.units if u.name == "Bosun Grell")
    assert bosun.members[0].figure_cost == 14  # swim 5 (+2) and climb 3 (+2)


def test_small_armies_are_not_warned_about():
    # the 10-figure recommendation is from the game's introduction, not from the basic rules
    fs = findings(*(unit(name=f"U{i}") for i in range(3)), limit=100)
    assert not rules(fs)


def test_points_limit_boundary():
    assert "points-limit" not in rules(findings(unit(count=10), limit=100))
    assert "points-limit" in rules(findings(unit(count=10), limit=99), "error")


def test_whole_roster_total():
    report = cost_roster(RS, roster(unit(count=3, weapons=["Sword"]), unit(type="hero", weapons=["Bow"])))
    assert report.total == 3 * 14 + 20 + 8
