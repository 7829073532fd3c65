"""A stat band's values with clear room around them: each value stands off its box's lines by a
share of its own size, and values are not grown into the condensed face (read back from the PDF)."""

from __future__ import annotations

import functools
from collections import defaultdict
from itertools import pairwise
from pathlib import Path

import pytest
from conftest import SAMPLES
from pdfdraw import vertical_rules
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from test_cards_lego import _words

from rosterkit.cards.fonts import BOLD, COND_BOLD
from rosterkit.cards.pdf import CardOptions
from rosterkit.cards.sizes import card_size

SAMPLE_NAMES = sorted(p.stem for p in SAMPLES.glob("*.toml"))
SIZES = ["poker", "tarot", "a6"]
LINE = 0.6  # the box lines' width: the room is measured to a line's inner edge


def room_for(size: float) -> float:
    """The least clear room each side of a value ``size`` points large: 1.5 pt, and 15% of the
    value (For the Masses' "7+" 1.9 pt from its lines at 14.6 pt read as touching them)."""
    return max(1.5, 0.15 * size)


def label_pad(sample: str, small: float) -> float:
    """The padding each side of a band's label ``small`` points large: less on the one-row record
    card of the rulesets that print every column on one line (a fifth of its size), else the cards'
    usual (by the body, of which the labels are 0.82)."""
    if sample.startswith(("for_the_masses", "fast_universal")):
        return max(1.5, small * 0.2) + LINE / 2
    return max(1.5, small / 0.82 * 0.3)


@functools.cache  # (the shared exports are only read: each is read back once)
def _cells(pdf: Path) -> tuple[tuple[tuple, ...], ...]:
    """Each page's stat band lines: per line of boxes (the vertical rules of one height), its bottom,
    its top and its boxes left to right as (left rule, right rule, strings in the box), a string as
    (left, right, size, text, face)."""
    pages = []
    for page, drawn in zip(PdfReader(str(pdf)).pages, _words(pdf)):
        words = [w for w in drawn if w[4].strip()]
        lines: dict[tuple[float, float], set[float]] = defaultdict(set)
        for x, bottom, top in vertical_rules(page):
            lines[round(bottom, 2), round(top, 2)].add(round(x, 2))
        found = []
        for (bottom, top), xs in lines.items():
            xs = sorted(xs)
            boxes: list[tuple] = []
            for left, right in pairwise(xs):
                inside = tuple(w[:2] + w[3:] for w in words
                               if bottom < w[2] < top and left < (w[0] + w[1]) / 2 < right)
                if inside:
                    boxes.append((left, right, inside))
                elif boxes:  # (the gap between two cards side by side on the sheet)
                    found.append((bottom, top, tuple(boxes)))
                    boxes = []
            if boxes:
                found.append((bottom, top, tuple(boxes)))
        pages.append(tuple(found))
    return tuple(pages)


def _value_lines(pages):
    """The stat band lines of values of each page: those with a string at the page's stat size
    (the largest in any box), as (top, boxes, that size, the line of labels over them)."""
    for lines in pages:
        sizes = [w[2] for _, _, boxes in lines for _, _, inside in boxes for w in inside]
        if not sizes:
            continue
        stat = max(sizes)
        for _, top, boxes in lines:
            if any(abs(w[2] - stat) < 0.01 for _, _, inside in boxes for w in inside):
                over = [b for low, _, b in lines if abs(low - top) < 0.05 and
                        [(x0, x1) for x0, x1, _ in b] == [(x0, x1) for x0, x1, _ in boxes]]
                yield top, boxes, stat, over


def _export(sample_cards, sample: str, size: str) -> Path:
    return sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False)).path


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", SAMPLE_NAMES)
def test_every_stat_label_keeps_room_from_its_box_lines(sample_cards, sample, size):
    """A band's labels stand clear of their box's lines too, at least 1.2 pt each side (For the
    Masses' bold "Mv", "Def" and "ME" were 1 pt off them on poker, and read as touching them)."""
    checked = 0
    for _, boxes, _, over in _value_lines(_cells(_export(sample_cards, sample, size))):
        for left, right, inside in over[0] if over else ():
            for w in inside:
                assert w[0] - (left + LINE / 2) >= 1.2 - 0.02, (w[3], round(w[0] - left - LINE / 2, 2))
                assert (right - LINE / 2) - w[1] >= 1.2 - 0.02, (w[3], round(right - LINE / 2 - w[1], 2))
                checked += 1
    if not sample.startswith("heroic_gods_warning") and not sample.endswith("INVALID_unrated_figure"):
        assert checked >= 3


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", SAMPLE_NAMES)
def test_every_stat_value_keeps_room_from_its_box_lines(sample_cards, sample, size):
    """Every stat value (with a qualifier beside or under it) stands at least 1.5 pt and 15% of its
    size clear of its box's lines on each side (For the Masses' "2d6" and "7+" were 1.5 pt off
    their lines at 12.35 pt on poker, LEGO's "+1" 3.7 pt at 33.75 pt on A6)."""
    checked = 0
    for _, boxes, stat, _ in _value_lines(_cells(_export(sample_cards, sample, size))):
        need = room_for(stat) - 0.02
        for left, right, inside in boxes:
            if not any(abs(w[2] - stat) < 0.01 for w in inside):
                continue  # (a mixed unit's column of figure names)
            x0, x1 = min(w[0] for w in inside), max(w[1] for w in inside)
            text = " ".join(w[3] for w in inside)
            assert x0 - (left + LINE / 2) >= need, (text, stat, round(x0 - left - LINE / 2, 2), round(need, 2))
            assert (right - LINE / 2) - x1 >= need, (text, stat, round(right - LINE / 2 - x1, 2), round(need, 2))
            checked += 1
    if not sample.startswith("heroic_gods_warning") and not sample.endswith("INVALID_unrated_figure"):
        assert checked >= 3


def _bands(pdf: Path):
    """Each stat band of each page: its lines of values (one per line of boxes, a mixed unit's
    further rows left out), each with its labels' line; and whether its values are condensed."""
    for page in _cells(pdf):
        lines = sorted(_value_lines((page,)), key=lambda x: -x[0])
        chains: list[list] = []
        for top, boxes, stat, over in lines:
            xs = [(x0, x1) for x0, x1, _ in boxes]
            # (the band's line above: on the same card, a few lines up)
            chain = next((c for c in chains if abs(c[-1][1][0][0] - boxes[0][0]) < 0.3
                          and abs(c[-1][1][-1][1] - boxes[-1][1]) < 0.3 and c[-1][0] - top < 80), None)
            if chain is None:
                chains.append([(top, boxes, stat, over)])
            elif xs != [(x0, x1) for x0, x1, _ in chain[-1][1]]:  # (not another row of the same boxes)
                chain.append((top, boxes, stat, over))
        for chain in chains:
            stat = chain[0][2]
            yield chain, any(w[4] == COND_BOLD for _, boxes, _, _ in chain for _, _, inside in boxes
                             for w in inside if abs(w[2] - stat) < 0.01)


def _columns(chain, sample: str, low: float):
    """A band's columns as the regular bold face needs them at the smallest value size ``low``:
    (label, its longest word with its padding; the value with the room each side; a qualifier with
    that room), and the width of a column of figure names (it stays as it is, on every line)."""
    pad = 2 * (room_for(low) + LINE / 2)
    stat = chain[0][2]
    columns, fixed = [], 0.0
    for _, boxes, _, over in chain:
        labels = over[0] if over else [(0, 0, ())] * len(boxes)
        fixed = 0.0
        for (left, right, inside), (_, _, heading) in zip(boxes, labels):
            heads = [w for w in inside if abs(w[2] - stat) < 0.01]
            if not heads:
                fixed += right - left
                continue
            value = max(stringWidth(w[3], BOLD if w[4] == COND_BOLD else w[4], low) for w in heads)
            tails = max([w[1] - w[0] for w in inside if abs(w[2] - stat) >= 0.01] or [0.0])
            label = max([stringWidth(word, BOLD, w[2]) + 2 * label_pad(sample, w[2]) for w in heading
                         for word in w[3].split()] or [0.0])
            columns.append((" ".join(w[3] for w in heading), label, value + pad, tails + pad if tails else 0.0))
    return columns, fixed


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", SAMPLE_NAMES)
def test_values_are_not_grown_into_the_condensed_face(sample_cards, sample, size):
    """A stat band in the condensed face is one that the regular bold face would set on more lines
    with that room even at the card size's smallest values: growth stops while the regular face
    still fits (Iron Vanguard's "1d6" was set condensed at 28.75 pt on tarot, where the band holds
    it in the regular face at a smaller size); the other bands of its export follow the one that needs
    it. The bands of one set of columns are set alike, each column as wide as the export's widest
    value in it."""
    low = card_size(size).stat
    pdf = _export(sample_cards, sample, size)
    widest: dict[tuple, list[float]] = {}
    chains = []
    for chain, condensed in _bands(pdf):
        columns, fixed = _columns(chain, sample, low)
        key = tuple(c[0] for c in columns) if not fixed else (id(chain),)
        needs = [max(c[1:]) for c in columns]
        widest[key] = [max(a, b) for a, b in zip(widest.get(key, needs), needs)]
        if condensed:
            chains.append((chain, key, fixed))
    needed = []  # (when one band of the export takes the condensed face, every band does: one needs it)
    for chain, key, fixed in chains:
        needs = widest[key]
        width = chain[0][1][-1][1] - chain[0][1][0][0] - fixed
        lines, used = 1, 0.0
        for w in needs:  # (in order, as few lines as hold them)
            if used and used + w > width + 0.01:
                lines, used = lines + 1, 0.0
            used += w
        stat = chain[0][2]
        values = [w[3] for _, boxes, _, _ in chain for _, _, inside in boxes for w in inside
                  if abs(w[2] - stat) < 0.01]
        needed.append((lines > len(chain), str((values, stat, len(chain), [round(w, 1) for w in needs],
                                                round(width, 1)))))
    assert not needed or any(ok for ok, _ in needed), needed
