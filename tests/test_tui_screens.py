"""The other screens: design, item picker, export, ruleset browser, match-up, help, palette, layouts."""

from __future__ import annotations

from conftest import SAMPLES
from test_tui_flows import WIDE, app_for, fill, screen_text, text_of, vanguard

from rosterkit.engine.roster import LocalItem
from rosterkit.engine.textlist import roster_text
from rosterkit.files.rosters import load_roster
from rosterkit.tui.keys import palette_entries
from rosterkit.tui.screens.add_unit import AddUnitScreen
from rosterkit.tui.screens.design import DesignScreen
from rosterkit.tui.screens.export import ExportScreen
from rosterkit.tui.screens.help import HelpScreen
from rosterkit.tui.screens.item_picker import ItemPickerScreen
from rosterkit.tui.screens.matchup import MatchupScreen
from rosterkit.tui.screens.new_roster import NewRosterScreen
from rosterkit.tui.screens.open_file import OpenFileScreen
from rosterkit.tui.screens.roster import RosterScreen
from rosterkit.tui.screens.roster_settings import RosterSettingsScreen
from rosterkit.tui.screens.ruleset_browser import RulesetScreen
from rosterkit.tui.screens.save_as import SaveAsScreen
from rosterkit.tui.widgets.stat_field import StatField
from rosterkit.tui.widgets.units_list import UnitsList

NARROW = (80, 24)
TAB = "#--content-tab-tab-{}"  # the tab (in the tab bar) of a narrow terminal's panel


async def test_design_a_weapon_add_units_and_pick_an_ability(registry, tmp_path):
    """On one roster: a weapon designed and priced live, a blank unit added and named, an
    ability picked with its cost and its restrictions shown, a unit found by every word typed."""
    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        roster_screen = app.screen
        session = roster_screen.session
        await pilot.press("f3")
        screen = app.screen
        assert isinstance(screen, DesignScreen), "f3 opens the design screen"
        # the catalogue's misprint is shown with both numbers
        lst = screen.query_one("#design-list")
        lst.highlighted = screen.rows.index(("catalogue", "weapons", 10))  # Machine Gun
        await pilot.pause()
        assert "Printed 68; the formula gives 40" in text_of(screen.query_one("#design-title")), "misprint shown"

        lst.highlighted = screen.rows.index(("new", "weapons", None))
        await pilot.press("enter")
        assert session.roster.weapons == [LocalItem(name="New weapon")], "a new weapon in the roster"
        await fill(pilot, screen.query_one("#d-weapons-shoot", StatField), "2")
        await fill(pilot, screen.query_one("#d-weapons-range", StatField), "12")
        price = text_of(screen.query_one("#design-price"))
        assert "Price 44" in price and "0 * 10 + 2 * 10 + 12 * 2" in price, "priced live from its stats"
        assert session.roster.weapons[0].stats == {"shoot": 2, "range": 12}, "the stats typed reach the roster"

        name = screen.query_one("#d-name", StatField)
        await fill(pilot, name, "Heavy crossbow")
        await pilot.press("enter")  # a name is committed when the field is left
        assert session.roster.weapons[0].name == "Heavy crossbow", "the name committed"

        await fill(pilot, screen.query_one("#d-cost", StatField), "50")
        price = text_of(screen.query_one("#design-price"))
        assert "Price 50" in price and "formula would give 44" in price, "a fixed cost beside the formula's"

        await pilot.press("ctrl+z")  # undo the fixed cost
        assert session.roster.weapons[0].cost is None, "the fixed cost undone"
        await pilot.press("escape")
        assert app.screen is roster_screen, "escape goes back to the roster"

        # a blank unit of a type, named at once
        await pilot.press("a")
        dialog = app.screen
        assert isinstance(dialog, AddUnitScreen), "a opens the add-unit dialog"
        dialog.query_one("#add-search").value = "vehicle"
        await pilot.pause()
        await pilot.press("enter")
        assert session.roster.units[-1].name == "New Vehicle" and session.roster.units[-1].type == "Vehicle", \
            "a blank unit of the type searched for"
        name = roster_screen.query_one("#f-name", StatField)
        assert roster_screen.focused is name.control, "ready to be named"
        await pilot.press(*"Tank")
        assert session.roster.units[-1].name == "Tank", "the name typed reaches the roster"
        assert "Tank" in screen_text(app), "the name typed is shown"

        # an ability picked: its cost and restrictions shown first
        roster_screen.query_one(UnitsList).select_unit(0)  # Spearmen, basic
        await pilot.pause()
        roster_screen.query_one("#items-abilities").options.focus()
        await pilot.press("a")
        picker = app.screen
        assert isinstance(picker, ItemPickerScreen), "a on the abilities opens the item picker"
        names = [item.name for item, _ in picker.shown]
        row = names.index("Fireball")
        picker.query_one("#pick-list").highlighted = row
        await pilot.pause()
        detail = text_of(picker.query_one("#pick-detail"))
        assert "Only for" in detail and "Hero" in detail and "adding it will be an error" in detail, \
            "a hero's ability says so to a basic unit"
        picker.query_one("#pick-search").value = "fearless"
        await pilot.pause()
        assert [item.name for item, _ in picker.shown] == ["Fearless"], "the search narrows the list"
        assert "30" in text_of(picker.query_one("#pick-detail")), "the ability's cost shown"
        await pilot.press("enter")
        assert app.screen is roster_screen, "enter picks it and closes the picker"
        assert session.roster.units[0].abilities == ["Fearless"], "the ability reaches the unit"
        assert session.costs[0].total == 210 + 30 * 10, "and its cost, per figure"

        # the add-unit search matches every word typed
        await pilot.press("ctrl+n", *"blank vehicle")
        dialog = app.screen
        assert isinstance(dialog, AddUnitScreen), "ctrl+n opens the add-unit dialog"
        shown = [c for c in dialog.shown if c is not None]
        assert [(kind, entry.name) for kind, entry in shown] == [("type", "Vehicle")], "both words matched"
        await pilot.press("enter")
        roster = app.screen.session.roster
        assert roster.units[-1].type.casefold() == "vehicle", "the blank vehicle added"


async def test_reorder_change_the_limit_click_a_unit_browse_the_ruleset_help_palette_and_export(registry, tmp_path):
    """The sample at 160x48, screen after screen: units moved within their type, the limit
    changed, a unit clicked; the ruleset browser, the match-up, the help and the palette; the
    export of the list and the PDF cards."""
    from rosterkit.tui.screens.export import pdf_module

    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        screen = app.screen
        session = screen.session
        # units move within their type, and back with undo
        await pilot.press("shift+down")  # Spearmen below Archers
        assert [u.name for u in session.roster.units] == ["Archers", "Spearmen", "Captain Aldric"], "moved down"
        assert screen.selected == 1, "the moved unit stays selected"
        await pilot.press("shift+down")  # already last of the basic units: nothing moves
        assert [u.name for u in session.roster.units] == ["Archers", "Spearmen", "Captain Aldric"], \
            "not past the last of its type"
        await pilot.press("ctrl+z")
        assert [u.name for u in session.roster.units] == ["Spearmen", "Archers", "Captain Aldric"], "move undone"

        # the roster's settings change the limit
        await pilot.press("f7")
        dialog = app.screen
        assert isinstance(dialog, RosterSettingsScreen), "f7 opens the roster's settings"
        await fill(pilot, dialog.query_one("#set-points", StatField), "abc")
        assert dialog.query_one("#set-points", StatField).has_class("-invalid"), "a limit must be a number"
        await fill(pilot, dialog.query_one("#set-points", StatField), "400")
        await pilot.click("#ok")
        await pilot.pause()
        assert session.roster.points_limit == 400, "the new limit applied"
        assert "points-limit" in [f.rule for f in session.validation.findings], "now over the limit"
        await pilot.press("ctrl+z")
        assert session.roster.points_limit == 500 and session.validation.ok, "the limit change undone"

        # a click chooses a unit as in Textual's option lists: its editor, at its name
        units = screen.query_one(UnitsList)
        await pilot.click(UnitsList, offset=(4, units.row_of(2)))
        await pilot.pause()
        assert screen.selected == 2 and screen.query_one("#editor").index == 2, "a click selects the unit"
        assert screen.focused is screen.query_one("#f-name", StatField).control, "at its name"
        await pilot.click(UnitsList, offset=(4, units.row_of(1)))
        await pilot.pause()
        assert screen.selected == 1 and screen.query_one("#editor").index == 1, "another click, another unit"

        roster_screen = app.screen
        # the ruleset browser
        await pilot.press("f4")
        screen = app.screen
        assert isinstance(screen, RulesetScreen), "f4 opens the ruleset browser"
        pages = [p.id for p in screen.query("TabPane")]
        assert pages == ["rs-overview", "rs-stats", "rs-types", "rs-formulas", "rs-weapons", "rs-abilities",
                         "rs-figures", "rs-limits"], "every page of the ruleset"
        screen.query_one("TabbedContent").active = "rs-weapons"
        await pilot.pause()
        text = screen_text(app)
        assert "Machine Gun" in text and "formula gives 40" in text, "the weapons page, with the misprint"
        screen.query_one("TabbedContent").active = "rs-limits"
        await pilot.pause()
        assert "points('hero') / limit" in screen_text(app), "the limits page, with its formulas"
        await pilot.press("escape")
        assert isinstance(app.screen, RosterScreen), "escape goes back to the roster"

        # the match-up against another roster
        await pilot.press("f5")
        assert isinstance(app.screen, OpenFileScreen), "f5 asks for the opponent's roster"
        app.screen.query_one("#open-path").value = str(SAMPLES / "fast_universal_ashen_host.toml")
        await pilot.press("enter")
        screen = app.screen
        assert isinstance(screen, MatchupScreen), "the match-up opens"
        text = text_of(screen.query_one("#matchup"))
        assert "Iron Vanguard" in text and "Ashen Host" in text, "both armies named"
        assert "497" in text and "469" in text, "both totals"
        assert "Iron Vanguard has 28 points more" in text, "the difference"
        assert "no match-up rules" in text, "the ruleset has no match-up rules"
        await pilot.press("escape")
        assert app.screen is roster_screen, "escape goes back to the roster"

        # help and the command palette list every binding
        screen = roster_screen
        commands = list(app.get_system_commands(screen))
        by_title = {c.title: c for c in commands}
        entries = palette_entries(app, screen)
        reachable = {(e.action.split(".")[-1]) for e in entries}
        for binding in [*RosterScreen.BINDINGS, *UnitsList.BINDINGS, *type(app).BINDINGS]:
            assert binding.action.split(".")[-1] in reachable, binding
        for e in entries:
            assert e.description in by_title, e.description
        assert "a, ^n" in by_title["Add unit"].help or "^n, a" in by_title["Add unit"].help, "both keys named"
        await pilot.press("f1")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen), "f1 opens the help"
        text = text_of(help_screen.query_one("#help-text"))
        for words in ("Save", "Undo", "Redo", "Design", "Export", "Units list", "Duplicate", "Move up", "Help",
                      "Quit"):
            assert words in text, words
        await pilot.press("escape")
        assert app.screen is screen, "escape closes the help"
        # a command from the palette runs the same action as its key
        command = next(c for c in app.get_system_commands(screen) if c.title == "Duplicate")
        await command.callback()
        await pilot.pause()
        assert len(screen.session.roster.units) == 4, "the palette's Duplicate duplicates"

        # the export: the plain list, markdown, the PDF cards (of the sample as it was: valid)
        await pilot.press("ctrl+z")
        assert len(roster_screen.session.roster.units) == 3 and roster_screen.session.validation.ok, \
            "the duplicate undone"
        session = roster_screen.session
        await pilot.press("f6")
        screen = app.screen
        assert isinstance(screen, ExportScreen), "f6 opens the export screen"
        plain = roster_text(session.report, valid=True)
        assert screen.query_one("#export-text").text == plain, "the plain list shown"
        await pilot.press("c")
        assert app.clipboard == plain, "c copies it"
        await pilot.press("m")
        markdown = roster_text(session.report, markdown=True, valid=True)
        assert screen.query_one("#export-text").text == markdown, "m shows it in markdown"
        await pilot.press("s")
        assert isinstance(app.screen, SaveAsScreen), "s asks where to save"
        await pilot.press("enter")
        assert (tmp_path / "vanguard.md").read_text() == markdown, "the markdown saved"
        assert app.screen is screen, "back on the export screen"

        # PDF cards, made in a worker
        if pdf_module() is None:
            import pytest

            pytest.skip("rosterkit.cards.pdf has no export_cards")
        await pilot.press("p")
        assert isinstance(app.screen, SaveAsScreen), "p asks where to write the cards"
        assert app.screen.query_one("#save-path").value == "vanguard_cards.pdf", "named after the roster"
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        pdf = tmp_path / "vanguard_cards.pdf"
        assert pdf.read_bytes().startswith(b"%PDF"), "a PDF written"
        assert "Wrote" in text_of(screen.query_one("#export-status")), "the screen says it was written"
        bar = screen.query_one("#pdf-progress")
        assert bar.total and bar.progress == bar.total, "the progress bar full"


async def test_narrow_terminal_uses_tabs(registry, tmp_path):
    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=NARROW) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.has_class("-narrow")
        editor = screen.query_one("#editor")
        assert editor.display and editor.region.width
        assert not screen.query("#cost")  # a side panel is made when its tab is first shown
        await pilot.press("f8")
        await pilot.pause()
        cost = screen.query_one("#cost")
        assert screen.tab == "cost" and cost.region.width and not editor.region.width
        await pilot.press("f8", "f8")
        await pilot.pause()
        assert screen.tab == "findings" and screen.query_one("#findings").region.width
        await pilot.click(TAB.format("unit"))
        await pilot.pause()
        assert screen.tab == "unit" and editor.region.width
        move = screen.query_one("#stat-move", StatField)
        move.control.focus()
        move.control.value = "7"  # typed, and the terminal widened at once
        await pilot.resize_terminal(160, 48)
        await pilot.pause()
        assert screen.has_class("-wide") and not screen.query("#detail-tabs")
        for panel in ("#editor", "#cost", "#composition", "#findings"):
            assert screen.query_one(panel).region.width  # all side by side
        assert screen.session.roster.units[0].stats["move"] == 7  # nothing typed is lost
        move = screen.query_one("#stat-move", StatField)
        assert app.focused is move.control and move.control.value == "7"  # the field keeps the focus


async def test_units_of_mixed_figures(registry, tmp_path):
    path = tmp_path / "levy.toml"
    path.write_text((SAMPLES / "ares_border_levy.toml").read_text())
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        screen = app.screen
        session = screen.session
        unit = session.roster.units[0]
        assert len(unit.members) == 2
        editor = screen.query_one("#editor")
        assert editor.member == 0 and screen.query_one("#members-row").display
        screen.query_one("#member-select").value = 1
        await pilot.pause()
        assert editor.member == 1
        before = session.costs[0].total
        per = session.costs[0].members[1].per_figure
        await fill(pilot, screen.query_one("#f-count", StatField), "8")
        assert session.roster.units[0].members[1].count == 8
        assert session.costs[0].total == before + 2 * per


async def test_sample_opens_as_an_unsaved_copy(registry, tmp_path):
    app = app_for(registry, tmp_path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        start = app.screen
        start.query_one("#start-list").highlighted = [e[0] if e else None for e in start.entries].index("sample")
        await pilot.press("enter")
        screen = app.screen
        assert isinstance(screen, RosterScreen) and screen.session.path is None
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SaveAsScreen)
        assert app.screen.query_one("#save-path").value == "fast_universal_iron_vanguard.toml"
        await pilot.press("enter")
        saved = tmp_path / "fast_universal_iron_vanguard.toml"
        assert load_roster(saved).roster == screen.session.roster
        assert screen.session.path == saved and not screen.session.dirty


async def test_a_missing_file_starts_a_new_roster_there(registry, tmp_path):
    app = app_for(registry, tmp_path, tmp_path / "new_army.toml")
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewRosterScreen)
        assert app.screen.query_one("#new-path").value == str(tmp_path / "new_army.toml")


async def test_a_broken_file_shows_why_and_the_start_screen(registry, tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text('format = 1\nname = "x"\nruleset = "fast_universal"\n[[units]\n', encoding="utf-8")
    app = app_for(registry, tmp_path, broken)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        from rosterkit.tui.screens.start import StartScreen
        assert isinstance(app.screen, StartScreen)
        assert app.screen.entries  # new roster, open a file and the samples are offered
        shown = " ".join(n.message for n in app._notifications)
        assert "broken.toml:4" in shown and "not valid TOML" in shown


async def test_save_a_unit_as_a_figure_and_add_it_to_another_roster(registry, tmp_path):
    from test_tui_flows import empty_roster

    from rosterkit.files.figures import figures_path, load_user_figures
    from rosterkit.tui.screens.figure_dialogs import (
        ConfirmFigureScreen,
        FigureNameScreen,
    )

    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        roster_screen = app.screen
        roster_screen.query_one(UnitsList).select_unit(2)  # Captain Aldric: a hero with a sword and Command
        await pilot.pause()
        original = roster_screen.session.costs[2].members[0].per_figure
        await pilot.press("f3")
        screen = app.screen
        assert isinstance(screen, DesignScreen)
        assert ("savefig", "figures", None) in screen.rows
        await pilot.press("u")
        assert isinstance(app.screen, FigureNameScreen)
        app.screen.query_one("#figure-name-input").value = "Average human"  # the ruleset's own name
        await pilot.pause()
        assert "The ruleset has a figure of that name" in text_of(app.screen.query_one("#figure-name-message"))
        app.screen.query_one("#figure-name-input").value = "Aldric the Bold"
        await pilot.pause()
        await pilot.press("enter")
        assert app.screen is screen
        [fig] = load_user_figures("fast_universal")
        assert fig.name == "Aldric the Bold" and fig.type == "Hero" and fig.weapons == ["Sword"]
        row = ("figure", "figures", 0)
        assert screen.current == row
        detail = text_of(screen.query_one("#design-title"))
        assert f"Cost: {original} per" in detail and str(figures_path("fast_universal")) in detail.replace("\n", "")

        # renaming asks for a name; deleting asks first (the file is outside the roster's undo)
        await pilot.press("r")
        assert isinstance(app.screen, FigureNameScreen)
        await pilot.press("escape")
        await pilot.press("delete")
        assert isinstance(app.screen, ConfirmFigureScreen)
        await pilot.press("n")
        assert [f.name for f in load_user_figures("fast_universal")] == ["Aldric the Bold"]
        await pilot.press("escape")

        # another roster of the ruleset adds it from the add-unit dialog
        app.open_roster(empty_roster(tmp_path))
        await pilot.pause()
        other = app.screen
        assert other is not roster_screen and other.session.roster.units == []
        await pilot.press("ctrl+n")
        dialog = app.screen
        assert isinstance(dialog, AddUnitScreen)
        assert "Your figures" in screen_text(app) and "Aldric the Bold" in screen_text(app)
        assert dialog.current == ("mine", fig)  # the player's figures come first
        await pilot.press("enter")
        assert app.screen is other
        unit = other.session.roster.units[0]
        assert unit.figure == "Aldric the Bold"
        cost = other.session.costs[0]
        assert cost.members[0].per_figure == original and cost.type_id == "hero"
        assert not [f for f in cost.findings if f.severity == "error"]
