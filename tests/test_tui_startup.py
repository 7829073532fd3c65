"""The first screen: a roster given opens straight on the roster screen."""

from __future__ import annotations

from test_tui_flows import WIDE, app_for, screen_text, vanguard

from rosterkit.files.rosters import load_roster
from rosterkit.tui import home
from rosterkit.tui.screens.confirm_quit import ConfirmQuitScreen
from rosterkit.tui.screens.recovery_offer import RecoveryOfferScreen
from rosterkit.tui.screens.roster import RosterScreen
from rosterkit.tui.screens.start import StartScreen


async def test_a_roster_given_opens_without_a_start_screen_underneath(registry, tmp_path):
    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        assert [type(s) for s in app.screen_stack] == [RosterScreen]
        assert "Units (3)" in screen_text(app)


async def test_the_recovery_offer_shows_over_the_roster(registry, tmp_path):
    path = vanguard(tmp_path)
    recovered = load_roster(path).roster.model_copy(update={"name": "Iron Vanguard (edited)"})
    home.write_recovery(home.recovery_key(path), path, recovered)
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        assert [type(s) for s in app.screen_stack] == [RosterScreen, RecoveryOfferScreen]
        await pilot.press("r")
        await pilot.pause()
        assert [type(s) for s in app.screen_stack] == [RosterScreen]
        assert "Iron Vanguard (edited)" in screen_text(app)  # the roster screen shows the restored work


async def test_closing_the_roster_goes_to_a_start_screen(registry, tmp_path):
    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        app.action_close_roster()
        await pilot.pause()
        assert [type(s) for s in app.screen_stack] == [StartScreen]
        start = app.screen
        kinds = [e[0] for e in start.entries if e]
        assert kinds[:2] == ["new", "open"] and "recent" in kinds and "sample" in kinds
        assert "vanguard.toml" in screen_text(app) or "Iron Vanguard" in screen_text(app)

        # a roster opened from the start screen closes back to the same start screen; unsaved
        # changes are asked about first
        other = tmp_path / "other.toml"
        other.write_text((tmp_path / "vanguard.toml").read_text())
        app.open_roster(other)
        await pilot.pause()
        assert [type(s) for s in app.screen_stack] == [StartScreen, RosterScreen]
        await pilot.press("d")  # duplicate the selected unit
        assert app.screen.session.dirty
        app.action_close_roster()
        await pilot.pause()
        assert isinstance(app.screen, ConfirmQuitScreen)
        await pilot.press("d")  # discard
        await pilot.pause()
        assert app.screen_stack == [start]
        assert start.entries and start.query_one("#start-list").has_focus


async def test_the_palette_closes_a_roster_given_on_the_command_line(registry, tmp_path):
    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        command = next(c for c in app.get_system_commands(app.screen) if c.title == "Close roster")
        command.callback()
        await pilot.pause()
        assert isinstance(app.screen, StartScreen) and len(app.screen_stack) == 1
        assert not [c for c in app.get_system_commands(app.screen) if c.title == "Close roster"]
