"""LEGO's stun and reload runs, numbered soldier by soldier: a soldier's number stands clear of
the run before it, so that "[4] 2 [1]" reads as two runs and not one, and on a badge of its own,
so that it does not read as one more box's number."""

from __future__ import annotations

import pytest
from conftest import SAMPLES
from pdfdraw import fills, rectangles
from pypdf import PdfReader
from test_cards_lego import _words

from rosterkit.cards.pdf import CardOptions


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
@pytest.mark.parametrize("sample", ["lego_combat_kingsbridge_garrison", "lego_combat_blackwater_corsairs"])
def test_a_soldiers_number_stands_clear_of_the_run_before_it(sample_cards, sample, size):
    """Read back from the PDF: for each soldier's bold number after the first of a line, the box
    before it on its line ends at least half a box's side to its left (it ended about 1 pt before
    the "2" at poker and tarot, the runs reading as one)."""
    got = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    checked = 0
    for page, words in zip(PdfReader(str(got.path)).pages, _words(got.path)):
        # (a box may be wider than tall, holding its label: read every rectangle, its height the side)
        boxes = [(left, bottom, w, h) for left, bottom, w, h in rectangles(page) if h < 30]
        # (each string as drawn: two soldiers' numbers with only empty boxes between them are two)
        numbers = [(int(w[4]), w[0], w[2]) for w in words if w[4].strip().isdigit() and "Bold" in w[5]]
        for n, x, y in numbers:
            before = [(left + w, side) for left, bottom, w, side in boxes
                      if left + w <= x + 0.01 and bottom - 1 <= y <= bottom + side + 1]
            if n < 2 or not before:  # (a line's first soldier: nothing before him but his label)
                continue
            right, side = max(before)
            if x - right > 3 * side:  # (the tracker's label column, not a run)
                continue
            checked += 1
            assert x - right >= 0.5 * side, (n, round(x - right, 2), round(side, 2))
    # (at tarot blackwater's stun boxes grow to 6.1 mm a soldier a line: its reload runs share lines)
    assert checked >= (1 if (sample, size) == ("lego_combat_blackwater_corsairs", "tarot") else 3), checked


@pytest.mark.parametrize("size", ["poker", "a6"])
@pytest.mark.parametrize(("sample", "numbers"), [
    # Gate spearmen's four soldiers' stun runs; the crossbowmen's three stun and three reload runs;
    # the militia's two
    ("lego_combat_kingsbridge_garrison", [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4]),
    # the warriors' five rows of wounds, the crossbows' three (a lone figure's row has no number)
    ("ares_hill_clans", [1, 1, 2, 2, 3, 3, 4, 5]),
])
def test_a_figures_number_is_white_on_a_badge_of_the_units_colour(sample_cards, sample, numbers, size):
    """Read back from the PDF: each figure's number before its run of boxes is white, drawn on a
    small filled shape of a colour (the unit's), so "1 [1][2][3][4]" no longer reads as five boxes'
    numbers. It was ink on the card's white."""
    got = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False, rules=False))
    white = []
    for page, words in zip(PdfReader(str(got.path)).pages, _words(got.path)):
        badges = [(x0, y0, x1, y1) for x0, y0, x1, y1, colour in fills(page)
                  if colour != (1.0, 1.0, 1.0) and y1 - y0 < 25 and x1 - x0 < 25]
        # (white bold digits: the name bands' white titles are words)
        for x, _, y, _, text, face, fill in words:
            if fill == (1.0, 1.0, 1.0) and "Bold" in face and text.isdigit():
                assert any(x0 <= x + 0.5 <= x1 and y0 <= y + 0.5 <= y1 for x0, y0, x1, y1 in badges), (text, x, y)
                white.append(int(text))
    assert sorted(white) == numbers
