"""The formula language: values, precedence, functions, and every kind of refusal."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rosterkit.errors import FormulaError
from rosterkit.rules.formula import compile_formula, compile_template

NAMES = {"a", "b", "c", "move", "die", "mode"}
ENV = {"a": 2, "b": 3, "c": 0, "move": 6, "die": 8, "mode": "missile"}


def ev(text, env=ENV):
    return compile_formula(text, NAMES).evaluate(env)


@pytest.mark.parametrize("text, expected", [
    ("1 + 2 * 3", 7),
    ("(1 + 2) * 3", 9),
    ("2 ** 3 ** 2", 512),  # right-associative, as in ordinary arithmetic
    ("-2 ** 2", -4),
    ("a * b + c", 6),
    ("a + b * c", 2),
    ("10 - 4 - 3", 3),
    ("7 // 2", 3),
    ("7 % 3", 1),
    ("84 / 4", 21),
    ("90 / 4", Fraction(45, 2)),  # exact: halves are kept
    ("1 / 3 + 1 / 3 + 1 / 3", 1),  # exact thirds add up to one
    ("0.1 + 0.2", Fraction(3, 10)),  # decimals are exact too
    ("0.2 * 480", 96),
    ("a < b", True),
    ("a == 2 and b == 3", True),
    ("not c", True),
    ("1 if a > b else 0", 0),
    ("5 if mode == 'missile' else 1", 5),
    ("min(a, b, 1)", 1),
    ("max(a, b)", 3),
    ("abs(c - 4)", 4),
    ("round(2.5)", 3),  # halves round up, as players expect
    ("round(3.5)", 4),
    ("round(-2.5)", -3),
    ("round(10 / 3, 2)", Fraction(333, 100)),
    ("floor(7 / 2)", 3),
    ("ceil(7 / 2)", 4),
    ("clamp(move, 1, 4)", 4),
    ("((move * die))", 48),
])
def test_values(text, expected):
    assert ev(text) == expected


@pytest.mark.parametrize("text, message, column", [
    ("a +* b", "syntax error", 3),
    ("a + ", "syntax error", None),
    ("a + foo", "unknown name 'foo'", 4),
    ("a + moev", "unknown name 'moev'", 4),
    ("sqrt(a)", "unknown function 'sqrt'", 0),
    ("min", "'min' is a function", 0),
    ("round(a, b, c)", "round() takes 1 to 2 value(s), got 3", 0),
    ("clamp(a)", "clamp() takes 3 value(s), got 1", 0),
    ("__import__('os')", "names starting with '_' are not allowed", 0),
    ("().__class__", "not allowed in a formula", None),
    ("a.real", "attribute access ('.real')", 1),
    ("a[0]", "indexing", 0),
    ("lambda: 1", "lambda", 0),
    ("[x for x in a]", "comprehension", 0),
    ("(x := 3)", "assignment", None),
    ("f'{a}'", "f-string", 0),
    ("a is b", "comparison not allowed", 0),
    ("a in b", "comparison not allowed", 0),
    ("a @ b", "operator not allowed", 0),
    ("a << 2", "operator not allowed", 0),
    ("9 ** 9 ** 9", "power too large", 0),
    ("10 ** 100", "power too large", 0),
    ("10000000000000", "number too large", 0),
    ("'" + "x" * 300 + "'", "text too long", 0),
    ("None", "None is not a value", 0),
    ("max(*a)", "plain values only", 0),
    ("", "formula is empty", None),
])
def test_refused_at_compile(text, message, column):
    with pytest.raises(FormulaError) as info:
        compile_formula(text, NAMES, file="r.toml", key="formulas.x")
    problem = info.value.problems[0]
    assert message in problem.message
    assert problem.file == "r.toml" and problem.key == "formulas.x"
    if column is not None:
        assert problem.column == column
        assert problem.source == text
        rendered = info.value.problems[0].render()
        assert "^" in rendered


def test_caret_sits_under_the_bad_name():
    with pytest.raises(FormulaError) as info:
        compile_formula("dice * die * mvoe", {"dice", "die", "move"})
    lines = str(info.value).splitlines()
    src, caret = lines[1], lines[2]
    assert src.strip() == "dice * die * mvoe"
    assert caret.index("^") == src.index("mvoe")
    assert "did you mean 'move'?" in str(info.value)


def test_caret_counts_characters_not_bytes():
    with pytest.raises(FormulaError) as info:
        compile_formula("'Ωmega' == mvoe", {"move"})
    assert info.value.problems[0].column == len("'Ωmega' == ")


@pytest.mark.parametrize("text", [
    "x" * 1001,
    "(" * 40 + "1" + ")" * 40,
    "1" + " + 1" * 500,
])
def test_absurd_inputs_refused_fast(text):
    with pytest.raises(FormulaError) as info:
        compile_formula(text, {"x"})
    assert any(w in str(info.value) for w in ("too long", "too deeply", "too large"))


def test_division_by_zero_names_the_formula_and_the_unit():
    f = compile_formula("10 / (move - 6)", {"move"}, file="r.toml", key="formulas.figure_cost")
    with pytest.raises(FormulaError) as info:
        f.evaluate({"move": 6}, context="unit 'Statues'")
    text = str(info.value)
    assert "division by zero" in text and "Statues" in text and "10 / (move - 6)" in text


def test_power_guard_at_evaluation():
    f = compile_formula("a ** b", {"a", "b"})
    assert f.evaluate({"a": 2, "b": 10}) == 1024
    with pytest.raises(FormulaError, match="power too large"):
        f.evaluate({"a": 9, "b": 10**9})


def test_text_in_arithmetic_is_reported_not_raised_as_python_error():
    f = compile_formula("mode + 1", NAMES)
    with pytest.raises(FormulaError):
        f.evaluate(ENV)


def test_no_builtins_reachable():
    # Even with a name that exists in Python's builtins, nothing resolves except what the context gives.
    with pytest.raises(FormulaError, match="unknown name 'open'"):
        compile_formula("open", NAMES)


def test_substituted_shows_the_working():
    f = compile_formula("dice * die * move", {"dice", "die", "move"})
    assert f.substituted({"dice": 1, "die": 6, "move": 6}) == "1 * 6 * 6"


def test_template_renders_values_and_escapes_braces():
    t = compile_template("Heroes {a * 10} of {{limit}}", NAMES)
    assert t.render(ENV) == "Heroes 20 of {limit}"


def test_template_error_points_into_the_message():
    with pytest.raises(FormulaError) as info:
        compile_template("Heroes {a + nope} points", NAMES)
    p = info.value.problems[0]
    assert p.source == "Heroes {a + nope} points"
    assert p.column == p.source.index("nope")


# Property: for any text, compiling gives a Formula or our own error, never another exception.
@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=80))
def test_any_text_compiles_or_fails_cleanly(text):
    try:
        f = compile_formula(text, NAMES)
    except FormulaError:
        return
    try:
        f.evaluate(ENV)
    except FormulaError:
        pass


_atoms = st.sampled_from(["a", "b", "c", "move", "die", "1", "2", "0", "0.5", "3"])
_ops = st.sampled_from(["+", "-", "*", "/", "//", "%", "**", "<", "==", " and ", " or "])


@st.composite
def expressions(draw, depth=3):
    if depth == 0 or draw(st.booleans()):
        return draw(_atoms)
    return f"({draw(expressions(depth=depth - 1))}{draw(_ops)}{draw(expressions(depth=depth - 1))})"


@settings(max_examples=300, deadline=None)
@given(expressions())
def test_generated_expressions_evaluate_or_fail_cleanly(text):
    try:
        f = compile_formula(text, NAMES)
    except FormulaError as exc:  # e.g. a constant power with a fractional exponent
        assert exc.problems[0].column is not None
        return
    try:
        value = f.evaluate(ENV)
    except FormulaError:
        return
    assert isinstance(value, (int, Fraction, bool))
