"""`rosterkit play --summary`: the result of a game as a player posts it on a forum."""

from __future__ import annotations

import shutil
import sys
import types

from conftest import SAMPLES, run_cli

from rosterkit.editing.play import Game


def ares_game(tmp_path) -> Game:
    for name in ("ares_border_levy.toml", "ares_hill_clans.toml"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    result = run_cli("play", tmp_path / "ares_border_levy.toml", tmp_path / "ares_hill_clans.toml")
    assert result.code == 0 and f"Game file: {tmp_path / 'ares_border_levy.game.toml'}" in result.out
    game = Game.load(tmp_path / "ares_border_levy.game.toml")
    unit = game.sides[1].units[0]  # Thane's Hearthguard: the Thane (rating 75) eliminated
    game.mark(next(t for t in unit.trackers if t.label == "Wounds" and t.ref.kind == 0).cell(), 5)
    bows = next(t for t in game.sides[0].units[2].trackers if t.label == "Wounds")
    game.mark(bows.cell(row=0), 3)  # a Longbowman (rating 40) eliminated
    game.mark(bows.cell(row=1), 1)  # the other wounded once: no points
    game.next_turn()
    game.next_turn()
    return game


def test_summary_gives_turns_points_losses_and_effects(tmp_path):
    game = ares_game(tmp_path)
    result = run_cli("play", "--summary", game.path)
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[0] == "Game: Border Levy (ARES Miniatures Wargaming System) against Hill Clans (ARES Miniatures " \
                       "Wargaming System)"
    assert "Turn: 3" in lines
    out = result.out
    assert "Border Levy\n  Victory points: 75 (from the losses of Hill Clans)\n" \
           "    Figures eliminated or routed: Thane's Hearthguard (Dwarf Thane) 75\n" in out
    assert "Hill Clans\n  Victory points: 40 (from the losses of Border Levy)\n" in out
    assert "  Losses and marks:\n    Bowmen: Wounds 4/6\n" in out
    assert "    Thane's Hearthguard: Dwarf Thane Wounds 5/5\n      Unit morale: 10 (was 14)\n" in out
    assert "Scoring rules:\n  Figures eliminated or routed: Each enemy figure eliminated is worth victory points " \
           "equal to its Combat Rating" in out
    assert "\x1b" not in out and "[" not in out  # plain text, no markup


def test_summary_of_a_roster_reads_the_game_beside_it(tmp_path):
    game = ares_game(tmp_path)
    by_roster = run_cli("play", "--summary", tmp_path / "ares_border_levy.toml")
    assert by_roster.code == 0 and by_roster.out == run_cli("play", "--summary", game.path).out


def test_summary_of_a_game_without_scoring_says_the_text_gives_none(tmp_path):
    shutil.copy(SAMPLES / "lego_combat_blackwater_corsairs.toml", tmp_path / "corsairs.toml")
    assert run_cli("play", tmp_path / "corsairs.toml").code == 0
    out = run_cli("play", "--summary", tmp_path / "corsairs.game.toml").out
    assert "Victory points: none scored. The basic rules give no victory points or victory conditions: " \
           "nothing is scored." in out
    assert "Losses and marks: none" in out


def test_names_from_the_roster_show_their_control_characters(tmp_path):
    text = (SAMPLES / "ares_border_levy.toml").read_text().replace('name = "Bowmen"', 'name = "Bow\\u001b[2Jmen"')
    (tmp_path / "levy.toml").write_text(text)
    game = Game.start(tmp_path / "levy.toml")
    bows = next(u for u in game.sides[0].units if u.name.startswith("Bow"))
    game.step(bows.trackers[0].cell())
    out = run_cli("play", "--summary", game.path).out
    assert "\x1b" not in out and "Bow␛[2Jmen: Wounds 1/6" in out


def test_a_game_file_that_is_not_there_exits_2(tmp_path):
    result = run_cli("play", "--summary", tmp_path / "none.game.toml")
    assert result.code == 2 and "none.game.toml: no such file" in result.err


def test_play_opens_the_play_screen_on_the_game(tmp_path, monkeypatch):
    opened = []
    monkeypatch.setitem(sys.modules, "rosterkit.tui.play_app",
                        types.SimpleNamespace(run_play=lambda game: opened.append(game) or 0))
    for name in ("ares_border_levy.toml", "ares_hill_clans.toml"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    result = run_cli("play", tmp_path / "ares_border_levy.toml", tmp_path / "ares_hill_clans.toml",
                     "--game", tmp_path / "evening.game.toml")
    assert result.code == 0 and result.out == ""
    [game] = opened
    assert game.path == tmp_path / "evening.game.toml" and game.path.exists()
    assert [s.name for s in game.sides] == ["Border Levy", "Hill Clans"]


def test_without_a_play_screen_play_begins_the_game_and_prints_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "rosterkit.tui.play_app", None)  # a version without the screen
    shutil.copy(SAMPLES / "ares_border_levy.toml", tmp_path / "levy.toml")
    result = run_cli("play", tmp_path / "levy.toml")
    assert result.code == 0
    assert result.out.startswith(f"Game file: {tmp_path / 'levy.game.toml'}\nGame: Border Levy")
