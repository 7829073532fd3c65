"""Unit record cards (PDF): text read back, pages, fitting without loss, Unicode, the command."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from conftest import SAMPLES, load, run_cli
from pypdf import PdfReader

from rosterkit.cards.content import (
    NOTHING,
    CardBuilder,
    card_count,
    plan_glossary,
    roster_code,
)
from rosterkit.cards.fonts import FONT_DIR, Glyphs
from rosterkit.cards.layout import CardLayout
from rosterkit.cards.pdf import CardOptions, ExportResult, export_cards
from rosterkit.cards.sizes import CARD_SIZES, card_size
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.display import stat_line
from rosterkit.engine.validation import validate_report
from rosterkit.errors import RosterkitError
from rosterkit.files.rosters import load_roster, loads_roster
from rosterkit.rules.numbers import fmt
from rosterkit.rules.ruleset import norm

SAMPLE_FILES = sorted(SAMPLES.glob("*.toml"))
NO_EXTRAS = dict(summary=False, glossary=False, rules=False)


def squash(text: str) -> str:
    """Text without any whitespace: names may be wrapped onto two lines on a card."""
    return re.sub(r"\s+", "", text)


def report_of(text: str):
    roster = loads_roster(text)
    report = cost_roster(load(roster.ruleset), roster)
    return report, validate_report(report)


def export(report, validation, path: Path, **options) -> tuple[ExportResult, list[str]]:
    options.setdefault("paper", "a4")
    result = export_cards(report, validation, path, CardOptions(**options))
    pages = [p.extract_text() or "" for p in PdfReader(str(path)).pages]
    assert len(pages) == result.pages
    return result, pages


def unit_toml(name: str, extra: str = "", type_: str = "Basic") -> str:
    return f'[[units]]\nname = "{name}"\ntype = "{type_}"\ncount = 2\nweapons = ["Spear"]\n{extra}\n'


def units_toml(n: int, name: str = "Unit", extra: str = "", type_: str = "Basic", army: str = "Split test") -> str:
    """A fast_universal roster of n units named "<name> 1" ... "<name> n"."""
    head = f'format = 1\nname = "{army}"\nruleset = "fast_universal"\npoints_limit = 100000\n'
    return head + "\n".join(unit_toml(f"{name} {i + 1}", extra, type_) for i in range(n))


LONG_ABILITIES = "\n".join(
    f'[[abilities]]\nname = "Drill {k:02d}"\ncost = 1\n'
    f'description = "Special rule number {k} of this unit, explained at some length so that it takes two or three '
    f'lines on a card, with its timing, its exceptions and what happens when it meets rule {k + 1}."\n'
    for k in range(1, 21))


# ---------------------------------------------------------------- every sample army


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: p.stem)
def test_sample_cards_read_back(sample_cards, path):
    """Unit names, points, the points label and the ruleset's stat labels are in the PDF text."""
    shared = sample_cards(path, CardOptions(paper="a4"))
    report, validation, result, pages = shared.report, shared.validation, shared.result, shared.pages
    roster, rs = report.roster, report.ruleset
    assert len(pages) == result.pages
    text = squash("\n".join(pages))
    assert result.cards >= card_count(report, result.per)
    assert not result.missing_glyphs
    for unit in report.units:
        assert squash(unit.name) in text
        assert squash(fmt(unit.total)) in text
    assert squash(rs.data.points_label) in text
    # a stat no figure of the army has (every value "None", "0", "n/a", or the column's usual
    # value, as LEGO's one attack a round) is left off the cards
    usual = {col.label: norm(col.usual) for col in rs.data.card.columns if col.usual is not None}
    held = {lab for u in report.units for m in u.members
            for lab, value in stat_line(rs, u, m) if norm(value) not in NOTHING and norm(value) != usual.get(lab)}
    # (a column the card section sets in the subtitle is said there, a rank by the type's name;
    # one kept off the cards, as LEGO's Combat inside Att and Def, is not on them)
    subtitled = {col.label for col in rs.data.card.columns if col.subtitle or not col.on_cards}
    for label, _ in rs.card_columns or [(s.short_label, None) for s in rs.stats.values()]:
        if label in subtitled:
            continue
        for word in label.split():
            assert word in text or label not in held, f"stat label {label!r} missing"
    for (label, _), row in zip(rs.card_rows, rs.data.card.rows):
        assert squash(label) in text or not row.on_cards, label  # (a row for text lists only need not be)
    # the summary page: army, fingerprint, validation status
    summary = pages[0]
    assert squash(roster.name) in squash(summary)
    assert roster_code(report) in summary
    assert ("NOT VALID" in summary) == (not validation.ok)
    if "INVALID" in path.stem:
        assert "NOT VALID" in summary


@pytest.mark.parametrize("path", [p for p in SAMPLE_FILES if "INVALID" not in p.stem], ids=lambda p: p.stem)
def test_sample_cards_fit_every_size(path):
    """Every sample's cards lay out in every size with every row inside its card."""
    roster = load_roster(path).roster
    report = cost_roster(load(roster.ruleset), roster)
    for size in CARD_SIZES.values():
        assert_cards_fit(report, size.id)


def assert_cards_fit(report, size_id: str, per: str | None = None, validation=None) -> int:
    """Lay out every card (with ``validation``'s bands where given); check no row overflows its
    frame, down or across. Returns cards."""
    size = card_size(size_id)
    per = per or report.ruleset.data.card.per
    glyphs = Glyphs()
    lay = CardLayout(size, glyphs, f"{report.roster.name} · {report.ruleset.name}", list(report.ruleset.types))
    cards = 0
    contents = list(CardBuilder(report, per, plan_glossary(report, per, True), validation).cards())
    lay.fit(contents)
    lay.grow(contents)  # (as the export prints them: stat values and boxes as large as the cards allow)
    for content in contents:
        laid = lay.layout(content)
        for i, rows in enumerate(laid.pages):
            head = laid.head(i)
            assert sum(r.height for r in rows) <= lay.frame_height(head) + 0.01, content.title
            for r in rows:
                for op in r.ops:
                    if op[0] == "T":
                        _, x, _, font, fsize, _, text = op
                        assert x + lay.m.width(text, font, fsize) <= lay.inner_w + 0.5, (content.title, text)
            cards += 1
        assert laid.size >= size.low
    return cards


STRESS = """
format = 1
name = "Stress"
ruleset = "for_the_masses"

[[units]]
name = "%s"
type = "Infantry"
[[units.members]]
name = "%s"
count = 40
stats = { mv = 5, att = "2d8", defense = 2, wnd = 9, mor = 7 }
abilities = ["%s"]
notes = "First line.\\nSecond line, after a line break."
[[units.members]]
name = "Sergeant"
count = 1
stats = { mv = 5, att = "2d8", defense = 2, wnd = 90, mor = 7 }

[[abilities]]
name = "%s"
cost = 1
description = "%s"
""" % ("W" * 200, "Long-member-name-" * 5, "Ability" * 20, "Ability" * 20, "word " * 400)


def test_stress_cards_fit_every_size(tmp_path):
    """Unbroken 200-character names, a 2,000-word description, more boxes than a card takes."""
    report, validation = report_of(STRESS)
    for size in CARD_SIZES.values():
        assert assert_cards_fit(report, size.id) > 1
    _, pages = export(report, validation, tmp_path / "c.pdf", **NO_EXTRAS)
    text = squash("".join(pages))
    assert "W" * 200 in text
    assert text.count("word") == 400
    assert "360(toomanyboxestoprint;keepatally)" in text
    # the flowed text of the unit's cards, in order, has every character of the long names
    lay = CardLayout(card_size("poker"), Glyphs(), "f", list(report.ruleset.types))
    laid = lay.layout(next(CardBuilder(report, "unit", []).cards()))
    flowed = squash("".join(op[6] for rows in laid.pages for r in rows for op in r.ops if op[0] == "T"))
    assert "Ability" * 20 in flowed and "Long-member-name-" * 5 in flowed
    boxes = sum(1 for rows in laid.pages for r in rows for op in r.ops if op[0] == "B")
    assert boxes == 94  # (the Sergeant's 90 wounds, and the unit's four actions)


# ---------------------------------------------------------------- sheets


@pytest.mark.parametrize("size, paper, per_page", [
    ("poker", "letter", 9), ("poker", "a4", 9),
    ("tarot", "letter", 4), ("large", "a4", 4),
    ("index", "letter", 4), ("index", "a4", 4),
    ("a6", "letter", 2), ("a6", "a4", 2),
])
def test_cards_per_sheet(tmp_path, size, paper, per_page):
    n = 2 * per_page + 1
    report, validation = report_of(units_toml(n))
    result, pages = export(report, validation, tmp_path / "c.pdf", size=size, paper=paper, **NO_EXTRAS)
    assert result.per_page == per_page
    assert result.cards == n
    assert result.pages == math.ceil(n / per_page) == 3
    reader = PdfReader(str(tmp_path / "c.pdf"))
    w, h = sorted((float(reader.pages[0].mediabox.width), float(reader.pages[0].mediabox.height)))
    assert (round(w), round(h)) == {"letter": (612, 792), "a4": (595, 842)}[paper]
    for i, text in enumerate(pages):
        assert text.count("Split test · Fast Universal Wargame") == min(per_page, n - i * per_page)


def test_summary_and_glossary_pages_are_added(tmp_path):
    # heroes with two action dice, who can cast it: no warning takes a card's room
    fireball = 'abilities = ["Fireball"]\nstats = { dice = 2 }'
    report, validation = report_of(units_toml(3, extra=fireball, type_="Hero"))
    bare, _ = export(report, validation, tmp_path / "a.pdf", **NO_EXTRAS)
    full, pages = export(report, validation, tmp_path / "b.pdf", rules=False)
    # three cards with room for Fireball's text print it: no reference card is needed
    assert full.summary_pages == 1 and full.reference_cards == 0
    assert full.pages == bare.pages + 1 and full.cards == bare.cards
    assert pages[-1].count("Fireball:") == 3 and "Reference" not in pages[-1]
    # cards too full for the texts name the abilities; a reference card describes them
    abilities = ", ".join(f'"Drill {k:02d}"' for k in range(1, 13))
    report, validation = report_of(units_toml(2, extra=f"abilities = [{abilities}]") + "\n" + LONG_ABILITIES)
    full, pages = export(report, validation, tmp_path / "c.pdf", rules=False)
    cards = "\n".join(pages[full.summary_pages:])
    assert full.reference_cards >= 1 and "see the reference card" in cards
    assert "Reference" in cards and "Drill 01:" in cards


def test_custom_and_unknown_sizes():
    assert round(card_size("57x89mm").width / 72 * 25.4) == 57
    assert round(card_size("2.5x3.5in").height) == 252
    with pytest.raises(RosterkitError, match="unknown card size 'huge'"):
        card_size("huge")
    with pytest.raises(RosterkitError, match="too small"):
        card_size("10x10mm")


# ---------------------------------------------------------------- fitting


def test_long_ability_list_continues_on_a_second_card(tmp_path):
    abilities = ", ".join(f'"Drill {k:02d}"' for k in range(1, 21))
    text = units_toml(1, "Veterans", f"abilities = [{abilities}]\nnotes = \"Last line of the notes.\"") \
        + "\n" + LONG_ABILITIES
    report, validation = report_of(text)
    result, pages = export(report, validation, tmp_path / "c.pdf", **NO_EXTRAS)
    assert result.cards > 1
    assert result.continued == ["Veterans 1"]
    all_text = squash("\n".join(pages))
    for k in range(1, 21):
        assert f"Drill{k:02d}" in all_text
        assert squash(f"what happens when it meets rule {k + 1}.") in all_text  # every description, whole
    assert "Lastlineofthenotes." in all_text
    n = result.cards
    assert f"continued(2/{n})" in all_text
    assert f"card1of{n}" in all_text and f"card{n}of{n}" in all_text
    assert assert_cards_fit(report, "poker", validation=validation) == n


def test_one_body_size_fits_the_fullest_card():
    """The export's body size is the largest at which its fullest card still fits on one card."""
    abilities = ", ".join(f'"Drill {k:02d}"' for k in range(1, 3))
    report, _ = report_of(units_toml(3) + "\n" + unit_toml("Guard", f"abilities = [{abilities}]") + "\n"
                          + LONG_ABILITIES)
    size = card_size("poker")
    lay = CardLayout(size, Glyphs(), "footer", list(report.ruleset.types))
    # (without the morale reminder, which an export leaves off where it would cost the body)
    builder = CardBuilder(report, "unit", [])
    builder.reminders = False
    contents = list(builder.cards())
    body = lay.fit(contents)
    assert size.low <= body < size.high
    assert all(len(lay.layout(c).pages) == 1 for c in contents)
    lay.use(body + 0.25)
    assert lay.one_card(contents[-1]) is None  # a step larger and the fullest card would not fit
    # short cards: the largest size at which they fit and no word of a weapon's name is broken
    short = CardLayout(size, Glyphs(), "footer", list(report.ruleset.types))
    body = short.fit(contents[:3])
    assert body > size.low and all(short.one_card(c) is not None and short.one_row(c) for c in contents[:3])
    if body < size.high:
        short.use(body + 0.25)
        assert not all(short.one_card(c) is not None and short.one_row(c) for c in contents[:3])


def test_a_card_is_never_split_across_pages(tmp_path):
    """Cards of many sizes, some continued: each page holds whole cards (one footer per title)."""
    abilities = ", ".join(f'"Drill {k:02d}"' for k in range(1, 13))
    text = (units_toml(10) + "\n" + "\n".join(unit_toml(f"Long {i}", f"abilities = [{abilities}]")
                                             for i in range(1, 5)) + LONG_ABILITIES)
    report, validation = report_of(text)
    result, pages = export(report, validation, tmp_path / "c.pdf", glossary=False, summary=False, rules=False)
    assert result.continued
    assert result.cards > len(report.units)
    title = re.compile(r"^(?:Unit|Long) \d+(?: \d+)?$", re.MULTILINE)  # the name (then the points badge)
    for page in pages:
        assert len(title.findall(page)) == page.count("Split test · Fast Universal Wargame"), page
    assert sum(len(title.findall(p)) for p in pages) == result.cards


def test_long_repeated_descriptions_go_to_the_glossary(tmp_path):
    text = units_toml(3, "Band", 'abilities = ["Drill 01", "Fearless"]') + "\n" + LONG_ABILITIES
    report, validation = report_of(text)
    _, pages = export(report, validation, tmp_path / "c.pdf")
    every = squash("\n".join(pages))
    snippet = squash("Special rule number 1 of this unit")
    assert every.count(snippet) == 1  # once, on the glossary page
    assert snippet in squash(pages[-1])
    assert every.count("Drill01–seethereferencecard") == 3
    # short: on each card, and not again on the reference card (it holds what the cards refer to it)
    assert every.count(squash("Passes every morale check without rolling.")) == 3
    # without a glossary the description is on every card
    _, pages = export(report, validation, tmp_path / "d.pdf", glossary=False)
    assert squash("\n".join(pages)).count(snippet) == 3


# ---------------------------------------------------------------- Unicode


def test_unicode_names_round_trip(tmp_path):
    text = units_toml(1, "Łukasz", army="Šárka's Ωmega Host") + "\n" + unit_toml("Ωmega Šárka", type_="Hero")
    report, validation = report_of(text)
    result, pages = export(report, validation, tmp_path / "c.pdf")
    every = "\n".join(pages)
    for word in ("Łukasz 1", "Ωmega Šárka", "Šárka's Ωmega Host"):
        assert word in every
    assert not result.missing_glyphs


def test_missing_glyphs_are_reported_not_boxed(tmp_path):
    report, validation = report_of(units_toml(1, "Dragon 龍 🐉"))
    result, pages = export(report, validation, tmp_path / "c.pdf")
    assert result.missing_glyphs == {"龍", "🐉"}
    assert "[U+9F8D]" in pages[1] and "[U+1F409]" in pages[1]
    assert "龍" not in "".join(pages)


def test_control_and_combining_characters(tmp_path):
    glyphs = Glyphs()
    assert glyphs.clean("S\u030carka") == "Šarka"  # combining caron composed
    assert glyphs.clean("a\u200db\ufe0f\x07c") == "abc"  # joiners, selectors, controls dropped
    assert glyphs.clean("one\ntwo") == "one two"
    assert glyphs.clean("one\r\ntwo", multiline=True) == "one\ntwo"
    assert not glyphs.missing


def test_fonts_and_licence_ship_in_the_package():
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "LICENSE-DejaVu.txt"):
        assert (FONT_DIR / name).is_file()
    assert "Bitstream" in (FONT_DIR / "LICENSE-DejaVu.txt").read_text()


# ---------------------------------------------------------------- per figure, tracks, progress


def test_one_card_per_figure_or_per_unit(tmp_path):
    path = next(p for p in SAMPLE_FILES if p.stem.startswith("for_the_masses") and "INVALID" not in p.stem)
    roster = load_roster(path).roster
    report = cost_roster(load(roster.ruleset), roster)
    validation = validate_report(report)
    per_unit, _ = export(report, validation, tmp_path / "u.pdf", **NO_EXTRAS)
    per_figure, _ = export(report, validation, tmp_path / "f.pdf", per="figure", **NO_EXTRAS)
    assert per_unit.per == report.ruleset.data.card.per == "unit"
    assert per_unit.cards == len(report.units)
    assert per_figure.cards == sum(u.figures for u in report.units)


def test_tracking_boxes_follow_the_formula():
    path = next(p for p in SAMPLE_FILES if p.stem.startswith("for_the_masses") and "INVALID" not in p.stem)
    roster = load_roster(path).roster
    report = cost_roster(load(roster.ruleset), roster)
    lay = CardLayout(card_size("poker"), Glyphs(), "f", list(report.ruleset.types))
    for unit, content in zip(report.units, CardBuilder(report, "unit", []).cards()):
        expected = sum(m.stats["wnd"] * m.count for m in unit.members)
        wounds = [t for t in content.tracks if t.label == "Wounds"]
        assert sum(t.boxes for t in wounds) == expected
        # a Personality's space for the CP it has left (a counter: one box)
        expected += sum(1 for t in content.tracks if t.label == "CP left this turn")
        # and four boxes for the actions the unit has taken this turn (each costs a CP more)
        expected += sum(t.boxes for t in content.tracks if t.label == "Actions")
        if unit.members[0].count > 1:  # boxes in groups of one element's wounds
            assert content.tracks[0].group == unit.members[0].stats["wnd"]
        laid = lay.layout(content)
        boxes = sum(1 for rows in laid.pages for r in rows for op in r.ops if op[0] == "B")
        assert boxes == expected


def test_progress_is_reported(tmp_path):
    report, validation = report_of(units_toml(450))
    seen = []
    export_cards(report, validation, tmp_path / "c.pdf", CardOptions(paper="a4", **NO_EXTRAS),
                 progress=lambda done, total: seen.append((done, total)))
    assert seen[0] == (0, 450) and seen[-1] == (450, 450)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert len(seen) <= 250


def test_too_many_cards_is_refused(tmp_path):
    report, validation = report_of(units_toml(5))
    with pytest.raises(RosterkitError, match="more than 3"):
        export_cards(report, validation, tmp_path / "c.pdf", CardOptions(paper="a4", max_cards=3))
    assert not (tmp_path / "c.pdf").exists()


# ---------------------------------------------------------------- the command


def test_cli_writes_the_pdf(tmp_path):
    sample = next(p for p in SAMPLE_FILES if "INVALID" not in p.stem)
    out = tmp_path / "cards.pdf"
    r = run_cli("cards", sample, "-o", out, "--paper", "letter", "--size", "tarot")
    assert r.code == 0, r.err
    assert out.read_bytes().startswith(b"%PDF")
    assert "cards.pdf" in r.out and "4 to a Letter sheet" in r.out
    r = run_cli("cards", sample, "-o", tmp_path / "b.pdf", "--no-cut-marks", "--no-summary", "--no-glossary",
                "--per", "figure", "-q")
    assert r.code == 0 and r.out == ""
    assert (tmp_path / "b.pdf").is_file()


def test_cli_invalid_roster_still_prints_with_a_warning(tmp_path):
    sample = next(p for p in SAMPLE_FILES if "INVALID" in p.stem)
    r = run_cli("cards", sample, "-o", tmp_path / "x.pdf")
    assert r.code == 0
    assert "warning: the roster has" in r.err


def test_cli_bad_roster_path(tmp_path):
    r = run_cli("cards", tmp_path / "nope.toml", "-o", tmp_path / "x.pdf")
    assert r.code == 2
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and "nope.toml" in lines[0] and "no such file" in lines[0]
    assert not (tmp_path / "x.pdf").exists()


def test_cli_unwritable_output_and_bad_size(tmp_path):
    sample = next(p for p in SAMPLE_FILES if "INVALID" not in p.stem)
    r = run_cli("cards", sample, "-o", tmp_path / "missing" / "x.pdf")
    assert r.code == 2 and "cannot write the PDF" in r.err
    r = run_cli("cards", sample, "-o", tmp_path / "x.pdf", "--size", "huge")
    assert r.code == 2 and "unknown card size" in r.err


def test_cli_reports_missing_glyphs(tmp_path):
    roster = tmp_path / "r.toml"
    roster.write_text(units_toml(1, "Dragon 🐉"), encoding="utf-8")
    r = run_cli("cards", roster, "-o", tmp_path / "x.pdf")
    assert r.code == 0
    assert "no glyph for '🐉' (U+1F409" in r.err


# ---------------------------------------------------------------- what a printed sheet must show


def _sample(prefix: str) -> Path:
    return next(p for p in SAMPLE_FILES if p.stem.startswith(prefix) and "INVALID" not in p.stem)


def _export_sample(sample_cards, path: Path, **options):
    """The sample's cards, exported once for every test that prints it with these options: its
    report, the export's result (``result.path``: the PDF, to read only) and each page's text."""
    options.setdefault("paper", "a4")
    shared = sample_cards(path, CardOptions(**options))
    assert len(shared.pages) == shared.result.pages
    return shared.report, shared.result, shared.pages


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: p.stem)
def test_every_card_carries_the_fingerprint_and_its_number(sample_cards, path):
    report, result, pages = _export_sample(sample_cards, path)
    code = roster_code(report)
    cards = pages[result.summary_pages:]
    assert cards and all(code in page for page in cards)
    numbers = [int(k) for page in cards for k in re.findall(r"card (\d+) of %d" % result.cards, page)]
    assert numbers == list(range(1, result.cards + 1))


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_one_export_uses_one_set_of_type_sizes(sample_cards, size):
    """Read back from the PDF: every text on every card sheet is at one of the export's sizes
    (one body size, its title, label, stat and box-number sizes), the body size on every sheet."""
    path = _sample("ares_hill")
    _report, result, _ = _export_sample(sample_cards, path, size=size, summary=False)
    allowed = result.type_sizes
    # (and the quick rules' size on the reference card, and at poker the reminder's floor)
    assert result.body_size in allowed and card_size(size).title in allowed
    assert result.rules_size in allowed and len(allowed) <= 7
    reader = PdfReader(str(result.path))
    for page in reader.pages:
        seen: set[float] = set()

        def visit(text, cm, tm, font, fsize, seen=seen):
            if text.strip():
                seen.add(round(fsize * tm[0], 2) if tm[0] else round(fsize, 2))
        page.extract_text(visitor_text=visit)
        assert seen <= {round(x, 2) for x in allowed}, (seen, allowed)
        assert round(result.body_size, 2) in seen


def test_a6_prints_at_true_size_two_to_an_a4_sheet(tmp_path):
    report, validation = report_of(units_toml(8))
    result, _pages = export(report, validation, tmp_path / "c.pdf", size="a6", paper="a4", **NO_EXTRAS)
    assert result.per_page == 2 and result.pages == 4
    assert result.sheet.scale == 1
    assert round(result.sheet.card_width / 72 * 25.4) == 105 and round(result.sheet.card_height / 72 * 25.4) == 148


class _Lines:
    """Records the lines a drawing function draws (the cut marks)."""

    def __init__(self):
        self.lines = []

    def line(self, x1, y1, x2, y2):
        self.lines.append((x1, y1, x2, y2))

    def __getattr__(self, name):
        return lambda *a, **k: None


@pytest.mark.parametrize("size", ["poker", "tarot", "index", "a6"])
@pytest.mark.parametrize("paper_id", ["a4", "letter"])
@pytest.mark.parametrize("gutter", [0.0, 4.0])
def test_cut_marks_stay_in_the_printable_area_and_off_the_cards(size, paper_id, gutter):
    from rosterkit.cards.draw import draw_cut_marks
    from rosterkit.cards.sizes import MM, SHEET_MARGIN, paper, plan_sheet

    sheet = plan_sheet(card_size(size), paper(paper_id), gutter=gutter * MM)
    for used in range(1, sheet.per_page + 1):
        rec = _Lines()
        draw_cut_marks(rec, sheet, used, SHEET_MARGIN)
        assert rec.lines
        cards = [sheet.slot(i) for i in range(used)]
        for x1, y1, x2, y2 in rec.lines:
            for x, y in ((x1, y1), (x2, y2)):
                assert 6.35 * MM - 0.01 <= x <= sheet.page_width - 6.35 * MM + 0.01
                assert 6.35 * MM - 0.01 <= y <= sheet.page_height - 6.35 * MM + 0.01
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            for cx, cy in cards:  # a mark never crosses a card
                assert not (cx + 0.5 < mx < cx + sheet.card_width - 0.5 and cy + 0.5 < my < cy + sheet.card_height - 0.5)


def test_army_card_god_chips_and_the_general(sample_cards):
    _, result, pages = _export_sample(sample_cards, _sample("heroic_gods_achaeans"))
    cards = "\n".join(pages[result.summary_pages:])
    # God chips as three boxes to tick, each God event with a box and its effect; the chips' note
    # as the article says it (a player uses one chip a turn, and only a Hero may use one: "a Hero
    # plays one a turn" read as one per Hero)
    assert re.search(r"God chips 1 2 3 one a turn, by a Hero", cards), cards[:600]
    assert "GOD EVENTS" in cards and "Deflect weapon: kill to wound" in cards
    assert cards.count("Wounded") >= 7  # a box to tick on every figure's card
    report, result, pages = _export_sample(sample_cards, _sample("for_the_masses_alvernan"))
    general = next(u for u in report.units if any(m.stats.get("general") for m in u.members))
    card = next(p for p in pages[result.summary_pages:] if general.name in p)
    assert "★ General" in card
    assert sum(p.count("★ General") for p in pages) == 1


def test_a_unit_that_breaks_a_rule_says_so_on_its_card(sample_cards):
    _, result, pages = _export_sample(sample_cards, next(p for p in SAMPLE_FILES if "unrated" in p.stem))
    cards = squash("\n".join(pages[result.summary_pages:]))
    assert "Notvalid:CombatRatingnotentered" in cards or "Notvalid:CombatRatingmustbeentered" in cards


def test_unit_wide_values_print_once_and_weapon_names_do_not_repeat_their_stats(sample_cards):
    path = _sample("ares_hill")
    report, result, pages = _export_sample(sample_cards, path, summary=False)
    text = "\n".join(pages)
    mixed = next(u for u in report.units if len(u.members) > 1)
    content = next(c for c in CardBuilder(report, "unit", []).cards() if c.title == mixed.name)
    assert content.unit_wide is not None and "Unit Morale" in content.unit_wide.labels
    assert "Unit Morale" not in content.stats.labels
    # once per card (the mixed unit prints one card per kind of figure, each with the unit's values),
    # but for the Hired Giant, an Individual fielded alone, which takes no unit morale tests
    alone = sum(1 for u in report.units if u.figures == 1 and any(
        it.name == "Individual" for m in u.members for it in m.items))
    assert alone == 1
    # (the stat band's Unit Morale; not the reminder's "Unit Morale -2")
    assert len(re.findall(r"UnitMorale(?!-)", squash(text))) == result.cards - result.reference_cards - alone
    assert not re.search(r"\((\d+/D\d+)\)\s+\1", text)


def test_no_font_is_referenced_that_is_not_embedded(sample_cards):
    _, result, _ = _export_sample(sample_cards, _sample("ares_hill"))
    reader = PdfReader(str(result.path))
    for page in reader.pages:
        fonts = page["/Resources"].get_object().get("/Font", {})
        for ref in fonts.values():
            font = ref.get_object()
            assert "Helvetica" not in str(font["/BaseFont"])
            assert font["/Subtype"] in ("/TrueType", "/Type0")


def test_backs_and_gutter(tmp_path):
    report, validation = report_of(units_toml(10))
    result, pages = export(report, validation, tmp_path / "c.pdf", backs=True, gutter=3.0, **NO_EXTRAS)
    (x0, _), (x1, _) = result.sheet.slot(0), result.sheet.slot(1)
    assert round(x1 - x0 - result.sheet.card_width, 2) == round(3.0 * 72 / 25.4, 2)
    assert result.back_pages == result.card_pages
    code = roster_code(report)
    assert all(code in p for p in pages)


def test_placeholder_is_never_split():
    from rosterkit.cards.fonts import REGULAR
    from rosterkit.cards.layout import Wrapper
    from rosterkit.cards.style import Metrics

    w = Wrapper(Metrics())
    text = "Dragon" + "[U+1F409]" * 6
    for width in (30.0, 45.0, 60.0, 90.0):
        lines = w.wrap(((text, REGULAR, None),), 8.0, width, cache=False)
        for line in lines:
            joined = "".join(t for _, t, _, _ in line)
            assert re.fullmatch(r"(Dragon|[a-zA-Z]+)?(\[U\+1F409\])*", joined), joined


ARABIC = """format = 1
name = "جيش الفرسان"
ruleset = "fast_universal"
points_limit = 1000

[[units]]
name = "الفرسان الخفيفة"
type = "Basic"
count = 2
weapons = ["Spear"]
notes = "يتحرك أولا ثم يهاجم"
"""


def test_arabic_is_shaped_and_reads_back_in_logical_order(tmp_path):
    import shutil
    import subprocess
    import unicodedata

    from rosterkit.cards.shaping import Shaper

    if not Shaper().enabled:
        pytest.skip("uharfbuzz or python-bidi is not installed")
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler) is not installed")
    report, validation = report_of(ARABIC)
    result, _ = export(report, validation, tmp_path / "c.pdf", **NO_EXTRAS)
    assert not result.missing_glyphs
    text = subprocess.run(["pdftotext", str(tmp_path / "c.pdf"), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert any("\ufe70" <= ch <= "\ufeff" for ch in text)  # joined (contextual) letter forms
    logical = unicodedata.normalize("NFKC", text)
    for phrase in ("الفرسان الخفيفة", "يتحرك أولا ثم يهاجم", "جيش الفرسان"):
        assert phrase in logical, logical


def test_a_font_of_ones_own(tmp_path):
    from rosterkit.cards.fonts import FONT_DIR

    report, validation = report_of(units_toml(2, "Dragon"))
    font = FONT_DIR / "DejaVuSansCondensed.ttf"
    export(report, validation, tmp_path / "c.pdf", font=str(font), **NO_EXTRAS)
    reader = PdfReader(str(tmp_path / "c.pdf"))
    names = {str(ref.get_object()["/BaseFont"]) for p in reader.pages
             for ref in p["/Resources"].get_object().get("/Font", {}).values()}
    # the player's font only fills in what DejaVu Sans lacks: these names are DejaVu's, bold kept
    assert any(n.endswith("+DejaVuSans-Bold") for n in names) and any(n.endswith("+DejaVuSans") for n in names)
    roster = tmp_path / "r.toml"
    roster.write_text(units_toml(1), encoding="utf-8")
    r = run_cli("cards", roster, "-o", tmp_path / "x.pdf", "--font", tmp_path / "none.ttf")
    assert r.code == 2 and "none.ttf" in r.err and "cannot read the font" in r.err


def test_summary_table_breaks_long_words_inside_their_column():
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from rosterkit.cards.fonts import REGULAR, register
    from rosterkit.cards.summary import split_cell

    register()
    text = "Regiment " + "W" * 120 + " of the line"
    lines = split_cell(text, REGULAR, 9.0, 150.0)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert all(stringWidth(line, REGULAR, 9.0) <= 150.0 for line in lines)


def test_cli_gutter_backs_and_a6(tmp_path):
    sample = _sample("for_the_masses_orc")
    r = run_cli("cards", sample, "-o", tmp_path / "x.pdf", "--size", "a6", "--paper", "a4", "--backs",
                "--gutter", "3")
    assert r.code == 0, r.err
    assert "A6 105 x 148 mm, one per unit, 2 to a landscape A4 sheet;" in r.out and "fingerprint" in r.out
    r = run_cli("cards", sample, "-o", tmp_path / "y.pdf", "--gutter", "50")
    assert r.code == 2 and "50 mm: expected 0 to 20 mm" in r.err and "Traceback" not in r.err
