"""The author's guide's worked example is a ruleset that loads and prices its roster as the
guide says."""

from __future__ import annotations

import re
import tomllib

from conftest import RULESETS

from rosterkit.engine.costing import cost_roster
from rosterkit.engine.roster import RosterFile
from rosterkit.engine.validation import validate_report
from rosterkit.files.rulesets import compile_ruleset_text

GUIDE = (RULESETS / "GUIDE.md").read_text()


def example_blocks() -> list[str]:
    example = GUIDE[GUIDE.index("## A worked example"):GUIDE.index("## How do I")]
    return re.findall(r"```toml\n(.*?)```", example, re.DOTALL)


def test_the_worked_example_loads_and_prices_its_roster_as_the_guide_says():
    *ruleset, roster = example_blocks()
    rs = compile_ruleset_text("\n".join(ruleset), "ember.toml")
    report = cost_roster(rs, RosterFile.model_validate(tomllib.loads(roster)))
    assert [u.total for u in report.units] == [88, 86]
    assert report.total == 174
    assert "The army is 174 points" in GUIDE
    errors = validate_report(report).errors
    assert [f.rule for f in errors] == ["heroes"]
    assert "remove 42 points of heroes" in errors[0].message
    assert "remove 42 points of heroes" in GUIDE
