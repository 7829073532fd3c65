"""Bounded work for any formula: what a hostile ruleset or roster writes ends in the project's own
message naming the formula (and the unit), quickly, never a hang, gigabytes or an internal error."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest
from conftest import run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rosterkit.engine.costing import cost_roster
from rosterkit.engine.roster import RosterFile, Unit
from rosterkit.errors import FormulaError
from rosterkit.rules.formula import MAX_TEXT, compile_formula
from rosterkit.rules.ruleset import compile_ruleset
from rosterkit.rules.schema import RulesetFile

NAMES = {"x", "t", "big"}
ENV = {"x": 7, "t": "word", "big": "y" * 900}


def error_of(text: str, env=ENV, functions=None) -> str:
    with pytest.raises(FormulaError) as info:
        compile_formula(text, NAMES, functions).evaluate(env)
    return str(info.value)


@pytest.mark.parametrize("text, message", [
    ("round(x, 10 ** 12)", "round() takes a whole number of digits from -12 to 12"),
    ("round(x, 13)", "round() takes a whole number of digits from -12 to 12"),
    ("round('1e999999999')", "round() needs a number, not the text '1e999999999'"),
    ("'%.999999999f' % x", "% needs a number"),
    ("'%2000000000d' % 1", "% needs a number"),
    ("'x' * 200000000", "* needs a number"),
    ("t * 3", "* needs a number"),
    ("big + big", f"text too long (more than {MAX_TEXT} characters)"),
    ("-t", "- needs a number"),
    ("floor(t)", "floor() needs a number"),
    ("abs(t)", "abs() needs a number"),
    ("x ** 64 * x ** 64 * x ** 64 * x ** 64", "number too large"),
    ("1 / (x ** 64) / (x ** 64) / (x ** 64)", "too finely divided"),
])
def test_hostile_formulas_end_in_a_clear_error(text, message):
    err = error_of(text)
    assert message in err and f"`{text}`" in err


def test_plain_arithmetic_is_unchanged():
    f = compile_formula("x * 2 + t + 'y' if x > 1 else 0", NAMES)
    with pytest.raises(FormulaError):  # a number and text do not add up
        f.evaluate(ENV)
    assert compile_formula("t + 's'", NAMES).evaluate(ENV) == "words"
    assert compile_formula("-(x - 10) % 4 + x // 2 - round(x / 4, 1)", NAMES).evaluate(ENV) == Fraction(21, 5)  # 3 + 3 - 1.8, exactly


def test_has_given_a_number_is_the_formulas_error():
    rs_data = ruleset_data()
    rs_data["formulas"]["figure_cost"]["terms"][0]["expr"] = "has(1) * 10"
    report = cost_roster(compile_ruleset(RulesetFile.model_validate(rs_data)), roster())
    [finding] = [f for f in report.findings if f.rule == "formula"]
    assert "a number where a name in quotes is needed" in finding.message and "has(1) * 10" in finding.message


def ruleset_data() -> dict:
    from conftest import RULESETS

    from rosterkit.files.tomlfile import load_toml

    data, _ = load_toml(RULESETS / "fast_universal.toml")
    return copy.deepcopy(data)


def roster() -> RosterFile:
    return RosterFile(name="t", ruleset="fast_universal", units=[Unit(name="Men", type="basic", count=3)])


def test_a_chain_of_squares_stops_at_the_budget():
    """Derived stats that square each other: 28 links once never ended; now a finding, at once."""
    data = ruleset_data()
    data["derived"] = [{"id": "d0", "label": "d0", "expr": "move + 10"}] + [
        {"id": f"d{i}", "label": f"d{i}", "expr": f"d{i - 1} * d{i - 1}"} for i in range(1, 29)]
    report = cost_roster(compile_ruleset(RulesetFile.model_validate(data)), roster())
    [finding] = [f for f in report.findings if f.rule == "formula"]
    assert "number too large" in finding.message and "unit 'Men'" in finding.message


def test_a_cost_formula_giving_text_is_a_finding_not_a_crash(tmp_path):
    data = ruleset_data()
    data["formulas"]["figure_cost"]["terms"][0]["expr"] = "'a lot'"
    report = cost_roster(compile_ruleset(RulesetFile.model_validate(data)), roster())
    [finding] = [f for f in report.findings if f.rule == "formula"]
    assert "gives the text 'a lot' where a number is needed" in finding.message


def test_the_command_line_reports_a_text_cost_in_one_line(tmp_path):
    import tomli_w

    data = ruleset_data()
    data["formulas"]["figure_cost"]["terms"][0]["expr"] = "'a lot'"
    folder = tmp_path / "rulesets"
    folder.mkdir()
    (folder / "fast_universal.toml").write_text(tomli_w.dumps(data), encoding="utf-8")
    path = tmp_path / "army.toml"
    path.write_text('format = 1\nname = "x"\nruleset = "fast_universal"\n[[units]]\nname = "Men"\ntype = "basic"\n')
    for command in ("validate", "cost", "text"):
        r = run_cli(command, "--rulesets", folder, path)
        assert r.code in (0, 1) and "internal error" not in r.err and "Traceback" not in r.err


# ---------------------------------------------------------------- random formulas

LEAVES = st.one_of(st.integers(-10**12, 10**12), st.sampled_from(["x", "t", "big", "'w'", "''", "1.5"]))


def formulas(depth: int = 4):
    return st.recursive(LEAVES.map(str), lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "//", "%", "**", "<", "==", "and", "or"]), inner)
        .map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(st.sampled_from(["round", "floor", "ceil", "abs", "min", "max", "-", "not "]), inner)
        .map(lambda t: f"{t[0]}({t[1]})"),
        st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
    ), max_leaves=24)


@settings(max_examples=400, deadline=1000, suppress_health_check=[HealthCheck.too_slow])
@given(formulas())
def test_any_formula_gives_a_value_in_budget_or_a_formula_error(text):
    try:
        f = compile_formula(text, NAMES)
    except FormulaError:
        return
    try:
        value = f.evaluate(ENV)
    except FormulaError:
        return
    if isinstance(value, str):
        assert len(value) <= MAX_TEXT
    elif not isinstance(value, bool):
        assert abs(value) < 2 ** 400
