"""Large cards (tarot, A6) filled rather than half empty: a larger body where an export has the room,
no more cards for it, boxes beside their labels, and heroic_gods' wounded factors in the stat band."""

from __future__ import annotations

import re
import statistics
from pathlib import Path

import pytest
from conftest import SAMPLES
from pdfdraw import squares
from pypdf import PdfReader

from rosterkit.cards.pdf import CardOptions, export_cards

# each sample's cards and body at tarot and A6 before the larger body (the gallery of the cards);
# since then ARES morale 6 at tarot takes two cards (a short "not valid" band keeps the Troll on one),
# a reminder on every unit card costs border levy and kingsbridge half a point at tarot, and a hero's
# hit track with its dice counted ("1d10 › [1d8] ...") goes under its label at tarot (hero heavy),
# and the Thane's unit's line on losing its last Leader costs hill clans a quarter point at A6
BEFORE = {
    "tarot": {"ares_INVALID_morale_6": (2, 10), "ares_INVALID_over_rating": (3, 9.5),
              "ares_INVALID_unrated_figure": (2, 9.5), "ares_MISMATCH_royal_host": (3, 9.5),
              "ares_border_levy": (4, 9.0), "ares_crown_household": (4, 9.5), "ares_hill_clans": (4, 8.75),
              "fast_universal_INVALID_hero_heavy": (3, 10.25), "fast_universal_ashen_host": (4, 10.5),
              "fast_universal_iron_vanguard": (3, 10.5), "for_the_masses_INVALID_thirteen_elements": (2, 9.25),
              "for_the_masses_alvernan_host": (4, 10.25), "for_the_masses_orc_warband": (4, 9.25),
              "heroic_gods_achaeans": (8, 10.5), "heroic_gods_trojans": (8, 10.5),
              "heroic_gods_warning_chips_without_hero": (4, 10.5),
              "heroic_gods_warning_duplicate_base_ids": (4, 10.5), "lego_combat_INVALID_over_points": (4, 10.5),
              "lego_combat_blackwater_corsairs": (6, 10.5), "lego_combat_kingsbridge_garrison": (5, 9.75)},
    "a6": {"ares_INVALID_morale_6": (2, 12), "ares_INVALID_over_rating": (3, 12),
           "ares_INVALID_unrated_figure": (2, 12), "ares_MISMATCH_royal_host": (3, 12),
           "ares_border_levy": (4, 12), "ares_crown_household": (4, 12), "ares_hill_clans": (4, 11.5),
           "fast_universal_INVALID_hero_heavy": (3, 12), "fast_universal_ashen_host": (4, 12),
           "fast_universal_iron_vanguard": (3, 12), "for_the_masses_INVALID_thirteen_elements": (2, 12),
           "for_the_masses_alvernan_host": (4, 12), "for_the_masses_orc_warband": (4, 12),
           "heroic_gods_achaeans": (8, 12), "heroic_gods_trojans": (8, 12),
           "heroic_gods_warning_chips_without_hero": (4, 12), "heroic_gods_warning_duplicate_base_ids": (4, 12),
           "lego_combat_INVALID_over_points": (4, 12), "lego_combat_blackwater_corsairs": (6, 12),
           "lego_combat_kingsbridge_garrison": (5, 12)},
}


def export(sample_cards, sample: str, size: str):
    return sample_cards(SAMPLES / f"{sample}.toml", CardOptions(rules=False, size=size, paper="a4", summary=False))


def words(page) -> list[tuple[str, float, float]]:
    """Each piece of text the page draws, with where its baseline starts on the page."""
    out: list[tuple[str, float, float]] = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            out.append((text.strip(), cm[4] + tm[4] * cm[0], cm[5] + tm[5] * cm[3]))
    page.extract_text(visitor_text=visit)
    return out


def card_pages(path) -> list:
    return list(PdfReader(str(path)).pages)


@pytest.mark.parametrize("size", ["tarot", "a6"])
def test_large_cards_take_a_larger_body_and_no_more_cards(sample_cards, size):
    """Every sample prints as many cards as before at a body no smaller, in the body size the PDF
    sets; roomy exports (the named ones; on average too) set a larger body than before."""
    bodies = []
    for sample, (cards, body) in BEFORE[size].items():
        out = export(sample_cards, sample, size)
        assert out.result.cards == cards, (sample, out.result.cards)
        assert out.result.body_size >= body, (sample, out.result.body_size)
        assert out.sizes.get(out.result.body_size, 0) > 20, (sample, out.result.body_size, out.sizes)
        bodies.append(out.result.body_size)
    assert statistics.mean(bodies) > statistics.mean(body for _, body in BEFORE[size].values())
    roomy = {"tarot": ["fast_universal_ashen_host", "fast_universal_iron_vanguard", "heroic_gods_trojans"],
             # (ARES border levy and over rating spend their gain on a lost figure's cost on every card)
             "a6": ["fast_universal_ashen_host", "heroic_gods_achaeans", "fast_universal_iron_vanguard",
                    "lego_combat_blackwater_corsairs"]}[size]
    for sample in roomy:
        assert export(sample_cards, sample, size).result.body_size >= BEFORE[size][sample][1] + 0.5, sample


def test_the_wounded_row_stays_in_the_band_when_a_quick_rule_grows(tmp_path):
    """A quick rule a line longer may take the reference cards a card more at the body where the
    heroic_gods figure cards put their wounded factors in the band: the figure cards keep the row
    (they once printed "Wounded:" lines under the band on every card for it)."""
    from conftest import ruleset_with

    from rosterkit.engine.costing import cost_roster
    from rosterkit.engine.validation import validate_report
    from rosterkit.files.rosters import load_roster
    from rosterkit.files.rulesets import load_ruleset_file

    longer = ruleset_with(tmp_path, "heroic_gods", "no one else acts;", "no one else moves or fights;")
    roster = load_roster(SAMPLES / "heroic_gods_achaeans.toml").roster
    report = cost_roster(load_ruleset_file(Path(longer)), roster)
    out = tmp_path / "cards.pdf"
    export_cards(report, validate_report(report), out, CardOptions(rules_page=False, size="tarot", paper="a4"))
    text = " ".join(page.extract_text() for page in card_pages(out))
    assert "no one else moves or fights" in text
    assert "Wounded:" not in text and text.count("Unwounded") == 7, text.count("Unwounded")


def test_ares_figure_texts_stay_on_their_cards_at_a_larger_body(sample_cards):
    """ARES at A6: a larger body would send the figures' rules to a reference card (a fifth card for
    the border levy); the export takes the largest body at which the rules stay on the cards (12 pt
    with a lost figure's cost on every unit card)."""
    for sample in ("ares_border_levy", "ares_INVALID_over_rating", "ares_MISMATCH_royal_host"):
        out = export(sample_cards, sample, "a6")
        assert out.result.reference_cards == 0 and out.result.cards == BEFORE["a6"][sample][0], sample
        assert out.result.body_size >= 12, (sample, out.result.body_size)


def test_boxes_stay_beside_their_labels_on_large_cards(sample_cards):
    """At the larger body the army card's God chips stay on their label's line (the note under them),
    a figure's Wounded box with its effect on one line, and a unit's formation choice beside "Formation:"."""
    out = export(sample_cards, "heroic_gods_achaeans", "a6")
    assert out.result.body_size > 12
    page = card_pages(out.path)[0]
    seen = words(page)
    label = next((x, y) for text, x, y in seen if text == "God chips")
    chips = [(bx, by, side) for bx, by, side in squares(page) if side > 12 and bx > label[0] and
             by - 2 <= label[1] <= by + side]
    assert len(chips) == 3, chips  # the three chips on the label's line, right of it
    # (text on one baseline reads back as one piece)
    effect = next(y for text, _, y in seen if text == "stats halved; a second wound kills")
    assert any(text == "Wounded" and abs(y - effect) < 0.5 for text, _, y in seen), seen

    out = export(sample_cards, "fast_universal_ashen_host", "tarot")
    assert out.result.body_size > 10.5
    seen = words(card_pages(out.path)[0])
    formations = [k for k, (text, _, _) in enumerate(seen) if text == "Formation:"]
    assert len(formations) == 4, seen
    for k in formations:
        y = seen[k][2]
        text, _, iy = seen[k + 1]  # (the items, on one baseline, read back as one piece)
        assert re.fullmatch(r"Regiment\s+Skirmish", text) and abs(iy - y) < 0.5, seen[k:k + 3]


def sized(page) -> list[tuple[str, float, float]]:
    """Each piece of text the page draws, with its baseline's height on the page and its size."""
    out: list[tuple[str, float, float]] = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            out.append((text.strip(), round(cm[5] + tm[5] * cm[3], 1), round(size * tm[0] if tm[0] else size, 2)))
    page.extract_text(visitor_text=visit)
    return out


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_heroic_gods_wounded_factors_in_the_band_at_every_size(sample_cards, size):
    """Achilles: the book's wounded factors are a second row of the stat band, labelled "Wounded"
    under "Unwounded", at the band's value size, on every card size (never a small line under the
    band on one size and a row on another); on a large card the reminder line is at body size."""
    out = export(sample_cards, "heroic_gods_achaeans", size)
    seen = sized(card_pages(out.path)[0])
    assert not any(text.startswith("Wounded:") for text, _, _ in seen), seen
    unwounded = next(size for text, _, size in seen if text == "8 7 6")
    wounded = next(size for text, _, size in seen if text == "4 4 3")
    assert wounded == unwounded >= 1.8 * out.result.body_size, (wounded, unwounded)  # (room in each box)
    labels = {text for text, _, _ in seen}
    assert {"Unwounded", "Wounded"} <= labels, labels
    if size != "poker":
        reminder = next(size for text, _, size in seen if "rally 1D10" in text)
        assert reminder == out.result.body_size, (reminder, out.result.body_size)
