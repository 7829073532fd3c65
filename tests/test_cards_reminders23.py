"""The rules a player looks up at the table, on the card's reminder line as the books state them:
heroic_gods' rally roll says a wounded figure's number is modified (the article gives no number),
fast_universal's morale check, LEGO's attack and damage rolls; and a thrown knife's melee reach.
Each where it costs the export no card and no body size (read back from the PDF)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import RULESETS, SAMPLES
from pypdf import PdfReader

from rosterkit.cards.pdf import CardOptions, export_cards
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.validation import validate_report
from rosterkit.files.rosters import load_roster, loads_roster
from rosterkit.files.rulesets import compile_ruleset_text

SIZES = ["poker", "tarot"]


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _split(text: str) -> dict[str, str]:
    """Each card's text, whitespace made single spaces, by the card's name (up to its badge)."""
    cards = [_flat(c).strip().removeprefix("NOT VALID ") for c in re.split(r"card \d+ of \d+", text)[:-1]]
    return {re.match(r"(.+?) \d+ ", c).group(1): c for c in cards if not c.startswith("Reference ")}


def _options(size: str) -> CardOptions:
    return CardOptions(rules=False, size=size, paper="a4", summary=False)


def _ruleset_text(ruleset: str, old: str | None = None, new: str = "") -> str:
    """The ruleset's text, its ``old`` text (a regular expression over whole lines) replaced."""
    text = (RULESETS / f"{ruleset}.toml").read_text(encoding="utf-8")
    if old is None:
        return text
    changed = re.sub(old, new, text, count=1, flags=re.MULTILINE)
    assert changed != text, old
    return changed


def _export(tmp_path: Path, roster, rs_text: str, size: str, name: str):
    """The roster's cards with the ruleset ``rs_text``: (cards by name, body size, number of cards)."""
    report = cost_roster(compile_ruleset_text(rs_text, "ruleset.toml"), roster)
    out = tmp_path / f"{name}-{size}.pdf"
    result = export_cards(report, validate_report(report), out, _options(size))
    return _split("\n".join(p.extract_text() for p in PdfReader(str(out)).pages)), result.body_size, result.cards


def _sample(name: str):
    return load_roster(SAMPLES / f"{name}.toml").roster


# heroic_gods: "To succeed you must roll equal or less than the figure's defense factor on 1D10.
# Wounded figures have this number modified." (how is not said: the halved Defense, as a wound
# halves the factors, said to be a reading)
ACHAEAN_DEFENSE = {"Achilles": 7, "Ajax": 8, "Teucer": 5, "Myrmidon spearman": 4, "Salaminian spearman": 4,
                   "Locrian archer": 3}


@pytest.mark.parametrize("size", SIZES)
def test_heroic_gods_rally_says_a_wounded_figures_number_is_modified(sample_cards, tmp_path, size):
    """Every figure card's rally facts read "rally 1D10 ≤ <its Defense> · if wounded ≤ <half of it,
    up> (a reading)", each whole on its line: the article states no number for a wounded figure; the export keeps the body
    size and the cards it had with the line as it was ("rally 1D10 ≤ 7 (unwounded)")."""
    cards = sample_cards(SAMPLES / "heroic_gods_achaeans.toml", _options(size))
    by_name = _split("\n".join(cards.pages))
    for name, defense in ACHAEAN_DEFENSE.items():
        assert re.search(rf"rally 1D10 ≤ {defense} (· )?if wounded ≤ {-(-defense // 2)} \(a reading\)", by_name[name]), \
            by_name[name]
        assert "unwounded)" not in by_name[name], by_name[name]
    lines = [line.strip() for page in cards.pages for line in page.splitlines() if "rally 1D10" in line]
    assert len(lines) == 7, lines
    assert all(re.search(r"rally 1D10 ≤ \d+( · if wounded ≤ \d+ \(a reading\))?( · VP to enemy: \d+ slain, \d+ wounded)?$", line)
               for line in lines), lines
    was = _ruleset_text("heroic_gods", r"^reminder = .*$", "reminder = \"{when(bow, 'Bow 24 · ', '')}"
                        "{when(spear, 'Spear 12 · ', '')}rally 1D10 ≤ {defense} (unwounded) · VP to enemy: "
                        "{per_figure} slain, {wounded_value} wounded\"")
    _, body, count = _export(tmp_path, _sample("heroic_gods_achaeans"), was, size, "was")
    assert (cards.result.body_size, cards.result.cards) == (body, count)


# fast_universal: a unit other than a vehicle or a hero checks morale when it loses half its
# current miniatures in a combat action: dice for the miniatures left, passed on more evens than
# odds (a failure is the Failed morale box)
MORALE = ("Morale check: lost half in a combat action", "Roll those left: pass if evens beat odds")
NO_REMINDER = (r"^reminder = .*$", "")


@pytest.mark.parametrize("size", SIZES)
def test_fast_universal_units_that_check_morale_say_the_check(sample_cards, tmp_path, size):
    """Iron Vanguard: the Spearmen and the Archers (Basic units) say when they check morale and how
    they roll, above their Failed morale box; Captain Aldric, a hero,
    checks no morale and says nothing of it. The cards and the body are those without the line."""
    cards = sample_cards(SAMPLES / "fast_universal_iron_vanguard.toml", _options(size))
    by_name = _split("\n".join(cards.pages))
    for name in ("Spearmen", "Archers"):
        card = by_name[name]
        assert all(fact in card for fact in MORALE), card
        assert card.index(MORALE[0]) < card.index("Failed morale"), card
    assert "Morale check" not in by_name["Captain Aldric"] and "evens" not in by_name["Captain Aldric"]
    _, body, count = _export(tmp_path, _sample("fast_universal_iron_vanguard"),
                             _ruleset_text("fast_universal", *NO_REMINDER), size, "bare")
    assert (cards.result.body_size, cards.result.cards) == (body, count)


FEARLESS = """
format = 1
name = "Shield wall"
ruleset = "fast_universal"

[[units]]
name = "Oathsworn"
type = "Basic"
count = 6
weapons = ["Spear"]
abilities = ["Fearless"]
stats = { dice = 1, die = 6, move = 6, fight = 0, shoot = 0, defense = 8 }

[[units]]
name = "Levy"
type = "Basic"
count = 6
weapons = ["Spear"]
stats = { dice = 1, die = 6, move = 6, fight = 0, shoot = 0, defense = 8 }
"""


def test_a_fearless_unit_rolls_no_morale(tmp_path):
    """Fearless passes every morale check without rolling: its card gives no roll, the unit beside
    it without Fearless does."""
    cards, _, _ = _export(tmp_path, loads_roster(FEARLESS, "wall.toml"),
                          _ruleset_text("fast_universal"), "poker", "fearless")
    assert all(fact in cards["Levy"] for fact in MORALE), cards["Levy"]
    assert "evens beat odds" not in cards["Oathsworn"] and "Morale check" not in cards["Oathsworn"]


# LEGO: 1D hits on 4-6, the attacker's combat added and the defender's taken off, a 6 always hits
# and a 1 always misses; a hit kills where the damage roll beats the target's resistance
HIT = "Hit: 1D + Att - foe's Def: 4+ hits (6 always, 1 never)"
KILL = "Kill: 1D beats foe's Res"


@pytest.mark.parametrize("size", SIZES)
def test_lego_cards_put_each_soldiers_rolls_together(sample_cards, size):
    """Blackwater Corsairs: the reference card gives the attack and damage rolls once, as the book
    does; each unit card gives its soldiers' own, their bonuses put in: Captain Redbeard's Att +2
    ("Hit: 1D+2"), the Boarders' Dmg +1 ("Kill: 1D+1"), the Lookout's quiver's +1 said to be for
    shooting ("Hit: 1D+1 shooting": it raises his Att for the bow alone, as the Att box says); the
    rest roll the bare die."""
    cards = sample_cards(SAMPLES / "lego_combat_blackwater_corsairs.toml",
                         CardOptions(rules=True, size=size, paper="a4", summary=False))
    text = "\n".join(cards.pages)
    flat = " ".join(text.split())
    assert flat.count(HIT) == 1 and flat.count(KILL + " ") == 5, flat
    by_name = _split(text)
    assert set(by_name) == {"Deckhands", "Musketeers", "Lookout", "Boarders", "Bosun Grell", "Captain Redbeard"}
    hit = {"Captain Redbeard": "1D+2", "Lookout": "1D+1 shooting"}
    kill = {"Boarders": "1D+1"}
    for name, card in by_name.items():
        # (the separator goes where the phrases take a line each)
        assert re.search(fr"Hit: {re.escape(hit.get(name, '1D'))} - foe's Def: 4\+( ·)? "
                         fr"Kill: {re.escape(kill.get(name, '1D'))} beats foe's Res", card), card


@pytest.mark.parametrize("size", SIZES)
def test_lego_a_soldier_with_a_club_alone_stuns_rather_than_kills(sample_cards, size):
    """Kingsbridge: the Militia carry a club alone, which "will not kill" (Stunning: blunt weapons
    stun): their damage roll reads "Stun: 1D beats foe's Res"; the spearmen, crossbowmen and the
    two officers kill."""
    cards = sample_cards(SAMPLES / "lego_combat_kingsbridge_garrison.toml", _options(size))
    by_name = _split("\n".join(cards.pages))
    stuns = {name for name, card in by_name.items() if re.search(r"(^|· |\s)Stun: 1D beats foe's Res", card)}
    kills = {name for name, card in by_name.items() if re.search(r"Kill: 1D(\+\d+)? beats foe's Res", card)}
    assert stuns == {"Militia"}, by_name
    assert kills == set(by_name) - {"Militia"}, by_name


@pytest.mark.parametrize("size", SIZES)
def test_a_thrown_knife_says_its_melee_reach(sample_cards, size):
    """The range bands of a knife are its throws: the note under it says it strikes in melee at
    1", as the spear's says 2" (normal melee weapons reach 1", spears 2"), before its own note."""
    cards = sample_cards(SAMPLES / "lego_combat_blackwater_corsairs.toml", _options(size))
    by_name = _split("\n".join(cards.pages))
    for name in ("Musketeers", "Bosun Grell", "Captain Redbeard"):
        assert 'Knife 0-6" 7-12" 13-18" round Notes: melee 1"; small, counts as unarmed' in by_name[name], by_name[name]
    spear = sample_cards(SAMPLES / "lego_combat_kingsbridge_garrison.toml", _options(size))
    assert 'Spear 0-6" 7-12" 13-18" round Notes: melee 2"' in _split("\n".join(spear.pages))["Gate spearmen"]


# ARES, Chapter Two: "A figure armed with a shield will have a plus sign after its armor die"; Chapter
# Four: the attacker's roll is -1 per die when the defender has a shield and the attack comes from
# in front of it
SHIELD = "Armor +: shield, frontal attacks -1 per die"


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
@pytest.mark.parametrize("sample", ["ares_crown_household", "ares_MISMATCH_royal_host", "ares_hill_clans"])
def test_ares_says_what_the_armor_plus_is(sample_cards, sample, size):
    """A card whose Armor reads "D10+" (Household Knights, King's Companions, Thane's Hearthguard)
    says on its reminder line what the "+" is and does, where it prints its reminder (the line of a
    lost figure's cost, each of these units having several figures); a card without a shield does
    not."""
    cards = sample_cards(SAMPLES / f"{sample}.toml", _options(size))
    units = [_flat(c) for c in re.split(r"card \d+ of \d+", "\n".join(cards.pages))[:-1]
             if not _flat(c).strip().startswith("Reference")]
    shielded = [c for c in units if re.search(r"\bD\d+\+(?!D)", c)]  # (not an attack's "D10+D8")
    assert shielded and len(shielded) < len(units), units
    for c in units:
        assert (SHIELD in c) == (c in shielded and "A figure lost" in c), c


def _hill_clans(tmp_path, options: CardOptions) -> tuple[object, list[str]]:
    from rosterkit.files.rulesets import Registry

    roster = load_roster(SAMPLES / "ares_hill_clans.toml").roster
    report = cost_roster(Registry().get(roster.ruleset), roster)
    out = tmp_path / "cards.pdf"
    result = export_cards(report, validate_report(report), out, options)
    text = "\n".join(page.extract_text() for page in PdfReader(out).pages)
    return result, [_flat(c).strip() for c in re.split(r"card \d+ of \d+", text)[:-1]]


@pytest.mark.parametrize("rules", [False, True])
def test_every_card_of_a_unit_of_several_keeps_its_reminder_at_a_point_less(tmp_path, rules):
    """ARES hill clans at poker: the losses line on each card of a unit of several figures (the
    Thane's Hearthguard's two cards and the Crossbows') takes the body a point down, 8 to 7 pt, and
    a card fewer (its reference card's texts print smaller: one card, not two; with the quick rules
    four reference cards: eight cards, one sheet)."""
    result, cards = _hill_clans(tmp_path, CardOptions(rules=rules, size="poker", paper="a4", summary=False))
    thane = [c for c in cards if c.startswith("Thane's Hearthguard")]
    crossbows = [c for c in cards if c.startswith("Crossbows")]
    assert len(thane) == 2 and len(crossbows) == 1, cards
    assert 'A figure lost: Unit Morale -4, Command -1"' in thane[0], thane[0]
    assert 'A figure lost: Unit Morale -2, Command -1"' in thane[1], thane[1]
    assert 'A figure lost: Unit Morale -2, Command -1"' in crossbows[0], crossbows[0]
    assert (result.body_size, result.cards, result.reference_cards) == ((7.0, 5, 1) if not rules else (7.0, 8, 4))


def test_where_the_reminders_cost_more_the_cards_with_room_keep_theirs(tmp_path, monkeypatch):
    """Where the lines would cost more than the body may drop for them (here any drop at all), the
    cards full without them (Kingsbridge's Gate spearmen and Wall crossbowmen) go without, while
    the cards with room (the Militia, Sergeant Edda, Sir Aldric) keep theirs, at the body and the
    number of cards of an export without any (a half-empty card without the rules it is played by
    read as a fault): five unit cards at 8 pt."""
    from rosterkit.cards import plan
    from rosterkit.files.rulesets import Registry

    monkeypatch.setattr(plan, "REMINDER_DROP", 0.0)
    roster = load_roster(SAMPLES / "lego_combat_kingsbridge_garrison.toml").roster
    report = cost_roster(Registry().get(roster.ruleset), roster)
    out = tmp_path / "cards.pdf"
    result = export_cards(report, validate_report(report), out, _options("poker"))
    text = "\n".join(page.extract_text() for page in PdfReader(out).pages)
    cards = _split(text)
    kept = {name for name, card in cards.items() if "Hit: 1D" in card}
    assert kept == {"Militia", "Sergeant Edda", "Sir Aldric"}, cards
    assert (result.body_size, result.cards, result.reference_cards) == (8.0, 5, 0)


@pytest.mark.parametrize("size", ["tarot", "a6"])
def test_a_leaders_unit_says_what_losing_the_last_leader_costs(sample_cards, size):
    """ARES hill clans: a unit containing a Leader has 1" a figure more command distance (18" for
    the Thane's six), so the cards of the Thane's unit say that a unit left without a Leader loses
    it: the warriors' card on its reminder line, beside what a lost figure costs, the Thane's in
    his Leader rule (once: not on a line of its own as well); the Crossbows' (no Leader) do not."""
    shared = sample_cards(SAMPLES / "ares_hill_clans.toml", _options(size))
    cards = [_flat(c).strip() for c in re.split(r"card \d+ of \d+", "\n".join(shared.pages))[:-1]]
    thane = [c for c in cards if c.startswith("Thane's Hearthguard")]
    assert thane and all('18"' in c for c in thane), cards
    line = 'No Leader left: the Leader\'s +1" a figure goes'
    rule = 'its unit\'s command distance +1" per figure, once, lost with its last Leader'
    said = [c for c in cards if line in c or rule in c]
    assert said == thane, cards
    leader = [c for c in thane if "Dwarf Thane" in c]
    assert leader and all(rule in c and line not in c for c in leader), leader
