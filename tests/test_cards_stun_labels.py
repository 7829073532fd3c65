"""Box labels from a ruleset file (LEGO's stun wake-up rolls: stun-1 5 or 6 on 1D, stun-2 a 6, stun-3
12 on 2D, stun-4 18 on 3D; where they stand is tested in test_cards_stun_heads): their text is the
file's, shown and never sent, and they name the boxes of a figure's run only."""

from __future__ import annotations

import pytest
from conftest import SAMPLES
from pypdf import PdfReader
from test_cards_stun_heads import _check, blocks

from rosterkit.cards.pdf import CardOptions, export_cards
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.validation import validate_report
from rosterkit.errors import RosterkitError
from rosterkit.files.rosters import load_roster
from rosterkit.files.rulesets import builtin_dir, compile_ruleset_text


def _with_labels(tracker: str, labels: str = '["a", "b"]') -> str:
    """The LEGO ruleset with box labels added to one of its trackers."""
    text = (builtin_dir() / "lego_combat.toml").read_text(encoding="utf-8")
    head = f'[[card.trackers]]\nname = "{tracker}"\n'
    assert text.count(head) == 1
    return text.replace(head, head + f"box_labels = {labels}\n")


def test_a_labels_control_characters_never_reach_the_pdf(tmp_path):
    """A label from the ruleset file is text, never sent: an escape sequence in the Reload boxes'
    first label prints without its control character (as every file text on a card), the rest of
    it over its box."""
    rs = compile_ruleset_text(_with_labels("Reload", '["\\u001b[2J", "b", "c"]'), "lego_combat.toml")
    roster = load_roster(SAMPLES / "lego_combat_blackwater_corsairs.toml").roster
    report = cost_roster(rs, roster)
    out = tmp_path / "cards.pdf"
    export_cards(report, validate_report(report), out, CardOptions(size="poker", paper="a4", summary=False))
    text = "".join(page.extract_text() for page in PdfReader(str(out)).pages)
    assert "\x1b" not in text
    found = blocks(out, "Reload", "poker", ("[2J", "b", "c"))
    assert [_check(block, ("[2J", "b", "c")) for block in found] == [2], found  # (the two musketeers' runs)


def test_box_labels_on_a_tracker_without_figure_runs_are_reported_with_their_key():
    """Box labels name the boxes of each figure's run: on LEGO's casualties (one box a soldier,
    no runs) the ruleset is refused, naming the key."""
    compile_ruleset_text(_with_labels("Reload"), "lego.toml")  # (a run a soldier: accepted)
    with pytest.raises(RosterkitError) as info:
        compile_ruleset_text(_with_labels("Casualties"), "lego.toml")
    problems = info.value.problems
    assert any(p.key == "card.trackers[0].box_labels" and "figure_lines" in p.message for p in problems), \
        [(p.key, p.message) for p in problems]
