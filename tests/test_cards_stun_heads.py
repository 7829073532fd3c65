"""A tracker's box labels (``box_labels``) stand over its empty boxes, once over the first line of a
unit's runs (a tick in a box used to cover what it held), read back from the PDF at every card
size; LEGO's own stun boxes are numbered 1 to 4 a soldier, as its casualty and reload boxes, the
caption giving the roll that wakes a soldier from each level (stun-1 5 or 6, stun-2 a 6, stun-3
12 on 2D, stun-4 18 on 3D)."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest
from conftest import SAMPLES, load
from pdfdraw import rectangles
from pypdf import PdfReader
from test_cards_lego import _words

from rosterkit.cards.pdf import CardOptions, export_cards
from rosterkit.cards.sizes import card_size
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.validation import validate_report
from rosterkit.files.rosters import load_roster
from rosterkit.files.rulesets import builtin_dir, compile_ruleset_text

WAKE = ("S1", "S2", "S3", "S4")  # (stun levels named over the boxes, as a ruleset may)
NOTE = "wakes on 5+, 6, 12 on 2D, 18 on 3D"
LEGO = ("lego_combat_kingsbridge_garrison", "lego_combat_blackwater_corsairs", "lego_combat_INVALID_over_points")
SIZES = ("poker", "tarot", "a6")


def _boxes(page) -> list[tuple[float, float, float, float]]:
    """The page's boxes to tick: (left, bottom, width, height)."""
    return [r for r in rectangles(page) if 5 < r[3] < 30 and r[2] < 2 * r[3]]


def _pieces(labels: tuple[str, ...]) -> set[str]:
    """What a label prints as: whole, or either side of one of its spaces (on two lines)."""
    out = set(labels)
    for text in labels:
        out |= {part for i, ch in enumerate(text) if ch == " " for part in (text[:i], text[i + 1:])}
    return out


def blocks(pdf: Path, label: str, size: str, labels: tuple[str, ...]) -> list[dict]:
    """Each tracker called ``label`` on the sheets: its lines of boxes top down (the lines under the
    label, each at most a box and a half below the one before), split into runs where two boxes are
    more than three quarters of a box apart; the ``labels`` over its first line (from the label's
    baseline down to the boxes' tops): (centre, text, lowest baseline, size, lines), the lines of a
    label on two joined top down; the strings inside its boxes; and its page (from 0)."""
    inner = card_size(size).width - 16
    pieces = _pieces(labels)
    found = []
    for at, (page, words) in enumerate(zip(PdfReader(str(pdf)).pages, _words(pdf))):
        boxes = _boxes(page)
        for head in (w for w in words if w[4] == label and "Bold" in w[5]):
            x, y = head[0], head[2]
            below = [b for b in boxes if x - 1 <= b[0] < x + inner and b[1] + b[3] <= y + 0.1 and y - b[1] < 200]
            lines: dict[float, list] = {}
            for b in below:
                lines.setdefault(round(b[1], 1), []).append(b)
            rows = [sorted(lines[k]) for k in sorted(lines, reverse=True)]
            kept = rows[:1]
            for row in rows[1:]:
                if kept[-1][0][1] - row[0][1] > 1.5 * row[0][3]:
                    break
                kept.append(row)
            if not kept:
                continue
            top = max(b[1] + b[3] for b in kept[0])
            over = [w for w in words if w[4] in pieces and x - 1 <= w[0] and w[1] <= x + inner + 1
                    and top - 3 < w[2] <= y + 0.1]
            stacked: list[list] = []  # (a label on two lines: its lines share a centre)
            for w in sorted(over, key=lambda w: -w[2]):
                centre = (w[0] + w[1]) / 2
                same = next((s for s in stacked if abs(s[0] - centre) < 0.3), None)
                if same is None:
                    stacked.append([centre, [w]])
                else:
                    same[1].append(w)
            heads = sorted((c, " ".join(p[4] for p in parts), min(p[2] for p in parts), min(p[3] for p in parts),
                            len(parts)) for c, parts in stacked)
            runs = []
            for row in kept:
                run = [row[0]]
                for before, b in pairwise(row):
                    if b[0] - (before[0] + before[2]) > 0.75 * before[2]:
                        runs.append(run)
                        run = []
                    run.append(b)
                runs.append(run)
            inside = [w[4] for w in words for b in (b for row in kept for b in row)
                      if b[0] < (w[0] + w[1]) / 2 < b[0] + b[2] and b[1] < w[2] < b[1] + b[3]]
            found.append({"lines": kept, "runs": runs, "heads": heads, "inside": inside, "page": at})
    return found


def _check(block: dict, labels: tuple[str, ...]) -> int:
    """The labels over a tracker's first line read ``labels`` over every run they stand over (one
    run at least), each label centred on its box and wholly above the box's top; no string inside
    a box. Returns how many runs have their labels."""
    first = block["lines"][0]
    top = max(b[1] + b[3] for b in first)
    assert not block["inside"], block["inside"]
    heads = block["heads"]
    assert heads and len(heads) % len(labels) == 0, heads
    runs = [r for r in block["runs"] if r[0] in first]
    served = 0
    for k in range(0, len(heads), len(labels)):
        group = heads[k:k + len(labels)]
        assert tuple(h[1] for h in group) == labels, heads
        run = next((r for r in runs if abs(r[0][0] + r[0][2] / 2 - group[0][0]) < 0.3), None)
        assert run is not None and len(run) >= len(labels), (group, [[b[0] for b in r] for r in runs])
        for (centre, text, baseline, *_), box in zip(group, run):
            # (within a point: a label wider than a box at the card's edge is kept inside the card)
            assert abs(box[0] + box[2] / 2 - centre) < 1.0, (text, centre, box)
            assert baseline > top + 0.5, (text, baseline, top)  # (over the box, clear of its line)
        served += 1
    return served


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", LEGO)
def test_box_labels_stand_over_empty_stun_boxes(tmp_path, sample, size):
    """LEGO's stun levels named S1 to S4 over the boxes: every soldier has a run of four empty stun
    boxes; over every run of the first line of each card's runs the labels stand each centred on
    its box, at 5.5 pt or more (over only the line's last run, after the caption, the first
    soldier's boxes read unlabelled)."""
    out = _export(tmp_path, _with_labels("Stun", '["S1", "S2", "S3", "S4"]'), sample, size)
    report = cost_roster(load("lego_combat"), load_roster(SAMPLES / f"{sample}.toml").roster)
    soldiers = sum(m.count for unit in report.units for m in unit.members)
    found = blocks(out, "Stun", size, WAKE)
    assert len(found) == len(report.units)
    assert sum(len(r) == 4 for b in found for r in b["runs"]) == soldiers
    assert all(len(r) == 4 for b in found for r in b["runs"])
    for block in found:
        first = block["lines"][0]
        assert _check(block, WAKE) == sum(1 for r in block["runs"] if r[0] in first)
        assert min(h[3] for h in block["heads"]) >= 5.5 - 1e-6, block["heads"]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", LEGO)
def test_lego_stun_boxes_are_numbered_by_level(sample_cards, sample, size):
    """The shipped LEGO ruleset numbers each soldier's four stun boxes 1 to 4 (nothing over them),
    the caption saying the roll that wakes a soldier from each level, once a card."""
    cards = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    soldiers = sum(m.count for unit in cards.report.units for m in unit.members)
    found = blocks(cards.path, "Stun", size, WAKE)
    assert len(found) == len(cards.report.units)
    assert sum(len(r) == 4 for b in found for r in b["runs"]) == soldiers
    for block in found:
        assert not block["heads"], block["heads"]
        assert block["inside"] == ["1", "2", "3", "4"] * len(block["runs"]), block["inside"]
    assert "\n".join(cards.pages).count(NOTE) == len(cards.report.units)


def _with_labels(tracker: str, labels: str) -> str:
    """The LEGO ruleset with ``labels`` as the box labels of one of its trackers (in place of any)."""
    lines = (builtin_dir() / "lego_combat.toml").read_text(encoding="utf-8").splitlines(keepends=True)
    lines = [x for x in lines if not x.startswith("box_labels")]
    text = "".join(lines)
    head = f'[[card.trackers]]\nname = "{tracker}"\n'
    assert text.count(head) == 1
    return text.replace(head, head + f"box_labels = {labels}\n")


def _export(tmp_path: Path, ruleset: str, sample: str, size: str) -> Path:
    rs = compile_ruleset_text(ruleset, "lego_combat.toml")
    report = cost_roster(rs, load_roster(SAMPLES / f"{sample}.toml").roster)
    out = tmp_path / f"{sample}-{size}.pdf"
    export_cards(report, validate_report(report), out, CardOptions(size=size, paper="a4", summary=False))
    return out


@pytest.mark.parametrize("size", SIZES)
def test_a_label_too_wide_for_its_box_goes_on_two_lines_over_it(tmp_path, size):
    """Labels as the book words them ("12 on 2D") are wider than a box and its gap: each goes on two
    lines centred on its box, over it, the boxes empty and two soldiers' runs still to a line."""
    labels = ("5 or 6", "6", "12 on 2D", "18 on 3D")
    ruleset = _with_labels("Stun", '["5 or 6", "6", "12 on 2D", "18 on 3D"]')
    out = _export(tmp_path, ruleset, "lego_combat_kingsbridge_garrison", size)
    found = blocks(out, "Stun", size, labels)
    assert len(found) == 5
    for block in found:
        assert _check(block, labels) >= 1
        assert all(len(r) == 4 for r in block["runs"])
        assert len(block["runs"]) == 1 or len(block["runs"]) == 2 * len(block["lines"]) - (len(block["runs"]) % 2)
        assert {h[1]: h[4] for h in block["heads"]}["12 on 2D"] == 2, block["heads"]


def test_the_reload_boxes_take_labels_too(tmp_path):
    """box_labels works on any tracker with a run a figure: on the Musketeers' reload boxes (three a
    soldier, their numbers before), the labels stand over each soldier's run of the first line and
    the boxes are empty."""
    out = _export(tmp_path, _with_labels("Reload", '["shot", "wait", "ready"]'), "lego_combat_blackwater_corsairs",
                  "poker")
    found = blocks(out, "Reload", "poker", ("shot", "wait", "ready"))
    assert found
    for block in found:
        assert _check(block, ("shot", "wait", "ready")) == len([r for r in block["runs"] if r[0] in block["lines"][0]])
