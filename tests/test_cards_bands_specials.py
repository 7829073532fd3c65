"""Unit cards read back: the "not valid" band kept short at every size (the summary page has the
whole error), ARES figure counts in the subtitle, the texts of ARES weapon specials, and the summary
page's numbers."""

from __future__ import annotations

import re

import pytest
from conftest import SAMPLES
from pypdf import PdfReader
from pypdf.generic import ContentStream

from rosterkit.cards.pdf import CardOptions

SIZES = ["poker", "tarot", "a6"]
INVALID = sorted(p.stem for p in SAMPLES.glob("*INVALID*.toml"))
RED = (0.639, 0.137, 0.11)  # the "not valid" band's ink


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def red_bands(pdf) -> list[list[str]]:
    """Each "not valid" band of the cards, as its lines of text (read from the drawing: the red
    text that starts with "Not valid:", one line per text position)."""
    bands: list[list[str]] = []
    for page in PdfReader(str(pdf)).pages:
        fill: tuple[float, ...] = ()
        y = None
        current: list[str] | None = None
        for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
            if op == b"rg":
                fill = tuple(round(float(v), 3) for v in operands)
                if fill != RED:
                    current = None
            elif op == b"Tm":
                y = round(float(operands[5]), 1)
            elif op in (b"Tj", b"TJ") and fill == RED:
                text = "".join(str(v) for v in operands[0]) if op == b"TJ" else str(operands[0])
                if text.startswith("Not valid:"):
                    current = [text]
                    bands.append(current)
                    last = y
                elif current is not None and y != last:
                    current.append(text)
                    last = y
                elif current is not None:
                    current[-1] += text
    return bands


@pytest.mark.parametrize("size", SIZES)
def test_a_not_valid_band_takes_at_most_two_lines(sample_cards, size):
    """Tarot and A6 printed the Ogre's missing rating in six or seven bold red lines and the Orc
    Horde's thirteen elements in five, against one or two at poker: every "not valid" band of every
    invalid sample takes at most two lines at every size, and the summary page has each error whole."""
    for sample in INVALID:
        cards = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=True))
        errors = [f.message for f in cards.validation.findings if f.severity == "error" and f.unit is not None]
        bands = red_bands(cards.path)
        assert len(bands) >= len(errors), (sample, bands)
        for band in bands:
            assert len(band) <= 2, (sample, size, band)
        summary = squash(cards.pages[0])
        for msg in errors:
            assert squash(msg) in summary, (sample, msg)


def test_the_troll_prints_on_one_card_at_tarot(sample_cards):
    """ARES morale 6, tarot: the Bridge Troll's band pushed Regenerate onto a second card nearly
    empty ("continued (2/2)"); with the short band the Troll is on one card, Regenerate with it,
    and the export prints fewer cards."""
    cards = sample_cards(SAMPLES / "ares_INVALID_morale_6.toml", CardOptions(rules=False, size="tarot", paper="a4", summary=False))
    text = "\n".join(cards.pages)
    assert cards.result.continued == [] and "continued (" not in text
    assert cards.result.cards == 2
    troll = next(p for p in cards.pages if "Bridge Troll × 2 ·" in p)
    assert "Regenerate: An action: regains" in re.sub(r"\s+", " ", troll)


@pytest.mark.parametrize("size", SIZES)
def test_an_ares_figures_card_says_how_many_figures_it_shows(sample_cards, size):
    """ARES crown household: a mixed unit's card of one kind of figure said "Human Knight · 2 of 3
    · 176 of 286 rating" (read as the second figure of three; "2 figures of 3" on A6): it says
    "Human Knight × 2", a lone figure its kind alone, each subtitle on one line after which of
    the unit's cards it is ("2/2": two cards under one name read as two units)."""
    cards = sample_cards(SAMPLES / "ares_crown_household.toml", CardOptions(size=size, paper="a4", summary=False))
    lines = "\n".join(cards.pages).splitlines()
    assert "2/2 · Human Knight × 2 · 176 of 286" in lines
    assert "1/2 · Human Hero · 110 of 286" in lines
    assert not [line for line in lines if re.search(r"\b\d+ (?:figures? )?of \d+ ·", line)], lines


def test_the_magic_weapon_ability_has_the_rules_name(cli):
    """ARES: the rules name the weapon ability Magic (Chapter Eight); the noble's sword was listed
    "*Magical", the sample stat block's word: the text list and the cards say "*Magic"."""
    text = cli("text", SAMPLES / "ares_border_levy.toml").out
    assert "Special: Cavalry, *Magic" in text and "Magical" not in text


def test_the_summary_writes_its_numbers_one_way(sample_cards):
    """For the Masses, Alvernan host: the summary said "1121 points" under the player's notes
    ("the cards give 1,121") and "No points limit set" then "Also met: Points limit". Our numbers
    are grouped as the notes write them (the notes as written), and a limit without a points limit
    to measure against is not called met; with a limit set, it is."""
    cards = sample_cards(SAMPLES / "for_the_masses_alvernan_host.toml", CardOptions(size="poker", paper="a4"))
    summary = re.sub(r"\s+", " ", cards.pages[0])
    assert "the cards give 1,121" in summary and "1,121 points" in summary and "Total 25 1,121" in summary
    assert "1121" not in summary, summary
    assert "No points limit set" in summary and "Points limit" not in summary
    limited = sample_cards(SAMPLES / "ares_border_levy.toml", CardOptions(size="poker", paper="a4"))
    assert "Rating limit" in re.sub(r"\s+", " ", limited.pages[0])
