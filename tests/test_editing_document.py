"""The editing document: incremental costing equals a full recompute; undo, redo."""

from __future__ import annotations

import pytest
from conftest import SAMPLES

from rosterkit.editing import edits
from rosterkit.editing.document import Document, Where
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.roster import LocalItem
from rosterkit.engine.validation import validate, validate_report
from rosterkit.files.rosters import load_roster
from rosterkit.workspace import open_value


@pytest.fixture(scope="module")
def big(registry):
    base = load_roster(SAMPLES / "fast_universal_iron_vanguard.toml").roster
    units = [u.model_copy(update={"name": f"{u.name} {i}"}) for i in range(334) for u in base.units]
    roster = base.model_copy(update={"units": units, "points_limit": 100_000})
    return registry.get("fast_universal"), roster


def same_as_full(session: Document) -> None:
    full = validate(session.rs, session.roster)
    assert session.report.total == full.report.total
    assert session.report.by_type == full.report.by_type
    assert [u.total for u in session.costs] == [u.total for u in full.report.units]
    assert [u.index for u in session.costs] == list(range(len(session.roster.units)))
    assert session.validation.findings == full.findings
    assert session.validation.limits == full.limits


def test_one_edit_costs_one_unit(big):
    rs, roster = big
    session = Document(open_value(roster, rs))
    before = list(session.costs)
    unit = edits.set_stat(roster.units[500], None, "defense", 9)
    change = session.apply(edits.replace_unit(roster, 500, unit), "defense", Where(unit=500))
    assert change.units == {500} and not change.structure
    assert all(a is b for i, (a, b) in enumerate(zip(before, session.costs)) if i != 500)
    same_as_full(session)


def test_structural_edits_and_undo_match_a_full_recompute(big):
    rs, roster = big
    session = Document(open_value(roster, rs))
    broken = roster.units[10].model_copy(update={"stats": {"defense": 0}})  # out of range: a finding
    session.apply(edits.replace_unit(roster, 10, broken), "break")
    change = session.apply(edits.delete_unit(session.roster, 3), "delete")
    assert change.structure
    same_as_full(session)
    assert any(f.unit == 9 and f.field == "stats.defense" for f in session.validation.findings)
    session.apply(edits.move_unit(session.roster, 0, 700), "move")
    same_as_full(session)
    session.apply(edits.insert_unit(session.roster, 5, roster.units[2]), "add")
    same_as_full(session)
    for _ in range(3):
        session.undo()
        same_as_full(session)
    assert session.roster.units[10] is broken
    session.undo()
    assert session.roster is roster and not session.dirty
    session.redo()
    same_as_full(session)


def test_typing_in_one_field_is_one_undo_step(big):
    rs, roster = big
    session = Document(open_value(roster, rs))
    for text in ("P", "Pi", "Pik", "Pike"):
        unit = session.roster.units[0].model_copy(update={"name": text})
        session.apply(edits.replace_unit(session.roster, 0, unit), "rename", coalesce=(0, "name", 1))
    assert len(session.undo_stack) == 1
    session.undo()
    assert session.roster is roster


def test_a_roster_weapon_reprices_only_its_holders(registry):
    rs = registry.get("fast_universal")
    roster = load_roster(SAMPLES / "fast_universal_iron_vanguard.toml").roster
    roster = roster.model_copy(update={"weapons": [LocalItem(name="Sling", stats={"shoot": 1})]})
    holder = roster.units[1].model_copy(update={"weapons": ["Sling"]})
    roster = edits.replace_unit(roster, 1, holder)
    session = Document(open_value(roster, rs))
    change = session.apply(edits.set_local(roster, "weapons", 0, LocalItem(name="Sling", stats={"shoot": 2})),
                           "edit Sling")
    assert change.units == {1}
    assert session.costs[1].total == cost_roster(rs, session.roster).units[1].total
    renamed = edits.rename_local(session.roster, "weapons", 0, "Heavy sling")
    assert renamed.units[1].weapons == ["Heavy sling"] and renamed.units[0] is session.roster.units[0]
    session.apply(renamed, "rename")
    assert validate_report(session.report).ok


def test_what_a_save_asks_first(registry, tmp_path):
    """A copy of a sample asks for a file (offering the sample's name); a roster's own file is
    written at once, unless another program changed it since: then the player is asked."""
    import os
    import shutil

    from rosterkit.editing.document import open_document

    sample = open_document(SAMPLES / "fast_universal_iron_vanguard.toml", registry, sample=True)
    assert sample.save_needs() == "file"
    assert sample.suggested_file() == "fast_universal_iron_vanguard.toml"
    unnamed = Document(open_value(sample.roster, sample.rs))
    assert unnamed.suggested_file() == "fast_universal_iron_vanguard.toml"  # the ruleset's id, the army's name
    path = tmp_path / "army.toml"
    shutil.copy(SAMPLES / "fast_universal_iron_vanguard.toml", path)
    doc = open_document(path, registry)
    assert doc.save_needs() == "nothing"
    path.write_text(path.read_text() + "\n# edited elsewhere\n")
    os.utime(path, (1, 1))
    assert doc.save_needs() == "consent"
    doc.save(path, doc.expected_at(path, replacing=True))  # the player chose to replace it
    assert doc.save_needs() == "nothing"
    for d in (sample, unnamed, doc):
        d.close()


@pytest.mark.parametrize("sample", ["ares_hill_clans.toml", "for_the_masses_orc_warband.toml"])
def test_a_catalogue_figure_priced_apart_costs_what_it_costs_once_added(registry, sample):
    """The add-unit dialog's prices: each catalogue figure, priced before it is added, costs
    what the roster then says it costs."""
    roster = load_roster(SAMPLES / sample).roster
    rs = registry.get(roster.ruleset)
    session = Document(open_value(roster, rs))
    units = [edits.unit_from_figure(fig) for fig in rs.data.figures]
    assert units
    for unit, apart in zip(units, session.cost_apart(units), strict=True):
        added = cost_roster(rs, edits.insert_unit(roster, len(roster.units), unit)).units[-1]
        assert (apart.total, apart.figures) == (added.total, added.figures), unit.name
