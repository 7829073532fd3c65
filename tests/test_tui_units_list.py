"""The units list and the stat fields of the roster screen, as the player uses them: moving with
the keys and the mouse, and what a keystroke in a field shows."""

from __future__ import annotations

from test_tui_flows import WIDE, app_for, screen_text, topbar_text, type_into, vanguard

from rosterkit.tui.widgets.stat_field import StatField
from rosterkit.tui.widgets.units_list import UnitsList


def bare(text: str) -> str:
    """Text without its spaces (the screenshot's text leaves out runs of blanks)."""
    return "".join(text.split())


def line(units: UnitsList, unit: int) -> str:
    return str(units.get_option(f"unit-{unit}").prompt)


async def test_keys_and_clicks_move_from_unit_to_unit_then_digits_typed_show_in_the_units_line_and_top_bar(
        registry, tmp_path):
    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        screen = app.screen
        units = screen.query_one(UnitsList)
        assert units.unit_order() == [0, 1, 2], "Basic: Spearmen, Archers; Hero: Captain Aldric"
        assert [o.id for o in units.options] == ["type-basic", "unit-0", "unit-1", "type-hero", "unit-2"], \
            "a heading before each type's units"
        assert [o.disabled for o in units.options] == [True, False, False, True, False], "the headings cannot be chosen"
        units.focus()
        await pilot.press("home")
        assert screen.selected == 0 and units.current_unit == 0, "home: the first unit"
        await pilot.press("down", "down")  # over the "Hero" heading
        assert units.current_unit == 2 and screen.selected == 2, "down twice: over the Hero heading to the captain"
        assert screen.query_one("#editor").index == 2, "the editor shows the unit highlighted"
        await pilot.press("down")  # from the last unit round to the first, as in Textual's lists
        assert units.current_unit == 0, "down from the last unit: round to the first"
        await pilot.press("up")
        assert units.current_unit == 2, "up from the first: round to the last"
        await pilot.press("pageup")
        assert units.current_unit == 0, "pageup: the first unit"
        await pilot.press("end")
        assert units.current_unit == 2 and screen.selected == 2, "end: the last unit"
        await pilot.press("enter")  # enter goes to the unit's name
        assert screen.focused is screen.query_one("#f-name", StatField).control, "enter goes to the unit's name"

        # a click on a type heading selects nothing
        units.select_unit(1)
        await pilot.pause()
        await pilot.click(UnitsList, offset=(4, units.get_option_index("type-hero")))
        await pilot.pause()
        assert screen.selected == 1 and units.current_unit == 1, "a click on a heading leaves the unit selected"

        # digits typed: the units line, the type's heading and the top bar follow; a long
        # number scrolls its field
        units.select_unit(1)  # Archers
        await pilot.pause()
        before = screen.session.costs[1].total
        spearmen, heading = line(units, 0), str(units.get_option("type-basic").prompt)
        await type_into(pilot, screen.query_one("#stat-move", StatField), "9")
        await pilot.pause()
        after = screen.session.costs[1].total
        assert after != before, "the unit's cost changed"
        shown = bare(screen_text(app))
        assert line(units, 1).rstrip().endswith(f" {after}") and bare(line(units, 1)) in shown, \
            "the unit's line shows its new cost"
        assert line(units, 0) == spearmen, "the other units' lines are as they were"
        assert str(units.get_option("type-basic").prompt) != heading, "the type's heading changed"
        assert bare(str(units.get_option("type-basic").prompt)) in shown, "the type's heading is shown"
        total = screen.session.report.total
        assert f"{total}/" in topbar_text(app) and f"Armytotal{total}" in shown, "the top bar and the army total"

        # a number longer than its field scrolls to the end typed
        field = screen.query_one("#stat-move", StatField)
        digits = "12345678901234567890123456"
        await type_into(pilot, field, digits)
        await pilot.pause()
        control = field.control
        assert control.value == digits and control.size.width < len(digits), "the number is longer than its field"
        assert control.scroll_offset.x > 0, "the field scrolled"
        assert "890123456" in screen_text(app), "the end typed is on screen, with the cursor after it"
        assert "Not applied" in screen_text(app), "too large for the stat: the roster keeps its value"
