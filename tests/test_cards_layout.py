"""One unit on one card: what a player printing the sample armies sees."""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest
from cardexports import font_sizes
from conftest import SAMPLES, load
from pdfdraw import horizontal_rules, operations, squares
from pypdf import PdfReader

from rosterkit.cards.pdf import CardOptions, export_cards
from rosterkit.cards.sizes import card_size
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.validation import validate_report
from rosterkit.files.rosters import load_roster, loads_roster

SAMPLE_FILES = sorted(SAMPLES.glob("*.toml"))


def _report(path: Path):
    roster = load_roster(path).roster
    report = cost_roster(load(roster.ruleset), roster)
    return report, validate_report(report)


# (a sample that breaks a rule says so in its name: the first test holds the samples to it)
VALID = [p for p in SAMPLE_FILES if "INVALID" not in p.stem]
INVALID = [p for p in SAMPLE_FILES if "INVALID" in p.stem]


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_a_sample_breaks_a_rule_exactly_when_its_name_says_invalid():
    assert len(VALID) >= 10 and INVALID
    assert [p.stem for p in SAMPLE_FILES if not _report(p)[1].ok] == [p.stem for p in INVALID]


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_every_valid_sample_prints_one_unit_on_one_card_at_poker(sample_cards, path):
    """No unit continues; a mixed unit too full for one card takes one card per kind of figure."""
    shared = sample_cards(path, CardOptions(rules=False, size="poker", paper="a4", summary=False))
    report, result = shared.report, shared.result
    text = squash("".join(shared.pages))
    assert result.continued == []  # no unit continues
    assert "continued(" not in text  # the army card (God chips and events) too
    most = sum(max(1, sum(1 for m in u.members if m.count > 0)) for u in report.units)
    army = 1 if report.ruleset.roster_stats else 0
    assert len(report.units) <= result.cards - army - result.reference_cards <= most


def test_noise_stats_are_left_off_and_the_mixed_unit_splits_by_figure(sample_cards):
    """ARES crown household: the Household Knights (a hero and two knights) print one card per
    kind of figure, each with the unit's morale and command; Spells "None" and Scale 0 are not
    printed as stats."""
    path = SAMPLES / "ares_crown_household.toml"
    shared = sample_cards(path, CardOptions(size="poker", paper="a4", summary=False))
    result = shared.result
    pages = [squash(p) for p in shared.pages]
    text = "".join(pages)
    assert "Spells" not in text and "Scale" not in text and "None" not in text
    # (each card of the unit: the unit's rating in its badge, the kind's share in its subtitle)
    # (each card's badge its kind's points: the badges add up to the army's)
    # (and which of the unit's cards it is: two under one name read as two units)
    assert "HouseholdKnights1101/2·HumanHero·110of286" in text
    assert "HouseholdKnights1762/2·HumanKnight×2·176of286" in text
    # (the stat band's Unit Morale; not the reminder's "Unit Morale -4")
    assert len(re.findall(r"UnitMorale(?!-)", text)) == result.cards - result.reference_cards
    assert "Ratingperfigure" not in text  # the stat band shows each figure's rating already


def test_a_card_that_continues_keeps_its_boxes_on_its_first_card(tmp_path):
    """Long notes push the card over: the wound boxes stay with the stat band on card 1."""
    path = SAMPLES / "ares_crown_household.toml"
    roster = load_roster(path).roster
    units = list(roster.units)
    k = next(i for i, u in enumerate(units) if u.name == "Longbowmen")
    units[k] = units[k].model_copy(update={"notes": " ".join(["Stand fast and loose at the charge."] * 40)})
    roster = roster.model_copy(update={"units": units})
    report = cost_roster(load(roster.ruleset), roster)
    out = tmp_path / "c.pdf"
    result = export_cards(report, validate_report(report), out,
                          CardOptions(size="poker", paper="a4", summary=False, glossary=False))
    assert result.continued == ["Longbowmen"]
    # the cards' texts in order: the Longbowmen's first card carries its wound boxes
    words = squash(PdfReader(str(out)).pages[0].extract_text() or "")
    first = words[words.index("Longbowmen"):words.index("continued(2/")]
    assert re.search(r"Wounds(perfigure)?1123", first), first


@pytest.mark.parametrize("size, body", [("poker", 6.5), ("tarot", 8.0), ("a6", 8.0)])
@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_type_is_readable_at_every_size(sample_cards, path, size, body):
    """Read back from the PDF: nothing on a card under 5.5 pt, the body text at least 6.5 pt on
    poker cards and 8 pt on tarot and A6 cards, and there stats of at least 12 pt."""
    shared = sample_cards(path, CardOptions(size=size, paper="a4", summary=False))
    result = shared.result
    seen = shared.sizes
    assert min(seen) >= 5.5, seen
    assert result.body_size >= body
    assert round(result.body_size, 2) in seen
    # the sizes under the body's are the labels and the numbers in the boxes: two at most (and
    # the quick rules' on the reference card, at the card size's smallest body at least, and the
    # reminder line's, at the smallest body)
    under = [s for s in seen if s < result.body_size and s != result.rules_size]
    assert len([s for s in under if s < card_size(size).low - 1e-9]) <= 2, seen
    assert len(under) <= 3, seen
    assert not result.rules_size or result.rules_size >= card_size(size).low - 1e-9
    if body >= 8:
        assert max(seen) >= 12


def _unit_cards(sample_cards, sample: str) -> list[str]:
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size="poker", paper="a4", summary=False))
    text = "\n".join(shared.pages)
    return [c.strip() for c in re.split(r"card \d+ of \d+", text)[:-1] if not c.strip().startswith("Reference")]


def test_for_the_masses_prints_the_books_columns_with_to_hit_as_a_note(sample_cards):
    """Every card has Mv Att Rng Def Wnd Mor ME CP in the book's order (ME and CP even where
    empty), the same way on every card; the to-hit numbers are a note, not a mostly empty row."""
    for c in _unit_cards(sample_cards, "for_the_masses_orc_warband"):
        labels = re.findall(r"\b(Mv|Att|Rng|Def|Wnd|Mor|ME|CP)\b", c.split("Hits v Def")[0])
        assert labels == ["Mv", "Att", "Rng", "Def", "Wnd", "Mor", "ME", "CP"], c
        assert re.search(r"Hits v Def 0/1/2/3: Att \d+\+/\d+\+/\d+\+/\d+\+", c), c


def test_heroic_gods_wounded_row_does_not_repeat_id_and_rank(sample_cards):
    cards = _unit_cards(sample_cards, "heroic_gods_achaeans")
    achilles = next(c for c in cards if c.startswith("Achilles"))
    wounded = next(line for line in achilles.splitlines() if line.startswith("Wounded "))
    assert re.fullmatch(r"Wounded \d+ \d+ \d+", wounded), wounded  # the factors only


def test_every_card_of_an_army_that_breaks_a_rule_says_not_valid(sample_cards):
    """Without the summary page, a card of an over-limit army still says so, and by how much, on
    every card: "NOT VALID: 258/250" (its points over the limit); an army breaking another rule
    says "NOT VALID" (the summary page says which)."""
    path = SAMPLES / "lego_combat_INVALID_over_points.toml"
    shared = sample_cards(path, CardOptions(size="poker", paper="a4", summary=False))
    assert not shared.validation.ok
    result = shared.result
    text = "\n".join(shared.pages)
    assert text.count("NOT VALID: 258/250") == result.cards
    other = sample_cards(SAMPLES / "for_the_masses_INVALID_thirteen_elements.toml",
                         CardOptions(size="poker", paper="a4", summary=False))
    flags = re.findall(r"NOT VALID\S*", "\n".join(other.pages))
    assert flags == ["NOT VALID"] * other.result.cards, flags
    valid = sample_cards(VALID[0], CardOptions(size="poker", paper="a4", summary=False))
    assert "NOT VALID" not in "".join(valid.pages)


def test_the_footer_names_the_ruleset_in_full(sample_cards):
    """A long ruleset name fits the footer's line (in the narrower face), not cut with '…'."""
    shared = sample_cards(SAMPLES / "ares_border_levy.toml", CardOptions(size="poker", paper="a4", summary=False))
    report = shared.report
    text = "".join(shared.pages)
    assert f"{report.roster.name} · ARES Miniatures Wargaming System" in text


def test_mixed_script_names_are_drawn_in_reading_order():
    """The card header's text as drawn (visual order, left to right): the Arabic words of
    "Emir عبد الله's Guard" right to left and joined, the English around them untouched."""
    from rosterkit.cards.fonts import BOLD, register
    from rosterkit.cards.shaping import Shaper

    register()
    drawn = unicodedata.normalize("NFKC", Shaper().shape("Emir عبد الله's Guard", BOLD, 10))
    assert drawn == "Emir " + "عبد الله"[::-1] + "'s Guard"  # the Arabic run's letters, right to left
    assert unicodedata.normalize("NFKC", Shaper().shape("שומרי העיר", BOLD, 10)) == "ריעה ירמוש"


def test_the_summary_page_shapes_arabic_and_puts_it_in_reading_order(tmp_path):
    """The summary page sets a right-to-left name as the cards do: joined letters, and the words
    in reading order ("Army جيش الفرسان", not "Army الفرسان جيش"), read back with pypdf."""
    roster = loads_roster('format = 1\nname = "Army جيش الفرسان"\nruleset = "fast_universal"\n'
                          'notes = "ملاحظة عن الجيش"\n\n'
                          '[[units]]\nname = "الفرسان الخفيفة"\ntype = "Basic"\ncount = 2\n')
    report = cost_roster(load(roster.ruleset), roster)
    out = tmp_path / "c.pdf"
    export_cards(report, validate_report(report), out, CardOptions(size="poker", paper="a4"))
    pages = [p.extract_text() or "" for p in PdfReader(str(out)).pages]
    summary = pages[0].splitlines()
    first = summary[0]
    assert any(0xFE70 <= ord(ch) <= 0xFEFF for ch in first)  # joined (presentation) forms
    assert unicodedata.normalize("NFKC", first) == "Army جيش الفرسان"
    assert unicodedata.normalize("NFKC", summary[2]) == "Notes: ملاحظة عن الجيش"
    # Latin text is not shaped: no ligature glyphs in "Fast Universal Wargame"
    assert "Fast Universal Wargame" in pages[0]
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler) is not installed")
    read = [unicodedata.normalize("NFKC", subprocess.run(
        ["pdftotext", "-f", str(k), "-l", str(k), str(out), "-"], capture_output=True, text=True, check=True).stdout)
        for k in (1, 2)]
    # (pdftotext marks a right-to-left run with U+202B ... U+202C)
    summary_read, card_read = (re.sub("[\u202a-\u202e]", "", text) for text in read)
    assert summary_read.startswith("Army جيش الفرسان\n") and "Notes: ملاحظة عن الجيش" in summary_read
    # the unit's name reads the same in the summary's table and on its card
    assert "الفرسان الخفيفة" in summary_read and card_read.startswith("الفرسان الخفيفة")


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: p.stem)
def test_the_summary_is_one_page_with_the_armys_notes(sample_cards, path, paper):
    shared = sample_cards(path, CardOptions(size="poker", paper=paper))
    report, result = shared.report, shared.result
    assert result.summary_pages == 1
    if report.roster.notes.strip():
        first = squash(PdfReader(str(shared.path)).pages[0].extract_text() or "")
        assert "Notes:" + squash(report.roster.notes)[:30] in first


def _layout_lines(sample_cards, sample: str, size: str = "poker") -> list[str]:
    """The cards' text line by line as it stands on the page (pypdf's layout mode: a line is a
    baseline across the sheet)."""
    return list(sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
                .layout_lines)


@pytest.mark.parametrize("size", ["poker", "a6"])
def test_lego_weapons_take_one_row_each_with_notes_under_them(sample_cards, size):
    """Blackwater corsairs' Musketeers and Bosun: Weapon | 0 | -1 | -2 | Once every on one line
    (Hit and Dmg, which no weapon of theirs changes, are left out; Max is the -2 band's end), one
    row per weapon (its three bands in three columns, or its melee reach across them), and its
    notes under it."""
    lines = _layout_lines(sample_cards, "lego_combat_blackwater_corsairs", size)
    text = "\n".join(lines)
    assert re.search(r"Weapon\s+0\s+-1\s+-2\s+Once every", text)
    rows = {
        "Musket": r'Musket\s+0-9"\s+10-18"\s+19-27"\s+3\b',
        "Knife": r'Knife\s+0-6"\s+7-12"\s+13-18"\s+round\b',
        "Hook": r'Hook\s+melee 1"(?!\s+1\b)',
    }
    notes = {"Musket": "", "Knife": "Notes: small, counts as unarmed",
             "Hook": "Notes: normal damage, but counts as unarmed"}
    for name, row in rows.items():
        at = [(i, m) for i, line in enumerate(lines) for m in [re.search(row, line)] if m]
        assert at, (name, text)
        for i, m in at:
            below = lines[i + 1:i + 4]
            # (under it, or a line further where a card beside it sets a line in between: a note
            # on two lines may have a line of that card between its two)
            rest = iter(squash("".join(below)))
            assert all(ch in rest for ch in squash(notes[name])), (name, below)
    # (a "Hit:" beside the heading is a card's reminder line, set beside it on the next card)
    assert not any(re.search(r'Weapon.*(Notes|\bHit\b(?!:)|\bMax\b)|^\s*\d+-\d+"\s*$|" /', line)
                   for line in lines), text


def test_ares_weapons_are_written_as_the_stat_blocks_write_them(sample_cards):
    """Hill clans: "Crossbow* (4/D10)" in one column beside its Special, the range die under it (a
    row of dice over their bands of range), named on its left ("Range" over "die": a row of dice
    without it read as nobody's)."""
    lines = _layout_lines(sample_cards, "ares_hill_clans")
    text = "\n".join(lines)
    assert re.search(r"Weapon\s+Special", text) and "Rng/Dmg" not in text
    at = next(i for i, line in enumerate(lines) if re.search(r"Crossbow\* \(4/D10\)\s+\*Cumbersome", line))
    under = [line for line in lines[at + 1:] if line.strip()][:2]
    assert re.search(r'Range\s+D4\s+D6\s+D8\s+D10\s+D12\s*$', under[0]), under
    assert re.search(r'die\s+0-4"\s+5-8"\s+9-12"\s+13-16"\s+17-20"\s*$', under[1]), under
    assert re.search(r"Rune Axe\* \(D10\)\s+\*Magic", text)
    assert re.search(r"Giant's Club\* \(D12\)\s+\*Powerful", text)


def test_ares_range_die_breaks_only_between_its_bands(sample_cards):
    """Hill clans and crown household: a range die's five bands stand on one line under their five
    dice, never a band cut in two or carried to another line."""
    for sample in ("ares_hill_clans", "ares_crown_household"):
        lines = _layout_lines(sample_cards, sample)
        at = [i for i, line in enumerate(lines) if re.search(r"D4\s+D6\s+D8\s+D10\s+D12", line)]
        assert at
        for i in at:
            assert len(re.findall(r'\b\d+-\d+"', lines[i + 1])) >= 5, lines[i + 1]


@pytest.mark.parametrize("sample", ["ares_crown_household", "ares_hill_clans"])
def test_an_ability_is_printed_whole_or_referred_to_the_reference_card(sample_cards, sample):
    """Each card names each of its abilities with its text, or with "see the reference card" where
    it has no room for it; the reference card holds the ones some card refers to it, and no other."""
    report, _ = _report(SAMPLES / f"{sample}.toml")
    _, cards = _cards_text(sample_cards, sample)
    units = [squash(c) for c in cards if not c.startswith("Reference")]
    reference = "".join(squash(c) for c in cards if c.startswith("Reference"))
    names = {it.name for u in report.units for m in u.members for it in m.items if it.kind == "abilities"}
    assert names
    for name in names:
        # (naming it as an ability: "No Leader left" on a reminder line is not the Leader's rule)
        having = [c for c in units if re.search(re.escape(squash(name)) + "(:|–seethereferencecard)", c)]
        assert having, name
        referred = [c for c in having if squash(name) + "–seethereferencecard" in c]
        assert all(squash(name) + ":" in c for c in having if c not in referred), name
        assert (squash(name) + ":" in reference) == bool(referred), (name, reference)


@pytest.mark.parametrize("sample, body", [("ares_hill_clans", 7.0), ("lego_combat_blackwater_corsairs", 8.0),
                                          ("lego_combat_kingsbridge_garrison", 7.0)])
def test_a_card_with_room_does_not_print_at_the_floor(sample_cards, sample, body):
    """Hill clans (a mixed unit split per figure, names only), blackwater corsairs (the range
    bands on two lines), kingsbridge garrison (the Wall crossbowmen's "0 (bow +1)" keeps its stat
    band on one line with smaller stat values, not a smaller body) at poker: body type above the floor."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size="poker", paper="a4", summary=False))
    result = shared.result
    assert result.body_size >= body
    assert round(result.body_size, 2) in shared.sizes


def _cards_text(sample_cards, sample: str, size: str = "poker"):
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    text = "\n".join(shared.pages)
    return shared.result, [c.strip() for c in re.split(r"card \d+ of \d+", text)[:-1]]


@pytest.mark.parametrize("sample", ["heroic_gods_achaeans", "heroic_gods_trojans"])
def test_heroic_gods_army_card_keeps_its_god_events_on_one_card(sample_cards, sample):
    """The army card fits, or continues once with the God events whole on the second card; it
    does not make the figures' cards print smaller than 8 pt."""
    result, cards = _cards_text(sample_cards, sample)
    army = [c for c in cards if "Army ·" in c or "continued (2/" in c]
    assert 1 <= len(army) <= 2, army
    events = [c for c in army if "GOD EVENTS" in c]
    assert len(events) == 1 and "God fights" in events[0] and "Heal:" in events[0], army
    # (the label beside its boxes, or opening its note over them where the note has no room beside)
    assert re.search(r"God chips(:? one a turn, by a Hero\n)? ?1 2 3", "\n".join(army))
    assert result.body_size >= 8.0


def test_heroic_gods_figure_cards_lay_their_stats_out_alike(sample_cards):
    """Achaeans: a Hero with a bow (one more stat) does not turn its stat band while the others
    keep theirs across: every figure's card sets its stats the same way."""
    _, cards = _cards_text(sample_cards, "heroic_gods_achaeans")
    figures = [c for c in cards if "Army ·" not in c and "continued" not in c
               and not c.startswith(("Reference", "Combat chart"))]
    turned = {bool(re.search(r"\nID\s*#\d", c)) for c in figures}
    assert len(figures) == 7 and len(turned) == 1, figures


@pytest.mark.parametrize("size", ["poker", "a6"])
@pytest.mark.parametrize("sample", ["for_the_masses_orc_warband", "for_the_masses_alvernan_host"])
def test_for_the_masses_unit_record_card_is_one_line_at_every_size(sample_cards, sample, size):
    """Mv Att Rng Def Wnd Mor ME CP on one line of boxes on every card, as the book's card has it
    (the Orc Chief's 2d10 does not push Wnd to CP onto a second line)."""
    lines = _layout_lines(sample_cards, sample, size)
    report, _ = _report(SAMPLES / f"{sample}.toml")
    heads = sum(len(re.findall(r"Mv\s+Att\s+Rng\s+Def\s+Wnd\s+Mor\s+ME\s+CP", line)) for line in lines)
    assert heads == len(report.units), "\n".join(lines)


def test_not_valid_never_covers_the_fingerprint(tmp_path):
    """Large type leaves no room for NOT VALID beside the fingerprint and card number: it goes
    ahead of the roster's name on the footer's first line instead of over them."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from rosterkit.cards.fonts import BOLD, register

    register()
    unit = ('[[units]]\nname = "Guards"\ntype = "basic"\ncount = 2\nweapons = ["Claw/hand/spear/sword"]\n'
            'stats = { dice = 1, die = 6, move = 6, fight = 0, shoot = 0, defense = 8 }\n')
    roster = loads_roster('format = 1\nname = "Short"\nruleset = "fast_universal"\npoints_limit = 500\n\n'
                          + unit)
    report = cost_roster(load(roster.ruleset), roster)
    validation = validate_report(report)
    assert not validation.ok  # under half the points on basic and ordnance
    out = tmp_path / "c.pdf"
    export_cards(report, validation, out, CardOptions(size="poker", paper="a4", summary=False))
    spans = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            spans.append((text, cm[4] + tm[4], round(cm[5] + tm[5], 1), size * (tm[0] or 1)))

    PdfReader(str(out)).pages[0].extract_text(visitor_text=visit)
    flag = next(s for s in spans if s[0].startswith("NOT VALID"))
    code = next(s for s in spans if re.match(r"[0-9A-Z]{4}-[0-9A-Z]{4}", s[0]))
    end = flag[1] + stringWidth("NOT VALID", BOLD, flag[3])
    assert flag[2] != code[2] or end <= code[1], (flag, code)


def _cards_on(pdf: Path, size: str) -> list[list[tuple[float, float]]]:
    """The texts of each card of a sheet export: (baseline y, font size) of each, card by card."""
    from rosterkit.cards.sizes import card_size

    w, h = card_size(size).width, card_size(size).height
    cards = []
    for page in PdfReader(str(pdf)).pages:
        pw, ph = float(page.mediabox.width), float(page.mediabox.height)
        x0, y0 = (pw - (pw // w) * w) / 2, (ph - (ph // h) * h) / 2
        slots: dict[tuple[int, int], list[tuple[float, float]]] = {}

        def visit(text, cm, tm, font, fsize, slots=slots, x0=x0, y0=y0):
            if text.strip():
                x, y = cm[4] + tm[4], cm[5] + tm[5]
                slots.setdefault((int((x - x0) // w), int((y - y0) // h)), []).append((y, fsize * (tm[0] or 1)))
        page.extract_text(visitor_text=visit)
        cards += [slots[k] for k in sorted(slots, key=lambda k: (-k[1], k[0]))]
    return cards


@pytest.mark.parametrize("sample", ["lego_combat_kingsbridge_garrison", "lego_combat_blackwater_corsairs",
                                    "for_the_masses_orc_warband", "fast_universal_ashen_host"])
def test_a6_cards_use_the_card(sample_cards, sample):
    """A6 cards read across a table: stat values of 16.8 pt and more, boxes to tick of 17.8 pt (6.3 mm)
    and more (19 pt where the fullest card leaves them room; kingsbridge's Wall crossbowmen, with
    their attack rolls, reloads and stun runs, leave none), and the card used: its largest blank stretch between two lines of text or rules is at
    most 55% of the card on any card and under 45% on average (a card with one weapon and no rules
    has its room as lines to write on; its boxes sit at the bottom)."""
    from rosterkit.cards.sizes import card_size

    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(rules=False, size="a6", paper="a4", summary=False))
    result = shared.result
    assert max(result.type_sizes) >= 16.8
    height = card_size("a6").height
    for texts in _cards_on(shared.path, "a6"):
        assert max(s for _, s in texts) >= 16.8  # (the stat values, the largest type on the card)
    holes = [max(a - b for a, b in itertools.pairwise(ys)) / height
             for ys in _marks_per_card(shared.path, result.sheet)]
    assert max(holes) < 0.56 and sum(holes) / len(holes) < 0.45, holes
    sides = [side for page in PdfReader(str(shared.path)).pages for _, _, side in squares(page)]
    assert max(sides) >= (17.8 if sample == "lego_combat_kingsbridge_garrison" else 19), sides


ARES_VALID = [p for p in VALID if p.stem.startswith("ares_")]


@pytest.mark.parametrize("path", ARES_VALID, ids=lambda p: p.stem)
def test_ares_at_a6_prints_large_type_with_every_stat_band_across(sample_cards, path):
    """A mixed unit's card does not hold the export's type down: read back from the PDF, the body
    is 11.5 pt or more (hill clans: its Thane's unit says what losing its last Leader costs) and every
    unit card sets its stat labels across one line."""
    shared = sample_cards(path, CardOptions(size="a6", paper="a4", summary=False))
    report, result = shared.report, shared.result
    assert result.body_size >= 11.5
    assert round(result.body_size, 2) in shared.sizes
    text = "\n".join(shared.pages)
    cards = [c for c in re.split(r"card \d+ of \d+", text)[:-1] if re.search(r"Wounds (per figure\s+)?1", c)]
    assert len(cards) >= len(report.units)
    for card in cards:
        assert re.search(r"^Wounds Move Morale", card, re.MULTILINE), card


@pytest.mark.parametrize("sample", ["ares_crown_household", "ares_hill_clans", "ares_border_levy"])
def test_each_figure_card_of_a_split_unit_carries_its_morale_and_command_at_a6(sample_cards, sample):
    """A6, where the mixed unit's card would fit but hold the type down: it prints one card per
    kind of figure, each with the unit's morale and command."""
    from rosterkit.cards.content import CardBuilder

    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size="a6", paper="a4", summary=False))
    report = shared.report
    text = "\n".join(shared.pages)
    cards = re.split(r"card \d+ of \d+", text)[:-1]
    mixed = [u for u in report.units if sum(1 for m in u.members if m.count > 0) > 1]
    assert mixed
    builder = CardBuilder(report, "unit", [])
    for unit in mixed:
        wide = builder.card(unit, unit.members).unit_wide
        assert wide is not None and [squash(lab) for lab in wide.labels] == ["UnitMorale", "Command"]
        values = " ".join(wide.rows[0][1])
        names = [m.name for m in unit.members if m.count > 0]
        for name in names:
            # (titled by the unit, the kind of figure opening the subtitle)
            mine = [c for c in cards if squash(f"{unit.name}") in squash(c)
                    and re.search(re.escape(squash(name)) + r"(×\d+)?·", squash(c))]
            assert len(mine) == 1, (unit.name, name)
            assert "UnitMorale" in squash(mine[0]) and "Command" in mine[0]  # (on one line or two)
            assert re.search(rf"{re.escape(values)}$", mine[0], re.MULTILINE), mine[0]


def test_the_card_holding_the_type_down_sends_its_ability_texts_to_the_reference_card(tmp_path):
    """Hill clans without the Crossbows at tarot: the Hired Giant's long ability texts held the
    whole export at 8.75 pt. Read back: the body is at least 9.75 pt, the Giant's card names
    Cause Fear and points to the reference card, which prints its text; Individual's shorter
    text has room on the card."""
    text = (SAMPLES / "ares_hill_clans.toml").read_text(encoding="utf-8")
    start = text.index('[[units]]\nname = "Crossbows"')
    text = text[:start] + text[text.index("[[units]]", start + 1):]
    roster = loads_roster(text, "hill_clans.toml")
    report = cost_roster(load(roster.ruleset), roster)
    validation = validate_report(report)
    assert validation.ok and [u.name for u in report.units] == ["Thane's Hearthguard", "Hired Giant"]
    out = tmp_path / "c.pdf"
    result = export_cards(report, validation, out, CardOptions(size="tarot", paper="a4", summary=False))
    assert result.body_size >= 9.75
    assert round(result.body_size, 2) in font_sizes(out)
    pages = "\n".join(p.extract_text() or "" for p in PdfReader(str(out)).pages)
    cards = [squash(c) for c in re.split(r"card \d+ of \d+", pages)[:-1]]
    giant = [c for c in cards if c.startswith("HiredGiant")]
    reference = "".join(c for c in cards if c.startswith("Reference"))
    assert len(giant) == 1 and result.reference_cards >= 1
    assert squash("Individual: May be fielded alone") in giant[0]
    for name, words in (("Cause Fear", "A figure it charges"),):
        assert squash(name) + "–seethereferencecard" in giant[0]
        assert squash(words) not in giant[0]
        assert squash(f"{name}: {words}") in reference


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_a_trackers_label_prints_once_when_its_note_goes_over_its_boxes(sample_cards, size):
    """LEGO's Stun and Reload boxes carry a note; where it does not fit beside the boxes it goes
    over them, opened by the label, and the card names the tracker once (read back from the PDF,
    card by card)."""
    notes = {"Stun": "wakes on 5+, 6, 12 on 2D, 18 on 3D", "Reload": "tick a box the round"}
    seen = set()
    for sample in ("lego_combat_kingsbridge_garrison", "lego_combat_blackwater_corsairs"):
        shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
        text = "\n".join(shared.pages)
        for card in re.split(r"card \d+ of \d+", text)[:-1]:
            for label, note in notes.items():
                if note in card:
                    seen.add(label)
                    # (a club's damage roll, "Stun: 1D beats foe's Res", names no tracker)
                    assert len(re.findall(rf"\b{label}\b(?!: 1D)", card)) == 1, card
    assert seen == set(notes)


RULE_INK = (0.725, 0.714, 0.675)  # layout.RULE, #b9b6ac


def _marks_per_card(pdf: Path, sheet, ruled: bool = False) -> list[list[float]]:
    """Each card's texts and rules, card by card: the height of each text's baseline and of each
    horizontal line (longer than 20 pt) on the card, read from the pages' drawing operations;
    ``ruled``: only the lines to write on (0.5 pt wide, in the rule grey), one card per slot used."""
    cards = []
    for page in PdfReader(str(pdf)).pages:
        slots = [sheet.slot(i) for i in range(sheet.per_page)]
        marks: dict[int, list[float]] = {}

        def put(x: float, y: float, record: bool = True, marks=marks, slots=slots) -> None:
            for i, (sx, sy) in enumerate(slots):
                if sx <= x <= sx + sheet.card_width and sy <= y <= sy + sheet.card_height:
                    marks.setdefault(i, []).extend([y] if record else [])

        for _, right, y, pen in horizontal_rules(page, longer_than=20):
            if not ruled or (pen.stroke, pen.width) == (RULE_INK, 0.5):
                put(right, y)
        tm = None
        for op, operands, state in operations(page):
            if op == b"Tm":
                tm = [float(v) for v in operands]
            elif op in (b"Tj", b"TJ") and tm is not None:  # (with ``ruled``: the card is there, lines or not)
                put(*state.point(tm[4], tm[5]), not ruled)
        cards += [sorted(marks[i], reverse=True) for i in sorted(marks)]
    return cards


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
@pytest.mark.parametrize("sample", ["fast_universal_ashen_host", "for_the_masses_orc_warband"])
def test_a_card_with_one_weapon_and_no_rules_has_no_hole_in_it(sample_cards, sample, size):
    """A card with little on it (one weapon, no rules) gives its spare room to a few lines to write
    on, under a Notes heading, the rest of it blank under them to write in, and to larger boxes,
    rather than leave half of the card blank between its stat band and its boxes: read back from
    the PDF, no card has a stretch with neither a line of text nor a rule of more than two fifths of
    its height on a poker card, nine twentieths on a large one (a Personality with a stat line and
    six boxes on a tarot card)."""
    from rosterkit.cards.sizes import card_size

    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    result = shared.result
    cards = _marks_per_card(shared.path, result.sheet)
    assert len(cards) == result.cards
    height = card_size(size).height
    holes = [max(a - b for a, b in itertools.pairwise(ys)) / height for ys in cards]
    assert max(holes) <= (0.4 if size == "poker" else 0.45), holes
    text = "\n".join(shared.pages)
    assert "NOTES" in text


@pytest.mark.parametrize("sample", ["fast_universal_ashen_host", "for_the_masses_orc_warband"])
def test_a_card_with_room_has_three_lines_to_write_on_at_most(sample_cards, sample):
    """Six to nine blank ruled lines read as filler on a poker card: a card with room to spare has
    three lines to write on at most (the rest of its room stays blank under them, above its boxes;
    read back from the PDF: the ruled lines on each card), as a large card has (test_cards_room)."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size="poker", paper="a4", summary=False))
    result = shared.result
    lines = [len(ys) for ys in _marks_per_card(shared.path, result.sheet, ruled=True)]
    assert len(lines) == result.cards
    assert 1 <= max(lines) <= 3, lines


@pytest.mark.parametrize("size, body", [("poker", 9.0), ("tarot", 10.5)])
def test_a_long_weapon_name_breaks_after_a_slash_rather_than_hold_the_type_down(sample_cards, tmp_path, size,
                                                                                body):
    """fast_universal's book names ("Claw/hand/spear/sword", where a roster lists the table's row
    rather than one of its weapons) held every card of an export at the size where the longest
    fits whole on its line (8.25 pt on poker cards, 9.25 pt on tarot); they break after a slash
    instead, and the body grows. Read back: the body size, and each name whole once the lines are
    joined where they broke (after a slash, or at a space). (The samples name the rows' weapons,
    "Spear" and "Bow": these rosters list the rows instead.)"""
    names = ["Claw/hand/spear/sword", "Bow/crossbow"]
    found = set()
    for path in [p for p in VALID if p.stem.startswith("fast_universal_")]:
        rows = tmp_path / path.name
        rows.write_text(path.read_text(encoding="utf-8").replace('weapons = ["Spear"]', f'weapons = ["{names[0]}"]')
                        .replace('weapons = ["Bow"]', f'weapons = ["{names[1]}"]'), encoding="utf-8")
        shared = sample_cards(rows, CardOptions(size=size, paper="a4", summary=False))
        result = shared.result
        assert result.body_size >= body
        assert round(result.body_size, 2) in shared.sizes
        text = "\n".join(shared.pages)
        joined = re.sub(r"\n", " ", re.sub(r"(?<=/)\n", "", text))
        for name in names:
            if squash(name) in squash(text):
                assert name in joined, name
                found.add(name)
    assert found == set(names)


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_not_valid_leaves_the_footer_whole(sample_cards, size):
    """Every card of an army that breaks a rule says NOT VALID, and its footer still names the
    roster and the ruleset in full (the flag beside the fingerprint, smaller if need be) rather
    than cut with '…'."""
    assert INVALID
    for path in INVALID:
        shared = sample_cards(path, CardOptions(size=size, paper="a4", summary=False))
        report, result = shared.report, shared.result
        text = "\n".join(shared.pages)
        assert text.count("NOT VALID") == result.cards
        footer = squash(f"{report.roster.name} · {report.ruleset.name}")
        assert squash(text).count(footer) == result.cards, (path.stem, size)


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: p.stem)
def test_the_footer_is_never_cut_short_on_tarot_cards(sample_cards, path):
    """Tarot cards set the footer large; a long roster and ruleset line takes a smaller size, or
    leaves out the ruleset's closing aside ("(MWAN #123)"), rather than end in '…'."""
    shared = sample_cards(path, CardOptions(size="tarot", paper="a4", summary=False))
    report, result = shared.report, shared.result
    text = squash("\n".join(shared.pages))
    name = re.sub(r"\s*\([^()]*\)$", "", report.ruleset.name)
    assert text.count(squash(f"{report.roster.name} · {name}")) == result.cards


@pytest.mark.parametrize("sample", ["fast_universal_ashen_host", "ares_border_levy"])
def test_a_subtitle_never_leaves_one_word_alone_on_its_second_line(sample_cards, sample):
    """Tarot: a unit card's subtitle ("Basic · 2 miniatures × 22.5 = 45 points") takes the
    condensed face where that keeps it on one line, else breaks before its "=" or after a "·",
    never leaving "points" or "rating" alone on a line."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size="tarot", paper="a4", summary=False))
    report = shared.report
    text = "\n".join(shared.pages)
    # ("2/2 · Human Pikeman × 6 · …", "1/2 · Human Noble · 134 of …": a mixed unit's card of one kind)
    subtitles = re.findall(r"^(?:(?:Basic|Elite|Hero) · |\d+ figures? |\d+ × |\d+/\d+ · [A-Z]\w* [A-Z]\w*(?: × \d+)? · \d+ of ).*$",
                           text, re.MULTILINE)
    assert len(subtitles) >= len(report.units)
    assert not re.search(r"^(?:points|rating)$", text, re.MULTILINE), text


@pytest.mark.parametrize("sample, size", [("ares_INVALID_unrated_figure", "tarot"),
                                          ("ares_INVALID_unrated_figure", "a6"),
                                          ("for_the_masses_INVALID_thirteen_elements", "tarot"),
                                          ("for_the_masses_INVALID_thirteen_elements", "a6")])
def test_a_card_with_room_prints_its_not_valid_message_short(sample_cards, sample, size):
    """A large card prints a unit's error in its short form, as poker does, not wrapped onto five
    or more bold red lines (the Ogre's "Combat Rating must be entered (…)"): read back, the short
    form is on the card and the error's aside is not; the summary page has the whole message."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    findings = [f for f in shared.validation.findings if f.severity == "error" and f.unit is not None]
    assert findings
    text = squash("".join(shared.pages))
    for f in findings:
        assert squash("Not valid: " + f.card) in text, f.card
        assert squash(f.message) not in text, f.message


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_a_not_valid_message_keeps_every_word_outside_its_brackets(sample_cards, size):
    """On a card without room for the whole of an error, its asides in brackets give way ("(…)"),
    not what it says to do ("…: remove 1"): read back, every word outside the brackets is there,
    or the error's short form, whole, where it has one."""
    for path in INVALID:
        shared = sample_cards(path, CardOptions(size=size, paper="a4", summary=False))
        text = squash("".join(shared.pages))
        for f in shared.validation.findings:
            if f.severity != "error" or f.unit is None or (f.card and squash(f.card) in text):
                continue
            for part in re.split(r" \([^()]*\)", f.message.rstrip(" .")):
                assert squash(part) in text, (path.stem, size, part)


def _headers(pdf: Path, sheet, size: str) -> list[tuple[list[tuple[str, str]], list[tuple[str, str]]]]:
    """Each card's name lines and subtitle lines, as (face, text), read back from the PDF: the
    name is the bold text at the size's title size in the card's top three title lines (the name band),
    but for the points badge; the subtitle the lines drawn after it in one size and face."""
    from rosterkit.cards.sizes import card_size

    title = card_size(size).title
    cards = []
    for page in PdfReader(str(pdf)).pages:
        runs: list[tuple[str, float, str, bool]] = []

        def seen(text, cm, tm, font, fs, runs=runs) -> None:
            if not text.strip():
                return
            x, y = cm[0] * tm[4] + cm[4], cm[3] * tm[5] + cm[5]
            band = any(sx <= x <= sx + sheet.card_width and sy + sheet.card_height - max(40, 3 * title) * sheet.scale <= y
                       <= sy + sheet.card_height for sx, sy in (sheet.slot(i) for i in range(sheet.per_page)))
            runs.append((str(font.get("/BaseFont")).split("+")[-1] if font else "", fs, text.strip(), band))

        page.extract_text(visitor_text=seen)
        for k, (face, fs, text, band) in enumerate(runs):
            if not band or fs != title or "Bold" not in face or (k and runs[k - 1][1:4:2] == (title, True)):
                continue
            names, j = [], k
            while j < len(runs) and runs[j][1] == title and runs[j][3]:
                if not re.fullmatch(r"[\d.,/]+", runs[j][2]):  # (not the badge)
                    names.append((runs[j][0], runs[j][2]))
                j += 1
            subs = []
            while j < len(runs) and "Bold" not in runs[j][0] and (not subs or runs[j][:2] == runs[j - 1][:2]):
                subs.append((runs[j][0], runs[j][2]))
                j += 1
            cards.append((names, subs))
    return cards


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_card_names_and_subtitles_read_alike_on_a_sheet_with_no_word_alone(sample_cards, size, tmp_path):
    """A card's name on two lines is broken where the lines come out alike ("Troll Guard of the" over
    "Old Stone Bridge", not one word alone on the second line), and every name of an export is in
    one face, as is every subtitle (condensed on all the cards where it saves a line on one; read
    back from the PDF: the faces and lines of each card's header)."""
    checked = 0
    # (no sample's name takes two lines at every size: one named so)
    long_name = tmp_path / "ares_long_name.toml"
    long_name.write_text((SAMPLES / "ares_INVALID_morale_6.toml").read_text(encoding="utf-8").replace(
        'name = "Troll Guard"', 'name = "Troll Guard of the Old Stone Bridge"'), encoding="utf-8")
    for path in [*SAMPLE_FILES, long_name]:
        shared = sample_cards(path, CardOptions(size=size, paper="a4", summary=False))
        result = shared.result
        cards = _headers(shared.path, result.sheet, size)
        assert len(cards) == result.cards, path.stem
        assert len({face for names, _ in cards for face, _ in names}) == 1, (path.stem, cards)
        assert len({face for _, subs in cards for face, _ in subs}) == 1, (path.stem, cards)
        for names, _ in cards:
            if len(names) == 2 and " " in names[0][1] + names[1][1]:
                checked += 1
                assert " " in names[1][1] or len(names[1][1]) > len(names[0][1]), (path.stem, names)
    assert checked


@pytest.mark.parametrize("sample", ["ares_hill_clans", "ares_border_levy"])
def test_ares_weapons_with_a_starred_special_are_starred(sample_cards, sample):
    """The stat blocks star a weapon whose ability they list under Special ("Pike* (D8)" over
    "*Polearm"): the cards do so for every such weapon, the catalogue's (named with the star) and
    a player's alike ("Rune Axe* (D10) | *Magic", "Crossbow* (4/D10) | *Cumbersome"); read back,
    each such weapon's name is followed by its star, and no weapon without one is starred."""
    from rosterkit.engine.display import weapon_line

    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size="poker", paper="a4", summary=False))
    report = shared.report
    text = re.sub(r"\s+", " ", " ".join(shared.pages))
    starred = plain = 0
    for unit in report.units:
        for m in unit.members:
            for it in m.items:
                if it.kind != "weapons":
                    continue
                cells = dict(weapon_line(report.ruleset, it, m))
                name, _, own = it.name.replace("*", "").partition(" (")
                bracket = cells["Rng/Dmg"] or f"({own}"
                if "*" in cells["Special"]:
                    starred += 1
                    assert f"{name}* {bracket}" in text, it.name
                else:
                    plain += 1
                    assert f"{name} {bracket}" in text and f"{name}* {bracket}" not in text, it.name
    assert starred and plain


def _rules_and_texts(page) -> tuple[list[tuple[float, float, float, float]], list[tuple[float, float, float, str]]]:
    """A page's horizontal rules (x1, x2, y, line width) and texts (x, baseline, size, text)."""
    rules = [(x1, x2, y, pen.width * pen.scale) for x1, x2, y, pen in horizontal_rules(page)]
    texts = []
    page.extract_text(visitor_text=lambda text, cm, tm, font, fs: texts.append(
        (cm[0] * tm[4] + cm[4], cm[3] * tm[5] + cm[5], fs * cm[3], text)) if text.strip() else None)
    return rules, texts


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_the_to_hit_note_clears_the_stat_bands_bottom_rule(sample_cards, size):
    """For the Masses: the targets' note ("Hits v Def 0/1/2/3") under the stat band stands clear of the band's bottom
    rule (read back: at least 1.5 pt between the rule's lower edge and the note's capitals)."""
    shared = sample_cards(SAMPLES / "for_the_masses_orc_warband.toml",
                          CardOptions(size=size, paper="a4", summary=False))
    report = shared.report
    seen = 0
    for page in PdfReader(str(shared.path)).pages:
        rules, texts = _rules_and_texts(page)
        for x, y, fs, text in texts:
            if not text.startswith("Hits v Def"):
                continue
            above = [(ry - lw / 2) - (y + 0.73 * fs) for x1, x2, ry, lw in rules if x1 - 1 <= x <= x2 and ry > y]
            assert above and min(above) >= 1.5, (text, min(above))
            seen += 1
    assert seen == len(report.units)


@pytest.mark.parametrize("sample", ["for_the_masses_orc_warband", "for_the_masses_alvernan_host"])
def test_a_single_element_has_no_element_label(sample_cards, sample):
    """For the Masses: a Personality of one element ticks its wounds on a line labelled "Wounds",
    not under a Wounds heading as "Element 1"; a unit of several elements keeps a labelled line
    for each (read back, card by card)."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size="poker", paper="a4", summary=False))
    text = "\n".join(shared.pages)
    cards = re.split(r"card \d+ of \d+", text)[:-1]
    single = [c for c in cards if re.search(r"· 1 element\b", c)]
    assert single
    for card in single:
        assert "Element" not in card.replace("1 element", ""), card
        assert re.search(r"^Wounds 1 2 3", card, re.MULTILINE), card
    for card in cards:
        if "Element 1" in card:
            assert "Element 2" in card, card


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_lego_stat_bands_show_the_same_columns_on_every_card(sample_cards, size):
    """LEGO: every card of an export has the same stat columns in the same order (a dash where a
    soldier has nothing), the number of attacks only where some soldier has more than one, and
    labels a player tells apart (no "Att" beside "Atk"); read back, card by card, the band's
    labels before the weapon table, on one line of boxes."""
    labels = r"\b(Cbt|Hit|Att|Def|Dmg|Res|Move|Fly|Atk|Attacks)\b"
    for path in [p for p in SAMPLE_FILES if p.stem.startswith("lego_combat_")]:
        shared = sample_cards(path, CardOptions(size=size, paper="a4", summary=False))
        report = shared.report
        text = "\n".join(shared.pages)
        # (the band's labels: the text before the weapons and the reminder line's "Hit: 1D - foe's Def")
        bands = [re.findall(labels, re.split(r"Hit: 1D", card.split("Weapon")[0])[0])
                 for card in re.split(r"card \d+ of \d+", text)[:-1] if "Weapon" in card]
        assert len(bands) == len(report.units), path.stem
        assert all(band == bands[0] for band in bands), (path.stem, bands)
        assert not {"Att", "Atk"} <= set(bands[0]), bands[0]
        two = any(u.members[0].stats.get("attacks", 1) > 1 for u in report.units)
        assert ("Attacks" in bands[0]) == two, (path.stem, bands[0])
        heads = [line for line in text.splitlines() if re.fullmatch(r"(\s*" + labels + r")+\s*", line)]
        assert len(heads) == len(bands), (path.stem, heads)
