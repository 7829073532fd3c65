"""The summary page as a player reads it (its text read back from the PDF): no chart of one bar,
no column with one value on every row, no empty types in the chart, and the cards it says the
export prints are the ones it prints."""

from __future__ import annotations

import re

import pytest
from conftest import SAMPLES, run_cli

from rosterkit.cards.pdf import CardOptions
from rosterkit.rules.numbers import fmt


def _summary(sample_cards, sample: str, size: str = "poker"):
    """The shared export (its costed roster and result) and its summary pages' text."""
    sc = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4"))
    return sc, "\n".join(sc.pages[:sc.result.summary_pages])


def test_summary_chart_and_type_column_only_where_types_differ(sample_cards):
    # every ARES unit is a "Figure": the chart would be one bar, the table's type column all "Figure"
    sc, text = _summary(sample_cards, "ares_hill_clans")
    report = sc.report
    assert {u.type_name for u in report.units} == {"Figure"} and len(report.units) > 1
    assert "by type" not in text
    # ARES has the one type: the heading names none ("Units, all of type Figure" says nothing)
    assert len(report.ruleset.data.types) == 1 and not re.search(r"\bFigure\b", text)
    assert re.search(r"^Units$", text, re.MULTILINE), text
    for u in report.units:  # each unit's row still reads: number, name, figures, points
        assert re.search(rf"{u.index + 1} {re.escape(u.name)} {u.figures} {re.escape(fmt(u.total))}\b", text), u.name
    # an army of several types keeps its chart and its type column
    sc, text = _summary(sample_cards, "lego_combat_blackwater_corsairs")
    report = sc.report
    assert len({u.type_name for u in report.units}) > 1
    assert "by type" in text and "all of type" not in text
    for u in report.units:
        assert re.search(rf"{re.escape(u.name)} {re.escape(u.type_name)} {u.figures}\b", text), u.name


def test_lego_chart_leaves_out_empty_types(sample_cards):
    sc, text = _summary(sample_cards, "lego_combat_blackwater_corsairs")
    rs, report = sc.report.ruleset, sc.report
    named = {t for lim in rs.limits for t in lim.measured_types}
    empty = [t for t in rs.data.types if not report.by_type.get(t.id) and t.id not in named]
    assert empty  # the army leaves some of the ruleset's types empty
    chart = text.split("by type", 1)[1].split("Units", 1)[0]
    assert "(0%)" not in chart
    for t in rs.data.types:
        assert (re.search(rf"^{re.escape(t.name)}\b", chart, re.MULTILINE) is None) == (t in empty), t.name
    # a type a limit measures keeps its row at 0: Iron Vanguard has no Elite, limited to a quarter
    sc, text = _summary(sample_cards, "fast_universal_iron_vanguard")
    rs, report = sc.report.ruleset, sc.report
    kept = [t for t in rs.data.types if not report.by_type.get(t.id)
            and t.id in {i for lim in rs.limits for i in lim.measured_types}]
    assert kept
    chart = text.split("by type", 1)[1].split("Units", 1)[0]
    for t in kept:
        assert re.search(rf"^{re.escape(t.name)} 0 \(0%\)", chart, re.MULTILINE), t.name


@pytest.mark.parametrize("sample, size", [("ares_hill_clans", "poker"), ("heroic_gods_achaeans", "poker"),
                                          ("fast_universal_iron_vanguard", "tarot"),
                                          ("lego_combat_blackwater_corsairs", "a6")])
def test_summary_counts_the_cards_it_prints(sample_cards, sample, size):
    sc, text = _summary(sample_cards, sample, size)
    result = sc.result
    assert "one per" not in text
    line = " ".join(text.split())
    m = re.search(r"; (\d+) cards?, (.+?), (\d+) to an? (landscape )?(A4|Letter) sheet: ((?:\d+ [a-z]+ cards?(?:, )?)+)",
                  line)
    assert m, line[:400]
    assert int(m.group(1)) == result.cards
    assert m.group(2) == result.size.label
    # how the cards go on the sheets (an A6 pair on a landscape sheet, beside a portrait page)
    assert int(m.group(3)) == result.per_page and m.group(5) == "A4"
    assert bool(m.group(4)) == (size == "a6")
    kinds = {k: int(n) for n, k in re.findall(r"(\d+) ([a-z]+) cards?", m.group(6))}
    assert sum(kinds.values()) == result.cards
    assert kinds.get("reference", 0) == result.reference_cards
    unit_word = "figure" if result.per == "figure" else "unit"
    assert kinds[unit_word] >= 1


def test_summary_names_the_army_card_and_the_split_unit(sample_cards):
    # heroic_gods prints an army card besides one card a figure; hill clans a reference card and a
    # unit on a card per figure (more cards than units)
    sc, text = _summary(sample_cards, "heroic_gods_achaeans")
    assert sc.result.per == "figure" and "1 army card" in " ".join(text.split())
    sc, text = _summary(sample_cards, "ares_hill_clans")
    m = re.search(r"(\d+) unit cards?", " ".join(text.split()))
    assert m and int(m.group(1)) == sc.result.cards - sc.result.reference_cards > len(sc.report.units)


def test_summary_says_a_figure_count_every_unit_shares_once(sample_cards):
    # every heroic_gods unit is one figure: a column of 1s says nothing, the heading says it once
    sc, text = _summary(sample_cards, "heroic_gods_achaeans")
    assert {u.figures for u in sc.report.units} == {1} and len(sc.report.units) > 1
    assert "Units, 1 figure each" in text
    assert "Figures" not in text.split("Units, 1 figure each", 1)[1]
    # number, name, base ID, the factors the figure plays by (A D M Bow), type, points: no count
    for u in sc.report.units:
        assert re.search(rf"^{u.index + 1} {re.escape(u.name)} #\d+ \d+ \d+ \d+ (\d+|-) {re.escape(u.type_name)} "
                         rf"{re.escape(fmt(u.total))}$", text, re.MULTILINE), u.name
    assert re.search(r"^# Unit ID A D M Bow Type VP$", text, re.MULTILINE)
    assert re.search(r"^1 Achilles #1 8 7 6 - Hero 5$", text, re.MULTILINE)
    assert re.search(r"^7 Locrian archer #7 2 3 6 4 Common soldier 2$", text, re.MULTILINE)
    # units of different sizes keep the column
    sc, text = _summary(sample_cards, "ares_hill_clans")
    assert "each" not in text.split("Units", 1)[1].split("\n", 1)[0]
    assert re.search(r"^# Unit Figures Rating$", text, re.MULTILINE)


def test_units_all_of_one_type_in_a_ruleset_of_several_say_the_type_once(tmp_path):
    """fast_universal has several types: an army of Basic units only says so in the heading, and the
    table has no type column."""
    from pypdf import PdfReader

    from rosterkit.cards.pdf import export_cards
    from rosterkit.engine.costing import cost_roster
    from rosterkit.engine.validation import validate_report
    from rosterkit.files.rosters import loads_roster
    from rosterkit.files.rulesets import Registry

    unit = ('[[units]]\nname = "{}"\ntype = "basic"\ncount = 2\nweapons = ["Claw/hand/spear/sword"]\n'
            'stats = {{ dice = 1, die = 6, move = 6, fight = 0, shoot = 0, defense = 8 }}\n')
    roster = loads_roster('format = 1\nname = "Levy"\nruleset = "fast_universal"\n\n'
                          + unit.format("Spears") + unit.format("Axes"))
    report = cost_roster(Registry().get(roster.ruleset), roster)
    out = tmp_path / "c.pdf"
    export_cards(report, validate_report(report), out, CardOptions(size="poker", paper="a4"))
    text = PdfReader(str(out)).pages[0].extract_text()
    assert "Units, all of type Basic" in text, text
    assert not re.search(r"^\d+ (Spears|Axes) Basic\b", text, re.MULTILINE), text


def test_rules_kept_with_nothing_to_measure_share_one_line(sample_cards):
    """LEGO's over-points army: the broken points limit has its row and reason; the rules it keeps
    that show no measure are named once, on one "Also met" line, not a row of ticks each; the
    fingerprint's note speaks of cards and the list, not of commands."""
    sc, text = _summary(sample_cards, "lego_combat_INVALID_over_points")
    line = " ".join(text.split())
    assert "Points limit The army costs 258 points; the limit is 250: remove 8 points" in line, line
    met = [s.label for s in sc.validation.limits if s.ok]
    assert len(met) > 3
    assert "Also met: " + ", ".join(met) in line, line
    assert all(line.count(label) == 1 for label in met), met
    assert "rosterkit" not in line and "to match a loose card to this list" in line


def test_met_rules_alone_are_all_met(sample_cards):
    """For the Masses, Alvernan host: every limit is kept and none shows a measure, so the one line
    naming them says "All met" (it read "Also met" with nothing above it), and the two General
    limits read as two different rules, not "General, Only one General"."""
    _, text = _summary(sample_cards, "for_the_masses_alvernan_host")
    line = " ".join(text.split())
    assert "All met: " in line and "Also met" not in line, line
    assert "A General marked" in line and "No second General" in line, line


def _placed(pdf, words: tuple[str, ...]) -> dict[str, tuple[float, float]]:
    """Where on the summary page each of ``words`` starts a run of text (x, y from the bottom)."""
    from pypdf import PdfReader

    found: dict[str, tuple[float, float]] = {}

    def visit(text, cm, tm, font, size):
        for w in words:
            if text.strip().startswith(w) and w not in found:
                found[w] = (cm[4] + tm[4] * cm[0], cm[5] + tm[5] * cm[3])
    PdfReader(str(pdf)).pages[0].extract_text(visitor_text=visit)
    return found


@pytest.mark.parametrize("sample, beside", [
    ("ares_hill_clans", True),  # one type: no bars, the limits' one line beside the code
    ("heroic_gods_achaeans", True),  # two bars and the limits' line, under the code's height
    ("lego_combat_INVALID_over_points", False),  # a broken limit's reason: under the code
])
def test_the_limits_go_beside_the_qr_code_where_its_height_holds_them(tmp_path, sample, beside):
    """The room beside the QR code held the fingerprint's note (and the bars): the composition
    limits go there too where they end above the code's foot, so the units and the quick rules
    under them start higher; else they keep their place under it, full width."""
    out = tmp_path / "cards.pdf"
    assert run_cli("cards", SAMPLES / f"{sample}.toml", "-o", out).code == 0
    at = _placed(out, ("Roster fingerprint", "Composition limits", "Units"))
    assert set(at) == {"Roster fingerprint", "Composition limits", "Units"}, at
    (fx, fy), (lx, ly), (ux, uy) = at["Roster fingerprint"], at["Composition limits"], at["Units"]
    assert ly < fy and uy < ly  # read in that order, down the page
    if beside:
        assert abs(lx - fx) < 1 and lx > ux + 100  # in the fingerprint's column, right of the code
    else:
        assert abs(lx - ux) < 1  # at the margin, as the units' heading
