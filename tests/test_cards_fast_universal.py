"""fast_universal's trackers as its rules text gives them: the half mark on ordnance alone (the
only rule on half a unit's starting miniatures), the formation every unit keeps, the disordered
unit's lost action and a ranged unit's melee die."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import RULESETS, SAMPLES, run_cli

from rosterkit.cards.content import CardBuilder
from rosterkit.editing.play import Game
from rosterkit.files.rulesets import Registry
from rosterkit.workspace import open_roster

CREW = """
[[units]]
name = "Cannon Crew"
type = "Ordnance"
count = 3
weapons = ["50mm Cannon"]
stats = { dice = 2, die = 6, move = 4, fight = 0, shoot = 0, defense = 8 }
"""


def with_crew(tmp_path: Path) -> Path:
    """The Iron Vanguard with a cannon and its crew of three."""
    path = tmp_path / "fast_universal_iron_vanguard.toml"
    path.write_text((SAMPLES / path.name).read_text(encoding="utf-8").replace("points_limit = 500",
                                                                              "points_limit = 800") + CREW)
    return path


def cards(path: Path) -> dict:
    report = open_roster(path, Registry()).report
    return {c.title: c for c in CardBuilder(report, "unit", []).cards()}


def casualties(card):
    return next(t for t in card.tracks if "Casualties" in (t.label, t.heading))


def test_only_ordnance_casualties_carry_the_half_mark(tmp_path):
    """The morale check counts one action's losses against the miniatures left, so a line unit's
    casualty boxes have no half mark; an ordnance crew's rules change at half its starting crew."""
    by_title = cards(with_crew(tmp_path))
    assert casualties(by_title["Spearmen"]).mark == 0
    assert casualties(by_title["Archers"]).mark == 0
    assert (casualties(by_title["Cannon Crew"]).boxes, casualties(by_title["Cannon Crew"]).mark) == (3, 2)


def test_play_marks_half_crew_for_ordnance_and_no_half_strength_for_a_line_unit(tmp_path):
    path = with_crew(tmp_path)
    game = Game.start(path)
    units = {u.name: (i, u) for i, u in enumerate(game.sides[0].units)}
    spear_at, spear = units["Spearmen"]
    crew_at, crew = units["Cannon Crew"]
    spear_track = next(t for t in spear.trackers if t.label == "Casualties")
    crew_track = next(t for t in crew.trackers if t.label == "Casualties")
    assert (spear_track.half, crew_track.half) == (0, 2)
    for row in range(6):
        game.step(spear_track.cell(row=row))
    assert game.effects(0, spear_at) == []  # 6 of 10 lost over the game: no rule of the text applies
    game.step(crew_track.cell(row=0))
    assert game.effects(0, crew_at) == []
    game.step(crew_track.cell(row=1))
    assert [e.label for e in game.effects(0, crew_at)] == ["Half crew"]


@pytest.mark.parametrize("half, says", [
    ('"type =="', "card.trackers[1].half"),
    ('"kind == \'ordnance\'"', "unknown name 'kind'"),
])
def test_a_bad_half_formula_is_reported_with_its_key(tmp_path, half, says):
    text = (RULESETS / "fast_universal.toml").read_text(encoding="utf-8")
    old = "half = \"type == 'ordnance'\""
    assert old in text
    path = tmp_path / "fast_universal.toml"
    path.write_text(text.replace(old, f"half = {half}"), encoding="utf-8")
    result = run_cli("check-ruleset", str(path))
    assert result.code in (1, 2) and says in result.err and "card.trackers[1].half" in result.err, result.err
    assert "Traceback" not in result.err


def test_half_on_a_check_tracker_is_refused(tmp_path):
    text = (RULESETS / "fast_universal.toml").read_text(encoding="utf-8")
    old = 'id = "failed_morale"\nkind = "check"\n'
    assert old in text
    path = tmp_path / "fast_universal.toml"
    path.write_text(text.replace(old, old + "half = true\n"), encoding="utf-8")
    result = run_cli("check-ruleset", str(path))
    assert result.code in (1, 2) and "card.trackers[2].half" in result.err and "boxes" in result.err, result.err


def _layout(report, size: str = "poker"):
    from rosterkit.cards.fonts import Glyphs
    from rosterkit.cards.layout import CardLayout
    from rosterkit.cards.sizes import card_size

    contents = list(CardBuilder(report, "unit", []).cards())
    lay = CardLayout(card_size(size), Glyphs(), "x", list(report.ruleset.types))
    lay.fit(contents)
    lay.grow(contents)
    return lay, contents


def _texts(row) -> list[str]:
    return [op[6] for op in row.ops if op[0] == "T"]


def test_the_formation_is_one_choice_on_one_line_for_every_unit_but_a_vehicle(tmp_path):
    """Every unit is in one of two formations, a lone ogre or hero too: "Formation: [] Regiment
    [] Skirmish" on a line of its own, the failed-morale box elsewhere; a vehicle has none."""
    report = open_roster(SAMPLES / "fast_universal_ashen_host.toml", Registry()).report
    lay, contents = _layout(report)
    titles = set()
    for c in contents:
        rows = lay.tracks(c.tracks, 0)
        [line] = [r for r in rows if "Regiment" in _texts(r)]
        assert _texts(line) == ["Formation:", "Regiment", "Skirmish"], (c.title, _texts(line))
        assert len([op for op in line.ops if op[0] == "B"]) == 2
        titles.add(c.title)
    assert titles == {"Skirmishers", "Shieldbearers", "Cave Ogre", "Ember Shaman"}

    path = tmp_path / "tank.toml"
    path.write_text('format = 1\nname = "Tanks"\nruleset = "fast_universal"\n\n[[units]]\nname = "Tank"\n'
                    'type = "Vehicle"\ncount = 1\nweapons = ["50mm Cannon"]\n', encoding="utf-8")
    [tank] = cards(path).values()
    assert not any(t.label == "Formation" for t in tank.tracks)
