"""Saving never loses or clobbers what a player wrote.

A hand-written roster keeps its comments and layout through edits and saves; a save keeps
the file's permissions, writes through a link, and leaves the old file whole and no
temporary file behind when any step fails; output that cannot be written completely is an
error; cards sent to a device, a pipe or standard output never replace them with a file.
"""

from __future__ import annotations

import os
import random
import signal
import socket
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import ROOT, SAMPLES, run_cli

from rosterkit.engine.roster import LocalItem, Member, RosterFile, Unit
from rosterkit.errors import RosterkitError
from rosterkit.files import inplace, rosters
from rosterkit.files.atomic import atomic_write
from rosterkit.files.rosters import (
    dumps_roster,
    load_roster,
    loads_roster,
    roster_to_data,
    save_roster,
)

HAND = """\
# Iron Vanguard: my club list for Saturday
# (points checked by hand)
format = 1
name = 'Iron Vanguard'   # the army's name
ruleset = "fast_universal"
points_limit = 500  # club limit

# ---- Foot ----

# The spear wall: keep them in front
[[units]]
name = "Spearmen"
type = "Basic"
count = 10   # ten painted so far
weapons = ["Claw/hand/spear/sword"]
stats = { dice = 1, die = 6, move = 6, fight = 0, shoot = 0, defense = 8 }

# Archers behind the spears
[[units]]
name = "Archers"
type = "Basic"
count = 4
weapons = ["Bow/crossbow"]  # longbows really

[units.stats]
# the usual profile
dice = 1
die = 6   # a plain d6
move = 6
fight = 0
shoot = 0
defense = 8

# a note between the archers and the command: keep it somewhere

# ---- Command ----
[[units]]
name = "Captain Aldric"
type = "Hero"
count = 1
weapons = ["Sword"]
abilities = ["Command"]  # leads from the front
stats = { dice = 1, die = 8, move = 6, fight = 1, shoot = 0, defense = 9 }

# end of list
"""

TOP = ["# Iron Vanguard: my club list for Saturday", "# (points checked by hand)", "# the army's name",
       "# club limit", "# ---- Foot ----", "# end of list"]
SPEARMEN = ["# The spear wall: keep them in front", "# ten painted so far"]
ARCHERS = ["# Archers behind the spears", "# longbows really", "# the usual profile", "# a plain d6",
           "# a note between the archers and the command: keep it somewhere"]
CAPTAIN = ["# ---- Command ----", "# leads from the front"]


@pytest.fixture(params=["unit-by-unit", "whole"])
def hand(tmp_path, request, monkeypatch):
    """The hand-written roster, saved over the quick way (only changed units parsed) and
    the slow way (the file parsed whole, as for a layout the quick way does not follow)."""
    if request.param == "whole":
        monkeypatch.setattr(inplace, "_by_units", lambda *a: None)
    path = tmp_path / "army.toml"
    path.write_text(HAND)
    return path


def saved(roster: RosterFile, path: Path) -> str:
    """Save, check the file loads back as the roster, and give its text."""
    save_roster(roster, path)
    assert load_roster(path).roster == roster
    assert roster_to_data(load_roster(path).roster) == roster_to_data(roster)
    return path.read_text()


def with_units(roster: RosterFile, units: list[Unit]) -> RosterFile:
    return roster.model_copy(update={"units": units})


def unit_block(text: str, name: str) -> str:
    """The text of one unit: from the comment lines above its header to the next header's comments."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line == f'name = "{name}"')
    start = at - 1  # the [[units]] header
    while start > 0 and lines[start - 1].startswith("#"):
        start -= 1
    end = at + 1
    while end < len(lines) and lines[end] != "[[units]]":
        end += 1
    while end > at and lines[end - 1].startswith("#"):
        end -= 1
    return "\n".join(lines[start:end])


def assert_comments(text: str, *groups: list[str]) -> None:
    for group in groups:
        for comment in group:
            assert comment in text, comment


# ---------------------------------------------------------------- comments and layout


def test_saving_an_unchanged_hand_written_roster_changes_no_byte(hand):
    save_roster(load_roster(hand).roster, hand)
    assert hand.read_text() == HAND
    assert (hand.parent / "army.toml.bak").read_text() == HAND


def test_a_changed_count_keeps_every_comment_and_the_layout(hand):
    roster = load_roster(hand).roster
    units = list(roster.units)
    units[0] = units[0].model_copy(update={"count": 12})
    text = saved(with_units(roster, units), hand)
    assert "count = 12   # ten painted so far" in text  # the value changes, its comment stays
    assert text == HAND.replace("count = 10   #", "count = 12   #")  # and nothing else


def test_a_changed_stat_in_a_stats_table_keeps_the_table_and_its_comments(hand):
    roster = load_roster(hand).roster
    units = list(roster.units)
    units[1] = units[1].model_copy(update={"stats": {**units[1].stats, "die": 8}})
    text = saved(with_units(roster, units), hand)
    assert "die = 8   # a plain d6" in text
    assert "[units.stats]\n# the usual profile\ndice = 1\n" in text  # still a table, not made inline
    assert_comments(text, TOP, SPEARMEN, ARCHERS, CAPTAIN)


def test_a_changed_inline_stat_stays_inline(hand):
    roster = load_roster(hand).roster
    units = list(roster.units)
    units[0] = units[0].model_copy(update={"stats": {**units[0].stats, "defense": 9}})
    text = saved(with_units(roster, units), hand)
    assert "stats = { dice = 1, die = 6, move = 6, fight = 0, shoot = 0, defense = 9 }" in text
    assert text == HAND.replace("shoot = 0, defense = 8 }", "shoot = 0, defense = 9 }")


def test_a_new_and_a_removed_stat_change_only_their_keys(hand):
    roster = load_roster(hand).roster
    units = list(roster.units)
    archer_stats = {k: v for k, v in units[1].stats.items() if k != "fight"} | {"range": 24}
    units[1] = units[1].model_copy(update={"stats": archer_stats})
    spear_stats = {k: v for k, v in units[0].stats.items() if k != "shoot"}
    units[0] = units[0].model_copy(update={"stats": spear_stats})
    text = saved(with_units(roster, units), hand)
    assert "stats = { dice = 1, die = 6, move = 6, fight = 0, defense = 8 }" in text
    assert "fight = 0\nshoot" not in text and "\nrange = 24\n" in text
    assert_comments(text, TOP, SPEARMEN, ARCHERS, CAPTAIN)


def test_an_added_weapon_keeps_the_list_comment(hand):
    roster = load_roster(hand).roster
    units = list(roster.units)
    units[1] = units[1].model_copy(update={"weapons": ["Bow/crossbow", "Dagger"]})
    text = saved(with_units(roster, units), hand)
    assert 'weapons = ["Bow/crossbow", "Dagger"]  # longbows really' in text
    assert_comments(text, TOP, SPEARMEN, ARCHERS, CAPTAIN)


def test_an_added_unit_goes_in_without_touching_the_others(hand):
    roster = load_roster(hand).roster
    scouts = Unit(name="Scouts", type="Basic", count=3, weapons=["Bow/crossbow"], stats={"dice": 1, "die": 6})
    units = list(roster.units)
    units.insert(2, scouts)
    text = saved(with_units(roster, units), hand)
    assert_comments(text, TOP, SPEARMEN, ARCHERS, CAPTAIN)
    assert text.index('name = "Archers"') < text.index('name = "Scouts"') < text.index('name = "Captain Aldric"')
    assert "# ---- Command ----" in unit_block(text, "Captain Aldric")  # still right above its unit
    assert 'stats = { dice = 1, die = 6 }' in unit_block(text, "Scouts")  # as most units write stats


def test_a_removed_unit_takes_its_own_comments_and_leaves_the_rest(hand):
    roster = load_roster(hand).roster
    text = saved(with_units(roster, [roster.units[0], roster.units[2]]), hand)
    assert "Spearmen" in text and "Captain Aldric" in text and "Archers" not in text
    assert "# Archers behind the spears" not in text and "# longbows really" not in text
    assert "# the usual profile" not in text
    assert_comments(text, TOP, SPEARMEN, CAPTAIN)


def test_a_moved_unit_takes_its_comments_along(hand):
    roster = load_roster(hand).roster
    spear, archers, captain = roster.units
    text = saved(with_units(roster, [captain, spear, archers]), hand)
    assert_comments(text, TOP, SPEARMEN, ARCHERS, CAPTAIN)
    assert [line for line in text.splitlines() if line.startswith("name = ")][1:] == [
        'name = "Captain Aldric"', 'name = "Spearmen"', 'name = "Archers"']
    assert "# ---- Command ----\n[[units]]\nname = \"Captain Aldric\"" in text
    assert "# The spear wall: keep them in front\n[[units]]\nname = \"Spearmen\"" in text
    assert "# Archers behind the spears\n[[units]]\nname = \"Archers\"" in text
    for name, comments in (("Spearmen", SPEARMEN), ("Archers", ARCHERS[:4]), ("Captain Aldric", CAPTAIN)):
        assert_comments(unit_block(text, name), comments)
    assert text.rstrip().endswith("# end of list")  # the file's last comment stays last


def test_all_the_edits_at_once(hand):
    roster = load_roster(hand).roster
    spear, archers, _captain = roster.units
    spear = spear.model_copy(update={"count": 14, "weapons": [*spear.weapons, "Shield"]})
    archers = archers.model_copy(update={"stats": {**archers.stats, "shoot": 1}})
    scouts = Unit(name="Scouts", type="Basic", count=3)
    edited = roster.model_copy(update={"units": [archers, scouts, spear], "points_limit": 600})
    text = saved(edited, hand)
    assert_comments(text, TOP, SPEARMEN, ARCHERS)
    assert "# leads from the front" not in text
    assert "points_limit = 600  # club limit" in text
    assert "count = 14   # ten painted so far" in text
    assert "shoot = 1\n" in unit_block(text, "Archers")


def test_top_level_keys_are_set_and_removed_in_place(hand):
    roster = load_roster(hand).roster
    text = saved(roster.model_copy(update={"points_limit": None, "notes": "Bring the new archers."}), hand)
    lines = text.splitlines()
    assert lines[:5] == ["# Iron Vanguard: my club list for Saturday", "# (points checked by hand)", "format = 1",
                         "name = 'Iron Vanguard'   # the army's name", 'ruleset = "fast_universal"']
    assert lines[5] == 'notes = "Bring the new archers."'  # where points_limit was, in the documented order
    assert "points_limit" not in text and "# club limit" not in text


def test_a_renamed_army_keeps_the_quotes_it_was_written_with(hand):
    roster = load_roster(hand).roster
    text = saved(roster.model_copy(update={"name": "Iron Vanguard II"}), hand)
    assert "name = 'Iron Vanguard II'   # the army's name" in text


def test_mixed_units_keep_their_member_comments(tmp_path):
    path = tmp_path / "mixed.toml"
    path.write_text('''format = 1
name = "Mixed"
ruleset = "ares"

[[units]]
name = "Command group"
type = "Figure"

# the captain himself
[[units.members]]
name = "Captain"
count = 1  # only one
stats = { rating = 75 }

# two flags, for the look
[[units.members]]
name = "Standard bearer"
count = 2
''')
    roster = load_roster(path).roster
    unit = roster.units[0]
    captain, bearer = unit.members
    drummer = Member(name="Drummer", count=1)
    members = [bearer.model_copy(update={"count": 3}), captain, drummer]
    text = saved(with_units(roster, [unit.model_copy(update={"members": members})]), path)
    assert "# two flags, for the look\n[[units.members]]\nname = \"Standard bearer\"\ncount = 3\n" in text
    assert "# the captain himself\n[[units.members]]\nname = \"Captain\"\ncount = 1  # only one\n" in text
    assert text.index("Standard bearer") < text.index("Captain") < text.index("Drummer")


def test_roster_items_are_kept_in_place(tmp_path):
    path = tmp_path / "items.toml"
    path.write_text('''format = 1
name = "Homebrew"
ruleset = "ares"

# our own weapons
[[weapons]]
name = "Rune Axe"
stats = { damage = "D10" }  # heirloom
''')
    roster = load_roster(path).roster
    axe = roster.weapons[0].model_copy(update={"stats": {"damage": "D12"}})
    text = saved(roster.model_copy(update={"weapons": [axe, LocalItem(name="Sling")]}), path)
    assert '# our own weapons\n[[weapons]]\nname = "Rune Axe"\nstats = { damage = "D12" }  # heirloom\n' in text
    assert 'name = "Sling"' in text


def test_a_file_of_crlf_lines_stays_so(tmp_path):
    path = tmp_path / "windows.toml"
    path.write_bytes(HAND.replace("\n", "\r\n").encode())
    roster = load_roster(path).roster
    units = list(roster.units) + [Unit(name="Scouts", type="Basic", count=3)]
    save_roster(with_units(roster, units), path)
    data = path.read_bytes()
    assert b"\n" not in data.replace(b"\r\n", b"") and b"# ten painted so far" in data
    assert load_roster(path).roster == with_units(roster, units)


def test_new_force_replaces_a_roster_with_a_fresh_file(tmp_path):
    """`rosterkit new --force` makes a new roster: none of the old file's comments carry over
    (the old file is kept as .bak)."""
    path = tmp_path / "army.toml"
    path.write_text(HAND)
    result = run_cli("new", "--ruleset", "fast_universal", "--name", "Iron Vanguard", "--force", path)
    assert result.code == 0, result.err
    fresh = RosterFile(name="Iron Vanguard", ruleset="fast_universal", ruleset_version="2")  # the version recorded
    assert path.read_text() == dumps_roster(fresh)
    assert (tmp_path / "army.toml.bak").read_text() == HAND


def test_a_new_file_is_written_in_the_readmes_layout(tmp_path):
    roster = load_roster(SAMPLES / "fast_universal_iron_vanguard.toml").roster
    path = tmp_path / "new.toml"
    save_roster(roster, path)
    text = path.read_text()
    assert text.count("[[units]]") == len(roster.units) and "units = [" not in text
    assert 'weapons = ["Spear"]\n' in text and 'stats = { dice = 1, die = 6, move = 6,' in text
    assert load_roster(path).roster == roster


def test_a_file_that_is_not_toml_is_replaced_by_a_fresh_one(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("this is not [ TOML\n# a comment\n")
    roster = RosterFile(name="x", ruleset="fast_universal")
    save_roster(roster, path)
    assert path.read_text() == dumps_roster(roster)
    assert (tmp_path / "broken.toml.bak").read_text() == "this is not [ TOML\n# a comment\n"


def test_an_in_place_change_that_would_not_load_back_gives_way_to_the_fresh_text(hand, monkeypatch):
    roster = load_roster(hand).roster
    edited = with_units(roster, roster.units[:1])
    monkeypatch.setattr(inplace, "in_place_texts", lambda r, data, old: iter([old]))  # "forgets" two units
    save_roster(edited, hand)
    assert hand.read_text() == dumps_roster(edited)
    assert load_roster(hand).roster == edited


def test_a_unit_by_unit_change_that_would_not_load_back_gives_way_to_the_whole_file_parsed(tmp_path, monkeypatch):
    path = tmp_path / "army.toml"
    path.write_text(HAND)
    roster = load_roster(path).roster
    monkeypatch.setattr(inplace, "_by_units", lambda r, data, blocks: HAND)  # "forgets" the change
    text = saved(roster.model_copy(update={"points_limit": 750}), path)
    assert text == HAND.replace("points_limit = 500", "points_limit = 750")


def test_a_text_that_would_not_load_back_is_never_written(hand, monkeypatch):
    roster = load_roster(hand).roster
    monkeypatch.setattr(rosters, "_loads_as", lambda text, want: False)
    with pytest.raises(RosterkitError, match="would not read back"):
        save_roster(with_units(roster, roster.units[:1]), hand)
    assert hand.read_text() == HAND
    assert sorted(p.name for p in hand.parent.iterdir()) == ["army.toml"]


@pytest.mark.parametrize("way", ["unit-by-unit", "whole"])
@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.toml")))
def test_random_edits_of_every_sample_army_keep_its_opening_comments(name, way, tmp_path, monkeypatch):
    """Twenty saves of random edits in a row: each loads back as the roster saved, and
    the comments at the top of the file are never lost."""
    if way == "whole":
        monkeypatch.setattr(inplace, "_by_units", lambda *a: None)
    path = tmp_path / name
    original = (SAMPLES / name).read_text()
    path.write_text(original)
    opening = [line for line in original.splitlines()[:3] if line.startswith("#")]
    rng = random.Random(name)
    roster = load_roster(path).roster
    for _ in range(20):
        roster = random_edit(roster, rng)
        text = saved(roster, path)
        assert text.splitlines()[:len(opening)] == opening


def random_edit(roster: RosterFile, rng: random.Random) -> RosterFile:
    units = list(roster.units)
    what = rng.choice(["count", "remove", "add", "move", "stat", "weapon", "rename", "limit"])
    i = rng.randrange(len(units)) if units else None
    if what == "count" and units and not units[i].members:
        units[i] = units[i].model_copy(update={"count": (units[i].count or 1) + 1})
    elif what == "count" and units:
        members = list(units[i].members)
        members[0] = members[0].model_copy(update={"count": members[0].count + 1})
        units[i] = units[i].model_copy(update={"members": members})
    elif what == "remove" and units:
        del units[i]
    elif what == "add":
        units.insert(rng.randrange(len(units) + 1), Unit(name=f"Levy {rng.randrange(1000)}", type="Basic", count=5,
                                                         stats={"die": 6}, weapons=["Spear"]))
    elif what == "move" and units:
        units.insert(rng.randrange(len(units)), units.pop(i))
    elif what == "stat" and units and not units[i].members:
        units[i] = units[i].model_copy(update={"stats": {**units[i].stats, "die": rng.choice([4, 6, 8])}})
    elif what == "weapon" and units and not units[i].members:
        units[i] = units[i].model_copy(update={"weapons": [*units[i].weapons, "Dagger"][-3:]})
    elif what == "rename" and units:
        units[i] = units[i].model_copy(update={"name": units[i].name + "'s best"})
    elif what == "limit":
        return roster.model_copy(update={"points_limit": rng.choice([None, 400, 750])})
    return with_units(roster, units)


# ---------------------------------------------------------------- permissions and links


@pytest.mark.parametrize("mode", [0o644, 0o600, 0o664])
def test_a_save_keeps_the_files_permissions(hand, mode):
    os.chmod(hand, mode)
    roster = load_roster(hand).roster
    save_roster(roster.model_copy(update={"points_limit": 900}), hand)
    assert stat.S_IMODE(os.stat(hand).st_mode) == mode
    assert stat.S_IMODE(os.stat(hand.parent / "army.toml.bak").st_mode) == mode  # the old text, as private


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_file_gets_the_permissions_the_umask_gives(tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        save_roster(RosterFile(name="x", ruleset="fast_universal"), tmp_path / "new.toml")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "new.toml").st_mode) == mode


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_a_save_keeps_the_files_owner(hand):
    os.chown(hand, 1234, 5678)
    save_roster(load_roster(hand).roster.model_copy(update={"points_limit": 900}), hand)
    assert (os.stat(hand).st_uid, os.stat(hand).st_gid) == (1234, 5678)


def test_a_save_through_a_link_writes_the_linked_file(tmp_path):
    files = tmp_path / "files"
    files.mkdir()
    real = files / "army.toml"
    real.write_text(HAND)
    link = tmp_path / "link.toml"
    link.symlink_to(Path("files") / "army.toml")  # relative, as `ln -s` makes them
    roster = load_roster(link).roster
    save_roster(roster.model_copy(update={"points_limit": 900}), link)
    assert link.is_symlink() and os.readlink(link) == str(Path("files") / "army.toml")
    assert load_roster(real).roster.points_limit == 900
    assert (files / "army.toml.bak").read_text() == HAND  # next to the file, not the link
    assert sorted(p.name for p in tmp_path.iterdir()) == ["files", "link.toml"]
    assert sorted(p.name for p in files.iterdir()) == ["army.toml", "army.toml.bak"]


def test_a_save_through_a_link_to_no_file_yet_creates_the_linked_file(tmp_path):
    link = tmp_path / "link.toml"
    link.symlink_to(tmp_path / "real.toml")
    save_roster(RosterFile(name="x", ruleset="fast_universal"), link)
    assert link.is_symlink() and load_roster(tmp_path / "real.toml").roster.name == "x"


@pytest.mark.parametrize("kind", ["device", "fifo"])
def test_a_roster_is_never_saved_over_a_device_or_a_pipe(tmp_path, kind):
    if kind == "device":
        path = Path("/dev/null")
    else:
        path = tmp_path / "pipe"
        os.mkfifo(path)
    with pytest.raises(RosterkitError, match="cannot save: not a regular file"):
        save_roster(RosterFile(name="x", ruleset="fast_universal"), path)
    st = os.stat(path)
    assert stat.S_ISCHR(st.st_mode) if kind == "device" else stat.S_ISFIFO(st.st_mode)


def test_a_roster_is_never_saved_over_a_folder(tmp_path):
    with pytest.raises(RosterkitError, match="cannot save: is a folder"):
        save_roster(RosterFile(name="x", ruleset="fast_universal"), tmp_path)


# ---------------------------------------------------------------- failures at every step


class Interrupted(Exception):
    pass


STEPS = ["create", "chmod", "write", "fsync", "backup-copy", "backup-rename", "rename", "fsync-folder"]


@pytest.mark.parametrize("error", [OSError(28, "No space left on device"), KeyboardInterrupt(), Interrupted()],
                         ids=["disk-full", "ctrl-c", "other"])
@pytest.mark.parametrize("step", STEPS)
def test_a_failed_save_leaves_the_old_file_and_no_temporary_file(hand, monkeypatch, step, error):
    real = {name: getattr(os, name) for name in ("open", "fchmod", "fsync", "replace", "fdopen")}
    fsyncs = []

    def fail(name):
        raise error

    def open_(path, flags, mode=0o777, *a, **k):
        if step == "create" and str(path).endswith(".tmp") and flags & os.O_CREAT:
            fail(step)
        return real["open"](path, flags, mode, *a, **k)

    def fchmod(fd, mode):
        if step == "chmod":
            fail(step)
        return real["fchmod"](fd, mode)

    def fsync(fd):
        fsyncs.append(fd)
        folder = os.path.isdir(f"/proc/self/fd/{fd}") if os.path.exists("/proc/self/fd") else False
        if (step == "fsync" and len(fsyncs) == 1) or (step == "backup-copy" and len(fsyncs) == 2) or (
                step == "fsync-folder" and folder):
            fail(step)
        return real["fsync"](fd)

    def replace(src, dst):
        backup = str(dst).endswith(".bak")
        if (step == "backup-rename" and backup) or (step == "rename" and not backup):
            fail(step)
        return real["replace"](src, dst)

    class Handle:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def write(self, data):
            if step == "write":
                self.fh.write(data[: len(data) // 2])  # half written, then the failure
                fail(step)
            return self.fh.write(data)

        def flush(self):
            return self.fh.flush()

        def fileno(self):
            return self.fh.fileno()

    roster = load_roster(hand).roster
    new = roster.model_copy(update={"points_limit": 900})
    os.chmod(hand, 0o640)
    monkeypatch.setattr(os, "open", open_)
    monkeypatch.setattr(os, "fchmod", fchmod)
    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "fdopen", lambda fd, mode: Handle(real["fdopen"](fd, mode)))
    expected = RosterkitError if isinstance(error, OSError) else type(error)
    with pytest.raises(expected):
        save_roster(new, hand)
    monkeypatch.undo()
    names = sorted(p.name for p in hand.parent.iterdir())
    assert not [n for n in names if n.endswith(".tmp")], names
    if step == "fsync-folder":  # after the rename: the new file is in place, whole, but not reported saved
        assert load_roster(hand).roster == new
    else:
        assert hand.read_text() == HAND
    assert stat.S_IMODE(os.stat(hand).st_mode) == 0o640


def test_a_failed_export_of_a_text_leaves_no_temporary_file(tmp_path, monkeypatch):
    """atomic_write is also how the interface exports text and keeps its recent-files list."""
    path = tmp_path / "army.txt"
    path.write_text("old")

    def replace(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        atomic_write(path, "new", keep_backup=False)
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["army.txt"] and path.read_text() == "old"


# ---------------------------------------------------------------- output that cannot be written

IRON = SAMPLES / "fast_universal_iron_vanguard.toml"
FULL_LINE = "error: cannot write the output: No space left on device"


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "rosterkit", *args]


OUTPUT_COMMANDS = [
    ["validate", str(IRON)],
    ["validate", "--json", str(IRON)],
    ["validate", str(SAMPLES / "fast_universal_INVALID_hero_heavy.toml")],  # exit 1 turns 2: the output is cut
    ["cost", str(IRON)],
    ["cost", "--json", str(IRON)],
    ["text", str(IRON)],
    ["check-ruleset", str(ROOT / "rulesets" / "fast_universal.toml")],
    ["--help"],
]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("args", OUTPUT_COMMANDS, ids=lambda a: " ".join(a[:2]).replace(str(SAMPLES), ""))
def test_output_to_a_full_disk_is_exit_2_and_one_line(args, unbuffered):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    with open("/dev/full", "w") as full:
        result = subprocess.run(command(*args), stdout=full, stderr=subprocess.PIPE, text=True, env=env)
    assert (result.returncode, result.stderr) == (2, FULL_LINE + "\n")


def big_roster(tmp_path: Path, units: int = 600) -> Path:
    roster = load_roster(IRON).roster
    path = tmp_path / "big.toml"
    save_roster(with_units(roster, [u.model_copy(update={"name": f"{u.name} {i}"})
                                    for i in range(units // 3) for u in roster.units]), path)
    return path


def _file_size_limit(limit: int):
    def limit_files():
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a refused write, not a killed process
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return limit_files


@pytest.mark.skipif(not hasattr(signal, "SIGXFSZ"), reason="needs file size limits")
@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("args", [["cost", "--json"], ["text"], ["cost"]])
def test_output_cut_short_by_a_full_disk_is_an_error_not_a_short_file(tmp_path, args, unbuffered):
    """A disk that fills up takes the first part of a write and refuses the rest (here: a
    file size limit of 16 KiB): the command must say so, not leave a cut file and exit 0."""
    roster = big_roster(tmp_path)
    whole = run_cli(*args, roster)  # only its length is read: beyond the limit below
    assert len(whole.out.encode()) > 20_000
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    out = tmp_path / "out.txt"
    with open(out, "w") as fh:
        result = subprocess.run(command(*args, str(roster)), stdout=fh, stderr=subprocess.PIPE, text=True, env=env,
                                preexec_fn=_file_size_limit(16_384))
    assert result.returncode == 2
    assert result.stderr == "error: cannot write the output: File too large\n"
    assert out.stat().st_size <= 16_384


def test_a_reader_that_stops_early_is_not_an_error(tmp_path):
    roster = big_roster(tmp_path)
    proc = subprocess.Popen(command("text", str(roster)), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait() == 0 and first and err == b""


# ---------------------------------------------------------------- cards to what is not a file


def test_cards_to_dev_null_leave_the_device_a_device():
    result = run_cli("cards", IRON, "-o", "/dev/null", "-q")
    assert result.code == 0, result.err
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_cards_to_a_named_pipe_are_written_into_it(tmp_path):
    pipe = tmp_path / "cards.pipe"
    os.mkfifo(pipe)
    got = {}

    def read():
        with open(pipe, "rb") as fh:
            got["pdf"] = fh.read()

    reader = threading.Thread(target=read)
    reader.start()
    result = run_cli("cards", IRON, "-o", pipe, "-q")
    reader.join(30)
    assert result.code == 0, result.err
    assert got["pdf"].startswith(b"%PDF-") and got["pdf"].rstrip().endswith(b"%%EOF")
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards.pipe"]


def test_cards_to_standard_output():
    result = subprocess.run(command("cards", str(IRON), "-o", "-"), capture_output=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(b"%PDF-") and result.stdout.rstrip().endswith(b"%%EOF")
    # (three units' cards and the quick rules' two)
    assert result.stderr.decode().startswith("Wrote the PDF to standard output: 5 cards on 2 pages")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_cards_to_a_full_standard_output_are_one_error():
    with open("/dev/full", "w") as full:
        result = subprocess.run(command("cards", str(IRON), "-o", "-", "-q"), stdout=full, stderr=subprocess.PIPE,
                                text=True)
    assert (result.returncode, result.stderr) == (2, "error: -: cannot write the PDF: No space left on device\n")


def test_cards_to_a_standard_output_that_takes_no_bytes_is_a_clear_error():
    result = run_cli("cards", IRON, "-o", "-")  # in process: standard output is a text buffer
    assert result.code == 2 and result.err.strip() == \
        "error: -: standard output cannot take a PDF here; give a file name"


def test_cards_to_a_socket_are_refused(tmp_path):
    path = tmp_path / "s.sock"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))
        result = run_cli("cards", IRON, "-o", path)
    assert result.code == 2
    assert result.err.strip() == (f"error: {path}: not a regular file (a socket); give a file name for the PDF "
                                  "(or - for standard output)")
    assert stat.S_ISSOCK(os.stat(path).st_mode)


def test_cards_through_a_link_write_the_linked_file_and_keep_its_permissions(tmp_path):
    real = tmp_path / "real.pdf"
    real.write_bytes(b"old")
    os.chmod(real, 0o640)
    link = tmp_path / "cards.pdf"
    link.symlink_to(real)
    result = run_cli("cards", IRON, "-o", link, "-q")
    assert result.code == 0, result.err
    assert link.is_symlink() and real.read_bytes().startswith(b"%PDF-")
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards.pdf", "real.pdf"]


def test_roster_text_round_trips_loads_roster(hand):
    """roster_text gives what save_roster writes; loads_roster reads it back."""
    roster = load_roster(hand).roster
    assert loads_roster(rosters.roster_text(roster, HAND)) == roster
