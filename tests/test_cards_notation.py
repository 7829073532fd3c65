"""The books' notation on the cards: For the Masses' dashes, Special line and target numbers;
LEGO Combat's zeros and its attack and defense modifiers said once."""

from __future__ import annotations

import re

import pytest
from cardexports import without_flag
from conftest import SAMPLES, ftm_targets, run_cli
from pypdf import PdfReader
from test_notation import REGROUP as LIGHT_CAVALRY

from rosterkit.cards.pdf import CardOptions

SIZES = ["poker", "tarot", "a6"]


def _unit_cards(shared) -> list[str]:
    """The text of each unit card (the army card and reference cards left out), one string a card."""
    text = "\n".join(shared.pages)
    cards = [re.sub(r"\s+", " ", c).strip() for c in re.split(r"card \d+ of \d+", text)[:-1]]
    names = [u.name for u in shared.report.units]
    # (an invalid army's footer flag, "NOT VALID: 258/250", reads as the next card's first words)
    cards = [without_flag(c) for c in cards]
    return [c for c in cards if any(c.startswith(n) for n in names)]


def _runs(shared) -> list[tuple[str, str]]:
    """Every piece of text on the pages with its font's name."""
    out = []
    for page in PdfReader(str(shared.path)).pages:
        def visit(text, cm, tm, font, size):
            if text.strip():
                out.append((text.strip(), str(font.get("/BaseFont", "")) if font else ""))
        page.extract_text(visitor_text=visit)
    return out


# ---------------------------------------------------------------- For the Masses


@pytest.mark.parametrize("size", SIZES)
def test_for_the_masses_cards_print_the_books_dashes(sample_cards, size):
    """The book's stat lines print "-/-" for no ranged attack and "-" for no Mor, ME or CP
    ("4 2d6 -/- 2 3 7+ - -"): every unit card does too, in the light face, not an empty box."""
    shared = sample_cards(SAMPLES / "for_the_masses_alvernan_host.toml",
                          CardOptions(size=size, paper="a4", summary=False))
    cards = _unit_cards(shared)
    assert len(cards) == 4
    for c in cards:
        band = c.split("Hits v Def")[0]
        assert "-/-" in band, c
    men = [c for c in cards if c.startswith("Men at Arms")]
    champion = next(c for c in cards if c.startswith("Order Champion"))
    # Men at Arms: no ranged attack, ME or CP (three marks); the Order Champion: no ranged
    # attack, Mor or ME (three marks), and its CP d8
    for c in men + [champion]:
        assert len(re.findall(r"(?<![\w/])-(?:/-)?(?![\w/])", c.split("Hits v Def")[0])) == 3, c
    assert "d8" in champion.split("Hits v Def")[0]
    dashes = [font for text, font in _runs(shared) if re.fullmatch(r"-(/-)?", text)]
    assert dashes and all("Bold" not in f for f in dashes), dashes


@pytest.mark.parametrize("size", SIZES)
def test_for_the_masses_target_numbers_are_worked_out_by_defense(sample_cards, size):
    """The book: the target number is half the attacking die plus the target unit's Defense. The
    note works it out against Defense 0 to 3, in the order it names them ("Hits v Def 0/1/2/3: Att
    4+/5+/6+/7+" for a d8), so that no player adds at the table; never "Att 4+Def", which read as a
    roll of 4+ and the unit's own Def."""
    shared = sample_cards(SAMPLES / "for_the_masses_orc_warband.toml",
                          CardOptions(size=size, paper="a4", summary=False))
    cards = _unit_cards(shared)
    assert cards
    for c in cards:
        assert "+Def" not in c, c
        die = int(re.search(r"\b\d*d(\d+)\b", c).group(1))  # the band's first dice: Att
        assert f"Hits v Def 0/1/2/3: Att {ftm_targets(die)}" in re.sub(r"\s+", " ", c), c


# ---------------------------------------------------------------- LEGO Combat

LEGO = ["lego_combat_blackwater_corsairs", "lego_combat_kingsbridge_garrison", "lego_combat_INVALID_over_points"]


def _band(card: str) -> tuple[list[str], str]:
    """A LEGO card's stat band: its labels, and the values set under them (the text up to the
    reminder line's attack roll, or to the weapons)."""
    head = card.split(" Weapon ")[0].split(" Hit: ")[0]
    m = re.search(r"((?:\b(?:Cbt|Hit|Att|Def|Dmg|Res|Move|Fly|Atk|Attacks)\b ?)+)(.*)", head)
    return m.group(1).split(), m.group(2)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", LEGO)
def test_lego_band_says_combat_once_as_attack_and_defense(sample_cards, sample, size):
    """The rules split Combat into an attack and a defense modifier: the band gives those two
    totals (Combat inside them) under the rules' words, Att and Def, with no Cbt column a player
    would add to them again and no "Hit"; Captain Redbeard (a hero, +2 Combat) reads +2 twice."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    cards = _unit_cards(shared)
    assert len(cards) == len(shared.report.units)
    for c in cards:
        labels, _ = _band(c)
        assert labels[:2] == ["Att", "Def"] and not {"Cbt", "Hit", "Atk"} & set(labels), c
    if sample == "lego_combat_blackwater_corsairs":
        _, values = _band(next(c for c in cards if c.startswith("Captain Redbeard")))
        assert values.split()[:3] == ["+2", "+2", "0"], values


@pytest.mark.parametrize("sample", LEGO)
def test_lego_cards_show_the_core_abilities_in_every_army(sample_cards, sample):
    """Attack, defense, Resistance and Move on every LEGO card of every army, Resistance 0 too (a
    soldier one hit kills); damage and attacks only where an army has a soldier who differs."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size="poker", paper="a4", summary=False))
    for c in _unit_cards(shared):
        labels, _ = _band(c)
        assert {"Att", "Def", "Res", "Move"} <= set(labels), c


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", ["lego_combat_blackwater_corsairs", "lego_combat_kingsbridge_garrison"])
def test_lego_zero_is_printed_as_the_rules_write_it(sample_cards, sample, size):
    """The rules write a standard soldier as "Combat: 0, Resistance: 0": a 0 on the cards, not a
    dash. The Lookout reads Att 0 (bow +1), the Wall crossbowmen Att 0 (crossbow +1), and Def 0."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    cards = _unit_cards(shared)
    for c in cards:
        _, values = _band(c)
        assert not re.search(r"(?<![\w/])[-–](?![\w/])", values), c
    archer = next(c for c in cards if c.startswith(("Lookout", "Wall crossbowmen")))
    _, values = _band(archer)
    assert re.match(r"0 ?\((cross)?bow \+1\) 0 ", values), values


@pytest.mark.parametrize("size", SIZES)
def test_lego_weapon_notes_and_rates_say_nothing_twice(sample_cards, size):
    """A weapon's notes repeat neither its range bands ("thrown 6/12/18" beside 0-6" 7-12" 13-18")
    nor the move penalty the Move box counts already (the musket's "-1 inch move" beside Move 5);
    how often it shoots is written one way, under "Once every": round, 2, 3
    (the rules' "once every 3"), not "1/rnd" beside "1/3 rnd"; a card of melee weapons has no such column."""
    for sample in LEGO:
        shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
        for c in _unit_cards(shared):
            assert "thrown 6/12/18" not in c and "inch move" not in c and "1/" not in c, c
            if " Weapon " in c:
                ranged = re.search(r'\d+-\d+"', c)
                assert bool(re.search(r"Weapon 0 -1 -2 Once every", c)) == bool(ranged), c
    shared = sample_cards(SAMPLES / "lego_combat_blackwater_corsairs.toml",
                          CardOptions(size=size, paper="a4", summary=False))
    musketeers = next(c for c in _unit_cards(shared) if c.startswith("Musketeers"))
    assert re.search(r'Musket 0-9" 10-18" 19-27" 3 Knife 0-6" 7-12" 13-18" round '
                     r'Notes: melee 1"; small, counts as unarmed', musketeers), musketeers


# the book's Regroup example (tests/test_notation.py) with a unit that has no special beside it
REGROUP = LIGHT_CAVALRY + """
[[units]]
name = "Heavy cavalry"
figure = "Men at Arms"
"""


@pytest.mark.parametrize("size", SIZES)
def test_for_the_masses_cards_print_the_books_special_line(sample_cards, tmp_path, size):
    """The book prints a unit's specials under its stat line, "Free-firing": a unit card heads its
    abilities "Special"; one without any has no Special section, and no "No Special" (the book's
    fill for its record card's line, which a card does not have)."""
    shared = sample_cards(SAMPLES / "for_the_masses_orc_warband.toml",
                          CardOptions(size=size, paper="a4", summary=False))
    cards = _unit_cards(shared)
    assert cards and all("No Special" not in c and "ABILITIES" not in c for c in cards), cards
    path = tmp_path / "regroup.toml"
    path.write_text(REGROUP)
    shared = sample_cards(path, CardOptions(size=size, paper="a4", summary=False, glossary=False))
    light, men = (next(c for c in _unit_cards(shared) if c.startswith(n)) for n in ("Light", "Heavy"))
    assert re.search(r"SPECIAL Free-firing", light) and "No Special" not in light, light
    assert "No Special" not in men and "SPECIAL" not in men and "Special" not in men, men


def test_for_the_masses_a_d4_doubles_up_for_its_last_target(tmp_path):
    """The regroup example's light cavalry (Att 2d4, Rng d8): a d4 against Defense 3 needs 5, past
    its highest face, which two 4s make by doubling up: "5 (×2)"; its d8's targets stay in reach.
    The text list keeps the sum, as earlier lists wrote it."""
    roster = tmp_path / "riders.toml"
    roster.write_text('format = 1\nname = "Riders"\nruleset = "for_the_masses"\n[[units]]\nname = "Light cavalry"\n'
                      'figure = "Light cavalry with bows and hand weapons"\ncount = 7\n', encoding="utf-8")
    out = tmp_path / "riders.pdf"
    assert run_cli("cards", str(roster), "-o", str(out), "-q", "--no-summary").code == 0
    text = re.sub(r"\s+", " ", "\n".join(p.extract_text() or "" for p in PdfReader(str(out)).pages))
    assert "Hits v Def 0/1/2/3: Att 2+/3+/4+/5 (×2), Rng 4+/5+/6+/7+" in text, text
    listed = run_cli("text", str(roster)).out
    assert "To hit: Att 2 + target's Def Rng 4 + target's Def" in listed and "v Def" not in listed, listed
