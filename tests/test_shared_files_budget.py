"""Work that multiplies: a ruleset and a roster each within the file bounds (8 MB, 20,000 units,
60,000 tables, 10,000 formulas) whose product is absurd are refused before the work, with a
message naming the product and the bound; a table of thousands of unknown stats gets ten findings
and a count; a misspelt name is compared with the catalogue once, an item's allowed types looked
up once. Real rosters, up to 20,000 units of a built-in ruleset, are left alone."""

from __future__ import annotations

import time

import pytest
import rtoml
import tomli_w
from conftest import RULESETS, run_cli

from rosterkit.engine import budget
from rosterkit.engine.budget import (
    LIMIT_WEIGHT,
    MAX_WORK,
    UNKNOWN_SHOWN,
    TooMuchWork,
    work_parts,
)
from rosterkit.engine.validation import validate
from rosterkit.errors import RosterkitError
from rosterkit.files.rosters import loads_roster
from rosterkit.files.rulesets import compile_ruleset_text
from rosterkit.files.tomlfile import MAX_TABLES
from rosterkit.rules.ruleset import MAX_FORMULAS, Ruleset
from rosterkit.workspace import open_value


def ruleset(**extra) -> Ruleset:
    """The fast_universal rules under the id "hostile", with ``extra`` lists added."""
    data = rtoml.load(RULESETS / "fast_universal.toml")
    data["id"] = "hostile"
    for key, items in extra.items():
        data[key] = data.get(key, []) + items
    return compile_ruleset_text(tomli_w.dumps(data), "hostile.toml")


def unit_limits(n: int) -> list[dict]:
    return [{"id": f"u{i}", "label": f"U{i}", "scope": "unit", "check": f"figures > {10**6 + i}",
             "message": f"{{figures}} figures; rule {i}"} for i in range(n)]


def figure_limits(n: int) -> list[dict]:
    return [{"id": f"f{i}", "label": f"F{i}", "scope": "figure", "check": f"count > {10**6 + i}",
             "message": f"{{count}} figures; rule {i}"} for i in range(n)]


def head(ruleset_id: str = "hostile") -> str:
    return f'format = 1\nname = "x"\nruleset = "{ruleset_id}"\n'


def roster_text(units: int, ruleset_id: str = "hostile") -> str:
    """Units each unlike the others (their own count), so none is costed once for many."""
    return head(ruleset_id) + "".join(
        f'[[units]]\nname = "U{i}"\ntype = "basic"\ncount = {i + 1}\nstats = {{ dice = 1, move = 6 }}\n'
        for i in range(units))


def refused(rs: Ruleset, text: str) -> str:
    roster = loads_roster(text)
    started = time.perf_counter()
    with pytest.raises(TooMuchWork) as info:
        open_value(roster, rs)  # as every front-end opens a roster
    assert time.perf_counter() - started < 1  # refused before the work, not after it
    message = str(info.value)
    assert f"at most {MAX_WORK:,}" in message
    return message


def test_finding10_many_unit_limits_times_many_units_bounded():
    # 400 unit limits x 1,000 units: 400,000 checks, each broken (about ten seconds before)
    message = refused(ruleset(limits=unit_limits(400)), roster_text(1_000))
    assert "402 unit limits x 1,000 units" in message  # the ruleset's own two and the 400


def test_finding10_many_figure_limits_times_many_units_bounded():
    message = refused(ruleset(limits=figure_limits(400)), roster_text(1_000))
    assert "401 figure limits x 1,000 kinds of figure" in message  # the ruleset's own one and the 400


def test_finding10_many_derived_values_times_many_units_bounded():
    derived = [{"id": f"d{i}", "label": f"D{i}", "expr": f"dice + {i}"} for i in range(2_500)]
    message = refused(ruleset(derived=derived), roster_text(2_000))
    assert "2,512 stats, parameters and figure formulas x 2,000 kinds of figure" in message


def test_finding10_figure_formulas_over_many_items_bounded():
    # each derived value works out an expression for every weapon the figure holds
    derived = [{"id": f"d{i}", "label": f"D{i}", "expr": f"sum_items('weapons', 'range') + {i}"} for i in range(200)]
    weapons = ", ".join(['"Bow/crossbow"'] * 60)
    text = head() + "".join(f'[[units]]\nname = "U{i}"\ntype = "basic"\ncount = {i + 1}\nweapons = [{weapons}]\n'
                            f'stats = {{ dice = 1, move = 6 }}\n' for i in range(1_000))
    message = refused(ruleset(derived=derived), text)
    assert "60,000 items they and the figure formulas go over" in message


def test_finding10_card_formulas_times_the_figures_of_a_huge_unit_bounded():
    # a card formula calling sum_of() goes over the figures of its unit, for each kind of figure in it
    data = rtoml.load(RULESETS / "fast_universal.toml")
    data["id"] = "hostile"
    data["card"]["columns"].append({"label": "All", "show": "{sum_of('move')}"})
    for row in data["card"].get("rows", []):  # (a row has a value for each column)
        row["values"].append("")
    rs = compile_ruleset_text(tomli_w.dumps(data), "hostile.toml")
    members = ", ".join(f"{{ count = {i + 1} }}" for i in range(4_000))
    text = head() + f'[[units]]\nname = "Horde"\ntype = "basic"\nmembers = [{members}]\n'
    message = refused(rs, text)
    # (32 since each card gives its whole rolls, its losses rounded down and a regiment's ranks, 14
    # parts reading the unit's weapons)
    assert "32 card formulas x 4,000 kinds of figure (over the figures of their unit)" in message
    # the same unit, its card formulas going over no figures (the melee line reads the unit's weapons): done
    data["card"]["columns"].pop()
    data["card"]["rows"] = []
    data["card"].pop("reminder", None)
    plain = compile_ruleset_text(tomli_w.dumps(data), "hostile.toml")
    assert len(open_value(loads_roster(text), plain).report.units[0].members) == 4_000


def test_finding10_the_command_line_names_the_file_exits_2_and_checks_the_other_lists(tmp_path):
    folder = tmp_path / "rulesets"
    folder.mkdir()
    data = rtoml.load(RULESETS / "fast_universal.toml")
    data.update(id="hostile", limits=data["limits"] + unit_limits(400))
    (folder / "hostile.toml").write_text(tomli_w.dumps(data))
    big = tmp_path / "big.toml"
    big.write_text(roster_text(1_000))
    small = tmp_path / "small.toml"
    small.write_text(roster_text(3))
    r = run_cli("--rulesets", folder, "validate", big, small)
    assert r.code == 2
    assert f"{big}: too much work for one roster: 402 unit limits x 1,000 units" in r.err
    assert "ruleset hostile is too large for a roster of this size: split the roster" in r.err
    assert f"rosterkit does at most {MAX_WORK:,}" in r.err
    assert f"{small}: x (Fast Universal Wargame), 126 points: 1,200 errors" in r.out  # checked: 400 limits x 3 units


def test_finding10_the_budget_follows_the_module_constant(monkeypatch):
    rs = ruleset(limits=unit_limits(10))
    roster = loads_roster(roster_text(40))
    work = sum(w for w, _ in work_parts(rs, roster))
    assert work >= LIMIT_WEIGHT * 12 * 40
    monkeypatch.setattr(budget, "MAX_WORK", work)
    assert len(open_value(roster, rs).report.units) == 40  # at the bound: done
    monkeypatch.setattr(budget, "MAX_WORK", work - 1)
    with pytest.raises(TooMuchWork, match=f"at most {work - 1:,}"):
        open_value(roster, rs)


@pytest.mark.parametrize("rid", ["fast_universal", "ares", "for_the_masses", "heroic_gods", "lego_combat"])
def test_finding10_real_rosters_of_twenty_thousand_units_are_within_the_budget(rid, registry):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "benchmarks"))
    from synth import synthetic_roster

    rs = registry.get(rid)
    # the work grows with the units: 2,000 units' work ten times over is 20,000 units' work
    work = sum(w for w, _ in work_parts(rs, synthetic_roster(rs, 2_000)))
    # (more than a seventh of the budget spare: ARES's is at 81.5% since each weapon's row gives the
    # attacker's roll, LEGO's at 81.5% since a slowed soldier's card gives his Move without the gear)
    assert 10 * work < 0.85 * MAX_WORK


def test_finding10_inline_members_count_toward_table_cap():
    members = ", ".join("{ count = 1 }" for _ in range(MAX_TABLES + 1))
    text = head("fast_universal") + f'[[units]]\nname = "Horde"\ntype = "basic"\nmembers = [{members}]\n'
    with pytest.raises(RosterkitError, match=f"more than {MAX_TABLES:,} tables"):
        loads_roster(text)


def test_finding10_inline_and_header_tables_count_together():
    # half the cap under headers, half and one more written inline: too many together
    half = MAX_TABLES // 2
    units = "".join(f'[[units]]\nname = "U{i}"\n[[units.members]]\n[[units.members]]\n' for i in range(half // 3))
    members = ", ".join("{ count = 1 }" for _ in range(half + 1))
    text = head("fast_universal") + f'{units}[[units]]\nname = "Horde"\nmembers = [{members}]\n'
    with pytest.raises(RosterkitError, match="tables"):
        loads_roster(text)
    # a roster of many units with inline stats, under the cap, loads
    text = roster_text(20_000, "fast_universal")
    assert len(loads_roster(text).units) == 20_000


def unknown_findings(findings) -> list:
    return [f for f in findings if f.rule == "unknown-stat"]


def test_finding10_unknown_stats_bounded(registry):
    keys = ", ".join(f"x{i} = 1" for i in range(5_000))
    text = head("fast_universal") + f'[[units]]\nname = "U"\ntype = "basic"\nstats = {{ movee = 1, {keys} }}\n'
    found = unknown_findings(validate(registry.get("fast_universal"), loads_roster(text)).findings)
    assert len(found) == UNKNOWN_SHOWN + 1
    assert found[0].message == "unknown stat 'movee'" and "did you mean 'move'?" in found[0].hint
    assert found[-1].message == \
        f"and {5_001 - UNKNOWN_SHOWN:,} more unknown stats (the first {UNKNOWN_SHOWN} are listed)"


def test_finding10_unknown_army_settings_bounded(registry):
    keys = ", ".join(f"x{i} = 1" for i in range(5_000))
    text = f'format = 1\nname = "x"\nruleset = "fast_universal"\nstats = {{ {keys} }}\n'
    found = unknown_findings(validate(registry.get("fast_universal"), loads_roster(text)).findings)
    assert len(found) == UNKNOWN_SHOWN + 1
    assert found[-1].message.startswith(f"and {5_000 - UNKNOWN_SHOWN:,} more unknown army settings")


def test_finding10_unknown_item_stats_bounded(registry):
    keys = ", ".join(f"x{i} = 1" for i in range(5_000))
    text = (f'format = 1\nname = "x"\nruleset = "fast_universal"\n[[units]]\nname = "U"\ntype = "basic"\n'
            f'weapons = ["Blaster"]\n[[weapons]]\nname = "Blaster"\nstats = {{ {keys} }}\n')
    found = [f for f in validate(registry.get("fast_universal"), loads_roster(text)).findings if f.rule == "item-stat"]
    assert len(found) == UNKNOWN_SHOWN + 1
    assert found[-1].message.endswith(f"and {5_000 - UNKNOWN_SHOWN:,} more unknown weapon stats "
                                      f"(the first {UNKNOWN_SHOWN} are listed)")


def test_finding10_unknown_stat_in_a_ruleset_of_thousands_of_stats_gets_a_short_hint():
    stats = [{"id": f"stat{i}", "label": f"Stat {i}", "default": 0} for i in range(5_000)]
    rs = ruleset(stats=stats)
    text = 'format = 1\nname = "x"\nruleset = "hostile"\n[[units]]\nname = "U"\ntype = "basic"\nstats = { movee = 1 }\n'
    (found,) = unknown_findings(validate(rs, loads_roster(text)).findings)
    assert "did you mean 'move'?" in found.hint and len(found.hint) < 100


def test_finding10_formulas_of_a_ruleset_are_bounded():
    # one card row of 10,001 values is 10,001 formulas: refused before they are compiled
    data = rtoml.load(RULESETS / "fast_universal.toml")
    data["card"]["rows"] = [{"label": "Many", "values": ["{dice}"] * (MAX_FORMULAS + 1)}]
    started = time.perf_counter()
    with pytest.raises(RosterkitError, match=rf"^fast_universal: 10,0\d\d formulas; a ruleset may have at most "
                                             rf"{MAX_FORMULAS:,}$"):
        compile_ruleset_text(tomli_w.dumps(data), "hostile.toml")
    assert time.perf_counter() - started < 1  # before compiling any
    del data["card"]["rows"]
    assert compile_ruleset_text(tomli_w.dumps(data), "hostile.toml").card_rows == []


def test_finding10_every_front_end_is_refused_at_open(tmp_path):
    # the terminal interface and the cards open a roster as the command line does: refused there
    from rosterkit.files.rulesets import Registry
    from rosterkit.workspace import open_roster

    data = rtoml.load(RULESETS / "fast_universal.toml")
    data.update(id="hostile", limits=data["limits"] + unit_limits(400))
    (tmp_path / "hostile.toml").write_text(tomli_w.dumps(data))
    registry = Registry([tmp_path])
    path = tmp_path / "big.toml"
    path.write_text(roster_text(1_000))
    with pytest.raises(TooMuchWork, match=f"^{path}: too much work for one roster"):
        open_roster(path, registry)
    with pytest.raises(TooMuchWork, match="^too much work for one roster"):
        open_value(loads_roster(roster_text(1_000)), registry)
    small = tmp_path / "small.toml"
    small.write_text(roster_text(3))
    assert len(open_roster(small, registry).report.units) == 3


def test_finding10_unknown_stats_spread_over_many_units_bounded():
    # ten unknown stats in each of 20,000 units: 200,000 findings, each with a "did you mean" (about
    # ten seconds before): refused before costing
    keys = ", ".join(f"x{i} = 1" for i in range(10))
    units = "".join(f'[[units]]\nname = "U{u}"\ntype = "basic"\nstats = {{ {keys} }}\n' for u in range(20_000))
    message = refused(ruleset(), head() + units)
    assert "200,000 unknown stats and names to report in 20,000 units" in message
    assert "correct the names and stats the ruleset does not know" in message
    # a stat misspelt in each of 500 units is reported in each
    units = "".join(f'[[units]]\nname = "U{u}"\ntype = "basic"\nstats = {{ movee = 1 }}\n' for u in range(500))
    found = unknown_findings(validate(ruleset(), loads_roster(head() + units)).findings)
    assert len(found) == 500 and all(f.hint.startswith("did you mean 'move'?") for f in found)


def test_finding10_misspelt_names_times_a_large_catalogue_bounded():
    # each misspelt name is compared with the catalogue's names for a "did you mean" (milliseconds
    # against hundreds alike): 2,000 names misspelt each their own way are refused before the work
    weapons = [{"name": f"Weapon number {i}", "cost": 1} for i in range(300)]
    rs = ruleset(weapons=weapons)
    units = "".join(f'[[units]]\nname = "U{u}"\ntype = "basic"\nweapons = ["Weapon numbr {u}"]\n' for u in range(2_000))
    message = refused(rs, head() + units)
    assert "2,000 unknown stats and names to report in 2,000 units (2,000 names misspelt)" in message
    # the same name misspelt in 2,000 units: one comparison, a finding for each unit
    units = "".join(f'[[units]]\nname = "U{u}"\ntype = "basic"\nweapons = ["Weapon numbr 7"]\n' for u in range(2_000))
    started = time.perf_counter()
    found = [f for f in open_value(loads_roster(head() + units), rs).findings if f.rule == "unknown-weapon"]
    assert time.perf_counter() - started < 5
    assert len(found) == 2_000 and all("did you mean 'Weapon number 7'" in f.hint for f in found)


def test_finding10_allowed_types_times_figures_holding_the_item_bounded():
    # an item for 5,000 types, held by figures of 2,000 units of another type: its types are looked up
    # once for the roster (not 10,000,000 comparisons), and each finding names 40 of them
    types = [{"id": f"t{i}", "name": f"Type {i}", "params": {"divisor": 1}} for i in range(5_000)]
    weapons = [{"name": "Lance", "cost": 1, "allowed_types": [f"t{i}" for i in range(5_000)]}]
    units = "".join(f'[[units]]\nname = "U{u}"\ntype = "basic"\ncount = {u + 1}\nweapons = ["Lance"]\n'
                    for u in range(2_000))
    rs, roster = ruleset(types=types, weapons=weapons), loads_roster(head() + units)
    started = time.perf_counter()
    found = [f for f in open_value(roster, rs).validation.findings if f.rule == "not-allowed"]
    assert time.perf_counter() - started < 5  # (the looked-up-each-time form takes minutes)
    assert len(found) == 2_000
    assert found[0].message == ("weapon 'Lance' is for " + ", ".join(f"Type {i}" for i in range(40))
                                + " and 4,960 more types only, not Basic")


def test_finding10_functions_over_the_figures_of_a_unit_count_each_pass():
    # differing() goes over the unit's figures once for each name given: 3 limits of 120 names over a
    # unit of 30,000 kinds of figure is 10,800,000 passes, though only 3 limits
    names = ", ".join(["'die'"] * 120)
    limits = [{"id": f"d{i}", "label": f"D{i}", "scope": "unit", "check": f"differing({names}) == ''",
               "message": "differs"} for i in range(3)]
    members = ", ".join("{ count = 1 }" for _ in range(30_000))
    unit = f'[[units]]\nname = "H"\ntype = "basic"\nmembers = [{members}]\n'
    data = rtoml.load(RULESETS / "fast_universal.toml")
    # (without the card's melee line and morale reminder, whose formulas read each figure: the limits alone)
    data.update(id="hostile", limits=data["limits"] + limits)
    data["card"]["rows"] = []
    data["card"].pop("reminder", None)
    message = refused(compile_ruleset_text(tomli_w.dumps(data), "hostile.toml"), head() + unit)
    assert "5 unit limits x 1 units" in message
