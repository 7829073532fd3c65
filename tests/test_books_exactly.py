"""The books, exactly: what a text states is an error, what rosterkit reads into it is a
warning that says so, what a text advises is a warning that says so, and what a text
does not say is not checked. Each test is named after the rule it keeps."""

from __future__ import annotations

import pytest
from conftest import RULESETS, load

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
