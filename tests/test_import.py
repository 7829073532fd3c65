"""`rosterkit import`: a list's text read back into a roster file, the same army or the one a person meant."""

from __future__ import annotations

import io
import sys

import pytest
from conftest import FIXTURES, SAMPLES, run_cli

from rosterkit.engine.costing import cost_roster
from rosterkit.engine.fingerprint import fingerprint
from rosterkit.engine.textlist import compact_text
from rosterkit.files.rosters import load_roster, loads_roster
from rosterkit.workspace import open_roster

QR_BYTES = 2800  # what the summary page's QR code holds at most


def _loadable(paths):
    from rosterkit.errors import RosterkitError
    from rosterkit.files.rulesets import Registry

    out = []
    for path in paths:
        try:
            open_roster(path, Registry())
        except RosterkitError:  # a file the suite keeps to be refused (malformed, another ruleset's)
            continue
        out.append(path)
    return out


LISTS = sorted(SAMPLES.glob("*.toml")) + _loadable(sorted((FIXTURES / "rosters").glob("*.toml"))
                                                   + sorted((FIXTURES / "bad").glob("*.toml")))


def _import(monkeypatch, text: str, out, *options: str):
    """``rosterkit import - -o OUT``, the text on standard input."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8"))
    return run_cli("import", "-", "-o", out, *options)


def _fp(path) -> str:
    return run_cli("fingerprint", path).out.strip()


def _cases():
    for path in LISTS:
        yield pytest.param(path, [], id=f"{path.stem}-text")
        yield pytest.param(path, ["--markdown"], id=f"{path.stem}-markdown")
        yield pytest.param(path, ["--compact"], id=f"{path.stem}-compact")
        if path.parent == SAMPLES:
            yield pytest.param(path, ["--markdown", "--compact"], id=f"{path.stem}-markdown-compact")
        roster = load_roster(path).roster
        if roster.points_limit is None and not roster.house_prices:  # no points left to carry
            yield pytest.param(path, ["--no-points"], id=f"{path.stem}-no-points")
            yield pytest.param(path, ["--no-points", "--compact"], id=f"{path.stem}-no-points-compact")


@pytest.fixture(scope="module")
def fingerprints(tmp_path_factory):
    """The fingerprint of each list, from the command line: the lists are only read, and each
    is written out in several ways. (An empty home, as every test has.)"""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ROSTERKIT_HOME", str(tmp_path_factory.mktemp("home")))
        mp.setenv("COLUMNS", "200")
        return {path: _fp(path) for path in LISTS}


@pytest.mark.parametrize(("path", "options"), list(_cases()))
def test_every_list_comes_back_with_its_fingerprint(monkeypatch, tmp_path, fingerprints, path, options):
    text = run_cli("text", *options, path)
    assert text.code == 0, text.err
    out = tmp_path / "back.toml"
    r = _import(monkeypatch, text.out, out)
    assert r.code == 0, r.err
    original = fingerprints[path]
    assert _fp(out) == original
    assert f"Fingerprint: {original}" in r.out  # and it says so


def test_import_reads_a_file_too(tmp_path):
    src = tmp_path / "list.txt"
    src.write_text(run_cli("text", SAMPLES / "ares_hill_clans.toml").out, encoding="utf-8")
    r = run_cli("import", src, "-o", tmp_path / "hill.toml")
    assert r.code == 0, r.err
    assert _fp(tmp_path / "hill.toml") == _fp(SAMPLES / "ares_hill_clans.toml")
    assert r.out.startswith(f"Created {tmp_path / 'hill.toml'}: Hill Clans (ARES Miniatures Wargaming System, 3 units")


@pytest.mark.parametrize("sample", sorted(SAMPLES.glob("*.toml")), ids=lambda p: p.stem)
def test_compact_text_carries_the_whole_army_and_fits_the_qr_code(registry, sample):
    from rosterkit.engine.textread import read_list

    report = open_roster(sample, registry).report
    text = compact_text(report)
    assert len(text.encode("utf-8")) <= QR_BYTES
    assert fingerprint(cost_roster(report.ruleset, read_list(text, registry).roster)) == fingerprint(report)
    if "fast_universal" in sample.name:  # a designed figure's stats, readable
        assert "{dice=1 die=6 move=6" in text


# ---------------------------------------------------------------- a list a person typed

IRON_TYPED = (
    # 1 Markdown kept on some lines (bold header, bullets), dropped on others; CRLF line ends
    "**++  Iron   Vanguard [fast universal wargame] [497 / 500 PTS] ++**\r\n"
    "\r\n"
    # 2 the case of a type, of names and of gear changed; extra spaces
    "BASIC\r\n"
    # 3 another count, written with a multiplication sign; 4 no points; 5 an alias ("spear") for the weapon
    "- **Spearmen**:   12 × spearmen,  spear\r\n"
    # 6 a tab to indent the stat line, and the stat line in lower case
    "\t1D6 m:6 f:0 s:0 d:8\r\n"
    # 7 a unit removed (the Archers are gone); 8 a weapon added (a bow) to the captain
    "\r\n"
    "Hero\r\n"
    "Captain Aldric [115 pts]: Claw/hand/spear/sword, Bow, Command\r\n"
    # 9 a stat changed: defense 10 where the list had 9, typed with a different dash-free spacing
    "    1d8  M:6  F:1  S:0  D:10\r\n"
    # 10 a curly quote and an en dash in a new unit's name, a non-breaking space; 11 the stats in the notation
    "Basic\r\n"
    "Bjorn\u2019s \u2013\u00a0Scouts: 3x Scouts, Bow {dice=1 die=6 move=7 defense=8}\r\n"
    # 12 the total and fingerprint left as they were: the list was changed, and the import says so
    "Total: 497 / 500 pts\r\n"
    "Fingerprint: VM0W-GJ3N-XZBB-008E\r\n"
)


def test_a_list_typed_by_a_person_is_read_as_meant(monkeypatch, tmp_path, registry):
    out = tmp_path / "typed.toml"
    r = _import(monkeypatch, IRON_TYPED, out)
    assert r.code == 0, r.err
    roster = load_roster(out).roster
    assert roster.name.split() == ["Iron", "Vanguard"] and roster.ruleset == "fast_universal" and roster.points_limit == 500
    units = {u.name: u for u in roster.units}
    assert sorted(units) == ["Bjorn's - Scouts", "Captain Aldric", "Spearmen"]  # the Archers removed
    spear = units["Spearmen"]
    assert (spear.count, spear.type, spear.weapons) == (12, "basic", ["Claw/hand/spear/sword"])
    captain = units["Captain Aldric"]
    assert captain.weapons == ["Claw/hand/spear/sword", "Bow/crossbow"] and captain.abilities == ["Command"]
    report = cost_roster(registry.get("fast_universal"), roster)
    by_name = {u.name: u for u in report.units}
    assert by_name["Captain Aldric"].members[0].stats["defense"] == 10
    assert by_name["Captain Aldric"].members[0].stats["die"] == 8
    assert by_name["Bjorn's - Scouts"].members[0].stats["move"] == 7
    assert by_name["Bjorn's - Scouts"].members[0].count == 3
    # the fingerprint the text carried no longer matches, and the import names what changed
    assert "Fingerprint" in r.out and "not the VM0W-GJ3N-XZBB-008E the text gives" in r.out


def test_an_unknown_figure_and_weapon_stay_and_are_reported(monkeypatch, tmp_path):
    text = ("++ Raid [ARES Miniatures Wargaming System] ++\nFigure\n"
            "Goblins: 3x Goblin Archers, Longbow (5/D10), Shortbow\n"
            "Bowmen: 2x Human Longbowman, Dagger (D4), Longbow (5/D10)\n")
    out = tmp_path / "raid.toml"
    r = _import(monkeypatch, text, out)
    assert r.code == 0, r.err
    roster = load_roster(out).roster
    goblins = roster.units[0].member_list()[0]
    assert goblins.name == "Goblin Archers" and goblins.count == 3 and "Shortbow" in goblins.weapons
    assert "'Goblin Archers' is not a figure of ARES" in r.out
    assert "unknown weapon 'Shortbow'" in r.out
    assert roster.units[1].figure == "Human Longbowman" and roster.units[1].count == 2


# ---------------------------------------------------------------- what cannot be read


@pytest.mark.parametrize(("text", "line", "expected"), [
    ("Iron Army\n", 1, "expected the header '++ Army name [Ruleset] [points] ++'"),
    ("++ Iron [Fast Universal Wargame] ++\nBasic\nSpearmen: 10x Spearmen, Spear\n    1d6 M:six F:0 S:0 D:8\n", 4,
     "expected a line such as '1d6 M:6 F:0 S:0 D:8'"),
    ("++ Iron [Fast Universal Wargame] ++\nBasic\nSpearmen: 99999999999999999999x Spearmen\n", 3,
     "not a whole number of figures up to 1,000,000"),
    ("++ Iron [Fast Universal Wargame] ++\n    1d6 M:6 F:0 S:0 D:8\n", 2, "a stat line before any unit"),
    ("++ Iron [Fast Universal Wargame] ++\nBasic\nSpearmen: 10x Spearmen {dice=1 move}\n", 3,
     "expected stats as {name=value ...}"),
    ("++ Iron [Fast Universal Wargame] [497 / 12e999 pts] ++\n", 1, "too large a power of ten"),
])
def test_what_cannot_be_read_names_the_line(monkeypatch, tmp_path, text, line, expected):
    out = tmp_path / "x.toml"
    r = _import(monkeypatch, text, out)
    assert r.code == 2
    assert f"<standard input>:{line}: " in r.err and expected in r.err
    assert "Traceback" not in r.err and not out.exists()


def test_a_ruleset_not_installed_is_named(monkeypatch, tmp_path):
    r = _import(monkeypatch, "++ Iron [Warhammer\x1b\x07 40,000] ++\nTroops\n", tmp_path / "x.toml")
    assert r.code == 2
    assert "the ruleset 'Warhammer\u241b\u2407 40,000', which is not installed" in r.err  # controls made visible
    assert "installed: ARES Miniatures Wargaming System, Fast Universal Wargame" in r.err


def test_an_existing_file_is_replaced_only_with_force(monkeypatch, tmp_path):
    out = tmp_path / "mine.toml"
    out.write_text("mine", encoding="utf-8")
    text = run_cli("text", SAMPLES / "fast_universal_ashen_host.toml").out
    r = _import(monkeypatch, text, out)
    assert r.code == 2 and "file exists; use --force" in r.err and out.read_text(encoding="utf-8") == "mine"
    r = _import(monkeypatch, text, out, "--force")
    assert r.code == 0 and _fp(out) == _fp(SAMPLES / "fast_universal_ashen_host.toml")
    assert (tmp_path / "mine.toml.bak").read_text(encoding="utf-8") == "mine"


def test_standard_input_is_read_up_to_eight_megabytes(monkeypatch, tmp_path):
    r = _import(monkeypatch, "x" * (8 * 1024 * 1024 + 1), tmp_path / "x.toml")
    assert r.code == 2 and "too much text (more than 8 MB)" in r.err


def test_markdown_escapes_and_mentions_are_undone_exactly(monkeypatch, tmp_path):
    names = ["*Bold* _x_ [a](b) <i>", "@everyone #1 | ~s~ &amp; ^ $", "- not a bullet: 2x", "1. not a number \\ end"]
    source = loads_roster((SAMPLES / "fast_universal_ashen_host.toml").read_text(encoding="utf-8"))
    units = [u.model_copy(update={"name": n}) for u, n in zip(source.units, names)]
    roster = source.model_copy(update={"name": "@here [army] **x**", "units": units})
    path = tmp_path / "odd.toml"
    from rosterkit.files.rosters import save_roster

    save_roster(roster, path, keep_layout=False)
    for options in (["--markdown"], [], ["--compact"]):
        text = run_cli("text", *options, path).out
        assert "@\u200beveryone" in text
        out = tmp_path / f"back{len(options)}{options[:1]}.toml"
        r = _import(monkeypatch, text, out)
        assert r.code == 0, r.err
        back = load_roster(out).roster
        assert back.name == "@here [army] **x**"
        assert sorted(u.name for u in back.units) == sorted(names)
        assert _fp(out) == _fp(path)


def test_the_compact_text_reads_back_a_designed_figure(registry):
    report = open_roster(SAMPLES / "ares_hill_clans.toml", registry).report
    text = compact_text(report)
    assert "Dwarf Thane, Rune Axe (D10), Leader, Thick Skull {rating=75 wounds=5" in text
    assert "Own weapon: Rune Axe {damage=D10 magic=yes}" in text
    from rosterkit.engine.textread import read_list

    back = read_list(text, registry)
    assert fingerprint(cost_roster(report.ruleset, back.roster)) == fingerprint(report)


def test_reading_stat_lines_back_has_a_budget(monkeypatch, tmp_path):
    from rosterkit.engine import textread

    monkeypatch.setattr(textread, "MAX_TRIALS", 5)
    text = "++ Iron [Fast Universal Wargame] ++\nBasic\nSpearmen: 10x Spearmen, Spear\n    1d10 M:9 F:2 S:1 D:11\n"
    r = _import(monkeypatch, text, tmp_path / "x.toml")
    assert r.code == 2 and "<standard input>:3: unit 'Spearmen': too many stat values to try" in r.err
    assert "give the figures' stats in the notation {name=value ...}" in r.err


REPEATED = """format = 1
name = "Repeated"
ruleset = "{ruleset}"

[[units]]
name = "{name}"
type = "{type}"
{gear}
"""


@pytest.mark.parametrize(("ruleset", "name", "type_", "gear"), [
    # a figure holding three of one weapon prints "3x Claw/hand/spear/sword": copies, not figures
    ("fast_universal", "Captain", "Hero",
     'weapons = ["Sword", "Sword", "Sword"]\nstats = { dice = 1, die = 8, move = 6, fight = 1, shoot = 0, defense = 9 }'),
    ("starship", "Frigate", "ship", 'stats = { mass = 20 }\nweapons = ["Beam-1", "Beam-1", "Beam-1"]'),
    # items taken at a level print "Broadsword (skill 3)"; the roster lists "Broadsword:3"
    ("levels", "Sir Bors", "hero", ('stats = { ST = 12, DX = 11 }\nabilities = ["Hard to Kill:2", "Combat Reflexes"]\n'
                                  'weapons = ["Broadsword:3", "Knife"]')),
])
@pytest.mark.parametrize("options", [[], ["--markdown"], ["--compact"]])
def test_repeated_and_levelled_items_come_back(monkeypatch, tmp_path, ruleset, name, type_, gear, options):
    rules = [] if ruleset == "fast_universal" else ["--rulesets", FIXTURES / "games"]
    army = tmp_path / "army.toml"
    army.write_text(REPEATED.format(ruleset=ruleset, name=name, type=type_, gear=gear), encoding="utf-8")
    text = run_cli("text", *options, *rules, army)
    assert text.code == 0, text.err
    back = _import(monkeypatch, text.out, tmp_path / "back.toml", *rules)
    assert back.code == 0, back.err
    assert run_cli("fingerprint", *rules, tmp_path / "back.toml").out == run_cli("fingerprint", *rules, army).out
