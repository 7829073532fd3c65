"""Saving, reloading and recovered work of an editing document, without any interface."""

from __future__ import annotations

import shutil

from conftest import SAMPLES

from rosterkit.editing import edits, recent, recovery
from rosterkit.editing.document import open_document, recovered_document
from rosterkit.files.rosters import load_roster
from rosterkit.tui.screens.recovery_offer import offer_text

HILL = SAMPLES / "ares_hill_clans.toml"


def renamed(doc, index: int, name: str):
    unit = doc.roster.units[index].model_copy(update={"name": name})
    return edits.replace_unit(doc.roster, index, unit)


def test_save_as_of_a_sample_keeps_its_comments(registry, tmp_path):
    doc = open_document(HILL, registry, "w1", sample=True)
    assert doc.path is None
    doc.apply(renamed(doc, 0, "Thane's Guard"), "rename")
    target = tmp_path / "mine.toml"
    doc.save(target)
    text = target.read_text(encoding="utf-8")
    assert "# A dwarf clan army for ARES made of the player's own figures" in text
    assert 'name = "Thane\'s Guard"' in text
    assert load_roster(target).roster.units[0].name == "Thane's Guard"
    assert not doc.dirty and doc.path == target and target.resolve() in recent.recent_rosters()


def test_restoring_recovered_work_is_an_undoable_step(registry, tmp_path):
    path = tmp_path / "hill.toml"
    shutil.copy(HILL, path)
    doc = open_document(path, registry, "this-window")
    opened = doc.roster
    left = renamed(doc, 0, "Edited before the crash")
    recovery.write_recovery(doc.key, path, left, "a-window-that-crashed")
    found = doc.pending_recovery()
    assert found is not None and found.roster == left
    doc.restore(found)
    assert doc.roster == left and doc.dirty
    assert doc.pending_recovery() is None  # taken over: this window's own copy now
    assert recovery.read_recovery(doc.recovery.file).roster == left
    doc.undo()
    assert doc.roster is opened and not doc.dirty
    doc.redo()
    assert doc.roster == left


def test_loading_the_files_version_keeps_the_unsaved_work_aside(registry, tmp_path):
    path = tmp_path / "hill.toml"
    shutil.copy(HILL, path)
    doc = open_document(path, registry, "this-window")
    doc.apply(renamed(doc, 0, "Mine"), "rename")
    path.write_text(path.read_text(encoding="utf-8").replace('name = "Hill Clans"', 'name = "Theirs"'),
                    encoding="utf-8")
    assert doc.changed_on_disk()
    fresh, kept = doc.reload(registry)
    assert kept and fresh.roster.name == "Theirs" and not fresh.dirty
    found = fresh.pending_recovery()
    assert found is not None and found.roster.units[0].name == "Mine" and found.window is None
    # and the offer says what happened: set aside, not a program closed with unsaved changes
    said = offer_text(found.roster.name, 5, 5, found.when(), kept_aside=found.window is None)
    assert "loaded" in said and "closed" not in said
    assert "closed" in offer_text("Hill Clans", 5, 5, "now")


def test_saves_write_new_entries_as_the_readme_shows_them(registry, tmp_path):
    """A stat added to an inline table is spaced as the others (``defense = 7``, not
    ``defense= 7``); a new unit's type is written as the ruleset prints it ("Basic")."""
    path = tmp_path / "army.toml"
    path.write_text('format = 1\nname = "x"\nruleset = "fast_universal"\n\n'
                    '[[units]]\nname = "B"\ntype = "Basic"\ncount = 1\nstats = { move = 6 }\n', encoding="utf-8")
    doc = open_document(path, registry, "w")
    roster = edits.replace_unit(doc.roster, 0, edits.set_stat(doc.roster.units[0], None, "defense", 7))
    blank = edits.blank_unit(doc.rs, "vehicle", {u.name for u in roster.units})
    retyped = edits.printed_type(doc.rs, blank.model_copy(update={"type": "hero"}))
    doc.apply(edits.insert_unit(roster, 1, retyped), "add")
    doc.save()
    text = path.read_text(encoding="utf-8")
    assert "stats = { move = 6, defense = 7 }" in text
    assert blank.type == "Vehicle"
    assert 'name = "New Vehicle"\ntype = "Hero"\n' in text


def test_a_new_file_is_laid_out_as_the_readme_shows(registry, tmp_path):
    """Recovered work of a roster never saved, saved as a new file: [[units]] tables with the
    stats inline, as the README's examples are, not one inline list of every unit."""
    roster = load_roster(HILL).roster
    recovery.write_recovery(recovery.recovery_key(None, roster.name), None, roster, "a-window-that-crashed")
    [found] = recovery.all_recoveries()
    doc = recovered_document(found, registry, "w")
    found_path = tmp_path / "recovered.toml"
    doc.save(found_path)
    text = found_path.read_text(encoding="utf-8")
    assert "units = [" not in text and text.count("[[units]]") == len(roster.units)
    assert "stats = { " in text and "[units.stats]" not in text
    assert load_roster(found_path).roster == doc.roster
