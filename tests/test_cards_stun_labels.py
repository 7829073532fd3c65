"""LEGO's stun boxes each hold the roll that wakes a soldier at that level (stun-1 5 or 6 on 1D,
stun-2 a 6, stun-3 12 on 2D, stun-4 18 on 3D), read back from the PDF: inside the box's own
rectangle, in place of the level's number, on every soldier's run."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest
from conftest import SAMPLES
from pdfdraw import rectangles
from pypdf import PdfReader
from test_cards_lego import _words

from rosterkit.cards.pdf import CardOptions, export_cards
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.validation import validate_report
from rosterkit.errors import RosterkitError
from rosterkit.files.rosters import load_roster
from rosterkit.files.rulesets import builtin_dir, compile_ruleset_text

WAKE = ("5+", "6", "2D 12", "3D 18")
CLEAR = 0.3  # the least room between a label and its box's line, each side (pt)


def _runs(pdf) -> tuple[list[tuple[str, ...]], list[str]]:
    """Each line of small boxes holding a string, left to right, split into runs where two boxes
    are more than half a box apart: the strings inside each run's boxes; and the strings that
    overlap a box without lying inside it, clear of its lines."""
    runs: list[tuple[str, ...]] = []
    astray: list[str] = []
    for page, words in zip(PdfReader(str(pdf)).pages, _words(Path(pdf))):
        lines: dict[float, list[tuple[float, float, str]]] = {}
        for left, bottom, w, h in rectangles(page):
            if not (5 < h < 30 and w < 2 * h):  # (boxes to tick, not the card or a stat band)
                continue
            inside = [t for x0, x1, y, _, t, _face in words if left + CLEAR <= x0 and x1 <= left + w - CLEAR
                      and bottom + CLEAR <= y <= bottom + h - CLEAR]
            astray += [t for x0, x1, y, _, t, _face in words if t in WAKE and t not in inside
                       and x0 < left + w and x1 > left and bottom <= y <= bottom + h]
            if len(inside) == 1:
                lines.setdefault(round(bottom, 1), []).append((left, left + w, inside[0]))
        for boxes in lines.values():
            boxes.sort()
            run = [boxes[0][2]]
            for (start, end, _), (left, _, text) in pairwise(boxes):
                if left - end > 0.5 * (end - start):
                    runs.append(tuple(run))
                    run = []
                run.append(text)
            runs.append(tuple(run))
    return runs, astray


@pytest.mark.parametrize("size", ["poker", "tarot"])
@pytest.mark.parametrize("sample", ["lego_combat_blackwater_corsairs", "lego_combat_kingsbridge_garrison"])
def test_each_stun_box_holds_its_wake_up_roll(sample_cards, sample, size):
    """Every soldier of the army has a run of four stun boxes reading 5+, 6, 2D 12, 3D 18 from
    left to right, each string inside its own box clear of its lines (on main the boxes held 1 to
    4 and the rolls were in a caption beside "Stun"); no roll spills over a box's line."""
    cards = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    soldiers = sum(m.count for unit in cards.report.units for m in unit.members)
    runs, astray = _runs(cards.path)
    assert runs.count(WAKE) == soldiers, (soldiers, runs)
    assert not any(set(WAKE) & set(run) for run in runs if run != WAKE), runs
    assert not astray, astray


def _with_labels(tracker: str, labels: str = '["a", "b"]') -> str:
    """The LEGO ruleset with box labels added to one of its trackers."""
    text = (builtin_dir() / "lego_combat.toml").read_text(encoding="utf-8")
    head = f'[[card.trackers]]\nname = "{tracker}"\n'
    assert text.count(head) == 1
    return text.replace(head, head + f"box_labels = {labels}\n")


def test_a_labels_control_characters_never_reach_the_pdf(tmp_path):
    """A label from the ruleset file is text, never sent: an escape sequence in the Reload boxes'
    first label prints without its control character (as every file text on a card), the rest of
    it inside its box."""
    rs = compile_ruleset_text(_with_labels("Reload", '["\\u001b[2J", "b", "c"]'), "lego_combat.toml")
    roster = load_roster(SAMPLES / "lego_combat_blackwater_corsairs.toml").roster
    report = cost_roster(rs, roster)
    out = tmp_path / "cards.pdf"
    export_cards(report, validate_report(report), out, CardOptions(size="poker", paper="a4", summary=False))
    text = "".join(page.extract_text() for page in PdfReader(str(out)).pages)
    assert "\x1b" not in text
    runs, _ = _runs(out)
    assert runs.count(("[2J", "b", "c")) == 2, runs  # (the two musketeers' reload runs)


def test_box_labels_on_a_tracker_without_figure_runs_are_reported_with_their_key():
    """Box labels name the boxes of each figure's run: on LEGO's casualties (one box a soldier,
    no runs) the ruleset is refused, naming the key."""
    compile_ruleset_text(_with_labels("Reload"), "lego.toml")  # (a run a soldier: accepted)
    with pytest.raises(RosterkitError) as info:
        compile_ruleset_text(_with_labels("Casualties"), "lego.toml")
    problems = info.value.problems
    assert any(p.key == "card.trackers[0].box_labels" and "figure_lines" in p.message for p in problems), \
        [(p.key, p.message) for p in problems]
