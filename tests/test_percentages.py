"""Percentages are shown exact, or to one decimal with halves rounded up as players round
(25.25% is 25.3%), never to the even neighbour; the same in pct(), the cost table and the bars."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest
from conftest import run_cli
from hypothesis import given
from hypothesis import strategies as st

from rosterkit.engine.functions import pct
from rosterkit.rules.numbers import fmt_pct


@pytest.mark.parametrize("part, whole, shown", [
    (Fraction(2525, 10000), 1, "25.3%"),   # a half at the second decimal rounds up
    (Fraction(2535, 10000), 1, "25.4%"),
    (Fraction(1, 8), 1, "12.5%"),          # exact with one decimal
    (Fraction(1, 4), 1, "25%"),            # exact and whole
    (Fraction(1, 3), 1, "33.3%"),
    (Fraction(2, 3), 1, "66.7%"),
    (Fraction(5, 1000), 1, "0.5%"),
    (Fraction(5, 10000), 1, "0.1%"),       # 0.05%: a half rounds up
    (101, 400, "25.3%"),                   # a part of a whole
    (155, 500, "31%"),
    (0, 500, "0%"),
    (3, 0, "0%"),                          # nothing to be a share of
    (Fraction(-2525, 10000), 1, "-25.3%"),  # halves away from zero
])
def test_fmt_pct(part, whole, shown):
    assert fmt_pct(part, whole) == shown


@pytest.mark.parametrize("share, shown", [(Fraction(2525, 10000), "25.3%"), (Fraction(1, 8), "12.5%"),
                                          (Fraction(31, 100), "31%"), (Fraction(4525, 10000), "45.3%")])
def test_the_pct_function_of_messages(share, shown):
    assert pct(share) == shown


@given(hundredths=st.integers(0, 10**7))
def test_half_up_to_one_decimal_for_any_two_decimal_percentage(hundredths):
    share = Fraction(hundredths, 10000)  # a percentage with two decimals
    exact = Decimal(hundredths).scaleb(-2)
    expected = exact if exact == exact.to_integral_value() else exact.quantize(Decimal("0.1"), ROUND_HALF_UP)
    if expected == expected.to_integral_value():
        shown = f"{int(expected)}%" if exact == exact.to_integral_value() else f"{expected:.1f}%"
    else:
        shown = f"{expected}%"
    assert fmt_pct(share, 1) == shown


@given(num=st.integers(0, 10**6), den=st.integers(1, 10**6))
def test_the_shown_share_is_within_a_twentieth_of_a_percent(num, den):
    text = fmt_pct(num, den)
    shown = Fraction(text.rstrip("%"))
    exact = Fraction(num * 100, den)
    assert abs(shown - exact) <= Fraction(1, 20)
    if abs(shown - exact) == Fraction(1, 20):  # a tie is rounded up
        assert shown > exact


def test_the_cost_table_and_messages_round_shares_half_up(tmp_path):
    # 101 points of heroes in a 400-point game: 25.25% of the limit, shown 25.3%
    roster = tmp_path / "r.toml"
    roster.write_text('''format = 1
name = "Quarter and a bit"
ruleset = "fast_universal"
points_limit = 400

[[units]]
name = "Champion"
type = "hero"
stats = { dice = 1, die = 4, move = 0, fight = 0, shoot = 0, defense = 1 }
weapons = ["Heirloom"]

[[units]]
name = "Line"
type = "basic"
count = 14
stats = { dice = 1, die = 6, move = 6, fight = 0, shoot = 0, defense = 8 }

[[weapons]]
name = "Heirloom"
cost = 99
''')
    out = run_cli("cost", "--brief", roster).out
    hero = next(line for line in out.splitlines() if line.strip().startswith("Hero"))
    assert hero.split()[1:] == ["101", "25.3%"]
    message = next(line for line in run_cli("validate", roster).out.splitlines() if "hero-max" in line)
    assert "Heroes are 25.3% of points (101 of 400)" in message
