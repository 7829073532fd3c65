"""The cost panel lays its breakdown out as lines of text, which draw faster than a Rich table
on every keystroke: the lines must be what the Rich table would show, to the character and
its style, for every unit of the sample armies at every width the panel takes."""

from __future__ import annotations

import pytest
from conftest import SAMPLES
from rich.console import Console
from rich.text import Text

from rosterkit.engine.costing import explain_lines
from rosterkit.files.rulesets import Registry
from rosterkit.tui.app import RosterkitApp
from rosterkit.tui.screens.roster import RosterScreen
from rosterkit.tui.widgets.cost_panel import cost_rows, cost_table, rich_cost_table
from rosterkit.workspace import open_roster

WIDTHS = range(16, 80)


def drawn(renderable, width: int) -> list[list[tuple[str, object]]]:
    """Each line as (character, style) pairs, spaces at the ends of lines left out."""
    console = Console(width=width, color_system="truecolor", legacy_windows=False, force_terminal=True)
    lines = []
    for line in console.render_lines(renderable, console.options.update_width(width), pad=False):
        cells = [(ch, seg.style) for seg in line for ch in seg.text]
        while cells and cells[-1][0] == " ":
            cells.pop()
        lines.append([(ch, style if ch != " " and style else None) for ch, style in cells])  # (no style and a null one alike)
    return lines


def laid_out(rows, width: int):
    """The rows as the panel lays them out at a width."""
    return cost_table(rows, width, Console(width=width, legacy_windows=False))


def units():
    registry = Registry()
    for path in sorted(SAMPLES.glob("*.toml")):
        opened = open_roster(path, registry)
        for unit in opened.report.units:
            yield path.stem, unit, opened.ruleset


@pytest.mark.parametrize("army, unit, rs", list(units()), ids=lambda v: v if isinstance(v, str) else "")
def test_the_lines_are_the_rich_tables(army, unit, rs):
    rows = cost_rows(unit, rs, explain_lines(unit, rs))
    for width in WIDTHS:
        assert drawn(laid_out(rows, width), width) == drawn(rich_cost_table(rows, width), width), width


def test_long_names_and_workings_wrap_as_in_the_rich_table():
    rows = [(Text("  + weapon: Claw/hand/spear/sword of the ancient kings", style="dim"),
             Text("0 (as printed; the formula gives 12 = 3 * 4)")),
            (Text("Unit total", style="bold"), Text("1234567890123456789012345678901234567890", style="bold")),
            (Text("Łukasz's Ωmega 戦士", style="dim"), Text("7"))]
    for width in WIDTHS:
        got = drawn(laid_out(rows, width), width)
        assert got == drawn(rich_cost_table(rows, width), width), width
        assert all(len("".join(ch for ch, _ in line)) <= width for line in got)


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (160, 48)])
async def test_each_term_keeps_its_working_on_its_line_at_every_screen_size(tmp_path, size):
    """The panel lays the breakdown out at the width it is drawn at: at every screen size a
    term's working stands on the term's own line."""
    from test_tui_flows import screen_text

    app = RosterkitApp(Registry(), SAMPLES / "fast_universal_iron_vanguard.toml", cwd=tmp_path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, RosterScreen)
        if size[0] < 100:
            await pilot.press("f8")  # the narrow layout shows one panel at a time
            await pilot.pause()
        text = screen_text(app)
        for label, working in (("Die x defense", "6 * 8 = 48"), ("Figure cost", "84 / 4 = 21"),
                               ("Unit total", "210")):
            line = next(line for line in text.splitlines() if label in line)
            assert working in line, line
