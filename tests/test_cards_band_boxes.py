"""A stat band's boxes look alike: the room a band has over its values goes to its narrowest boxes
first, so a "0" does not sit squeezed beside a "+1" (which then read as "+10")."""

from __future__ import annotations

from collections import defaultdict
from itertools import pairwise

import pytest
from conftest import SAMPLES
from pdfdraw import vertical_rules
from pypdf import PdfReader

from rosterkit.cards.pdf import CardOptions
from rosterkit.cards.sizes import card_size
from rosterkit.cards.style import INSET, PAD


def band_lines(page, inner: float) -> list[list[float]]:
    """The widths of the boxes of each line of a stat band on the page: the vertical rules of one
    height that run from a card's inner left to its inner right (``inner`` points apart)."""
    rows: dict[tuple[float, float], set[float]] = defaultdict(set)
    for x, bottom, top in vertical_rules(page):
        rows[round(bottom, 1), round(top, 1)].add(round(x, 1))
    out = []
    for xs in rows.values():
        xs = sorted(xs)
        while xs:
            end = next((x for x in xs if abs(x - xs[0] - inner) < 0.3), None)
            if end is None:
                xs = xs[1:]
                continue
            run = [x for x in xs if x <= end]
            if len(run) >= 4:
                out.append([b - a for a, b in pairwise(run)])
            xs = [x for x in xs if x > end]
    return out


@pytest.mark.parametrize("size", ["poker", "tarot"])
@pytest.mark.parametrize("sample", ["lego_combat_blackwater_corsairs", "heroic_gods_achaeans"])
def test_the_boxes_of_a_band_are_alike_where_the_values_leave_room(sample_cards, sample, size):
    got = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    inner = card_size(size).width - 2 * (INSET + PAD)
    lines = [ws for page in PdfReader(str(got.path)).pages for ws in band_lines(page, inner)]
    assert len(lines) >= 4, lines
    for ws in lines:
        if sample.startswith("heroic_gods"):  # (its band opens with its rows' labels, "Unwounded")
            ws = ws[1:]
        # (LEGO's Res beside Dmg was 22 pt against 38 at poker, and its "0" read into the "+1")
        assert min(ws) >= 0.7 * max(ws), [round(w, 1) for w in ws]


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_values_grown_on_a_band_with_row_labels_keep_their_face(sample_cards, size):
    """A lone figure's band with its states in it ("Unwounded" over "Wounded"): its values grow only
    as far as their boxes hold them in the band's own face (Paris's five columns beside the labels
    on tarot were set condensed at 25.8 pt, the digits against the box lines)."""
    got = sample_cards(SAMPLES / "heroic_gods_trojans.toml", CardOptions(size=size, paper="a4", summary=False))
    faces = set()
    for page in PdfReader(str(got.path)).pages:
        def visit(text, cm, tm, font, fs):
            if text.strip() in {"3 4 7 7", "2 2 4 4"}:  # (Paris's rows)
                faces.add(str(font["/BaseFont"]))
        page.extract_text(visitor_text=visit)
    assert faces and not any("Condensed" in f for f in faces), faces
