"""The summary page's QR code: a phone reads the list off the printout."""

from __future__ import annotations

import pytest
from conftest import SAMPLES, run_cli

from rosterkit.cards.summary import list_qr
from rosterkit.engine.textlist import compact_text
from rosterkit.workspace import open_roster

pdfium = pytest.importorskip("pypdfium2")
zxingcpp = pytest.importorskip("zxingcpp")


def read_codes(pdf, page: int = 0) -> list[str]:
    doc = pdfium.PdfDocument(str(pdf))
    image = doc[page].render(scale=200 / 72).to_pil()
    return [r.text for r in zxingcpp.read_barcodes(image) if r.format == zxingcpp.BarcodeFormat.QRCode]


@pytest.mark.parametrize("sample", ["heroic_gods_trojans.toml", "ares_hill_clans.toml",
                                    "lego_combat_blackwater_corsairs.toml"])
def test_the_summary_page_qr_code_reads_back_as_the_compact_list(registry, tmp_path, sample):
    pdf = tmp_path / "cards.pdf"
    run_cli("cards", SAMPLES / sample, "-o", pdf)
    expected = compact_text(open_roster(SAMPLES / sample, registry).report)
    assert read_codes(pdf) == [expected]
    assert expected == run_cli("text", "--compact", SAMPLES / sample).out
    assert "++" in expected.splitlines()[0]  # the header line, then one line a unit


def test_a_list_too_long_for_a_qr_code_says_so_instead(registry, tmp_path):
    assert list_qr("x" * 2800) is not None
    assert list_qr("x" * 2801) is None
    assert list_qr("Ł" * 1401) is None  # bytes count, not characters
    # and the summary page says so in place of the code
    long_army = (SAMPLES / "fast_universal_iron_vanguard.toml").read_text() + "".join(
        f'\n[[units]]\nname = "Spearmen of the long road, company {i}"\ntype = "basic"\ncount = 10\n'
        'weapons = ["Claw/hand/spear/sword"]\n'
        "stats = { dice = 1, die = 6, move = 6, fight = 0, shoot = 0, defense = 8 }\n" for i in range(60))
    roster = tmp_path / "long.toml"
    roster.write_text(long_army)
    pdf = tmp_path / "long.pdf"
    result = run_cli("cards", roster, "-o", pdf)
    assert result.code == 0, result.err
    import pypdf
    assert "too long for a QR code" in pypdf.PdfReader(pdf).pages[0].extract_text().replace("\n", " ")
    assert read_codes(pdf) == []


def test_a_forty_unit_list_reads_at_150_dpi(registry, tmp_path):
    army = (SAMPLES / "fast_universal_iron_vanguard.toml").read_text() + "".join(
        f'\n[[units]]\nname = "Co {i}"\ntype = "basic"\ncount = 10\n'
        'weapons = ["Claw/hand/spear/sword"]\n'
        "stats = { dice = 1, die = 6, move = 6, fight = 0, shoot = 0, defense = 8 }\n" for i in range(37))
    roster = tmp_path / "forty.toml"
    roster.write_text(army)
    pdf = tmp_path / "forty.pdf"
    assert run_cli("cards", roster, "-o", pdf).code == 0
    report = open_roster(roster, registry).report
    assert len(compact_text(report).encode()) > 2800  # with every stat, too long for a QR code
    expected = compact_text(report, stats=False)  # so the code holds the units by name
    # the header line, a line for each of the two types, forty units, the total and the fingerprint
    assert len(expected.splitlines()) == 45
    doc = pdfium.PdfDocument(str(pdf))
    image = doc[0].render(scale=150 / 72).to_pil()
    assert [r.text for r in zxingcpp.read_barcodes(image)] == [expected]
