"""Per-game content of the cards, read back from the PDF: warnings, heroic_gods' identity line
and boxes, fast_universal's die track, For the Masses' empty stats, ARES' subtitle."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import RULESETS, SAMPLES, load
from pypdf import PdfReader

from rosterkit.cards.pdf import CardOptions, export_cards
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.validation import validate_report
from rosterkit.errors import RosterkitError
from rosterkit.files.rosters import load_roster
from rosterkit.files.rulesets import compile_ruleset_text


def _export(tmp_path: Path, sample: str, size: str = "poker"):
    roster = load_roster(SAMPLES / f"{sample}.toml").roster
    report = cost_roster(load(roster.ruleset), roster)
    out = tmp_path / f"{sample}-{size}.pdf"
    result = export_cards(report, validate_report(report), out, CardOptions(rules=False, size=size, paper="a4", summary=False))
    return result, out


def _cards(tmp_path: Path, sample: str, size: str = "poker") -> list[str]:
    """The text of each card, one string a card."""
    _, out = _export(tmp_path, sample, size)
    text = "\n".join(p.extract_text() or "" for p in PdfReader(str(out)).pages)
    return [c.strip() for c in re.split(r"card \d+ of \d+", text)[:-1]]


def _runs(pdf: Path) -> list[tuple[str, str, float]]:
    """Every piece of text on the pages with its font's name and its size."""
    out = []
    for page in PdfReader(str(pdf)).pages:
        def visit(text, cm, tm, font, size):
            if text.strip():
                name = str(font.get("/BaseFont", "")) if font else ""
                out.append((text, name, round(size * tm[0] if tm[0] else size, 2)))
        page.extract_text(visitor_text=visit)
    return out


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


# ---------------------------------------------------------------- 1. warnings on the cards


def test_a_warning_about_figures_shows_on_their_cards_as_a_quiet_line(tmp_path):
    """Two figures on base 3: both their cards say so, as the finding does (a reading), in small
    regular type; the figure on base 1 says nothing, and no card says "not valid"."""
    result, out = _export(tmp_path, "heroic_gods_warning_duplicate_base_ids")
    cards = [_flat(c) for c in _cards(tmp_path, "heroic_gods_warning_duplicate_base_ids")]
    on_three = [c for c in cards if "#3" in c]
    assert len(on_three) == 2
    for c in on_three:
        assert "Warning, our reading: Base ID 3 on 2 figures: renumber" in c, c
    assert not any("Warning" in c for c in cards if "#1" in c)
    assert not any("not valid" in c.lower() for c in cards)
    warning = [(font, size) for text, font, size in _runs(out) if text.startswith("Warning")]
    assert warning and all(size < result.body_size and "Bold" not in font for font, size in warning), warning
    assert all(size >= 5.5 for _, size in warning)


def test_an_army_wide_warning_shows_on_the_army_card_with_room_for_it(tmp_path):
    """God chips without a Hero: on an A6 card the army card that prints the chips says they
    cannot be played, in the finding's words, and the figures' cards do not repeat it; on a poker
    card, full with the God events, it keeps the warning's short form at a body no smaller than 8 pt."""
    cards = [_flat(c) for c in _cards(tmp_path, "heroic_gods_warning_chips_without_hero", "a6")]
    army = [c for c in cards if "Army ·" in c]
    assert len(army) == 1
    assert "Warning: The side has 2 God chips but no Hero" in army[0] and "our reading" in army[0]
    assert not any("Warning" in c for c in cards if "Army ·" not in c)
    result, _ = _export(tmp_path, "heroic_gods_warning_chips_without_hero", "poker")
    assert result.body_size >= 8.0


# ---------------------------------------------------------------- 2. heroic_gods figure cards


def test_heroic_gods_identity_is_in_the_subtitle_and_the_band_holds_the_factors(tmp_path):
    """Achaeans: the base number and the spear are in each figure's subtitle, the rank is its type
    there; no ID, rank or spear is set as a large stat value; the factors keep their boxes."""
    result, out = _export(tmp_path, "heroic_gods_achaeans")
    cards = [_flat(c) for c in _cards(tmp_path, "heroic_gods_achaeans")]
    figures = [c for c in cards if "Army ·" not in c]
    assert len(figures) == 7
    achilles = next(c for c in figures if c.startswith("Achilles"))
    assert "Hero · ID #1 · Spear" in achilles and "Spear · 5" not in achilles, achilles
    archer = next(c for c in figures if c.startswith("Locrian archer"))
    assert "Common soldier · ID #7 · no spear" in archer and "spear · 2" not in archer, archer
    assert not any(re.search(r"\bRank\b", c) for c in figures)
    large = {text.strip() for text, _, size in _runs(out) if size > result.body_size * 1.2}
    assert not {v for v in large if v.startswith("#") or v in {"Hero", "Common", "yes", "no"}}, large
    assert re.search(r"\bA D M Unwounded 8 7 6 Wounded 4 4 3(?!\d)", achilles), achilles


def test_heroic_gods_wounded_is_a_plain_box_like_panicked(tmp_path):
    """One figure's Wounded box is a check box beside Panicked, not a box numbered 1."""
    cards = [_flat(c) for c in _cards(tmp_path, "heroic_gods_achaeans")]
    for c in cards:
        if "Army ·" in c:
            continue
        # (its effect beside it, as Panicked's)
        assert "Wounded stats halved; a second wound kills Panicked" in c, c


@pytest.mark.parametrize("size", ["poker", "tarot"])
def test_heroic_gods_army_cards_follow_one_rule_for_the_units_list(tmp_path, size):
    """The army card holds the army's settings and trackers and no list of the units (each has a
    card, the summary page lists them), in every army alike."""
    for sample in ("heroic_gods_achaeans", "heroic_gods_trojans"):
        army = [c for c in _cards(tmp_path, sample, size) if "Army ·" in c]
        assert len(army) == 1 and "GOD EVENTS" in army[0]
        assert "Units (" not in army[0], army[0]


# ---------------------------------------------------------------- 3. fast_universal trackers


@pytest.mark.parametrize("sample, hero, track", [
    ("fast_universal_ashen_host", "Ember Shaman", "Hits 2d6 › 2d4 › removed"),  # a d6 hero: one die to tick
    ("fast_universal_INVALID_hero_heavy", "Warlord Ghor", "Hits 1d10 › 1d8 › 1d6 › 1d4 › removed"),  # a d10 hero
])
def test_fast_universal_hero_die_track_has_only_the_dice_a_hit_takes_it_to(tmp_path, sample, hero, track):
    """A hit takes the hero's die one size down and a hit at d4 removes it: the track opens with
    the die it rolls (never ticked), then a box for each die a hit takes it to and one for the
    hit that removes it, the dice in the body's type."""
    result, out = _export(tmp_path, sample)
    card = next(_flat(c) for c in _cards(tmp_path, sample) if hero in c[:60])
    assert track + " hits = foe's sum ÷ D (our reading)" in card, card
    dice = [size for text, _, size in _runs(out) if re.fullmatch(r"\d+d\d+( › \d+d\d+)* › removed", text.strip())]
    assert dice and all(size >= result.body_size for size in dice), dice


def test_fast_universal_half_strength_bar_has_room_on_both_sides(tmp_path):
    """The casualty boxes keep one spacing: the half-strength bar between two boxes sits in a
    group's gap (as wide on Archers, 2 | 2, as on Spearmen), and ten boxes break at the bar, 5 | 5
    (both units made ordnance crews: only ordnance has a rule on half its starting miniatures)."""
    from rosterkit.cards.content import CardBuilder
    from rosterkit.cards.fonts import Glyphs
    from rosterkit.cards.layout import CardLayout
    from rosterkit.cards.sizes import card_size
    from rosterkit.cards.style import RED

    path = tmp_path / "crews.toml"
    path.write_text((SAMPLES / "fast_universal_iron_vanguard.toml").read_text()
                    .replace('type = "Basic"', 'type = "Ordnance"'))
    roster = load_roster(path).roster
    report = cost_roster(load(roster.ruleset), roster)
    contents = list(CardBuilder(report, "unit", []).cards())
    lay = CardLayout(card_size("poker"), Glyphs(), "x", list(report.ruleset.types))
    lay.fit(contents)
    lay.grow(contents)
    for c in contents[:2]:
        casualties = next(tr for tr in c.tracks if tr.label == "Casualties")
        rows = [r for r in lay.tracks((casualties,), 0) if any(op[0] == "B" for op in r.ops)]
        boxes = [[op for op in r.ops if op[0] == "B"] for r in rows]
        assert [len(b) for b in boxes] == ([5, 5] if c.title == "Spearmen" else [4]), (c.title, boxes)
        for r, line in zip(rows, boxes):
            for op in r.ops:
                if op[0] == "L" and op[5] is RED:
                    before = max(b[1] + b[3] for b in line if b[1] + b[3] <= op[1])
                    after = [b[1] for b in line if b[1] > op[1]]
                    room = min([op[1] - before] + [a - op[1] for a in after])
                    assert room >= lay.t.box * 0.3, (c.title, room)


def test_fast_universal_units_mark_their_formation(tmp_path):
    """Every unit ticks the formation it keeps all game, a box beside each name after the word;
    a hero alone too (the rules put every unit in one of the two)."""
    cards = [_flat(c) for c in _cards(tmp_path, "fast_universal_iron_vanguard")]
    spearmen = next(c for c in cards if c.startswith("Spearmen"))
    assert "Formation: Regiment Skirmish" in spearmen, spearmen
    hero = next(c for c in cards if c.startswith("Captain Aldric"))
    assert "Formation: Regiment Skirmish" in hero, hero


# ---------------------------------------------------------------- 4. For the Masses' empty stats


@pytest.mark.parametrize("sample", ["for_the_masses_orc_warband", "for_the_masses_alvernan_host"])
def test_for_the_masses_empty_stats_read_light(tmp_path, sample):
    """Rng -/-, Mor -, ME -, CP -: the book's dashes, thin (the regular face), not a bold value;
    the unit's values in the band stay bold."""
    result, out = _export(tmp_path, sample)
    runs = _runs(out)
    dashes = [(font, size) for text, font, size in runs if re.fullmatch(r"-(/-)?( -(/-)?)*", text.strip())
              and size > result.body_size]
    assert dashes and all("Bold" not in font for font, _ in dashes), dashes
    values = [font for text, font, size in runs if re.fullmatch(r"(\d*d\d+|\d+\+?)( (\d*d\d+|\d+\+?))*",
                                                                 text.strip()) and size > result.body_size]
    assert values and all("Bold" in font for font in values), values


@pytest.mark.parametrize("size", ["poker", "a6"])
def test_for_the_masses_personality_notes_the_command_points_it_has_left(tmp_path, size):
    """A Personality rolls its CP dice each turn and pays for actions from them alone: its card has
    a space to write the points it has left this turn; a unit without CP dice has none."""
    cards = [_flat(c) for c in _cards(tmp_path, "for_the_masses_orc_warband", size)]
    chief = next(c for c in cards if c.startswith("Orc Chief"))
    assert "CP left this turn" in chief, chief
    warriors = [c for c in cards if c.startswith("Orc Warriors")]
    assert warriors and not any("CP left" in c for c in warriors), warriors


# ---------------------------------------------------------------- 5. ARES subtitle


def test_ares_subtitle_says_figure_once(tmp_path):
    """ARES has one type, Figure: the subtitle counts the figures without naming the type first
    ("1/2 · Human Hero · 110 of 286", not "Figure · 1 figure of 3 · …"; a unit's card of one
    kind of figure says how many, "Human Knight × 2", and which of the unit's cards it is)."""
    cards = [_flat(c) for c in _cards(tmp_path, "ares_crown_household")]
    units = [c for c in cards if not c.startswith("Reference")]
    assert units and not any("Figure ·" in c for c in units), units
    hero = next(c for c in units if c.startswith("Household Knights 110 1/2 · Human Hero"))
    assert "Household Knights 110 1/2 · Human Hero · 110 of 286 Combat" in hero, hero
    pikes = next(c for c in units if c.startswith("Pike Screen"))
    assert "Pike Screen 54 2 figures × 27 = 54 rating" in pikes, pikes


def test_ares_card_per_figure_names_the_figure_once(tmp_path):
    """One card a figure: "Figure 2 of 4", the type not set before it again, its rating in the
    badge alone (the subtitle shows points only where there is working to show)."""
    roster = load_roster(SAMPLES / "ares_crown_household.toml").roster
    report = cost_roster(load(roster.ruleset), roster)
    out = tmp_path / "c.pdf"
    export_cards(report, validate_report(report), out,
                 CardOptions(size="poker", paper="a4", summary=False, per="figure"))
    text = _flat("\n".join(p.extract_text() or "" for p in PdfReader(str(out)).pages))
    assert "Figure 2 of 4" in text and "Figure · " not in text and "of 4 · 40" not in text, text


# ---------------------------------------------------------------- 6. subtitles on one line


@pytest.mark.parametrize("sample", sorted(p.stem for p in SAMPLES.glob("*.toml")))
def test_a_count_subtitle_stays_on_one_line_at_tarot(tmp_path, sample):
    """Tarot: "Basic · 10 × 21 = 210 points" (the count's word left out where the whole would take
    two lines) on one line, never broken before its "=" ("… × 21" over "= 210 points")."""
    _, out = _export(tmp_path, sample, "tarot")
    lines = "\n".join(p.extract_text() or "" for p in PdfReader(str(out)).pages).splitlines()
    assert not [line for line in lines if line.startswith("= ")], sample
    counts = [line for line in lines if " × " in line]
    # (or a mixed unit's card of one kind of figure: "2/2 · Human Knight × 2 · 176 of 286")
    assert all(re.search(r"\d+ (\w+ )?× [\d.]+ = [\d.]+ (points|rating)$", line)
               or re.search(r"^\d+/\d+ · [^·]+ × \d+ · [\d.]+ of [\d.]+$", line) for line in counts), counts


# ---------------------------------------------------------------- 7. the summary's findings


def test_the_summary_prints_an_army_wide_warning_once_in_plain_words(tmp_path):
    """God chips without a Hero: the limits table says it, the list of findings does not say it
    again; "2 God chips", never "chip(s)"."""
    roster = load_roster(SAMPLES / "heroic_gods_warning_chips_without_hero.toml").roster
    report = cost_roster(load(roster.ruleset), roster)
    out = tmp_path / "s.pdf"
    export_cards(report, validate_report(report), out, CardOptions(size="poker", paper="a4"))
    summary = _flat(PdfReader(str(out)).pages[0].extract_text())
    assert summary.count("but no Hero") == 1, summary
    assert "The side has 2 God chips but no Hero" in summary and "they cannot be used" in summary
    assert "(s)" not in summary


@pytest.mark.parametrize("chips, words", [(1, ("1 God chip but no Hero; only a Hero may play a God chip, so our "
                                              "reading is that it cannot be used")),
                                          (3, "3 God chips but no Hero")])
def test_the_god_chips_warning_counts_in_plain_words(chips, words):
    """One chip is "1 God chip … it cannot be used"; three are "3 God chips"."""
    roster = load_roster(SAMPLES / "heroic_gods_warning_chips_without_hero.toml").roster
    roster = roster.model_copy(update={"stats": {**roster.stats, "god_chips": chips}})
    found = [f.message for f in validate_report(cost_roster(load(roster.ruleset), roster)).findings
             if f.rule == "god-chips-need-hero"]
    assert len(found) == 1 and words in found[0] and "(s)" not in found[0], found


# ---------------------------------------------------------------- 8. heroic_gods' stat band


@pytest.mark.parametrize("size", ["poker", "index"])
def test_heroic_gods_band_reads_labels_over_values_without_an_empty_first_cell(tmp_path, size):
    """A figure's band has no first column whose cells say nothing: each row of values opens with
    its label, "Unwounded" over "Wounded" (the book's halved factors, as on every size), at the
    band's left edge."""
    _, out = _export(tmp_path, "heroic_gods_achaeans", size)
    pages = PdfReader(str(out)).pages
    text = _flat(" ".join(p.extract_text() for p in pages))
    assert "Unwounded 8 7 6 Wounded 4 4 3 " in text and "Unwounded 4 5 6 6 Wounded 2 3 3 3 " in text, text
    assert "Wounded:" not in text
    page = next(p for p in pages if "Achilles" in p.extract_text())
    runs: list[tuple[str, float]] = []  # each run's text and its x, in its card's own coordinates
    page.extract_text(visitor_text=lambda text, cm, tm, font, fsize: runs.append((text.strip(), tm[4])))
    at = next(i for i, (t, _) in enumerate(runs) if t.startswith("Achilles"))
    name_x = runs[at][1]
    # (the band's two, not the Wounded box's label further down)
    label_x = [x for t, x in runs[at:at + 12] if t in ("Unwounded", "Wounded")][:2]
    assert len(label_x) == 2 and all(0 < x - name_x < 6 for x in label_x), (name_x, label_x)


def test_heroic_gods_cards_remind_the_ranges_and_the_rally_roll(tmp_path):
    """Each figure card says under its band what a player looks up in play, from its own values:
    Teucer (a bow, no spear, Defense 5) "Bow shot 24\" every phase · rally 1D10 ≤ 5 · if wounded ≤ 3 (a reading)",
    a spearman "Spear throw 12\" · rally ..." (the range with its inch mark: "Spear 12" read as a
    stat), each fact whole on its line, after the fight on the chart (and on a Hero's card, the God
    chips); a ruleset whose reminder does not compile is refused at its key."""
    cards = [_flat(c) for c in _cards(tmp_path, "heroic_gods_achaeans")]
    teucer = next(c for c in cards if c.startswith("Teucer"))
    assert re.search(r'Bow shot 24" every phase (· )?rally 1D10 ≤ 5 (· )?if wounded ≤ 3 \(a reading\)', teucer) and "Spear throw" not in teucer, teucer
    spearman = next(c for c in cards if c.startswith("Myrmidon spearman"))
    assert re.search(r'Spear throw 12" (· )?rally 1D10 ≤ 4 (· )?if wounded ≤ 2 \(a reading\)', spearman) and "Bow shot" not in spearman, spearman
    lines = [line for c in _cards(tmp_path, "heroic_gods_achaeans") for line in c.splitlines() if "rally 1D10" in line]
    assert len(lines) == 7 and all(re.search(r"rally 1D10 ≤ \d+( · if wounded ≤ \d+ \(a reading\))?$", line) for line in lines), lines
    army = next(c for c in cards if "Army ·" in c)
    assert "rally" not in army
    # every figure's fight on the chart, and a Hero's say over the army's God chips (only a Hero
    # plays one, one a turn): on the three Heroes' cards, not the four common soldiers'
    figures = [c for c in cards if "ID #" in c]
    assert len(figures) == 7 and all("Fight: A - foe's D, 1D6 on the chart" in c for c in figures), figures
    heroes = {c.split(" ")[0] for c in figures if "Plays God chips, one a turn" in c}
    assert heroes == {"Achilles", "Ajax", "Teucer"}, figures
    assert "Fight:" not in army
    text = (RULESETS / "heroic_gods.toml").read_text(encoding="utf-8").replace(
        'rally 1D10 ≤ {defense}', 'rally 1D10 ≤ {nonsense_name}')
    with pytest.raises(RosterkitError) as info:
        compile_ruleset_text(text, "bad.toml")
    assert any(p.key == "card.reminder" and "nonsense_name" in p.message for p in info.value.problems), \
        [(p.key, p.message) for p in info.value.problems]
