"""One fixture file per kind of bad input; each gives a clear message and the right exit code."""

import json

import pytest
from conftest import FIXTURES, run_cli

BAD = FIXTURES / "bad"
ZERO = FIXTURES / "zero_div"

# Unreadable inputs: exit 2, a message naming the file (and the key / line where there is one).
UNREADABLE = [
    ("malformed.toml", ["malformed.toml:4", "not valid TOML", "Expected ']]'", "^"]),
    ("wrong_type.toml", ["wrong_type.toml:4, points_limit: expected a number (got 'five hundred')",
                         "wrong_type.toml:9, units[0].count: expected a whole number (got 'ten')"]),
    ("unknown_key.toml", ["unknown_key.toml:8, units[0].cuont: unknown key"]),
    ("unknown_ruleset.toml", ["unknown_ruleset.toml:3, ruleset: unknown ruleset 'fast_universl'",
                              "did you mean 'fast_universal'?"]),
    ("not_utf8.toml", ["not_utf8.toml:2: not UTF-8 text"]),
]


@pytest.mark.parametrize("name, expected", UNREADABLE)
def test_unreadable_roster(name, expected):
    result = run_cli("validate", BAD / name)
    assert result.code == 2
    for text in expected:
        assert text in result.err
    assert "Traceback" not in result.err + result.out


@pytest.mark.parametrize("value, said", [("0", "(got 0)"), ("-5", "(got -5)"), ("500.5", "(got 500.5)")])
def test_a_points_limit_must_be_a_positive_whole_number(value, said):
    """A limit of 0 or less would allow no army (validate would advise removing points): the
    file is refused, naming the key and its line."""
    from rosterkit.errors import RosterkitError
    from rosterkit.files.rosters import loads_roster

    text = f'format = 1\nname = "x"\nruleset = "fast_universal"\npoints_limit = {value}\n'
    with pytest.raises(RosterkitError) as caught:
        loads_roster(text, "army.toml")
    assert f"army.toml:4, points_limit: must be a whole number of at least 1 {said}" in str(caught.value)


# Rosters that load but break the rules: exit 1, a finding with a rule id and a hint.
FINDINGS = [
    ("unknown_stat.toml", "unknown-stat", "unknown stat 'movee'", "did you mean 'move'?"),
    ("unknown_weapon.toml", "unknown-weapon", "unknown weapon 'Long bow'", "did you mean 'Longbow'"),
    ("unknown_ability.toml", "unknown-ability", "unknown ability 'Fearles'", "did you mean 'Fearless'"),
    ("unknown_type.toml", "unknown-type", "unknown type 'basik'", "did you mean 'basic'?"),
    ("out_of_range.toml", "stat-range", "Defense: 0 is out of range: expected a whole number from 1 to 100", None),
    ("out_of_range.toml", "stat-type", "Die type: 7 is not a die type d4, d6, d8, d10, d12, d20", None),
    ("ability_not_allowed.toml", "not-allowed", "ability 'Command' is for Hero only, not Basic", None),
    ("missing_weapon_stat.toml", "item-stat", "weapon 'Rock': Damage die must be entered", None),
]


@pytest.mark.parametrize("name, rule, message, hint", FINDINGS)
def test_roster_findings(name, rule, message, hint):
    result = run_cli("validate", "--json", BAD / name)
    assert result.code == 1
    findings = json.loads(result.out)["rosters"][0]["findings"]
    match = [f for f in findings if f["rule"] == rule]
    assert match, findings
    assert match[0]["message"] == message
    assert match[0]["unit_name"] and match[0]["line"]
    if hint:
        assert hint in match[0]["hint"]


def test_division_by_zero_names_formula_and_unit():
    result = run_cli("validate", "--json", "--rulesets", ZERO, BAD / "division_by_zero.toml")
    assert result.code == 1
    finding = json.loads(result.out)["rosters"][0]["findings"][0]
    assert finding["rule"] == "formula"
    assert finding["message"] == "division by zero for unit 'Statues' in formula `10 / (move - 6)`"


def test_global_rulesets_option_before_the_command():
    result = run_cli("--rulesets", ZERO, "validate", BAD / "division_by_zero.toml")
    assert result.code == 1 and "division by zero" in result.out


# Ruleset files with bad formulas: check-ruleset exits 1 with file, key, line and a caret.
RULESETS = [
    ("ruleset_syntax_error.toml", "formulas.figure_cost: syntax error", "10 * (move + / divisor"),
    ("ruleset_unknown_name.toml", "formulas.figure_cost: unknown name 'mvoe'", "did you mean 'move'?"),
    ("ruleset_import.toml", "names starting with '_' are not allowed: '__import__'", "__import__('os')"),
    ("ruleset_dunder.toml", "not allowed in a formula", "().__class__"),
    ("ruleset_huge_power.toml", "power too large", "9 ** 9 ** 9"),
    ("ruleset_wrong_type.toml", "stats[0].min: expected a number (got 'low')", None),
]


@pytest.mark.parametrize("name, message, extra", RULESETS)
def test_bad_ruleset(name, message, extra):
    result = run_cli("check-ruleset", BAD / name)
    assert result.code == 1
    assert f"{name}:" in result.err
    assert message in result.err
    if extra:
        assert extra in result.err
    if "formulas" in message or "allowed" in message or "power" in message:
        assert ":22," in result.err  # the line of figure_cost in the file
        assert "^" in result.err
    assert "Traceback" not in result.err


def test_formula_escape_never_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run_cli("check-ruleset", BAD / "ruleset_import.toml")
    result = run_cli("validate", "--rulesets", BAD, BAD / "unknown_ruleset.toml")
    assert "pwned" not in result.out + result.err


@pytest.mark.parametrize("args", [
    ["validate", "no/such/file.toml"],
    ["cost", "no/such/file.toml"],
    ["text", "no/such/file.toml"],
    ["check-ruleset", "no/such/file.toml"],
])
def test_missing_file_is_one_clear_line(args):
    result = run_cli(*args)
    assert result.code == 2
    assert result.err.strip() == "error: no/such/file.toml: no such file"


def test_directory_instead_of_file(tmp_path):
    result = run_cli("validate", tmp_path)
    assert result.code == 2
    assert "is a folder, not a file" in result.err


@pytest.mark.parametrize("addition, key, message", [
    ('[[figures]]\nname = "Golem"\ntype = "troop"\nstats = { mvoe = 3 }\n', "figures[0].stats.mvoe",
     "unknown stat 'mvoe'"),
    ('[[figures]]\nname = "Golem"\ntype = "troop"\nstats = { move = 99 }\n', "figures[0].stats.move",
     "99 is out of range: expected a whole number from 0 to 12"),
    ('[[weapons]]\nname = "Club"\ncost = 1\nstats = { reach = 1 }\n', "weapons[0].stats.reach",
     "unknown weapon stat 'reach'"),
    ('[[figures]]\nname = "Golem"\ntype = "troup"\n', "figures[0].type", "unknown type 'troup'"),
])
def test_ruleset_catalogue_mistakes(tmp_path, addition, key, message):
    text = (FIXTURES / "mini_ruleset.toml").read_text(encoding="utf-8") + "\n" + addition
    path = tmp_path / "mini.toml"
    path.write_text(text, encoding="utf-8")
    result = run_cli("check-ruleset", path)
    assert result.code == 1
    assert f"{key}: {message}" in result.err
