"""Shared files cannot run markup: what a roster, a ruleset or a figures file names is shown as
written, in the interface and at a terminal. ``[@click=...]`` is not an action, ``[link=...]``
not a hyperlink, ``[black on black]`` hides nothing, a bare ``[/]`` does not end the program,
and escape sequences (OSC 8 links, OSC 52 clipboard writes) and bidi overrides are shown."""

from __future__ import annotations

import io
import re
import shutil
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from conftest import RULESETS, SAMPLES, CliResult, run_cli
from rich.console import Console
from test_terminal_safety import UNSAFE, quoted
from test_tui_files import notices, user_ruleset
from test_tui_flows import WIDE, app_for, screen_text, vanguard
from textual.content import Content
from textual.geometry import Region
from textual.widgets import Static

from rosterkit.editing import recent
from rosterkit.engine.roster import LocalItem, RosterFile, Unit
from rosterkit.files.figures import save_user_figures
from rosterkit.files.rosters import load_roster, save_roster
from rosterkit.files.rulesets import Registry
from rosterkit.rules.schema import FigureDef

CLICK = "[@click=app.quit]Q[/]"
LINK = "[link=https://x.example]L[/link]"
HIDE = "[black on black]H[/]"
MARKERS = (HIDE, CLICK, LINK)  # each must show as written
OSC8 = "\x1b]8;;https://x.example\x1b\\O8\x1b]8;;\x1b\\"
OSC52 = "\x1b]52;c;aGk=\x07"
CONTROLS = OSC8 + OSC52 + "\x1b[2J\u202e"
# words a line can be broken between: each marker stays whole on a line of a table's cell
EVIL = f"{HIDE} {CLICK} {LINK} [/] {CONTROLS}Z"
RAW = ("\x1b", "\x07", "\u202e")
SGR = re.compile(r"\x1b\[[0-9;]*m")  # colours and bold: the only escape sequences a terminal gets


# ---------------------------------------------------------------- reading what was drawn

def drawn(widget) -> list[list]:
    """The widget's lines as drawn: segments with their styles (what a click would act on)."""
    width, height = widget.outer_size
    return [list(strip) for strip in widget.render_lines(Region(0, 0, width, height))]


def actions_on_screen(app) -> set[str]:
    """Every click action and hyperlink a drawn cell of the screen carries."""
    found = set()
    for widget in app.screen.walk_children(with_self=False):
        if not widget.display or not widget.region.area:
            continue
        for line in drawn(widget):
            for seg in line:
                style = seg.style
                if style is None:
                    continue
                if style.link:
                    found.add(f"link {style.link}")
                if style.meta and style.meta.get("@click"):
                    found.add(f"click {style.meta['@click']}")
    return found


def where_drawn(widget, text: str) -> tuple[int, int]:
    """Where in the widget a text is drawn (its first cell)."""
    for y, line in enumerate(drawn(widget)):
        row = "".join(seg.text for seg in line)
        if text in row:
            return len(row[:row.index(text)]), y
    raise AssertionError(f"{text!r} is not drawn")


def text_of(widget, width: int = 1000) -> str:
    """What a widget shows, as Textual makes it of what it was given (a str read as markup or
    not, as the widget says), a Rich renderable laid out wide (no cell of a table wrapped)."""
    if hasattr(widget, "plain"):
        return widget.plain
    visual = widget.visual
    if isinstance(visual, Content):
        return visual.plain
    console = Console(width=width, file=io.StringIO(), record=True)
    console.print(widget.content)
    return console.export_text()


def assert_shown_as_written(text: str, where: str) -> None:
    for marker in MARKERS:
        assert marker in text, (where, marker)


def assert_nothing_sent(app, where: str, svg: str | None = None) -> None:
    svg = app.export_screenshot() if svg is None else svg
    for ch in RAW:
        assert ch not in svg, (where, repr(ch))
    assert not actions_on_screen(app), where


async def click_each_cell_with_an_action(pilot, app) -> None:
    """Click wherever a drawn cell carries an action (as a player clicking a name would)."""
    for widget in list(app.screen.walk_children(with_self=False)):
        if not widget.display or not widget.region.area:
            continue
        for y, line in enumerate(drawn(widget)):
            x = 0
            for seg in line:
                if seg.style is not None and seg.style.meta and seg.style.meta.get("@click"):
                    await pilot.click(widget, offset=(x, y))
                    await pilot.pause()
                    return
                x += seg.cell_length


# ---------------------------------------------------------------- files

def evil_rules(d: dict) -> None:
    """The ruleset's texts hold markup and escape sequences: its name, a stat's label, short
    label and description, a type, a catalogue weapon, a figure, a limit, a card column."""
    d["name"] = f"{EVIL} rules"
    stat = next(s for s in d["stats"] if s["id"] == "move")
    stat.update(label=f"{EVIL} move", short="[/]M", description=f"{EVIL} how far")
    d["types"][0]["name"] = f"{EVIL} type"
    weapon = {k: v for k, v in d["weapons"][-1].items() if k not in ("aliases", "note")}
    d["weapons"].append(dict(weapon, name=f"{EVIL} catalogue", description=f"{EVIL} shoots", note=EVIL))
    next(s for s in d["weapon_stats"] if s["id"] == "shoot").update(short="[/]S")
    figure = {k: v for k, v in d["figures"][0].items() if k != "cost"}
    d["figures"].append(dict(figure, name=f"{EVIL} figure", description=f"{EVIL} told"))
    d["limits"][1].update(label=f"{EVIL} limit", description=f"{EVIL} limited")
    d["card"]["columns"][1]["show"] = CLICK + "{move}"


def evil_roster(tmp_path, name: str = f"{EVIL} army", file: str = "evil.toml"):
    roster = load_roster(vanguard(tmp_path)).roster
    units = [u.model_copy(update={"name": f"{EVIL} {i}", "notes": EVIL}) for i, u in enumerate(roster.units)]
    roster = roster.model_copy(update={"name": name, "notes": EVIL, "units": units,
                                       "weapons": [LocalItem(name=f"{EVIL} gun", stats={"shoot": 1},
                                                             description=EVIL)]})
    path = tmp_path / file
    save_roster(roster, path)
    return path


def roster_named(tmp_path, file: str, name: str, unit: str = "Spearmen") -> Path:
    path = tmp_path / file
    shutil.copy(SAMPLES / "fast_universal_iron_vanguard.toml", path)
    roster = load_roster(path).roster
    units = [roster.units[0].model_copy(update={"name": unit}), *roster.units[1:]]
    save_roster(roster.model_copy(update={"name": name, "units": units}), path)
    return path


# ---------------------------------------------------------------- finding 1: the interface

async def test_finding1_click_markup_in_recent_preview_is_shown_literally(registry, tmp_path, monkeypatch):
    from rosterkit.tui.screens.start import StartScreen

    monkeypatch.chdir(tmp_path)
    victim = tmp_path / "victim.toml"
    victim.write_text("precious = true\n", encoding="utf-8")
    name = "[@click=app.screenshot('victim.toml','.')]Spearmen[/]"  # one click would write over it
    path = roster_named(tmp_path, "shared.toml", "Shared army", unit=name)
    recent.remember(path)
    app = app_for(registry, tmp_path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StartScreen)
        screen.query_one("#start-list").highlighted = [e and e[0] for e in screen.entries].index("recent")
        await pilot.pause()
        preview = screen.query_one("#start-preview-body", Static)
        assert name in text_of(preview)
        assert name in screen_text(app)
        assert not actions_on_screen(app)
        await click_each_cell_with_an_action(pilot, app)
        await pilot.click(preview, offset=where_drawn(preview, "Spearmen"))  # the unit's name
        await pilot.pause()
        assert app.is_running
    assert victim.read_text(encoding="utf-8") == "precious = true\n"


async def test_finding1_a_bare_close_tag_in_a_recent_roster_does_not_end_the_interface(registry, tmp_path):
    path = roster_named(tmp_path, "shared.toml", "Shared army", unit="Spear [/] men")
    recent.remember(path)
    app = app_for(registry, tmp_path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        screen = app.screen
        screen.query_one("#start-list").highlighted = [e and e[0] for e in screen.entries].index("recent")
        await pilot.pause()
        assert "Spear [/] men" in screen_text(app)
        assert app.is_running


async def test_finding1_opponent_army_name_in_the_matchup_is_shown_literally(registry, tmp_path):
    from rosterkit.tui.screens.matchup import MatchupScreen

    mine = vanguard(tmp_path)
    app = app_for(registry, tmp_path, mine)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        roster_screen = app.screen
        for i, army in enumerate([f"{CLICK} Raiders", "Grey [/] Company", f"{LINK} {HIDE}"]):
            theirs = roster_named(tmp_path, f"theirs{i}.toml", army)
            app.push_screen(MatchupScreen(roster_screen.session, registry, tmp_path, theirs))
            await pilot.pause()
            assert isinstance(app.screen, MatchupScreen), army
            assert army in text_of(app.screen.query_one("#matchup", Static)), army
            assert army in screen_text(app), army
            assert not actions_on_screen(app), army
            await click_each_cell_with_an_action(pilot, app)
            assert app.is_running, army
            app.pop_screen()
            await pilot.pause()
            assert app.screen is roster_screen, army


async def test_finding1_every_screen_shows_file_text_as_written(tmp_path):
    """Every screen, dialog and notification with names, notes, descriptions, labels and
    messages from the roster, the ruleset and the player's figures file: each page of the
    ruleset browser, a catalogue figure's and weapon's details, a stat's tooltip."""
    from textual.widgets import TabbedContent, TabPane

    from rosterkit.tui.screens.add_unit import AddUnitScreen
    from rosterkit.tui.screens.confirm_quit import ConfirmQuitScreen
    from rosterkit.tui.screens.design import DesignScreen
    from rosterkit.tui.screens.export import ExportScreen
    from rosterkit.tui.screens.figure_dialogs import (
        ConfirmFigureScreen,
        FigureNameScreen,
    )
    from rosterkit.tui.screens.help import HelpScreen
    from rosterkit.tui.screens.item_picker import ItemPickerScreen
    from rosterkit.tui.screens.matchup import MatchupScreen
    from rosterkit.tui.screens.roster import RosterScreen
    from rosterkit.tui.screens.roster_settings import RosterSettingsScreen
    from rosterkit.tui.screens.start import StartScreen
    from rosterkit.tui.widgets.stat_field import StatField

    user_ruleset(evil_rules)
    mine = FigureDef(name=f"{EVIL} mine", type="basic", count=3, stats={"dice": 1, "move": 6}, description=EVIL)
    save_user_figures("fast_universal", [mine])
    path = evil_roster(tmp_path)
    theirs = evil_roster(tmp_path, f"{EVIL} theirs", "theirs.toml")
    registry = Registry()
    app = app_for(registry, tmp_path, path)

    async def check(where: str, *, markers: bool = True) -> None:
        await pilot.pause()
        assert app.is_running, where
        svg = app.export_screenshot()
        assert_nothing_sent(app, where, svg)
        if markers:
            assert_shown_as_written(screen_text(app, svg), where)

    async with app.run_test(size=(240, 60), tooltips=True) as pilot:
        await check("roster")
        roster_screen = app.screen
        assert isinstance(roster_screen, RosterScreen), "the roster screen"
        for key, kind in (("f3", DesignScreen), ("f4", None), ("f6", ExportScreen), ("f7", RosterSettingsScreen),
                          ("ctrl+n", None), ("f1", HelpScreen)):
            await pilot.press(key)
            await pilot.pause()
            assert kind is None or isinstance(app.screen, kind), "the screen of the key"
            await check(key, markers=key != "f1")
            if key == "ctrl+n":  # a catalogue figure's details: its card columns as the ruleset writes them
                add = app.screen
                assert isinstance(add, AddUnitScreen), "the add-unit dialog"
                lst = add.query_one("#add-list")
                lst.highlighted = next(i for i, c in enumerate(add.shown) if c and c[1].name == f"{EVIL} figure")
                await pilot.pause()
                detail = text_of(add.query_one("#add-detail", Static))
                assert CLICK + "6" in detail, "the card column, as the ruleset writes it"
                assert_shown_as_written(detail, "add unit")
                assert_nothing_sent(app, "add unit")
            if key == "f4":  # every text cell of every page of the ruleset browser
                screen = app.screen
                tabs = screen.query_one(TabbedContent)
                pages = {}
                for pane in screen.query(TabPane):
                    tabs.active = pane.id
                    await pilot.pause()
                    pages[pane.id] = text_of(pane.query_one(Static))
                    assert_nothing_sent(app, pane.id)
                for page in ("rs-overview", "rs-stats", "rs-types", "rs-weapons", "rs-figures", "rs-limits"):
                    assert_shown_as_written(pages[page], page)
                assert "[/]M" in pages["rs-stats"] and "[/]S" in pages["rs-weapons"], "headers and short labels"
            if key == "f3":  # a catalogue weapon's stats; the roster's own weapon, the player's figure
                design = app.screen
                rows = design.rows
                catalogue = next(i for i, r in enumerate(rows) if r[0] == "catalogue" and r[1] == "weapons"
                                 and design.rs.data.weapons[r[2]].name == f"{EVIL} catalogue")
                design.query_one("#design-list").highlighted = catalogue
                await pilot.pause()
                detail = text_of(design.query_one("#design-title", Static))
                assert "[/]S 4" in detail, "the weapon's stats, by the ruleset's short labels"
                assert_shown_as_written(detail, "design")
                assert_nothing_sent(app, "design")
                for row in (("local", "weapons", 0), ("figure", "figures", 0)):
                    design.query_one("#design-list").highlighted = design.rows.index(row)
                    await check(f"design {row}")
                design.action_rename_figure()
                await pilot.pause()
                assert isinstance(app.screen, FigureNameScreen), "the rename dialog"
                await check("rename figure")
                await pilot.press("escape")
                design.action_delete_figure()
                await pilot.pause()
                assert isinstance(app.screen, ConfirmFigureScreen), "the delete question"
                await check("delete figure")
                await pilot.press("escape")
            await pilot.press("escape")
            assert app.screen is roster_screen, key
        field = roster_screen.query_one("#stat-move", StatField)  # a stat's description, in its tooltip
        await pilot.hover(field.control)
        await pilot.pause(app.TOOLTIP_DELAY + 0.2)  # (a tooltip shows after a moment's hover)
        tooltip = app.screen.query_one("#textual-tooltip")
        assert tooltip.display, "the tooltip shows"
        assert_shown_as_written(text_of(tooltip, 200), "tooltip")
        assert not actions_on_screen(app), "no action in the tooltip"
        roster_screen.query_one("#items-weapons").options.focus()
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, ItemPickerScreen), "the item picker"
        await check("item picker")
        await pilot.press("escape")
        await pilot.pause()
        app.push_screen(MatchupScreen(roster_screen.session, registry, tmp_path, theirs))
        await check("match-up")
        await pilot.press("escape")
        roster_screen.action_duplicate_unit()  # a notification naming the unit
        await pilot.pause()
        assert f"Duplicated {EVIL} 0" in notices(app), "the notification names the unit"
        await check("notification")
        await pilot.press("ctrl+q")  # unsaved changes: the dialog names the army
        await pilot.pause()
        assert isinstance(app.screen, ConfirmQuitScreen), "the unsaved-changes dialog"
        await check("unsaved changes")
        await pilot.press("d")
    recent.remember(path)
    app = app_for(registry, tmp_path)
    async with app.run_test(size=(240, 60)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StartScreen), "the start screen"
        screen.query_one("#start-list").highlighted = [e and e[0] for e in screen.entries].index("recent")
        await check("start screen")


# ---------------------------------------------------------------- finding 2: the command line at a terminal

class Terminal(io.StringIO):
    """Standard output or error as a terminal: rich draws tables and styles for it."""

    def isatty(self) -> bool:
        return True


def run_at_terminal(*args) -> CliResult:
    from rosterkit.cli import main

    out, err = Terminal(), Terminal()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main([str(a) for a in args])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
    return CliResult(code, out.getvalue(), err.getvalue())


def shown(text: str) -> str:
    """What a terminal shows: the colour and bold sequences taken out (no other may remain)."""
    text = SGR.sub("", text)
    assert "\x1b]8;" not in text  # no hyperlink
    bad = sorted({f"U+{ord(c):04X}" for c in text if c in UNSAFE})
    assert not bad, bad
    return text


ARMY = f"{CLICK} {HIDE}"
UNIT = f"{LINK} [/]"


def markup_roster(tmp_path):
    """A roster whose names hold markup, saved against an older version of its ruleset (so that
    validate, cost and update draw the table of points then and now)."""
    path = tmp_path / "markup.toml"
    roster = RosterFile(name=ARMY, ruleset="fast_universal", ruleset_version="0.1", points_limit=500,
                        notes=HIDE, units=[Unit(name=UNIT, type="basic", count=2, points=1),
                                           Unit(name=f"{HIDE} [/]", figure="Average human", points=1)])
    save_roster(roster, path)
    return path


@pytest.mark.parametrize("args", [["cost"], ["cost", "--brief"], ["validate"], ["validate", "--summary"],
                                  ["update", "--dry-run"], ["update"]])
def test_finding2_cli_table_markup_at_a_terminal_is_printed_as_written(tmp_path, args):
    path = markup_roster(tmp_path)
    r = run_at_terminal(*args, path)
    assert r.code in (0, 1), r.err
    assert "internal error" not in r.err
    out = shown(r.out)
    shown(r.err)
    if args[0] == "validate" and "--summary" in args:
        assert ARMY in out
    else:
        assert UNIT in out and f"{HIDE} [/]" in out
    if args[0] == "cost":
        assert ARMY in out


def test_finding2_ruleset_commands_at_a_terminal_print_markup_as_written(tmp_path):
    folder = tmp_path / "rulesets"
    folder.mkdir()
    text = (RULESETS / "fast_universal.toml").read_text(encoding="utf-8")
    text = text.replace('name = "Fast Universal Wargame"', f"name = {quoted(ARMY)}", 1)
    text = text.replace('name = "Machine Gun"', f"name = {quoted('Machine Gun ' + UNIT)}", 1)
    (folder / "fast_universal.toml").write_text(text, encoding="utf-8")
    r = run_at_terminal("check-ruleset", folder / "fast_universal.toml")
    assert r.code in (0, 1) and "internal error" not in r.err
    assert f"Machine Gun {UNIT}" in shown(r.out)
    r = run_at_terminal("rulesets", "--rulesets", folder)
    assert r.code in (0, 1) and "internal error" not in r.err
    assert ARMY in shown(r.out)


def test_finding2_a_roster_with_markup_can_be_updated_from_a_terminal(tmp_path):
    path = markup_roster(tmp_path)
    r = run_at_terminal("update", path)
    assert r.code == 0, r.err
    saved = load_roster(path).roster
    assert saved.ruleset_version != "0.1" and saved.units[0].name == UNIT


# ---------------------------------------------------------------- finding 6: control characters

LABEL = "pts" + OSC52 + "\x1b[8m"  # a clipboard write, then everything after it hidden


def label_ruleset(tmp_path):
    folder = tmp_path / "rulesets"
    folder.mkdir()
    text = (RULESETS / "fast_universal.toml").read_text(encoding="utf-8")
    text = text.replace('\npoints_label = "points"\ncount_label = "miniatures"\n',
                        f'\npoints_label = {quoted(LABEL)}\ncount_label = {quoted("men" + OSC8)}\n', 1)
    assert LABEL[:3] + "\\u001b" in text
    (folder / "fast_universal.toml").write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize("terminal", [False, True], ids=["piped", "terminal"])
def test_finding6_control_chars_in_cost_headers_are_shown(tmp_path, terminal):
    folder = label_ruleset(tmp_path)
    roster = tmp_path / "army.toml"
    shutil.copy(SAMPLES / "fast_universal_iron_vanguard.toml", roster)
    r = (run_at_terminal if terminal else run_cli)("cost", "--rulesets", folder, roster)
    assert r.code == 0, r.err
    out = shown(r.out)
    assert "Pts␛]52;c;agk=␇␛[8m" in out  # the header, capitalised, its controls shown
    assert "Men␛]8;;https://x.example␛\\o8" in out


def test_finding6_control_chars_in_the_cards_file_names_are_shown(tmp_path, monkeypatch):
    pytest.importorskip("reportlab")
    monkeypatch.chdir(tmp_path)
    name = "army" + OSC52 + "\u202e"
    path = tmp_path / f"{name}.toml"
    roster = load_roster(SAMPLES / "fast_universal_iron_vanguard.toml").roster
    save_roster(roster.model_copy(update={"points_limit": 1}), path)  # over the limit: a warning names the file
    r = run_cli("cards", path)
    assert r.code == 0, r.err
    out, err = shown(r.out), shown(r.err)
    assert "Wrote army␛]52;c;aGk=␇<U+202E>-cards.pdf" in out
    assert "army␛]52;c;aGk=␇<U+202E>.toml" in err
    assert (tmp_path / f"{name}-cards.pdf").exists()
