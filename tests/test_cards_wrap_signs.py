"""A number's sign stays with it where a rule's text wraps: "attacking it -1" never breaks
between the "-" and the "1"."""

from __future__ import annotations

import re

import pytest
from conftest import SAMPLES

from rosterkit.cards.pdf import CardOptions


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_a_minus_sign_stays_with_its_number(sample_cards, size):
    got = sample_cards(SAMPLES / "ares_crown_household.toml", CardOptions(size=size, paper="a4", summary=False))
    text = "\n".join(got.pages)
    assert "attacking it" in text  # (the Cavalry rule is printed: on the cards or the reference card)
    assert not re.search(r"(^|\s)\(?-\s*\n\s*\d", text), re.findall(r".{0,30}-\s*\n\s*\d.{0,10}", text)
