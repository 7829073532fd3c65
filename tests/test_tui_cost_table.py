"""The cost panel shows the breakdown as a Rich table laid out at the panel's width: each term
beside its working, nothing wider than the panel."""

from __future__ import annotations

import pytest
from conftest import SAMPLES
from rich.console import Console
from rich.text import Text

from rosterkit.files.rulesets import Registry
from rosterkit.tui.app import RosterkitApp
from rosterkit.tui.screens.roster import RosterScreen
from rosterkit.tui.widgets.cost_panel import rich_cost_table

WIDTHS = range(16, 80)


def drawn(renderable, width: int) -> list[str]:
    """Each line's text, spaces at the ends of lines left out."""
    console = Console(width=width, legacy_windows=False)
    return ["".join(seg.text for seg in line).rstrip()
            for line in console.render_lines(renderable, console.options.update_width(width), pad=False)]


def test_long_names_and_workings_stay_within_the_width():
    rows = [(Text("  + weapon: Claw/hand/spear/sword of the ancient kings", style="dim"),
             Text("0 (as printed; the formula gives 12 = 3 * 4)")),
            (Text("Unit total", style="bold"), Text("1234567890123456789012345678901234567890", style="bold")),
            (Text("Łukasz's Ωmega 戦士", style="dim"), Text("7"))]
    for width in WIDTHS:
        got = drawn(rich_cost_table(rows, width), width)
        assert all(Text(line).cell_len <= width for line in got), width
        assert "".join(got).replace(" ", "").count("1234567890") == 4, width  # (folded, not cut)


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
