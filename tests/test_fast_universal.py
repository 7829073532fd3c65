"""fast_universal (seed 004): every published number, the limits at their boundaries, the samples."""

from fractions import Fraction

import pytest
from conftest import SAMPLES, cost_sample, load, run_cli

from rosterkit.engine.checks import discrepancies
from rosterkit.engine.costing import Costing, cost_roster, cost_unit
from rosterkit.engine.roster import RosterFile, Unit
from rosterkit.engine.validation import validate

RS = load("fast_universal")


def unit(**kw):
    kw.setdefault("name", "U")
    kw.setdefault("type", "basic")
    return Unit(**kw)


def per_figure(u: Unit):
    roster = RosterFile(name="t", ruleset="fast_universal", units=[u])
    return cost_unit(Costing(RS), roster, u, 0).members[0].per_figure


def test_average_human_costs_21():
    # 1d6 M6 F0 S0 D8, basic: (1*6*6 + 6*8 + 0 + 0) / 4 = 21
    u = unit(stats={"dice": 1, "die": 6, "move": 6, "fight": 0, "shoot": 0, "defense": 8})
    uc = cost_unit(Costing(RS), RosterFile(name="t", ruleset="fast_universal", units=[u]), u, 0)
    m = uc.members[0]
    assert [t.value for t in m.terms] == [36, 48, 0, 0]
    assert m.subtotal == 84
    assert m.figure_cost == 21
    assert m.total_detail == "84 / 4"


@pytest.mark.parametrize("type_, expected", [
    ("basic", 21), ("ordnance", 21), ("elite", 42), ("hero", 42), ("vehicle", 84),
    ("Ordinance", 21),  # the text's own spelling is accepted
])
def test_type_divisors(type_, expected):
    assert per_figure(unit(type=type_)) == expected


@pytest.mark.parametrize("stats, type_, expected", [
    ({"dice": 2, "die": 6, "move": 6, "defense": 8}, "basic", Fraction(120, 4)),  # horse: 2d6
    ({"dice": 1, "die": 6, "move": 6, "defense": 9}, "basic", Fraction(90, 4)),  # 22.5: a half is kept
    ({"dice": 1, "die": 6, "move": 5, "defense": 9}, "basic", Fraction(84, 4)),
    ({"dice": 1, "die": 6, "move": 7, "defense": 9}, "basic", Fraction(96, 4)),
    ({"dice": 1, "die": 4, "move": 5, "defense": 9}, "basic", Fraction(56, 4)),
    ({"dice": 1, "die": 6, "move": 6, "defense": 8, "fight": 1, "shoot": 2}, "elite", Fraction(114, 2)),
    ({"dice": 3, "die": 6, "move": 6, "defense": 8}, "hero", Fraction(156, 2)),
    ({"dice": 1, "die": 10, "move": 6, "fight": 1, "defense": 10}, "hero", 85),
])
def test_miniature_formula(stats, type_, expected):
    assert per_figure(unit(type=type_, stats=stats)) == expected


def test_fractions_are_summed_exactly():
    # die 6, move 6, defense 9 gives (36 + 54) / 4 = 22.5; three of them 67.5; plus a 21-point figure: 88.5
    units = [unit(name="A", count=3, stats={"defense": 9}), unit(name="B", count=1)]
    report = cost_roster(RS, RosterFile(name="t", ruleset="fast_universal", units=units))
    assert report.units[0].total == Fraction(135, 2)
    assert report.total == Fraction(177, 2)


def test_rear_attack_arc_gives_exact_tenths():
    # 3d6 M7 D7: 3*6*7 + 6*7 = 168; 20% of it is 33.6, not rounded
    stats = {"dice": 3, "die": 6, "move": 7, "defense": 7, "shoot": 0}
    base = per_figure(unit(type="vehicle", stats=stats))
    assert base == 168
    assert per_figure(unit(type="vehicle", stats=stats, abilities=["Rear Attack Arc"])) == Fraction(1008, 5)


WEAPONS = [
    # name, fight, shoot, range, published cost, formula cost
    ("Claw/hand/spear/sword", 0, 0, 0, 0, 0),
    ("Big bite/big claw/big fist/great axe/great sword", 1, 0, 0, 10, 10),
    ("Bow/crossbow", 0, 1, 6, 22, 22),
    ("Longbow", 0, 1, 10, 30, 30),
    ("Pistol", 0, 1, 6, 22, 22),
    ("Musket", 0, 2, 10, 40, 40),
    ("Assault rifle", 0, 3, 9, 48, 48),
    ("Sniper rifle", 0, 2, 15, 50, 50),
    ("Ray gun", 0, 3, 6, 42, 42),
    ("50mm Cannon", 0, 4, 18, 76, 76),
    ("Machine Gun", 0, 4, 0, 68, 40),  # misprint: printed 68, formula 40
]


@pytest.mark.parametrize("name, fight, shoot, range_, published, formula", WEAPONS)
def test_every_published_weapon(name, fight, shoot, range_, published, formula):
    item = RS.find_item("weapons", name)
    assert item is not None
    assert (item.stats.get("fight", 0), item.stats.get("shoot", 0), item.stats.get("range", 0)) == \
        (fight, shoot, range_)
    assert item.cost == published
    assert fight * 10 + shoot * 10 + range_ * 2 == formula
    base = per_figure(unit())
    held = per_figure(unit(weapons=[name]))
    assert held - base == published  # the printed cost is what the army pays


def test_eleven_weapons_in_the_catalogue():
    assert len(RS.data.weapons) == 11


@pytest.mark.parametrize("alias", ["bow", "CROSSBOW", "Bow/crossbow", "assault RIFLE", "Great axe", "sword"])
def test_weapons_are_found_by_the_rules_names_in_any_case(alias):
    assert RS.find_item("weapons", alias) is not None


def test_check_ruleset_flags_exactly_the_machine_gun():
    found, errors = discrepancies(RS)
    assert errors == []
    assert [(d.name, d.published, d.computed) for d in found] == [("Machine Gun", 68, 40)]
    result = run_cli("check-ruleset", "rulesets/fast_universal.toml")
    assert result.code == 0
    assert "Machine Gun" in result.out and "68" in result.out and "40" in result.out
    assert run_cli("check-ruleset", "--strict", "rulesets/fast_universal.toml").code == 1


SPECIALS = [
    ("Fearless", 30, None),
    ("Fireball", 20, "hero"),
    ("Fast", 50, None),
    ("Command", 50, "hero"),
    ("Additional Turn", 30, "vehicle"),
]


@pytest.mark.parametrize("name, cost, only", SPECIALS)
def test_specials_costs_and_restrictions(name, cost, only):
    allowed_type = only or "basic"
    base = per_figure(unit(type=allowed_type))
    assert per_figure(unit(type=allowed_type, abilities=[name])) - base == cost
    if only:
        wrong = "basic" if only != "basic" else "hero"
        report = validate(RS, RosterFile(name="t", ruleset="fast_universal",
                                         units=[unit(type=wrong, abilities=[name])]))
        rules = [f.rule for f in report.findings if f.severity == "error"]
        assert "not-allowed" in rules


def test_rear_attack_arc_is_20_percent_of_the_vehicle_cost():
    stats = {"dice": 6, "die": 8, "move": 8, "defense": 12}  # (384 + 96) / 1 = 480
    base = per_figure(unit(type="vehicle", stats=stats))
    assert base == 480
    assert per_figure(unit(type="vehicle", stats=stats, abilities=["Rear Attack Arc"])) == 480 + 96
    report = validate(RS, RosterFile(name="t", ruleset="fast_universal",
                                     units=[unit(type="hero", abilities=["Rear Attack Arc"])]))
    assert any(f.rule == "not-allowed" for f in report.findings)


# ---------------------------------------------------------------- composition limits


def army(hero=0, elite=0, basic=0, vehicle=0, limit=500):
    """A roster with points of each type made of 1-point steps (custom weapons priced exactly)."""
    units = []
    for type_, pts in (("hero", hero), ("elite", elite), ("basic", basic), ("vehicle", vehicle)):
        if pts:
            units.append(Unit(name=type_, type=type_, count=1, stats={"dice": 1, "die": 4, "move": 0, "defense": 1},
                              weapons=[f"pts{pts}{type_}"]))
    divisor = {"hero": 2, "elite": 2, "basic": 4, "vehicle": 1}
    # figure cost is 4 / divisor; a roster-local weapon makes up the rest
    weapons = [{"name": f"pts{p}{t}", "cost": p - Fraction(4, divisor[t])}
               for t, p in (("hero", hero), ("elite", elite), ("basic", basic), ("vehicle", vehicle)) if p]
    return RosterFile(name="t", ruleset="fast_universal", points_limit=limit, units=units,
                      weapons=[{"name": w["name"], "cost": float(w["cost"])} for w in weapons])


def rules(roster):
    v = validate(RS, roster)
    return {f.rule for f in v.findings if f.severity == "error"}, v


@pytest.mark.parametrize("hero, basic, ok", [
    (125, 375, True),  # exactly 25% of 500 is allowed
    (126, 374, False),
    (124, 376, True),
])
def test_hero_cap_boundary(hero, basic, ok):
    broken, v = rules(army(hero=hero, basic=basic))
    assert v.report.total == hero + basic
    assert ("hero-max" not in broken) is ok


@pytest.mark.parametrize("elite, vehicle, basic, ok", [
    (100, 25, 375, True),  # 125 of 500: exactly the cap
    (100, 26, 374, False),
    (0, 125, 375, True),
])
def test_elite_vehicle_cap_boundary(elite, vehicle, basic, ok):
    broken, _ = rules(army(elite=elite, vehicle=vehicle, basic=basic))
    assert ("elite-vehicle-max" not in broken) is ok


@pytest.mark.parametrize("basic, hero, elite, ok", [
    (250, 125, 125, True),  # exactly half is enough
    (249, 125, 125, False),
])
def test_basic_minimum_boundary(basic, hero, elite, ok):
    broken, _ = rules(army(basic=basic, hero=hero, elite=elite))
    assert ("basic-ordnance-min" not in broken) is ok


@pytest.mark.parametrize("basic, ok", [(500, True), (501, False)])
def test_points_limit_boundary(basic, ok):
    broken, _ = rules(army(basic=basic))
    assert ("points-limit" not in broken) is ok


def test_shares_are_of_the_points_limit_not_of_points_spent():
    # 100 hero points in a 400-point list for a 500-point game: 20% of the game, 25% of what is spent.
    broken, v = rules(army(hero=100, basic=300, limit=500))
    assert "hero-max" not in broken
    hero = next(s for s in v.limits if s.id == "hero-max")
    assert hero.value == Fraction(1, 5)
    # with no limit the share is of the points spent
    broken, v = rules(army(hero=126, basic=374, limit=None))
    assert "hero-max" in broken


def test_the_message_says_what_to_remove():
    _broken, v = rules(army(hero=155, basic=339))
    msg = next(f.message for f in v.findings if f.rule == "hero-max")
    assert msg == ("Heroes are 31% of points (155 of 500); at most 25% is allowed: "
                   "remove 30 points of heroes (shares of the points limit, or of the points spent "
                   "without one, our reading of 'your points')")


# ---------------------------------------------------------------- special abilities


FIREBALL_WARNING = ("The hero has Fireball but rolls 1 action die; the spell needs two dice showing evens, "
                    "so it can never succeed: give the hero a second action die or take Fireball off "
                    "(our reading: the text does not forbid buying it)")


@pytest.mark.parametrize("dice, abilities, warned", [
    (1, ["Fireball"], True),  # "If 2 dice show evens": one die never shows two
    (2, ["Fireball"], False),
    (1, ["Command"], False),
])
def test_fireball_on_a_one_die_hero_is_a_warning(dice, abilities, warned):
    hero = unit(name="Pyromancer", type="hero",
                stats={"dice": dice, "die": 6, "move": 6, "defense": 8}, abilities=abilities)
    v = validate(RS, RosterFile(name="t", ruleset="fast_universal", units=[hero]))
    # a warning, not an error: the text forbids no hero from buying it
    found = [(f.severity, f.unit_name, f.message) for f in v.findings if f.rule == "fireball-two-dice"]
    assert found == ([("warning", "Pyromancer", FIREBALL_WARNING)] if warned else [])


def test_the_ashen_host_shaman_can_cast_its_fireball():
    result = run_cli("validate", "--json", SAMPLES / "fast_universal_ashen_host.toml")
    assert result.code == 0
    import json
    doc = json.loads(result.out)["rosters"][0]
    assert doc["findings"] == []
    # the check ran on its 2-AD Ember Shaman and passed
    assert {lim["id"]: lim["ok"] for lim in doc["limits"]}["fireball-two-dice"] is True


# ---------------------------------------------------------------- sample armies


VALID = ["fast_universal_iron_vanguard.toml", "fast_universal_ashen_host.toml"]


@pytest.mark.parametrize("name, total", [
    ("fast_universal_iron_vanguard.toml", 497),  # 10x21 + 4x43 + 115
    ("fast_universal_ashen_host.toml", 469),  # 6x43 + 2x22.5 + 81 + 85
])
def test_sample_totals(name, total):
    _, report = cost_sample(name)
    assert report.total == total


@pytest.mark.parametrize("name", VALID)
def test_valid_samples_pass(name):
    result = run_cli("validate", SAMPLES / name)
    assert result.code == 0, result.out
    assert "valid" in result.out


def test_the_two_samples_meet_on_a_table():
    assert run_cli("validate", *(SAMPLES / n for n in VALID)).code == 0


def test_invalid_sample_fails_with_the_hero_cap():
    result = run_cli("validate", "--json", SAMPLES / "fast_universal_INVALID_hero_heavy.toml")
    assert result.code == 1
    import json
    doc = json.loads(result.out)
    findings = doc["rosters"][0]["findings"]
    assert [f["rule"] for f in findings if f["severity"] == "error"] == ["hero-max"]
    assert "remove 30 points of heroes" in findings[0]["message"]
    # its 1-AD Warlord also buys Fireball, which he can never cast
    assert [(f["rule"], f["unit_name"]) for f in findings if f["severity"] == "warning"] == [
        ("fireball-two-dice", "Warlord Ghor")]
