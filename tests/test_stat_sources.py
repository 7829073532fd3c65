"""Where each stat's value comes from: one function, read by costing and by the unit editor's notes."""

from __future__ import annotations

import pytest
from conftest import SAMPLES, load

from rosterkit.engine.costing import FigureShelf, cost_roster, member_type, stat_source
from rosterkit.engine.roster import RosterFile
from rosterkit.files.rosters import load_roster
from rosterkit.rules.numbers import exact
from rosterkit.rules.stats import coerce, default_value


def test_each_source_in_order():
    rs = load("fast_universal")
    move, figure = rs.stats["move"], FigureShelf(rs).find("Average human")
    assert figure is not None and figure.stats["move"] == 6

    entered = stat_source(move, {"move": 8}, figure, None)
    assert (entered.origin, entered.given, entered.note()) == ("roster", 8, "")
    from_figure = stat_source(move, {}, figure, None)
    assert (from_figure.origin, from_figure.given, from_figure.inherited) == ("figure", 6, 6)
    assert from_figure.note() == "from the figure"
    plain = stat_source(move, {}, None, None)
    assert plain.given is None
    assert plain.origin == ("default" if move.default is not None else "missing" if move.required else "none")
    assert plain.inherited == move.default


def test_a_type_sets_or_adds():
    rs = load("lego_combat")
    hero = rs.types["hero"]
    assert hero.set == {"move": 9} and hero.add == {"combat": 2}
    move = stat_source(rs.stats["move"], {"move": 5}, None, hero)
    assert (move.origin, move.entered, move.note()) == ("type", 5, "set by Hero")
    combat = stat_source(rs.stats["combat"], {"combat": 3}, None, hero)
    assert (combat.origin, combat.added, combat.note(5)) == ("roster", 2, "+2 Hero = 5")
    elsewhere = stat_source(rs.stats["combat"], {"combat": 3}, None, rs.types["standard"])
    assert elsewhere.added_by is None and elsewhere.note() == ""


def test_missing_when_required_and_nothing_gives_it():
    morale = load("ares").stats["morale"]
    assert morale.required and morale.default is None
    source = stat_source(morale, {}, None, None)
    assert (source.origin, source.given, source.note()) == ("missing", None, "must be entered")


def _effective(source, rs):
    """A stat's value worked out from its source alone, as the editor's notes read it."""
    sdef = source.stat
    value = coerce(sdef, source.given)[0] if source.given is not None else default_value(sdef)
    if value is None and source.given is not None:
        value = default_value(sdef)
    if source.set_by is not None:
        value = coerce(sdef, source.set_by.set[sdef.id])[0]
    if source.added_by is not None and value is not None:
        value = value + exact(source.added_by.add[sdef.id])
    return value


@pytest.mark.parametrize("sample", sorted(p.name for p in SAMPLES.glob("*.toml") if "INVALID" not in p.name))
def test_costing_takes_every_value_from_its_source(sample):
    """Every stat of every kind of figure of every sample army is costed with the value its
    source gives: the two never disagree."""
    roster: RosterFile = load_roster(SAMPLES / sample).roster
    rs = load(roster.ruleset)
    report = cost_roster(rs, roster)
    shelf = FigureShelf(rs)
    checked = 0
    for unit, cost in zip(roster.units, report.units):
        unit_type = rs.types.get(cost.type_id) if cost.type_id else None
        members = unit.members or [unit]
        for member, mc in zip(members, cost.members):
            name = member.figure if unit.members else unit.figure
            figure = shelf.find(name) if name else None
            tdef = member_type(rs, unit_type, unit, figure)
            for sdef in rs.data.stats:
                source = stat_source(sdef, member.stats, figure, tdef)
                assert mc.stats.get(sdef.id) == _effective(source, rs), (sample, unit.name, sdef.id)
                checked += 1
    assert checked
