"""The first screen: a roster given opens straight on the roster screen, what is hidden is made
when first shown, and the screens opened later are imported when opened."""

from __future__ import annotations

import os
import subprocess
import sys

from test_tui_flows import WIDE, app_for, screen_text, vanguard

from rosterkit.tui.screens.confirm_quit import ConfirmQuitScreen
from rosterkit.tui.screens.roster import RosterScreen
from rosterkit.tui.screens.start import StartScreen
from rosterkit.tui.widgets.stat_field import StatField

NARROW = (80, 24)


async def test_a_roster_given_opens_alone_makes_its_tabs_when_narrowed_and_closes_to_a_start_screen(registry,
                                                                                                  tmp_path):
    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        assert [type(s) for s in app.screen_stack[1:]] == [RosterScreen], "no start screen underneath"
        assert "Units (3)" in screen_text(app), "the roster is drawn"

        # a wide terminal makes the tabs when it becomes narrow
        screen = app.screen
        assert not screen.query("#detail-tabs"), "every panel shows: no tabs"
        assert not screen.query("#members-row"), "no unit of mixed figures: not made"
        assert not any(field.message for field in screen.query(StatField)), "nothing to say under a field yet"
        await pilot.resize_terminal(*NARROW)
        await pilot.pause()
        assert screen.query_one("#detail-tabs").region.width, "narrow: the tabs are made and shown"
        await pilot.press("f8")
        await pilot.pause()
        assert screen.tab == "cost" and screen.query_one("#cost").region.width, "f8 shows the cost tab"

        # the palette closes a roster given on the command line
        command = next(c for c in app.get_system_commands(app.screen) if c.title == "Close roster")
        command.callback()
        await pilot.pause()
        assert isinstance(app.screen, StartScreen) and len(app.screen_stack) == 2, "closed to a start screen"
        assert not [c for c in app.get_system_commands(app.screen) if c.title == "Close roster"], \
            "the start screen offers no Close roster"

        # the start screen it closes to (the palette's "Close roster" is the app's close action)
        await pilot.resize_terminal(*WIDE)
        assert [type(s) for s in app.screen_stack[1:]] == [StartScreen], "only the start screen"
        start = app.screen
        kinds = [e[0] for e in start.entries if e]
        assert kinds[:2] == ["new", "open"] and "recent" in kinds and "sample" in kinds, \
            "new, open, then the recent rosters and the samples"
        assert "vanguard.toml" in screen_text(app) or "Iron Vanguard" in screen_text(app), "the closed roster is recent"

        # a roster opened from the start screen closes back to the same start screen; unsaved
        # changes are asked about first
        other = tmp_path / "other.toml"
        other.write_text((tmp_path / "vanguard.toml").read_text())
        app.open_roster(other)
        await pilot.pause()
        assert [type(s) for s in app.screen_stack[1:]] == [StartScreen, RosterScreen], "opened over the start screen"
        await pilot.press("d")  # duplicate the selected unit
        assert app.screen.session.dirty, "an unsaved change"
        app.action_close_roster()
        await pilot.pause()
        assert isinstance(app.screen, ConfirmQuitScreen), "unsaved changes: asked first"
        await pilot.press("d")  # discard
        assert app.screen_stack[1:] == [start], "back to the same start screen"
        assert start.entries and start.query_one("#start-list").has_focus, "its list has the focus"


def test_screens_opened_later_are_imported_when_opened(tmp_path):
    """Up to the roster screen drawn, only its own modules are imported."""
    roster = vanguard(tmp_path)
    code = (
        "import asyncio, sys\n"
        "from rosterkit.files.rulesets import Registry\n"
        "from rosterkit.tui.app import RosterkitApp\n"
        "async def main():\n"
        f"    app = RosterkitApp(Registry(), {str(roster)!r})\n"
        "    async with app.run_test(size=(160, 48)) as pilot:\n"
        "        await pilot.pause()\n"
        "        assert type(app.screen).__name__ == 'RosterScreen'\n"
        "asyncio.run(main())\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('rosterkit.tui.screens.'))))\n"
    )
    env = dict(os.environ, ROSTERKIT_HOME=str(tmp_path / "home"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=env).stdout.split()
    assert "rosterkit.tui.screens.roster" in out
    for later in ("start", "design", "export", "matchup", "ruleset_browser", "help", "add_unit", "item_picker",
                  "new_roster", "open_file", "recovery_offer", "confirm_quit", "roster_settings", "save_as"):
        assert f"rosterkit.tui.screens.{later}" not in out, later


async def test_a_flag_and_a_choices_stat_get_their_controls():
    """Switch and SelectionList are imported only for rulesets with such stats: they still work."""
    from textual.app import App
    from textual.widgets import SelectionList, Switch

    from rosterkit.rules.schema import StatDef
    from rosterkit.tui.widgets.stat_field import StatField

    flag = StatDef(id="fly", label="Flying", kind="flag")
    gifts = StatDef(id="gifts", label="Gifts", kind="choices", options=["Fire", "Ice", "Storm"])
    sent: list[tuple[str, object]] = []

    class Fields(App):
        def compose(self):
            yield StatField(flag, id="f-fly")
            yield StatField(gifts, id="f-gifts")

        def on_stat_field_changed(self, event: StatField.Changed) -> None:
            sent.append((event.stat_id, event.raw))

    app = Fields()
    async with app.run_test(size=(80, 20)) as pilot:
        fly, chosen = app.query_one("#f-fly", StatField), app.query_one("#f-gifts", StatField)
        assert isinstance(fly.control, Switch) and isinstance(chosen.control, SelectionList)
        fly.show(True)
        chosen.show(["Ice"])
        await pilot.pause()
        assert sent == []  # showing a value sends nothing
        assert fly.control.value is True and chosen.control.selected == ["Ice"]
        fly.control.toggle()
        chosen.control.select("Storm")
        await pilot.pause()
        assert ("fly", False) in sent and ("gifts", ["Ice", "Storm"]) in sent
