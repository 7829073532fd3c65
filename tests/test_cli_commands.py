"""The table of commands: every command in it runs from the command line, and a word that is
no command never opens the interface."""

from __future__ import annotations

import re
import shutil

import pytest
from conftest import RULESETS, SAMPLES, run_cli

from rosterkit.cli.commands import COMMANDS, NAMES

HILL = SAMPLES / "ares_hill_clans.toml"
LEVY = SAMPLES / "ares_border_levy.toml"


@pytest.fixture
def interface(monkeypatch):
    """The interface replaced by a note of what it was asked to open."""
    opened: list = []

    def run_app(path, registry) -> int:
        opened.append(path)
        return 0

    monkeypatch.setattr("rosterkit.tui.app.run_app", run_app)
    return opened


def fingerprint_of(path) -> str:
    return run_cli("fingerprint", path).out.strip()


def hill_as_text(tmp) -> str:
    (tmp / "hill.txt").write_text(run_cli("text", HILL).out, encoding="utf-8")
    return str(tmp / "hill.txt")


def game_of(tmp) -> str:
    """A game of the two ARES samples begun beside copies of them."""
    from rosterkit.editing.play import Game

    for roster in (LEVY, HILL):
        shutil.copy(roster, tmp / roster.name)
    return str(Game.start(tmp / LEVY.name, tmp / HILL.name).path)


# each command run on a sample, and what its user sees when it worked
RUNS = {
    "validate": (lambda tmp: ["validate", HILL], lambda r, tmp: "valid" in r.out),
    "matchup": (lambda tmp: ["matchup", HILL, LEVY], lambda r, tmp: "balanced (480 vs 475)" in r.out),
    "cost": (lambda tmp: ["cost", "--brief", HILL], lambda r, tmp: "Fingerprint " in r.out),
    "text": (lambda tmp: ["text", HILL], lambda r, tmp: "Total: 480 / 500 rating" in r.out),
    "import": (lambda tmp: ["import", hill_as_text(tmp), "-o", tmp / "back.toml"],
               lambda r, tmp: fingerprint_of(tmp / "back.toml") == fingerprint_of(HILL)),
    "fingerprint": (lambda tmp: ["fingerprint", HILL], lambda r, tmp: len(r.out.strip()) == 19),
    "verify": (lambda tmp: ["verify", HILL, fingerprint_of(HILL)], lambda r, tmp: r.out.startswith("match: ")),
    "update": (lambda tmp: ["update", "--dry-run", HILL], lambda r, tmp: "nothing written (--dry-run)" in r.out),
    "diff": (lambda tmp: ["diff", HILL, HILL], lambda r, tmp: "no changes to the army" in r.out),
    "cards": (lambda tmp: ["cards", HILL, "-o", tmp / "hill.pdf", "-q"],
              lambda r, tmp: (tmp / "hill.pdf").read_bytes().startswith(b"%PDF-")),
    "new": (lambda tmp: ["new", "--ruleset", "ares", "--name", "Fresh", tmp / "fresh.toml"],
            lambda r, tmp: 'name = "Fresh"' in (tmp / "fresh.toml").read_text(encoding="utf-8")),
    "rulesets": (lambda tmp: ["rulesets"], lambda r, tmp: "Installed rulesets" in r.out and "ares" in r.out),
    "check-ruleset": (lambda tmp: ["check-ruleset", RULESETS / "ares.toml"], lambda r, tmp: " ok; " in r.out),
    "play": (lambda tmp: ["play", "--summary", game_of(tmp)],
             lambda r, tmp: "Victory points: 0 (from the losses of Hill Clans)" in r.out),
    "tui": (lambda tmp: ["tui", tmp / "army.toml"], lambda r, tmp: True),
}


def test_every_command_in_the_table_has_a_run_here():
    assert set(RUNS) == NAMES and len(NAMES) == len(COMMANDS)


@pytest.mark.parametrize("command", [c.name for c in COMMANDS])
def test_every_command_in_the_table_runs(command, tmp_path, interface):
    argv, worked = RUNS[command]
    r = run_cli(*argv(tmp_path))
    assert r.code == 0, r.err
    assert worked(r, tmp_path), r.out
    assert interface == ([str(tmp_path / "army.toml")] if command == "tui" else [])


def test_the_help_lists_each_command_of_the_table_with_its_summary():
    out = run_cli("--help").out
    for c in COMMANDS:
        assert re.search(rf"^ +{c.name}\s+{re.escape(' '.join(c.help.split()[:3]))}", out, re.MULTILINE), c.name
        assert callable(c.function())


@pytest.mark.parametrize("argv, said", [
    (["foo"], ("unknown command 'foo' (rosterkit --help lists them); a roster to open is a file that exists "
               "or a name ending in .toml")),
    (["validat"], "unknown command 'validat'; did you mean 'rosterkit validate'?"),
    (["validat", str(HILL)], "unknown command 'validat'; did you mean 'rosterkit validate'?"),
    (["--rulesets", "folder", "army"], "unknown command 'army'"),
])
def test_a_word_that_is_no_command_is_an_error_not_a_new_roster(argv, said, interface, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run_cli(*argv)
    assert r.code == 2 and said in r.err
    assert interface == [] and list(tmp_path.iterdir()) == []


def test_a_roster_to_open_is_a_file_that_exists_or_a_name_ending_in_toml(interface, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(HILL, tmp_path / "hill")  # a roster file without the .toml ending
    assert run_cli("hill").code == 0
    assert run_cli("new_army.toml").code == 0  # a new roster, as the interface saves it
    assert run_cli("--rulesets", "folder").code == 0  # no roster: the start screen
    assert run_cli().code == 0
    assert interface == ["hill", "new_army.toml", None, None]


def test_cards_read_the_roster_once(tmp_path, monkeypatch):
    from rosterkit import workspace
    from rosterkit.files import rosters

    read: list = []

    def counted(path, *args, **kwargs):
        read.append(str(path))
        return real(path, *args, **kwargs)

    real = rosters.load_roster
    monkeypatch.setattr(rosters, "load_roster", counted)
    monkeypatch.setattr(workspace, "load_roster", counted)
    assert run_cli("cards", HILL, "-o", tmp_path / "hill.pdf", "-q").code == 0
    assert read == [str(HILL)]
