"""The one table of functions formulas may call: documented, implemented, checked when a ruleset loads."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from conftest import RULESETS, SAMPLES, load

from rosterkit.engine.costing import cost_roster, unit_functions
from rosterkit.engine.functions import (
    IMPLEMENTATIONS,
    CardFunctions,
    RosterFunctions,
    UnitFunctions,
    WeaponFunctions,
)
from rosterkit.engine.roster import RosterFile, Unit
from rosterkit.errors import FormulaError, RosterkitError
from rosterkit.files.rosters import load_roster
from rosterkit.rules.formula import BASE_FUNCTIONS, compile_formula
from rosterkit.rules.functions import (
    FIGURE,
    REGISTRY,
    ROSTER,
    SCOPES,
    TYPE_ARG_FUNCTIONS,
    UNIT,
    bind,
    entries,
    functions_for,
)
from rosterkit.rules.ruleset import compile_ruleset
from rosterkit.rules.schema import RulesetFile

ALL = [(scope, name) for scope in SCOPES for name in entries(scope)]


def implemented(cls: type) -> set[str]:
    """The formula functions a class implements: its public callables, less table()."""
    return {name for name, _ in inspect.getmembers(cls, callable)
            if not name.startswith("_") and name != "table"}


@pytest.mark.parametrize("entry", REGISTRY, ids=lambda e: f"{e.name}-{'+'.join(e.scopes)}")
def test_every_function_is_documented(entry):
    assert entry.doc.startswith(f"{entry.name}("), entry.doc
    assert len(entry.doc) > len(entry.name) + 20
    assert entry.scopes and set(entry.scopes) <= set(SCOPES)
    assert entry.min_args >= 0 and (entry.max_args is None or entry.max_args >= entry.min_args)


def test_no_function_shadows_a_base_function():
    assert not {e.name for e in REGISTRY} & set(BASE_FUNCTIONS)


@pytest.mark.parametrize("cls", IMPLEMENTATIONS, ids=lambda c: c.__name__)
def test_every_implementation_is_registered_and_every_registered_function_implemented(cls):
    assert implemented(cls) == set(entries(cls.scope))


def test_every_scope_has_an_implementation():
    assert {cls.scope for cls in IMPLEMENTATIONS} == set(SCOPES)


def test_the_figure_scope_functions_are_given_when_a_figure_is_costed():
    data = _mini()
    args = {"has": "'Spear'", "items": "'weapons'", "item_names": "'weapons'"}
    calls = ", ".join(f"{name}({args.get(name, chr(39) + 'weapons' + chr(39) + ', ' + chr(39) + '1' + chr(39))})"
                      for name in entries(FIGURE) if name != "item_names")
    data["derived"] = [{"id": "held", "label": "Held", "expr": f"max({calls})"}]
    data["weapons"] = [{"name": "Spear", "cost": 1}]
    rs = compile_ruleset(RulesetFile.model_validate(data))
    roster = RosterFile(name="A", ruleset="mini", units=[Unit(name="u", type="troop", weapons=["Spear"])])
    report = cost_roster(rs, roster)
    assert not [f for f in report.findings if f.rule == "formula"]
    assert report.units[0].members[0].derived["held"] == 1


def test_bound_functions_carry_the_registered_counts_and_text():
    rs, report = _sample("fast_universal_iron_vanguard.toml")
    for table in (RosterFunctions(report).table(), unit_functions(rs, report.units[0].members),
                  CardFunctions(rs, report.units[0].members).table(), WeaponFunctions().table()):
        for name, fn in table.items():
            spec = next(e for e in REGISTRY if e.name == name and e.doc == fn.doc)
            assert (fn.min_args, fn.max_args) == (spec.min_args, spec.max_args)
            assert callable(fn.call)


def test_unit_functions_of_costing_are_the_unit_scope():
    rs, report = _sample("fast_universal_iron_vanguard.toml")
    members = report.units[0].members
    table = unit_functions(rs, members)
    assert set(table) == set(entries(UNIT))
    assert table["sum_of"].call("dice") == UnitFunctions(rs, members).sum_of("dice") > 0


def test_binding_an_object_without_a_function_fails():
    with pytest.raises(AttributeError):
        bind(ROSTER, WeaponFunctions())


def _arity(entry) -> str:
    if entry.max_args == entry.min_args:
        return f"{entry.min_args}"
    if entry.max_args is None:
        return f"at least {entry.min_args}"
    return f"{entry.min_args} to {entry.max_args}"


@pytest.mark.parametrize("scope, name", ALL)
def test_argument_counts_are_checked_when_compiling(scope, name):
    entry = entries(scope)[name]
    ok = ", ".join(["1"] * entry.min_args)
    compile_formula(f"{name}({ok})", set(), functions_for(scope))
    wrong = [entry.min_args - 1] if entry.min_args else []
    if entry.max_args is not None:
        wrong.append(entry.max_args + 1)
    for n in wrong:
        with pytest.raises(FormulaError) as exc:
            compile_formula(f"{name}({', '.join(['1'] * n)})", set(), functions_for(scope))
        assert exc.value.problems[0].message == f"{name}() takes {_arity(entry)} value(s), got {n}"
        assert exc.value.problems[0].column == 0


@pytest.mark.parametrize("scope", SCOPES)
def test_a_function_of_another_scope_is_unknown(scope):
    elsewhere = sorted({e.name for e in REGISTRY} - set(entries(scope)))
    for name in elsewhere:
        with pytest.raises(FormulaError) as exc:
            compile_formula(f"{name}('x')", set(), functions_for(scope))
        p = exc.value.problems[0]
        assert p.message == f"unknown function '{name}'"
        if p.hint and p.hint.startswith("known functions: "):
            assert p.hint == "known functions: " + ", ".join(sorted({*BASE_FUNCTIONS, *entries(scope)}))


def test_argument_count_in_a_ruleset_names_the_limit():
    data = _mini()
    data["limits"].append({"id": "few", "label": "Few", "check": "units_having() < 3", "message": "m"})
    with pytest.raises(RosterkitError) as exc:
        compile_ruleset(RulesetFile.model_validate(data))
    p = exc.value.problems[0]
    assert (p.key, p.message) == ("limits[1].check", "units_having() takes 1 value(s), got 0")


def test_functions_whose_text_names_types():
    assert TYPE_ARG_FUNCTIONS == {"points", "units", "figures", "points_to_add", "points_to_remove"}
    assert all(ROSTER in e.scopes for e in REGISTRY if e.type_args)


@pytest.mark.parametrize("name", sorted(TYPE_ARG_FUNCTIONS))
def test_an_unknown_type_in_a_type_function_is_refused(name):
    data = _mini()
    share = "0.5, " if name.startswith("points_to_") else ""  # these take a share first
    data["limits"].append({"id": "x", "label": "X", "measure": f"{name}({share}'trop')", "at_most": 3,
                           "message": "m"})
    with pytest.raises(RosterkitError) as exc:
        compile_ruleset(RulesetFile.model_validate(data))
    p = exc.value.problems[0]
    assert p.message == f"unknown type 'trop' in {name}()"
    assert p.hint == "did you mean 'troop'?"
    assert p.column == len(name) + 1 + len(share)


# ---------------------------------------------------------------- the types a limit measures


def _limits(ruleset_id: str) -> dict[str, frozenset[str]]:
    return {lim.spec.id: lim.measured_types for lim in load(ruleset_id).limits}


def test_fast_universal_limits_measure_their_types():
    assert _limits("fast_universal") == {
        "points-limit": frozenset(),
        "vehicle-own-unit": frozenset(),  # unit limits measure no types army-wide
        "unit-same-miniatures": frozenset(),
        "basic-ordnance-min": {"basic", "ordnance"},
        "elite-vehicle-max": {"elite", "vehicle"},
        "hero-max": {"hero"},
        "fireball-two-dice": frozenset(),  # a figure limit, like a unit limit
    }


def test_a_check_names_its_types_too():
    assert _limits("heroic_gods")["god-chips-need-hero"] == {"hero"}


def test_a_limit_on_every_type_measures_none():
    assert _limits("lego_combat")["points-limit"] == frozenset()


def test_measured_types_are_ids_whatever_name_the_formula_uses():
    data = _mini()
    data["types"][1]["aliases"] = ["Bosses"]
    data["limits"].append({"id": "b", "label": "B", "check": "units('BOSSES') + points('troop') < 9",
                           "message": "m"})
    rs = compile_ruleset(RulesetFile.model_validate(data))
    assert rs.limits[-1].measured_types == {"boss", "troop"}


@pytest.mark.parametrize("path", sorted(RULESETS.glob("*.toml")), ids=lambda p: p.stem)
def test_unit_limits_measure_no_types(path):
    for lim in load(path.stem).limits:
        if lim.spec.scope == "unit":
            assert lim.measured_types == frozenset()


def test_the_interface_does_not_parse_formulas():
    tui = Path(__file__).resolve().parent.parent / "rosterkit" / "tui"
    for source in tui.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        assert "import ast" not in text and "from ast" not in text, source


# ---------------------------------------------------------------- helpers


def _sample(name: str):
    roster = load_roster(SAMPLES / name).roster
    rs = load(roster.ruleset)
    return rs, cost_roster(rs, roster)


def _mini() -> dict:
    return {
        "format": 1, "id": "mini", "name": "Mini", "source": {"title": "Test"},
        "stats": [{"id": "move", "label": "Move", "min": 0, "max": 12, "default": 6}],
        "types": [{"id": "troop", "name": "Troop", "params": {"divisor": 2}},
                  {"id": "boss", "name": "Boss", "params": {"divisor": 1}}],
        "formulas": {"figure_cost": "10 * move / divisor"},
        "limits": [{"id": "points-limit", "label": "Points", "check": "total <= limit",
                    "message": "{total} of {limit}"}],
    }


def test_the_rulesets_readme_prints_the_reference_made_from_the_table():
    from rosterkit.rules.functions import reference_markdown

    readme = (RULESETS / "README.md").read_text()
    start = readme.index("<!-- reference: made from rosterkit/rules/functions.py")
    start = readme.index("\n", start) + 1
    end = readme.index("<!-- end of reference -->")
    assert readme[start:end] == reference_markdown(), "run reference_markdown() and paste it into the README"
    for entry in REGISTRY:
        assert f"`{entry.doc.partition(': ')[0]}`" in readme[start:end]
