"""The play screen driven as a player would, with Textual's Pilot: marks, undo and redo, turns,
leaving and coming back, at 80x24 and larger."""

from __future__ import annotations

import shutil

import pytest
import tomlkit
from conftest import SAMPLES
from textual.widgets import Footer, OptionList, Static, TabbedContent

from rosterkit.editing.play import Game
from rosterkit.tui.app import RosterkitApp
from rosterkit.tui.keys import collect, palette_entries
from rosterkit.tui.screens.open_file import OpenFileScreen
from rosterkit.tui.screens.play import PlayScreen
from rosterkit.tui.screens.roster import RosterScreen

SMALL = (80, 24)
LARGE = (120, 40)


@pytest.fixture
def table(tmp_path):
    """Two ARES armies and a Fast Universal one in a folder of their own (games are written beside them)."""
    for name in ("ares_border_levy", "ares_hill_clans", "fast_universal_iron_vanguard"):
        shutil.copy(SAMPLES / f"{name}.toml", tmp_path / f"{name}.toml")
    return tmp_path


def ares_game(table, registry) -> Game:
    return Game.start(table / "ares_border_levy.toml", table / "ares_hill_clans.toml", registry=registry)


def play_app(game: Game, registry, table) -> RosterkitApp:
    return RosterkitApp(registry, None, cwd=table, game=game)


def line_text(screen: PlayScreen, side: int, index: int) -> str:
    return str(screen.query_one(f"#play-list-{side}", OptionList).get_option_at_index(index).prompt)


async def go_to(pilot, side: int, unit: str, label: str, row: int = 0, item: int = 0) -> int:
    """Move down the list with the arrow key to a tracker's line (its row or item); its index."""
    screen = pilot.app.screen
    game = screen.game
    lst = screen.query_one(f"#play-list-{side}", OptionList)
    u = next(u for u in game.sides[side].units if u.name == unit)
    t = next(t for t in u.trackers if t.label == label)
    for _ in range(len(screen.cursors[side])):
        cursor = screen.cursors[side][lst.highlighted]
        if cursor is not None and cursor.ref in (t.cell(row=row, item=item), t.ref):
            return lst.highlighted
        await pilot.press("down")
    raise AssertionError(f"no line for {label} of {unit}")


async def test_keys_mark_a_figure_eliminated_the_score_follows_and_coming_back_shows_them(table, registry):
    game = ares_game(table, registry)
    app = play_app(game, registry, table)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PlayScreen), "the play screen"
        bows = next(t for u in game.sides[0].units if u.name == "Bowmen" for t in u.trackers if t.label == "Wounds")
        i = await go_to(pilot, 0, "Bowmen", "Wounds", row=0)
        await pilot.press("space", "plus")  # two wounds, one key each
        assert game.value(bows.cell(row=0)) == 2, "space and plus: two wounds"
        assert "■■□" in line_text(screen, 0, i), "two boxes of three marked"
        await pilot.press("x")  # the rest of the figure at once: eliminated
        assert game.value(bows.cell(row=0)) == 3, "x: the rest of the figure at once"
        assert "■■■ ✗" in line_text(screen, 0, i), "the figure eliminated"
        await pilot.press("down", "x")  # and the second Longbowman
        assert game.value(bows.cell(row=1)) == 3, "and the second Longbowman"
        # a Longbowman's Combat Rating is 40: the Hill Clans score 80, live
        tabs = screen.query_one("#play-sides", TabbedContent)
        assert "Hill Clans · 80 VP" in str(tabs.get_tab("side-1").label), "the other side scores 80, live"
        assert "Border Levy · 0 VP" in str(tabs.get_tab("side-0").label), "this side scores nothing"
        # the unit's morale falls, shown under it with its rule
        shown = [str(o.prompt) for o in screen.query_one("#play-list-0", OptionList).options]
        assert any("Unit morale: 0 (was 4)" in s and "sum of its figures' morale ratings" in s for s in shown), \
            "the unit's morale falls, shown under it with its rule"
        # unmark, undo, redo
        await pilot.press("minus")
        assert game.value(bows.cell(row=1)) == 2, "minus: unmarked"
        await pilot.press("u")
        assert game.value(bows.cell(row=1)) == 3, "u: undone"
        await pilot.press("ctrl+y")
        assert game.value(bows.cell(row=1)) == 2, "ctrl+y: redone"
        await pilot.press("ctrl+z")
        assert game.value(bows.cell(row=1)) == 3, "ctrl+z: undone"
        await pilot.press("t")
        await pilot.press("q")  # the game was all there was: the program ends
        await pilot.pause()
    assert app.return_code == 0, "q: the program ends"
    # saved as it went: the file alone gives the same game
    again = Game.load(game.path, registry)
    assert again.value(bows.cell(row=0)) == 3 and again.value(bows.cell(row=1)) == 3, "the marks saved"
    assert again.score(1).total == 80, "the score saved"
    resumed = ares_game(table, registry)  # `rosterkit play` with the same armies the next evening
    app = play_app(resumed, registry, table)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        i = await go_to(pilot, 0, "Bowmen", "Wounds", row=0)
        assert "■■■ ✗" in line_text(screen, 0, i) and "■■■ ✗" in line_text(screen, 0, i + 1), \
            "coming back: the marks shown"
        tabs = screen.query_one("#play-sides", TabbedContent)
        assert "Hill Clans · 80 VP" in str(tabs.get_tab("side-1").label), "coming back: the score shown"
        assert screen.sub_title == "turn 2", "coming back: the turn shown"


async def test_every_key_has_an_id_and_is_in_help_and_the_palette_and_turns_with_t_and_shift_t(table, registry):
    game = ares_game(table, registry)
    app = play_app(game, registry, table)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        ids = {b.id for b in PlayScreen.BINDINGS}
        assert None not in ids and all(i.startswith("play.") for i in ids), "every key has an id of the play screen"
        helped = {i.key_id for i in collect(app, screen)}
        assert ids <= helped, "every key is in the help"
        palette = {i.description for i in palette_entries(app, screen)}
        assert {b.description for b in PlayScreen.BINDINGS} <= palette, "every key is in the palette"
        titles = {c.title for c in app.get_system_commands(screen)}
        assert {"Mark", "Undo", "Turn", "Whole", "Redo", "Turn back"} <= titles, "the palette's commands"

        await pilot.press("t", "t", "t", "T")
        assert game.turn == 3, "t three times and T once: turn 3"
        assert app.screen.sub_title == "turn 3", "the subtitle says the turn"
        assert "Turn 3" in str(app.screen.query_one("#play-info-0", Static).render()), "the side's info says the turn"
        await pilot.press("u")
        assert game.turn == 4, "u undoes the turn back"
    assert Game.load(game.path, registry).turn == 4, "the turn is saved"


async def test_a_click_marks_and_the_sides_switch(table, registry):
    game = ares_game(table, registry)
    app = play_app(game, registry, table)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        screen = app.screen
        noble = game.sides[0].units[0].trackers[0]
        assert (noble.label, noble.who) == ("Wounds", "Human Noble")
        # line 0 is the unit, line 1 its first tracker
        await pilot.click("#play-list-0", offset=(12, 1))
        await pilot.pause()
        assert game.value(noble.cell()) == 1
        await pilot.press("s")
        assert screen.query_one("#play-sides", TabbedContent).active == "side-1"
        assert app.focused is screen.query_one("#play-list-1", OptionList)
        await pilot.press("space")
        thane = game.sides[1].units[0].trackers[0]
        assert game.value(thane.cell()) == 1
        await pilot.press("left")
        assert screen.query_one("#play-sides", TabbedContent).active == "side-0"


async def test_a_die_track_a_check_and_one_box_a_figure(table, registry):
    game = Game.start(table / "fast_universal_iron_vanguard.toml", registry=registry)
    app = play_app(game, registry, table)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        # the hero's die track: 1d8 1d6 1d4 (a hit keeps the number of dice), the dice the hero
        # rolls now highlighted: 1d8 before a hit, 1d6 after one; a hit at 1d4 removes the hero
        i = await go_to(pilot, 0, "Captain Aldric", "Hits")
        assert "1d8 1d6 1d4" in " ".join(line_text(screen, 0, i).split())

        def rolled() -> list[str]:
            prompt = screen.query_one("#play-list-0", OptionList).get_option_at_index(i).prompt
            return [prompt.plain[s.start:s.end] for s in prompt.spans if "reverse" in str(s.style)]
        assert rolled() == [" 1d8 "]
        await pilot.press("space")
        assert rolled() == [" 1d6 "]
        await pilot.press("space", "space")
        assert rolled() == [] and "removed" in line_text(screen, 0, i)
        await pilot.press("minus", "minus", "minus")
        # casualties: one box a figure, ticked in order on one line, in groups of five (no half
        # mark: only ordnance has a rule on half its starting miniatures)
        lst = screen.query_one("#play-list-0", OptionList)
        lst.highlighted = 0
        i = await go_to(pilot, 0, "Spearmen", "Casualties")
        await pilot.press(*["space"] * 5)
        assert "■■■■■ □□□□□" in line_text(screen, 0, i)
        shown = [str(o.prompt) for o in lst.options]
        assert not any("Half strength" in s for s in shown)
        await pilot.press("minus")
        assert "■■■■□ □□□□□" in line_text(screen, 0, i)
        # a check: failed morale, and what it means under the unit
        i = await go_to(pilot, 0, "Spearmen", "Failed morale")
        await pilot.press("enter")
        assert "☒" in line_text(screen, 0, i)
        shown = [str(o.prompt) for o in lst.options]
        assert any("Failed morale: must use its next action to move away from the enemy" in s for s in shown)
        # one side: no side to switch to, and the score says the rules give none
        info = str(screen.query_one("#play-info-0", Static).render())
        assert "nothing is scored" in info


async def test_a_unit_too_large_to_mark_figure_by_figure_is_a_tally(table, registry):
    """1,200 Dwarf Crossbowmen: too many rows to mark one by one, so each tracker is the number to
    keep count of (as the card prints it), counted a key at a time, not a line of 1,200 boxes."""
    text = (table / "ares_hill_clans.toml").read_text(encoding="utf-8")
    at = text.index("count = ", text.index('name = "Crossbows"'))
    (table / "ares_hill_clans.toml").write_text(text[:at] + "count = 1200" + text[text.index("\n", at):],
                                                 encoding="utf-8")
    game = Game.start(table / "ares_hill_clans.toml", registry=registry)
    app = play_app(game, registry, table)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        i = await go_to(pilot, 0, "Crossbows", "Shaken")
        assert "Shaken  0 of 1200 (a tally" in line_text(screen, 0, i) and "□" not in line_text(screen, 0, i)
        await pilot.press("space", "space")
        assert "Shaken  2 of 1200" in line_text(screen, 0, i)
        shaken = next(t for u in game.sides[0].units if u.name == "Crossbows" for t in u.trackers
                      if t.label == "Shaken")
        assert game.value(shaken.ref) == 2


async def test_nothing_is_cut(table, registry):
    """At 80x24, then with the terminal widened to 120x40 (the play screen's layout is its
    style sheet's alone: the same at a start and after a resize)."""
    game = ares_game(table, registry)
    app = play_app(game, registry, table)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        await go_to(pilot, 0, "Bowmen", "Wounds", row=0)
        await pilot.press("x", "down", "x")
        tabs = screen.query_one("#play-sides", TabbedContent)
        for size in (SMALL, LARGE):
            await pilot.resize_terminal(*size)
            assert tuple(app.size) == size, (size, "the terminal's size")
            for side in (0, 1):
                if tabs.active != f"side-{side}":
                    await pilot.press("s")
                    await pilot.pause()
                assert tabs.active == f"side-{side}", (size, side, "s: the other side")
                lst = screen.query_one(f"#play-list-{side}", OptionList)
                info = screen.query_one(f"#play-aside-{side}")
                assert lst.size.width >= 40 and info.size.width >= 20, (size, side, "the list and the aside")
                assert lst.max_scroll_x == 0 and info.max_scroll_x == 0, (size, side, "lines wrap, never run off")
                # what does not fit scrolls: the last line can be reached
                await pilot.press("end")
                await pilot.pause()
                assert lst.highlighted == max(i for i, c in enumerate(screen.cursors[side]) if c is not None), \
                    (size, side, "end: the last line")
                assert lst.scroll_offset.y == lst.max_scroll_y, (size, side, "and the effects under it")
                if size == SMALL:
                    assert lst.max_scroll_y > 0 and lst.scroll_offset.y > 0, (side, "80x24: scrolled")
            footer = screen.query_one(Footer)
            assert footer.max_scroll_x == 0, (size, "every key shown fits")
            shown = {b.binding.description for b in screen.active_bindings.values() if b.binding.show}
            assert {"Mark", "Undo", "Turn", "Side", "Close"} <= shown, (size, "(Unmark is in F1 and the palette)")


async def test_play_this_army_from_the_roster_screen_saves_the_roster_first(table, registry):
    app = RosterkitApp(registry, table / "ares_border_levy.toml", cwd=table)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, RosterScreen), "the roster given opens"
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert "Play this army" in titles, "the palette offers to play this army"
        session = app.screen.session
        session.apply(session.roster.model_copy(update={"name": "Levy at dusk"}), "Army name")
        assert session.dirty, "an unsaved change"
        await pilot.press("f10")
        await pilot.pause()
        assert isinstance(app.screen, PlayScreen), "f10: the play screen"
        assert not session.dirty and "Levy at dusk" in (table / "ares_border_levy.toml").read_text(encoding="utf-8"), \
            "the roster saved first"
        assert app.screen.game.sides[0].name == "Levy at dusk", "the game plays the roster as saved"
        assert (table / "ares_border_levy.game.toml").is_file(), "the game is written beside the roster"
        await go_to(pilot, 0, "Bowmen", "Wounds")
        await pilot.press("x")
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, RosterScreen), "back to the roster"
    resumed = Game.start(table / "ares_border_levy.toml", registry=registry)
    bows = next(t for u in resumed.sides[0].units if u.name == "Bowmen" for t in u.trackers if t.label == "Wounds")
    assert resumed.value(bows.cell()) == 3, "the mark made is kept for the next game"


async def test_names_from_files_are_shown_as_written(table, registry):
    path = table / "ares_border_levy.toml"
    doc = tomlkit.parse(path.read_text(encoding="utf-8"))
    doc["name"] = "[bold red]Levy[/] \x1b[2J"
    doc["units"][2]["name"] = "[@click=app.quit]Bowmen[/]\u202e"
    path.write_text(tomlkit.dumps(doc), encoding="utf-8")
    game = Game.start(path, table / "ares_hill_clans.toml", registry=registry)
    app = play_app(game, registry, table)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        shown = [str(o.prompt) for o in screen.query_one("#play-list-0", OptionList).options]
        assert "[@click=app.quit]Bowmen[/]<U+202E>" in "\n".join(shown)
        tabs = screen.query_one("#play-sides", TabbedContent)
        assert str(tabs.get_tab("side-0").label).startswith("[bold red]Levy[/] ␛[2J")
        assert screen.title.startswith("[bold red]Levy[/] ␛[2J against Hill Clans")


def test_play_screen_at_80x24(snap_compare, table, registry):
    game = ares_game(table, registry)

    async def two_losses(pilot):
        await pilot.pause()
        await go_to(pilot, 0, "Bowmen", "Wounds")
        await pilot.press("x", "down", "space", "t")
        await pilot.pause()

    assert snap_compare(play_app(game, registry, table), terminal_size=SMALL, run_before=two_losses)


async def test_play_this_army_against_an_opponent_from_the_palette(table, registry):
    app = RosterkitApp(registry, table / "ares_border_levy.toml", cwd=table)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"play this army against")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, OpenFileScreen), "the palette's command asks for the opponent's roster"
        app.screen.query_one("#open-path").value = "ares_hill_clans.toml"  # (typing into it: test_tui_typing.py)
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        assert [s.name for s in screen.game.sides] == ["Border Levy", "Hill Clans"]
        assert screen.query_one("#play-sides", TabbedContent).tab_count == 2
