"""Stat kinds: what a player sees for each kind of stat (checked values, problems, display, formulas)."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from typing import get_args

import pytest
from conftest import FIXTURES
from pydantic import ValidationError

from rosterkit.errors import RosterkitError
from rosterkit.rules import schema
from rosterkit.rules.ruleset import compile_ruleset
from rosterkit.rules.schema import RulesetFile, StatDef
from rosterkit.rules.stats import (
    KINDS,
    Pool,
    StatKind,
    coerce,
    default_value,
    display,
    expected,
    formula_names,
    formula_values,
    kind_of,
)
from rosterkit.tui.widgets.stat_field import parse_raw, text_of

OPTIONS = ["Fire", "Ice", "Storm"]
INT = StatDef(id="def", label="Defense", kind="int", min=1, max=10)
NUMBER = StatDef(id="mv", label="Move", kind="number", min=0, suffix='"')
DIE = StatDef(id="fight", label="Fight", kind="die")
SHOOT = StatDef(id="shoot", label="Shoot", kind="die", die_letter="d", dice=[6, 8], suffix="+")
POOL = StatDef(id="atk", label="Attack", kind="pool", min=1, max=4, dice=[6, 8])
FLAG = StatDef(id="fly", label="Flying", kind="flag")
TEXT = StatDef(id="spell", label="Spell", kind="text")
CHOICE = StatDef(id="elem", label="Element", kind="choice", options=OPTIONS)
CHOICES = StatDef(id="gifts", label="Gifts", kind="choices", options=OPTIONS, prefix="[", suffix="]")

# stat, raw value from a file -> coerced value, problem, displayed, what formulas see
TABLE = [
    (INT, 5, 5, None, "5", {"def": 5}),
    (INT, 3.0, 3, None, "3", {"def": 3}),
    (INT, 11, 11, "11 is out of range: expected a whole number from 1 to 10", "11", {"def": 11}),
    (INT, 2.5, None, "2.5 is not a whole number from 1 to 10", "-", {"def": 0}),
    (INT, True, None, "True is not a whole number from 1 to 10", "-", {"def": 0}),
    (INT, "4", None, "'4' is not a whole number from 1 to 10", "-", {"def": 0}),
    (NUMBER, 2.5, Fraction(5, 2), None, '2.5"', {"mv": Fraction(5, 2)}),
    (NUMBER, 6, 6, None, '6"', {"mv": 6}),
    (NUMBER, -1, -1, "-1 is out of range: expected a number of at least 0", '-1"', {"mv": -1}),
    (NUMBER, "6", None, "'6' is not a number of at least 0", "-", {"mv": 0}),
    (NUMBER, False, None, "False is not a number of at least 0", "-", {"mv": 0}),
    (DIE, 8, 8, None, "D8", {"fight": 8}),
    (DIE, "d10", 10, None, "D10", {"fight": 10}),
    (DIE, " 12 ", 12, None, "D12", {"fight": 12}),
    (DIE, 7, None, "7 is not a die type D4, D6, D8, D10, D12", "-", {"fight": 0}),
    (DIE, True, None, "True is not a die type D4, D6, D8, D10, D12", "-", {"fight": 0}),
    (SHOOT, "D8", 8, None, "d8+", {"shoot": 8}),
    (SHOOT, "d4", None, "'d4' is not a die type d6, d8", "-", {"shoot": 0}),
    (POOL, "2d6", Pool(2, 6), None, "2d6", {"atk": 2, "atk_die": 6}),
    (POOL, "d8", Pool(1, 8), None, "1d8", {"atk": 1, "atk_die": 8}),
    (POOL, " 3D8 ", Pool(3, 8), None, "3d8", {"atk": 3, "atk_die": 8}),
    (POOL, "2d10", Pool(2, 10), "'2d10': the die must be one of d6, d8", "2d10", {"atk": 2, "atk_die": 10}),
    (POOL, "5d6", Pool(5, 6), "5d6 is out of range: expected a dice pool such as 2d6 from 1 to 4", "5d6",
     {"atk": 5, "atk_die": 6}),
    (POOL, 3, None, "3 is not a dice pool such as 2d6 from 1 to 4", "-", {"atk": 0, "atk_die": 0}),
    (FLAG, True, True, None, "yes", {"fly": 1}),
    (FLAG, False, False, None, "no", {"fly": 0}),
    (FLAG, "yes", None, "'yes' is not true or false", "-", {"fly": 0}),
    (FLAG, 1, None, "1 is not true or false", "-", {"fly": 0}),
    (TEXT, "Fire bolt", "Fire bolt", None, "Fire bolt", {"spell": "Fire bolt"}),
    (TEXT, 3, None, "3 is not text", "-", {"spell": ""}),
    (CHOICE, "ice", "Ice", None, "Ice", {"elem": "Ice"}),
    (CHOICE, " Storm ", "Storm", None, "Storm", {"elem": "Storm"}),
    (CHOICE, "Fir", None, "'Fir' is not one of 'Fire', 'Ice', 'Storm' (did you mean 'Fire'?)", "-", {"elem": ""}),
    (CHOICE, "Water", None, "'Water' is not one of 'Fire', 'Ice', 'Storm'", "-", {"elem": ""}),
    (CHOICE, 2, None, "2 is not one of 'Fire', 'Ice', 'Storm'", "-", {"elem": ""}),
    (CHOICES, ["fire", "Storm"], ("Fire", "Storm"), None, "[Fire, Storm]", {"gifts": 2}),
    (CHOICES, [], (), None, "[-]", {"gifts": 0}),
    (CHOICES, ["Fire", "Mud"], ["Fire"], "'Mud' is not a list from 'Fire', 'Ice', 'Storm'", "[Fire]", {"gifts": 1}),
    (CHOICES, ["Ice", "ice"], ["Ice"], "'ice' is listed twice (each may be chosen once)", "[Ice]", {"gifts": 1}),
    (CHOICES, "Fire", None, "'Fire' is not a list from 'Fire', 'Ice', 'Storm'", "-", {"gifts": 0}),
]


@pytest.mark.parametrize(("stat", "raw", "value", "problem", "shown", "names"), TABLE,
                         ids=[f"{row[0].kind}-{row[1]!r}" for row in TABLE])
def test_each_kind_reads_shows_and_names_a_value(stat, raw, value, problem, shown, names):
    got, got_problem = coerce(stat, raw)
    assert got == value and type(got) is type(value)
    assert got_problem == problem
    assert display(stat, got) == shown
    assert formula_values(stat, got) == names
    assert formula_names(stat) == list(names)


@pytest.mark.parametrize(("stat", "text"), [
    (INT, "a whole number from 1 to 10"),
    (StatDef(id="a", label="A", kind="int"), "a whole number"),
    (StatDef(id="a", label="A", kind="int", max=6), "a whole number of at most 6"),
    (NUMBER, "a number of at least 0"),
    (StatDef(id="a", label="A", kind="number", min=0.5, max=2.5), "a number from 0.5 to 2.5"),
    (DIE, "a die type D4, D6, D8, D10, D12"),
    (SHOOT, "a die type d6, d8"),
    (POOL, "a dice pool such as 2d6 from 1 to 4"),
    (FLAG, "true or false"),
    (TEXT, "text"),
    (CHOICE, "one of 'Fire', 'Ice', 'Storm'"),
    (CHOICES, "a list from 'Fire', 'Ice', 'Storm'"),
], ids=lambda x: x if isinstance(x, str) else x.kind)
def test_each_kind_says_what_it_expects(stat, text):
    assert expected(stat) == text


def test_no_value_shows_a_dash_whatever_the_prefix():
    for stat in (INT, NUMBER, DIE, SHOOT, POOL, FLAG, TEXT, CHOICE, CHOICES):
        assert display(stat, None) == "-"


def test_defaults_are_read_like_any_value():
    assert default_value(StatDef(id="a", label="A", kind="pool", default="d6")) == Pool(1, 6)
    assert default_value(StatDef(id="a", label="A", kind="choice", options=OPTIONS, default="storm")) == "Storm"
    assert default_value(StatDef(id="a", label="A", kind="number", default=1.5)) == Fraction(3, 2)
    assert default_value(INT) is None


def test_the_registry_and_the_schema_agree():
    assert set(KINDS) == set(get_args(schema.StatKind))
    for name, kind in KINDS.items():
        assert isinstance(kind, StatKind) and kind.name == name
    assert kind_of(POOL) is KINDS["pool"]


@pytest.mark.parametrize(("name", "numeric", "direct", "bounded", "control"), [
    ("int", True, True, True, "input"),
    ("number", True, True, True, "input"),
    ("die", False, True, False, "select"),
    ("pool", False, False, True, "input"),
    ("flag", False, False, False, "switch"),
    ("text", False, True, False, "input"),
    ("choice", False, True, False, "select"),
    ("choices", False, False, False, "multiselect"),
])
def test_what_each_kind_tells_the_rest_of_the_program(name, numeric, direct, bounded, control):
    kind = KINDS[name]
    assert (kind.numeric, kind.direct, kind.bounded, kind.control) == (numeric, direct, bounded, control)
    assert kind.explained == (name != "text")
    assert kind.needs_options == (name in ("choice", "choices"))


def test_a_choice_stat_without_options_is_refused():
    with pytest.raises(ValidationError, match="stat 'elem': a choice stat needs options"):
        StatDef(id="elem", label="Element", kind="choice")
    with pytest.raises(ValidationError, match="stat 'gifts': a choices stat needs options"):
        StatDef(id="gifts", label="Gifts", kind="choices")


def test_only_number_stats_can_be_added_to():
    data = tomllib.loads((FIXTURES / "mini_ruleset.toml").read_text())
    data["stats"] += [{"id": "fly", "label": "Flying", "kind": "flag"},
                      {"id": "atk", "label": "Attack", "kind": "pool", "default": "2d6"},
                      {"id": "pts", "label": "Points", "kind": "number", "default": 1}]
    data["types"][0]["add"] = {"move": 2, "pts": 0.5, "fly": 1, "atk": 1}
    with pytest.raises(RosterkitError) as exc:
        compile_ruleset(RulesetFile.model_validate(data))
    assert [p.message for p in exc.value.problems] == [
        "only number stats can be added to; 'fly' is a flag",
        "only number stats can be added to; 'atk' is a pool",
    ]


def test_select_controls_list_what_may_be_chosen():
    assert KINDS["die"].options(SHOOT) == [("d6", 6), ("d8", 8)]
    assert KINDS["choice"].options(CHOICE) == [("Fire", "Fire"), ("Ice", "Ice"), ("Storm", "Storm")]
    assert KINDS["choices"].options(CHOICES) == KINDS["choice"].options(CHOICE)


# stat, text typed into the field -> what the roster file keeps, the message under the field
TYPED = [
    (INT, "", None, None),
    (INT, " 7 ", 7, None),
    (INT, "+4", 4, None),
    (INT, "3.0", 3, None),
    (INT, "2.5", None, "2.5 is not a whole number from 1 to 10"),
    (INT, "12", None, "12 is out of range: expected a whole number from 1 to 10"),
    (INT, "abc", None, "'abc' is not a whole number from 1 to 10"),
    (NUMBER, "2.50", 2.5, None),
    (NUMBER, "4.0", 4, None),
    (NUMBER, ".5", 0.5, None),
    (NUMBER, "-1", None, "-1 is out of range: expected a number of at least 0"),
    (POOL, " d8 ", "1d8", None),
    (POOL, "2D6", "2d6", None),
    (POOL, "2d7", None, "'2d7': the die must be one of d6, d8"),
    (TEXT, "  spaced out ", "  spaced out ", None),
    (DIE, " d8 ", "d8", None),
    (CHOICE, " ice ", "ice", None),
]


@pytest.mark.parametrize(("stat", "text", "kept", "message"), TYPED, ids=[f"{r[0].kind}-{r[1]!r}" for r in TYPED])
def test_typing_into_a_field(stat, text, kept, message):
    assert parse_raw(stat, text) == (kept, message)
    if kept is not None:
        assert type(parse_raw(stat, text)[0]) is type(kept)


@pytest.mark.parametrize(("stat", "value", "text"), [
    (INT, None, ""),
    (INT, 7, "7"),
    (NUMBER, 2.5, "2.5"),
    (NUMBER, Fraction(1, 4), "0.25"),
    (NUMBER, "odd", "odd"),
    (POOL, Pool(2, 6), "2d6"),
    (POOL, "d6", "d6"),
    (TEXT, "Fire bolt", "Fire bolt"),
])
def test_a_value_in_a_field(stat, value, text):
    assert text_of(stat, value) == text


@pytest.mark.parametrize(("stat", "value", "line"), [
    (StatDef(id="s", label="Strength", short="S", kind="int"), 2, "S 2"),
    (StatDef(id="s", label="Strength", short="S", kind="int"), 0, None),
    (StatDef(id="r", label="Range", kind="number", suffix='"'), Fraction(1, 2), 'Range 0.5"'),
    (StatDef(id="r", label="Range", kind="number"), None, None),
    (FLAG, True, "Flying"),
    (FLAG, False, None),
    (DIE, 8, "Fight D8"),
    (POOL, Pool(2, 6), "Attack 2d6"),
    (TEXT, None, "Spell -"),
    (CHOICES, ("Ice",), "Gifts [Ice]"),
])
def test_a_stat_in_an_items_summary_line(stat, value, line):
    assert kind_of(stat).brief(stat, value) == line
