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


def test_each_card_gives_its_figures_whole_rolls(tmp_path):
    """A card gives a figure's melee and ranged rolls added up, as the rules add them: the action
    dice (one type lower in melee for missile troops, 1d4 for an ordnance crew, the die below a
    ranged hero's own) plus Fight or Shoot and the weapon's modifier; a vehicle (its melee is its
    move) and an ordnance crew's weapon (its row of the weapon table) give no such roll. The text
    list keeps the melee die alone, and the card no longer prints it as a line of its own."""
    path = with_crew(tmp_path)
    path.write_text(path.read_text(encoding="utf-8") + '\n[[units]]\nname = "Gunner Captain"\ntype = "Hero"\n'
                    'count = 1\nweapons = ["Pistol"]\nstats = { dice = 2, die = 10, move = 6, defense = 9 }\n'
                    '\n[[units]]\nname = "Tank"\ntype = "Vehicle"\ncount = 1\nweapons = ["50mm Cannon"]\n'
                    '\n[[units]]\nname = "Ogres"\ntype = "Elite"\ncount = 2\nweapons = ["Big fist"]\n'
                    'stats = { dice = 2, die = 6, move = 6, fight = 1, defense = 10 }\n',
                    encoding="utf-8")
    by_title = cards(path)
    rolls = {t: [f for f in c.reminder.split(" · ") if f.startswith(("Melee", "Shoot", "Regiment"))]
             for t, c in by_title.items()}
    # (the miniatures in contact roll in melee, and a regiment's second rank: Melee)
    ranks = "Regiment: its 2nd rank rolls too"
    assert rolls["Archers"] == ["Melee: 1d4 per miniature in contact", ranks, "Shoot: 1d6+1 per miniature"]
    assert rolls["Spearmen"] == ["Melee: 1d6 per miniature in contact", ranks]
    assert rolls["Ogres"] == ["Melee: 2d6+2 per miniature in contact", ranks]  # F 1 and the big fist's +1
    assert rolls["Captain Aldric"] == ["Melee: 1d8+1"]  # one figure: no "per miniature", no ranks
    assert rolls["Gunner Captain"] == ["Melee: 2d8", "Shoot: 2d10+1"]
    assert rolls["Cannon Crew"] == ["Melee: 1d4 per miniature in contact", ranks]
    assert rolls["Tank"] == []
    assert not any(n.startswith("Melee: AD") for c in by_title.values() for n in c.asides)


def test_each_unit_card_says_what_the_foes_roll_costs_it(tmp_path):
    """Melee and ranged: the attack's sum divided by the target's Defense is the miniatures it
    loses. A unit's card puts its own Defense in ("Losses: foe's sum ÷ 8, round down", the Ogres' ÷ 10, the
    ordnance crew's too); a hero's says its hits the same way on its Hits track, as our reading;
    a vehicle (its own damage table) neither."""
    path = with_crew(tmp_path)
    path.write_text(path.read_text(encoding="utf-8") + '\n[[units]]\nname = "Tank"\ntype = "Vehicle"\ncount = 1\n'
                    'weapons = ["50mm Cannon"]\n\n[[units]]\nname = "Ogres"\ntype = "Elite"\ncount = 2\n'
                    'weapons = ["Big fist"]\nstats = { dice = 2, die = 6, move = 6, fight = 1, defense = 10 }\n',
                    encoding="utf-8")
    by_title = cards(path)
    losses = {t: [f for f in c.reminder.split(" · ") if f.startswith("Losses")] for t, c in by_title.items()}
    # (the quotient: whole miniatures, the rest of the sum lost)
    eight = ["Losses: foe's sum ÷ 8, round down"]
    assert losses == {"Spearmen": eight, "Archers": eight, "Cannon Crew": eight,
                      "Ogres": ["Losses: foe's sum ÷ 10, round down"],
                      "Captain Aldric": [], "Tank": []}, losses
    hits = next(t for t in by_title["Captain Aldric"].tracks if t.label == "Hits")
    assert hits.note == "hits = foe's sum ÷ D (our reading)"


def test_every_unit_has_a_disordered_box_and_play_says_what_it_costs(tmp_path):
    """A unit that moves too far or touches terrain is disordered: its next action does nothing.
    The box sits with the single boxes on every card (a hero's too), and play shows the effect."""
    report = open_roster(SAMPLES / "fast_universal_iron_vanguard.toml", Registry()).report
    lay, contents = _layout(report)
    for c in contents:
        rows = lay.tracks(c.tracks, 0)
        [line] = [r for r in rows if "Disordered" in _texts(r)]
        assert "Formation:" not in _texts(line), c.title
    path = tmp_path / "fast_universal_iron_vanguard.toml"
    path.write_text((SAMPLES / path.name).read_text(encoding="utf-8"), encoding="utf-8")
    game = Game.start(path)
    hero_at, hero = next((i, u) for i, u in enumerate(game.sides[0].units) if u.name == "Captain Aldric")
    box = next(t for t in hero.trackers if t.label == "Disordered")
    game.step(box.cell())
    assert [e.text for e in game.effects(0, hero_at)] == ["Disordered: its next action does nothing"]


def test_a_hero_card_keeps_the_body_size_with_its_new_boxes(sample_cards):
    """The formation line and the disordered box on a hero's card leave the poker body where it
    was: the die track's note goes beside the dice or on a line under them, whichever takes less
    height."""
    from rosterkit.cards.pdf import CardOptions

    # (Warlord Ghor's card also carries the two lines of his Fireball warning, and his rolls: 8.75 pt
    # before them)
    for sample, hero, body in (("fast_universal_iron_vanguard", "Captain Aldric", 9),
                               ("fast_universal_INVALID_hero_heavy", "Warlord Ghor", 8.5)):
        shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size="poker", paper="a4", summary=False))
        assert shared.result.body_size == body, (sample, shared.result.body_size)
        report = open_roster(SAMPLES / f"{sample}.toml", Registry()).report
        lay, contents = _layout(report)
        card = next(c for c in contents if c.title == hero)
        rows = lay.tracks(card.tracks, 0)
        [at] = [i for i, r in enumerate(rows) if "1d4" in _texts(r)]
        assert "sum ÷ D" in " ".join(_texts(rows[at]) + _texts(rows[at + 1])), [_texts(r) for r in rows[at:at + 2]]


def test_the_text_list_gives_the_melee_die_only_where_there_is_one():
    result = run_cli("text", str(SAMPLES / "fast_universal_iron_vanguard.toml"))
    assert result.code == 0, result.err
    lines = [line.strip() for line in result.out.splitlines()]
    archers = lines.index(next(line for line in lines if line.startswith("Archers")))
    assert lines[archers + 2] == "Melee: 1d4"
    assert sum(line.startswith("Melee") for line in lines) == 1  # not the spearmen's or the captain's


def test_a_typed_list_without_the_melee_line_reads_back(tmp_path):
    """The melee die is worked out from the weapons and die: a list typed by hand without its
    line is read as meant, and the list as written (with it) reads back too."""
    typed = ("++ Iron Vanguard [Fast Universal Wargame] [172 / 500 pts] ++\n\nBasic\n"
             "Archers [172 pts]: 4x Archers, Bow/crossbow\n    1d6 M:6 F:0 S:0 D:8\n")
    for text in (typed, typed + "    Melee: 1d4\n"):
        src = tmp_path / "list.txt"
        src.write_text(text, encoding="utf-8")
        out = tmp_path / "read.toml"
        out.unlink(missing_ok=True)
        result = run_cli("import", str(src), "-o", str(out))
        assert result.code in (0, 1), result.err
        assert out.exists() and "Bow/crossbow" in out.read_text(encoding="utf-8")


def test_a_lone_miniature_has_no_failed_morale_box():
    """The Ashen Host's Cave Ogre, one miniature: losing half its current number removes it, so it
    never checks morale and its card has no failed-morale box; the units of several keep theirs."""
    by_title = cards(SAMPLES / "fast_universal_ashen_host.toml")
    ogre = by_title["Cave Ogre"]
    assert not any(t.label == "Failed morale" for t in ogre.tracks), [t.label for t in ogre.tracks]
    several = [c for title, c in by_title.items() if title != "Cave Ogre" and c.type_name != "Hero"]
    assert several and all(any(t.label == "Failed morale" for t in c.tracks) for c in several)


def test_a_card_names_the_weapon_the_roster_lists(tmp_path):
    """The Ashen Host lists "Spear", "Bow" and "Big fist", each an alias of a row of the book's
    weapon table ("Claw/hand/spear/sword"): the cards print the weapon the figure carries, not the
    whole row; a roster that lists the row keeps it."""
    report = open_roster(SAMPLES / "fast_universal_ashen_host.toml", Registry()).report
    weapons = {c.title: [cells[0] for _, cells, _ in c.weapons.rows]
               for c in CardBuilder(report, "unit", []).cards() if c.weapons is not None}
    assert weapons["Cave Ogre"] == ["Big fist"] and weapons["Shieldbearers"] == ["Spear"], weapons
    assert weapons["Skirmishers"] == ["Bow"], weapons
    listed = tmp_path / "rows.toml"
    listed.write_text((SAMPLES / "fast_universal_iron_vanguard.toml").read_text(encoding="utf-8")
                      .replace('weapons = ["Spear"]', 'weapons = ["Claw/hand/spear/sword"]'), encoding="utf-8")
    vanguard = open_roster(listed, Registry()).report
    rows = [cells[0] for c in CardBuilder(vanguard, "unit", []).cards() if c.weapons is not None
            for _, cells, _ in c.weapons.rows]
    assert "Claw/hand/spear/sword" in rows, rows


def test_fireball_on_the_shamans_card_says_how_it_lands(sample_cards):
    """The book's Fireball: a marker placed by eye on a target meant to be within 12", two of the
    hero's action dice showing evens, a marker past 12" moved back to 12", a 3" template hitting
    each figure under it for the sum of the evens. The Ember Shaman's poker card says each of
    these (the point by eye and the move back were missing), and keeps its Melee line."""
    from pypdf import PdfReader

    from rosterkit.cards.pdf import CardOptions

    shared = sample_cards(SAMPLES / "fast_universal_ashen_host.toml", CardOptions(size="poker", paper="a4", summary=False))
    text = " ".join(" ".join((p.extract_text() or "").split()) for p in PdfReader(str(shared.path)).pages)
    shaman = text[text.index("Ember Shaman"):]
    shaman = shaman[:shaman.index("card 4 of")]
    assert "Melee: 2d6" in shaman, shaman
    rule = shaman[shaman.index("Fireball:"):]
    for fact in ("Aimed by eye within 12\"", "two even AD succeed", "past 12\" it lands at 12\"", "3\" blast",
                 "hits all under it for the sum of the evens"):
        assert fact in rule, (fact, rule)
