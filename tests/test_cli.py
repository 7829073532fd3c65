"""The command line as a player and a script use it."""

import json
import os
from pathlib import Path

import pytest
from conftest import ROOT, SAMPLES, run_cli

from rosterkit.files.rosters import load_roster
from rosterkit.files.rulesets import builtin_dir

IRON = SAMPLES / "fast_universal_iron_vanguard.toml"


def test_cost_table_explains_every_point():
    result = run_cli("cost", IRON)
    assert result.code == 0
    out = result.out
    for text in ["#1 Spearmen: Basic, 10 miniatures", "1 * 6 * 6 = 36", "6 * 8 = 48", "84 / 4 = 21",
                 "x 10 miniatures", "Captain Aldric", "Command", "497 of 500", "Points by type"]:
        assert text in out, text


def test_cost_json_has_the_same_numbers():
    result = run_cli("cost", "--json", IRON)
    doc = json.loads(result.out)
    assert doc["total"] == 497 and doc["limit"] == 500
    spear = doc["units"][0]
    assert spear["figures"] == 10 and spear["total"] == 210
    m = spear["members"][0]
    assert [t["value"] for t in m["terms"]] == [36, 48, 0, 0]
    assert m["figure_cost"] == 21 and m["per_figure"] == 21
    assert doc["by_type"]["basic"]["points"] == 382
    assert doc["by_type"]["hero"]["share"] == pytest.approx(0.23)


def test_cost_json_keeps_fractions_exact():
    doc = json.loads(run_cli("cost", "--json", SAMPLES / "fast_universal_ashen_host.toml").out)
    shield = doc["units"][1]
    assert shield["members"][0]["per_figure"] == 22.5
    assert shield["members"][0]["per_figure_exact"] == "45/2"


def test_validate_exit_codes():
    assert run_cli("validate", IRON).code == 0
    assert run_cli("validate", SAMPLES / "fast_universal_INVALID_hero_heavy.toml").code == 1
    assert run_cli("validate", IRON, SAMPLES / "fast_universal_INVALID_hero_heavy.toml").code == 1
    assert run_cli("validate", "nope.toml").code == 2


def test_validate_prints_severity_unit_rule_and_message():
    out = run_cli("validate", SAMPLES / "fast_universal_INVALID_hero_heavy.toml").out
    assert "1 error" in out
    assert "error" in out and "army" in out and "hero-max" in out
    assert "Heroes are 31% of points (155 of 500)" in out


def test_new_creates_an_empty_roster(tmp_path):
    path = tmp_path / "new.toml"
    result = run_cli("new", "--ruleset", "fast_universal", "--name", "Ωmega Legion", "--points", "750", path)
    assert result.code == 0
    roster = load_roster(path).roster
    assert (roster.name, roster.ruleset, roster.points_limit, roster.units) == ("Ωmega Legion", "fast_universal",
                                                                               750, [])
    again = run_cli("new", "--ruleset", "fast_universal", "--name", "x", path)
    assert again.code == 2 and "file exists" in again.err
    assert run_cli("validate", path).code == 1  # empty: no basic troops yet


def test_new_with_unknown_ruleset(tmp_path):
    result = run_cli("new", "--ruleset", "nope", "--name", "x", tmp_path / "x.toml")
    assert result.code == 2 and "unknown ruleset 'nope'" in result.err


def test_rulesets_lists_the_built_ins():
    result = run_cli("rulesets")
    assert result.code == 0
    assert "fast_universal" in result.out and "Bobby R. Wallen Jr." in result.out


def test_user_rulesets_folder_and_option(tmp_path, monkeypatch):
    own = tmp_path / "own"
    own.mkdir()
    text = (builtin_dir() / "fast_universal.toml").read_text(encoding="utf-8")
    (own / "house.toml").write_text(text.replace('id = "fast_universal"', 'id = "house_rules"'), encoding="utf-8")
    assert "house_rules" in run_cli("rulesets", "--rulesets", own).out
    monkeypatch.setenv("ROSTERKIT_HOME", str(tmp_path))
    (tmp_path / "rulesets").mkdir()
    (tmp_path / "rulesets" / "house.toml").write_text(
        text.replace('id = "fast_universal"', 'id = "house_rules"'), encoding="utf-8")
    assert "house_rules" in run_cli("rulesets").out


def test_text_list_plain_and_markdown():
    plain = run_cli("text", IRON).out
    assert plain.startswith("++ Iron Vanguard [Fast Universal Wargame] [497 / 500 pts] ++\n")
    assert "Spearmen [210 pts]: 10x Spearmen, Claw/hand/spear/sword\n" in plain
    assert "\n    1d6 M:6 F:0 S:0 D:8\n" in plain  # the stat line as the rules write it
    md = run_cli("text", "--markdown", IRON).out
    assert md.startswith("**++ Iron Vanguard") and "**Basic [382 pts]**" in md and "- **Spearmen [210 pts]**" in md


def test_text_list_unit_without_gear_ends_at_its_points():
    trojans = SAMPLES / "heroic_gods_trojans.toml"
    plain = run_cli("text", trojans).out
    assert "\nHector [5 victory points the enemy can score]\n" in plain  # no dangling ": "
    md = run_cli("text", "--markdown", trojans).out
    assert "\n- **Hector [5 victory points the enemy can score]**\n" in md


def test_python_dash_m_works():
    import subprocess
    import sys
    result = subprocess.run([sys.executable, "-m", "rosterkit", "validate", str(IRON)], capture_output=True,
                            text=True)
    assert result.returncode == 0 and "valid" in result.stdout


def test_help_lists_commands():
    result = run_cli("--help")
    assert result.code == 0
    for cmd in ["validate", "cost", "new", "rulesets", "check-ruleset", "text"]:
        assert cmd in result.out


def test_the_command_prints_everything_before_it_leaves(tmp_path):
    """`rosterkit` leaves a one-shot command without freeing objects one by one: what it
    printed to a pipe must still arrive whole, with the right exit code."""
    import subprocess
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent / "benchmarks"))
    from synth import synthetic_roster

    from rosterkit.files.rosters import save_roster
    from rosterkit.files.rulesets import Registry

    path = tmp_path / "big.toml"
    save_roster(synthetic_roster(Registry().get("lego_combat"), 600), path)
    env = dict(os.environ, ROSTERKIT_NO_CACHE="1")
    piped = subprocess.run([sys.executable, "-m", "rosterkit", "cost", "--json", str(path)], capture_output=True,
                           text=True, env=env)
    assert piped.returncode == 0
    doc = json.loads(piped.stdout)
    assert len(doc["units"]) == 600 and doc == json.loads(run_cli("cost", "--json", str(path)).out)
    checked = subprocess.run([sys.executable, "-m", "rosterkit", "validate", str(path)], capture_output=True,
                             text=True, env=env)
    in_process = run_cli("validate", str(path))
    assert checked.returncode == in_process.code == 1
    assert checked.stdout == in_process.out and checked.stdout.count("\n") > 600


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("command", [["cost", "--json"], ["validate"], ["text"]])
def test_output_to_a_full_disk_is_one_clear_line(command):
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "rosterkit", *command, str(IRON)], stdout=full,
                                stderr=subprocess.PIPE, text=True)
    assert result.returncode == 2
    assert result.stderr.strip() == "error: cannot write the output: No space left on device"


def test_piped_check_ruleset_keeps_each_entry_on_one_line(cli):
    """`rosterkit check-ruleset FILE | grep "Machine Gun"` finds the entry with both numbers."""
    r = cli("check-ruleset", ROOT / "rulesets" / "fast_universal.toml")
    [line] = [ln for ln in r.out.splitlines() if "Machine Gun" in ln]
    assert "68" in line and "40" in line and "weapon_cost formula" in line


def test_piped_cost_is_aligned_plain_text(cli):
    r = cli("cost", SAMPLES / "fast_universal_iron_vanguard.toml")
    lines = r.out.splitlines()
    assert all(ln == ln.rstrip() for ln in lines), "no trailing spaces"
    assert not any(ch in r.out for ch in "┃━│─\x1b"), "no box drawing or colour codes"
    total = next(ln for ln in lines if ln.split()[:1] == ["Total"])
    priced = json.loads(cli("cost", "--json", SAMPLES / "fast_universal_iron_vanguard.toml").out)["total"]
    assert total.split()[-3:] == [str(priced), "of", "500"]
    per_unit = [ln for ln in lines if "Spearmen" in ln and "Basic" in ln]
    assert any(ln.split()[-1] == "210" for ln in per_unit)


def test_a_players_ruleset_with_a_built_in_id_is_used_and_named(cli, tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    text = (ROOT / "rulesets" / "fast_universal.toml").read_text(encoding="utf-8")
    (folder / "my_version.toml").write_text(text.replace('name = "Fast Universal Wargame"',
                                                         'name = "House Rules"', 1), encoding="utf-8")
    sample = SAMPLES / "fast_universal_iron_vanguard.toml"
    r = cli("validate", "--rulesets", folder, sample)
    assert "(House Rules)" in r.out and f"ruleset fast_universal from {folder / 'my_version.toml'}" in r.out
    assert json.loads(cli("cost", "--json", "--rulesets", folder, sample).out)["ruleset_file"] == \
        str(folder / "my_version.toml")
    assert "not the built-in" not in cli("validate", sample).out
    # a mistake in the player's file is reported against that file
    (folder / "my_version.toml").write_text(text.replace("cost = 68", 'cost = "lots"', 1), encoding="utf-8")
    r = cli("validate", "--rulesets", folder, sample)
    assert r.code == 2 and str(folder / "my_version.toml") in r.err


def test_markdown_lists_show_each_line_on_its_own(cli):
    """Rendered as Markdown (GitHub, Reddit), every unit's stat and gear line stays a line of its own."""
    from markdown_it import MarkdownIt

    r = cli("text", "--markdown", SAMPLES / "ares_hill_clans.toml")
    html = MarkdownIt().render(r.out)
    assert html.count("<li>") == sum(1 for ln in r.out.splitlines() if ln.lstrip().startswith("- "))
    assert "<li>Dwarf Thane: Combat Rating 75" in html
    assert "Dwarf Thane, Rune Axe (D10), Leader, Thick Skull; 5x Dwarf Warrior, Axe (D8), Thick Skull" in html
    assert "<p>Valid list.</p>" in html
    assert "Total: 480 / 500 rating<br />" in html  # the total and the fingerprint on lines of their own


@pytest.mark.parametrize("word, meant", [("valdate", "validate"), ("cots", "cost"), ("chek-ruleset", "check-ruleset")])
def test_a_mistyped_command_is_named_with_a_suggestion(cli, word, meant):
    r = cli(word, SAMPLES / "ares_hill_clans.toml")
    assert r.code == 2 and f"unknown command '{word}'; did you mean 'rosterkit {meant}'?" in r.err


@pytest.mark.parametrize("given, hint", [("fast", "did you mean 'fast_universal'?"), ("AR", "did you mean 'ares'?"),
                                         ("lego", "did you mean 'lego_combat'?")])
def test_ruleset_suggestions_by_prefix_and_case(cli, tmp_path, given, hint):
    r = cli("new", "--ruleset", given, "--name", "X", tmp_path / "x.toml")
    assert r.code == 2 and hint in r.err


def test_a_ruleset_id_in_another_case_is_found(cli, tmp_path):
    r = cli("new", "--ruleset", "ARES", "--name", "X", tmp_path / "x.toml")
    assert r.code == 0 and load_roster(tmp_path / "x.toml").roster.ruleset == "ares"


@pytest.mark.parametrize("command", ["validate", "cost", "new", "rulesets", "check-ruleset", "text", "cards", "tui"])
def test_every_command_explains_itself(cli, command):
    r = cli(command, "--help")
    lines = r.out.splitlines()
    description = lines[lines.index("") + 1]
    assert r.code == 0 and description[0].isupper()
    positional = r.out.split("positional arguments:")[1].split("options:")[0] if "positional" in r.out else ""
    for line in positional.splitlines()[1:]:
        if line.strip() and line.startswith("  ") and not line.startswith("    "):
            assert len(line.split()) > 1, f"{command}: argument without help: {line!r}"


def test_new_help_lists_the_installed_rulesets(cli):
    assert "installed: ares, fast_universal, for_the_masses, heroic_gods, lego_combat" in \
        " ".join(cli("new", "--help").out.split())


@pytest.mark.parametrize("sample, plain, strict", [
    ("heroic_gods_warning_chips_without_hero.toml", 0, 1),  # valid, with a warning
    ("heroic_gods_achaeans.toml", 0, 0),                    # no warnings
    ("ares_INVALID_over_rating.toml", 1, 1),              # an error fails either way
])
def test_validate_strict_counts_warnings_as_failures(sample, plain, strict):
    assert run_cli("validate", SAMPLES / sample).code == plain
    result = run_cli("validate", "--strict", SAMPLES / sample)
    assert result.code == strict, result.out
    if strict and not plain:
        assert "--strict" in result.out


def test_validate_help_explains_strict():
    result = run_cli("validate", "--help")
    assert "--strict" in result.out and "warnings" in result.out
