"""A new roster from a list pasted into the interface, driven with Textual's Pilot."""

from __future__ import annotations

from conftest import SAMPLES
from textual import events
from textual.widgets import OptionList, Static, TextArea

from rosterkit.editing import recovery
from rosterkit.tui.app import RosterkitApp
from rosterkit.tui.screens.confirm_quit import ConfirmQuitScreen
from rosterkit.tui.screens.paste_list import PasteListScreen
from rosterkit.tui.screens.roster import RosterScreen

VANGUARD = SAMPLES / "fast_universal_iron_vanguard.toml"

PASTED = ("++ Raiders [Fast Universal Wargame] [230 / 500 pts] ++\n"
          "- Basic\n"
          "- 10x Spearmen, Spear\n"
          "- 4x Archers, Bow\n")


async def _open_dialog(pilot) -> PasteListScreen:
    await pilot.pause()
    start = pilot.app.screen
    lst = start.query_one("#start-list", OptionList)
    lst.highlighted = next(i for i, e in enumerate(start.entries) if e and e[0] == "paste")
    await pilot.press("enter")
    assert isinstance(pilot.app.screen, PasteListScreen)
    return pilot.app.screen


async def test_a_list_that_cannot_be_read_is_named_by_line_and_kept_then_opens_as_a_new_unsaved_roster(
        registry, tmp_path):
    app = RosterkitApp(registry, None, cwd=tmp_path, samples=[VANGUARD])
    bad = PASTED + "- 99999999999999999999x Spearmen [link=x]\x1b[2J\n"
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await _open_dialog(pilot)
        assert app.focused is dialog.query_one("#paste-text", TextArea), "the text box has the focus"
        app.post_message(events.Paste(bad))  # what the terminal sends for its paste
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is dialog, "still there, with the text as pasted"
        area = dialog.query_one("#paste-text", TextArea)
        assert area.text == bad, "the text as pasted"
        message = str(dialog.query_one("#paste-message", Static).render())
        assert "<pasted list>:5: the count" in message and "not a whole number" in message, "the line named"
        assert area.cursor_location == (4, 0), "on the line named"
        # fixed in place, then read
        area.text = PASTED
        await pilot.click("#paste-ok")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RosterScreen), "read: the roster screen"
        doc = screen.session
        assert doc.path is None and doc.dirty, "a new roster, not saved yet"
        assert doc.roster.name == "Raiders" and doc.roster.points_limit == 500, "the list's name and limit"
        assert [(u.name, u.count) for u in doc.roster.units] == [("Spearmen", 10), ("Archers", 4)], "the list's units"
        # kept aside at once: a crash now does not lose it
        kept = recovery.read_recovery(doc.recovery.file)
        assert kept is not None and kept.roster == doc.roster, "kept aside at once"
        # quitting asks about it
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, ConfirmQuitScreen), "quitting asks about it"


async def test_the_palette_offers_a_pasted_list_and_its_text_is_shown_as_written(registry, tmp_path):
    app = RosterkitApp(registry, None, cwd=tmp_path, samples=[VANGUARD])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "New roster from pasted list…" in titles, "the palette offers it"
        await pilot.press("ctrl+p")
        await pilot.press(*"pasted list")
        await pilot.pause(0.5)
        await pilot.press("enter")
        assert isinstance(app.screen, PasteListScreen), "the palette's command opens the dialog"

        # pasted text in a message is shown as written
        dialog = app.screen
        app.post_message(events.Paste("[bold]Iron[/] [@click=app.quit]x[/]\x1b[2J\n- 3x Spearmen\n"))
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is dialog, "a list that cannot be read keeps the dialog"
        message = str(dialog.query_one("#paste-message", Static).render())
        assert message.startswith("<pasted list>:1: expected the header"), "the line named"
        assert "found '[bold]Iron[/] [@click=app.quit]x[/]␛[2J'" in message, "the text shown as written"
