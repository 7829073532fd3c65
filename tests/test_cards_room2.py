"""A card's spare room in one place, and its boxes as large as the card allows.

Every card keeps its content at the top with its own gaps and its trackers at the bottom, with three
lines to write on at most and the rest of its room blank between them (not ruled filler, not gaps
drifting between sections); the boxes to tick grow with the card.
"""

from __future__ import annotations

import pytest
from conftest import SAMPLES
from pypdf import PdfReader
from test_cards_layout import _marks_per_card

from rosterkit.cards.pdf import CardOptions


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


@pytest.mark.parametrize("size", ["tarot", "a6"])
@pytest.mark.parametrize("sample", ["fast_universal_iron_vanguard", "for_the_masses_orc_warband",
                                    "heroic_gods_achaeans", "ares_crown_household"])
def test_a_large_card_has_three_lines_to_write_on_at_most(sample_cards, sample, size):
    """Nine or ten ruled lines down to the trackers read as filler on a tarot or A6 card as on a
    poker card: every card, the army card too, has three lines to write on at most (read back from
    the PDF: the ruled lines on each card), and a card with room has some."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", _options(size))
    lines = [len(ys) for ys in _marks_per_card(shared.path, shared.result.sheet, ruled=True)]
    assert len(lines) == shared.result.cards
    assert max(lines) == 3, lines


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_sections_stand_at_the_same_heights_on_cards_alike(sample_cards, size):
    """fast_universal_iron_vanguard's Spearmen and Archers (a stat band, one weapon, casualty boxes):
    on a poker card the Archers' weapon table stood lower than the Spearmen's, the card's spare room
    spread over the gaps between its sections. Read back: the stat band's labels, the weapon table's
    heading are as far below the card's top on both cards."""
    shared = sample_cards(SAMPLES / "fast_universal_iron_vanguard.toml", _options(size))

    def at(words: dict[str, list[float]], start: str) -> float | None:
        return next((ys[0] for text, ys in words.items() if text.startswith(start)), None)

    cards = {next(iter(words)).split()[0]: words for words in _words(shared)}
    spear, archer = cards["Spearmen"], cards["Archers"]
    for start in ("AD ", "Weapon "):
        a, b = at(spear, start), at(archer, start)
        assert a is not None and b is not None, (start, a, b)
        assert abs(a - b) < 0.05, (start, a, b)

