"""One crowded card does not shrink the rest; rules texts on the cards where there is room."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from cardexports import without_flag
from conftest import SAMPLES, load
from pypdf import PdfReader

from rosterkit.cards.pdf import CardOptions, export_cards
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.validation import validate_report
from rosterkit.files.rosters import load_roster


def _export(tmp_path: Path, sample: str, size: str = "poker", **options):
    roster = load_roster(SAMPLES / f"{sample}.toml").roster
    report = cost_roster(load(roster.ruleset), roster)
    out = tmp_path / f"{sample}-{size}.pdf"
    result = export_cards(report, validate_report(report), out,
                          CardOptions(rules=False, size=size, paper="a4", summary=False, **options))
    return result, PdfReader(str(out))


def _size_of(reader: PdfReader, needle: str) -> set[float]:
    """The font sizes of the pieces of text holding ``needle``, read back from the PDF."""
    seen: set[float] = set()
    for page in reader.pages:
        def visit(text, cm, tm, font, size):
            if needle in text:
                seen.add(round(size * tm[0] if tm[0] else size, 2))
        page.extract_text(visitor_text=visit)
    return seen


def _cards(reader: PdfReader) -> list[str]:
    text = "\n".join(p.extract_text() or "" for p in reader.pages)
    return [c.strip() for c in re.split(r"card \d+ of \d+", text)[:-1]]


@pytest.mark.parametrize("size", ["tarot", "a6"])
def test_a_crowded_invalid_unit_keeps_its_army_above_the_floor(tmp_path, size):
    """The 13-element Orc Horde (not valid) takes its wound rows two to a line on its one card; the
    export's body, held by it, stays at or above a large card's floor (8 pt), the Orc Chief's card
    printed at it and never larger than in the valid Orc warband. (At poker the Horde's card, its
    actions' boxes under 13 rows of wounds and a "Not valid" band, holds the export at 7.25 pt
    against 9: see the next test.)"""
    result, reader = _export(tmp_path, "for_the_masses_INVALID_thirteen_elements", size)
    valid, valid_reader = _export(tmp_path, "for_the_masses_orc_warband", size)
    chief = _size_of(reader, "Personality")
    assert chief == {round(result.body_size, 2)} and 8 <= result.body_size <= valid.body_size
    assert _size_of(valid_reader, "Personality") == {round(valid.body_size, 2)}
    assert result.continued == []
    assert sum("Orc Horde" in c for c in _cards(reader)) == 1


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_thirteen_wound_rows_two_to_a_line_keep_the_unit_on_one_card(tmp_path, size):
    """For the Masses, thirteen elements: where one wound row to a line does not fit (poker, tarot),
    the rows go two to a line as on A6, numbered by element under "Wounds per element", so the Orc
    Horde is on one card with every element's four boxes (read back, left to right)."""
    result, reader = _export(tmp_path, "for_the_masses_INVALID_thirteen_elements", size)
    cards = [re.sub(r"\s+", " ", c) for c in _cards(reader)]
    horde = [c for c in cards if "Orc Horde" in c]
    assert len(horde) == 1 and result.continued == [] and "continued" not in horde[0]
    rows = re.findall(r"(\d+) 1 2 3 4", horde[0].split("Wounds", 1)[1])
    assert sorted(map(int, rows)) == list(range(1, 14)), rows
    assert "per element" in horde[0]  # (the label names what the numbers count)
    assert min(s for s in _size_of(reader, "1 2 3 4") if s) >= 5.5
    # (as when it continued; at poker less, the unit's actions' boxes on the card too)
    assert result.body_size >= {"poker": 7.25, "tarot": 9.25, "a6": 11.75}[size]


def test_the_crowded_troll_names_its_rule_and_the_pikemen_print_larger(tmp_path):
    """ARES morale 6, poker: the Bridge Troll's card (not valid, 16 wound boxes) held every card of
    the export at 7 pt; it names its rule, whose text goes to a reference card, rather than go on
    to a second card for one rule, and the Pikemen's card prints at the 7.75 pt it then fits."""
    result, reader = _export(tmp_path, "ares_INVALID_morale_6")
    assert _size_of(reader, "Human Pikeman × 3") == {7.75}
    assert result.body_size == 7.75
    assert result.continued == [] and result.reference_cards == 1
    cards = [re.sub(r"\s+", " ", c) for c in _cards(reader)]
    assert re.search(r"Wounds (per figure )?1 1 2 3 4 5 6 7 8 (per figure )?2 1 2 3 4 5 6 7 8 Shaken 1 2", cards[0]), cards[0]  # (a row of 8 a Troll)
    assert "Regenerate – see the reference card" in cards[0]
    assert "Regenerate: An action: regains" in cards[2]


def _text(reader: PdfReader) -> str:
    return re.sub(r"\s+", "", "".join(p.extract_text() or "" for p in reader.pages))


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_an_error_prints_its_short_form_at_every_size(tmp_path, size):
    """ARES unrated figure: the Ogre's "not valid" band is its error's short form ("Combat Rating
    not entered") at every size, whole, never cut ("…", "(…)"); the summary page has the rest."""
    _result, reader = _export(tmp_path, "ares_INVALID_unrated_figure", size)
    text = _text(reader)
    assert "Notvalid:CombatRatingnotentered" in text, text
    assert "theEpilogue'RatingtheTroops'" not in text
    assert "…" not in text


def test_an_error_without_room_prints_its_short_form(tmp_path):
    """For the Masses, thirteen elements, poker: the Horde's card has room for one word of its
    error's aside; rather than cut it, the card prints the error's short form, whole."""
    _result, reader = _export(tmp_path, "for_the_masses_INVALID_thirteen_elements")
    text = " ".join(re.sub(r"\s+", " ", c) for c in _cards(reader))
    assert "Not valid: 13 elements, at most 12: remove 1" in text
    assert "…" not in text, text


def test_the_crowded_unit_prints_its_error_short_on_tarot(tmp_path):
    """For the Masses, thirteen elements, tarot: the Orc Horde's error in its short form, as on poker."""
    _result, reader = _export(tmp_path, "for_the_masses_INVALID_thirteen_elements", "tarot")
    assert re.sub(r"\s+", "", "Not valid: 13 elements, at most 12: remove 1") in _text(reader)


@pytest.mark.parametrize("sample, size", [("ares_crown_household", "a6"), ("ares_hill_clans", "poker"),
                                          ("ares_MISMATCH_royal_host", "poker")])
def test_cards_side_by_side_line_up_their_stat_bands(tmp_path, sample, size):
    """A name on one line beside a name on two: the shorter header takes the spare room under its
    subtitle, so the stat bands of a sheet's row start at one height (read back: the "Armor"
    label of every card of the first row at one y)."""
    result, reader = _export(tmp_path, sample, size)
    sheet = result.sheet
    rows: dict[int, set[float]] = {}

    def visit(text, cm, tm, font, fsize):
        if "Armor" in text and "Armor +" not in text:  # (the stat band's label, not a reminder's "Armor +: shield")
            y = tm[5] * cm[3] + cm[5]
            rows.setdefault(int((y - sheet.y0) // (sheet.card_height + sheet.gutter)), set()).add(round(y, 1))
    reader.pages[0].extract_text(visitor_text=visit)
    top = rows[max(rows)]
    assert len(top) == 1, rows
    cards = _cards(reader)[:sheet.cols]
    assert sum("Armor" in c for c in cards) >= 2  # (the row has two cards with a stat band or more)


@pytest.mark.parametrize("sample", ["ares_INVALID_morale_6", "for_the_masses_INVALID_thirteen_elements"])
@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_a_card_that_continues_keeps_its_boxes_with_its_stat_band(tmp_path, sample, size):
    """A crowded card goes on to a second card only with its boxes starting on the first, beside
    its stat band, and no tracker split between the two (tarot: the Bridge Troll's 16 wound boxes
    would go to the second card, so it prints on one card as before)."""
    result, reader = _export(tmp_path, sample, size)
    cards = [re.sub(r"\s+", " ", c) for c in _cards(reader)]
    for k, card in enumerate(cards):
        if "continued (2/" in card:
            first = cards[k - 1]
            assert re.search(r"Wounds 1 2|Wounds (per element )?1 1 2 3 4", first), first
            assert not re.search(r"Wounds \d", card), card  # (the Troll's wound track is not split)
            assert "Element 13" in card or "Regenerate" in card
    assert len(result.continued) <= 1


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_a_continuing_card_keeps_all_its_trackers_on_its_first_card(tmp_path, size):
    """ARES morale 6: the Bridge Troll's card never prints a tracker on a second card (tarot put
    Shaken and Regenerate there, Wounds on the first); on tarot the Troll is on one card with
    Regenerate's text, printed once (read back)."""
    result, reader = _export(tmp_path, "ares_INVALID_morale_6", size)
    # (an invalid army's footer flag, "NOT VALID" or "NOT VALID: 258/250": read as the next card's first words)
    cards = [without_flag(re.sub(r"\s+", " ", c)) for c in _cards(reader)]
    troll = [c for c in cards if c.startswith("Troll Guard") and "Bridge Troll × 2 ·" in c]
    assert re.search(r"Wounds (per figure )?1 1 2 3 4 5 6 7 8 (per figure )?2 1 2 3 4 5 6 7 8 Shaken 1 2", troll[0]), troll[0]  # (a row of 8 a Troll)
    for card in troll[1:]:
        assert "continued (2/2)" in card and not re.search(r"Wounds|Shaken", card), card
    if size == "tarot":
        assert len(troll) == 1 and result.reference_cards == 0 and result.cards == 2
        assert sum("Regenerate: An action: regains" in c for c in cards) == 1


def test_a_rule_the_cards_name_is_on_a_reference_card_never_another_units(tmp_path):
    """ARES crown household, poker: the Knights' cards name Cavalry without its text; the text is
    on a reference card, not on the Pike Screen's card (a unit without Cavalry, whose players would
    read it as their own rule), as large as the card has room for (9 pt, the 8 pt body's card half
    empty)."""
    result, reader = _export(tmp_path, "ares_crown_household")
    cards = [re.sub(r"\s+", " ", c) for c in _cards(reader)]
    pike = next(c for c in cards if c.startswith("Pike Screen"))
    assert "Cavalry" not in pike and "REFERENCE" not in pike, pike
    knights = [c for c in cards if c.startswith("Household Knights")]
    assert len(knights) == 2 and all("Cavalry – see the reference card" in c for c in knights)
    reference = [c for c in cards if c.startswith("Reference")]
    assert result.reference_cards == 1 and "Cavalry: Mounted, 1x2" in reference[0]
    assert _size_of(reader, "Mounted, 1x2") == {result.rules_size} == {9.0} and result.body_size == 8.0


def _without_unit(sample: str, unit: str) -> str:
    """The sample army's file without one of its units (``[[units]]`` tables, as the samples write them)."""
    text = (SAMPLES / f"{sample}.toml").read_text(encoding="utf-8")
    head, *units = text.split("[[units]]\n")
    return head + "".join("[[units]]\n" + u for u in units if not u.startswith(f'name = "{unit}"'))


def test_an_outlier_card_sends_its_texts_to_the_reference_card_where_the_sheet_has_room(tmp_path):
    """ARES hill clans without its Crossbows, tarot: the Hired Giant's two rules would hold every
    card three steps down; its rules (and the Thane's Leader) go to a reference card, the fourth
    card of the one sheet, and the rest print larger. The reference card holds only what
    the cards refer to it (Thick Skull, printed on its cards, is not repeated there). With the
    Crossbows the reference card would be a fifth card, a sheet of its own: the rules stay on the
    cards, at 8.75 pt, and the army prints on one sheet."""
    from rosterkit.files.rosters import loads_roster

    roster = loads_roster(_without_unit("ares_hill_clans", "Crossbows"), "hill_clans_3.toml")
    report = cost_roster(load(roster.ruleset), roster)
    out = tmp_path / "three.pdf"
    result = export_cards(report, validate_report(report), out, CardOptions(rules=False, size="tarot", paper="a4", summary=False))
    cards = [re.sub(r"\s+", " ", c) for c in _cards(PdfReader(str(out)))]
    giant = next(c for c in cards if c.startswith("Hired Giant"))
    reference = next(c for c in cards if c.startswith("Reference"))
    assert result.body_size >= 9.5 and (result.cards, result.pages) == (4, 1), (result.body_size, result.cards)
    assert "Cause Fear – see the reference card" in giant, giant
    assert "Cause Fear: A figure it charges" in reference and "Thick Skull" not in reference, reference

    whole, reader = _export(tmp_path, "ares_hill_clans", "tarot")
    cards = [re.sub(r"\s+", " ", c) for c in _cards(reader)]
    assert whole.body_size >= 8.75 and whole.cards == 4 and len(reader.pages) == 1, (whole.body_size, whole.cards)
    assert not any(c.startswith("Reference") for c in cards)
    assert "Cause Fear: A figure it charges" in next(c for c in cards if c.startswith("Hired Giant"))


def _box_rows(reader: PdfReader, result) -> list[list[list[int]]]:
    """Each card's numbered boxes, read back: per card, its lines of box numbers top to bottom,
    each line's numbers left to right (the text at the boxes' size; a card is drawn at its own origin)."""
    tiny = round(max(5.5, result.body_size * 0.62), 2)
    cards: dict[tuple, dict[float, list[int]]] = {}
    for p, page in enumerate(reader.pages):
        def visit(text, cm, tm, font, size, p=p):
            if re.fullmatch(r"[\d\s]+", text) and text.strip() and round(size * tm[0] if tm[0] else size, 2) == tiny:
                card = cards.setdefault((p, -round(cm[5]), round(cm[4])), {})
                card.setdefault(round(tm[5], 1), []).extend(int(n) for n in text.split())
        page.extract_text(visitor_text=visit)
    return [[lines[y] for y in sorted(lines, reverse=True)] for _, lines in sorted(cards.items())]


@pytest.mark.parametrize("sample, size", [("ares_hill_clans", "tarot"), ("ares_hill_clans", "poker"),
                                          ("ares_hill_clans", "a6"), ("ares_INVALID_morale_6", "tarot")])
def test_boxes_that_wrap_are_balanced_never_one_alone(tmp_path, sample, size):
    """A track of boxes on two lines or more has none alone on its last line (tarot, the Hired
    Giant's 10 wounds: 5 | 5, not 9 | 1), the boxes as large as on one line (read back)."""
    result, reader = _export(tmp_path, sample, size)
    cards = _box_rows(reader, result)
    assert cards
    for lines in cards:
        for above, line in itertools.pairwise(lines):
            if line[0] == above[-1] + 1:  # the same track, wrapped
                assert len(line) > 1, lines


def test_ten_boxes_that_wrap_break_five_and_five():
    """The Hired Giant's 10 wounds on a tarot card at 9.5 pt, where ten do not fit beside the
    label: 5 | 5, not 9 | 1."""
    from rosterkit.cards.content import CardBuilder
    from rosterkit.cards.fonts import Glyphs
    from rosterkit.cards.layout import CardLayout
    from rosterkit.cards.sizes import card_size

    roster = load_roster(SAMPLES / "ares_hill_clans.toml").roster
    report = cost_roster(load(roster.ruleset), roster)
    contents = list(CardBuilder(report, "unit", []).cards())
    lay = CardLayout(card_size("tarot"), Glyphs(), "x", list(report.ruleset.types))
    lay.fit(contents)
    lay.use(9.5)
    giant = next(c for c in contents if c.title == "Hired Giant")
    wounds = next(tr for tr in giant.tracks if tr.label == "Wounds")
    lines = [sum(op[0] == "B" for op in r.ops) for r in lay.tracks((wounds,), 0)]
    assert [n for n in lines if n] == [5, 5], lines
