"""The game's rolls in the deck, on the reference cards, in every export (a sheet more if need
be: players look for them among the cards), and on the summary page as well, in two columns after
the units where the page has room for them all (not with --no-rules-page or --no-summary). The
bars by type sit beside the QR code."""

from __future__ import annotations

import io

import pytest
from conftest import SAMPLES, load, run_cli
from pypdf import PdfReader
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from rosterkit.cards.pdf import CardOptions, export_cards
from rosterkit.cards.summary import Columns, PageFlow
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.validation import validate_report
from rosterkit.files.rosters import load_roster

VALID = ["ares_border_levy", "ares_crown_household", "ares_hill_clans", "fast_universal_ashen_host",
         "fast_universal_iron_vanguard", "for_the_masses_alvernan_host", "for_the_masses_orc_warband",
         "heroic_gods_achaeans", "heroic_gods_trojans", "lego_combat_blackwater_corsairs",
         "lego_combat_kingsbridge_garrison"]


def rule_names(cards) -> list[str]:
    return [r.name for r, when in cards.report.ruleset.card_rules if when is None]


def cards_text(cards) -> str:
    return "\n".join(cards.pages[cards.result.summary_pages:])


def reference_text(cards) -> str:
    """The reference cards' text (they follow the unit cards)."""
    text = cards_text(cards)
    return text[text.index("Reference"):] if "Reference" in text else ""


def summary_text(cards) -> str:
    return "\n".join(cards.pages[:cards.result.summary_pages])


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_border_levy_reads_its_rolls_on_the_summary_page_and_in_the_deck(sample_cards, size):
    """ARES's twelve rolls: on the summary page, under its units, and on reference cards after the
    abilities' and specials' texts. At poker the five cards leave four places of the sheet blank,
    which three more hold; the tarot and A6 sheets are full, and the rolls take a sheet more (at
    tarot four cards, grown to fill it, at A6 three)."""
    cards = sample_cards(SAMPLES / "ares_border_levy.toml", CardOptions(size=size, paper="a4"))
    summary = summary_text(cards)
    assert cards.result.summary_pages == 1
    assert summary.index("Quick rules") > summary.index("Total")  # after the units
    for name in rule_names(cards):
        assert summary.count(name + ":") == 1, name
        assert reference_text(cards).count(name + ":") == 1, name
    assert "QUICK RULES" in cards_text(cards).upper()
    assert cards.result.reference_cards == {"poker": 4, "tarot": 4, "a6": 3}[size]
    assert cards.result.cards == {"poker": 8, "tarot": 8, "a6": 7}[size]
    assert cards.result.card_pages == {"poker": 1, "tarot": 2, "a6": 4}[size]
    assert "4 unit cards" in summary


@pytest.mark.parametrize("options", [dict(rules_page=False), dict(summary=False)],
                         ids=["no-rules-page", "no-summary"])
def test_without_the_page_the_rolls_are_on_the_reference_cards(sample_cards, options):
    cards = sample_cards(SAMPLES / "ares_border_levy.toml", CardOptions(size="poker", paper="a4", **options))
    text = reference_text(cards)
    assert "Quick rules" not in summary_text(cards)
    for name in rule_names(cards):
        assert text.count(name + ":") == 1, name
    assert cards.result.reference_cards == 4


@pytest.mark.parametrize("sample", VALID)
def test_every_valid_sample_reads_its_rolls_on_a_one_page_summary(sample_cards, sample):
    """Each sample's summary holds its rolls on its one page (the bars by type beside the QR code
    leave them the room), and its cards once more: on one sheet with the units' cards, but for the
    heroic_gods sides, whose nine cards fill it (their rolls and chart on a second)."""
    cards = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size="poker", paper="a4"))
    assert cards.result.summary_pages == 1
    for name in rule_names(cards):
        assert summary_text(cards).count(name + ":") == 1, (sample, name)
        assert reference_text(cards).count(name + ":") == 1, (sample, name)
    assert cards.result.pages == 2 + sample.startswith("heroic_gods")  # the page and the sheets of cards


def test_a_page_without_room_leaves_the_rolls_on_the_reference_cards(tmp_path):
    """A few stray rules on a second page would cost a sheet: where the page cannot hold them all
    (here an army's long notes take the room), they are on the reference cards, once, and the page
    keeps to one."""
    opened = load_roster(SAMPLES / "ares_border_levy.toml")
    roster = opened.roster.model_copy(update={"notes": "\n".join(f"Note {i}: the left flank holds the ford."
                                                                    for i in range(24))})
    report = cost_roster(load(roster.ruleset), roster)
    result = export_cards(report, validate_report(report), tmp_path / "c.pdf", CardOptions(size="poker", paper="a4"))
    pages = [page.extract_text() for page in PdfReader(str(tmp_path / "c.pdf")).pages]
    assert result.summary_pages == 1 and "Note 23" in pages[0] and "Quick rules" not in pages[0]
    cards = "\n".join(pages[1:])
    for name in [r.name for r, when in report.ruleset.card_rules if when is None]:
        assert cards.count(name + ":") == 1, name
    assert result.reference_cards == 4


def test_the_rolls_on_the_page_print_at_eight_points_or_more(sample_cards):
    """On the page they keep the cells' 9 pt, or as little as the poker cards' 8 pt body where
    that keeps them on it."""
    seen = set()
    for sample in ("ares_border_levy", "ares_hill_clans", "lego_combat_kingsbridge_garrison"):
        cards = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size="poker", paper="a4"))
        names = rule_names(cards)
        sizes: dict[str, float] = {}

        def visit(text, cm, tm, font, size, names=names, sizes=sizes):
            for name in names:
                if text.strip() == name:
                    sizes[name] = round(size * tm[0] if tm[0] else size, 2)

        PdfReader(str(cards.path)).pages[0].extract_text(visitor_text=visit)
        assert set(sizes) == set(names), sample
        assert len(set(sizes.values())) == 1 and 8.0 <= min(sizes.values()) <= 9.0, (sample, sizes)
        seen |= set(sizes.values())
    assert 9.0 in seen


def test_the_cards_command_takes_no_rules_page(tmp_path):
    army = SAMPLES / "ares_border_levy.toml"
    on, off = tmp_path / "on.pdf", tmp_path / "off.pdf"
    assert run_cli("cards", army, "-o", on, "-q").code == 0
    assert run_cli("cards", army, "-o", off, "-q", "--no-rules-page").code == 0
    first_on = PdfReader(str(on)).pages[0].extract_text()
    first_off = PdfReader(str(off)).pages[0].extract_text()
    assert "Quick rules" in first_on and "Held, borrowed:" in first_on
    # (in the deck either way)
    assert "Quick rules" not in first_off and "4 reference cards" in first_on and "4 reference cards" in first_off


def test_columns_continue_on_the_next_page_whole_and_in_order():
    """A list longer than the page goes on in two columns on the next, no text split between
    columns or pages, read in order (left column, then right, page after page)."""
    style = ParagraphStyle("r", fontName="Helvetica", fontSize=9, leading=11)
    texts = [f"Rule {i:03d}: " + "word " * (10 + 7 * (i % 5)) for i in range(120)]

    def make(size: float) -> list:
        return [Paragraph(t, ParagraphStyle("r", style, fontSize=size, leading=size * 1.25)) for t in texts]

    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(595, 842))
    pages = PageFlow(canvas, (595, 842)).run([Columns(make, (9.0, 8.5, 8.0))])
    canvas.save()
    assert pages >= 2
    read = "".join(p.extract_text() for p in PdfReader(io.BytesIO(out.getvalue())).pages)
    order = [read.index(f"Rule {i:03d}:") for i in range(120)]
    assert all(read.count(f"Rule {i:03d}:") == 1 for i in range(120))
    # (pypdf reads a page's left column, then its right one: the rules come in their order)
    assert order == sorted(order)
