"""What a playing card leaves to the summary page, read back from the PDF: a warning's length,
weapon cells that say nothing, weapon names that wrap, a figure's swim, climb and jump on each card."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import SAMPLES, load
from pypdf import PdfReader

from rosterkit.cards import plan
from rosterkit.cards.content import CardBuilder
from rosterkit.cards.pdf import CardOptions, export_cards
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.validation import validate_report
from rosterkit.files.rosters import load_roster, loads_roster

SIZES = ("poker", "tarot", "a6")


def _export(tmp_path: Path, sample: str, size: str, summary: bool = False):
    roster = load_roster(SAMPLES / f"{sample}.toml").roster
    report = cost_roster(load(roster.ruleset), roster)
    validation = validate_report(report)
    out = tmp_path / f"{sample}-{size}-{summary}.pdf"
    result = export_cards(report, validation, out, CardOptions(size=size, paper="a4", summary=summary))
    return result, out, validation


def _text(pdf: Path) -> str:
    return "\n".join(p.extract_text() or "" for p in PdfReader(str(pdf)).pages)


def _cards(pdf: Path) -> list[list[str]]:
    """The lines of each card, one list a card."""
    return [[ln.strip() for ln in c.strip().splitlines()] for c in re.split(r"card \d+ of \d+", _text(pdf))[:-1]]


# ---------------------------------------------------------------- 1. a warning on a unit card


@pytest.mark.parametrize("size", SIZES)
def test_a_warning_takes_two_lines_on_a_unit_card_and_all_of_it_on_the_summary(tmp_path, size):
    """The figures sharing base ID 3: each card says what is wrong, that it is a reading, and to
    see the summary, in at most two lines; the summary page has the whole warning."""
    sample = "heroic_gods_warning_duplicate_base_ids"
    _, out, validation = _export(tmp_path, sample, size)
    on_three = [c for c in _cards(out) if any("ID #3" in ln for ln in c)]
    assert len(on_three) == 2
    for lines in on_three:
        first = next(i for i, ln in enumerate(lines) if ln.startswith("Warning"))
        last = next(i for i, ln in enumerate(lines) if i >= first and "(see the summary)" in ln)
        assert last - first <= 1, lines[first:last + 1]
        warning = " ".join(lines[first:last + 1])
        assert warning.startswith("Warning, our reading: Base ID 3 on 2 figures: renumber"), warning
    _, whole, _ = _export(tmp_path, sample, size, summary=True)
    message = next(f.message for f in validation.findings if f.rule == "base-id-unique")
    assert "give each figure its own number" in message
    summary = re.sub(r"\s+", " ", PdfReader(str(whole)).pages[0].extract_text())
    assert message in summary


# ---------------------------------------------------------------- 2. a melee weapon's range


@pytest.mark.parametrize("sample", ["fast_universal_ashen_host", "fast_universal_iron_vanguard",
                                    "fast_universal_INVALID_hero_heavy"])
def test_a_melee_weapons_range_reads_as_the_books_table_writes_it(tmp_path, sample):
    """The book's weapon table gives a melee weapon (Claw/hand/spear/sword, Big bite/…) range 0:
    the card's Range cell says 0 as well, never "-"."""
    _, out, _ = _export(tmp_path, sample, "poker")
    text = _text(out)
    assert not re.search(r"\+\d+\(F\) -|\+0 -", text), text
    for mod in re.findall(r"(\+\d+(?:\(F\))?) (\S+)\n", text):
        assert mod[1] != "-", mod
    if "Claw/hand/spear/" in text:
        assert re.search(r"sword\s+\+0 0\s", text), text


# ---------------------------------------------------------------- 3. a long weapon name


def _runs(pdf: Path) -> list[tuple[int, str, float, float]]:
    """Every piece of text: its page, the text, and where it starts (x, y on the page)."""
    out = []
    for n, page in enumerate(PdfReader(str(pdf)).pages):
        def visit(text, cm, tm, font, size, n=n):
            if text.strip():
                x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
                y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
                out.append((n, text.strip(), x, y))
        page.extract_text(visitor_text=visit)
    return out


@pytest.mark.parametrize("size", SIZES)
def test_a_long_weapon_name_takes_at_most_two_lines(tmp_path, size):
    """A Cave Ogre listed with the book's whole row, "Big bite/big claw/big fist/great axe/great
    sword": its lines after the first run under the Mod and Range cells, which take one line, so
    the name takes two lines at most, every piece of it printed, its Mod and Range on its first line."""
    text = (SAMPLES / "fast_universal_ashen_host.toml").read_text(encoding="utf-8")
    assert 'weapons = ["Big fist"]' in text
    roster = loads_roster(text.replace('weapons = ["Big fist"]',
                                       'weapons = ["Big bite/big claw/big fist/great axe/great sword"]'))
    report = cost_roster(load(roster.ruleset), roster)
    out = tmp_path / f"row-{size}.pdf"
    export_cards(report, validate_report(report), out, CardOptions(size=size, paper="a4", summary=False))
    runs = _runs(out)
    pieces = [r for r in runs if re.fullmatch(r"(?:(?:Big|big|great) \w+/?)+", r[1])]
    assert "".join(r[1] for r in pieces).replace("/", "/ ").split() == \
        ["Big", "bite/", "big", "claw/", "big", "fist/", "great", "axe/", "great", "sword"], pieces
    ys = sorted({round(r[3], 1) for r in pieces}, reverse=True)
    assert len(ys) <= 2, pieces
    mod = next(r for r in runs if r[1].startswith("+1(F)"))
    assert abs(mod[3] - ys[0]) < 0.5 and mod[2] > max(r[2] for r in pieces)


# ---------------------------------------------------------------- 4. swim, climb and jump on each card

LEGO = ("lego_combat_blackwater_corsairs", "lego_combat_kingsbridge_garrison", "lego_combat_INVALID_over_points")
KEY = "Swim 3 · Climb 1 · Jump 3"


def _keyed(pdf: Path) -> tuple[int, int]:
    """(unit cards whose figures swim, climb and jump the book's 3, 1 and 3, cards among them
    printing those values)."""
    cards = [re.sub(r"\s+", " ", c) for c in re.split(r"card \d+ of \d+", _text(pdf))[:-1] if "Weapon" in c]
    using = [c for c in cards if KEY in c or not re.search(r"Swim \d+ · Climb \d+ · Jump \d+", c)]
    return len(using), sum(KEY in c for c in using)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", LEGO)
def test_each_card_using_the_abbreviations_names_them_where_the_size_holds(tmp_path, monkeypatch, sample, size):
    """Cards are handed out one by one: each card of a figure with the book's swim, climb and jump
    names them, "Swim 3 · Climb 1 · Jump 3", at a body half a point smaller at most than the
    export's without the line."""
    result, out, _ = _export(tmp_path, sample, size)
    using, keyed = _keyed(out)
    assert using >= 2
    assert keyed == using, (using, keyed)
    monkeypatch.setattr(CardBuilder, "keyed", lambda self, cards: cards)
    if "Hit: 1D" in _text(out):  # (the same cards but for the line: the attack rolls kept as they are)
        monkeypatch.setattr(plan, "REMINDER_DROP", 99.0)
    first_only, _, _ = _export(tmp_path, sample, size)
    assert first_only.body_size - 0.5 - 1e-9 <= result.body_size <= first_only.body_size
    assert result.cards == first_only.cards
