"""A 60x20 terminal: every label is shown whole (beside its value, not run into it), and every
control of the roster screen, the export screen and the main dialogs can be scrolled into view."""

from __future__ import annotations

import html
import re

from test_tui_flows import app_for, vanguard

from rosterkit.tui.screens.roster import RosterScreen

SMALL = (60, 20)
TEXT = re.compile(r'<text[^>]*?x="([\d.]+)"[^>]*?y="([\d.]+)"[^>]*?textLength="([\d.]+)"[^>]*>(.*?)</text>')


def screen_lines(app) -> list[str]:
    """The screen as lines of text, each character in its own column (read from Textual's SVG
    screenshot): a label and the value in the next box stay apart, as on the terminal."""
    spans = [(float(x), float(y), float(length), html.unescape(body).replace("\xa0", " "))
             for x, y, length, body in TEXT.findall(app.export_screenshot())]
    cell = min(length / len(body) for _, _, length, body in spans if body)
    rows: dict[float, dict[int, str]] = {}
    for x, y, _, body in spans:
        row = rows.setdefault(y, {})
        for i, char in enumerate(body):
            row[round(x / cell) + i] = char
    return ["".join(row.get(col, " ") for col in range(max(row) + 1)) for _, row in sorted(rows.items())]


def words_in(app, widget) -> str:
    """The words a widget shows on screen, in reading order, one space between them (a label
    wrapped over two lines reads as one)."""
    region = widget.content_region
    lines = screen_lines(app)[region.y:region.bottom]
    return " ".join(" ".join(line[region.x:region.right].split()) for line in lines).strip()


def shows(app, *patterns: str) -> None:
    lines = screen_lines(app)
    for pattern in patterns:
        assert any(re.search(pattern, line) for line in lines), (pattern, lines)


async def every_control_comes_into_view(pilot) -> int:
    """Focus each control of the screen in front in turn: each is then wholly on screen."""
    screen = pilot.app.screen
    chain = list(screen.focus_chain)
    assert chain
    for widget in chain:
        screen.set_focus(widget)
        await pilot.pause()
        geometry = screen.find_widget(widget)
        seen = geometry.region.intersection(geometry.clip).intersection(screen.region)
        assert seen == geometry.region, (widget, geometry.region, seen)
    return len(chain)


async def test_nothing_is_cut_at_60x20(registry, tmp_path):
    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RosterScreen)
        # the units list, the tabs and the unit's fields: labels whole, and apart from their values
        shows(app, r"Captain Aldric", r"\bUnit +Cost +Limits +Findings\b", r"Name +▌?Spearmen\b",
              r"Miniatures +10\b", r"Action dice +1 +1 to 100\b", r"Die type +d6\b", r"Move +6 +0 to 100\b",
              r"Defense +8 +1 to 100\b")
        assert await every_control_comes_into_view(pilot) > 10
        screen.units.focus()
        await pilot.press("f8", "f8")  # the limits: each rule's name whole, wrapped when long
        await pilot.pause()
        limits = words_in(app, screen.query_one("#composition"))
        for rule in ("A vehicle is a unit of its own", "A unit's miniatures are alike", "Basic + Ordnance",
                     "Elite + Vehicle", "Heroes"):
            assert rule in limits, limits
        await pilot.press("f8", "f8")

        await pilot.press("f6")  # the export screen: every choice of the cards reachable, and named
        await pilot.pause()
        shows(app, r"\bMarkdown\b", r"\bCopy\b", r"Save text…", r"PDF cards…", r"Poker 63 x 88 mm", r"Per unit \(ruleset\)",
              r"\bCut marks\b", r"\bSummary page\b", r"\bGlossary\b", r"\bCard backs\b", r"\bOwn size\b", r"Gutter \(mm\)")
        assert await every_control_comes_into_view(pilot) >= 12
        await pilot.press("escape")
        await pilot.pause()

        for key, texts in (("ctrl+n", (r"Add a unit", r"From the catalogue", r"\bAdd\b", r"\bCancel\b")),
                           ("f7", (r"Roster settings", r"Army name", r"Points limit +500\b", r"Notes", r"\bApply\b",
                                   r"\bCancel\b")),
                           ("f1", (r"Save", r"Undo"))):
            screen.units.focus()
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is not screen, key
            shows(app, *texts)
            await every_control_comes_into_view(pilot)
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is screen, key

        screen.units.focus()
        await pilot.press("delete")  # unsaved: quitting asks first
        await pilot.press("ctrl+q")
        await pilot.pause()
        shows(app, r"Unsaved changes", r"\bSave\b", r"Discard changes", r"\bCancel\b")
        await every_control_comes_into_view(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


async def test_the_medium_layout_shows_labels_values_and_bounds_whole(registry, tmp_path):
    """At 110 columns the editor sits between the units and the side panels: its boxes narrow so
    that each stat's bounds still show."""
    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=(110, 30)) as pilot:
        await pilot.pause()
        assert app.screen.has_class("-medium")
        shows(app, r"Miniatures +10\b", r"Action dice +1 +1 to 100\b", r"Die type +d6\b", r"Move +6 +0 to 100\b",
              r"Fight +0 +0 to 50\b", r"Defense +8 +1 to 100\b", r"Basic \+ Ordnance", r"A vehicle is a unit of its own")
