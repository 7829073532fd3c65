"""Snapshots of the main screens at 80x24 and 160x48 (pytest-textual-snapshot).

Regenerate after a deliberate change of the look with `pytest --snapshot-update`.
The rosters are written here (not read from sample_armies) so the pictures change only
when the interface does; the file names shown are relative.
"""

from __future__ import annotations

import shutil

import pytest
from conftest import RULESETS

from rosterkit.files.rulesets import Registry
from rosterkit.tui.app import RosterkitApp

SMALL = (80, 24)
LARGE = (160, 48)

VANGUARD = """\
format = 1
name = "Iron Vanguard"
ruleset = "fast_universal"
points_limit = 500
notes = "Spear wall with archers, led by a captain."

[[units]]
name = "Spearmen"
type = "Basic"
count = 10
weapons = ["Claw/hand/spear/sword"]
stats = { dice = 1, die = 6, move = 6, fight = 0, shoot = 0, defense = 8 }

[[units]]
name = "Archers"
type = "Basic"
count = 4
weapons = ["Bow/crossbow"]
stats = { dice = 1, die = 6, move = 6, fight = 0, shoot = 0, defense = 8 }

[[units]]
name = "Captain Aldric"
type = "Hero"
count = 1
weapons = ["Sword"]
abilities = ["Command"]
stats = { dice = 1, die = 8, move = 6, fight = 1, shoot = 0, defense = 9 }
"""

HERO_HEAVY = VANGUARD + """
[[units]]
name = "Warlord Ghor"
type = "hero"
count = 1
abilities = ["Command", "Fireball"]
stats = { dice = 1, die = 10, move = 6, fight = 1, shoot = 0, defense = 10 }
"""


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A working folder with the rosters, and only the fast_universal ruleset installed."""
    (tmp_path / "rulesets").mkdir()
    shutil.copy(RULESETS / "fast_universal.toml", tmp_path / "rulesets")
    (tmp_path / "army.toml").write_text(VANGUARD)
    (tmp_path / "heroes.toml").write_text(HERO_HEAVY)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def make_app(folder, name: str | None = None) -> RosterkitApp:
    registry = Registry()
    registry.dirs = [folder / "rulesets"]
    return RosterkitApp(registry, name, cwd=folder, samples=[folder / "army.toml"])


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x48"])
def test_start_screen(snap_compare, folder, size):
    assert snap_compare(make_app(folder), terminal_size=size)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x48"])
def test_roster_screen(snap_compare, folder, size):
    assert snap_compare(make_app(folder, "army.toml"), terminal_size=size)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x48"])
def test_roster_with_findings(snap_compare, folder, size):
    async def show_findings(pilot):
        await pilot.pause()
        if size == SMALL:
            await pilot.click("#--content-tab-tab-findings")
        await pilot.pause()

    assert snap_compare(make_app(folder, "heroes.toml"), terminal_size=size, run_before=show_findings)


def test_add_unit_dialog(snap_compare, folder):
    async def open_dialog(pilot):
        await pilot.press("ctrl+n")
        await pilot.pause()
        search = pilot.app.screen.query_one("#add-search")
        assert pilot.app.focused is search  # typing searches at once
        search.cursor_blink = False  # a still cursor: the same picture every time
        await pilot.pause()

    assert snap_compare(make_app(folder, "army.toml"), terminal_size=SMALL, run_before=open_dialog)


def test_design_screen(snap_compare, folder):
    async def machine_gun(pilot):
        await pilot.pause()
        await pilot.press("f3")
        await pilot.pause()
        screen = pilot.app.screen
        screen.query_one("#design-list").highlighted = screen.rows.index(("catalogue", "weapons", 10))
        await pilot.pause()

    assert snap_compare(make_app(folder, "army.toml"), terminal_size=LARGE, run_before=machine_gun)


def test_focus_ring(snap_compare, folder):
    """The focused field framed in the accent colour (the units pane, unfocused, is not)."""
    async def to_the_name(pilot):
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        pilot.app.focused.cursor_blink = False  # a still cursor: the same picture every time
        await pilot.pause()

    assert snap_compare(make_app(folder, "army.toml"), terminal_size=SMALL, run_before=to_the_name)
