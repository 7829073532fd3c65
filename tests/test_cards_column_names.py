"""A stat column's name spelt out on a large card: fast_universal's band reads "Action dice Move Fight
Shoot Defense" on an A6 card, heroic_gods' "Attack Defense Move", where every name keeps to one line
in its box; elsewhere the book's letters ("AD M F S D"), with the same boxes and the same body size
(read back from the PDF)."""

from __future__ import annotations

import re

import pytest
from conftest import RULESETS, SAMPLES
from test_cards_lego import _words

from rosterkit.cards.pdf import CardOptions, export_cards
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.validation import validate_report
from rosterkit.files.rosters import load_roster
from rosterkit.files.rulesets import compile_ruleset_text

FU_NAMES = ["Action dice", "Move", "Fight", "Shoot", "Defense"]
FU_LABELS = ["AD", "M", "F", "S", "D"]


def _export(tmp_path, sample: str, size: str, text: str | None = None, tag: str = "x"):
    """The sample's cards with its ruleset (or ``text``): (the PDF, the export's result)."""
    roster = load_roster(SAMPLES / f"{sample}.toml").roster
    text = text or (RULESETS / f"{roster.ruleset}.toml").read_text(encoding="utf-8")
    report = cost_roster(compile_ruleset_text(text, "ruleset.toml"), roster)
    out = tmp_path / f"{sample}-{size}-{tag}.pdf"
    result = export_cards(report, validate_report(report), out, CardOptions(size=size, paper="a4", summary=False))
    return out, result


def _heads(pdf, wanted: list[str]) -> list[list[str]]:
    """Each band's heads on the sheets, found by the first of ``wanted`` in a bold face: the strings
    on its line in its size, left to right, up to the next card's (two cards stand side by side)."""
    out = []
    for words in _words(pdf):
        firsts = [w for w in words if w[4] == wanted[0] and "Bold" in w[5]]
        for first in firsts:
            end = min([w[0] for w in firsts if w[0] > first[0] and abs(w[2] - first[2]) < 0.5] + [float("inf")])
            line = sorted((w for w in words if abs(w[2] - first[2]) < 0.5 and abs(w[3] - first[3]) < 0.05
                           and first[0] <= w[0] < end), key=lambda w: w[0])
            out.append([w[4] for w in line])
    return out


def _without_names(text: str) -> str:
    return re.sub(r', name = "[^"]*"', "", text)


@pytest.mark.parametrize("sample", ["fast_universal_ashen_host", "fast_universal_iron_vanguard"])
def test_an_a6_card_spells_out_fast_universal_s_columns(tmp_path, sample):
    pdf, result = _export(tmp_path, sample, "a6")
    heads = _heads(pdf, FU_NAMES)
    assert len(heads) == result.by_kind["unit"], heads  # (one band a unit card)
    assert all(line == FU_NAMES for line in heads), heads
    assert not _heads(pdf, ["AD"]), "a band kept its letters"
    # the boxes are as wide with the names as with the letters: nothing else on the cards moves
    plain = (RULESETS / "fast_universal.toml").read_text(encoding="utf-8")
    bare_pdf, bare = _export(tmp_path, sample, "a6", _without_names(plain), "bare")
    assert (bare.body_size, bare.cards) == (result.body_size, result.cards)
    assert all(line == FU_LABELS for line in _heads(bare_pdf, ["AD"]))


@pytest.mark.parametrize("size", ["poker", "tarot"])
def test_smaller_cards_keep_the_book_s_letters(tmp_path, size):
    """A tarot card's boxes are too narrow for "Defense" at the labels' size: the letters stay."""
    pdf, result = _export(tmp_path, "fast_universal_ashen_host", size)
    heads = _heads(pdf, ["AD"])
    assert len(heads) == result.by_kind["unit"] and all(line == FU_LABELS for line in heads), heads
    assert not _heads(pdf, ["Action dice"])


def test_heroic_gods_a6_bands_read_attack_defense_move(tmp_path):
    pdf, _ = _export(tmp_path, "heroic_gods_trojans", "a6")
    heads = _heads(pdf, ["Attack"])
    assert len(heads) == 7, heads  # (the seven figures' cards)
    assert all(line[:3] == ["Attack", "Defense", "Move"] for line in heads), heads


def test_a_name_too_long_for_its_box_keeps_every_letter(tmp_path):
    """One name that would not keep to a line in its box: the band keeps every column's letters
    rather than mix "Action dice" with "F" in one row."""
    text = (RULESETS / "fast_universal.toml").read_text(encoding="utf-8")
    long = text.replace('name = "Fight"', 'name = "Fighting modifier, melee"')
    assert long != text
    pdf, result = _export(tmp_path, "fast_universal_ashen_host", "a6", long, "long")
    heads = _heads(pdf, ["AD"])
    assert len(heads) == result.by_kind["unit"] and all(line == FU_LABELS for line in heads), heads


@pytest.mark.parametrize("sample", ["heroic_gods_achaeans", "heroic_gods_trojans"])
def test_the_cards_of_an_export_read_alike(tmp_path, sample):
    """On a tarot card Teucer's band (a Bow column beside A D M) has no room for the names, so no
    card of the export takes them: Achilles' "Attack Defense Move" beside Teucer's "A D M Bow" read
    as two designs on one sheet."""
    pdf, _ = _export(tmp_path, sample, "tarot")
    assert not _heads(pdf, ["Attack"])
    heads = _heads(pdf, ["A"])
    assert len(heads) == 7 and all(line[:3] == ["A", "D", "M"] for line in heads), heads
