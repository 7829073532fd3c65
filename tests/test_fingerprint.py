"""The roster fingerprint: the army's meaning, not its file's formatting."""

from __future__ import annotations

import dataclasses
import re

import pytest
from conftest import SAMPLES

from rosterkit.engine.costing import Costing
from rosterkit.engine.fingerprint import differing_parts, fingerprint, normalise
from rosterkit.workspace import open_roster, open_text

SHAPE = re.compile(r"^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$")

ARMY = """\
format = 1
name = "Iron Vanguard"
ruleset = "fast_universal"
points_limit = 500

[[units]]
name = "Spearmen"
type = "basic"
count = 10
weapons = ["Claw/hand/spear/sword"]
stats = { dice = 1, die = 6, move = 6, fight = 0, shoot = 0, defense = 8 }

[[units]]
name = "Captain"
type = "hero"
count = 1
stats = { dice = 3, die = 8, move = 6, fight = 2, shoot = 0, defense = 10 }
"""

# the same army: other order of units and keys, comments, notes, spacing
SAME = """\
# my list for Saturday
ruleset = "fast_universal"
format = 1
points_limit = 500
name = "Iron Vanguard"
notes = "bring the red dice"

[[units]]
name = "Captain"
count = 1
type = "hero"
notes = "paint the cloak"
[units.stats]
defense = 10
dice = 3
die = 8
move = 6
fight = 2
shoot = 0

[[units]]   # the block
name = "Spearmen"
type = "basic"
count = 10
weapons = [ "Claw/hand/spear/sword" ]
stats = { die = 6, dice = 1, move = 6, fight = 0, shoot = 0, defense = 8 }
"""


def fp(text: str, registry):
    return fingerprint(open_text(text, registry).report)


def test_every_sample_has_a_fingerprint_of_the_printed_shape(registry):
    codes = {}
    for path in sorted(SAMPLES.glob("*.toml")):
        code = fingerprint(open_roster(path, registry).report).code
        assert SHAPE.match(code), (path.name, code)
        codes[path.name] = code
    assert len(set(codes.values())) == len(codes)  # no two sample armies share one


def test_formatting_comments_order_and_notes_do_not_change_it(registry):
    assert fp(ARMY, registry) == fp(SAME, registry)


@pytest.mark.parametrize("change, part", [
    (("count = 10", "count = 11"), "units"),
    (('name = "Captain"', 'name = "Hero"'), "units"),
    (("defense = 10 }", "defense = 9 }"), "gear and stats"),
    (('weapons = ["Claw/hand/spear/sword"]', 'weapons = ["Claw/hand/spear/sword", "Pistol"]'),
     "gear and stats"),
    (("points_limit = 500", "points_limit = 600"), "points"),
])
def test_what_a_player_changes_changes_it_and_says_what(registry, change, part):
    before = fp(ARMY, registry)
    after = fp(ARMY.replace(*change), registry)
    assert after.code != before.code
    # the part digit says which kind of thing differs (5-bit digests collide 1 time in 32:
    # these fixed changes do not)
    assert part in differing_parts(after, before.code)


def test_ruleset_version_is_part_of_it(registry):
    opened = open_text(ARMY, registry)
    rs = opened.ruleset
    newer = dataclasses.replace(rs, data=rs.data.model_copy(update={"version": rs.data.version + ".1"}))
    report = Costing(newer, opened.figures).report(opened.roster)
    changed = fingerprint(report)
    assert changed.code != fingerprint(opened.report).code
    assert differing_parts(changed, fingerprint(opened.report).code) == ["ruleset"]


def test_typed_fingerprints_are_read_leniently():
    assert normalise("abcd efgh jkmn pq0r") == "ABCD-EFGH-JKMN-PQ0R"
    assert normalise("o1l0-0000-0000-0000") == "0110-0000-0000-0000"
    assert normalise("ABCD-EFGH") is None
    assert normalise("UUUU-UUUU-UUUU-UUUU") is None


def test_a_lists_fingerprint_stays_the_same_across_releases(registry):
    """An organiser compares a printout with the list submitted weeks before: the same army,
    under the same ruleset version, keeps its fingerprint whatever rosterkit computes it with."""
    def under_version_1(name):  # the codes were pinned when the built-ins were version 1
        opened = open_roster(SAMPLES / name, registry)
        rs = opened.ruleset
        old = dataclasses.replace(rs, data=rs.data.model_copy(update={"version": "1"}))
        return str(fingerprint(Costing(old, opened.figures).report(opened.roster)))

    got = {name: under_version_1(name) for name in ("ares_border_levy.toml", "lego_combat_kingsbridge_garrison.toml")}
    assert got == {"ares_border_levy.toml": "NYYA-7QJ3-TE30-T1E0",
                   "lego_combat_kingsbridge_garrison.toml": "HCN2-00D8-AX84-TXRK"}
