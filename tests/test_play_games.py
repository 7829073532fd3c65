"""A short game of each ruleset through the play-mode core, without the interface: marks,
undo and redo, the game read back from its file alone (as after a crash), and victory points
equal to what the game's text gives, worked out by hand from the sample armies' numbers."""

from __future__ import annotations

import shutil

import pytest
from conftest import SAMPLES

from rosterkit.editing.play import ARMY, Game, MarkRef


@pytest.fixture
def table(tmp_path):
    """The sample armies copied to a folder of their own (games are written beside them)."""
    for p in SAMPLES.glob("*.toml"):
        shutil.copy(p, tmp_path / p.name)
    return tmp_path


def tracker(game: Game, side: int, unit: str, label: str, kind: int | None = 0):
    u = next(u for u in game.sides[side].units if u.name == unit)
    return next(t for t in u.trackers if t.label == label and t.ref.kind == kind)


def crash(game: Game) -> Game:
    """The program gone without a word: the game comes back from its file alone."""
    path = game.path
    del game
    return Game.load(path)


def test_ares_scores_each_eliminated_or_routed_figure_at_its_combat_rating(table):
    game = Game.start(table / "ares_border_levy.toml", table / "ares_hill_clans.toml")
    assert game.path == table / "ares_border_levy.game.toml" and game.path.exists() and game.turn == 1
    # the Hill Clans' Thane (rating 75, 5 wounds) loses every wound: eliminated
    thane = tracker(game, 1, "Thane's Hearthguard", "Wounds", 0)
    assert (thane.rows, thane.per_row) == (1, 5)
    for _ in range(5):
        game.step(thane.cell(row=0))
    # one of the five Dwarf Warriors (rating 30, morale 2) routs
    routed = tracker(game, 1, "Thane's Hearthguard", "Routed", 1)
    assert routed.rows == 5
    game.step(routed.cell(row=1))
    # the Hill Giant (rating 150) takes 9 of its 10 wounds: not eliminated, no points
    giant = tracker(game, 1, "Hired Giant", "Wounds")
    game.mark(giant.cell(), 9)
    # and the Border Levy loses one of two Longbowmen (rating 40, 3 wounds each)
    bows = tracker(game, 0, "Bowmen", "Wounds")
    assert (bows.rows, bows.per_row) == (2, 3)
    game.mark(bows.cell(row=1), 3)
    game.next_turn()

    # Border Levy: 75 (the Thane) + 30 (the routed Warrior) = 105; Hill Clans: 40 (a Longbowman)
    assert game.score(0).total == 75 + 30
    assert game.score(1).total == 40
    assert {(line.unit, line.points) for line in game.score(0).lines} == {
        ("Thane's Hearthguard (Dwarf Thane)", 75), ("Thane's Hearthguard (Dwarf Warrior)", 30)}
    # unit morale after losses: 1 x 4 (Thane) + 5 x 2 (Warriors) = 14 before, 4 x 2 = 8 now
    effects = game.effects(1, 0)
    assert [e.text for e in effects] == ["Unit morale: 8 (was 14)"]
    assert "sum of its figures' morale" in effects[0].rule

    # undo the turn and the Longbowman's loss; redo them
    assert game.undo() and game.turn == 1
    assert game.undo() and game.score(1).total == 0
    assert game.redo() and game.score(1).total == 40
    assert game.can_redo and game.redo() and game.turn == 2 and not game.can_redo

    back = crash(game)
    assert back.turn == 2
    assert back.score(0).total == 105 and back.score(1).total == 40
    assert back.tracker(giant.ref).values == (9,)
    assert [e.text for e in back.effects(1, 0)] == ["Unit morale: 8 (was 14)"]
    assert not back.can_undo  # a game read back starts a fresh history


def test_ares_with_one_side_shows_the_points_its_losses_give_away(table):
    game = Game.start(table / "ares_border_levy.toml")
    outrider = tracker(game, 0, "Outrider", "Routed")
    game.step(outrider.cell())
    # the routed Mounted Archer scores its Combat Rating, 99, for the opponent
    score = game.score(0)
    assert score.losses_of == 0 and score.total == 99
    assert "Victory points its losses give the opponent: 99" in game.summary_text()


def test_heroic_gods_scores_5_3_2_1_and_halves_a_wounded_figure(table):
    game = Game.start(table / "heroic_gods_achaeans.toml", table / "heroic_gods_trojans.toml")
    # Achaeans' losses: Achilles wounded (a hero: 3)
    game.step(tracker(game, 0, "Achilles", "Wounded").cell())
    # Trojans' losses: Hector wounded, then dead (5, not 5 + 3); Paris wounded (3);
    # a Trojan spearman dead (2); the Lycian archer wounded (1)
    game.step(tracker(game, 1, "Hector", "Wounded").cell())
    game.step(tracker(game, 1, "Hector", "Dead").cell())
    game.step(tracker(game, 1, "Paris", "Wounded").cell())
    game.step(tracker(game, 1, "Trojan spearman", "Dead").cell())
    game.step(tracker(game, 1, "Lycian archer", "Wounded").cell())
    # a second press on a one-box tracker stays at its bound
    game.step(tracker(game, 1, "Lycian archer", "Wounded").cell())
    assert game.tracker(tracker(game, 1, "Lycian archer", "Wounded").ref).values == (1,)

    assert game.score(0).total == 5 + 3 + 2 + 1
    assert game.score(1).total == 3
    # Achilles A 8, D 7, M 6 wounded: halved and rounded up, 4, 4, 3
    assert [e.text for e in game.effects(0, 0)] == ["Wounded: A 4, D 4, M 3"]
    # Paris A 3, D 4, M 7, Bow 7: 2, 2, 4, Bow 4
    assert [e.text for e in game.effects(1, 2)] == ["Wounded: A 2, D 2, M 4, Bow 4"]
    assert game.effects(1, 0) == []  # Hector is dead, no longer a wounded figure

    # the army's own trackers: a God chip spent, the Heal event called
    chips = next(t for t in game.sides[0].army if t.label == "God chips")
    events = next(t for t in game.sides[0].army if t.label == "God events")
    assert chips.ref.unit == ARMY and chips.per_row == 3
    game.step(chips.cell())
    game.mark(events.cell(item=events.items.index("Heal")), 1)
    with pytest.raises(ValueError):
        game.mark(events.cell(item=0), 2)  # a check is 0 or 1

    assert game.undo() and game.undo()
    assert game.tracker(chips.ref).total == 0
    game.redo()
    back = crash(game)
    assert back.tracker(chips.ref).total == 1 and back.tracker(events.ref).total == 0
    assert back.score(0).total == 11 and back.score(1).total == 3
    assert 'item = "Heal"' not in game.path.read_text()  # the Heal mark was undone and not redone


def test_fast_universal_scores_nothing_and_shows_the_hero_die(table):
    game = Game.start(table / "fast_universal_iron_vanguard.toml", table / "fast_universal_ashen_host.toml")
    spear = tracker(game, 0, "Spearmen", "Casualties")
    assert (spear.rows, spear.half) == (10, 0)  # (only ordnance has a rule on half its starting miniatures)
    for row in range(5):
        game.step(spear.cell(row=row))
    hero = tracker(game, 0, "Captain Aldric", "Hits", None)
    assert hero.steps == ("1d8", "1d6", "1d4")
    for _ in range(5):  # two hits too many: the die track stops at its last step
        game.step(hero.cell())
    morale = tracker(game, 1, "Skirmishers", "Failed morale", None)
    game.step(morale.cell())

    for side in (0, 1):
        score = game.score(side)
        assert not score.scored and score.total == 0 and score.lines == []
        assert "no victory points" in score.note
    # 10 Spearmen, 5 lost in all: the morale check counts one action's losses, which no mark tells
    assert game.effects(0, 0) == []
    assert game.tracker(hero.ref).shown() == "removed (3 hits)"  # d8 -> d6 -> d4, and a hit at d4
    assert [e.label for e in game.effects(1, 0)] == ["Failed morale"]

    game.undo()
    assert game.effects(1, 0) == []
    back = crash(game)
    assert back.tracker(spear.ref).total == 5 and back.tracker(hero.ref).total == 3
    assert back.effects(1, 0) == []


def test_for_the_masses_marks_wounds_per_element_and_scores_nothing(table):
    game = Game.start(table / "for_the_masses_orc_warband.toml", table / "for_the_masses_alvernan_host.toml")
    men = tracker(game, 1, "Men at Arms (left)", "Wounds")
    assert (men.rows, men.per_row, men.row_label) == (8, 3, "Element")  # 8 elements of 3 wounds
    game.mark(men.cell(row=0), 3)
    game.mark(men.cell(row=1), 1)
    with pytest.raises(ValueError):
        game.mark(men.cell(row=2), 4)
    assert [e.text for e in game.effects(1, 1)] == ["Elements lost: 1 of 8 elements"]
    assert game.score(0).total == 0 and not game.score(0).scored
    game.undo()
    back = crash(game)
    assert back.tracker(men.ref).values[:2] == (3, 0)
    assert [e.text for e in back.effects(1, 1)] == ["Elements lost: 1 of 8 elements"]


def test_lego_marks_casualties_and_stun_and_scores_nothing(table):
    game = Game.start(table / "lego_combat_blackwater_corsairs.toml", table / "lego_combat_kingsbridge_garrison.toml")
    casualties = tracker(game, 0, "Deckhands", "Casualties")
    stun = tracker(game, 0, "Deckhands", "Stun")
    assert (casualties.rows, stun.rows, stun.per_row) == (5, 5, 4)  # 5 deckhands, stun-1 to stun-4 each
    game.step(casualties.cell(row=0))
    game.mark(stun.cell(row=1), 2)
    game.next_turn()
    assert game.score(1).total == 0 and "no victory points" in game.score(1).note
    assert [e.label for e in game.effects(0, 0)] == ["Stunned"]
    assert game.effects(0, 0)[0].text.startswith("Stunned: 1 knocked down")
    game.undo()
    game.undo()
    assert game.effects(0, 0) == [] and game.turn == 1
    game.redo()
    back = crash(game)
    assert back.tracker(stun.ref).values[1] == 2 and back.turn == 1
    assert back.tracker(casualties.ref).total == 1


def test_a_cell_outside_a_tracker_is_refused(table):
    game = Game.start(table / "ares_border_levy.toml")
    bows = tracker(game, 0, "Bowmen", "Wounds")
    with pytest.raises(ValueError):
        game.mark(bows.cell(row=2), 1)  # two Longbowmen: rows 0 and 1
    with pytest.raises(ValueError):
        game.mark(MarkRef(0, 0, 0, 99), 1)
    with pytest.raises(ValueError):
        game.mark(bows.cell(), -1)


def test_the_half_mark_falls_where_the_half_crew_effect_begins_for_odd_units(table):
    """A crew of 3: half crew (half or fewer left) after 2 casualties, not 1; the card's bar,
    the play screen's mark and the effect agree."""
    from rosterkit.cards.content import CardBuilder
    from rosterkit.files.rulesets import Registry
    from rosterkit.workspace import open_roster

    path = table / "fast_universal_INVALID_hero_heavy.toml"
    path.write_text(path.read_text() + '\n[[units]]\nname = "Cannon Crew"\ntype = "Ordnance"\ncount = 3\n'
                    'weapons = ["50mm Cannon"]\n')
    game = Game.start(path, table / "fast_universal_ashen_host.toml")
    crew = tracker(game, 0, "Cannon Crew", "Casualties")
    assert (crew.rows, crew.half) == (3, 2)
    unit = next(i for i, u in enumerate(game.sides[0].units) if u.name == "Cannon Crew")
    game.step(crew.cell(row=0))
    assert [e.label for e in game.effects(0, unit)] == []
    game.step(crew.cell(row=1))
    assert [e.label for e in game.effects(0, unit)] == ["Half crew"]

    report = open_roster(path, Registry()).report
    card = next(c for c in CardBuilder(report, "unit", []).cards() if c.title == "Cannon Crew")
    [casualties] = [t for t in card.tracks if "Casualties" in (t.label, t.heading)]
    assert (casualties.boxes, casualties.mark) == (3, 2)
