"""Roster files: round trips, atomic saves that keep the previous file, clear load errors."""

import os

import pytest
from conftest import SAMPLES

from rosterkit.engine.roster import RosterFile, Unit
from rosterkit.errors import RosterkitError
from rosterkit.files.atomic import atomic_write
from rosterkit.files.rosters import dumps_roster, load_roster, loads_roster, save_roster

SAMPLE_FILES = sorted(p.name for p in SAMPLES.glob("*.toml"))


@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_load_save_load_is_equal(name, tmp_path):
    first = load_roster(SAMPLES / name).roster
    out = tmp_path / name
    save_roster(first, out)
    second = load_roster(out).roster
    assert second == first
    save_roster(second, out)
    assert load_roster(out).roster == first
    assert dumps_roster(second) == dumps_roster(first)


def test_saved_file_keeps_the_documented_shape(tmp_path):
    roster = RosterFile(name="Iron Vanguard", ruleset="fast_universal", points_limit=500,
                        units=[Unit(name="Spearmen", type="basic", count=10, weapons=["Spear"],
                                    stats={"dice": 1, "die": 6})])
    text = dumps_roster(roster)
    lines = text.splitlines()
    assert lines[:4] == ['format = 1', 'name = "Iron Vanguard"', 'ruleset = "fast_universal"', 'points_limit = 500']
    assert "[[units]]" in text and 'name = "Spearmen"' in text
    assert loads_roster(text) == roster


def test_unicode_names_round_trip(tmp_path):
    roster = RosterFile(name="Łukasz's Ωmega Host", ruleset="fast_universal",
                        units=[Unit(name="Šárka", type="hero")])
    save_roster(roster, tmp_path / "u.toml")
    assert load_roster(tmp_path / "u.toml").roster == roster


def test_save_keeps_the_previous_version(tmp_path):
    path = tmp_path / "army.toml"
    old = RosterFile(name="Old", ruleset="fast_universal")
    new = RosterFile(name="New", ruleset="fast_universal")
    save_roster(old, path)
    save_roster(new, path)
    assert load_roster(path).roster.name == "New"
    assert load_roster(tmp_path / "army.toml.bak").roster.name == "Old"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_interrupted_write_leaves_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "army.toml"
    path.write_text('format = 1\nname = "Old"\nruleset = "fast_universal"\n')

    def boom(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        atomic_write(path, "garbage")
    monkeypatch.undo()
    assert load_roster(path).roster.name == "Old"
    assert [p.name for p in tmp_path.iterdir()] == ["army.toml"]


def test_save_into_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(RosterkitError, match="cannot save"):
        save_roster(RosterFile(name="x", ruleset="fast_universal"), tmp_path / "nope" / "x.toml")


def test_unknown_format_version(tmp_path):
    path = tmp_path / "future.toml"
    path.write_text('format = 2\nname = "x"\nruleset = "fast_universal"\n')
    with pytest.raises(RosterkitError, match="roster format 2 is not supported"):
        load_roster(path)


def test_mixed_units_round_trip(tmp_path):
    text = '''format = 1
name = "Mixed"
ruleset = "fast_universal"

[[units]]
name = "Command group"
type = "hero"

[[units.members]]
name = "Captain"
count = 1
stats = { die = 8 }

[[units.members]]
name = "Standard bearer"
count = 2
'''
    roster = loads_roster(text)
    assert [m.count for m in roster.units[0].members] == [1, 2]
    save_roster(roster, tmp_path / "m.toml")
    assert load_roster(tmp_path / "m.toml").roster == roster


def test_members_and_flat_stats_together_are_refused():
    with pytest.raises(RosterkitError, match="either members or"):
        loads_roster('format = 1\nname = "x"\nruleset = "r"\n[[units]]\nname = "u"\ncount = 2\n'
                     '[[units.members]]\nname = "a"\n')


OLD = 'format = 1\nname = "Old"\nruleset = "fast_universal"\n'


@pytest.mark.parametrize("step", ["write", "flush", "fsync", "backup-rename", "rename", "fsync-folder"])
def test_a_save_interrupted_at_any_step_leaves_old_or_new_complete(tmp_path, monkeypatch, step):
    """Fail each step of the save in turn: the roster on disk is always the old or the new one, whole."""
    path = tmp_path / "army.toml"
    path.write_text(OLD)
    new = RosterFile(name="New", ruleset="fast_universal", units=[Unit(name="Spearmen", type="basic", count=10)])
    real_replace, real_fsync, real_fdopen = os.replace, os.fsync, os.fdopen
    calls = {"replace": 0, "fsync": 0}

    class Interrupted(Exception):
        pass

    def replace(src, dst):
        calls["replace"] += 1
        is_backup = str(dst).endswith(".bak")
        if (step == "backup-rename" and is_backup) or (step == "rename" and not is_backup):
            raise Interrupted(step)
        return real_replace(src, dst)

    def fsync(fd):
        calls["fsync"] += 1
        if step == "fsync" and calls["fsync"] == 1:
            raise Interrupted(step)
        if step == "fsync-folder" and os.path.isdir(f"/proc/self/fd/{fd}"):
            raise Interrupted(step)
        return real_fsync(fd)

    class Handle:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def write(self, data):
            if step == "write":
                self.fh.write(data[: len(data) // 2])  # half written, then the crash
                raise Interrupted(step)
            return self.fh.write(data)

        def flush(self):
            if step == "flush":
                raise Interrupted(step)
            return self.fh.flush()

        def fileno(self):
            return self.fh.fileno()

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "fdopen", lambda fd, mode: Handle(real_fdopen(fd, mode)))
    try:
        save_roster(new, path)
        finished = True
    except Interrupted:
        finished = False
    monkeypatch.undo()
    on_disk = load_roster(path).roster  # always loads: never a half-written file
    assert not finished
    if step == "fsync-folder":
        assert on_disk == new  # the last step comes after the rename: the new version is in place
    else:
        assert on_disk.name == "Old" and on_disk.units == []
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_an_emptied_catalogue_list_stays_empty_after_saving(tmp_path):
    text = ('format = 1\nname = "x"\nruleset = "ares"\n[[units]]\nname = "Unarmed bowmen"\n'
            'figure = "Human Longbowman"\nweapons = []\n')
    roster = loads_roster(text)
    save_roster(roster, tmp_path / "x.toml")
    again = load_roster(tmp_path / "x.toml").roster
    assert again == roster
    assert "weapons" in again.units[0].model_fields_set and again.units[0].weapons == []
