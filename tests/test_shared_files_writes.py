"""Writes that check what they replace (finding 8 of the shared-files review).

`update` and every save in the interface compare the file with what was read before
replacing it, never write through a symbolic link that appeared after the read, and keep
the file that was read as ``.bak`` when two writers race; the cards' default output is
never written through a link the player did not make. Each race is made to happen at a
chosen moment (a step of the command replaced by one that first changes the file), not
by timing.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import SAMPLES, load, run_cli
from test_tui_files import notices, theirs_of
from test_tui_flows import WIDE, app_for, vanguard

from rosterkit.engine.costing import Costing
from rosterkit.files import atomic, rosters
from rosterkit.files.rosters import load_roster
from rosterkit.tui.screens.file_changed import FileChangedScreen
from rosterkit.tui.screens.roster import RosterScreen


def builtin_version() -> str:
    """The version `update` records for the built-in fast_universal ruleset."""
    return load("fast_universal").data.version


ARMY = """\
# my club list
format = 1
name = "Iron Vanguard"
ruleset = "fast_universal"
points_limit = 500

[[units]]
name = "Spearmen"
type = "Basic"
count = 10
weapons = ["Claw/hand/spear/sword"]
stats = { dice = 1, die = 6, move = 6, fight = 0, shoot = 0, defense = 8 }
"""

APPENDED = """
[[units]]
name = "Archers"
type = "Basic"
count = 4
weapons = ["Bow/crossbow"]
stats = { dice = 1, die = 6, move = 6, fight = 0, shoot = 1, defense = 7 }
"""

PRECIOUS = "not a roster: a file of the player's that no roster command may touch\n"


@pytest.fixture
def army(tmp_path) -> Path:
    path = tmp_path / "army.toml"
    path.write_text(ARMY)
    return path


def during_costing(monkeypatch, action) -> list:
    """Run ``action`` once, the first time a roster is costed (between the read and the write
    of `update`, while the interface opens a roster); the list records that it ran."""
    real = Costing.report
    ran: list = []

    def report(self, roster):
        if not ran:
            ran.append(True)
            action()
        return real(self, roster)

    monkeypatch.setattr(Costing, "report", report)
    return ran


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# ---------------------------------------------------------------- update


def test_finding8_update_refuses_when_file_changed_during_run(army, monkeypatch):
    ran = during_costing(monkeypatch, lambda: army.write_text(ARMY + APPENDED))
    result = run_cli("update", army)
    assert ran
    assert result.code == 2, result
    assert "the file changed while updating" in result.err and "nothing was written" in result.err
    assert army.read_text() == ARMY + APPENDED  # the unit added meanwhile is still there
    assert not army.with_name("army.toml.bak").exists() and not leftovers(army.parent)
    monkeypatch.undo()
    assert run_cli("update", army).code == 0  # run again, it records the file as it is now
    assert [u.name for u in load_roster(army).roster.units] == ["Spearmen", "Archers"]


def test_finding8_update_refuses_symlink_swapped_in(army, tmp_path, monkeypatch):
    victim = tmp_path / "elsewhere" / "notes.txt"
    victim.parent.mkdir()
    victim.write_text(PRECIOUS)

    def swap():
        army.unlink()
        army.symlink_to(victim)

    ran = during_costing(monkeypatch, swap)
    result = run_cli("update", army)
    assert ran
    assert result.code == 2, result
    assert "the file changed while updating" in result.err and "symbolic link" in result.err
    assert victim.read_text() == PRECIOUS and army.is_symlink()
    assert sorted(p.name for p in victim.parent.iterdir()) == ["notes.txt"]
    assert not leftovers(tmp_path)


def test_finding8_update_refuses_when_players_link_is_retargeted_during_run(tmp_path, monkeypatch):
    """A link that was there when the file was read is the player's and is written through;
    pointed elsewhere during the run, it is not."""
    files = tmp_path / "files"
    files.mkdir()
    real = files / "army.toml"
    real.write_text(ARMY)
    link = tmp_path / "army.toml"
    link.symlink_to(real)
    victim = files / "notes.txt"
    victim.write_text(PRECIOUS)

    def retarget():
        link.unlink()
        link.symlink_to(victim)

    ran = during_costing(monkeypatch, retarget)
    result = run_cli("update", link)
    assert ran and result.code == 2, result
    assert "the file changed while updating" in result.err
    assert victim.read_text() == PRECIOUS and real.read_text() == ARMY
    monkeypatch.undo()
    link.unlink()
    link.symlink_to(real)
    assert run_cli("update", link).code == 0  # left alone, the player's link is written through
    assert link.is_symlink() and load_roster(real).roster.ruleset_version == builtin_version()
    assert (files / "army.toml.bak").read_text() == ARMY


def test_finding8_concurrent_updates_keep_original_in_bak(army, monkeypatch):
    """A second `update` of the same file runs whole while the first is costing: the file
    ends updated, both succeed, and ``.bak`` holds the original, not the other run's output."""
    second: list = []
    ran = during_costing(monkeypatch, lambda: second.append(run_cli("update", army)))
    first = run_cli("update", army)
    assert ran and second[0].code == 0 and first.code == 0, (first, second)
    assert army.with_name("army.toml.bak").read_text() == ARMY
    updated = load_roster(army).roster
    assert updated.ruleset_version == builtin_version() and updated.units[0].points is not None
    assert army.read_text().startswith("# my club list\n")
    assert not leftovers(army.parent)


def test_finding8_concurrent_updates_keep_original_in_bak_when_one_reads_the_others_output(army):
    """The second `update` starts after the first has written: the file needs no change, so
    it is left as it is, and ``.bak`` still holds the original."""
    assert run_cli("update", army).code == 0
    updated = army.read_bytes()
    assert run_cli("update", army).code == 0
    assert army.read_bytes() == updated
    assert army.with_name("army.toml.bak").read_text() == ARMY


def test_finding8_a_save_keeps_other_writers_out_from_its_check_to_its_rename(army, monkeypatch):
    """Between comparing the file and renaming the new one into place, a save holds the
    folder's lock: another writer waits, and cannot copy the file being replaced as ``.bak``."""
    import fcntl

    real_replace = os.replace
    probes: list[bool] = []

    def replace(src, dst):
        fd = os.open(army.parent, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            probes.append(False)
        except BlockingIOError:
            probes.append(True)
        finally:
            os.close(fd)
        return real_replace(src, dst)

    roster = load_roster(army).roster
    monkeypatch.setattr(os, "replace", replace)
    rosters.save_roster(roster.model_copy(update={"points_limit": 900}), army)
    monkeypatch.undo()
    assert probes == [True, True]  # the backup's rename and the file's
    assert load_roster(army).roster.points_limit == 900


def test_finding8_a_save_over_a_file_changed_after_it_was_read_writes_nothing(army):
    loaded = load_roster(army)
    army.write_text(ARMY.replace("count = 10", "count = 12"))
    with pytest.raises(rosters.ChangedOnDisk) as caught:
        rosters.save_roster(loaded.roster.model_copy(update={"points_limit": 900}), army, expect=loaded.disk)
    assert "another program changed it" in str(caught.value) and "nothing was written" in str(caught.value)
    assert army.read_text() == ARMY.replace("count = 10", "count = 12")
    assert not army.with_name("army.toml.bak").exists() and not leftovers(army.parent)


# ---------------------------------------------------------------- cards


@pytest.fixture
def pack(tmp_path, monkeypatch):
    """An unpacked tournament pack: a roster, and beside it whatever the pack's maker put there."""
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / "army.toml").write_text((SAMPLES / "fast_universal_iron_vanguard.toml").read_text())
    victim = tmp_path / "home" / ".bashrc"
    victim.parent.mkdir()
    victim.write_text(PRECIOUS)
    monkeypatch.chdir(folder)
    return folder, victim


def test_finding8_default_cards_output_not_written_through_planted_link(pack):
    folder, victim = pack
    assert run_cli("cards", "army.toml", "-q").code == 0  # a PDF of that name is rosterkit's to replace
    assert (folder / "army-cards.pdf").read_bytes().startswith(b"%PDF-")
    (folder / "army-cards.pdf").unlink()
    (folder / "army-cards.pdf").symlink_to(victim)
    result = run_cli("cards", "army.toml", "-q")
    assert result.code == 2, result
    assert "army-cards.pdf" in result.err and "symbolic link" in result.err and "-o/--output" in result.err
    assert victim.read_text() == PRECIOUS and (folder / "army-cards.pdf").is_symlink()
    named = run_cli("cards", "army.toml", "-q", "-o", "army-cards.pdf")  # named, the link is the player's
    assert named.code == 0, named
    assert victim.read_bytes().startswith(b"%PDF-") and (folder / "army-cards.pdf").is_symlink()


def test_finding8_default_cards_output_link_planted_during_export_is_not_followed(pack, monkeypatch):
    from reportlab.pdfgen.canvas import Canvas

    folder, victim = pack
    real_save = Canvas.save

    def save(self):
        (folder / "army-cards.pdf").symlink_to(victim)  # the export takes time: the link comes meanwhile
        return real_save(self)

    monkeypatch.setattr(Canvas, "save", save)
    result = run_cli("cards", "army.toml", "-q")
    assert result.code == 2, result
    assert "army-cards.pdf" in result.err and "symbolic link" in result.err
    assert victim.read_text() == PRECIOUS
    assert sorted(p.name for p in folder.iterdir()) == ["army-cards.pdf", "army.toml"]


# ---------------------------------------------------------------- the interface


async def test_finding8_interface_save_refuses_file_changed_after_its_check(registry, tmp_path, monkeypatch):
    """Another program writes the file after the save has found it unchanged: nothing is written."""
    path = vanguard(tmp_path)
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        session = app.screen.session
        await pilot.press("d")  # duplicate a unit: unsaved
        real = rosters.roster_text
        theirs: list = []

        def roster_text(roster, old=None):
            if not theirs:
                theirs.append(None)  # (the other program saves too: once)
                theirs[0] = theirs_of(path)
            return real(roster, old)

        monkeypatch.setattr(rosters, "roster_text", roster_text)
        await pilot.press("ctrl+s")
        await pilot.pause()
        monkeypatch.undo()
        assert theirs and isinstance(app.screen, RosterScreen)
        assert load_roster(path).roster == theirs[0]  # the other program's version stays
        assert "Not saved" in notices(app) and "nothing was written" in notices(app)
        assert session.dirty
        await pilot.press("ctrl+s")  # saved again: the player is asked, as for any change on disk
        assert isinstance(app.screen, FileChangedScreen)


async def test_finding8_interface_notices_a_change_made_while_the_roster_opened(registry, tmp_path, monkeypatch):
    path = vanguard(tmp_path)
    theirs: list = []
    ran = during_costing(monkeypatch, lambda: theirs.append(theirs_of(path)))
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        assert ran
        await pilot.press("d")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, FileChangedScreen)  # asked, not overwritten
        assert load_roster(path).roster == theirs[0]


async def test_finding8_interface_keep_mine_does_not_write_through_a_link_swapped_in(registry, tmp_path):
    path = vanguard(tmp_path)
    victim = tmp_path / "notes.txt"
    victim.write_text(PRECIOUS)
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        await pilot.press("d")
        path.unlink()
        path.symlink_to(victim)
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, FileChangedScreen)
        await pilot.press("k")  # keep mine
        await pilot.pause()
        assert isinstance(app.screen, RosterScreen)
        assert victim.read_text() == PRECIOUS and path.is_symlink()
        assert "Not saved" in notices(app) and "symbolic link" in notices(app)
        assert not leftovers(tmp_path)


def test_finding8_fingerprint_records_a_link_and_changed_since_sees_one_appear(army, tmp_path):
    before = atomic.fingerprint(army)
    copy = tmp_path / "copy.toml"
    copy.write_text(ARMY)
    army.unlink()
    army.symlink_to(copy)  # the same text, now behind a link
    assert atomic.changed_since(army, before)
