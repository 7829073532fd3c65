"""A roster's chart: the players' own for a game that plays by a chart its text does not print
(heroic_gods' combat chart), checked against the chart the ruleset declares, printed filled in on
the chart card, kept by a save with the comments around it."""

from __future__ import annotations

import re
import shutil

from cardexports import read_back
from conftest import SAMPLES, run_cli

from rosterkit.cards.pdf import CardOptions, export_cards
from rosterkit.editing import edits
from rosterkit.editing.document import Where, open_document
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.validation import validate_report
from rosterkit.files.rosters import load_roster, loads_roster

LEVY = SAMPLES / "heroic_gods_warning_chips_without_hero.toml"


def _with_chart(table: str, sample=LEVY) -> str:
    """The sample's file with ``table`` (a [chart] table) before its first unit."""
    head, sep, rest = sample.read_text(encoding="utf-8").partition("[[units]]")
    return f"{head}{table}\n\n{sep}{rest}"


def _chart_card(tmp_path, text: str, registry, size: str = "poker") -> list[str]:
    roster = loads_roster(text)
    report = cost_roster(registry.get(roster.ruleset), roster)
    out = tmp_path / "cards.pdf"
    export_cards(report, validate_report(report), out, CardOptions(size=size, paper="a4", summary=False))
    pages, _ = read_back(out)
    cards = re.split(r"card \d+ of \d+", re.sub(r"\s+", " ", "\n".join(pages)))[:-1]
    return [c.strip() for c in cards]


def test_a_chart_row_of_the_wrong_length_is_an_error_that_says_which(tmp_path):
    path = tmp_path / "levy.toml"
    path.write_text(_with_chart('[chart]\nrows = [["0", "N", "P", "W", "W", "K", "K"], ["+1", "P", "W", "K"]]'))
    result = run_cli("validate", path)
    assert result.code == 1 and "Traceback" not in result.err + result.out
    said = result.out + result.err
    assert "Combat chart, row 2: 4 entries; expected the row's label (A - D), then 6 results, one for each of " \
           "1, 2, 3, 4, 5, 6" in said, said


def test_a_chart_for_a_game_without_one_is_an_error(tmp_path):
    text = (SAMPLES / "fast_universal_iron_vanguard.toml").read_text(encoding="utf-8")
    path = tmp_path / "vanguard.toml"
    path.write_text(text.replace("[[units]]", '[chart]\nrows = [["0", "x"]]\n\n[[units]]', 1))
    result = run_cli("validate", path)
    assert result.code == 1 and "this roster gives a chart; its ruleset plays by none" in result.out + result.err


def test_a_chart_too_long_is_refused_with_the_file_and_key(tmp_path):
    path = tmp_path / "levy.toml"
    path.write_text(_with_chart('[chart]\nrows = [["0", "N", "P", "W", "W", "K", "a result far too long"]]'))
    result = run_cli("validate", path)
    assert result.code != 0 and "Traceback" not in result.err
    assert "levy.toml" in result.err and "chart.rows" in result.err, result.err


def test_a_wrong_chart_prints_blank_and_a_right_one_filled_in(tmp_path, registry):
    wrong = _chart_card(tmp_path, _with_chart('[chart]\nrows = [["0", "N", "P"]]'), registry)
    assert wrong[-1].removeprefix("NOT VALID ").startswith("Combat chart not in the article: fill it in A - D 1 2 3 4 5 6")
    right = _chart_card(tmp_path, _with_chart(
        '[chart]\nnote = "club rules"\nrows = [["-1 or less", "N", "N", "P", "P", "W", "K"], ["0 or more", '
        '"P", "W", "W", "K", "K", "K"]]'), registry)
    assert right[-1].startswith("Combat chart the players' chart, not the article's · club rules A - D 1 2 3 4 5 6 "
                                "-1 or less N N P P W K 0 or more P W W K K K"), right[-1]


def test_a_long_result_keeps_to_its_cell_and_a_control_character_is_not_printed(tmp_path, registry):
    cards = _chart_card(tmp_path, _with_chart(
        '[chart]\nrows = [["0", "N", "P", "W", "Wound+Panic", "K\\u0007", "K"]]'), registry)
    chart = cards[-1]
    assert "\x07" not in chart and "W Wou… K K 1D6 across" in chart, chart
    assert "Wound+Panic" not in chart and re.search(r"Wou\S*…", chart), chart  # cut short in its cell


def test_a_save_keeps_the_chart_and_its_comments(tmp_path, registry):
    path = tmp_path / "achaeans.toml"
    shutil.copy(SAMPLES / "heroic_gods_achaeans.toml", path)
    before = load_roster(path).roster.chart
    doc = open_document(path, registry)
    roster = doc.roster
    unit = edits.set_stat(roster.units[0], None, "attack", 9)
    doc.apply(edits.replace_unit(roster, 0, unit), "attack", Where(unit=0))
    doc.save()
    text = path.read_text(encoding="utf-8")
    assert "# The article plays by a combat chart it does not print." in text
    assert '["≤ -4", "N", "N", "N", "N", "N", "P"],' in text
    again = load_roster(path).roster
    assert again.chart == before and again.units[0].stats["attack"] == 9


def test_every_front_end_reads_the_same_chart(tmp_path):
    """The command line's export prints the trojans' chart, and its check finds nothing wrong in it."""
    cards = tmp_path / "cards.pdf"
    assert run_cli("cards", SAMPLES / "heroic_gods_trojans.toml", "-o", cards, "--paper", "a4").code == 0
    pages, _ = read_back(cards)
    assert "the players' chart, not the article's" in re.sub(r"\s+", " ", pages[-1])
    assert run_cli("validate", SAMPLES / "heroic_gods_trojans.toml").code == 0


def test_a_chart_row_longer_than_any_chart_is_refused_when_read(tmp_path):
    """A row of more entries than a chart can have columns (ten) and its label is refused as the
    file is read, naming the row, before anything counts its entries."""
    path = tmp_path / "levy.toml"
    path.write_text(_with_chart("[chart]\nrows = [[" + ", ".join(['"N"'] * 12) + "]]"))
    result = run_cli("validate", path)
    assert result.code != 0 and "Traceback" not in result.err
    assert "chart.rows[0]" in result.err and "levy.toml" in result.err, result.err
