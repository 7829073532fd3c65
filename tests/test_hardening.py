"""Hostile and broken files: every input gives a roster or a clear message, quickly, never a crash."""

import copy
import os
import time
import tomllib

import pytest
import tomli_w
from conftest import RULESETS, SAMPLES, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rosterkit.engine.costing import cost_roster
from rosterkit.engine.roster import RosterFile
from rosterkit.engine.validation import validate_report
from rosterkit.errors import RosterkitError
from rosterkit.files.rosters import load_roster, loads_roster
from rosterkit.files.rulesets import load_ruleset_file
from rosterkit.rules.ruleset import compile_ruleset

FU = load_ruleset_file(RULESETS / "fast_universal.toml")
FU_DATA = tomllib.loads((RULESETS / "fast_universal.toml").read_text(encoding="utf-8"))

scalars = st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False), st.booleans(),
                    st.text(max_size=20), st.sampled_from(["basic", "hero", "Bow", "Fearless", "D6", "2d6", ""]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                      max_leaves=12)
unit_like = st.fixed_dictionaries({"name": st.text(min_size=1, max_size=20)}, optional={
    "type": st.sampled_from(["basic", "hero", "vehicle", "elite", "Ordinance", "nope", ""]),
    "count": st.one_of(st.integers(-3, 50), st.text(max_size=3)),
    "stats": st.dictionaries(st.sampled_from(["dice", "die", "move", "fight", "shoot", "defense", "bogus"]),
                             scalars, max_size=6),
    "weapons": st.lists(st.sampled_from(["Bow", "Machine Gun", "bow", "Lazer", ""]), max_size=3),
    "abilities": st.lists(st.sampled_from(["Fearless", "Command", "Rear Attack Arc", "Nope"]), max_size=3),
    "figure": st.sampled_from(["Average human", "Nobody"]),
    "extra": values,
})
roster_like = st.fixed_dictionaries({"format": st.just(1), "name": st.text(min_size=1, max_size=30),
                                     "ruleset": st.just("fast_universal")}, optional={
    "points_limit": st.one_of(st.integers(-100, 5000), st.floats(0, 5000), st.text(max_size=4)),
    "units": st.lists(unit_like, max_size=5),
    "house_prices": st.dictionaries(st.text(max_size=10), st.integers(0, 100), max_size=2),
    "weapons": st.lists(st.fixed_dictionaries({"name": st.text(min_size=1, max_size=10)}, optional={
        "stats": st.dictionaries(st.sampled_from(["fight", "shoot", "range", "x"]), scalars, max_size=3),
        "cost": st.integers(-5, 100)}), max_size=2),
})


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(roster_like)
def test_any_roster_loads_and_validates_or_fails_cleanly(data):
    try:
        text = tomli_w.dumps(data)
    except (TypeError, ValueError):
        return  # not representable as TOML at all
    started = time.perf_counter()
    try:
        roster = loads_roster(text, "gen.toml")
    except RosterkitError as exc:
        assert all(p.file == "gen.toml" for p in exc.problems)
        return
    validation = validate_report(cost_roster(FU, roster))
    for f in validation.findings:
        assert f.severity in ("error", "warning", "info") and f.rule and f.message
    assert time.perf_counter() - started < 2


def _paths(node, prefix=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield prefix + (k,)
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield prefix + (i,)
            yield from _paths(v, prefix + (i,))


PATHS = list(_paths(FU_DATA))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PATHS), values)
def test_any_ruleset_mutation_compiles_or_fails_cleanly(path, value):
    data = copy.deepcopy(FU_DATA)
    node = data
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    from pydantic import ValidationError

    from rosterkit.rules.schema import RulesetFile
    try:
        rf = RulesetFile.model_validate(data)
        rs = compile_ruleset(rf)
    except (ValidationError, RosterkitError):
        return
    roster = load_roster(SAMPLES / "fast_universal_iron_vanguard.toml").roster
    validate_report(cost_roster(rs, roster))


def test_a_hundred_thousand_character_name_is_refused(tmp_path):
    path = tmp_path / "long.toml"
    path.write_text(f'format = 1\nname = "{"x" * 100_000}"\nruleset = "fast_universal"\n')
    result = run_cli("validate", path)
    assert result.code == 2 and "name: too long (at most 200 characters)" in result.err


def test_a_huge_file_is_refused_before_reading(tmp_path):
    path = tmp_path / "huge.toml"
    with open(path, "wb") as fh:
        fh.truncate(50 * 1024 * 1024)
    started = time.perf_counter()
    result = run_cli("validate", path)
    assert result.code == 2 and "file too large (50 MB; at most 8 MB)" in result.err
    assert time.perf_counter() - started < 1


def test_half_a_million_units_declared_is_refused_quickly(tmp_path):
    path = tmp_path / "many.toml"
    path.write_text('format = 1\nname = "x"\nruleset = "fast_universal"\n' + "[[ units ]]\n" * 500_000)
    started = time.perf_counter()
    result = run_cli("validate", path)
    assert result.code == 2 and "500,000 units declared; a roster may have at most 20,000" in result.err
    assert time.perf_counter() - started < 2


@pytest.mark.parametrize("raw, ok", [
    (b'\xef\xbb\xbfformat = 1\nname = "BOM"\nruleset = "fast_universal"\n', True),
    (b'format = 1\r\nname = "Windows"\r\nruleset = "fast_universal"\r\n', True),
    ('format = 1\nname = "Łukasz Ωmega 東京 Šárka"\nruleset = "fast_universal"\n'.encode(), True),
    ('format = 1\nname = "Café"\nruleset = "fast_universal"\n'.encode("latin-1"), False),
    ('format = 1\nname = "x"\nruleset = "fast_universal"\n'.encode("utf-16"), False),
])
def test_encodings(tmp_path, raw, ok):
    path = tmp_path / "enc.toml"
    path.write_bytes(raw)
    result = run_cli("validate", path)
    if ok:
        assert result.code == 0, result.err  # an empty army with no limit has nothing to break
        assert "0 points: valid" in result.out
    else:
        assert result.code == 2 and "not UTF-8 text" in result.err


@pytest.mark.parametrize("command", ["validate", "cost", "text", "check-ruleset", "cards"])
def test_every_command_on_a_missing_file_prints_one_line(tmp_path, command):
    missing = tmp_path / "missing.toml"
    result = run_cli(command, missing, *(["-o", tmp_path / "x.pdf"] if command == "cards" else []))
    assert result.code == 2
    assert result.err.strip() == f"error: {missing}: no such file"


@pytest.mark.parametrize("command", ["validate", "cost", "text", "check-ruleset", "cards"])
def test_unreadable_file(tmp_path, monkeypatch, command):
    path = tmp_path / "locked.toml"
    path.write_text('format = 1\nname = "x"\nruleset = "fast_universal"\n')
    real_open = os.open

    def denied(file, *args, **kwargs):  # as a file without read permission (tests may run as root)
        if os.fspath(file) == str(path):
            raise PermissionError(13, "Permission denied")
        return real_open(file, *args, **kwargs)
    monkeypatch.setattr(os, "open", denied)
    result = run_cli(command, path, *(["-o", tmp_path / "x.pdf"] if command == "cards" else []))
    assert result.code == 2
    assert result.err.strip() == f"error: {path}: permission denied: cannot read the file"


@pytest.mark.parametrize("command", ["validate", "cost", "text", "check-ruleset", "cards"])
def test_every_command_on_a_folder_prints_one_line(tmp_path, command):
    result = run_cli(command, tmp_path, *(["-o", tmp_path / "x.pdf"] if command == "cards" else []))
    assert result.code == 2
    assert result.err.strip() == f"error: {tmp_path}: is a folder, not a file"


def test_roster_given_to_check_ruleset_is_the_wrong_kind_of_file():
    result = run_cli("check-ruleset", SAMPLES / "fast_universal_iron_vanguard.toml")
    assert result.code == 2
    assert result.err.strip().replace("\n", " ") == (
        f"error: {SAMPLES / 'fast_universal_iron_vanguard.toml'}: this is a roster, not a ruleset; "
        "check it with rosterkit validate")


@pytest.mark.parametrize("command", ["validate", "cost", "text", "cards"])
def test_ruleset_given_where_a_roster_is_expected(command, tmp_path):
    args = [command, RULESETS / "ares.toml"] + (["-o", tmp_path / "x.pdf"] if command == "cards" else [])
    result = run_cli(*args)
    assert result.code == 2
    assert result.err.strip().replace("\n", " ") == (
        f"error: {RULESETS / 'ares.toml'}: this is a ruleset file (ares), not a roster; "
        "check it with rosterkit check-ruleset")


def test_empty_roster_model_is_valid_shape():
    assert RosterFile(name="x", ruleset="fast_universal").units == []
