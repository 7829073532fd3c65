"""A card's spare room in one place, and its boxes as large as the card allows.

Every card keeps its content at the top with its own gaps and its trackers at the bottom, with three
lines to write on at most and the rest of its room blank between them (not ruled filler, not gaps
drifting between sections); the boxes to tick grow with the card.
"""

from __future__ import annotations

import statistics

import pytest
from conftest import SAMPLES
from pdfdraw import squares
from pypdf import PdfReader
from test_cards_layout import _marks_per_card

from rosterkit.cards.pdf import CardOptions

MM = 72 / 25.4


def _options(size: str) -> CardOptions:
    return CardOptions(size=size, paper="a4", summary=False)


def _words(shared) -> list[dict[str, list[float]]]:
    """Each card's texts (as drawn, one string each) with how far below the card's top edge each
    is set, card by card in the order of the sheets' slots."""
    sheet = shared.result.sheet
    cards = []
    for page in PdfReader(str(shared.path)).pages:
        slots = [sheet.slot(i) for i in range(sheet.per_page)]
        found: dict[int, dict[str, list[float]]] = {}

        def visit(text, cm, tm, font, size, found=found, slots=slots):
            if not text.strip():
                return
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            for i, (sx, sy) in enumerate(slots):
                if sx <= x <= sx + sheet.card_width and sy <= y <= sy + sheet.card_height:
                    found.setdefault(i, {}).setdefault(text.strip(), []).append(sy + sheet.card_height - y)

        page.extract_text(visitor_text=visit)
        cards += [found[i] for i in sorted(found)]
    return cards


def _box_sides(shared) -> list[float]:
    """The sides of the export's square boxes (in points, as printed on the sheet)."""
    return [side for page in PdfReader(str(shared.path)).pages for _, _, side in squares(page)]


@pytest.mark.parametrize("size", ["tarot", "a6"])
@pytest.mark.parametrize("sample", ["fast_universal_ashen_host", "for_the_masses_orc_warband",
                                    "heroic_gods_warning_chips_without_hero", "ares_MISMATCH_royal_host"])
def test_a_large_card_has_three_lines_to_write_on_at_most(sample_cards, sample, size):
    """Nine or ten ruled lines down to the trackers read as filler on a tarot or A6 card as on a
    poker card: every card, the army card too, has three lines to write on at most (read back from
    the PDF: the ruled lines on each card), and a card with room has some."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", _options(size))
    lines = [len(ys) for ys in _marks_per_card(shared.path, shared.result.sheet, ruled=True)]
    assert len(lines) == shared.result.cards
    assert 1 <= max(lines) <= 3, lines  # (royal host at A6: two, its Archers' wound rows on two lines)


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_sections_stand_at_the_same_heights_on_cards_alike(sample_cards, size):
    """fast_universal_iron_vanguard's Spearmen and Archers: on a poker card the Archers' sections
    stood lower than the Spearmen's, the card's spare room spread over the gaps between them. Read
    back: the stat band's labels stand as far below the card's top on both cards, and the section
    under the band (the Spearmen's weapons; the Archers' melee die, then their weapons) follows it
    at its own gap, the room left below the sections rather than between them (the Archers'
    weapons at a line's gap under the line above them, their morale reminder's last)."""
    shared = sample_cards(SAMPLES / "fast_universal_iron_vanguard.toml", _options(size))

    def at(words: dict[str, list[float]], start: str) -> float:
        found = next((ys[0] for text, ys in words.items() if text.startswith(start)), None)
        assert found is not None, start
        return found

    cards = {next(iter(words)).split()[0]: words for words in _words(shared)}
    spear, archer = cards["Spearmen"], cards["Archers"]
    band = "Action dice " if size == "a6" else "AD "  # (the band's first label: spelt out on A6)
    assert abs(at(spear, band) - at(archer, band)) < 0.05
    body = shared.result.body_size
    # each section at its natural gap below the one before (at most a line and a half), not pushed down
    assert at(spear, "Weapon ") - at(spear, band) < at(archer, "Weapon ") - at(archer, band)
    weapons = at(archer, "Weapon ")
    above = max(y for ys in archer.values() for y in ys if y < weapons - 0.01)
    assert at(archer, "Melee") < above and weapons - above < 3 * body, (weapons, above)


@pytest.mark.parametrize("size", ["tarot", "a6"])
@pytest.mark.parametrize("sample", ["fast_universal_iron_vanguard", "fast_universal_ashen_host",
                                    "for_the_masses_alvernan_host"])
def test_a_large_card_has_boxes_a_finger_ticks(sample_cards, sample, size):
    """The Spearmen's casualty boxes were about 6 mm on a poker card and 4 mm on an A6 one: on a
    tarot or A6 card with room for them, the boxes a tracker counts with are 6 mm or more, and never
    smaller than the same army's on a poker card (read back: the squares each export draws, most of
    them a tracker's; a choice's boxes, "Formation: Regiment Skirmish", keep to its line)."""
    large = _box_sides(sample_cards(SAMPLES / f"{sample}.toml", _options(size)))
    poker = _box_sides(sample_cards(SAMPLES / f"{sample}.toml", _options("poker")))
    assert large and poker
    counting, at_poker = statistics.median(large), statistics.median(poker)
    assert counting >= 6 * MM - 0.01, (counting / MM, size)
    assert counting >= at_poker - 0.01, (counting / MM, at_poker / MM)


@pytest.mark.parametrize("size", ["tarot", "a6"])
def test_heroic_gods_boxes_are_alike_at_one_card_size(sample_cards, size):
    """heroic_gods' God chips and Wounded boxes were twice as large in some tarot exports as in
    others (a line more of trackers on one army card held its boxes back): at one card size every
    sample army's boxes to tick are about the same size, a tenth apart at most (read back: the
    largest square of each export; the God events' small check boxes beside their text are the same
    in each anyway). (At tarot a Hero's card, its reminder a line longer with its fight and God
    chips, sets them 7.5 to 8.1 mm as its army's Heroes carry a spear or a bow.)"""
    sides = {}
    for sample in ("heroic_gods_achaeans", "heroic_gods_trojans", "heroic_gods_warning_duplicate_base_ids"):
        sides[sample] = round(max(_box_sides(sample_cards(SAMPLES / f"{sample}.toml", _options(size)))), 1)
    assert max(sides.values()) <= 1.1 * min(sides.values()), sides
    assert min(sides.values()) >= 6 * MM, sides
    # (an army card that prints a warning, "God chips but no Hero", has a line less for its boxes)
    warned = sample_cards(SAMPLES / "heroic_gods_warning_chips_without_hero.toml", _options(size))
    assert max(_box_sides(warned)) >= 5 * MM


@pytest.mark.parametrize("size", ["tarot", "a6"])
def test_a_large_card_with_room_sets_its_values_larger(sample_cards, size):
    """heroic_gods' figure cards on a large card, half blank with values at twice the body: the
    stat values grow to two and a half times the body where every band of the export has the room
    (read back: the largest type of the export); on tarot the band's first column ("Unwounded",
    "Wounded") takes a third of its width, and the values keep room in their boxes: 1.8 times."""
    result = sample_cards(SAMPLES / "heroic_gods_achaeans.toml", _options(size)).result
    least = 2.5 if size == "a6" else 1.8
    assert max(result.type_sizes) >= least * result.body_size - 0.3, (sorted(result.type_sizes), result.body_size)
