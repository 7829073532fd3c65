"""The roster screen from the keyboard alone: a unit's members, the focus made plain, a list's
cursor, and the player's own keys from a keymap file."""

from __future__ import annotations

from test_tui_flows import WIDE, app_for, screen_text, vanguard

from rosterkit.tui.screens.add_unit import AddUnitScreen
from rosterkit.tui.widgets.stat_field import StatField
from rosterkit.tui.widgets.units_list import UnitsList


async def test_a_unit_becomes_mixed_a_count_changes_and_a_tabbed_list_deletes_from_the_keys(registry, tmp_path):
    from rosterkit.tui.widgets.item_list import ItemOptions

    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        screen = app.screen
        s = screen.session
        screen.query_one(UnitsList).select_unit(2)  # Captain Aldric: one figure, no members
        await pilot.pause()
        assert not s.roster.units[2].members, "one kind of figure"
        before = s.report.total
        await pilot.press("f9")  # add figures of another kind
        assert isinstance(app.screen, AddUnitScreen) and app.screen.member, "f9: the add dialog, for a member"
        await pilot.press("enter")  # the first figure of the catalogue
        unit = s.roster.units[2]
        assert len(unit.members) == 2 and s.report.total > before, "two kinds now, and costlier"
        await pilot.press("alt+c")  # the count of the kind shown (the new one)
        assert screen.focused is screen.query_one("#f-count", StatField).control, "alt+c: the count"
        mixed = s.report.total
        await pilot.press("ctrl+u", "2")
        assert s.roster.units[2].members[1].count == 2 and s.report.total != mixed, "the count typed applies"
        assert f"{s.report.total}/" in str(screen.query_one("#topbar").plain), "the top bar shows the total"
        await pilot.press("shift+f9")  # and removed again
        assert len(s.roster.units[2].members) < 2, "shift+f9 removes the kind shown"

        # a list reached with Tab shows its cursor on its first entry, so the footer's "del Remove"
        # acts at once
        units = screen.query_one(UnitsList)
        units.select_unit(0)
        units.focus()
        await pilot.pause()
        assert s.roster.units[0].weapons, "the first unit has weapons"
        await pilot.press("enter")  # to the first unit's name
        for _ in range(20):
            if isinstance(app.focused, ItemOptions):
                break
            await pilot.press("tab")
        weapons = app.focused
        assert isinstance(weapons, ItemOptions) and weapons.highlighted == 0, "tab reaches the weapons, at the first"
        await pilot.press("delete")
        assert not s.roster.units[0].weapons, "delete removes the first weapon"


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
        assert isinstance(app.screen, AddUnitScreen)

    (home / "keymap.toml").write_text('"units.add" = \n', encoding="utf-8")  # not TOML
    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        assert any("keymap.toml" in n.message and "TOML" in n.message for n in app._notifications)
        screen = app.screen
        screen.set_focus(screen.query_one(UnitsList))
        await pilot.press("a")  # the keys as they were
        assert isinstance(app.screen, AddUnitScreen)


async def test_the_focused_control_is_framed_and_a_hidden_tab_is_made_when_first_shown(registry, tmp_path):
    """Where the keys go is plain to see: a list's pane, a dialog's input and a one-line control
    each get a frame of the theme's accent colour while they have the focus, and a list that
    takes the focus shows its cursor on its first entry. On the same narrow terminal, a side
    panel's tab is made when it is first shown."""
    from test_tui_small_terminal import screen_lines
    from textual.color import Color

    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        accent = Color.parse(app.get_css_variables()["accent"])
        screen = app.screen
        units, pane = screen.query_one(UnitsList), screen.query_one("#units-pane")
        assert app.focused is units and units.highlighted == units.row_of(0), '"Spearmen", not its type\'s heading'
        assert pane.styles.border_top == ("round", accent), "the units pane framed in the accent colour"
        await pilot.press("enter")  # to the unit's name: the units pane loses its frame, the name field has it
        await pilot.pause()
        assert pane.styles.border_top[1] != accent, "the units pane loses its frame"
        assert any("▌Spearmen" in line and line.rstrip(" │").endswith("▐") for line in screen_lines(app)), \
            "the name field framed"
        await pilot.press("tab")  # the type's select
        await pilot.pause()
        assert any("▌Basic" in line for line in screen_lines(app)), "the type's select framed"
        await pilot.press("ctrl+n")  # a dialog's input: an accent border
        await pilot.pause()
        search = app.screen.query_one("#add-search")
        assert app.focused is search and search.styles.border_top == ("tall", accent), "the dialog's input framed"
        await pilot.press("escape")

        # a hidden tab of the narrow terminal is made when first shown
        assert app.screen is screen, "escape closes the dialog"
        assert screen.query("#detail-tabs"), "narrow: the tabs are shown"
        for panel in ("#cost", "#composition", "#findings"):
            assert not screen.query(panel), f"{panel} not made before its tab is shown"
        await pilot.click("#--content-tab-tab-limits")
        await pilot.pause()
        composition = screen.query_one("#composition")
        assert composition.region.width and "Points" in screen_text(app), "the limits tab made and shown"
        assert not screen.query("#cost") and not screen.query("#findings"), "the other tabs still not made"
        await pilot.click("#--content-tab-tab-findings")
        await pilot.pause()
        assert "No problems" in screen_text(app), "the findings tab made and shown"
        await pilot.resize_terminal(*WIDE)  # every panel shows, in its place
        await pilot.pause()
        assert [w.id for w in screen.query_one("#side").children] == ["cost", "composition", "findings"], \
            "wide: every panel in its place"
        assert "No problems" in screen_text(app), "the findings still shown"
        assert all(w.region.width for w in screen.query_one("#side").children), "wide: every panel shows"
