"""A 60x20 terminal: every label is shown whole (beside its value, not run into it), and every
control of the roster screen, the export screen and the main dialogs can be scrolled into view."""

from __future__ import annotations

import html
import re
import shutil

from conftest import SAMPLES
from rich.console import Console
from test_tui_flows import app_for, vanguard
from textual.errors import NoWidget

from rosterkit.engine.costing import explain_lines
from rosterkit.tui.screens.roster import RosterScreen
from rosterkit.tui.widgets.stat_field import fitted_note

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
    seen(screen_lines(app), *patterns)


def wholly_seen(screen, widget) -> bool:
    try:
        geometry = screen.find_widget(widget)
    except NoWidget:  # scrolled out of view altogether
        return False
    return geometry.region.intersection(geometry.clip).intersection(screen.region) == geometry.region


async def every_control_comes_into_view(pilot) -> tuple[int, list[str]]:
    """Each control of the screen in front is wholly on screen, as it is or once focused (the
    focus scrolls to it, as Tab does). Returns how many controls there are, and every line of
    the screen seen on the way."""
    app = pilot.app
    screen = app.screen
    chain = list(screen.focus_chain)
    assert chain
    lines = screen_lines(app)
    for widget in chain:
        if not wholly_seen(screen, widget):
            screen.set_focus(widget)
            await pilot.pause()
            await pilot.wait_for_scheduled_animations()  # focusing scrolls to the widget, animated
            assert wholly_seen(screen, widget), (widget, screen.find_widget(widget).region)
            lines += screen_lines(app)
    return len(chain), lines


def seen(lines: list[str], *patterns: str) -> None:
    for pattern in patterns:
        assert any(re.search(pattern, line) for line in lines), (pattern, lines)


async def dialog_walk(pilot, key: str, *texts: str) -> None:
    """A dialog opened with a key: its texts shown whole, each control brought into view; esc
    closes it."""
    app, screen = pilot.app, pilot.app.screen
    await pilot.press(key)
    await pilot.pause()
    assert app.screen is not screen, key
    seen((await every_control_comes_into_view(pilot))[1], *texts)
    await pilot.press("escape")
    await pilot.pause()
    assert app.screen is screen, key


async def test_nothing_is_cut_at_60x20(registry, tmp_path):
    path = vanguard(tmp_path)
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RosterScreen)
        # the units list, the tabs and the unit's fields: labels whole, and apart from their values
        count, lines = await every_control_comes_into_view(pilot)
        assert count > 10
        seen(lines, r"Captain Aldric", r"\bUnit +Cost +Limits +Findings\b", r"Name +▌?Spearmen\b",
             r"Miniatures +10\b", r"Action dice +1 +1–100\b", r"Die type +d6\b", r"Move +6 +0–100\b",
             r"Defense +8 +1–100\b")
        screen.units.focus()
        await pilot.press("f8", "f8")  # the limits: each rule's name whole, wrapped when long
        await pilot.pause()
        limits = words_in(app, screen.query_one("#composition"))
        for rule in ("A vehicle is a unit of its own", "A unit's miniatures are alike", "Basic + Ordnance",
                     "Elite + Vehicle", "Heroes"):
            assert rule in limits, limits

        await pilot.press("f6")  # the export screen: every choice of the cards reachable, and named
        await pilot.pause()
        count, lines = await every_control_comes_into_view(pilot)
        assert count >= 12
        seen(lines, r"\bMarkdown\b", r"\bCopy\b", r"Save text…", r"PDF cards…", r"Poker 63 x 88 mm",
             r"Per unit \(ruleset\)", r"\bCut marks\b", r"\bSummary page\b", r"\bGlossary\b", r"\bCard backs\b",
             r"\bOwn size\b", r"Gutter \(mm\)")
        await pilot.press("escape")
        await pilot.pause()

        for key, texts in (("ctrl+n", (r"Add a unit", r"From the catalogue", r"\bAdd\b", r"\bCancel\b")),
                           ("f7", (r"Roster settings", r"Army name", r"Points limit +500\b", r"Notes", r"\bApply\b",
                                   r"\bCancel\b")),
                           ("f1", (r"Save", r"Undo"))):
            screen.units.focus()
            await dialog_walk(pilot, key, *texts)

        screen.units.focus()
        await pilot.press("delete")  # unsaved: quitting asks first
        await dialog_walk(pilot, "ctrl+q", r"Unsaved changes", r"\bSave\b", r"Discard changes", r"\bCancel\b")

        # another program changes the file: saving asks what to do, and "Save as" asks for a name
        path.write_text(path.read_text() + "\n# changed by another program\n")
        await pilot.press("ctrl+s")
        await pilot.pause()
        seen((await every_control_comes_into_view(pilot))[1], r"Changed on disk", r"\bKeep mine\b",
             r"\bLoad theirs\b", r"\bSave as…", r"\bCancel\b", r"\bvanguard\.toml\b")
        await pilot.press("a")
        await pilot.pause()
        seen((await every_control_comes_into_view(pilot))[1], r"Save roster as", r"File name \(relative to",
             r"\bSave\b", r"\bCancel\b")
        app.screen.query_one("#save-path").focus()
        await pilot.pause()
        assert words_in(app, app.screen.query_one("#save-path")) == screen.session.suggested_file()  # (as typed in)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and screen.session.dirty  # nothing written


async def test_the_medium_layout_shows_labels_values_and_bounds_whole(registry, tmp_path):
    """At 110 columns the editor sits between the units and the side panels: its boxes narrow so
    that each stat's bounds still show."""
    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=(110, 30)) as pilot:
        await pilot.pause()
        assert app.screen.has_class("-medium")
        shows(app, r"Miniatures +10\b", r"Action dice +1 +1–100\b", r"Die type +d6\b", r"Move +6 +0–100\b",
              r"Fight +0 +0–50\b", r"Defense +8 +1–100\b", r"Basic \+ Ordnance", r"A vehicle is a unit of its own")


async def test_where_a_value_comes_from_and_its_bounds_show_in_the_medium_layout(registry, tmp_path):
    """At 120 columns a value taken from the catalogue figure says so, and its bounds follow:
    "from the figure" is said as "figure" where the whole note has no room, never cut mid-word."""
    path = tmp_path / "ares_border_levy.toml"
    shutil.copy(SAMPLES / "ares_border_levy.toml", path)
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.screen.has_class("-medium")
        shows(app, r"Combat Rating +134 +figure · ≥ 1 ", r"Wounds +6 +figure · 1–100 ", r"Scale +0 +figure · -2 to 2 ")
        assert not any("from the fig…" in line for line in screen_lines(app))


def test_a_note_too_long_for_its_room_keeps_its_bounds_then_ends_in_an_ellipsis():
    assert fitted_note("from the figure · 1–100", 30).plain == " from the figure · 1–100"
    assert fitted_note("from the figure · 1–100", 18).plain == " figure · 1–100"
    assert fitted_note("from the figure · 1–100", 8).plain == " figure…"


async def test_the_top_bar_shows_the_ruleset_name_whole(registry, tmp_path):
    """A long ruleset name and the file's name take a second line of the bar rather than being
    cut; the points and the state stay at the right. The kinds of figures of a mixed unit go
    under their label rather than being squeezed to a column."""
    path = tmp_path / "ares_hill_clans.toml"
    shutil.copy(SAMPLES / "ares_hill_clans.toml", path)
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        for size in (SMALL, (80, 24)):  # started at 60x20, then the terminal widened
            await pilot.resize_terminal(*size)
            assert tuple(app.size) == size, (size, "the terminal's size")
            lines = screen_lines(app)
            bar = lines[:2]
            assert re.search(r"\bHill Clans · ARES Miniatures Wargaming System\b", bar[0]), (size, bar)
            assert re.search(r"\bares_hill_clans\.toml +480/500 rating +✔ valid$", bar[1].rstrip()), (size, bar)
            assert "…" not in "".join(bar), (size, "nothing cut")
            seen(lines, r"\bDwarf Thane x1 +▼ +\+ +−")


def drawn_lines(widget) -> list[str]:
    """Every line a Static shows, at its width (the lines scrolled out of view too)."""
    console = Console(width=widget.content_region.width, legacy_windows=False)
    return ["".join(seg.text for seg in line) for line in
            console.render_lines(widget.content, console.options, pad=False)]


async def test_the_cost_panel_breaks_no_word(registry, tmp_path):
    """At 60 and 80 columns the cost tab wraps a long term on its words: each word of each
    unit's breakdown is shown whole on a line ("Claw/hand/spear/sword", "printed)")."""
    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("f8")  # the cost tab
        await pilot.pause()
        session = screen.session
        for size in (SMALL, (80, 24)):  # started at 60x20, then the terminal widened
            await pilot.resize_terminal(*size)
            assert tuple(app.size) == size, (size, "the terminal's size")
            for index in range(len(session.roster.units)):
                screen.units.select_unit(index)
                await pilot.pause()
                shown = drawn_lines(screen.query_one("#cost-body"))
                assert max(len(line.rstrip()) for line in shown) <= screen.query_one("#cost-body").size.width, \
                    (size, "no line wider than the panel")
                words = {word for line in shown for word in line.split()}
                unit = session.costs[index]
                for what, working in explain_lines(unit, session.rs):
                    for word in (what + " " + working).split():
                        assert word in words, (size, unit.name, word, shown)


def test_a_figures_stat_line_in_a_dialog_shows_every_label_whole():
    """The add-unit and design dialogs' preview: labels over values where the line fits, else
    label and value side by side; never labels cut to "Co…"."""
    from rich.console import Console

    from rosterkit.files.rulesets import Registry
    from rosterkit.tui.render import figure_lines
    from rosterkit.workspace import open_roster

    report = open_roster(SAMPLES / "ares_border_levy.toml", Registry()).report
    unit = report.units[0]
    labels = ["Combat Rating", "Wounds", "Move", "Morale", "Armor", "Close Combat", "Ranged Combat", "Magic"]
    for width in (40, 52, 200):
        console = Console(width=width, record=True, color_system=None)
        for part in figure_lines(report.ruleset, unit, unit.members[0]):
            console.print(part)
        shown = console.export_text()
        assert "…" not in shown, (width, shown)
        for label in labels:
            assert label in shown, (width, label, shown)
        assert re.search(r"Combat Rating +134", shown) or width == 200, shown
