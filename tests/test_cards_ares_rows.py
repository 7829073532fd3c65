"""ARES: a row of wound boxes per figure, numbered, on the cards and in play, one label style per
export; and the reminder of what a lost figure costs its unit (read back from the PDF)."""

from __future__ import annotations

import re
import shutil

import pytest
from conftest import SAMPLES, load
from pypdf import PdfReader

from rosterkit.cards.pdf import CardOptions, export_cards
from rosterkit.editing.play import Game
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.validation import validate_report
from rosterkit.files.rosters import load_roster

SIZES = ["poker", "tarot", "a6"]


def cards_of(shared) -> list[str]:
    """The export's cards' texts in order, white space made single spaces."""
    text = "\n".join(shared.pages)
    return [re.sub(r"\s+", " ", c) for c in re.split(r"card \d+ of \d+", text)[:-1]]


def runs_style(card: str) -> str:
    """How the card sets a tracker's numbered runs: "over" (the label and what a run is on a line
    above the runs), "beside" (the label beside the first run), "" (no runs labelled "Wounds")."""
    if re.search(r"Wounds per (figure|element) 1 1 2", card):
        return "over"
    if re.search(r"Wounds 1 1 2", card):
        return "beside"
    return ""


@pytest.mark.parametrize("size", SIZES)
def test_royal_host_knights_card_has_a_numbered_row_of_six_per_figure(sample_cards, size):
    """King's Companions' card of four Human Knights (Wounds 6): four rows numbered 1 to 4, each
    of six boxes numbered 1 to 6 (not one run of boxes 1 to 24); the Noble's card, one figure,
    keeps its one line "Wounds 1 2 3 4 5 6"."""
    shared = sample_cards(SAMPLES / "ares_MISMATCH_royal_host.toml",
                          CardOptions(size=size, paper="a4", summary=False))
    cards = cards_of(shared)
    knights = [c for c in cards if "Human Knight × 4" in c]
    assert len(knights) == 1, cards
    wounds = knights[0].split("Wounds", 2)[2]  # (after the stat band's "Wounds")
    assert re.findall(r"(?:^|\s)(\d) 1 2 3 4 5 6(?= )", wounds) == ["1", "2", "3", "4"], wounds
    assert not re.search(r"\b(7|13|24)\b", wounds.split("Shaken")[0]), wounds
    noble = [c for c in cards if "Human Noble · " in c]
    assert len(noble) == 1 and re.search(r"Wounds 1 2 3 4 5 6 Shaken", noble[0]), noble
    assert "per figure" not in noble[0]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", [*sorted(p.stem for p in SAMPLES.glob("ares_*.toml")),
                                    "for_the_masses_alvernan_host", "for_the_masses_orc_warband",
                                    "for_the_masses_INVALID_thirteen_elements"])
def test_every_card_of_an_export_sets_its_numbered_rows_one_way(sample_cards, sample, size):
    """The cards of an export with rows of wounds a figure or element set them one way: all with
    "Wounds" and what a run is ("per figure") over the rows, or all with "Wounds" beside them;
    never one card each way (read back)."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    styles = {runs_style(c) for c in cards_of(shared)} - {""}
    assert len(styles) == 1, (styles, cards_of(shared))


def _export(tmp_path, roster_text: str, size: str) -> list[str]:
    path = tmp_path / "army.toml"
    path.write_text(roster_text, encoding="utf-8")
    roster = load_roster(path).roster
    report = cost_roster(load(roster.ruleset), roster)
    out = tmp_path / f"{size}.pdf"
    export_cards(report, validate_report(report), out, CardOptions(size=size, paper="a4", summary=False))
    text = "\n".join(p.extract_text() or "" for p in PdfReader(str(out)).pages)
    return [re.sub(r"\s+", " ", c).strip() for c in re.split(r"card \d+ of \d+", text)[:-1]]


LOSSES = '''format = 1
name = "Losses"
ruleset = "ares"

[[units]]
name = "Pike Block"
figure = "Human Pikeman"
count = 5

[[units]]
name = "Lord's Riders"

[[units.members]]
figure = "Human Noble"
count = 1

[[units.members]]
figure = "Human Knight"
count = 4

[[units]]
name = "Champion"
figure = "Human Hero"
count = 1
'''


@pytest.mark.parametrize("size", ["poker", "tarot"])
def test_a_unit_of_figures_says_what_a_lost_figure_costs_it(tmp_path, size):
    """Five Pikemen (Morale 2 each): a lost figure takes its 2 off the unit's morale score and
    1" off the command distance (Chapters One and Five); a unit of a Noble (Morale 5) and four
    Knights (Morale 4) says on each kind of figure's card what that figure costs (-5, -4), or "its
    Morale" on a card of both; a unit of one figure says nothing of it."""
    cards = _export(tmp_path, LOSSES, size)
    pikes = [c for c in cards if c.startswith("Pike Block")]
    assert len(pikes) == 1 and 'A figure lost: Unit Morale -2, Command -1"' in pikes[0], pikes
    riders = [c for c in cards if c.startswith("Lord's Riders")]
    if len(riders) == 2:
        noble, knight = (next(c for c in riders if kind in c) for kind in ("Human Noble", "Human Knight"))
        assert 'A figure lost: Unit Morale -5, Command -1"' in noble, noble
        assert 'A figure lost: Unit Morale -4, Command -1"' in knight, knight
    else:
        assert len(riders) == 1 and 'A figure lost: Unit Morale - its Morale, Command -1"' in riders[0], riders
    champion = [c for c in cards if c.startswith("Champion")]
    assert len(champion) == 1 and "figure lost" not in champion[0], champion


OLD_GAME = '''# A game in progress (rosterkit play).
format = 1
turn = 1

[[sides]]
roster = "ares_MISMATCH_royal_host.toml"
fingerprint = "VEY5-Q7NB-T2ZG-KDQ5"

[[sides.marks]]
unit = "King's Companions"
number = 1
kind = 2
tracker = "Wounds"
value = 2

[[sides.marks]]
unit = "King's Companions"
number = 1
kind = 2
tracker = "Wounds"
row = 3
value = 6

[[sides.marks]]
unit = "King's Companions"
number = 1
kind = 2
tracker = "Shaken"
row = 2
value = 1

[[sides]]
roster = "ares_crown_household.toml"
fingerprint = "6BQ4-S9GK-C8TM-K839"
'''


def knights_wounds(game: Game):
    unit = game.sides[0].units[0]
    return next(t for t in unit.trackers if t.label == "Wounds" and t.ref.kind == 1)


def test_play_marks_a_knights_wounds_by_figure_and_scores_it(tmp_path):
    """Play mode: the Knights' wounds are a row a figure ("Figure 1" ... "Figure 4", six boxes
    each); the third Knight's six wounds eliminate him: 88 victory points to the other side and
    the unit's morale 21 less his 4."""
    for name in ("ares_MISMATCH_royal_host.toml", "ares_crown_household.toml"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    game = Game.start(tmp_path / "ares_MISMATCH_royal_host.toml", tmp_path / "ares_crown_household.toml")
    knights = knights_wounds(game)
    assert (knights.rows, knights.per_row, knights.row_label) == (4, 6, "Figure")
    game.mark(knights.cell(row=0), 2)
    assert game.score(1).total == 0
    for _ in range(6):
        game.step(knights.cell(row=2))
    assert game.score(1).total == 88
    assert [e.text for e in game.effects(0, 0)] == ["Unit morale: 17 (was 21)"]


def test_a_game_saved_before_the_rows_were_labelled_still_loads(tmp_path):
    """A game file as play mode wrote it when the Knights' wounds were the card's track: its
    marks are where they were (the third Knight eliminated, the second shaken), and score so."""
    for name in ("ares_MISMATCH_royal_host.toml", "ares_crown_household.toml"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    (tmp_path / "old.game.toml").write_text(OLD_GAME, encoding="utf-8")
    game = Game.load(tmp_path / "old.game.toml")
    knights = knights_wounds(game)
    assert knights.row_label == "Figure"
    assert [game.value(knights.cell(row=r)) for r in range(4)] == [2, 0, 6, 0]
    shaken = next(t for t in game.sides[0].units[0].trackers if t.label == "Shaken" and t.ref.kind == 1)
    assert [game.value(shaken.cell(row=r)) for r in range(4)] == [0, 1, 0, 0]
    assert game.score(1).total == 88


@pytest.mark.parametrize("size", SIZES)
def test_each_weapon_gives_the_attackers_roll_with_it(sample_cards, size):
    """Chapter Four: a melee attack rolls the figure's Close Combat die and the weapon's damage die,
    a ranged attack its Ranged Combat die and the missile weapon's. Border Levy: each weapon's row
    puts the two together under Attack, after its Special, the figure's die first (the Noble's D10
    with his sword's D10, the Outrider's Ranged D8 with his bow's D8), and the name keeps its
    bracket."""
    cards = cards_of(sample_cards(SAMPLES / "ares_border_levy.toml", CardOptions(size=size, paper="a4", summary=False)))
    text = " ".join(cards)
    for row in ("Sword* (D10) *Magic D10+D10", "Pike* (D8) *Polearm D6+D8", "Sword (D6) D6+D6",
                "Bow (3/D8) D8+D8", "Dagger (D4) D4+D4", "Longbow (5/D10) D8+D10"):
        assert row in text, (size, row, text)
    assert all("Attack" in card for card in cards if "Weapon" in card), cards
