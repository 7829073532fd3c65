"""For the Masses cards: the rules a player looks up at the table, under the record line (the
ruleset's reminder): a personality's command dice, a unit's morale test; and the rising cost of
its actions, a box for each with what it costs (a tracker)."""

from __future__ import annotations

import re

import pytest
from cardexports import without_flag
from conftest import RULESETS, SAMPLES
from pypdf import PdfReader

from rosterkit.cards.pdf import CardOptions, export_cards
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.validation import validate_report
from rosterkit.files.rosters import load_roster, loads_roster
from rosterkit.files.rulesets import compile_ruleset_text

SIZES = ["poker", "tarot", "a6"]
ACTIONS = "Actions: 1 CP 2 CP 3 CP 4 CP"  # (the tracker: a box to tick for each action, and its cost)
# (a line of the card may end between two facts, where the " · " between them is left out)
SEP = r"(?: ·)? "


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _split(text: str) -> dict[str, str]:
    """Each card's text by the card's name (the band's first words, up to its badge)."""
    # (the footer's "NOT VALID" of an invalid army's card comes out after the previous card's number)
    cards = [without_flag(_flat(c).strip()) for c in re.split(r"card \d+ of \d+", text)[:-1]]
    return {re.match(r"(.+?) \d+ ", c).group(1): c for c in cards if not c.startswith("Reference ")}


def _morale(mor: int) -> re.Pattern[str]:
    return re.compile(rf"Losing elements: morale {mor}\+ on d10, -1 per element past the first; failed: lose 1 more")


def _melee(dice: str) -> re.Pattern[str]:
    return re.compile(rf"Melee: {dice} per element with a foe in front, flank \+1 die, rear \+2; foe strikes back")


def _command(dice: str) -> re.Pattern[str]:
    return re.compile(rf"Rolls {dice} CP to start each turn{SEP}Each action is paid by one personality")


SAMPLE_UNITS = {
    # the sample game's record cards: Orc Warriors and Men at Arms Mor 7+; the Orc Chief rolls 2d6
    # for command points, the Alvernan commander 1d8 (a single die written "d8", as its CP column)
    "for_the_masses_orc_warband": {"Orc Chief": "2d6", "Orc Warriors (left)": 7, "Orc Warriors (centre)": 7,
                                   "Orc Warriors (right)": 7},
    "for_the_masses_alvernan_host": {"Order Champion": "d8", "Men at Arms (left)": 7, "Men at Arms (centre)": 7,
                                     "Men at Arms (right)": 7},
    "for_the_masses_INVALID_thirteen_elements": {"Orc Chief": "2d6", "Orc Horde": 7},
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", sorted(SAMPLE_UNITS))
def test_each_card_says_its_morale_test_or_command_dice_and_the_cost_of_actions(sample_cards, sample, size):
    """Every unit card has a box for each action the unit takes in a turn, saying what it costs; a
    unit with a Morale says its test with its own Morale (the book's Morale Test: d10 at least the
    Morale, -1 for each element lost beyond the first, one more element lost on a failure); a
    personality says the command dice it rolls (the 13 elements under their "Not valid" band too,
    but at poker);
    every card says how its melee dice are rolled: its Att for each element with a foe in front (in its Zone of Control), the flank
    and rear dice, the counter-attack after (Melee Attack, Counter Attacks)."""
    cards = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(rules=False, size=size, paper="a4", summary=False))
    by_name = _split("\n".join(cards.pages))
    assert set(by_name) == set(SAMPLE_UNITS[sample])
    for name, value in SAMPLE_UNITS[sample].items():
        card = by_name[name]
        assert ACTIONS in card, card
        if name == "Orc Horde" and size == "poker":  # (no room for its facts: see the next test)
            assert "Melee:" not in card and "Losing elements" not in card, card
            continue
        # the melee dice its record line gives under Att, for each element with a foe in front
        att = re.search(r"Mv Att Rng Def Wnd Mor ME CP \d+ (\S+) ", card).group(1)
        assert _melee(att).search(card) and "Shoot:" not in card, card
        if isinstance(value, int):
            assert _morale(value).search(card), card
            assert "Rolls" not in card, card
        else:
            assert _command(value).search(card), card
            assert "Losing elements" not in card, card  # (a personality prints no Morale)


def _without_reminder() -> str:
    text = (RULESETS / "for_the_masses.toml").read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("reminder = "))
    return text.replace(line + "\n", "")


def _export(tmp_path, roster_path, rs_text: str | None, name: str):
    roster = load_roster(roster_path).roster
    rs = compile_ruleset_text(rs_text or (RULESETS / "for_the_masses.toml").read_text(encoding="utf-8"),
                              "for_the_masses.toml")
    report = cost_roster(rs, roster)
    out = tmp_path / f"{name}.pdf"
    result = export_cards(report, validate_report(report), out, CardOptions(rules=False, size="poker", paper="a4", summary=False))
    text = "\n".join(p.extract_text() for p in PdfReader(str(out)).pages)
    return _split(text), result.body_size, result.cards


@pytest.mark.parametrize("sample", sorted(SAMPLE_UNITS))
def test_the_facts_cost_no_card_and_no_type_at_poker(tmp_path, sample):
    """At poker the facts print on every unit card of the sample armies at no cost in cards or
    body size against the same cards without them. The Orc Horde, 13 elements of wound boxes and
    their actions' boxes under a two-line "Not valid" band, holds its export at 8.25 pt without
    them, and would cost more than the point of body a reminder may: its card goes without them,
    its general's card, with room for them, keeps them."""
    path = SAMPLES / f"{sample}.toml"
    cards, body, count = _export(tmp_path, path, None, "with")
    _, bare_body, bare_count = _export(tmp_path, path, _without_reminder(), "without")
    assert count == bare_count == len(SAMPLE_UNITS[sample])
    if "INVALID" in sample:
        assert body == bare_body == 8.25, (body, bare_body)
        assert "Melee:" not in cards["Orc Horde"] and "Losing elements" not in cards["Orc Horde"], cards
        cards.pop("Orc Horde")
    else:
        assert body == bare_body == 9.0
    for card in cards.values():
        assert "Losing elements" in card or _command("(?:2d6|d8)").search(card), card


ROSTER = """
format = 1
name = "Border patrol"
ruleset = "for_the_masses"

[[units]]
name = "Warlord"
type = "personality"
count = 1
stats = { mv = 6, att = "3d8", defense = 3, wnd = 6, cp = "3d6", element_cost = 150 }

[[units]]
name = "Outriders"
figure = "Light cavalry with bows and hand weapons"
count = 7
stats = { element_cost = 40 }

[[units]]
name = "Great wyrm"
type = "monster"
count = 1
stats = { mv = 4, att = "4d12", defense = 4, wnd = 20, size = 3, element_cost = 400 }
"""


@pytest.mark.parametrize("size, outriders", [("tarot", True), ("a6", True)])
def test_the_values_are_the_units_own(tmp_path, size, outriders):
    """The dice and the Morale come from each unit's stats: a personality with 3d6 command dice
    rolls 3d6 and fights with 3d8, light cavalry of Mor 4+ test at 4 and shoot a d8 an element, and a monster entered without a Morale has its
    actions' boxes and no morale test (on the large cards, which have the room for them all; a
    card without it leaves its facts off rather than cost the export its body size, see
    reminders_where_room)."""
    report = cost_roster(compile_ruleset_text((RULESETS / "for_the_masses.toml").read_text(encoding="utf-8"),
                                              "for_the_masses.toml"), loads_roster(ROSTER, "patrol.toml"))
    out = tmp_path / "patrol.pdf"
    export_cards(report, validate_report(report), out, CardOptions(rules=False, size=size, paper="a4", summary=False))
    cards = _split("\n".join(p.extract_text() for p in PdfReader(str(out)).pages))
    assert _command("3d6").search(cards["Warlord"]), cards["Warlord"]
    assert _melee("3d8").search(cards["Warlord"]) and _melee("4d12").search(cards["Great wyrm"]), cards
    # the light cavalry's bows: a d8 each element in range, two hits to a wound (Ranged Attack)
    assert "Shoot: d8 for each element in range; a wound per 2 hits" in cards["Outriders"], cards["Outriders"]
    assert ACTIONS in cards["Great wyrm"] and "morale" not in cards["Great wyrm"], cards["Great wyrm"]
    if outriders:
        assert _morale(4).search(cards["Outriders"]), cards["Outriders"]
        assert all(ACTIONS in card for card in cards.values()), cards
    else:
        assert "Losing elements" not in cards["Outriders"] and ACTIONS not in cards["Outriders"], cards["Outriders"]


def test_artillery_takes_a_wound_for_every_hit():
    """Artillery does not halve its hits (Artillery): its card's shooting fact says a wound a hit,
    where other shooters take two hits to a wound."""
    from rosterkit.engine.display import reminder_line

    rs = compile_ruleset_text((RULESETS / "for_the_masses.toml").read_text(encoding="utf-8"), "for_the_masses.toml")
    roster = ROSTER.split("[[units]]")[0] + """
[[units]]
name = "Stone thrower"
type = "artillery"
count = 2
stats = { mv = 2, rng = "2d10", rng_range = 20, defense = 1, wnd = 3, mor = 5, element_cost = 60 }
"""
    report = cost_roster(rs, loads_roster(roster, "guns.toml"))
    unit = report.units[0]
    line = reminder_line(rs, unit, unit.members[0], unit.members)
    assert "Shoot: 2d10 for each element in range; a wound a hit" in line, line
    assert "Melee:" not in line  # (no melee dice)
