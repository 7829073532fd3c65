"""A card's title stands above its body: on A6 it was 14 pt over a 13.5 pt body and read as one
more line of text."""

from __future__ import annotations

import pytest
from conftest import SAMPLES
from pypdf import PdfReader

from rosterkit.cards.pdf import CardOptions


def _sizes_of(pdf, text: str) -> set[float]:
    found: set[float] = set()
    for page in PdfReader(str(pdf)).pages:
        def visit(t, cm, tm, font, size):
            if t.strip().startswith(text):
                found.add(round(size * tm[0] if tm[0] else size, 2))
        page.extract_text(visitor_text=visit)
    return found


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
@pytest.mark.parametrize("sample, title", [("ares_border_levy", "Noble's Retinue"),
                                           ("lego_combat_blackwater_corsairs", "Musketeers")])
def test_the_title_is_larger_than_the_body(sample_cards, sample, title, size):
    cards = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    sizes = _sizes_of(cards.path, title)
    assert sizes, title
    assert min(sizes) >= 1.04 * cards.result.body_size, (sizes, cards.result.body_size)
    if size == "a6":
        assert min(sizes) >= 1.15 * cards.result.body_size, (sizes, cards.result.body_size)


@pytest.mark.parametrize("size", ["poker", "tarot"])
def test_every_stat_band_of_an_export_is_in_one_face(sample_cards, size):
    """ARES border levy at poker: the Outrider's and the Bowmen's bands need the condensed face to
    keep their five boxes to a row, and the Noble's Retinue's values were in the regular one beside
    them (two designs on one sheet): when one card's band takes the condensed face, every card's
    does. Read back: the faces of the text at the stat values' size."""
    cards = sample_cards(SAMPLES / "ares_border_levy.toml", CardOptions(size=size, paper="a4", summary=False))
    stat = max(cards.sizes)
    faces: set[str] = set()
    for page in PdfReader(str(cards.path)).pages[:1]:
        def visit(t, cm, tm, font, fs):
            if t.strip() and abs((fs * tm[0] if tm[0] else fs) - stat) < 0.01 and font:
                faces.add(str(font.get("/BaseFont")).split("+")[-1])
        page.extract_text(visitor_text=visit)
    assert len(faces) == 1, faces
