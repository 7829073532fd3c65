"""Cards of one game read alike across its sample armies at one card size: a block that an export
sets one way (boxes side by side, rows two to a line) is set the same way in the game's other
armies, whatever body size each export chose."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import SAMPLES, load
from pypdf import PdfReader

from rosterkit.cards.pdf import CardOptions, export_cards
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.validation import validate_report
from rosterkit.files.rosters import load_roster

HEROIC = ("heroic_gods_achaeans", "heroic_gods_trojans", "heroic_gods_warning_chips_without_hero",
          "heroic_gods_warning_duplicate_base_ids")
CHECKS = ("Wounded", "Panicked", "Locked", "Spear lost")


def _export(tmp_path: Path, sample: str, size: str) -> Path:
    roster = load_roster(SAMPLES / f"{sample}.toml").roster
    report = cost_roster(load(roster.ruleset), roster)
    out = tmp_path / f"{sample}-{size}.pdf"
    export_cards(report, validate_report(report), out, CardOptions(size=size, paper="a4", summary=False))
    return out


def _placed(pdf: Path) -> list[list[tuple[str, float, float]]]:
    """Each page's pieces of text with their x and y (the page's points)."""
    pages = []
    for page in PdfReader(str(pdf)).pages:
        runs: list[tuple[str, float, float]] = []

        def visit(text, cm, tm, font, size, runs=runs):
            if text.strip():
                runs.append((text.strip(), cm[4] + tm[4] * cm[0], cm[5] + tm[5] * cm[3]))
        page.extract_text(visitor_text=visit)
        pages.append(runs)
    return pages


def _labels(text: str) -> tuple[str, ...] | None:
    """The check labels a line of text holds, in order, or None for a line that holds anything else."""
    out: list[str] = []
    rest = text.strip()
    while rest:
        hit = next((c for c in CHECKS if rest.startswith(c)), None)
        if hit is None:
            return None
        out.append(hit)
        rest = rest[len(hit):].strip()
    return tuple(out)


def _check_lines(pdf: Path) -> set[tuple[tuple[str, ...], ...]]:
    """How each figure card sets its single check boxes: the labels on each line, top line first
    (a card's lines start at one x, just under one another)."""
    found = set()
    for runs in _placed(pdf):
        for text, x, y in runs:
            first = _labels(text)
            if not first or first[0] != "Wounded":
                continue
            lines = [first]
            for t, rx, ry in sorted(runs, key=lambda r: -r[2]):
                more = _labels(t)
                if more and more[0] != "Wounded" and abs(rx - x) < 1 and 0 < y - ry < 130:
                    lines.append(more)
            found.add(tuple(lines))
    return found


def _shape(lines: tuple[tuple[str, ...], ...]) -> tuple[int, ...]:
    """Boxes to a line, with "Spear lost" counted where a card has it (a figure without a spear
    has three boxes, set as the first three of the others)."""
    return tuple(len(row) for row in lines)


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_heroic_gods_figure_check_boxes_break_alike_in_every_army(tmp_path, size):
    """Wounded, Panicked, Locked and Spear lost go as many to a line on every figure card of every
    heroic_gods army at one size (a tarot army with larger type no longer stacks them one under
    another while another army sets them side by side)."""
    shapes = {}
    for sample in HEROIC:
        for lines in _check_lines(_export(tmp_path, sample, size)):
            shapes.setdefault(sum(map(len, lines)), set()).add(_shape(lines))
    assert 4 in shapes, shapes
    for count, seen in shapes.items():
        assert len(seen) == 1, (count, shapes)
    # a figure without a spear sets its three boxes as the others set their first three
    first: list[int] = []
    for n in next(iter(shapes[4])):
        first.append(min(n, 3 - sum(first)))
        if sum(first) == 3:
            break
    if 3 in shapes:
        assert next(iter(shapes[3])) == tuple(first), shapes


@pytest.mark.parametrize("size", ["poker", "tarot", "a6"])
def test_for_the_masses_wound_rows_read_alike_in_every_army(tmp_path, size):
    """A unit's wound boxes go element by element in one style on every card of a For the Masses
    army at a size: numbered rows, under "Wounds per element" on every card or beside "Wounds" on
    every card (read back, the cards of units of several elements)."""
    for sample in ("for_the_masses_alvernan_host", "for_the_masses_orc_warband"):
        text = "\n".join(p.extract_text() or "" for p in PdfReader(str(_export(tmp_path, sample, size))).pages)
        cards = [c for c in re.split(r"card \d+ of \d+", text)[:-1]
                 if "per element" in c.replace("per element with", "") and "Reference" not in c]
        # (its stats key: "Wnd Wounds per element"; a melee line: "2d8 per element with a foe in front")
        assert len(cards) >= 3, (sample, text)
        over = {bool(re.search(r"Wounds per element\s+1 1 2 3", c)) for c in cards}
        beside = {bool(re.search(r"Wounds 1 1 2 3", c)) for c in cards}
        assert (over, beside) in (({True}, {False}), ({False}, {True})), (sample, cards)
