"""What an organiser and a player do with many lists: validate them at once, pair them, summarise
them for a spreadsheet, match a list to its fingerprint, follow rules that change, compare two
versions of a list and post it to a forum."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import sys

import pytest
from conftest import SAMPLES, run_cli

from rosterkit.engine.textlist import compact_text
from rosterkit.files.rosters import load_roster, save_roster
from rosterkit.files.rulesets import Registry, builtin_dir
from rosterkit.workspace import open_roster

IRON = SAMPLES / "fast_universal_iron_vanguard.toml"
ASHEN = SAMPLES / "fast_universal_ashen_host.toml"
HERO_HEAVY = SAMPLES / "fast_universal_INVALID_hero_heavy.toml"
CROWN = SAMPLES / "ares_crown_household.toml"
LEVY = SAMPLES / "ares_border_levy.toml"
CLANS = SAMPLES / "ares_hill_clans.toml"
ROYAL = SAMPLES / "ares_MISMATCH_royal_host.toml"


def copy(src, folder, name=None):
    dest = folder / (name or src.name)
    shutil.copyfile(src, dest)
    return dest


def fp(path) -> str:
    return run_cli("fingerprint", path).out.strip()


# ---------------------------------------------------------------- many lists, match-ups on request


def test_two_valid_lists_of_one_ruleset_pass_without_a_pairing():
    """Two lists that would be an unfair match-up are each valid: no pair is checked unasked."""
    r = run_cli("validate", CROWN, ROYAL)
    assert r.code == 0, r.out
    assert "Match-up" not in r.out and "rating-balance" not in r.out
    assert r.out.count(": valid") == 2


def test_many_lists_each_checked_on_their_own(tmp_path):
    lists = [copy(CROWN, tmp_path, f"list{i}.toml") for i in range(5)] + [copy(HERO_HEAVY, tmp_path)]
    r = run_cli("validate", *lists)
    assert r.code == 1
    assert r.out.count(": valid") == 5 and "hero-max" in r.out


def test_lists_checked_together_get_what_each_gets_alone(tmp_path):
    """Lists checked in one run share their work (units alike are costed and checked once):
    each list still gets the totals, findings and fingerprint it gets when checked alone, its
    findings naming its own units."""
    files = sorted(SAMPLES.glob("*.toml"))
    copies = []
    for f in files:  # the same army, its units renamed and in reverse order
        roster = load_roster(f).roster
        units = [u.model_copy(update={"name": f"{u.name} (copy)"}) for u in reversed(roster.units)]
        save_roster(roster.model_copy(update={"units": units}), tmp_path / f.name, keep_layout=False)
        copies.append(tmp_path / f.name)
    together = json.loads(run_cli("validate", "--json", *files, *copies).out)["rosters"]
    assert len(together) == 2 * len(files)
    for path, got in zip([*files, *copies], together):
        alone = json.loads(run_cli("validate", "--json", path).out)["rosters"][0]
        assert got == alone, path.name
    named = [f for r in together[len(files):] for f in r["findings"] if f.get("unit_name")]
    assert named and all(f["unit_name"].endswith("(copy)") for f in named)
    originals = [f for r in together[:len(files)] for f in r["findings"] if f.get("unit_name")]
    assert originals and not any("(copy)" in f["unit_name"] for f in originals)


def test_a_house_price_is_its_own_lists_only(tmp_path):
    """Two lists of the same units in one run, one agreeing house prices for the helmets and
    shields the rules leave unpriced: each is priced as when checked alone, in either order."""
    garrison = SAMPLES / "lego_combat_kingsbridge_garrison.toml"
    roster = load_roster(garrison).roster
    assert roster.house_prices
    bare = tmp_path / "no_house_prices.toml"
    save_roster(roster.model_copy(update={"house_prices": {}}), bare, keep_layout=False)
    alone = {p: json.loads(run_cli("validate", "--json", p).out)["rosters"][0]["total"] for p in (garrison, bare)}
    assert alone[garrison] > alone[bare]
    for order in ([garrison, bare], [bare, garrison]):
        together = json.loads(run_cli("validate", "--json", *order).out)["rosters"]
        assert [r["total"] for r in together] == [alone[p] for p in order]


def test_an_unreadable_list_does_not_hide_the_others(tmp_path):
    r = run_cli("validate", IRON, tmp_path / "missing.toml", CROWN)
    assert r.code == 2
    assert r.out.count(": valid") == 2
    assert "missing.toml: no such file" in r.err
    assert "1 roster of 3 could not be read" in r.out


def test_matchup_command():
    fair = run_cli("matchup", CROWN, LEVY)
    assert fair.code == 0 and "balanced (500 vs 475)" in fair.out
    unfair = run_cli("matchup", CROWN, ROYAL)
    assert unfair.code == 0 and "rating-balance" in unfair.out  # a warning: the book's 10% is advice
    assert run_cli("matchup", "--strict", CROWN, ROYAL).code == 1


def test_matchup_of_two_rulesets_is_refused():
    r = run_cli("matchup", CROWN, IRON)
    assert r.code == 2 and "no match-up" in r.err and "ares" in r.err and "fast_universal" in r.err


def test_pairings_file(tmp_path):
    for src in (CROWN, LEVY, CLANS, ROYAL):
        copy(src, tmp_path)
    pairs = tmp_path / "round1.txt"
    pairs.write_text(f"# round 1\n{CROWN.name} {LEVY.name}\n\n'{CLANS.name}'  {ROYAL.name}  # table 2\n",
                     encoding="utf-8")
    r = run_cli("validate", "--pairings", pairs)
    assert r.code == 0, r.err
    assert "balanced (500 vs 475)" in r.out
    assert "Hill Clans vs Royal Host" in r.out and "rating-balance" in r.out
    assert r.out.count(": valid") == 4  # each list once
    assert run_cli("validate", "--strict", "--pairings", pairs).code == 1
    summary = run_cli("validate", "--summary", "--pairings", pairs).out
    assert summary.startswith("4 lists, 0 failing") and "balanced (500 vs 475)" in summary
    doc = json.loads(run_cli("validate", "--json", "--pairings", pairs).out)
    assert [(m["a"].endswith(CROWN.name), len(m["findings"])) for m in doc["matchups"]] == [(True, 0), (False, 1)]
    # the same file given on the command line is read once
    again = run_cli("validate", tmp_path / CROWN.name, "--pairings", pairs)
    assert again.out.count("Crown Household") == 1  # one list, checked once


@pytest.mark.parametrize("text, message", [
    ("a.toml\n", "round.txt:1: expected two roster paths on the line, found 1: a.toml"),
    ("# fine\na.toml b.toml c.toml\n", "round.txt:2: expected two roster paths on the line, found 3"),
    ("'a.toml b.toml\n", "round.txt:1: cannot read the line"),
])
def test_a_malformed_pairing_line_is_named(tmp_path, text, message):
    pairs = tmp_path / "round.txt"
    pairs.write_text(text, encoding="utf-8")
    r = run_cli("validate", "--pairings", pairs)
    assert r.code == 2 and message in r.err and "Traceback" not in r.err
    assert len(r.err.strip().splitlines()) == 1


def test_pairings_errors(tmp_path):
    assert "no such file" in run_cli("validate", "--pairings", tmp_path / "nope.txt").err
    pairs = tmp_path / "round.txt"
    pairs.write_text("missing.toml other.toml\n", encoding="utf-8")
    r = run_cli("validate", "--pairings", pairs)
    assert r.code == 2 and "missing.toml: no such file" in r.err
    mixed = tmp_path / "mixed.txt"
    copy(CROWN, tmp_path)
    copy(IRON, tmp_path)
    mixed.write_text(f"{CROWN.name} {IRON.name}\n", encoding="utf-8")
    r = run_cli("validate", "--pairings", mixed)
    assert r.code == 2 and "mixed.txt:1:" in r.err and "no match-up" in r.err
    none = run_cli("validate")
    assert none.code == 2 and "no rosters given" in none.err


# ---------------------------------------------------------------- summary


def test_summary_lists_failing_first():
    r = run_cli("validate", "--summary", IRON, HERO_HEAVY, CROWN)
    assert r.code == 1
    lines = r.out.splitlines()
    assert lines[0] == "3 lists, 1 failing"
    rows = [ln for ln in lines[2:]]
    assert "INVALID_hero_heavy" in rows[0] and "invalid" in rows[0] and "494 of 500" in rows[0]
    assert "Iron Vanguard" in rows[1] and "497 of 500" in rows[1] and fp(IRON) in rows[1]
    assert "Crown Household" in rows[2] and "ares" in rows[2]


def test_summary_json_and_csv(tmp_path):
    doc = json.loads(run_cli("validate", "--summary", "--json", IRON, HERO_HEAVY).out)
    assert [d["status"] for d in doc] == ["invalid", "valid"]
    assert doc[1] == {"file": str(IRON), "name": "Iron Vanguard", "ruleset": "fast_universal", "points": 497,
                      "limit": 500, "errors": 0, "warnings": 0, "status": "valid", "fingerprint": fp(IRON)}
    r = run_cli("validate", "--csv", IRON, HERO_HEAVY, tmp_path / "gone.toml")
    assert r.code == 2
    rows = list(csv.DictReader(io.StringIO(r.out)))
    assert [row["status"] for row in rows] == ["unreadable", "invalid", "valid"]
    assert rows[2]["points"] == "497" and rows[2]["limit"] == "500" and rows[2]["fingerprint"] == fp(IRON)


def test_summary_strict_counts_warnings_as_failing():
    warned = SAMPLES / "heroic_gods_warning_chips_without_hero.toml"
    rows = json.loads(run_cli("validate", "--summary", "--json", "--strict", IRON, warned).out)
    assert [(r["status"], r["warnings"]) for r in rows] == [("warnings", 1), ("valid", 0)]


def test_summary_text_from_files_is_made_safe(tmp_path):
    text = IRON.read_text(encoding="utf-8").replace('name = "Iron Vanguard"', 'name = "=HYPERLINK(1)\\u001b[31m"')
    path = tmp_path / "evil.toml"
    path.write_text(text, encoding="utf-8")
    out = run_cli("validate", "--csv", path).out
    assert "\x1b" not in out
    row = next(csv.DictReader(io.StringIO(out)))
    assert row["name"].startswith("'=HYPERLINK(1)")  # a spreadsheet shows it as text, not a formula
    assert "\x1b" not in run_cli("validate", "--summary", path).out


# ---------------------------------------------------------------- fingerprint everywhere


def test_the_same_fingerprint_in_every_output():
    code = fp(IRON)
    assert len(code) == 19 and code.count("-") == 3
    assert f"fingerprint {code}" in run_cli("validate", IRON).out
    assert f"Fingerprint {code}" in run_cli("cost", "--brief", IRON).out
    assert run_cli("text", IRON).out.splitlines()[-1] == f"Fingerprint: {code}"
    assert json.loads(run_cli("validate", "--json", IRON).out)["rosters"][0]["fingerprint"] == code
    assert json.loads(run_cli("cost", "--json", IRON).out)["fingerprint"] == code
    several = run_cli("fingerprint", IRON, CROWN).out.splitlines()
    assert several == [f"{code}  {IRON}", f"{fp(CROWN)}  {CROWN}"]


def test_verify(tmp_path):
    code = fp(IRON)
    ok = run_cli("verify", IRON, code.lower().replace("-", ""))
    assert ok.code == 0 and "match" in ok.out
    changed = tmp_path / "changed.toml"
    changed.write_text(IRON.read_text(encoding="utf-8").replace("count = 10", "count = 11"), encoding="utf-8")
    r = run_cli("verify", changed, code)
    assert r.code == 1 and "no match" in r.out and "differs in:" in r.out and "points" in r.out
    assert fp(changed) in r.out


@pytest.mark.parametrize("bad", ["1234", "XXXX-XXXX-XXXX-XXX!", ""])
def test_verify_a_malformed_fingerprint(bad):
    r = run_cli("verify", IRON, bad)
    assert r.code == 2 and "is not a fingerprint" in r.err and "XXXX-XXXX-XXXX-XXXX" in r.err
    assert r.out == ""


def test_verify_a_missing_file():
    r = run_cli("verify", "nope.toml", fp(IRON))
    assert r.code == 2 and "nope.toml: no such file" in r.err


# ---------------------------------------------------------------- rules that change


def newer_rules(tmp_path, bow_cost: int = 30):
    """fast_universal as version 3, with the bow dearer: a ruleset folder for --rulesets."""
    folder = tmp_path / "rules"
    folder.mkdir()
    text = (builtin_dir() / "fast_universal.toml").read_text(encoding="utf-8")
    assert text.count('version = "2"') == 1 and 'aliases = ["Bow", "Crossbow"]\nstats = { shoot = 1, range = 6 }\n' \
        'cost = 22' in text
    text = text.replace('version = "2"', 'version = "3"').replace(
        'aliases = ["Bow", "Crossbow"]\nstats = { shoot = 1, range = 6 }\ncost = 22',
        f'aliases = ["Bow", "Crossbow"]\nstats = {{ shoot = 1, range = 6 }}\ncost = {bow_cost}')
    (folder / "fast_universal.toml").write_text(text, encoding="utf-8")
    return folder


def test_an_old_file_without_versions_loads_and_says_nothing():
    roster = load_roster(IRON).roster
    assert roster.ruleset_version is None and all(u.points is None for u in roster.units)
    r = run_cli("validate", IRON)
    assert r.code == 0 and r.err == ""


def test_update_records_the_version_and_points_keeping_comments(tmp_path):
    army = copy(IRON, tmp_path, "army.toml")
    before = army.read_text(encoding="utf-8")
    r = run_cli("update", army)
    assert r.code == 0 and "recorded Fast Universal Wargame version 2" in r.out
    after = army.read_text(encoding="utf-8")
    assert after.startswith(before.splitlines()[0])  # the comment at the top stays
    assert 'ruleset_version = "2"' in after and "points = 210" in after and "points = 115" in after
    roster = load_roster(army).roster
    assert [u.points for u in roster.units] == [210, 172, 115]
    assert fp(army) == fp(IRON)  # recording changes nothing of the army


def test_a_newer_ruleset_is_reported_then_recorded(tmp_path):
    army = copy(IRON, tmp_path, "army.toml")
    run_cli("update", army)
    rules = newer_rules(tmp_path)
    notice = "built for Fast Universal Wargame version 2; version 3 is installed"
    for command in (["validate"], ["cost", "--brief"], ["text"], ["fingerprint"]):
        r = run_cli(*command, "--rulesets", rules, army)
        assert r.err.count(notice) == 1, command
    cards = run_cli("cards", "--rulesets", rules, army, "-o", tmp_path / "cards.pdf")
    assert cards.code == 0 and cards.err.count(notice) == 1
    v = run_cli("validate", "--rulesets", rules, army)
    assert v.code == 1  # the dearer bows take the army over its limit: a new finding
    assert "points then and now" in v.out
    archers = next(ln for ln in v.out.splitlines() if "Archers" in ln)
    assert archers.split()[-2:] == ["172", "204"]
    assert "497  529" in v.out and "points-limit" in v.out
    cost = run_cli("cost", "--brief", "--rulesets", rules, army)
    assert "points then and now" in cost.out and "points-limit" in cost.out
    doc = json.loads(run_cli("validate", "--json", "--rulesets", rules, army).out)
    change = doc["rosters"][0]["version_change"]
    assert change["recorded"] == "2" and change["installed"] == "3"
    assert change["units"] == [{"index": 1, "name": "Archers", "then": 172, "now": 204}]
    # update shows the same report, then records the new version
    up = run_cli("update", "--rulesets", rules, army)
    assert up.code == 0 and "points then and now" in up.out and "recorded Fast Universal Wargame version 3" in up.out
    assert 'ruleset_version = "3"' in army.read_text(encoding="utf-8")
    quiet = run_cli("validate", "--rulesets", rules, army)
    assert quiet.err == "" and "points then and now" not in quiet.out


def test_an_entry_gone_from_the_catalogue_is_kept(tmp_path):
    army = copy(IRON, tmp_path, "army.toml")
    run_cli("update", army)
    rules = newer_rules(tmp_path)
    text = (rules / "fast_universal.toml").read_text(encoding="utf-8")
    row = 'name = "Bow/crossbow"\naliases = ["Bow", "Crossbow"]'
    assert row in text
    (rules / "fast_universal.toml").write_text(text.replace(row, 'name = "Recurve bow"'), encoding="utf-8")
    r = run_cli("validate", "--rulesets", rules, army)
    assert r.code == 1 and "unknown weapon 'Bow'" in r.out
    run_cli("update", "--rulesets", rules, army)
    assert load_roster(army).roster.units[1].weapons == ["Bow"]


def test_update_dry_run_writes_nothing(tmp_path):
    army = copy(IRON, tmp_path, "army.toml")
    before = army.read_bytes()
    r = run_cli("update", "--dry-run", army)
    assert r.code == 0 and "nothing written" in r.out and army.read_bytes() == before


# ---------------------------------------------------------------- diff


def test_diff_added_removed_changed(tmp_path):
    new = tmp_path / "new.toml"
    text = IRON.read_text(encoding="utf-8").replace("count = 10", "count = 12").replace(
        'name = "Archers"', 'name = "Crossbowmen"').replace("defense = 9", "defense = 10")
    new.write_text(text, encoding="utf-8")
    r = run_cli("diff", IRON, new)
    assert r.code == 0
    out = r.out
    assert "- Archers [172 points]" in out and "+ Crossbowmen [172 points]" in out
    assert "~ Spearmen [210 -> 252 points]: count 10 -> 12" in out
    assert "~ Captain Aldric [115 -> " in out and "Defense 9 -> 10" in out
    assert out.splitlines()[-1].startswith("total: 497 -> ")
    assert run_cli("diff", "--exit-code", IRON, new).code == 1
    same = run_cli("diff", "--exit-code", IRON, IRON)
    assert same.code == 0 and "no changes to the army" in same.out and "total: 497 -> 497 points" in same.out


def test_diff_gear():
    r = run_cli("diff", IRON, ASHEN)
    assert r.code == 0 and "total: 497 -> 469 points (-28)" in r.out


def test_diff_a_missing_file():
    r = run_cli("diff", IRON, "nope.toml")
    assert r.code == 2 and "nope.toml: no such file" in r.err


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_shows_roster_changes_through_the_text_list(tmp_path):
    """The README's diff driver: `*.toml diff=rosterkit` and `textconv = rosterkit text`."""
    def git(*args):
        return subprocess.run(["git", "-C", str(tmp_path), *args], capture_output=True, text=True, check=True).stdout

    git("init", "-q")
    git("config", "user.email", "a@example.org")
    git("config", "user.name", "A")
    git("config", "diff.rosterkit.textconv", f"{sys.executable} -m rosterkit text")
    (tmp_path / ".gitattributes").write_text("*.toml diff=rosterkit\n", encoding="utf-8")
    army = copy(IRON, tmp_path, "army.toml")
    git("add", "-A")
    git("commit", "-qm", "one")
    army.write_text(IRON.read_text(encoding="utf-8").replace("count = 10", "count = 12"), encoding="utf-8")
    out = git("diff")
    assert "-Spearmen [210 pts]: 10x Spearmen" in out and "+Spearmen [252 pts]: 12x Spearmen" in out
    assert "-Total: 497 / 500 pts" in out and "+Total: 539 / 500 pts" in out


# ---------------------------------------------------------------- the forum text


def test_text_follows_the_forum_convention():
    out = run_cli("text", CROWN).out.splitlines()
    assert out[0] == "++ Crown Household [ARES Miniatures Wargaming System] [500 / 500 rating] ++"
    assert "Figure [500 rating]" in out
    assert "Longbowmen [160 rating]: 4x Human Longbowman, Dagger (D4), Longbow (5/D10)" in out
    knights = out.index(next(ln for ln in out if ln.startswith("Household Knights [286 rating]: ")))
    assert out[knights + 1].startswith("    Human Hero: Combat Rating 110")  # stats below the unit
    assert out[-2:] == ["Total: 500 / 500 rating", f"Fingerprint: {fp(CROWN)}"]


def test_text_compact_is_one_line_per_unit_with_its_stats():
    out = run_cli("text", "--compact", IRON).out.splitlines()
    assert out == ["++ Iron Vanguard [Fast Universal Wargame] [497 / 500 pts] ++",
                   "Basic",
                   ("Spearmen [210 pts]: 10x Spearmen, Claw/hand/spear/sword {dice=1 die=6 move=6 fight=0 shoot=0 "
                   "defense=8}"),
                   "Archers [172 pts]: 4x Archers, Bow/crossbow {dice=1 die=6 move=6 fight=0 shoot=0 defense=8}",
                   "Hero",
                   ("Captain Aldric [115 pts]: Claw/hand/spear/sword, Command {dice=1 die=8 move=6 fight=1 shoot=0 "
                   "defense=9}"),
                   "Total: 497 / 500 pts",
                   f"Fingerprint: {fp(IRON)}"]


@pytest.mark.parametrize("options", [[], ["--compact"], ["--markdown"]])
def test_text_without_points(options):
    out = run_cli("text", "--no-points", *options, IRON).out
    assert "pts" not in out and "497" not in out and "210" not in out and "Total" not in out
    assert "Spearmen: 10x Spearmen" in out.replace("**", "") and f"Fingerprint: {fp(IRON)}" in out


def test_compact_text_for_the_cards(registry):
    report = open_roster(IRON, Registry()).report
    assert compact_text(report) == run_cli("text", "--compact", IRON).out


# ---------------------------------------------------------------- help


def test_help_lists_the_organiser_commands():
    out = run_cli("--help").out
    for command, words in [("matchup", "match-up"), ("fingerprint", "fingerprint"), ("verify", "fingerprint"),
                           ("update", "version"), ("diff", "added")]:
        line = next(ln for ln in out.splitlines() if ln.strip().startswith(command + " "))
        assert words in line, line
