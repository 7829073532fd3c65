"""Hostile files: whatever a shared file holds, it is refused or loaded with bounded work,
with one clear line naming the file (never a hang, a flood of output or gigabytes of memory)."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import RULESETS, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

HEAD = 'format = 1\nname = "x"\nruleset = "fast_universal"\n'
LIMIT = 60  # seconds: a guard against hanging, far above what any of these takes


def rosterkit(*args, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, ROSTERKIT_HOME=str(cwd / "home"))
    return subprocess.run([sys.executable, "-m", "rosterkit", *map(str, args)], capture_output=True, text=True,
                          timeout=LIMIT, cwd=cwd, env=env)


def test_a_pipe_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "army.toml"
    os.mkfifo(fifo)
    r = rosterkit("validate", fifo, cwd=tmp_path)
    assert r.returncode == 2 and "is not a regular file" in r.stderr and str(fifo) in r.stderr


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_is_refused_without_reading_it(tmp_path, device):
    if not Path(device).exists():
        pytest.skip(f"no {device}")
    r = rosterkit("validate", device, cwd=tmp_path)
    assert r.returncode == 2 and "is not a regular file" in r.stderr


def test_forty_thousand_unknown_keys_give_fifty_lines_and_a_count(tmp_path):
    path = tmp_path / "keys.toml"
    path.write_text(HEAD + "".join(f"k{i} = 1\n" for i in range(40_000)))
    r = run_cli("validate", path)
    lines = r.err.splitlines()
    assert r.code == 2 and len(lines) == 51
    assert lines[0].endswith("k0: unknown key") and ":4," in lines[0]  # file, line and key
    assert lines[-1].endswith("and 39,950 more problems (the first 50 are shown)")


def test_a_seven_megabyte_key_is_named_briefly(tmp_path):
    path = tmp_path / "key.toml"
    path.write_text(HEAD + "k" * 7_000_000 + " = 1\n")
    r = run_cli("validate", path)
    assert r.code == 2 and "(7,000,000 characters): unknown key" in r.err
    assert max(len(line) for line in r.err.splitlines()) < 300


def test_hundreds_of_thousands_of_tables_are_refused_before_parsing(tmp_path):
    path = tmp_path / "members.toml"
    path.write_text(HEAD + '[[units]]\nname = "u"\n' + "[[units.members]]\n" * 390_000)
    r = run_cli("validate", path)
    assert r.code == 2 and "more than 60,000 tables" in r.err


def test_units_written_with_spaces_in_the_header_are_counted(tmp_path):
    path = tmp_path / "spaced.toml"
    path.write_text(HEAD + '[[ units ]]\nname = "u"\n' * 30_000)
    r = run_cli("validate", path)
    assert r.code == 2 and "30,000 units declared; a roster may have at most 20,000" in r.err


def test_a_key_of_thirty_thousand_parts_is_refused(tmp_path):
    path = tmp_path / "dotted.toml"
    path.write_text(HEAD + "a" + ".b" * 32_000 + " = 1\n")
    r = run_cli("validate", path)
    assert r.code == 2 and "not valid TOML: nested too deeply" in r.err


def test_misspellings_against_a_huge_catalogue_still_get_suggestions(tmp_path):
    folder = tmp_path / "rulesets"
    folder.mkdir()
    text = (RULESETS / "fast_universal.toml").read_text(encoding="utf-8").replace(
        'id = "fast_universal"', 'id = "big_catalogue"', 1)
    text += "".join(f'\n[[weapons]]\nname = "Weapon number {i}"\nstats = {{ fight = 1, shoot = 0, range = 0 }}\n'
                    for i in range(20_000))
    (folder / "big_catalogue.toml").write_text(text, encoding="utf-8")
    roster = tmp_path / "misspelt.toml"
    roster.write_text('format = 1\nname = "x"\nruleset = "big_catalogue"\n' + "".join(
        f'[[units]]\nname = "u{i}"\ntype = "basic"\nweapons = ["Wepon numbr {i}x"]\n' for i in range(100)))
    r = run_cli("validate", "--rulesets", folder, roster)
    assert r.code == 1
    assert r.out.count("unknown weapon") == 100 and r.out.count("did you mean 'Weapon number") == 100


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e999"])
def test_a_number_that_is_not_finite_is_refused(tmp_path, value):
    path = tmp_path / "nan.toml"
    path.write_text(HEAD + f'points_limit = {value}\n[house_prices]\n"Pistol" = {value}\n'
                    f'[[units]]\nname = "u"\ntype = "basic"\nstats = {{ move = {value} }}\n')
    r = run_cli("validate", path)
    assert r.code == 2 and "Traceback" not in r.err
    assert "points_limit: expected a finite number" in r.err and "house_prices.Pistol" in r.err


def test_a_ruleset_with_an_infinite_cost_or_bound_is_refused(tmp_path):
    text = (RULESETS / "fast_universal.toml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("cost = 68", "cost = inf", 1).replace("max = 100", "max = nan", 1), encoding="utf-8")
    r = run_cli("check-ruleset", bad)
    assert r.code == 1 and "Traceback" not in r.err
    assert "weapons[16].cost: expected a finite number" in r.err or "cost: expected a finite number" in r.err
    assert "stats[0].max: expected a finite number" in r.err


def test_an_integer_of_thousands_of_digits_is_refused(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text(HEAD + "points_limit = " + "9" * 5000 + "\n")
    r = run_cli("cost", "--json", path)
    assert r.code == 2 and "a number too long to read" in r.err


def test_a_deeply_nested_table_is_refused(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text(HEAD + "notes = " + "{a = " * 1200 + "1" + "}" * 1200 + "\n")
    r = run_cli("validate", path)
    assert r.code == 2 and "nested too deeply" in r.err


# ---------------------------------------------------------------- random documents


KEYS = ["format", "name", "ruleset", "points_limit", "units", "stats", "weapons", "abilities", "members", "type",
        "count", "figure", "move", "fight", "defense", "house_prices", "id", "types", "formulas", "x", "\x1b", "a.b"]
VALUES = st.one_of(
    st.integers(-10**20, 10**20).map(str), st.floats(allow_nan=True, allow_infinity=True).map(
        lambda f: {float("inf"): "inf", float("-inf"): "-inf"}.get(f, "nan" if math.isnan(f) else repr(f))),
    st.text(max_size=12).map(lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'),
    st.sampled_from(["true", "false", "[]", "{}", '"fast_universal"', '"basic"', "1979-05-27", "[1, 'a']",
                     "{ move = 6 }", '"Bow"', "[\"Bow\", \"Lazer\"]", "'''multi\nline'''"]))
LINES = st.one_of(
    st.tuples(st.sampled_from(KEYS), VALUES).map(lambda kv: f"{kv[0]} = {kv[1]}"),
    st.sampled_from(["[[units]]", "[units.stats]", "[[units.members]]", "[stats]", "[house_prices]", "[[weapons]]",
                     "[[ units ]]", "[units]", "[[types]]", "[formulas]", "# a comment", ""]),
    st.text(max_size=20),  # anything at all
)
DOCUMENTS = st.lists(LINES, max_size=40).map(
    lambda lines: 'format = 1\nname = "x"\nruleset = "fast_universal"\n' + "\n".join(lines) + "\n")


@settings(max_examples=300, deadline=2000, suppress_health_check=[HealthCheck.too_slow])
@given(DOCUMENTS)
def test_any_document_opens_or_fails_with_a_clear_message(text):
    from rosterkit.errors import RosterkitError
    from rosterkit.workspace import open_text

    try:
        opened = open_text(text, REGISTRY, "gen.toml")
        findings = opened.findings
    except RosterkitError as exc:
        assert exc.problems and all(p.message for p in exc.problems)
        return
    assert all(f.severity in ("error", "warning", "info") for f in findings)


@settings(max_examples=150, deadline=3000, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LINES, max_size=40))
def test_any_document_as_a_ruleset_loads_or_fails_with_a_clear_message(lines):
    from rosterkit.errors import RosterkitError
    from rosterkit.files.rulesets import compile_ruleset_text

    try:
        compile_ruleset_text('id = "gen"\nname = "Gen"\n' + "\n".join(lines) + "\n", "gen.toml")
    except RosterkitError as exc:
        assert exc.problems and all(p.message for p in exc.problems)


def _registry():
    from rosterkit.files.rulesets import Registry

    return Registry()


REGISTRY = _registry()
