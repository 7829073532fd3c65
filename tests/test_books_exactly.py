"""The books, exactly: what a text states is an error, what rosterkit reads into it is a
warning that says so, what a text advises is a warning that says so, and what a text
does not say is not checked. Each test is named after the rule it keeps."""

from __future__ import annotations

import re

import pytest
from conftest import FIXTURES, RULESETS, SAMPLES, load
from pypdf import PdfReader

from rosterkit.engine.validation import validate
from rosterkit.files.rosters import loads_roster

RULESET_IDS = ["ares", "fast_universal", "for_the_masses", "heroic_gods", "lego_combat"]


def roster(ruleset: str, body: str, head: str = ""):
    """A roster of the ruleset from the TOML text of its units."""
    return loads_roster(f'format = 1\nname = "Test"\nruleset = "{ruleset}"\n{head}\n{body}')


def findings(rs, text: str, rule: str):
    return [f for f in validate(rs, roster(rs.id, text)).findings if f.rule == rule]


# ---------------------------------------------------------------- 1. the severity policy


def test_severity_policy_is_written_once_at_the_top_of_the_rulesets_readme():
    readme = (RULESETS / "README.md").read_text()
    policy = readme.index("## Severity")
    assert policy < readme.index("## Decisions that apply to every ruleset") < readme.index("## The rulesets")
    assert readme.count("## Severity") == 1


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_every_warning_says_it_is_a_reading_or_advice(ruleset):
    rs = load(ruleset)
    for spec in [*rs.data.limits, *rs.data.matchup]:
        if spec.severity == "warning":
            assert "reading" in spec.message or "advice" in spec.message, (ruleset, spec.id)


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_no_error_is_described_as_our_reading(ruleset):
    for spec in [*load(ruleset).data.limits, *load(ruleset).data.matchup]:
        if spec.severity == "error":
            assert "our reading" not in spec.description.lower(), (ruleset, spec.id)


def test_heroic_gods_base_id_unique_is_a_reading_warning():
    rs = load("heroic_gods")
    units = "".join(f'[[units]]\nname = "Soldier {i}"\ntype = "common"\n'
                    f'stats = {{ base_id = 3, attack = 4, defense = 4, move = 6, spear = true }}\n' for i in range(2))
    v = validate(rs, roster("heroic_gods", units, "[stats]\ngod_chips = 0"))
    found = [f for f in v.findings if f.rule == "base-id-unique"]
    assert v.ok
    assert [f.severity for f in found] == ["warning"] and "our reading" in found[0].message


def test_ftm_twelve_element_cap_is_stated_in_the_quoted_words():
    """The cap stays an error because the rulesets README quotes the words that make it one."""
    readme = (RULESETS / "README.md").read_text()
    assert '"no unit may be increased in size beyond 12 Elements"' in readme
    rs = load("for_the_masses")
    spec = next(s for s in rs.data.limits if s.id == "unit-elements-max")
    assert spec.severity == "error"


# ---------------------------------------------------------------- 2. no rule the texts do not state


def lego_weapon(name: str) -> dict:
    return dict(load("lego_combat").find_item("weapons", name).stats)


def test_lego_axe_has_no_damage_modifier():
    assert lego_weapon("Axe").get("damage", 0) == 0


@pytest.mark.parametrize("name", ["Axe", "Mace", "Staff", "Torch", "Crossbow", "Musket", "Pistol"])
def test_lego_weapons_have_no_modifier_the_text_does_not_state(name):
    stats = lego_weapon(name)
    assert stats.get("hit", 0) == 0 and stats.get("damage", 0) == 0, name
    assert "ignores up to 2" not in stats.get("special", "") and "fire" not in stats.get("special", "")


def test_lego_musket_does_not_ignore_armor_but_pistol_ignores_3_levels_and_rifle_4():
    assert "armor" not in lego_weapon("Musket").get("special", "")
    assert "ignores up to 3 levels of armor" in lego_weapon("Pistol")["special"]
    assert "ignores up to 4 levels of armor" in lego_weapon("Rifle")["special"]


def test_lego_lance_reach_is_3_and_polearm_reach_is_the_normal_1():
    assert lego_weapon("Lance")["reach"] == 3
    assert lego_weapon("Spear")["reach"] == 2
    assert lego_weapon("Polearm")["reach"] == 1


def test_lego_nine_figures_pass_validate_strict(cli, tmp_path):
    path = tmp_path / "nine.toml"
    path.write_text('format = 1\nname = "Nine"\nruleset = "lego_combat"\npoints_limit = 200\n'
                    '[[units]]\nname = "Soldiers"\ntype = "Standard"\ncount = 9\nweapons = ["Sword"]\n')
    result = cli("validate", "--strict", path)
    assert result.code == 0, result.out


def test_ftm_magician_not_limited_to_personalities():
    rs = load("for_the_masses")
    text = ('[[units]]\nname = "Battle mages"\ntype = "infantry"\ncount = 4\nabilities = ["Magician"]\n'
            'stats = { mv = 4, att = "2d6", defense = 2, wnd = 3, mor = 7, element_cost = 40 }\n')
    v = validate(rs, roster("for_the_masses", text))
    assert v.ok and not [f for f in v.findings if f.rule == "not-allowed"]


def test_ftm_monster_needs_no_size(cli, tmp_path):
    path = tmp_path / "monster.toml"
    path.write_text('format = 1\nname = "Beast"\nruleset = "for_the_masses"\n'
                    '[[units]]\nname = "Orc Chief"\nfigure = "Orc Chief, on foot"\nstats = { general = true }\n'
                    '[[units]]\nname = "Troll"\ntype = "monster"\ncount = 1\n'
                    'stats = { mv = 4, att = "3d8", defense = 3, wnd = 8, mor = 6, element_cost = 90 }\n')
    result = cli("validate", "--strict", path)
    assert result.code == 0, result.out


def test_fast_universal_d20_giant_costs_80():
    from rosterkit.engine.costing import cost_roster

    rs = load("fast_universal")
    text = ('[[units]]\nname = "Giant"\ntype = "Basic"\ncount = 1\n'
            'stats = { dice = 1, die = "d20", move = 6, fight = 2, shoot = 2, defense = 8 }\n')
    report = cost_roster(rs, roster("fast_universal", text))
    assert report.total == 80  # (1 x 20 x 6 + 20 x 8 + 2 x 10 + 2 x 10) / 4
    assert validate(rs, roster("fast_universal", text)).findings == []


def test_ares_designed_unit_needs_no_type():
    from rosterkit.engine.costing import cost_roster

    rs = load("ares")
    text = ('[[units]]\nname = "Ogre"\ncount = 1\nweapons = ["Club"]\n'
            'stats = { rating = 75, wounds = 8, move = 5, morale = 3, armor = "D8", close = "D10", magic = "D4" }\n'
            '[[weapons]]\nname = "Club"\nstats = { damage = "D10" }\n')
    report = cost_roster(rs, roster("ares", text))
    assert report.total == 75 and report.units[0].type_id == "figure"
    assert not [f for f in validate(rs, roster("ares", text)).findings if f.rule == "unknown-type"]


# ---------------------------------------------------------------- 3. no silent override


def test_lego_grade_override_is_reported():
    from rosterkit.engine.costing import cost_roster

    rs = load("lego_combat")
    text = ('[[units]]\nname = "Hero"\ntype = "Hero"\nstats = { move = 10 }\n'
            '[[units]]\nname = "Legend"\ntype = "Legend"\nstats = { move = 12, attacks = 3 }\n'
            '[[units]]\nname = "Swift hero"\ntype = "Hero"\nstats = { move = 9 }\n')
    r = roster("lego_combat", text)
    assert [u.total for u in cost_roster(rs, r).units] == [20, 40, 20]
    found = [f for f in validate(rs, r).findings if f.rule == "type-sets-stat"]
    assert [(f.severity, f.unit_name) for f in found] == [("warning", "Hero"), ("warning", "Legend")]
    assert 'Move to 9"' in found[0].message and 'entered Move 10"' in found[0].message
    assert "Attacks per round 3" in found[1].message and 'Move 12"' in found[1].message


def test_lego_negative_cost_is_reported():
    from rosterkit.engine.costing import cost_roster

    rs = load("lego_combat")
    text = '[[units]]\nname = "Weakling"\ntype = "Standard"\nstats = { combat = -2, move = 4 }\n'
    r = roster("lego_combat", text)
    assert cost_roster(rs, r).total == -4  # 10 - 2 x 6 - 2
    found = [f for f in validate(rs, r).findings if f.rule == "negative-cost"]
    assert [f.severity for f in found] == ["warning"] and "-4 points" in found[0].message


def test_ares_changed_catalogue_figure_is_reported():
    rs = load("ares")
    text = ('[[units]]\nname = "Knight"\nfigure = "Human Knight"\nweapons = ["Sword (D8)", "Bow (3/D8)"]\n'
            'abilities = ["Cavalry", "Quick", "Regenerate"]\nstats = { ranged = "D8", wounds = 12 }\n')
    v = validate(rs, roster("ares", text))
    found = [f for f in v.findings if f.rule == "catalogue-changed"]
    assert v.ok and [f.severity for f in found] == ["warning"]
    for change in ("Ranged Combat D8", "Wounds 12, the book 6", "Bow (3/D8)", "Quick, Regenerate", "printed 88"):
        assert change in found[0].message
    # as printed, or with its own rating entered, the figure is not warned about
    for same in ('stats = { rating = 88 }', 'stats = { rating = 120, wounds = 12 }'):
        text = f'[[units]]\nname = "Knight"\nfigure = "Human Knight"\n{same}\n'
        assert not [f for f in validate(rs, roster("ares", text)).findings if f.rule == "catalogue-changed"]


# ---------------------------------------------------------------- 4. the books' notation in every output

LONGBOW_BANDS = 'D4 0-5" D6 6-10" D8 11-15" D10 16-20" D12 21-25"'


def test_ares_text_shows_starred_specials_as_the_book_prints_them(cli):
    text = cli("text", SAMPLES / "ares_border_levy.toml").out
    assert "Special: *Polearm" in text  # Human Pikeman: "Pike* (D8)" ... "Special: *Polearm"
    assert "Special: Cavalry, *Magic" in text  # Human Noble


def test_ares_players_missile_weapon_is_written_like_the_card(cli):
    path = FIXTURES / "rosters" / "ares_area_effect_ranged.toml"
    assert "Fire Pot (2/D6)" in cli("text", path).out
    assert "Special: *Area Effect 2\"" in cli("text", path).out
    assert "+ weapon: Fire Pot (2/D6)" in cli("cost", path).out


def test_ares_range_die_bands_on_card_and_cost_breakdown(cli, tmp_path):
    cost = cli("cost", SAMPLES / "ares_crown_household.toml").out
    assert re.search(r"\+ weapon: Longbow \(5/D10\).*\n\s+Range die\s+" + re.escape(LONGBOW_BANDS), cost)
    pdf = tmp_path / "cards.pdf"
    assert cli("cards", SAMPLES / "ares_crown_household.toml", "-o", pdf, "-q").code == 0
    cards = re.sub(r"\s+", " ", "\n".join(page.extract_text() or "" for page in PdfReader(str(pdf)).pages))
    # (on the card a row of dice over their bands, under the weapon and named: each die read with its band)
    assert re.search(r"Longbow \(5/D10\) D8\+D10 Range die " + re.escape(LONGBOW_BANDS), cards), cards


def test_documents_agree_with_the_output():
    readme = (RULESETS / "README.md").read_text()
    assert "prints as\n  `Longbow`" not in readme and "`Longbow (5/D10)` prints in full" in readme
    notes = " ".join(load("lego_combat").data.notes)
    assert "48-72" in notes and "49-72" not in notes


# ---------------------------------------------------------------- 5. readings, with the text's words


def test_fast_universal_machine_gun_is_68_at_range_0_as_a_reading(cli, tmp_path):
    path = tmp_path / "mg.toml"
    path.write_text('format = 1\nname = "MG"\nruleset = "fast_universal"\n'
                    '[[units]]\nname = "Gunners"\ntype = "Basic"\ncount = 1\nweapons = ["Machine Gun"]\n')
    out = cli("cost", path).out
    line = next(ln for ln in out.splitlines() if "+ weapon: Machine Gun" in ln)
    assert "68 (as printed; the formula gives 40" in line and "our reading" in line and "range of 14" in line
    assert dict(load("fast_universal").find_item("weapons", "Machine Gun").stats)["range"] == 0
    assert "68 = 40 + 2 × 14" in (RULESETS / "README.md").read_text()


def test_fast_universal_shares_are_of_the_points_limit_and_say_so():
    rs = load("fast_universal")
    basic = ('[[units]]\nname = "Spearmen"\ntype = "Basic"\ncount = 4\n'
             'stats = { dice = 1, die = 6, move = 6, defense = 8 }\nweapons = ["Spear"]\n')
    elite = ('[[units]]\nname = "Guard"\ntype = "Elite"\ncount = 1\n'
             'stats = { dice = 1, die = 6, move = 6, defense = 8 }\nweapons = ["Spear"]\n')
    # 84 of basic and 42 of elite: 126 spent of 500
    v = validate(rs, roster("fast_universal", basic + elite, "points_limit = 500"))
    found = {f.rule: f for f in v.findings}
    assert "(84 of 500)" in found["basic-ordnance-min"].message
    assert "our reading of 'your points'" in found["basic-ordnance-min"].message
    readme = (RULESETS / "README.md").read_text()
    assert '"building a complete\n  force"' in readme and '"your points"' in readme


def test_ftm_merged_cavalry_two_dice_is_two_die_sizes():
    rs = load("for_the_masses")
    light = rs.find_figure("Light cavalry with bows and hand weapons")
    merged = rs.find_figure("Cavalry with hand weapons")
    sizes = [4, 6, 8, 10, 12]
    light_die = int(light.stats["rng"].split("d")[1])
    assert merged.stats["rng"] == f"1d{sizes[sizes.index(light_die) - 2]}"  # d8 -> d6 -> d4, as printed
    assert "two die sizes" in merged.note
    assert "reduce the final ranged stats by two dice" in (RULESETS / "README.md").read_text()
