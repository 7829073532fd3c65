"""The room on large cards (tarot, A6): one notes area to write in, under a few lines, as on a printed record card."""

from __future__ import annotations

import itertools
import re

import pytest
from conftest import SAMPLES
from pdfdraw import squares
from pypdf import PdfReader
from test_cards_layout import _marks_per_card

from rosterkit.cards.pdf import CardOptions
from rosterkit.cards.style import RULED_MAX, RULED_PITCH

# (heroic_gods' chips without a Hero: the other sides' tarot cards give their room to the boxes' effects)
ROOMY = ["fast_universal_ashen_host", "for_the_masses_orc_warband", "heroic_gods_warning_chips_without_hero",
         "lego_combat_kingsbridge_garrison", "ares_MISMATCH_royal_host"]


@pytest.mark.parametrize("size", ["tarot", "a6"])
@pytest.mark.parametrize("sample", ROOMY)
def test_a_large_card_keeps_its_room_in_one_notes_area(sample_cards, sample, size):
    """A large card's content sits at the top with its own gaps, its trackers at the bottom, and
    the room between them is one blank stretch: three lines to write on at most, set with the
    trackers at the foot of the card under their Notes heading, rather than ruled filler down to
    the trackers or gaps drifting between its sections (a gap between the lines and the boxes read
    as left by mistake). Read back from the PDF: each card has at most one stretch with neither a
    line of text nor a rule taller than 4.5 times the body (the gaps around the trackers'
    heading), and on a card with lines to write on it ends at their heading, just over the first
    of them; the lines are evenly spaced."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    result = shared.result
    body = result.body_size
    cards = _marks_per_card(shared.path, result.sheet)
    ruled = _marks_per_card(shared.path, result.sheet, ruled=True)
    assert len(cards) == len(ruled) == result.cards
    for ys, lines in zip(cards, ruled):
        holes = [(a, b) for a, b in itertools.pairwise(ys) if a - b > body * 4.5]
        assert len(holes) <= 1, (holes, ys)
        assert not holes or not lines or max(lines) < holes[0][1] < max(lines) + body * 3, (holes, lines)
    for ys in ruled:
        steps = [a - b for a, b in itertools.pairwise(ys)]
        assert all(abs(step - body * RULED_PITCH) < 0.05 for step in steps), steps
    # (as on a small card; royal host's Archers at A6 have room for two, their wound rows on two lines)
    assert 1 <= max(len(ys) for ys in ruled) <= RULED_MAX


def test_the_army_card_has_its_notes_under_the_god_chips_and_events(sample_cards):
    """heroic_gods' army card on an A6 card with room (the Trojans' six God events; the Achaeans'
    nine fill theirs at the larger body): the God chips and events follow the subtitle, read from
    the top as a list, and the room under them is a notes area (the heading and three lines to
    write on, read back from the PDF); an army card without that room has no gap over its chips."""
    shared = sample_cards(SAMPLES / "heroic_gods_trojans.toml", CardOptions(size="a6", paper="a4", summary=False))
    result = shared.result
    army = re.split(r"card \d+ of \d+", "\n".join(shared.pages))[0]
    assert "God chips" in army
    assert army.index("God chips") < army.index("GOD EVENTS") < army.index("NOTES"), army
    assert len(_marks_per_card(shared.path, result.sheet, ruled=True)[0]) == RULED_MAX


def _free_room(shared) -> list[tuple[int, float]]:
    """Each card's lines to write on, and the room left between the last of them and the first
    thing under it (the top of a box, a tracker's label or heading): card by card, read back from
    the PDF; (0, 0.0) for a card without lines."""
    sheet = shared.result.sheet
    marks = _marks_per_card(shared.path, sheet)
    ruled = _marks_per_card(shared.path, sheet, ruled=True)
    tops: list[list[float]] = []
    for page in PdfReader(str(shared.path)).pages:
        slots = [sheet.slot(i) for i in range(sheet.per_page)]
        found: dict[int, list[float]] = {}
        for x, y, side in squares(page):
            for i, (sx, sy) in enumerate(slots):
                if sx <= x <= sx + sheet.card_width and sy <= y <= sy + sheet.card_height:
                    found.setdefault(i, []).append(y + side)
        tops += [found.get(i, []) for i in range(sheet.per_page)]
    out = []
    for ys, lines, boxes in zip(marks, ruled, tops):
        if not lines:
            out.append((0, 0.0))
            continue
        under = [y for y in ys + boxes if y < min(lines) - 0.01]
        assert under, (lines, ys)  # (the card's boxes, under its notes)
        out.append((len(lines), min(lines) - max(under)))
    return out


def test_a_sheet_with_a_full_unit_card_keeps_three_lines(sample_cards):
    """A sheet where one unit card has room for lines and its neighbour has none keeps three lines
    at most on each (a card ruled to its boxes beside a card with none would read as two designs):
    kingsbridge garrison's first tarot sheet, its Gate spearmen and Wall crossbowmen full, read back."""
    shared = sample_cards(SAMPLES / "lego_combat_kingsbridge_garrison.toml",
                          CardOptions(size="tarot", paper="a4", summary=False))
    per = shared.result.sheet.per_page
    first = [n for n, _ in _free_room(shared)][:per]
    assert 0 in first and max(first) == RULED_MAX, first



def _sides(shared) -> list[list[float]]:
    """Each card's square boxes' sides, card by card in the order of the sheets' slots (cards
    without boxes left out), read back from the PDF's squares."""
    sheet = shared.result.sheet
    cards = []
    for page in PdfReader(str(shared.path)).pages:
        slots = [sheet.slot(i) for i in range(sheet.per_page)]
        found: dict[int, list[float]] = {}
        for left, bottom, side in squares(page):
            for i, (sx, sy) in enumerate(slots):
                if sx <= left <= sx + sheet.card_width and sy <= bottom <= sy + sheet.card_height:
                    found.setdefault(i, []).append(round(side, 2))
        cards += [found[i] for i in sorted(found)]
    return cards


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
@pytest.mark.parametrize("sample", ["fast_universal_ashen_host", "fast_universal_iron_vanguard",
                                    "fast_universal_INVALID_hero_heavy"])
def test_a_cards_boxes_to_tick_are_one_size(sample_cards, sample, size):
    """fast_universal's tarot cards printed tiny Regiment/Skirmish boxes (the formation, a choice)
    beside large Failed morale and Disordered boxes: a box to tick has one size on a card whatever
    its tracker, and the boxes a tracker counts with (casualties, numbered; the hero's die track)
    keep theirs. Read back: each card's squares come in two sizes at most, the card's three or four
    boxes to tick (Regiment, Skirmish, Disordered, Failed morale) of one of them."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    cards = _sides(shared)
    assert len(cards) == shared.result.cards - shared.result.reference_cards
    for sides in cards:
        assert len(set(sides)) <= 2, sides
        assert max(sides.count(side) for side in sides) >= 3, sides


@pytest.mark.parametrize("size, bodies", [("poker", (7.0, 8.25)), ("tarot", (9.75, 10.5)), ("a6", (13.0, 13.5))])
def test_a_soldiers_stun_levels_carry_his_number(sample_cards, size, bodies):
    """LEGO's stun tracker printed "1 2 3 4  1 2 3 4", nothing saying which soldier a run was: each
    soldier's run opens with his number in bold ("1 [][][][]  2 [][][][]"), two soldiers to a line
    (one where the boxes grow to a finger tip's 6.1 mm), and the crossbowmen's and musketeers' reload boxes likewise; a lone soldier's run needs none
    (read back string by string: the boxes are empty, so the cards' text runs the numbers together).
    The type keeps its size (each army's body as before, with the attack and damage rolls on every
    card and the wake-up rolls over every run of the first line: half a point at poker)."""
    from test_cards_lego import _words
    from test_cards_stun_heads import blocks

    for sample, body in zip(("lego_combat_kingsbridge_garrison", "lego_combat_blackwater_corsairs"), bodies):
        shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
        numbers = [[w for w in page if w[4].isdigit() and "Bold" in w[5]] for page in _words(shared.path)]
        seen = {"Stun": [], "Reload": []}
        for label, found in seen.items():
            for block in blocks(shared.path, label, size, ()):
                tags = []
                for left, bottom, _, side in (run[0] for run in block["runs"]):
                    near = [(left - w[1], int(w[4])) for w in numbers[block["page"]]
                            if bottom <= w[2] <= bottom + side and 0 <= left - w[1] < side]
                    tags += [min(near)[1]] if near else []
                runs = len(block["runs"])
                assert tags == (list(range(1, runs + 1)) if runs > 1 else []), (label, tags, runs)
                # (two soldiers a line, or one where the boxes grew to 6.1 mm with the room that leaves)
                assert runs == 1 or label == "Reload" or len([r for r in block["runs"] if r[0] in block["lines"][0]]) == 2 \
                    or block["lines"][0][0][3] >= 17.25 - 0.01
                found.append(runs)
        assert max(seen["Stun"]) >= 4 and 1 in seen["Stun"] and seen["Reload"], seen
        assert shared.result.body_size >= body, (sample, shared.result.body_size)


def test_an_army_card_without_notes_has_its_chips_under_its_subtitle(sample_cards):
    """The Achaeans' army card on A6 (nine God events, no room for notes): its God chips follow the
    subtitle, the card's spare room under its events, not in a gap over the chips."""
    shared = sample_cards(SAMPLES / "heroic_gods_achaeans.toml", CardOptions(size="a6", paper="a4", summary=False))
    at: dict[str, float] = {}

    def visit(text, cm, tm, font, size):
        for key in ("Army ·", "God chips"):
            if text.startswith(key) and key not in at:
                at[key] = cm[5] + tm[5] * cm[3]
    PdfReader(str(shared.path)).pages[0].extract_text(visitor_text=visit)
    assert at["Army ·"] - at["God chips"] < 3.5 * shared.result.body_size, (at, shared.result.body_size)
