"""A stat band in rows the ruleset declares: where ARES's band takes two rows, every unit card puts
the figure's stats (Combat Rating to Armor) on the first and Close Combat on the second, so a
column is in the same place on every card of a sheet (read back from the PDF)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import pytest
from conftest import SAMPLES, ruleset_with, run_cli
from pdfdraw import operations
from pypdf import PdfReader

from rosterkit.cards.pdf import CardOptions


@dataclass(frozen=True)
class Text:
    y: float  # the baseline's height on the page
    size: float  # the type size on the page
    ink: bool  # in the card's ink (values), not the grey of labels and notes
    text: str
    x: float = 0.0  # the string's left end from the card's left edge, in the card's own points
    face: str = ""  # the font's name (DejaVuSans-Bold, DejaVuSansCondensed-Bold, ...)


def cards(pdf) -> list[list[Text]]:
    """The strings of each card of the export: a card is drawn moved to its place on the sheet,
    so the strings drawn at one such place are one card's."""
    out = []
    for page in PdfReader(str(pdf)).pages:
        by_card: dict[tuple[float, float], list[Text]] = defaultdict(list)
        fonts = page["/Resources"].get("/Font", {})
        fill: tuple[float, ...] = (0.0, 0.0, 0.0)
        size = 0.0
        face = ""
        at = (0.0, 0.0)
        for op, operands, state in operations(page):
            if op == b"rg":
                fill = tuple(float(v) for v in operands)
            elif op == b"Tf":
                size = float(operands[1])
                face = str(fonts[operands[0]].get_object()["/BaseFont"]).split("+", 1)[-1]
            elif op == b"Tm":
                at = (float(operands[4]), float(operands[5]))
            elif op == b"Tj" and str(operands[0]).strip():
                place = (round(state.ctm[4], 1), round(state.ctm[5], 1))
                x, y = state.point(*at)
                by_card[place].append(Text(y, size * state.scale, max(fill) < 0.25, str(operands[0]),
                                           (x - state.ctm[4]) / state.scale, face))
        out += by_card.values()
    return out


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
@pytest.mark.parametrize("sample", ["ares_hill_clans", "ares_crown_household"])
def test_each_stat_keeps_its_row_of_the_band_on_every_card(sample_cards, sample, size):
    """On every unit card the label Armor is on the row of Wounds (one baseline), and Close Combat
    on the row below: under the first row's values and over the second's. The Hired Giant (a Scale
    column, no unit morale or command) too, whose eight columns folded four over four."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    small = round(max(5.5, shared.result.body_size * 0.82), 2)
    checked = []
    for card in cards(shared.path):
        labels = {t.text: t for t in card if not t.ink and abs(t.size - small) < 0.05}
        if "Wounds" not in labels:
            continue  # a reference card
        wounds, armor = labels["Wounds"], labels.get("Armor")
        close = next(t for t in card if not t.ink and abs(t.size - small) < 0.05 and t.text.startswith("Close"))
        name = card[0].text  # the name band is drawn first
        assert armor is not None and abs(armor.y - wounds.y) < 0.05, f"{name}: Armor is not on the row of Wounds"
        # the baselines of the band's values, top down (the stat size, larger than any other ink)
        values = sorted({round(t.y, 1) for t in card if t.ink and t.size > shared.result.body_size + 0.5
                         and t.y < wounds.y}, reverse=True)
        assert len(values) >= 2 and values[0] > close.y > values[1], \
            f"{name}: Close Combat is not on the band's second row"
        checked.append(name)
    assert len(checked) >= len(shared.report.roster.units), checked


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
@pytest.mark.parametrize("sample", ["ares_hill_clans", "ares_crown_household"])
def test_the_first_row_lines_up_from_card_to_card(sample_cards, sample, size):
    """The band's first row holds the same five stats on every card, so its boxes are as wide on
    every card set in the same face: each label stands at the same place across the card (the
    Hired Giant's Rating to Armor under the Thane's, the Pike Screen's under the Knights')."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    small = round(max(5.5, shared.result.body_size * 0.82), 2)
    by_face: dict[str, dict[str, set[float]]] = defaultdict(lambda: defaultdict(set))
    for card in cards(shared.path):
        labels = [t for t in card if not t.ink and abs(t.size - small) < 0.05]
        wounds = next((t for t in labels if t.text == "Wounds"), None)
        if wounds is None:
            continue
        for t in labels:
            if abs(t.y - wounds.y) < 0.05:
                by_face[wounds.face][t.text].add(round(t.x, 1))
    assert by_face
    for face, places in by_face.items():
        assert set(places) >= {"Combat", "Wounds", "Move", "Morale", "Armor"}, (face, places)
        moved = {text: xs for text, xs in places.items() if max(xs) - min(xs) > 0.15}
        assert not moved, f"{face}: {moved}"


def test_a_band_that_fits_one_row_stays_one_row(sample_cards):
    """On an index card every ARES band fits across: the declared row does not fold it, so Close
    Combat stands beside Armor, on the row of Wounds."""
    shared = sample_cards(SAMPLES / "ares_hill_clans.toml", CardOptions(size="index", paper="a4", summary=False))
    small = round(max(5.5, shared.result.body_size * 0.82), 2)
    checked = []
    for card in cards(shared.path):
        labels = [t for t in card if not t.ink and abs(t.size - small) < 0.05]
        wounds = next((t for t in labels if t.text == "Wounds"), None)
        if wounds is None:
            continue
        for text in ("Armor", "Close"):
            assert any(t.text.startswith(text) and abs(t.y - wounds.y) < 0.05 for t in labels), (card[0].text, text)
        checked.append(card[0].text)
    assert len(checked) == 4, checked


def _checked(tmp_path, old: str, new: str):
    """check-ruleset on ARES's ruleset with its first ``old`` written as ``new``: refused."""
    result = run_cli("check-ruleset", ruleset_with(tmp_path, "ares", old, new))
    assert result.code in (1, 2), result.err
    return result


def test_new_band_on_a_weapon_column_is_refused(tmp_path):
    """A weapon table takes no declared rows: check-ruleset names the column and says so."""
    result = _checked(tmp_path, '{ label = "Weapon", show = "{name}" }',
                      '{ label = "Weapon", show = "{name}", new_band = true }')
    assert "weapon column 'Weapon': new_band" in result.err and "Traceback" not in result.err


def test_new_band_takes_true_or_false_only(tmp_path):
    """``new_band = "yes"`` is refused with the key and what it takes, not read as true."""
    result = _checked(tmp_path, 'new_band = true', 'new_band = "yes"')
    assert "card.columns[5].new_band: expected true or false (got 'yes')" in result.err, result.err
    assert "Traceback" not in result.err
