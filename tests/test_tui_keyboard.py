"""The roster screen from the keyboard alone: a unit's members, findings, the add-unit search,
and the player's own keys from a keymap file."""

from __future__ import annotations

from test_tui_flows import WIDE, app_for, vanguard

from rosterkit.tui.screens.add_unit import AddUnitScreen
from rosterkit.tui.widgets.stat_field import StatField
from rosterkit.tui.widgets.units_list import UnitsList


async def test_search_matches_every_word_typed(registry, tmp_path):
    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+n", *"blank vehicle")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, AddUnitScreen)
        shown = [c for c in dialog.shown if c is not None]
        assert [(kind, entry.name) for kind, entry in shown] == [("type", "Vehicle")]
        await pilot.press("enter")
        await pilot.pause()
        roster = app.screen.session.roster
        assert roster.units[-1].type.casefold() == "vehicle"


async def test_a_one_figure_unit_becomes_mixed_and_a_count_changes_from_the_keys(registry, tmp_path):
    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        screen = app.screen
        s = screen.session
        screen.query_one(UnitsList).select_unit(2)  # Captain Aldric: one figure, no members
        await pilot.pause()
        assert not s.roster.units[2].members
        before = s.report.total
        await pilot.press("f9")  # add figures of another kind
        await pilot.pause()
        assert isinstance(app.screen, AddUnitScreen) and app.screen.member
        await pilot.press("enter")  # the first figure of the catalogue
        await pilot.pause()
        unit = s.roster.units[2]
        assert len(unit.members) == 2 and s.report.total > before
        await pilot.press("alt+c")  # the count of the kind shown (the new one)
        await pilot.pause()
        assert screen.focused is screen.query_one("#f-count", StatField).control
        mixed = s.report.total
        await pilot.press("ctrl+u", "2")
        await pilot.pause()
        assert s.roster.units[2].members[1].count == 2 and s.report.total != mixed
        assert f"{s.report.total}/" in str(screen.query_one("#topbar").plain)
        await pilot.press("shift+f9")  # and removed again
        await pilot.pause()
        assert len(s.roster.units[2].members) < 2


async def test_a_keymap_file_rebinds_a_key_and_a_bad_one_is_a_notice(registry, tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("ROSTERKIT_HOME", str(home))
    (home / "keymap.toml").write_text('"units.add" = "n"\n"roster.save" = 5\n', encoding="utf-8")
    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        assert any("roster.save" in n.message for n in app._notifications)
        screen = app.screen
        screen.set_focus(screen.query_one(UnitsList))
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, AddUnitScreen)

    (home / "keymap.toml").write_text('"units.add" = \n', encoding="utf-8")  # not TOML
    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        assert any("keymap.toml" in n.message and "TOML" in n.message for n in app._notifications)
        screen = app.screen
        screen.set_focus(screen.query_one(UnitsList))
        await pilot.press("a")  # the keys as they were
        await pilot.pause()
        assert isinstance(app.screen, AddUnitScreen)


async def test_the_focused_control_is_framed_in_the_accent_colour(registry, tmp_path):
    """Where the keys go is plain to see: a list's pane, a dialog's input and a one-line control
    each get a frame of the theme's accent colour while they have the focus, and a list that
    takes the focus shows its cursor on its first entry."""
    from test_tui_small_terminal import screen_lines
    from textual.color import Color

    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        accent = Color.parse(app.get_css_variables()["accent"])
        screen = app.screen
        units, pane = screen.query_one(UnitsList), screen.query_one("#units-pane")
        assert app.focused is units and units.highlighted == units.row_of(0)  # "Spearmen", not its type's heading
        assert pane.styles.border_top == ("round", accent)
        await pilot.press("enter")  # to the unit's name: the units pane loses its frame, the name field has it
        await pilot.pause()
        assert pane.styles.border_top[1] != accent
        assert any("▌Spearmen" in line and line.rstrip(" │").endswith("▐") for line in screen_lines(app))
        await pilot.press("tab")  # the type's select
        await pilot.pause()
        assert any("▌Basic" in line for line in screen_lines(app))
        await pilot.press("ctrl+n")  # a dialog's input: an accent border
        await pilot.pause()
        search = app.screen.query_one("#add-search")
        assert app.focused is search and search.styles.border_top == ("tall", accent)
        await pilot.press("escape")
        await pilot.pause()


async def test_tab_into_a_units_weapons_then_delete_removes_the_first(registry, tmp_path):
    """A list reached with Tab shows its cursor on its first entry, so the footer's "del Remove"
    acts at once."""
    from rosterkit.tui.widgets.item_list import ItemOptions

    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        s = app.screen.session
        assert s.roster.units[0].weapons
        await pilot.press("enter")  # to the first unit's name
        for _ in range(20):
            if isinstance(app.focused, ItemOptions):
                break
            await pilot.press("tab")
        weapons = app.focused
        assert isinstance(weapons, ItemOptions) and weapons.highlighted == 0
        await pilot.press("delete")
        await pilot.pause()
        assert not s.roster.units[0].weapons
