"""The terminal interface driven as a player would, with Textual's Pilot."""

from __future__ import annotations

import html
import io
import re
import shutil
from fractions import Fraction
from pathlib import Path

from conftest import SAMPLES
from rich.console import Console
from rich.text import Text

from rosterkit.editing import recent, recovery
from rosterkit.engine.roster import RosterFile
from rosterkit.engine.versions import recorded
from rosterkit.files.rosters import load_roster, save_roster
from rosterkit.files.rulesets import Registry
from rosterkit.tui.app import RosterkitApp
from rosterkit.tui.screens.add_unit import AddUnitScreen
from rosterkit.tui.screens.confirm_quit import ConfirmQuitScreen
from rosterkit.tui.screens.new_roster import NewRosterScreen
from rosterkit.tui.screens.recovery_offer import RecoveryOfferScreen
from rosterkit.tui.screens.roster import RosterScreen
from rosterkit.tui.widgets.findings_panel import FindingsPanel
from rosterkit.tui.widgets.stat_field import StatField
from rosterkit.tui.widgets.units_list import UnitsList

WIDE = (160, 48)
VANGUARD = SAMPLES / "fast_universal_iron_vanguard.toml"


def app_for(registry: Registry, tmp_path: Path, path: Path | None = None) -> RosterkitApp:
    return RosterkitApp(registry, path, cwd=tmp_path, samples=[VANGUARD])


def empty_roster(tmp_path: Path) -> Path:
    path = tmp_path / "army.toml"
    save_roster(RosterFile(name="Test Army", ruleset="fast_universal", points_limit=500), path)
    return path


def vanguard(tmp_path: Path) -> Path:
    path = tmp_path / "vanguard.toml"
    shutil.copy(VANGUARD, path)
    return path


async def type_into(pilot, field: StatField, text: str) -> None:
    """Type into a field key by key, as a player does."""
    field.control.focus()
    await pilot.press("end", "ctrl+u", *list(text) if text else [])


async def fill(pilot, field: StatField, text: str) -> None:
    """Put text into a field at once (the same Changed message as typing, fewer keys)."""
    field.control.focus()
    field.control.value = text
    await pilot.pause()


def text_of(widget) -> str:
    """What a Static (or a panel drawn line by line) shows, as plain text."""
    if hasattr(widget, "plain"):
        return widget.plain
    content = widget.content
    if isinstance(content, str):
        return content
    if isinstance(content, Text):
        return content.plain
    console = Console(width=max(widget.size.width, 60), file=io.StringIO(), record=True)
    console.print(content)
    return console.export_text()


def screen_text(app, svg: str | None = None) -> str:
    """The whole screen as plain text (from Textual's own SVG screenshot, or the one given,
    taken of the same screen)."""
    svg = app.export_screenshot() if svg is None else svg
    rows: dict[float, list[tuple[float, str]]] = {}
    for m in re.finditer(r'<text[^>]*?x="([\d.]+)"[^>]*?y="([\d.]+)"[^>]*>(.*?)</text>', svg):
        x, y, body = float(m.group(1)), float(m.group(2)), html.unescape(m.group(3)).replace("\xa0", " ")
        rows.setdefault(y, []).append((x, body))
    return "\n".join("".join(t for _, t in sorted(parts)) for _, parts in sorted(rows.items()))


def topbar_text(app) -> str:
    bar = app.screen.query_one("#topbar")
    return str(bar.left) + " " + str(bar.right)


async def test_new_roster_from_a_ruleset_says_why_create_does_nothing_until_named(registry, tmp_path):
    app = app_for(registry, tmp_path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # "New roster…" is the first choice
        screen = app.screen
        assert isinstance(screen, NewRosterScreen)
        # no name yet: create says why it does nothing
        screen.action_create()
        await pilot.pause()
        message = screen.query_one("#new-name-message")
        assert message.display and "needs a name" in text_of(message), "create without a name says why"
        assert isinstance(app.screen, NewRosterScreen), "and the form stays"
        ids = [rs.id for rs in screen.rulesets]
        screen.query_one("#new-ruleset").highlighted = ids.index("fast_universal")
        screen.query_one("#new-name").value = "Red Company"
        screen.query_one("#new-points").value = "400"
        await pilot.pause()
        assert not message.display, "named: the message goes"
        assert screen.query_one("#new-path").value == "fast_universal_red_company.toml"
        await pilot.click("#create")
        await pilot.pause()
        assert isinstance(app.screen, RosterScreen)
        session = app.screen.session
        assert session.roster == RosterFile(name="Red Company", ruleset="fast_universal", points_limit=400)
        saved = load_roster(tmp_path / "fast_universal_red_company.toml").roster
        assert saved == session.roster
        assert "0/400 points" in topbar_text(app)


async def test_add_from_catalogue_and_change_a_stat(registry, tmp_path):
    app = app_for(registry, tmp_path, empty_roster(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("ctrl+n")
        assert isinstance(app.screen, AddUnitScreen)
        await pilot.press("a", "v", "enter")  # search, then add the highlighted figure
        assert app.screen is screen
        session = screen.session
        unit = session.costs[0]
        assert unit.name == "Average human" and unit.figures == 10
        assert unit.members[0].per_figure == 21 and unit.total == 210
        assert session.report.total == 210
        assert "210/500 points" in topbar_text(app)

        defense = screen.query_one("#stat-defense", StatField)
        await type_into(pilot, defense, "9")
        unit = session.costs[0]
        assert unit.members[0].per_figure == Fraction(45, 2)  # 22.5: (36 + 54) / 4
        assert unit.total == 225 and session.report.total == 225
        assert "225/500 points" in topbar_text(app)
        cost_text = text_of(screen.query_one("#cost-body"))
        assert "6 * 9 = 54" in cost_text and "22.5" in cost_text

        # invalid input is shown at the field and never reaches the roster
        before = session.roster
        await fill(pilot, defense, "x")
        assert defense.has_class("-invalid")
        assert "not a whole number" in defense.message and "not a whole number" in screen_text(app)
        await type_into(pilot, defense, "500")
        assert "out of range" in defense.message
        # 5 and 50 were valid on the way; 500 never reaches the roster
        assert session.roster.units[0].stats["defense"] == 50
        await fill(pilot, defense, "9")
        assert not defense.has_class("-invalid")
        assert session.report.total == 225
        assert session.roster.units[0] == before.units[0]


async def test_a_limit_finding_reached_fixed_undone_and_redone_then_undo_across_units_and_fields(registry,
                                                                                                 tmp_path):
    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        screen = app.screen
        session = screen.session
        assert session.validation.ok, "the sample is valid"
        # a second captain: heroes 230 of 500 = 46%, above the 25% cap
        screen.query_one(UnitsList).select_unit(2)
        await pilot.pause()
        await pilot.press("d")
        assert len(session.roster.units) == 4, "the captain duplicated"
        rules = [f.rule for f in session.validation.findings]
        assert "hero-max" in rules, "heroes above their cap"
        panel = screen.query_one(FindingsPanel)
        assert any("Heroes are 46% of points" in f.message for f in panel.findings), "the panel says by how much"

        # the next and previous finding keys go to the unit
        screen.query_one(UnitsList).select_unit(0)
        await pilot.pause()
        rules = [f.rule for f in screen.session.validation.findings]
        assert rules == ["points-limit", "hero-max"], "over the points limit and the heroes' cap"
        await pilot.press("alt+n")  # over the points limit: the costliest unit's count
        first = screen.selected
        assert screen.focused is screen.query_one("#f-count", StatField).control, "alt+n: the costliest unit's count"
        await pilot.press("alt+n")  # heroes over their share: a hero's count
        assert screen.selected in (2, 3), "alt+n again: a hero"
        assert screen.focused is screen.query_one("#f-count", StatField).control, "at its count"
        await pilot.press("alt+p")
        assert screen.selected == first, "alt+p: back to the first finding's unit"

        # jump to it from the findings list: the costliest hero, its count field
        findings = panel.list
        findings.focus()
        findings.highlighted = [f.rule for f in panel.findings].index("hero-max")
        await pilot.press("enter")
        assert screen.selected in (2, 3), "enter on the finding: a hero"
        assert screen.focused is screen.query_one("#f-count", StatField).control, "at its count"

        # fix it: remove the extra hero from the units list
        await pilot.press("escape")
        screen.query_one(UnitsList).select_unit(3)
        await pilot.pause()
        await pilot.press("delete")
        assert len(session.roster.units) == 3, "the extra hero removed"
        assert "hero-max" not in [f.rule for f in session.validation.findings], "the finding gone"
        assert not panel.findings, "the panel empty"

        await pilot.press("ctrl+z")
        assert "hero-max" in [f.rule for f in panel.findings], "undo brings the finding back"
        await pilot.press("ctrl+y")
        assert not panel.findings and session.validation.ok, "redo fixes it again"

        # undo and redo across units and fields, from the first unit of the sample as it was
        screen.query_one(UnitsList).select_unit(0)
        await pilot.pause()
        original = session.roster
        await fill(pilot, screen.query_one("#f-name", StatField), "Pikes")
        step1 = session.roster
        screen.query_one(UnitsList).select_unit(2)
        await pilot.pause()
        await fill(pilot, screen.query_one("#stat-fight", StatField), "2")
        step2 = session.roster
        assert step1.units[0].name == "Pikes", "the first unit renamed"
        assert step2.units[2].stats["fight"] == 2 and session.report.total == 502, "(+1 fight x 10) / 2"
        await pilot.press("ctrl+z")
        assert session.roster == step1, "undo: the fight change undone"
        assert screen.selected == 2, "the cursor goes back to the unit that changed"
        await pilot.press("ctrl+z")
        assert session.roster == original, "undo: the name change undone"
        assert session.report.total == 497, "the sample's total again"
        await pilot.press("ctrl+shift+z")
        assert session.roster == step1, "ctrl+shift+z redoes"
        await pilot.press("ctrl+y")
        assert session.roster == step2, "ctrl+y redoes"
        assert "Pikes" in str(screen.query_one(UnitsList).get_option_at_index(1).prompt), "the units list shows it"


async def test_an_army_wide_limit_jumps_to_the_costliest_unit_of_the_types_it_measures(registry, tmp_path):
    path = tmp_path / "heroes.toml"
    shutil.copy(SAMPLES / "fast_universal_INVALID_hero_heavy.toml", path)
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        screen = app.screen
        costs = screen.session.costs
        # the costliest unit is not a hero: the limit on heroes must pass it by
        assert costs[0].type_id == "basic" and max(costs, key=lambda c: c.total) is costs[0]
        assert screen.selected == 0
        finding = next(f for f in screen.session.validation.findings if f.rule == "hero-max")
        screen.jump_to(finding)
        await pilot.pause()
        assert screen.selected == next(c.index for c in costs if c.type_id == "hero") == 2
        assert screen.focused is screen.query_one("#f-count", StatField).control


async def test_save_and_reload_equal_then_quit_and_save(registry, tmp_path):
    path = vanguard(tmp_path)
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        screen = app.screen
        session = screen.session
        await fill(pilot, screen.query_one("#stat-move", StatField), "7")
        await fill(pilot, screen.query_one("#f-notes", StatField), "front rank")
        assert session.dirty, "edited: unsaved"
        session.write_recovery()
        assert session.recovery.file.is_file(), "the edits kept aside"
        await pilot.press("ctrl+s")
        assert not session.dirty, "ctrl+s: saved"
        assert load_roster(path).roster == session.roster, "the file reads back as the roster"
        assert path.with_name(path.name + ".bak").is_file(), "the file before kept as .bak"
        assert not session.recovery.file.exists(), "the kept-aside edits removed"
        assert "unsaved" not in topbar_text(app), "the top bar no longer says unsaved"
        # a save records the ruleset's version and each unit's points, as the command line's does
        saved = load_roster(path).roster
        assert saved.ruleset_version == session.rs.data.version, "the ruleset's version recorded"
        assert [u.points for u in saved.units] == [u.total for u in session.report.units], "each unit's points"
        await pilot.press("ctrl+z")  # the edit before the save is still undone
        assert session.dirty and session.roster.units[0].stats.get("notes") != "front rank", \
            "the edit before the save is still undone"

        # quit and save
        screen.query_one(UnitsList).focus()
        await pilot.press("d")
        edited = recorded(app.screen.session.roster, app.screen.session.report)  # with version and points
        await pilot.press("ctrl+q")
        await pilot.press("s")
        assert not app.is_running, "ctrl+q, s: saved and quit"
    assert load_roster(path).roster == edited, "quit and save: the file is the roster as edited"
    assert path.resolve() in recent.recent_rosters(), "a recent roster"


async def test_quit_with_unsaved_changes_asks(registry, tmp_path):
    path = vanguard(tmp_path)
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("d")  # duplicate a unit
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, ConfirmQuitScreen)
        await pilot.press("escape")  # stay
        assert app.screen is screen and app.is_running
        await pilot.press("ctrl+q")
        await pilot.press("d")  # discard
        assert not app.is_running
    assert load_roster(path).roster == load_roster(VANGUARD).roster
    assert recovery.all_recoveries() == []


async def test_crash_recovery_offer(registry, tmp_path):
    path = vanguard(tmp_path)
    on_disk = load_roster(path).roster
    recovered = on_disk.model_copy(update={"name": "Iron Vanguard (edited)", "units": on_disk.units[:2]})
    recovery.write_recovery(recovery.recovery_key(path), path, recovered)
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, RecoveryOfferScreen), "the recovered work is offered"
        assert [type(s) for s in app.screen_stack[1:]] == [RosterScreen, RecoveryOfferScreen], \
            "the offer shows over the roster"
        await pilot.press("r")
        screen = app.screen
        assert isinstance(screen, RosterScreen), "restored: the roster screen"
        assert [type(s) for s in app.screen_stack[1:]] == [RosterScreen], "no start screen underneath"
        assert screen.session.roster == recovered, "the recovered work restored"
        assert screen.session.dirty, "restored work is unsaved"
        assert "unsaved" in topbar_text(app), "the top bar says so"
        assert "Iron Vanguard (edited)" in screen_text(app), "the roster screen shows the restored work"


async def test_crash_recovery_can_be_discarded(registry, tmp_path):
    path = vanguard(tmp_path)
    recovered = load_roster(path).roster.model_copy(update={"name": "Other"})
    recovery.write_recovery(recovery.recovery_key(path), path, recovered)
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        await pilot.press("d")
        assert app.screen.session.roster == load_roster(path).roster
        assert recovery.all_recoveries() == []
