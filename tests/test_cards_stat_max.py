"""fast_universal's stat band sets five short values ("1d6 6 0 0 8") in boxes as narrow as "0": on a
large card its values grew to two and a half times the body (28-34 pt) and filled their boxes, read
as one number. The ruleset declares a lower limit ([card] stat_max = 1.6), which every card keeps."""

from __future__ import annotations

import pytest
from conftest import RULESETS, SAMPLES

from rosterkit.cards.pdf import CardOptions
from rosterkit.errors import RosterkitError
from rosterkit.files.rulesets import compile_ruleset_text

SAMPLES_FU = ["fast_universal_ashen_host", "fast_universal_iron_vanguard", "fast_universal_INVALID_hero_heavy"]


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
@pytest.mark.parametrize("sample", SAMPLES_FU)
def test_fast_universal_values_stay_within_the_ruleset_s_limit(sample_cards, sample, size):
    cards = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    body, largest = cards.result.body_size, max(cards.result.type_sizes)
    assert largest <= 1.6 * body + 0.01, (largest, body)
    assert largest >= 1.4 * body, (largest, body)  # (still the card's largest type: read across the table)


def test_a_stat_max_out_of_range_is_refused_with_its_key():
    text = (RULESETS / "fast_universal.toml").read_text(encoding="utf-8")
    assert text.count("stat_max = 1.6\n") == 1
    with pytest.raises(RosterkitError) as info:
        compile_ruleset_text(text.replace("stat_max = 1.6\n", "stat_max = 9\n"), "fast_universal.toml")
    assert any(p.key == "card.stat_max" for p in info.value.problems), \
        [(p.key, p.message) for p in info.value.problems]
