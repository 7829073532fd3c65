"""Stats and weapons written in each book's own notation: on cards, in text lists and in the
cost breakdown. The expected values are the numbers the rules texts print."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import SAMPLES, ftm_targets, run_cli
from pypdf import PdfReader

from rosterkit.engine.costing import ItemCost, item_how, price_source
from rosterkit.engine.display import stat_line, stat_text, weapon_line
from rosterkit.workspace import open_roster, open_text


def opened(registry, name: str):
    report = open_roster(SAMPLES / name, registry).report
    return report.ruleset, report


def member_of(report, unit_name: str, member_name: str | None = None):
    unit = next(u for u in report.units if u.name == unit_name)
    member = unit.members[0] if member_name is None else next(m for m in unit.members if m.name == member_name)
    return unit, member


def weapon(report, name: str) -> ItemCost:
    return next(it for u in report.units for m in u.members for it in m.items
                if it.kind == "weapons" and it.name == name)


def catalogue_weapon(rs, name: str) -> ItemCost:
    item = rs.find_item("weapons", name)
    assert item is not None, name
    return ItemCost("weapons", item.name, item.cost or 0, "published", stats=dict(item.stats))


def card_text(tmp_path: Path, sample: str) -> str:
    pdf = tmp_path / "cards.pdf"
    result = run_cli("cards", SAMPLES / sample, "-o", pdf, "--no-summary", "--no-glossary", "-q")
    assert result.code == 0, result.err
    return "\n".join(page.extract_text() or "" for page in PdfReader(str(pdf)).pages)


# ---------------------------------------------------------------- fast_universal

# Force Generation: the average human is "1d6 M:6 F:0 S:0 D:8".
def test_fast_universal_stat_line_as_the_rules_write_it(registry):
    rs, report = opened(registry, "fast_universal_iron_vanguard.toml")
    unit, member = member_of(report, "Spearmen")
    assert stat_line(rs, unit, member) == [("AD", "1d6"), ("M", "6"), ("F", "0"), ("S", "0"), ("D", "8")]
    assert stat_text(rs, unit, member) == "1d6 M:6 F:0 S:0 D:8"


# The Example Weapons table: name, modifier, range, as the table prints them (a melee weapon's
# range is the table's 0, which its card line reads as "melee").
@pytest.mark.parametrize("name, modifier, range_", [
    ("Claw/hand/spear/sword", "+0", "0"),
    ("Big bite/big claw/big fist/great axe/great sword", "+1(F)", "0"),
    ("Bow/crossbow", "+1(S)", "6"),
    ("Longbow", "+1(S)", "10"),
    ("Pistol", "+1(S)", "6"),
    ("Musket", "+2(S)", "10"),
    ("Assault rifle", "+3(S)", "9"),
    ("Sniper rifle", "+2(S)", "15"),
    ("Ray gun", "+3(S)", "6"),
    ("50mm Cannon", "+4(S)", "18"),
    ("Machine Gun", "+4(S)", "0"),  # a shooting weapon printed with range 0
])
def test_fast_universal_weapon_table(registry, name, modifier, range_):
    rs = registry.get("fast_universal")
    item = catalogue_weapon(rs, name)
    assert item.stats["range"] == int(range_)
    melee = range_ == "0" and "(S)" not in modifier  # (the Machine Gun's 0 stays a number)
    assert weapon_line(rs, item) == [("Weapon", name), ("Mod", modifier), ("Range", "melee" if melee else range_)]


def test_fast_universal_sample_weapons(registry):
    rs, report = opened(registry, "fast_universal_iron_vanguard.toml")
    # (the roster names the table's rows by the player's words, "Bow" and "Spear")
    assert dict(weapon_line(rs, weapon(report, "Bow/crossbow"))) == {
        "Weapon": "Bow", "Mod": "+1(S)", "Range": "6"}
    assert dict(weapon_line(rs, weapon(report, "Claw/hand/spear/sword")))["Range"] == "melee"


def test_fast_universal_text_and_cards(tmp_path):
    text = run_cli("text", SAMPLES / "fast_universal_iron_vanguard.toml").out
    assert "\n    1d6 M:6 F:0 S:0 D:8\n" in text
    assert "\n    1d8 M:6 F:1 S:0 D:9\n" in text  # Captain Aldric
    assert 'M 6"' not in text and "F +0" not in text
    cards = card_text(tmp_path, "fast_universal_iron_vanguard.toml")
    assert re.search(r"1d6\s+6\s+0\s+0\s+8\s", cards)  # AD M F S D
    assert re.search(r"Bow\s+\+1\(S\)\s+6\s", cards)
    assert re.search(r"Spear\s+\+0\s+melee\s", cards)
    assert '0"' not in cards and '6"' not in cards


# ---------------------------------------------------------------- ares

# Sample Figure Types: Human Knight (88), Wounds 6, Move 6", Morale 4, Armor D10+, Close
# Combat D8, Ranged Combat n/a, Sword (D8), Magic D6.
def test_ares_stat_block(registry):
    rs, report = opened(registry, "ares_crown_household.toml")
    unit, member = member_of(report, "Household Knights", "Human Knight")
    line = dict(stat_line(rs, unit, member))
    assert {k: line[k] for k in ("Combat Rating", "Wounds", "Move", "Morale", "Armor", "Close Combat",
                                 "Ranged Combat", "Magic", "Spells")} == {
        "Combat Rating": "88", "Wounds": "6", "Move": '6"', "Morale": "4", "Armor": "D10+",
        "Close Combat": "D8", "Ranged Combat": "n/a", "Magic": "D6", "Spells": "None"}
    assert stat_text(rs, unit, member).startswith(
        'Combat Rating 88 Wounds 6 Move 6" Morale 4 Armor D10+ Close Combat D8 Ranged Combat n/a Magic D6')


# Weapons as the stat blocks write them: Sword (D8), Longbow (5/D10); the noble's Sword* (D10)
# with *Magic and the pikeman's Pike* (D8) with *Polearm under Special. The catalogue names
# each weapon as printed, so its line says it once; the same weapon designed by a player under a
# plain name gets the numbers in the Rng/Dmg column.
ARES_WEAPONS = [
    ("ares_crown_household.toml", "Sword (D8)", "(D8)", ""),
    ("ares_crown_household.toml", "Mace (D10)", "(D10)", ""),
    ("ares_crown_household.toml", "Longbow (5/D10)", "(5/D10)", ""),
    ("ares_crown_household.toml", "Dagger (D4)", "(D4)", ""),
    ("ares_border_levy.toml", "Bow (3/D8)", "(3/D8)", ""),
    ("ares_border_levy.toml", "Sword (D6)", "(D6)", ""),
    ("ares_border_levy.toml", "Sword* (D10)", "(D10)", "*Magic"),
    ("ares_border_levy.toml", "Pike* (D8)", "(D8)", "*Polearm"),
]


def range_die(notation: str) -> str:
    """The range die bands of a missile weapon, "(5/D10)": D4 out to the range factor, D6 to
    twice it, up to D12 at five times (Chapter Four); "" for a melee weapon."""
    if "/" not in notation:
        return ""
    rf = int(notation[1:notation.index("/")])
    return " ".join(f'{die} {0 if i == 0 else i * rf + 1}-{(i + 1) * rf}"'
                    for i, die in enumerate(["D4", "D6", "D8", "D10", "D12"]))


@pytest.mark.parametrize("sample, name, notation, special", ARES_WEAPONS)
def test_ares_weapons(registry, sample, name, notation, special):
    rs, report = opened(registry, sample)
    line = weapon_line(rs, weapon(report, name))
    # (the attacker's roll reads the holding figure's die: the catalogue's weapon alone has none)
    assert line == [("Weapon", name), ("Rng/Dmg", ""), ("Special", special), ("Range die", range_die(notation)),
                    ("Attack", "")]
    assert name.endswith(notation)  # the name is the book's whole entry


@pytest.mark.parametrize("sample, name, notation, special", ARES_WEAPONS)
def test_ares_weapon_notation_for_own_weapons(registry, sample, name, notation, special):
    rs = registry.get("ares")
    stats = dict(rs.find_item("weapons", name).stats)
    plain = name.split(" (")[0].rstrip("*")
    toml_stats = ", ".join(f"{k} = {str(v).lower() if isinstance(v, bool) else v}" for k, v in stats.items())
    text = (f'format = 1\nname = "Own"\nruleset = "ares"\n[[units]]\nname = "U"\ntype = "figure"\n'
            f'weapons = ["{plain} of mine"]\n[[weapons]]\nname = "{plain} of mine"\nstats = {{ {toml_stats} }}\n')
    report = open_text(text, registry).report
    own = weapon(report, f"{plain} of mine")
    assert weapon_line(rs, own) == [("Weapon", f"{plain} of mine"), ("Rng/Dmg", notation), ("Special", special),
                                    ("Range die", range_die(notation)), ("Attack", "")]


def test_ares_own_weapons_in_the_same_notation(registry):
    rs, report = opened(registry, "ares_hill_clans.toml")
    assert dict(weapon_line(rs, weapon(report, "Crossbow"))) == {
        "Weapon": "Crossbow", "Rng/Dmg": "(4/D10)", "Special": "*Cumbersome", "Range die": range_die("(4/D10)"),
        "Attack": ""}
    assert dict(weapon_line(rs, weapon(report, "Rune Axe")))["Rng/Dmg"] == "(D10)"
    # held: the attacker's roll, the figure's Ranged Combat D8 (a missile weapon) or Close Combat D10
    holder = {it.name: m for u in report.units for m in u.members for it in m.items}
    assert dict(weapon_line(rs, weapon(report, "Crossbow"), holder["Crossbow"]))["Attack"] == "D8+D10"
    assert dict(weapon_line(rs, weapon(report, "Rune Axe"), holder["Rune Axe"]))["Attack"] == "D10+D10"


def test_ares_text_and_cards(tmp_path):
    text = run_cli("text", SAMPLES / "ares_border_levy.toml").out
    assert "Sword* (D10)" in text and "Pike* (D8)" in text and "Magic Sword" not in text
    cards = card_text(tmp_path, "ares_border_levy.toml")
    flat = re.sub(r"\s+", " ", cards)
    # the mixed unit prints a card per kind of figure: each weapon on its holder's card, beside
    # its Special
    sword = flat[flat.index("Sword* (D10)"):][:40]
    assert "*Magic" in sword, sword
    assert flat.rindex("Human Noble", 0, flat.index("Sword* (D10)")) > flat.rfind("card ", 0, flat.index("Sword* (D10)"))
    pike = flat[flat.index("Pike* (D8)"):][:40]
    assert "*Polearm" in pike, pike
    assert "Bow (3/D8)" in flat and "(3/D8) (3/D8)" not in flat and "-/D" not in cards
    cards = card_text(tmp_path, "ares_hill_clans.toml")
    assert re.search(r"Crossbow\*\s+\(4/D10\)\s+\*Cumbersome", cards)


# ---------------------------------------------------------------- lego_combat

# The range table: no penalty / -1 / -2 in one column, each band as printed (the crossbow's -2
# band is printed 48-72"), then the maximum.
@pytest.mark.parametrize("name, bands, most", [
    ("Knife", '0-6" / 7-12" / 13-18"', '18"'),
    ("Pistol", '0-6" / 7-12" / 13-18"', '18"'),
    ("Musket", '0-9" / 10-18" / 19-27"', '27"'),
    ("Bow", '0-12" / 13-24" / 25-36"', '36"'),
    ("Crossbow", '0-24" / 25-48" / 48-72"', '72"'),
])
def test_lego_range_bands(registry, name, bands, most):
    rs = registry.get("lego_combat")
    line = dict(weapon_line(rs, catalogue_weapon(rs, name)))
    assert [line["0 / -1 / -2"], line["Max"]] == [bands, most]


def test_lego_sample_crossbow_and_soldier(registry, tmp_path):
    rs, report = opened(registry, "lego_combat_kingsbridge_garrison.toml")
    line = dict(weapon_line(rs, weapon(report, "Crossbow")))
    assert [line["0 / -1 / -2"], line["Max"], line["Once every"]] == ['0-24" / 25-48" / 48-72"', '72"', "2"]
    # the standard soldier's abilities: Combat 0, Resistance 0, Move 6 Sw 3 Cl 1 Ju 3
    unit, member = member_of(report, "Militia")
    shown = dict(stat_line(rs, unit, member))
    assert (shown["Cbt"], shown["Res"], shown["Move"]) == ("0", "0", "6 Sw 3 Cl 1 Ju 3")
    assert stat_text(rs, unit, member) == "Combat: 0 Att: 0 Def: 0 Dmg: 0 Resistance: 0 Move: 6 Sw 3 Cl 1 Ju 3 Fly: - Attacks: 1"
    text = run_cli("text", SAMPLES / "lego_combat_kingsbridge_garrison.toml").out
    assert "Combat: 0 Att: 0 Def: 0 Dmg: 0 Resistance: 0 Move: 6 Sw 3 Cl 1 Ju 3 Fly: - Attacks: 1\n" in text
    cards = card_text(tmp_path, "lego_combat_kingsbridge_garrison.toml")
    # (a card sets the bands in three columns under "Range 0 / -1 / -2")
    assert '0-24" 25-48" 48-72"' in cards and "49-72" not in cards


# ---------------------------------------------------------------- for_the_masses

# The unit record cards: Orc Warriors "Mv 5 Att 2d8 Rng -/- Def 2 Wnd 4 Mor 7+ ME - CP -",
# Men at Arms "Mv 4 Att 2d6 Rng -/- Def 2 Wnd 3 Mor 7+ ME - CP -".
@pytest.mark.parametrize("sample, unit_name, line", [
    ("for_the_masses_orc_warband.toml", "Orc Warriors (left)", "Mv 5 Att 2d8 Rng -/- Def 2 Wnd 4 Mor 7+ ME - CP -"),
    ("for_the_masses_alvernan_host.toml", "Men at Arms (left)", "Mv 4 Att 2d6 Rng -/- Def 2 Wnd 3 Mor 7+ ME - CP -"),
])
def test_for_the_masses_record_card(registry, tmp_path, sample, unit_name, line):
    rs, report = opened(registry, sample)
    unit, member = member_of(report, unit_name)
    assert stat_text(rs, unit, member) == line
    text = run_cli("text", SAMPLES / sample).out
    assert f"\n    {line}\n" in text
    # the target number of its melee attacks (half the die, plus the target's Defense) below it
    half = int(line.split("Att ")[1].split()[0].split("d")[1]) // 2
    assert f"\n    {line}\n    To hit: Att {half} + target's Def\n" in text
    # the card: the record card's headings over its values, as the book prints them (in one band
    # of boxes, or in two or more when the card is too narrow for them at its type size), with
    # the book's dashes ("-/-", "-") for a stat the unit has none of
    labels, values = line.split()[0::2], line.split()[1::2]
    cards = card_text(tmp_path, sample)
    n = len(labels)
    patterns = []
    for bands in range(1, n + 1):
        per = -(-n // bands)
        chunks = [(labels[i:i + per], values[i:i + per]) for i in range(0, n, per)]
        patterns.append(r"\s+".join(r"\s+".join(lab) + r"\s+" + r"\s+".join(map(re.escape, val))
                                    for lab, val in chunks))
    # or turned, the stats down the side, with the row of target numbers as a column beside them
    patterns.append(r"Hits v Def 0/1/2/3\s+" + r"\s+".join(rf"{lab}\s+{re.escape(val)}(?:\s+[\d+/]+)?"
                                                             for lab, val in zip(labels, values)))
    assert any(re.search(p, cards) for p in patterns)
    # the target numbers of its melee attacks against Defense 0 to 3 (half the die, plus the
    # Defense), as a note under the record card's row
    die = int(values[labels.index("Att")].split("d")[1])
    assert f"Hits v Def 0/1/2/3: Att {ftm_targets(die)}" in re.sub(r"\s+", " ", cards)


REGROUP = """format = 1
name = "Regroup example"
ruleset = "for_the_masses"

[[units]]
name = "Light cavalry"
figure = "Light cavalry with bows and hand weapons"
stats = { element_cost = 20 }
"""


def test_for_the_masses_gear_has_no_price_in_the_book(registry, tmp_path):
    """Bows, hand weapons and Free-firing have no price of their own: the breakdown says so
    instead of calling a 0 printed."""
    path = tmp_path / "regroup.toml"
    path.write_text(REGROUP)
    report = open_roster(path, registry).report
    rs = report.ruleset
    unit, member = report.units[0], report.units[0].members[0]
    assert stat_text(rs, unit, member) == "Mv 9 Att 2d4 Rng d8/10 Def 0 Wnd 5 Mor 4+ ME - CP -"
    hows = {it.name: (it.cost, item_how(it)) for it in member.items}
    no_price = "no price in the book: the cost per element covers it"
    assert hows == {"Bows": (0, no_price), "Hand weapons": (0, no_price), "Free-firing": (0, no_price)}
    out = run_cli("cost", path).out
    assert "+ weapon: Bows" in out and f"0 ({no_price})" in out
    assert "as printed" not in out and "published" not in out


def test_unpriced_items_read_as_the_rules_leave_them(registry, tmp_path):
    path = tmp_path / "pistoleers.toml"
    path.write_text('format = 1\nname = "Pistoleers"\nruleset = "lego_combat"\n'
                    '[[units]]\nname = "Gunner"\ntype = "Standard"\nweapons = ["Pistol", "Bow"]\n')
    report = open_roster(path, registry).report
    pistol, bow = report.units[0].members[0].items
    assert (pistol.cost, item_how(pistol), price_source(pistol)) == (
        0, "no price in the rules; counted as 0", "no price in the rules")
    assert (bow.cost, item_how(bow), price_source(bow)) == (8, "as printed", "as printed")


# ---------------------------------------------------------------- heroic_gods

# Victory points: 5 for a dead Hero, 3 for a wounded one, 2 for a dead common soldier, 1 for a
# wounded one; a wound halves every value, rounding up; the bow factor only "if any".
def test_heroic_gods_values_and_wounded_line(registry):
    from rosterkit.engine.display import extra_rows, reminder_line

    rs, report = opened(registry, "heroic_gods_achaeans.toml")
    unit, hero = member_of(report, "Achilles")
    assert dict(stat_line(rs, unit, hero))["VP"] == "5"
    assert dict(stat_line(rs, unit, hero))["Bow"] == "-"
    [(label, wounded)] = extra_rows(rs, unit, hero)
    assert label == "Wounded" and wounded[-1] == "3"
    assert stat_text(rs, unit, hero) == "ID #1 Rank Hero A 8 D 7 M 6 Bow - Spear yes VP 5"
    # a card says them out of its stat band: a wound halves the stats, not what the enemy scores
    assert reminder_line(rs, unit, hero).endswith("VP to enemy: 5 slain, 3 wounded")
    assert wounded[2:5] == ["4", "4", "3"]  # 8, 7, 6 halved, rounding up
    common_unit = next(u for u in report.units if u.type_id == "common")
    common = common_unit.members[0]
    assert dict(stat_line(rs, common_unit, common))["VP"] == "2"
    assert extra_rows(rs, common_unit, common)[0][1][-1] == "1"
