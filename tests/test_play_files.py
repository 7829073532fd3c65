"""Game files are the player's and untrusted: each kind of bad file gets a message naming the
file, the key and the line (exit 2 on the command line), and a save never leaves a broken file."""

from __future__ import annotations

import os
import re
import shutil

import pytest
from conftest import RULESETS, SAMPLES, run_cli

from rosterkit.editing.play import Game, GameFileError, GameSaveError
from rosterkit.errors import RosterkitError
from rosterkit.files.rulesets import Registry


@pytest.fixture
def game(tmp_path):
    """An ARES game in progress: the Hill Clans' Thane eliminated (5 wounds), a Warrior routed."""
    for name in ("ares_border_levy.toml", "ares_hill_clans.toml"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    g = Game.start(tmp_path / "ares_border_levy.toml", tmp_path / "ares_hill_clans.toml")
    unit = g.sides[1].units[0]
    wounds = next(t for t in unit.trackers if t.label == "Wounds" and t.ref.kind == 0)
    routed = next(t for t in unit.trackers if t.label == "Routed" and t.ref.kind == 1)
    g.mark(wounds.cell(), 5)
    g.mark(routed.cell(row=1), 1)
    return g


def edited(game: Game, old: str, new: str) -> str:
    text = game.path.read_text()
    assert old in text
    game.path.write_text(text.replace(old, new, 1))
    return str(game.path)


def problem(game: Game) -> str:
    with pytest.raises(RosterkitError) as info:
        Game.load(game.path)
    return info.value.problems[0].render()


def test_the_file_reads_as_a_person_wrote_it(game):
    text = game.path.read_text()
    assert 'roster = "ares_hill_clans.toml"' in text  # relative to the game file
    assert re.search(r'fingerprint = "[0-9A-Z]{4}(-[0-9A-Z]{4}){3}"', text)
    assert 'unit = "Thane\'s Hearthguard"\nnumber = 1\nkind = 1\ntracker = "Wounds"\nvalue = 5' in text
    assert 'tracker = "Routed"\nrow = 2\nvalue = 1' in text


@pytest.mark.parametrize("old, new, key, says", [
    ("turn = 1", 'turn = "three"', "turn", "expected a whole number (got 'three')"),
    ("turn = 1", "turn = 99999999999999999999999999999", "turn", "must be at most 10000"),
    ("value = 5", "value = 1.5", "sides[1].marks[0].value", "expected a whole number"),
    ("value = 5", "value = 123456789012345678901234567890", "sides[1].marks[0].value", "must be at most"),
    ("value = 5", "value = 6", "sides[1].marks[0].value", "'Wounds' of unit 1 ('Thane's Hearthguard'), kind 1 "
                                                          "holds at most 5"),
    ("value = 5", "value = -1", "sides[1].marks[0].value", "must be at least 0"),
    ("row = 2", "row = 9", "sides[1].marks[1].row", "'Routed' of unit 1 ('Thane's Hearthguard'), kind 2 has 5 rows"),
    ('tracker = "Routed"', 'tracker = "Fled"', "sides[1].marks[1].tracker",
     "has no tracker 'Fled' (it has 'Wounds', 'Shaken', 'Routed')"),
    ("number = 1", "number = 2", "sides[1].marks[0].unit",
     "names unit 'Thane's Hearthguard', but unit 2 of the roster is 'Crossbows'"),
    ("number = 1", "number = 40", "sides[1].marks[0].number", "unit 40: the roster has 3 units"),
    ("format = 1", "format = 1\ncheat = true", "cheat", "unknown key"),
])
def test_a_bad_value_names_the_file_key_and_line(game, old, new, key, says):
    file = edited(game, old, new)
    message = problem(game)
    assert message.startswith(f"{file}:") and f", {key}: " in message and says in message, message
    assert re.match(rf"{re.escape(file)}:\d+, ", message)
    result = run_cli("play", "--summary", file)
    assert result.code == 2 and says in result.err and "Traceback" not in result.err


def test_a_missing_roster_is_named(game, tmp_path):
    os.remove(tmp_path / "ares_hill_clans.toml")
    message = problem(game)
    assert "sides[1].roster" in message and "the game's roster ares_hill_clans.toml cannot be opened" in message
    assert "no such file" in message


def test_a_roster_changed_since_the_game_began_is_reported_not_reused(game, tmp_path):
    roster = tmp_path / "ares_hill_clans.toml"
    roster.write_text(roster.read_text().replace("count = 5", "count = 4", 1))  # a Dwarf Warrior fewer
    with pytest.raises(GameFileError) as info:
        Game.load(game.path)
    p = info.value.problems[0]
    second = [n for n, line in enumerate(game.path.read_text().splitlines(), 1) if line.startswith("fingerprint")][1]
    assert p.key == "sides[1].fingerprint" and p.line == second
    assert "the roster ares_hill_clans.toml changed since this game began" in p.message
    result = run_cli("play", "--summary", game.path)
    assert result.code == 2 and "changed since this game began" in result.err


def test_a_game_of_other_rosters_is_not_overwritten(game, tmp_path):
    shutil.copy(SAMPLES / "ares_crown_household.toml", tmp_path / "ares_crown_household.toml")
    before = game.path.read_text()
    with pytest.raises(GameFileError, match="holds a game of .*ares_hill_clans.toml"):
        Game.start(tmp_path / "ares_border_levy.toml", tmp_path / "ares_crown_household.toml")
    assert game.path.read_text() == before
    # the same rosters resume it
    again = Game.start(tmp_path / "ares_border_levy.toml", tmp_path / "ares_hill_clans.toml")
    assert again.score(0).total == 75 + 30


def test_a_save_cut_short_leaves_the_previous_game_whole(game, monkeypatch):
    before = game.path.read_text()

    def cut(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("rosterkit.files.atomic.os.replace", cut)
    with pytest.raises(GameSaveError, match="not saved: No space left on device"):
        game.next_turn()
    monkeypatch.undo()
    assert game.path.read_text() == before
    assert Game.load(game.path).turn == 1
    game.save()  # the change made in memory is saved once the disk takes it
    assert Game.load(game.path).turn == 2


def test_a_game_file_changed_by_another_program_is_not_overwritten(game):
    text = game.path.read_text().replace("turn = 1", "turn = 7")
    game.path.write_text(text)
    with pytest.raises(GameSaveError, match="another program"):
        game.next_turn()
    assert game.path.read_text() == text


def test_a_tracker_that_cannot_be_worked_out_is_named_in_the_summary(tmp_path):
    own = tmp_path / "rulesets"
    own.mkdir()
    text = (RULESETS / "lego_combat.toml").read_text()
    assert 'count = "4 * count"' in text
    (own / "lego_combat.toml").write_text(text.replace('count = "4 * count"', 'count = "4 / (count - count)"'))
    shutil.copy(SAMPLES / "lego_combat_blackwater_corsairs.toml", tmp_path / "corsairs.toml")
    game = Game.start(tmp_path / "corsairs.toml", registry=Registry([own]))
    deckhands = game.sides[0].units[0]
    assert "Stun" not in [t.label for t in deckhands.trackers] and deckhands.problems
    assert "Deckhands: a tracker cannot be worked out: " in game.summary_text()
