"""Every number and every text from a shared file bounded before work is done on it.

A roster alone (two weapons priced 1.79e308 and 0.00001) crashed nearly every command: totals
were shown and written through float(). A formula could repeat a text by a unit's count, or
read text such as '1e99999999' as a number, before the formula budget was checked. Each test
is named after the finding it reproduces."""

from __future__ import annotations

import copy
import json
import tracemalloc
from fractions import Fraction
from types import SimpleNamespace

import pytest
import tomli_w
from conftest import RULESETS, SAMPLES, run_cli

from rosterkit.cards.sizes import card_size
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.functions import RosterFunctions, UnitFunctions
from rosterkit.engine.validation import validate_report
from rosterkit.errors import FormulaError, RosterkitError
from rosterkit.files.rosters import load_roster
from rosterkit.files.tomlfile import load_toml
from rosterkit.rules.formula import MAX_TEXT, compile_formula
from rosterkit.rules.functions import ROSTER, functions_for
from rosterkit.rules.numbers import fmt, to_json
from rosterkit.rules.ruleset import compile_ruleset
from rosterkit.rules.schema import RulesetFile
from rosterkit.rules.stats import KINDS

VANGUARD = SAMPLES / "fast_universal_iron_vanguard.toml"
STATS = 'stats = { dice = 1, die = 6, move = 6, fight = 0, shoot = 0, defense = 8 }'


def huge_roster(tmp_path, cost: str = "1.79e308", name: str = "big.toml"):
    """The red team's roster: two local weapons priced 1.79e308 and 0.00001, count = 2."""
    path = tmp_path / name
    path.write_text(f'''format = 1
name = "Big"
ruleset = "fast_universal"

[[weapons]]
name = "Huge Gun"
cost = {cost}

[[weapons]]
name = "Tiny Gun"
cost = 0.00001

[[units]]
name = "Spearmen"
type = "Basic"
count = 2
weapons = ["Huge Gun", "Tiny Gun"]
{STATS}
''', encoding="utf-8")
    return path


def assert_no_crash(result) -> None:
    assert result.code in (0, 1), result.err
    assert "internal error" not in result.err and "Traceback" not in result.err + result.out


# ---------------------------------------------------------------- finding 4: totals past a float


def test_finding4_huge_weapon_price_does_not_crash_cost(tmp_path):
    r = run_cli("cost", huge_roster(tmp_path))
    assert_no_crash(r)
    assert "≈3.58e+308" in r.out  # the total, approximated by exact arithmetic


def test_finding4_total_beyond_display_is_a_finding_naming_the_item(tmp_path):
    r = run_cli("validate", huge_roster(tmp_path))
    assert r.code == 1 and "internal error" not in r.err
    [line] = [x for x in r.out.splitlines() if "too-large" in x]
    assert "Spearmen" in line and "weapon 'Huge Gun'" in line and "beyond what can be shown" in line
    assert "Tiny Gun" not in line  # 0.00001 is shown exactly


def test_finding4_huge_weapon_price_does_not_crash_text(tmp_path):
    for args in (("text",), ("text", "--markdown")):
        r = run_cli(*args, huge_roster(tmp_path))
        assert_no_crash(r)
        assert "Spearmen [≈3.58e+308 pts]" in r.out


def test_finding4_huge_weapon_price_does_not_crash_diff(tmp_path):
    r = run_cli("diff", huge_roster(tmp_path), VANGUARD)
    assert_no_crash(r)
    assert "≈3.58e+308 -> 497" in r.out


def test_finding4_huge_weapon_price_does_not_crash_matchup(tmp_path):
    r = run_cli("matchup", huge_roster(tmp_path), VANGUARD)
    assert_no_crash(r)
    assert "weapon 'Huge Gun'" in r.out and "≈3.58e+308 vs 497" in r.out


def test_finding4_huge_weapon_price_writes_valid_json(tmp_path):
    path = huge_roster(tmp_path)
    cost = run_cli("cost", "--json", path)
    assert_no_crash(cost)
    data = json.loads(cost.out)
    assert data["total"] == "≈3.58e+308" and data["units"][0]["total_exact"] == "≈3.58e+308"
    items = {i["name"]: i["cost"] for i in data["units"][0]["members"][0]["items"]}
    assert items == {"Huge Gun": "≈1.79e+308", "Tiny Gun": 0.00001}
    checked = run_cli("validate", "--json", path)
    assert checked.code == 1 and "internal error" not in checked.err
    [roster] = json.loads(checked.out)["rosters"]
    assert roster["total"] == "≈3.58e+308"
    assert any(f["rule"] == "too-large" and "Huge Gun" in f["message"] for f in roster["findings"])


def whole_number_roster(tmp_path):
    """Whole numbers past any float: a cost of 4,200 digits (TOML reads integers of any size)
    and a points limit of 1e300."""
    path = tmp_path / "ints.toml"
    path.write_text(f'format = 1\nname = "Ints"\nruleset = "fast_universal"\npoints_limit = 1e300\n'
                    f'[[weapons]]\nname = "Long Gun"\ncost = {"9" * 4200}\n'
                    f'[[units]]\nname = "Spearmen"\ntype = "Basic"\ncount = 2\nweapons = ["Long Gun"]\n{STATS}\n',
                    encoding="utf-8")
    return path


def test_finding4_huge_whole_numbers_and_limit_write_json(tmp_path):
    path = whole_number_roster(tmp_path)
    r = run_cli("cost", "--json", path)
    assert_no_crash(r)
    data = json.loads(r.out)
    assert data["total"] == "≈2.00e+4200" and data["limit"] == "≈1.00e+300"
    assert data["by_type"]["basic"] == {"points": "≈2.00e+4200", "share": "≈2.00e+3900"}
    r = run_cli("validate", path)
    assert r.code == 1
    assert "the points limit (≈1.00e+300) is beyond what can be shown" in r.out
    assert "weapon 'Long Gun' costs ≈1.00e+4200" in r.out


def test_finding4_huge_weapon_price_does_not_crash_cards_and_summary(tmp_path):
    out = tmp_path / "big.pdf"
    r = run_cli("cards", "-q", "-o", out, huge_roster(tmp_path))  # the summary page is on by default
    assert_no_crash(r)
    assert out.read_bytes().startswith(b"%PDF")


def test_finding4_update_records_no_overflowing_points(tmp_path):
    path = huge_roster(tmp_path)
    r = run_cli("update", path)
    assert_no_crash(r)
    unit = load_roster(path).roster.units[0]
    assert unit.points is None  # no float can hold the total: nothing recorded rather than inf


def test_finding4_recorded_points_add_up_without_overflow(tmp_path):
    # points recorded against an older version of the ruleset: two floats whose sum no float holds
    path = tmp_path / "recorded.toml"
    path.write_text('format = 1\nname = "Ver"\nruleset = "fast_universal"\nruleset_version = "0"\n' + "".join(
        f'[[units]]\nname = "{n}"\ntype = "Basic"\npoints = 1.79e308\n{STATS}\n' for n in "AB"), encoding="utf-8")
    r = run_cli("cost", path)
    assert_no_crash(r)
    [total] = [line.split() for line in r.out.splitlines() if line.split()[:1] == ["total"]]
    assert total == ["total", "≈3.58e+308", "42"]


def test_finding4_finely_divided_total_is_shown_bounded():
    # the sum of 1/p over 2,000 primes: a denominator of 7,000 digits, past Python's 4,300-digit text of ints
    primes = [p for p in range(2, 20000) if all(p % d for d in range(2, int(p ** 0.5) + 1))][:2000]
    total = sum((Fraction(1, p) for p in primes), Fraction(0))
    assert len(fmt(total)) < 20 and fmt(total).startswith("≈")
    from rosterkit.rules.numbers import exact_text

    assert exact_text(total) == fmt(total) and to_json(total) == fmt(total)
    assert fmt(Fraction(31, 3)) == "31/3 (≈10.33)" and to_json(Fraction(1, 4)) == 0.25  # unchanged


def test_finding4_price_literal_1e308_is_a_finding_and_1e400_refused(tmp_path):
    one = tmp_path / "one.toml"
    one.write_text(huge_roster(tmp_path).read_text().replace("cost = 0.00001", "cost = 1"), encoding="utf-8")
    r = run_cli("validate", one)
    assert r.code == 1 and "weapon 'Huge Gun' costs ≈1.79e+308" in r.out
    beyond = huge_roster(tmp_path, "1e400", "beyond.toml")
    r = run_cli("validate", beyond)
    assert r.code == 2 and "weapons[0].cost" in r.err and "expected a finite number" in r.err
    tiny = huge_roster(tmp_path, "1e-400", "tiny.toml")  # below the smallest double: read as 0
    r = run_cli("validate", tiny)
    assert r.code in (0, 1) and "internal error" not in r.err


@pytest.mark.parametrize("make, shown", [(huge_roster, "≈3.58e+308"), (whole_number_roster, "≈2.00e+4200")])
async def test_finding4_interface_opens_a_roster_with_a_huge_price(registry, tmp_path, make, shown):
    from test_tui_flows import WIDE, app_for, screen_text

    from rosterkit.tui.screens.roster import RosterScreen

    app = app_for(registry, tmp_path, make(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, RosterScreen)
        text = screen_text(app)
        assert "Spearmen" in text and shown in text


# ---------------------------------------------------------------- finding 5: formula work in budget


def ruleset_with(**extra) -> RulesetFile:
    data, _ = load_toml(RULESETS / "fast_universal.toml")
    data = copy.deepcopy(data)
    data["stats"].append({"id": "motto", "label": "Motto", "kind": "text"})
    for key, values in extra.items():
        data.setdefault(key, []).extend(values)
    return RulesetFile.model_validate(data)


def motto_roster(tmp_path, ruleset: RulesetFile, motto: str, count: int):
    folder = tmp_path / "rulesets"
    folder.mkdir(exist_ok=True)
    (folder / "fast_universal.toml").write_text(tomli_w.dumps(ruleset.model_dump(exclude_none=True)),
                                                encoding="utf-8")
    path = tmp_path / "army.toml"
    path.write_text(f'format = 1\nname = "x"\nruleset = "fast_universal"\n[[units]]\nname = "Mottoed"\n'
                    f'type = "Basic"\ncount = {count}\nstats = {{ motto = "{motto}" }}\n', encoding="utf-8")
    return folder, path


def test_finding5_sum_of_text_stat_within_budget(tmp_path):
    rs = ruleset_with(derived=[{"id": "mottos", "label": "Mottos", "scope": "unit", "expr": "sum_of('motto')"}])
    folder, path = motto_roster(tmp_path, rs, "m" * 900, 3)
    r = run_cli("validate", "--rulesets", folder, path)
    assert r.code == 1 and "internal error" not in r.err
    [line] = [x for x in r.out.splitlines() if "sum_of(" in x]
    assert "sum_of() needs a number, not the text 'mmmm" in line
    assert "unit 'Mottoed'" in line and "`sum_of('motto')`" in line


class _Unrepeatable(str):
    """A text that fails the test when repeated: the budget must refuse it before."""

    def __mul__(self, count):
        raise AssertionError(f"text of {len(self):,} characters repeated {count:,} times before any check")

    __rmul__ = __mul__


def test_finding5_sum_of_text_is_refused_before_it_is_repeated():
    members = [SimpleNamespace(count=1_000_000, env={"motto": _Unrepeatable("m" * 5000)})]
    with pytest.raises(TypeError, match=r"sum_of\(\) needs a number"):
        UnitFunctions(None, members).sum_of("motto")


def _no_text_fraction(value=0, *rest):
    if isinstance(value, str):
        raise AssertionError(f"the text {value[:20]!r} read as a number with no bound on its size")
    return Fraction(value, *rest)


@pytest.mark.parametrize("text", ["1e99999999", "1e9999999"])
def test_finding5_pct_huge_exponent_text_bounded(monkeypatch, tmp_path, text):
    monkeypatch.setattr("rosterkit.engine.functions.Fraction", _no_text_fraction)
    rs = ruleset_with(limits=[{"id": "pct-text", "label": "Pct", "scope": "unit", "check": f"pct('{text}') == ''",
                                "message": "pct"}])
    ruleset = compile_ruleset(rs)
    roster = load_roster(huge_roster(tmp_path)).roster
    report = cost_roster(ruleset, roster)
    [finding] = [f for f in validate_report(report).findings if "pct(" in f.message]
    assert f"pct() needs a number, not the text '{text}'" in finding.message
    assert "unit 'Spearmen'" in finding.message


def test_finding5_repeated_values_are_joined_within_budget():
    # 2,000 distinct texts of 5,000 characters, each held by two figures: 10 MB joined at once before
    units = [SimpleNamespace(type_id="basic", figures=2, members=[
        SimpleNamespace(count=2, stats={"motto": f"{i:05d}" + "m" * 4995}, env={})]) for i in range(2000)]
    report = SimpleNamespace(units=units, ruleset=SimpleNamespace())
    f = compile_formula("repeated('motto')", set(), functions_for(ROSTER))
    tracemalloc.start()
    try:
        with pytest.raises(FormulaError, match=f"text too long \\(more than {MAX_TEXT} characters\\)"):
            f.evaluate({}, RosterFunctions(report).table())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000  # the joined text was never built


def test_finding5_typed_stat_with_thousands_of_digits_is_refused():
    rs = compile_ruleset(ruleset_with())
    number = next(s for s in rs.data.stats if s.kind == "int")
    for kind in (KINDS["int"], KINDS["number"]):
        for typed in ("9" * 5000, "1" * 400 + ".5"):
            raw = kind.from_input(number, typed)
            value, problem = kind.coerce(number, raw)
            assert value is None and "is not" in problem
        assert kind.from_input(number, " 12 ") == 12 and kind.from_input(number, "2.50") == 2.5


def test_finding5_card_size_digits_bounded():
    with pytest.raises(RosterkitError, match="too many digits"):
        card_size("9" * 400 + "x90mm")
    assert card_size("63x88mm").width == pytest.approx(card_size("poker").width)


def test_finding5_points_option_digits_bounded(tmp_path):
    r = run_cli("new", "--ruleset", "fast_universal", "--name", "x", "--points", "9" * 5000, tmp_path / "a.toml")
    assert r.code == 2 and "too many digits (at most 30)" in r.err and "9" * 100 not in r.err
    r = run_cli("new", "--ruleset", "fast_universal", "--name", "x", "--points", "10" + "0" * 20, tmp_path / "b.toml")
    assert r.code == 2 and "expected a whole number of points from 1 to 999,999,999,999,999" in r.err
    assert not (tmp_path / "b.toml").exists()
    r = run_cli("new", "--ruleset", "fast_universal", "--name", "x", "--points", "750", tmp_path / "c.toml")
    assert r.code == 0 and load_roster(tmp_path / "c.toml").roster.points_limit == 750
