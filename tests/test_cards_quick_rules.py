"""The game's rolls on the reference card (a ruleset's card.rules), where they go without the
summary page's room (here: --no-rules-page): every export prints them once, at one size, at least
the card size's for them, and the unit cards keep their number and body (a larger body may send a
rule to the reference card the rolls have brought). tests/test_cards_rules_page.py: on the page."""

from __future__ import annotations

import re

import pytest
from cardexports import read_back
from conftest import SAMPLES, load, ruleset_with, run_cli

from rosterkit.cards.pdf import CardOptions, export_cards
from rosterkit.cards.sizes import card_size
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.validation import validate_report
from rosterkit.files.rosters import load_roster
from rosterkit.rules.ruleset import formula_count

SAMPLE_OF = {
    "ares": "ares_crown_household",
    "fast_universal": "fast_universal_ashen_host",
    "for_the_masses": "for_the_masses_orc_warband",
    "heroic_gods": "heroic_gods_achaeans",
    "lego_combat": "lego_combat_kingsbridge_garrison",
}


def reference_text(cards) -> str:
    """The text of the reference cards of an export read back (they follow the unit cards)."""
    text = "\n".join(cards.pages)
    return text[text.index("Reference"):] if "Reference" in text else ""


@pytest.mark.parametrize("ruleset, sample", sorted(SAMPLE_OF.items()))
@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_every_export_prints_the_games_rolls_once(sample_cards, ruleset, sample, size):
    cards = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(rules_page=False, size=size, paper="a4"))
    text = reference_text(cards)
    held = [r for r, when in cards.report.ruleset.card_rules if when is None]
    assert held
    for rule in held:
        assert text.count(rule.name + ":") == 1, (rule.name, text)
    assert cards.result.reference_cards >= 1


def test_the_rolls_read_as_the_books_say():
    """A few of the facts, as the texts give them (ARES chapters four and five, the fast universal
    wargame's melee and morale, the heroic skirmish's ranges, LEGO's stun levels)."""
    def rules(ruleset):
        return {r.name: r.text for r, _ in load(ruleset).card_rules}

    ares = rules("ares")
    assert "Close Combat + weapon die v Close Combat + Armor" in ares["Melee"]
    assert "over twice: 2; over 3 times: 3" in ares["Wounds"]
    assert "D12 at or under the score, 12 fails" in ares["Morale"]
    fu = rules("fast_universal")
    assert "AD + Fight" in fu["Melee"] and "÷ the other's Defense" in fu["Melee"]
    assert "more evens than odds passes" in fu["Morale"]
    heroic = rules("heroic_gods")
    assert "again if attacked, or if a rally fails" in heroic["Panic"]  # (what a failed rally does)
    assert "may take its place, but start no further melee" in heroic["Panic"]  # (the winner's advance)
    assert "charged, a spear or bow may shoot first" in heroic["Shooting"]  # (the defender's option)
    assert "10 turns, then most VP wins" in heroic["Turn"]  # (the victory conditions)
    assert "either may panic in its next phase" in heroic["Melee"]  # (a figure locked in melee)
    assert "not in the article" in rules("heroic_gods")["Combat"]  # the chart is missing from the text
    lego = rules("lego_combat")
    assert "unarmed stun-1, blunt stun-2" in lego["Stun"]  # (the roll to wake on the unit cards' boxes)
    assert "1D + Att - foe's Def: 4+ hits (6 always, 1 never)" in lego["Hit"]  # (once here, not on each card)
    assert "1D + Dmg beats foe's Res" in lego["Kill"]  # (the weapon's damage modifier, the band's Dmg)
    assert 'at -2: those within 3" of the target' in lego["Missed shot"]  # (not along the line)
    assert "a pistol ignores up to 3 levels of armor, a rifle 4" in lego["Guns"]
    # (the book's range table gives the crossbow 72", its prose 4 feet: the card says both, and
    # which the unit cards print)
    assert 'the cards print the table\'s 72" at most; the text\'s 4 feet are 48": agree one before play' in lego["Crossbow"]
    ftm = rules("for_the_masses")
    assert "a die hits on half its size + the target's Def" in ftm["Melee"]
    assert "d10, Mor or more passes, -1 for each element past the first" in ftm["Morale"]
    assert "a wound for every 2 hits (artillery: every hit)" in ftm["Ranged"]
    assert "the first its number, each more +1 (three 4s on d4: 6)" in ftm["Doubling up"]
    # (Command Point Cost: each further action of a unit a CP dearer; once it stops, done for the turn)
    assert "its actions cost 1, 2, 3... CP, and once it stops it is done for the turn" in ftm["Turn"]
    assert "4 CP, both units' first order" in ftm["Regroup"] and "12 elements at most" in ftm["Regroup"]
    assert "prone: cannot shoot" in ares["Ranged"]
    assert "the highest card in hand acts" in ares["Turn"]  # (the initiative cards)
    assert "aces high, equal values ♥ ♦ ♣ ♠" in ares["Turn"]  # (the order the book gives for a tie)
    assert "shield (Armor +) -1 from the front" in ares["Both, per die"]  # (the band's "D8+")
    assert "shooting only a crossbow or musket" in lego["Cover"]  # (a figure lying down)
    assert "the higher first (our reading of the sample game)" in ftm["Command"]  # (a reading, said so)
    assert "a free melee attack, without the reform" in ftm["Charge"]
    assert "each foe in contact gets a free attack" in ftm["Withdraw"]
    assert "attacks within 45° of its front" in fu["Formation"]


@pytest.mark.parametrize("ruleset, sample", sorted(SAMPLE_OF.items()))
def test_the_rolls_leave_the_unit_cards_as_they_were(sample_cards, ruleset, sample):
    path = SAMPLES / f"{sample}.toml"
    with_rules = sample_cards(path, CardOptions(rules_page=False, size="poker", paper="a4"))
    without = sample_cards(path, CardOptions(rules_page=False, size="poker", paper="a4", rules=False))
    assert with_rules.result.body_size >= without.result.body_size
    assert with_rules.result.by_kind.get("unit") == without.result.by_kind.get("unit")
    assert "Melee:" not in reference_text(without) and "Quick rules" not in "\n".join(without.pages)


def rule_sizes(cards) -> set[float]:
    """The sizes of the rules' texts read back from the PDF (the first line of each, after its name)."""
    openings = [r.text[:12] for r, _ in cards.report.ruleset.card_rules]
    from pypdf import PdfReader

    found: set[float] = set()
    for page in PdfReader(str(cards.path)).pages:
        def visit(text, cm, tm, font, size):
            if text.startswith(": ") and any(text[2:].startswith(o) for o in openings):
                found.add(round(size * tm[0] if tm[0] else size, 2))
        page.extract_text(visitor_text=visit)
    return found


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_the_rolls_print_at_one_size_an_export(sample_cards, size):
    """Every ruleset's rolls at one size in an export: the card size's for them at least (the
    body's where smaller), the size's largest body at most (a 7 pt body's reference cards a quarter
    blank at it read as small print and a spill); and at poker on no sheet more than the army's own
    cards take."""
    for ruleset, sample in SAMPLE_OF.items():
        cards = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(rules_page=False, size=size, paper="a4"))
        sizes = rule_sizes(cards)
        result = cards.result
        assert len(sizes) == 1 and result.rules_size in sizes, (ruleset, sizes)
        assert min(card_size(size).rules, result.body_size) <= result.rules_size <= card_size(size).high
        if size == "poker":  # the rolls take no sheet more than the army's own cards need (and its
            # blank chart, where it declares one, a sheet at most: heroic_gods' nine cards fill one)
            own = result.cards - result.reference_cards - result.by_kind.get("chart", 0)
            assert result.card_pages <= -(-own // result.per_page) + (1 if result.by_kind.get("chart") else 0), \
                ruleset
    assert card_size(size).rules >= card_size(size).low


@pytest.mark.parametrize("sample, size", [("fast_universal_ashen_host", "poker"),
                                          ("fast_universal_ashen_host", "tarot"),
                                          ("ares_crown_household", "tarot"),
                                          ("lego_combat_kingsbridge_garrison", "poker")])
def test_the_rolls_grow_to_fill_the_cards_they_take(tmp_path, monkeypatch, sample, size):
    """Rules that run on to a second card, or leave their card half empty, at the card size's
    size for them grow as far as they keep to as many cards (8 pt rules on half-empty cards beside
    11 pt unit cards read as small print): larger than without the growth, on as many cards."""
    from rosterkit.cards.layout import CardLayout

    def export(name):
        roster = load_roster(SAMPLES / f"{sample}.toml").roster
        report = cost_roster(load(roster.ruleset), roster)
        return export_cards(report, validate_report(report), tmp_path / name, CardOptions(rules_page=False, size=size, paper="a4"))

    grown = export("grown.pdf")
    monkeypatch.setattr(CardLayout, "fill_rules", lambda self, c, spare=0: None)
    plain = export("plain.pdf")
    assert plain.rules_size == min(card_size(size).rules, plain.body_size)
    assert grown.rules_size > plain.rules_size, (grown.rules_size, plain.rules_size)
    # (on a large card they may take a place the last sheet leaves blank: see the next test)
    assert grown.reference_cards <= plain.reference_cards + (size != "poker") and grown.body_size == plain.body_size
    assert grown.card_pages == plain.card_pages


@pytest.mark.parametrize("sample, size, before, after", [
    ("lego_combat_kingsbridge_garrison", "tarot", (1, 8.0), (2, 10.75)),
    ("heroic_gods_trojans", "tarot", (1, 8.5), (2, 10.5)),
    # (2 cards at 8.5 pt, then 3 at 9.5, while the Turn rule left out what each action costs)
    ("for_the_masses_orc_warband", "tarot", (3, 9.5), (4, 11.25)),
])
def test_the_rolls_take_a_blank_place_of_the_last_sheet_on_a_large_card(tmp_path, sample, size, before, after):
    """Tarot: where the last sheet leaves a place blank, the quick rules take one card more where
    that sets them a point larger or more and keeps their cards four fifths full (Kingsbridge: one
    reference card at 8 pt beside two blank places and 10.25 pt unit cards), the sheets as many as
    before."""
    roster = load_roster(SAMPLES / f"{sample}.toml").roster
    report = cost_roster(load(roster.ruleset), roster)
    result = export_cards(report, validate_report(report), tmp_path / "cards.pdf", CardOptions(rules_page=False, size=size, paper="a4"))
    assert (result.reference_cards, result.rules_size) == after, (result.reference_cards, result.rules_size)
    own = result.cards - result.reference_cards
    assert result.card_pages == -(-(own + before[0]) // result.per_page)
    assert after[1] >= before[1] + 1 and result.rules_size <= card_size(size).high


@pytest.mark.parametrize("sample, size, kept", [
    # poker: never (a place blank); 7.25 pt while Winning came second, not last, its lines breaking a card sooner
    ("ares_hill_clans", "poker", (4, 7.5)),
    ("heroic_gods_achaeans", "tarot", (2, 10.5)),  # (a third card would leave them a sprawl)
])
def test_the_rolls_keep_to_their_cards_beside_a_blank_place(tmp_path, sample, size, kept):
    """The quick rules keep to their cards beside a blank place of the last sheet at poker, and
    where one card more would leave their cards less than four fifths full (three half-empty
    reference cards read as a sprawl)."""
    roster = load_roster(SAMPLES / f"{sample}.toml").roster
    report = cost_roster(load(roster.ruleset), roster)
    result = export_cards(report, validate_report(report), tmp_path / "cards.pdf", CardOptions(rules_page=False, size=size, paper="a4"))
    assert result.cards % result.per_page and (result.reference_cards, result.rules_size) == kept


def test_a_rule_for_a_kind_of_figure_prints_only_where_the_army_fields_one(tmp_path):
    text = (SAMPLES / "fast_universal_iron_vanguard.toml").read_text()
    assert 'name = "Captain Aldric"' in text
    tank = text + '''
[[units]]
name = "Steam Wagon"
type = "Vehicle"
count = 1
stats = { dice = 6, die = 6, move = 8, fight = 0, shoot = 2, defense = 12 }
'''
    out = {}
    for name, body in (("plain", text), ("tank", tank)):
        path = tmp_path / f"{name}.toml"
        path.write_text(body)
        roster = load_roster(path).roster
        report = cost_roster(load("fast_universal"), roster)
        pdf = tmp_path / f"{name}.pdf"
        export_cards(report, validate_report(report), pdf, CardOptions(rules_page=False, paper="a4"))
        out[name] = "\n".join(read_back(pdf)[0])
    assert "Hero hit:" in out["plain"] and "Vehicle hit:" not in out["plain"]
    assert "Vehicle hit:" in out["tank"] and "10 destroyed" in out["tank"]


def test_for_the_masses_ranged_rule_prints_where_a_unit_shoots(sample_cards, tmp_path):
    """Neither sample army has ranged dice: its reference card leaves out the ranged attack."""
    orcs = reference_text(sample_cards(SAMPLES / "for_the_masses_orc_warband.toml", CardOptions(rules_page=False, paper="a4")))
    assert "Ranged:" not in orcs and "Doubling up:" in orcs
    text = (SAMPLES / "for_the_masses_orc_warband.toml").read_text()
    path = tmp_path / "archers.toml"
    path.write_text(text + '\n[[units]]\nname = "Orc Archers"\nfigure = "Orc Warriors"\ncount = 3\n'
                    'stats = { rng = "1d6", rng_range = 8 }\n')
    roster = load_roster(path).roster
    report = cost_roster(load("for_the_masses"), roster)
    export_cards(report, validate_report(report), tmp_path / "a.pdf", CardOptions(rules_page=False, paper="a4"))
    assert "Ranged:" in "\n".join(read_back(tmp_path / "a.pdf")[0])


def test_the_scale_rule_prints_where_a_figure_has_a_scale(sample_cards):
    """ARES's Scale modifier only in an army with a figure of another Scale (hill clans' giant)."""
    giant = reference_text(sample_cards(SAMPLES / "ares_hill_clans.toml", CardOptions(rules_page=False, size="a6", paper="a4")))
    household = reference_text(sample_cards(SAMPLES / "ares_crown_household.toml", CardOptions(rules_page=False, size="a6", paper="a4")))
    assert "Scale, per die:" in giant and "Scale, per die:" not in household


def test_the_heroic_rolls_print_at_the_body_on_the_chart_s_sheet(sample_cards):
    """The army card and seven figures fill most of a poker sheet; the quick rules (with a charged
    spear or bow's shot first, and what a challenge stops) take two cards grown past a poker
    card's 7 pt for them, to the body's size less a quarter point, rather than one at the
    smallest, on the second sheet the blank combat chart takes anyway (see test_cards_chart)."""
    cards = sample_cards(SAMPLES / "heroic_gods_achaeans.toml", CardOptions(rules_page=False, size="poker", paper="a4"))
    assert cards.result.reference_cards == 2 and cards.result.card_pages == 2
    assert cards.result.rules_size == 8.25 and cards.result.body_size == 8.5


def test_no_rules_on_the_command_line(tmp_path):
    out = tmp_path / "cards.pdf"
    result = run_cli("cards", SAMPLES / "heroic_gods_achaeans.toml", "-o", out, "--no-rules", "--paper", "a4")
    assert result.code == 0, result.err
    pages, _ = read_back(out)
    assert "Quick rules" not in "\n".join(pages) and "Reference" not in "\n".join(pages)


@pytest.mark.parametrize("old, new, says", [
    ('when = "type == \'hero\'" },', 'when = "type == " },', "card.rules[8].when"),
    ('when = "type == \'hero\'" },', 'when = "rank == 2" },', "unknown name 'rank'"),
    ('{ name = "Turn", text = "', '{ name = "Turn", text = "' + "x" * 400, "card.rules[0].text: too long (at most 400 characters)"),
])
def test_check_ruleset_names_a_bad_rule(tmp_path, old, new, says):
    result = run_cli("check-ruleset", ruleset_with(tmp_path, "fast_universal", old, new))
    assert result.code in (1, 2) and says in result.err, result.err
    assert "Traceback" not in result.err


def test_a_rules_condition_counts_toward_the_formula_budget():
    rs = load("fast_universal")
    without = rs.data.model_copy(update={"card": rs.data.card.model_copy(update={"rules": []})})
    assert formula_count(rs.data) - formula_count(without) == sum(1 for r in rs.data.card.rules if r.when)
    assert re.search(r"type == 'vehicle'", "\n".join(r.when or "" for r in rs.data.card.rules))


def test_the_quick_rules_spell_out_the_stat_bands_short_labels(sample_cards):
    """A band that prints its columns short ("AD M F S D", "Mv Att Rng") is spelt out first in the
    quick rules, from the columns' declared names; ARES's bands print their names whole: no key."""
    def rules(sample, size="poker"):
        cards = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(rules_page=False, size=size, paper="a4"))
        return " ".join(reference_text(cards).split()), cards
    fu, _ = rules("fast_universal_ashen_host")
    assert "Stats: AD Action dice, M Move, F Fight, S Shoot, D Defense" in fu, fu
    assert fu.index("Stats:") < fu.index("Turn:")
    ftm, _ = rules("for_the_masses_orc_warband")
    assert "Stats: Mv Move, Att Melee dice, Rng Ranged die/range, Def Defense, Wnd Wounds per element" in ftm
    heroic, _ = rules("heroic_gods_achaeans")
    assert "Stats: A Attack, D Defense, M Move" in heroic and "Bow Bow" not in heroic
    ares, _ = rules("ares_crown_household")
    assert "Stats:" not in ares and "Melee:" in ares
    # a large card whose bands head their boxes with the names: no key
    roomy, cards = rules("fast_universal_ashen_host", "a6")
    assert "Action dice" in cards.pages[cards.result.summary_pages]  # (the first sheet's unit cards)
    assert "Stats:" not in roomy


def test_a_heroic_badge_says_its_points_are_victory_points(sample_cards):
    """heroic_gods' badge (card.badge_label): "5 VP", the word smaller than the number (a bare
    5 read as a cost); the other games' badges stay bare."""
    from pypdf import PdfReader

    cards = sample_cards(SAMPLES / "heroic_gods_achaeans.toml", CardOptions(rules_page=False, size="poker", paper="a4"))
    text = "\n".join(cards.pages)
    assert re.search(r"Achilles\s+5\s*VP", text) and re.search(r"Achaean Raiders\s+23\s*VP", text), text[:300]
    sizes: dict[str, set[float]] = {}
    page = PdfReader(str(cards.path)).pages[cards.result.summary_pages]

    def visit(text, cm, tm, font, size):
        # (the title and the badge's number run together; its word comes on its own)
        key = "VP" if text.strip() == "VP" else "title" if text.startswith("Achaean Raiders 23") else None
        if key:
            sizes.setdefault(key, set()).add(round(size * tm[0] if tm[0] else size, 2))
    page.extract_text(visitor_text=visit)
    assert max(sizes["VP"]) < min(sizes["title"]), sizes
    fu = "\n".join(sample_cards(SAMPLES / "fast_universal_ashen_host.toml", CardOptions(rules_page=False, size="poker", paper="a4")).pages)
    assert re.search(r"Skirmishers\s+258\s*\n", fu) and "VP" not in fu


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_the_crossbows_two_ranges_print_where_an_army_has_one(sample_cards, size):
    """The crossbow's maximum range, 72" in the book's table and 4 feet in its prose, is on the
    reference card of an army with a crossbow (Kingsbridge's Wall crossbowmen), not of one without
    (Blackwater's muskets and pistols), at no cost in cards or body."""
    with_bow = sample_cards(SAMPLES / "lego_combat_kingsbridge_garrison.toml", CardOptions(rules_page=False, size=size, paper="a4"))
    without = sample_cards(SAMPLES / "lego_combat_blackwater_corsairs.toml", CardOptions(rules_page=False, size=size, paper="a4"))
    assert "Crossbow: the cards print the table's 72\" at most; the text's 4 feet are 48\"" in re.sub(r"\s+", " ",
                                                                                   reference_text(with_bow))
    assert "Crossbow:" not in reference_text(without)
    assert with_bow.result.reference_cards == {"poker": 2, "tarot": 2, "a6": 1}[size]  # (tarot: a blank place taken)
