"""The interface and the files around it: a roster changed on disk by another program, two
windows on one roster, autosave from every screen, hostile rulesets, file text shown safely."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest
from test_tui_flows import WIDE, app_for, screen_text, vanguard

from rosterkit.editing import recovery
from rosterkit.engine.versions import recorded
from rosterkit.files.rosters import load_roster, save_roster
from rosterkit.tui.screens.file_changed import FileChangedScreen
from rosterkit.tui.screens.recovery_offer import RecoveryOfferScreen
from rosterkit.tui.screens.roster import RosterScreen
from rosterkit.tui.screens.save_as import SaveAsScreen


def notices(app) -> str:
    """What the notifications said (a toast is not part of a screenshot)."""
    return " ".join(f"{n.title} {n.message}" for n in app._notifications)


def theirs_of(path):
    """Another program's change to the file: the army renamed (and the text longer)."""
    roster = load_roster(path).roster.model_copy(update={"name": "Changed elsewhere"})
    save_roster(roster, path)
    os.utime(path, ns=(1, 1))  # a time of its own, whatever the clock's resolution
    return load_roster(path).roster


async def edited_then_changed_on_disk(app, pilot, path):
    await pilot.pause()
    session = app.screen.session
    await pilot.press("d")  # duplicate a unit: unsaved
    mine = session.roster
    theirs = theirs_of(path)
    await pilot.press("ctrl+s")
    await pilot.pause()
    assert isinstance(app.screen, FileChangedScreen)
    assert "changed by another program" in screen_text(app)
    return session, mine, theirs


# ---------------------------------------------------------------- changed on disk


async def test_a_touched_file_saves_without_asking_a_changed_one_asks_cancel_or_keep_mine(registry, tmp_path):
    path = vanguard(tmp_path)
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        await pilot.press("d")
        os.utime(path, ns=(1, 1))
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, RosterScreen), "touched, not changed: no question"
        assert load_roster(path).roster == app.screen.session.roster, "touched, not changed: saved"

        session, mine, theirs = await edited_then_changed_on_disk(app, pilot, path)
        await pilot.press("escape")
        assert isinstance(app.screen, RosterScreen), "cancel: back to the roster"
        assert load_roster(path).roster == theirs and session.dirty and session.roster == mine, \
            "cancel writes nothing and keeps my changes"
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, FileChangedScreen), "saved again: asked again"
        await pilot.press("k")
        assert isinstance(app.screen, RosterScreen), "keep mine: back to the roster"
        # mine, with what a save records (the ruleset's version, each unit's points)
        assert load_roster(path).roster == recorded(mine, session.report) == session.roster, "keep mine writes mine"
        assert not session.dirty, "keep mine: saved"
        assert load_roster(path.with_name(path.name + ".bak")).roster == theirs, "theirs kept as .bak"
        await pilot.press("d")
        await pilot.press("ctrl+s")  # saved here last: no question this time
        assert isinstance(app.screen, RosterScreen) and load_roster(path).roster == session.roster, \
            "saved here last: saved without a question"


async def test_load_theirs_keeps_my_changes_as_recovered_work(registry, tmp_path):
    path = vanguard(tmp_path)
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=WIDE) as pilot:
        _, mine, theirs = await edited_then_changed_on_disk(app, pilot, path)
        await pilot.press("l")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RosterScreen), "load theirs: back to the roster"
        assert screen.session.roster == theirs and not screen.session.dirty, "theirs loaded, nothing unsaved"
        assert load_roster(path).roster == theirs, "the file was not written"
        kept = recovery.all_recoveries()
        assert [r.roster for r in kept] == [mine], "my changes kept as recovered work"
        assert "kept as recovered work" in notices(app), "and the player is told"
        # opened again, the kept work is offered
        app.action_close_roster()
        await pilot.pause()
        app.open_roster(path)
        await pilot.pause()
        assert isinstance(app.screen, RecoveryOfferScreen), "opened again: the kept work is offered"
        await pilot.press("r")
        assert app.screen.session.roster == mine, "the kept work restored"


async def test_save_as_writes_another_file_and_leaves_theirs(registry, tmp_path):
    path = vanguard(tmp_path)
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=WIDE) as pilot:
        session, mine, theirs = await edited_then_changed_on_disk(app, pilot, path)
        await pilot.press("a")
        dialog = app.screen
        assert isinstance(dialog, SaveAsScreen)
        dialog.query_one("#save-path").value = "mine.toml"
        await pilot.pause()
        await pilot.press("enter")
        assert isinstance(app.screen, RosterScreen)
        assert load_roster(tmp_path / "mine.toml").roster == recorded(mine, session.report) == session.roster
        assert load_roster(path).roster == theirs
        assert session.path == tmp_path / "mine.toml" and not session.dirty


async def test_quitting_with_save_asks_about_a_changed_file(registry, tmp_path):
    path = vanguard(tmp_path)
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        await pilot.press("d")
        mine = recorded(app.screen.session.roster, app.screen.session.report)
        theirs_of(path)
        await pilot.press("ctrl+q")
        await pilot.press("s")  # save
        assert isinstance(app.screen, FileChangedScreen)
        await pilot.press("k")
        assert not app.is_running
    assert load_roster(path).roster == mine


# ---------------------------------------------------------------- two windows on one roster

OTHER_WINDOW = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from rosterkit.editing import recovery
    from rosterkit.files.rosters import load_roster

    path = Path(sys.argv[1])
    slot = recovery.RecoverySlot(recovery.recovery_key(path), "other-window")
    slot.claim(path)
    roster = load_roster(path).roster
    slot.write(path, roster.model_copy(update={"name": "Edited in the other window"}))
    print("ready", flush=True)
    time.sleep(60)
""")


def other_window(path):
    """Another rosterkit window with the roster open and unsaved work autosaved."""
    proc = subprocess.Popen([sys.executable, "-c", OTHER_WINDOW, str(path)], stdout=subprocess.PIPE, text=True,
                            env=os.environ.copy())
    assert proc.stdout.readline().strip() == "ready"
    return proc


async def test_a_live_windows_work_is_neither_offered_nor_deleted(registry, tmp_path):
    path = vanguard(tmp_path)
    proc = other_window(path)
    try:
        theirs = recovery.recovery_file(recovery.recovery_key(path), "other-window")
        app = app_for(registry, tmp_path, path)
        async with app.run_test(size=WIDE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, RosterScreen)  # no offer of the other window's work
            text = notices(app)
            assert "also open in another window" in text and f"pid {proc.pid}" in text
            assert recovery.all_recoveries(own=app.window) == []
            await pilot.press("d")
            await pilot.press("ctrl+q")
            await pilot.press("d")  # discard this window's changes
            assert not app.is_running
        assert theirs.is_file()  # the other window's work is still there
    finally:
        proc.kill()
        proc.wait()
    # the other window is gone (killed): its work is offered now
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, RecoveryOfferScreen)
        await pilot.press("r")
        await pilot.pause()
        session = app.screen.session
        assert session.roster.name == "Edited in the other window"
        assert not theirs.exists() and session.recovery.file.is_file()  # now this window's


async def test_a_lock_held_in_this_process_counts_as_a_live_window(registry, tmp_path):
    path = vanguard(tmp_path)
    key = recovery.recovery_key(path)
    slot = recovery.RecoverySlot(key, "held-here")
    slot.claim(path)
    slot.write(path, load_roster(path).roster.model_copy(update={"name": "Held"}))
    try:
        app = app_for(registry, tmp_path, path)
        async with app.run_test(size=WIDE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, RosterScreen)
            assert f"pid {os.getpid()}" in notices(app)
            app.action_close_roster()
            await pilot.pause()
            assert slot.file.is_file()
            assert all(r.window != "held-here" for r in recovery.all_recoveries())  # the start screen's list
    finally:
        slot.release()
    assert [r.roster.name for r in recovery.all_recoveries()] == ["Held"]


async def test_a_killed_window_leaves_its_work_for_the_next(registry, tmp_path):
    """A real window killed with SIGKILL: its lock goes with it, its autosaved work stays."""
    path = vanguard(tmp_path)
    proc = other_window(path)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    found = recovery.find_recovery(recovery.recovery_key(path))
    assert found is not None and found.roster.name == "Edited in the other window"
    assert recovery.others_open(recovery.recovery_key(path), None) == []


async def test_each_window_has_its_own_recovery_file(registry, tmp_path):
    import rosterkit.tui.app as tui_app

    path = vanguard(tmp_path)
    first, second = app_for(registry, tmp_path, path), app_for(registry, tmp_path, path)
    async with first.run_test(size=WIDE) as one, second.run_test(size=WIDE) as two:
        await one.pause()
        await two.pause()
        a, b = first.screen.session, second.screen.session
        assert a.recovery.file != b.recovery.file
        await one.press("d")
        await two.press("d", "d")
        a.write_recovery()
        b.write_recovery()
        assert recovery.read_recovery(a.recovery.file).roster == a.roster
        assert recovery.read_recovery(b.recovery.file).roster == b.roster
        tui_app.RosterkitApp.action_close_roster(second)
        await two.pause()
        await two.press("d")  # discard in the second window
        await two.pause()
        assert not b.recovery.file.exists()
        assert recovery.read_recovery(a.recovery.file).roster == a.roster  # the first window's work stays


# ---------------------------------------------------------------- autosave from every screen


async def test_autosave_follows_edits_on_the_roster_and_design_screens(registry, tmp_path, monkeypatch):
    import rosterkit.tui.app as tui_app
    from rosterkit.tui.screens.design import DesignScreen

    monkeypatch.setattr(tui_app, "AUTOSAVE_DELAY", 0.01)
    path = vanguard(tmp_path)
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        await pilot.press("d")
        session = app.screen.session
        for _ in range(50):
            await pilot.pause(0.02)
            if session.recovery.file.is_file():
                break
        found = recovery.read_recovery(session.recovery.file)
        assert found is not None and found.roster == session.roster, "an edit on the roster screen autosaved"
        assert recovery.all_recoveries() == [], "this window's own work: offered to no one while it lives"

        await pilot.press("f3")
        assert isinstance(app.screen, DesignScreen), "f3 opens the design screen"
        await pilot.press("ctrl+n")  # a new roster weapon
        for _ in range(50):
            await pilot.pause(0.02)
            found = recovery.read_recovery(session.recovery.file)
            if found is not None and found.roster == session.roster:
                break
        assert found is not None and found.roster == session.roster and found.roster.weapons, \
            "an edit on the design screen autosaved"


# ---------------------------------------------------------------- the rules in the player's words


async def test_the_ruleset_browser_names_each_limits_scope(registry, tmp_path):
    from rosterkit.tui.screens.ruleset_browser import RulesetScreen

    app = app_for(registry, tmp_path)
    async with app.run_test(size=(200, 120)) as pilot:
        await pilot.pause()
        app.browse_ruleset("ares")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RulesetScreen)
        screen.query_one("TabbedContent").active = "rs-limits"
        await pilot.pause()
        rows = {line.split("│")[0].strip(): line for line in screen_text(app).splitlines() if "│" in line}
        assert "each figure" in rows["A melee weapon"] and "the army" not in rows["A melee weapon"]


async def test_the_design_screen_explains_costs_as_the_command_line_does(registry, tmp_path):
    from test_tui_flows import fill, text_of

    from rosterkit.engine.costing import Pricer, price_source
    from rosterkit.tui.screens.design import DesignScreen
    from rosterkit.tui.widgets.stat_field import StatField

    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        await pilot.press("f3")
        screen = app.screen
        assert isinstance(screen, DesignScreen)
        rs = screen.rs
        lst = screen.query_one("#design-list")
        arc = next(i for i, a in enumerate(rs.data.abilities) if a.name == "Rear Attack Arc")
        lst.highlighted = screen.rows.index(("catalogue", "abilities", arc))
        await pilot.pause()
        detail = text_of(screen.query_one("#design-title"))
        assert "20% of the vehicle's original cost" in detail and "figure_cost" not in detail
        lst.highlighted = screen.rows.index(("catalogue", "weapons", 0))
        await pilot.pause()
        first = rs.data.weapons[0]
        cost = Pricer(rs, screen.session.roster).price("weapons", first.name, {}, 0, 0, first.name)[0]
        assert f"({price_source(cost)})" in text_of(screen.query_one("#design-title"))  # the CLI's words

        lst.highlighted = screen.rows.index(("new", "weapons", None))
        await pilot.press("enter")
        await fill(pilot, screen.query_one("#d-weapons-shoot", StatField), "2")
        await fill(pilot, screen.query_one("#d-cost", StatField), "50")
        price = text_of(screen.query_one("#design-price"))
        assert "formula would give 20: 0 * 10 + 2 * 10 + 0 * 2" in price
        assert "shoot" not in price and "fight" not in price  # the working, not the formula's source


# ---------------------------------------------------------------- hostile rulesets

HOSTILE = {
    "text for a number": (lambda d: d["formulas"]["figure_cost"]["terms"][0].update(expr="'a lot'"),
                          "gives the text 'a lot' where a number is needed", "formulas.figure_cost"),
    "a chain of squares": (lambda d: d.update(derived=[{"id": "d0", "label": "d0", "expr": "move + 10"}] + [
        {"id": f"d{i}", "label": f"d{i}", "expr": f"d{i - 1} * d{i - 1}"} for i in range(1, 29)]),
        "number too large", "derived"),
    "a text too long": (lambda d: d["formulas"].update(weapon_cost="'x' * 200000000"), "* needs a number",
                        "formulas.weapon_cost"),
}


def user_ruleset(change) -> str:
    """The player's own fast_universal (it comes before the built-in one), changed; its path."""
    import tomli_w
    from test_formula_budget import ruleset_data

    from rosterkit.files.rulesets import user_dir

    data = ruleset_data()
    change(data)
    folder = user_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "fast_universal.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("case", list(HOSTILE))
async def test_a_hostile_ruleset_formula_is_named_and_every_screen_still_works(tmp_path, case):
    from rosterkit.files.rulesets import Registry

    change, message, key = HOSTILE[case]
    file = user_ruleset(change)
    app = app_for(Registry(), tmp_path, vanguard(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, RosterScreen)
        said = notices(app)
        assert message in said and file in said and f"key {key}" in said
        shown = screen_text(app)
        assert "✘" in shown and "Findings" in shown
        # the export and settings screens run the same interface code whichever formula fails
        # (traced line by line): opened for the first case only
        screens = ("f3", "f4", "f6", "f7", "ctrl+n") if case == next(iter(HOSTILE)) else ("f3", "f4", "ctrl+n")
        for key_ in screens:
            await pilot.press(key_)
            await pilot.pause()
            assert app.screen is not None and screen_text(app).strip()  # drawn, not blank
            await pilot.press("escape")
            assert isinstance(app.screen, RosterScreen)
        await pilot.press("ctrl+q")
        assert not app.is_running


async def test_a_ruleset_that_does_not_compile_is_named_and_ctrl_q_quits(tmp_path):
    from rosterkit.files.rulesets import Registry
    from rosterkit.tui.screens.start import StartScreen

    file = user_ruleset(lambda d: d["formulas"].update(weapon_cost="nosuch * 2"))
    app = app_for(Registry(), tmp_path, vanguard(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        said = notices(app)
        assert file in said and "formulas.weapon_cost" in said and "unknown name 'nosuch'" in said
        await pilot.press("ctrl+q")
        assert not app.is_running


# ---------------------------------------------------------------- file text shown safely

# markup first (if it were read, "QB" would run into "Evil"), then ESC sequences (clear the
# screen, OSC 52: put text on the clipboard), BEL, and a right-to-left override
EVIL = "[@click=app.quit]Q[/][bold]B[/bold]Evil\x1b[2J\x1b]52;c;aGVsbG8=\x07\u202eTXET"
RAW = ("\x1b", "\x07", "\u202e")


def evil_roster(tmp_path):
    from rosterkit.engine.roster import LocalItem

    roster = load_roster(vanguard(tmp_path)).roster
    units = [u.model_copy(update={"name": f"{EVIL} {i}", "notes": EVIL}) for i, u in enumerate(roster.units)]
    units[0] = units[0].model_copy(update={"weapons": [*units[0].weapons, f"{EVIL} gun"]})
    roster = roster.model_copy(update={"name": f"{EVIL} army", "notes": EVIL, "units": units,
                                       "weapons": [LocalItem(name=f"{EVIL} gun", stats={"shoot": 1})]})
    path = tmp_path / "evil.toml"
    save_roster(roster, path)
    return path, roster


def assert_safe(app, where: str) -> None:
    svg = app.export_screenshot()
    text = screen_text(app, svg)
    for ch in RAW:
        assert ch not in svg, (where, repr(ch))
    assert "Evil" in text, where
    assert "QBEvil" not in text and "BEvil" not in text, where  # markup not read
    assert "␛" in text or "<U+202E>" in text or "[/bold]Evil" in text, where


async def test_file_text_reaches_the_screen_shown_not_sent(tmp_path):
    from rosterkit.files.rulesets import Registry

    def evil_rules(d):
        d.update(name=f"{EVIL} rules")
        d["types"][0]["name"] = f"{EVIL} type"  # the type of the first units
        weapon = {k: v for k, v in d["weapons"][-1].items() if k not in ("aliases", "note")}
        d["weapons"].append(dict(weapon, name=f"{EVIL} catalogue"))

    user_ruleset(evil_rules)
    path, roster = evil_roster(tmp_path)
    app = app_for(Registry(), tmp_path, path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, RosterScreen), "the roster screen"
        assert_safe(app, "roster")
        # ESC and the override shown as signs (the bell is dropped by the text library)
        assert "[@click=app.quit]Q[/][bold]B[/bold]Evil␛[2J␛]52;c;aGVsbG8=<U+202E>TXET" in screen_text(app), \
            "ESC and the override shown as signs"
        # the design, ruleset, export, settings and add-unit screens: with file text of every kind
        # in test_shared_files_markup.py::test_finding1_every_screen_shows_file_text_as_written
        await pilot.press("d")  # duplicate: a notification naming the unit, read as text
        await pilot.pause()
        assert "Duplicated [@click=app.quit]Q[/]" in notices(app), "the notification names the unit as written"
        assert not any(n.markup for n in app._notifications), "shown as written, not read as markup"
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert_safe(app, "unsaved changes")
        app.screen.query_one("#save").focus()
        await pilot.press("escape")
        app.action_close_roster()
        await pilot.pause()
        await pilot.press("d")  # discard
        await pilot.pause()
        assert_safe(app, "start screen")
        app.action_new_roster()
        await pilot.pause()
        ids = [rs.id for rs in app.screen.rulesets]
        app.screen.query_one("#new-ruleset").highlighted = ids.index("fast_universal")
        await pilot.pause()
        assert_safe(app, "new roster")
        await pilot.press("escape")
        # a crash leaves the work; the offer names it safely
        recovery.write_recovery(recovery.recovery_key(path), path,
                                roster.model_copy(update={"units": roster.units[:1]}))
        app.open_roster(path)
        await pilot.pause()
        assert isinstance(app.screen, RecoveryOfferScreen), "the crashed work is offered"
        assert_safe(app, "recovery offer")


async def test_the_start_screen_restores_a_dead_windows_work_and_never_lists_a_live_ones(registry, tmp_path):
    from rosterkit.tui.screens.start import StartScreen

    path = vanguard(tmp_path)
    key = recovery.recovery_key(path)
    roster = load_roster(path).roster
    dead = recovery.write_recovery(key, path, roster.model_copy(update={"name": "Left by a crash"}), "dead-window")
    live = recovery.RecoverySlot(key, "live-window")
    live.claim(path)
    live.write(path, roster.model_copy(update={"name": "Still being edited"}))
    try:
        app = app_for(registry, tmp_path)
        async with app.run_test(size=WIDE) as pilot:
            await pilot.pause()
            start = app.screen
            assert isinstance(start, StartScreen)
            listed = [e[1] for e in start.entries if e and e[0] == "recovery"]
            assert [r.roster.name for r in listed] == ["Left by a crash"]
            app.restore_recovery(listed[0])
            await pilot.pause()
            session = app.screen.session
            assert isinstance(app.screen, RosterScreen) and session.roster.name == "Left by a crash"
            assert session.dirty and not dead.exists() and session.recovery.file.is_file()
            assert live.file.is_file()  # the live window's work is untouched
    finally:
        live.release()
