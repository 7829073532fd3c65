"""Text from a file never reaches the terminal raw: every command shows its control characters."""

from __future__ import annotations

import json

import pytest
from conftest import RULESETS, run_cli

from rosterkit.visible import json_text, visible

EVIL = "Evil\x1b[2J\x1b]0;pwned\x07\x1b]52;c;ZWNobyBoaQ==\x07\r\x1b[32mvalid\u202eetirw\x9b\x7f\n"
UNSAFE = {chr(c) for c in (*range(0x20), 0x7F, *range(0x80, 0xA0), 0x061C, 0x200E, 0x200F,
                           *range(0x202A, 0x202F), *range(0x2066, 0x206A))} - {"\n"}


def quoted(text: str) -> str:
    return json.dumps(text)  # a TOML basic string takes the same \\u escapes


def evil_roster(tmp_path):
    path = tmp_path / "evil.toml"
    q = quoted(EVIL)
    path.write_text(f"format = 1\nname = {q}\nruleset = \"fast_universal\"\nnotes = {q}\n"
                    f"[[units]]\nname = {q}\ntype = \"basic\"\ncount = 1\nweapons = [{q}]\nabilities = [{q}]\n"
                    f"[[weapons]]\nname = {q}\nstats = {{ shoot = 1, range = 12 }}\n", encoding="utf-8")
    return path


def evil_ruleset_folder(tmp_path):
    folder = tmp_path / "rulesets"
    folder.mkdir()
    text = (RULESETS / "fast_universal.toml").read_text(encoding="utf-8")
    text = text.replace('name = "Fast Universal Wargame"', f"name = {quoted(EVIL)}", 1)
    text = text.replace('name = "Machine Gun"', f"name = {quoted('Machine Gun' + EVIL)}", 1)
    (folder / "fast_universal.toml").write_text(text, encoding="utf-8")
    return folder


def assert_safe(text: str) -> None:
    bad = sorted({f"U+{ord(c):04X}" for c in text if c in UNSAFE})
    assert not bad, bad


@pytest.mark.parametrize("args", [["validate"], ["validate", "--json"], ["cost"], ["cost", "--brief"],
                                  ["cost", "--json"], ["text"], ["text", "--markdown"]])
def test_roster_commands_show_control_characters(tmp_path, args):
    r = run_cli(*args, evil_roster(tmp_path))
    assert_safe(r.out)
    assert_safe(r.err)
    if "--json" not in args:
        shown = r.out.replace("\\", "") if "--markdown" in args else r.out  # (Markdown escapes the brackets)
        assert "␛[2J" in shown and "<U+202E>" in shown  # shown, not hidden
    else:
        doc = json.loads(r.out)  # JSON keeps the exact text, escaped
        assert (doc["rosters"][0]["name"] if "rosters" in doc else doc["roster"]) == EVIL


def test_ruleset_commands_show_control_characters(tmp_path):
    folder = evil_ruleset_folder(tmp_path)
    for args in (["check-ruleset", folder / "fast_universal.toml"], ["rulesets", "--rulesets", folder],
                 ["check-ruleset", "--json", folder / "fast_universal.toml"]):
        r = run_cli(*args)
        assert_safe(r.out)
        assert_safe(r.err)
    r = run_cli("check-ruleset", folder / "fast_universal.toml")
    assert "Machine GunEvil␛[2J" in r.out


def test_error_messages_show_control_characters(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(f'format = 1\nname = "x"\nruleset = "fast_universal"\n{quoted(EVIL)} = 1\n', encoding="utf-8")
    r = run_cli("validate", path)
    assert r.code == 2 and "unknown key" in r.err
    assert_safe(r.err)
    path.write_text(f'format = 1\nname = "x"\nruleset = {quoted("fast" + EVIL)}\n', encoding="utf-8")
    r = run_cli("cost", path)
    assert r.code == 2
    assert_safe(r.err)


@pytest.mark.parametrize("char, shown", [("\x1b", "␛"), ("\n", "␊"), ("\t", "␉"), ("\x00", "␀"), ("\x7f", "␡"),
                                         ("\x9b", "<U+009B>"), ("\u202e", "<U+202E>"), ("\u2066", "<U+2066>")])
def test_visible(char, shown):
    assert visible(f"a{char}b") == f"a{shown}b"


@pytest.mark.parametrize("text", ["Łukasz", "Ωmega 東京", "Šárka's \"Guard\"", "plain"])
def test_visible_leaves_names_alone(text):
    assert visible(text) == text


def test_json_escapes_what_the_standard_leaves_raw():
    out = json_text({"name": EVIL})
    assert_safe(out)
    assert json.loads(out)["name"] == EVIL
