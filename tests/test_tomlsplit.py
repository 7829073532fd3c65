"""Parsing a big roster in two halves gives exactly what parsing it whole gives, or steps aside."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

from rosterkit import tomlsplit
from rosterkit.roster import dumps_roster, load_roster
from rosterkit.ruleset import Registry

sys.path.insert(0, str(Path(__file__).resolve().parent / "benchmarks"))
from synth import synthetic_roster  # noqa: E402

from conftest import run_cli  # noqa: E402

pytestmark = pytest.mark.skipif(not tomlsplit.available(), reason="needs Linux with two cores")


@pytest.fixture(scope="module")
def text() -> str:
    out = dumps_roster(synthetic_roster(Registry().get("ares"), 2500, seed=7))
    assert len(out) >= tomlsplit.MIN_CHARS
    return out


def test_halves_equal_the_whole(text):
    assert tomlsplit.parse_in_halves(text, tomllib.loads) == tomllib.loads(text)


def test_tables_after_the_units_are_kept(text):
    tail = '\n[house_prices]\n"Stun Gun" = 5\n\n[[weapons]]\nname = "Local Blaster"\ncost = 3\n'
    whole = tomllib.loads(text + tail)
    assert tomlsplit.parse_in_halves(text + tail, tomllib.loads) == whole
    assert whole["house_prices"] == {"Stun Gun": 5} and whole["weapons"][0]["name"] == "Local Blaster"


def test_windows_line_endings(text):
    crlf = text.replace("\n", "\r\n")
    assert tomlsplit.parse_in_halves(crlf, tomllib.loads) == tomllib.loads(crlf)


def cut_of(text: str) -> int:
    return tomlsplit._HEADER.search(text, len(text) // 2).start()


def test_a_header_line_inside_a_multiline_string_is_not_cut_at(text):
    # notes that quote a [[units]] line across the middle of the file: the whole text is one
    # valid document, and a cut there would change it
    cut = cut_of(text)
    doctored = text[:cut] + 'notes = """\n' + text[cut:cut + 200].split("\n", 1)[0] + '\n"""\n' + text[cut:]
    expected = tomllib.loads(doctored)
    result = tomlsplit.parse_in_halves(doctored, tomllib.loads)
    assert result is None or result == expected


def test_a_table_defined_in_both_halves_steps_aside(text):
    cut = cut_of(text)
    doctored = "[[weapons]]\nname = \"A\"\ncost = 1\n\n" + text[:cut] + "[[weapons]]\nname = \"B\"\ncost = 2\n\n" + \
        text[cut:]
    # valid TOML (an array of tables may continue later); the halves cannot be joined exactly
    assert tomlsplit.parse_in_halves(doctored, tomllib.loads) is None


def test_an_inline_units_array_before_the_cut_steps_aside(text):
    body = text[text.index("[[units]]"):]
    doctored = 'format = 1\nname = "x"\nruleset = "ares"\nunits = []\n\n[stats]\n' + body
    with pytest.raises(tomllib.TOMLDecodeError):
        tomllib.loads(doctored)
    assert tomlsplit.parse_in_halves(doctored, tomllib.loads) is None


@pytest.mark.parametrize("where", ["first", "second"])
def test_a_broken_half_gives_the_whole_files_message(text, tmp_path, where):
    cut = cut_of(text)
    at = cut // 2 if where == "first" else cut + (len(text) - cut) // 2
    at = text.index("\n", at) + 1
    broken = text[:at] + "this line is not TOML\n" + text[at:]
    assert tomlsplit.parse_in_halves(broken, tomllib.loads) is None
    path = tmp_path / "broken.toml"
    path.write_text(broken, encoding="utf-8")
    line = broken[:at].count("\n") + 1
    result = run_cli("validate", str(path))
    assert result.code == 2
    assert f"broken.toml:{line}: not valid TOML" in result.err


def test_values_the_child_cannot_send_back_step_aside(text):
    cut = cut_of(text)
    doctored = text[:cut] + text[cut:].replace('name = "Unit 2000"', 'name = "Unit 2000"\nwhen = 2026-11-21', 1)
    assert "2026-11-21" in doctored[cut:]
    assert tomlsplit.parse_in_halves(doctored, tomllib.loads) is None


def test_a_big_roster_file_loads_the_same_either_way(text, tmp_path, monkeypatch):
    monkeypatch.setenv("ROSTERKIT_NO_CACHE", "1")
    path = tmp_path / "big.toml"
    path.write_text(text, encoding="utf-8")
    split = load_roster(path).roster
    monkeypatch.setattr(tomlsplit, "available", lambda: False)
    assert load_roster(path).roster == split


# ---------------------------------------------------------------- generated documents

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_names = st.text(alphabet="abcxyz_", min_size=1, max_size=6)
_values = st.one_of(st.integers(-5, 50), st.sampled_from(["true", "false"]), st.sampled_from(['"a"', '"[[units]]"', "1.5", "[1, 2]",
                                                                        '"""\n[[units]]\n"""', "1979-05-27"]))
_noise = st.sampled_from(["[[units]]", "[units.stats]", "[[units.members]]", "[[weapons]]", "[house_prices]",
                          "[stats]", "units = []", "", "# [[units]]", "  [[units]]", "[[units]] \r", 'notes = """',
                          '"""', "[[ units ]]", "x = 1", "[units]"])


def _table(draw, header: str) -> list[str]:
    keys = draw(st.lists(_names, max_size=4, unique=True))
    return [header] + [f"{k} = {draw(_values)}" for k in keys]


@st.composite
def _documents(draw) -> str:
    """Mostly roster-shaped documents (a preamble, units with sub-tables, tables after), with noise."""
    lines = [f"{k} = {draw(_values)}" for k in draw(st.lists(_names, max_size=3, unique=True))]
    for _ in range(draw(st.integers(0, 8))):
        lines += _table(draw, "[[units]]")
        if draw(st.booleans()):
            lines += _table(draw, "[units.stats]")
        if draw(st.booleans()):
            lines += _table(draw, "[[units.members]]")
    for header in draw(st.lists(st.sampled_from(["[[weapons]]", "[house_prices]", "[stats]"]), max_size=3)):
        lines += _table(draw, header)
    for _ in range(draw(st.integers(0, 2))):
        lines.insert(draw(st.integers(0, len(lines))), draw(_noise))
    return "\n".join(lines) + "\n"


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(_documents())
def test_halves_never_differ_from_the_whole(monkeypatch, text):
    """For any document (valid or not), two halves give the whole parse or step aside."""
    monkeypatch.setattr(tomlsplit, "MIN_CHARS", 0)
    try:
        whole = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        whole = None
    result = tomlsplit.parse_in_halves(text, tomllib.loads)
    assert result is None or result == whole
