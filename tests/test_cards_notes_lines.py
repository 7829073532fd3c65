"""Lines to write on: every unit card with room for one or more has them under their heading (three
at most), whatever the other cards on its sheet have room for. (A rule that went by sheets left lines
off cards with room beside full ones; a rule of two lines at least left a card with room for one
blank beside ruled ones.)"""

from __future__ import annotations

import itertools

import pytest
from conftest import SAMPLES
from test_cards_layout import _marks_per_card

from rosterkit.cards.pdf import CardOptions
from rosterkit.cards.style import RULED_MAX

SAMPLE_NAMES = sorted(p.stem for p in SAMPLES.glob("*.toml"))


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
@pytest.mark.parametrize("sample", SAMPLE_NAMES)
def test_no_card_prints_more_than_three_lines_to_write_on(sample_cards, sample, size):
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    lines = [len(ys) for ys in _marks_per_card(shared.path, shared.result.sheet, ruled=True)]
    assert all(0 <= n <= RULED_MAX for n in lines), lines


@pytest.mark.parametrize("sample", ["heroic_gods_trojans", "for_the_masses_alvernan_host"])
def test_every_unit_card_of_a_roomy_sheet_has_lines(sample_cards, sample):
    """Tarot: the Trojans' Hector and Aeneas, and the Alvernan Men at Arms, had a blank stretch of
    four to five lines of type over their boxes and no lines, beside cards with them (room for one
    line with its heading, not two): every unit card of the first sheet has its lines now, or no
    room for them (read back: no stretch without text, box or rule over 4.5 times the body)."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size="tarot", paper="a4", summary=False))
    per = shared.result.sheet.per_page
    assert all(n >= 1 or hole < 4.5 for n, hole in _lines_and_holes(shared)[:per]), _lines_and_holes(shared)


def test_a_card_with_room_has_lines_though_no_card_beside_it_has_room_for_three(sample_cards):
    """heroic_gods, duplicate base IDs, poker: each card has the lines it has room for, none where
    a card beside it has room for three (read back: a card without lines has no stretch without
    text, box or rule over 4.5 times the body; its Wounded, Panicked, Locked and Spear lost boxes
    fill the room a line took before the Locked box)."""
    shared = sample_cards(SAMPLES / "heroic_gods_warning_duplicate_base_ids.toml",
                          CardOptions(rules=False, size="poker", paper="a4", summary=False))
    found = _lines_and_holes(shared)
    assert all(n >= 1 or hole < 4.5 for n, hole in found), found


def _lines_and_holes(shared) -> list[tuple[int, float]]:
    """Each card's lines to write on and its tallest stretch without text, box or rule, in bodies."""
    sheet, body = shared.result.sheet, shared.result.body_size
    return [(len(lines), max(a - b for a, b in itertools.pairwise(ys)) / body)
            for ys, lines in zip(_marks_per_card(shared.path, sheet), _marks_per_card(shared.path, sheet, ruled=True))]
