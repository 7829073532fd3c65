"""LEGO Combat's cards as a player reads them: the range bands as a table, trackers that say what
the book says, one shape of stun boxes, a stat band without noise (read back from the PDF)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import SAMPLES, load
from pypdf import PdfReader
from pypdf.generic import ContentStream
from reportlab.pdfbase.pdfmetrics import stringWidth

from rosterkit.cards.fonts import BOLD, COND, COND_BOLD, REGULAR, register
from rosterkit.cards.pdf import CardOptions, export_cards
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.validation import validate_report
from rosterkit.files.rosters import load_roster

LEGO = ["lego_combat_blackwater_corsairs", "lego_combat_kingsbridge_garrison", "lego_combat_INVALID_over_points"]
SIZES = ["poker", "tarot", "a6"]
FACES = {"DejaVuSans": REGULAR, "DejaVuSans-Bold": BOLD, "DejaVuSansCondensed": COND,
         "DejaVuSansCondensed-Bold": COND_BOLD}
BAND = re.compile(r'\d+-\d+"')


def _export(tmp_path: Path, sample: str, size: str) -> Path:
    roster = load_roster(SAMPLES / f"{sample}.toml").roster
    report = cost_roster(load(roster.ruleset), roster)
    out = tmp_path / f"{sample}-{size}.pdf"
    export_cards(report, validate_report(report), out, CardOptions(size=size, paper="a4", summary=False))
    return out


def _words(pdf: Path) -> list[list[tuple[float, float, float, float, str]]]:
    """Each page's strings as drawn, one a text-showing operator: (left, right, baseline, size, text)."""
    register()
    reader = PdfReader(str(pdf))
    pages = []
    for page in reader.pages:
        fonts = page["/Resources"].get("/Font", {})
        found: list[tuple[float, float, float, float, str]] = []
        ctm, stack, face, size, tm = (1, 0, 0, 1, 0, 0), [], REGULAR, 0.0, (1, 0, 0, 1, 0, 0)
        for operands, op in ContentStream(page.get_contents(), reader).operations:
            if op == b"q":
                stack.append(ctm)
            elif op == b"Q":
                ctm = stack.pop()
            elif op == b"cm":
                a, b, c, d, e, f = (float(x) for x in operands)
                ctm = (a * ctm[0] + b * ctm[2], a * ctm[1] + b * ctm[3], c * ctm[0] + d * ctm[2],
                       c * ctm[1] + d * ctm[3], e * ctm[0] + f * ctm[2] + ctm[4], e * ctm[1] + f * ctm[3] + ctm[5])
            elif op == b"Tf":
                face = FACES[str(fonts[operands[0]].get_object()["/BaseFont"]).split("+", 1)[-1]]
                size = float(operands[1])
            elif op == b"Tm":
                tm = tuple(float(x) for x in operands)
            elif op == b"Tj":
                raw = operands[0]
                text = raw.decode("latin-1") if isinstance(raw, bytes) else str(raw)
                x = tm[4] * ctm[0] + tm[5] * ctm[2] + ctm[4]
                y = tm[4] * ctm[1] + tm[5] * ctm[3] + ctm[5]
                pt = size * ctm[0]
                found.append((x, x + stringWidth(text, face, pt), y, pt, text))
        pages.append(found)
    return pages


def _band_rows(words) -> list[list[tuple]]:
    """The runs of bands drawn on one baseline close together (a weapon's row on one card)."""
    by_line: dict[float, list] = {}
    for w in words:
        if BAND.fullmatch(w[4]):
            by_line.setdefault(round(w[2], 1), []).append(w)
    rows = []
    for line in by_line.values():
        line.sort()
        row: list = []
        for w in line:
            if row and w[0] - row[-1][1] > 3 * w[3]:
                rows.append(row)
                row = []
            row.append(w)
        rows.append(row)
    return rows


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", LEGO)
def test_range_bands_are_columns_lined_up_under_one_heading(tmp_path, sample, size):
    """A ranged weapon's three bands stand in three columns on its own row (never a band alone
    on a line, no " / " between them), under one "Range 0 / -1 / -2" heading, each band centred
    over the same band of the rows below it on the card."""
    checked = 0
    for words in _words(_export(tmp_path, sample, size)):
        assert not any(" / " in t and BAND.search(t) for *_, t in words), [t for *_, t in words if " / " in t]
        heads = [w for w in words if w[4] == "Range 0 / -1 / -2"]
        tables: dict[int, list[list[float]]] = {}
        for row in _band_rows(words):
            assert len(row) == 3, [w[4] for w in row]
            centres = [(w[0] + w[1]) / 2 for w in row]
            # its table: the nearest heading above it that spans its middle band
            above = [(h[2] - row[0][2], k) for k, h in enumerate(heads)
                     if h[0] - 1 <= centres[1] <= h[1] + 1 and h[2] > row[0][2]]
            assert above, [w[4] for w in row]
            tables.setdefault(min(above)[1], []).append(centres)
        for rows in tables.values():
            for centres in rows[1:]:
                assert all(abs(a - b) < 0.6 for a, b in zip(centres, rows[0])), (rows[0], centres)
            checked += len(rows)
    assert checked >= 2
