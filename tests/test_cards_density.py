"""Dense cards where that costs no legibility: the card that holds an export's body size down
takes fewer lines, so every army of a game prints at much the same size."""

from __future__ import annotations

from conftest import SAMPLES
from pypdf import PdfReader

from rosterkit.cards.pdf import CardOptions

POKER = CardOptions(size="poker", paper="a4", summary=False)


def _runs(pdf) -> set[str]:
    """The runs of text as pypdf reads them back, a line of a card each (a line of box numbers
    reads "1 2 3 4 5 6")."""
    runs: set[str] = set()
    for page in PdfReader(str(pdf)).pages:
        page.extract_text(visitor_text=lambda text, cm, tm, font, size: runs.add(" ".join(text.split())))
    return runs


def _numbered(first: int, last: int) -> str:
    return " ".join(str(k) for k in range(first, last + 1))


def test_ares_figures_wound_boxes_are_numbered_figure_by_figure(sample_cards):
    """Royal host's Knight (4 figures x 6 wounds): at poker each figure's boxes a run of their own
    numbered 1 to 6 (not one run 1 to 24), set as the export sets every card's rows, so that the
    export's body holds at 7.25 pt (7.75 without a lost figure's cost on every unit card)."""
    cards = sample_cards(SAMPLES / "ares_MISMATCH_royal_host.toml", POKER)
    runs = _runs(cards.path)
    assert _numbered(1, 6) in runs, sorted(runs)
    assert _numbered(1, 12) not in runs and _numbered(7, 12) not in runs
    assert cards.result.body_size >= 7.25


def test_the_export_names_the_card_holding_its_body_size(sample_cards):
    """The export says which card holds its body size down (the fullest that fits on one card,
    as the gallery prints it), and none where the body is the size's largest."""
    held = sample_cards(SAMPLES / "ares_MISMATCH_royal_host.toml", POKER).result
    assert held.held_by == "King's Companions: Human Knight", held.held_by
    top = sample_cards(SAMPLES / "fast_universal_iron_vanguard.toml", POKER).result
    assert top.body_size == 9 and top.held_by == "", (top.body_size, top.held_by)


ONE_UNIT = """format = 1
name = "Two Knights"
ruleset = "ares"
points_limit = 500

[[units]]
name = "Knights"
[[units.members]]
figure = "Human Knight"
count = 2
"""


def test_an_army_of_one_unit_prints_as_large_as_its_card_allows(tmp_path):
    """Two Human Knights, one card: A6 prints them at the size's largest body, as every ARES sample
    (its nine stats in two lines), not at 8.25 pt to keep the stat band on one line; a larger card
    never prints smaller type than a smaller one."""
    from conftest import load

    from rosterkit.cards.pdf import export_cards
    from rosterkit.engine.costing import cost_roster
    from rosterkit.engine.validation import validate_report
    from rosterkit.files.rosters import loads_roster

    roster = loads_roster(ONE_UNIT, "two_knights.toml")
    report = cost_roster(load(roster.ruleset), roster)
    bodies = {}
    for size in ("poker", "tarot", "a6"):
        result = export_cards(report, validate_report(report), tmp_path / f"{size}.pdf",
                              CardOptions(size=size, paper="a4", summary=False))
        bodies[size] = result.body_size
    assert bodies["a6"] >= 11.75 and bodies["poker"] <= bodies["tarot"] <= bodies["a6"], bodies


def test_heroic_gods_cards_say_vp_and_their_values_grow_past_the_army_card(sample_cards):
    """Achaeans at poker: the army card's subtitle says "23 VP" and each figure's leaves its value
    to the badge and the band, so every subtitle takes one line and the army card of nine God
    events no longer holds the body at 8 pt; the figures' values grow to twice the body, though
    the army card, which has none, is full."""
    cards = sample_cards(SAMPLES / "heroic_gods_achaeans.toml", POKER)
    result = cards.result
    runs = _runs(cards.path)
    assert "Hero · ID #1 · Spear" in runs and "Army · 7 figures · 23 VP" in runs, sorted(runs)
    assert result.body_size >= 8.5, result.body_size
    assert max(result.type_sizes) >= 2 * result.body_size - 0.01, sorted(result.type_sizes)
    assert cards.pages[-1].count("victory points") == 0
