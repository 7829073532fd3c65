"""A list written as plain bullets (Markdown without bold), as people post lists in forums and chats."""

from __future__ import annotations

import pytest

from rosterkit.engine.textread import read_list
from rosterkit.errors import RosterkitError

BULLETED = (
    "++ Border Levy [ARES Miniatures Wargaming System] [500 rating] ++\n"
    "\n"
    "- Noble's Retinue: Human Noble, Sword* (D10), Cavalry; 6x Human Pikeman, Pike* (D8)\n"
    # a unit written as its figures alone: named as its figure
    "* 2x Human Longbowman, Dagger (D4), Longbow (5/D10)\n"
    "+ Human Mounted Archer, Sword (D6), Bow (3/D8), Cavalry\n"
    "\n"
    "Total: 475 / 500 rating\n"
)


def test_a_bulleted_list_is_read_as_meant(registry):
    read = read_list(BULLETED, registry, "<pasted list>")
    units = read.roster.units
    assert [u.name for u in units] == ["Noble's Retinue", "Human Longbowman", "Human Mounted Archer"]
    noble, pikemen = units[0].members
    assert (noble.figure, noble.count, noble.weapons, noble.abilities) == ("Human Noble", 1, ["Sword* (D10)"],
                                                                           ["Cavalry"])
    assert (pikemen.figure, pikemen.count, pikemen.weapons) == ("Human Pikeman", 6, ["Pike* (D8)"])
    bowmen = units[1]
    assert (bowmen.figure, bowmen.count, bowmen.weapons) == ("Human Longbowman", 2,
                                                            ["Dagger (D4)", "Longbow (5/D10)"])
    rider = units[2]
    assert (rider.figure, rider.count, rider.weapons, rider.abilities) == (
        "Human Mounted Archer", 1, ["Sword (D6)", "Bow (3/D8)"], ["Cavalry"])
    assert read.notes == []  # every name known


def test_bullets_with_type_headers_and_stat_lines(registry):
    text = ("++ Iron [Fast Universal Wargame] ++\n"
            "- Basic\n"
            "- 10x Spearmen, Spear\n"
            "    - 1d6 M:6 F:0 S:0 D:8\n")
    unit = read_list(text, registry).roster.units[0]
    assert (unit.name, unit.type, unit.count, unit.weapons) == ("Spearmen", "basic", 10, ["Claw/hand/spear/sword"])


def test_a_bulleted_line_that_cannot_be_read_names_its_line(registry):
    text = "++ Iron [Fast Universal Wargame] ++\n- Basic\n- 10x Spearmen, Spear\n- 99999999999999999999x Spearmen\n"
    with pytest.raises(RosterkitError) as caught:
        read_list(text, registry, "<pasted list>")
    assert str(caught.value).startswith("<pasted list>:4: ")
    assert "not a whole number of figures up to 1,000,000" in str(caught.value)
