"""A card PDF's drawing read back: each operation of a page's content stream with the graphics state
it runs in, for the tests that check where lines, boxes and strings land on a card."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from pypdf.generic import ContentStream

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def times(m: Matrix, n: Matrix) -> Matrix:
    """The matrix ``m`` then ``n`` (PDF's row-vector order: ``m x n``)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


@dataclass(frozen=True)
class State:
    """The graphics state an operation runs in: the transformation (cm), the stroke colour (RG),
    line width (w) and fill colour (rg, which text is drawn in) set by the operations before it, as
    q and Q save and restore them."""

    ctm: Matrix = IDENTITY
    stroke: tuple[float, ...] = ()
    width: float = 1.0
    fill: tuple[float, ...] = (0.0, 0.0, 0.0)

    def point(self, x: float, y: float) -> tuple[float, float]:
        """A point of the operation's own space on the page."""
        a, b, c, d, e, f = self.ctm
        return a * x + c * y + e, b * x + d * y + f

    @property
    def scale(self) -> float:
        """How much a length of the operation's space grows on the page (the cards are not
        rotated or skewed, so one number)."""
        return self.ctm[3]


def operations(page) -> Iterator[tuple[bytes, list[Any], State]]:
    """Each operation of the page with its operands and the state it runs in (q, Q, cm, RG and w
    themselves are followed, and given too)."""
    state, saved = State(), []
    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"q":
            saved.append(state)
        elif op == b"Q":
            state = saved.pop()
        elif op == b"cm":
            state = replace(state, ctm=times(tuple(float(v) for v in operands), state.ctm))
        elif op == b"RG":
            state = replace(state, stroke=tuple(round(float(v), 3) for v in operands))
        elif op == b"w":
            state = replace(state, width=float(operands[0]))
        elif op == b"rg":
            state = replace(state, fill=tuple(round(float(v), 3) for v in operands))
        yield op, operands, state


def fills(page) -> Iterator[tuple[float, float, float, float, tuple[float, ...]]]:
    """Each filled shape (a rectangle, or a path such as a rounded one) as the box around it:
    (left, bottom, right, top) on the page, and its fill colour."""
    points: list[tuple[float, float]] = []
    for op, operands, state in operations(page):
        v = [float(x) for x in operands] if op in (b"m", b"l", b"c", b"re") else []
        if op == b"re":
            x, y, w, h = v
            points += [state.point(x, y), state.point(x + w, y + h)]
        elif v:
            points += [state.point(v[k], v[k + 1]) for k in range(0, len(v), 2)]
        elif op in (b"f", b"f*", b"B", b"B*", b"b", b"b*") and points:
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            yield min(xs), min(ys), max(xs), max(ys), state.fill
            points = []
        elif op in (b"n", b"S", b"s"):
            points = []


def segments(page) -> Iterator[tuple[tuple[float, float], tuple[float, float], State]]:
    """The page's lines drawn from a move (m) to a line (l): their two ends in the operation's own
    space, and the state they are stroked in."""
    start = None
    for op, operands, state in operations(page):
        if op == b"m":
            start = (float(operands[0]), float(operands[1]))
        elif op == b"l" and start is not None:
            yield start, (float(operands[0]), float(operands[1])), state
            start = None


def horizontal_rules(page, longer_than: float = 5.0) -> Iterator[tuple[float, float, float, State]]:
    """The page's horizontal lines: (left, right, height) on the page, and the state they are
    stroked in; lines of ``longer_than`` points or shorter are left out (a box's side, a tick)."""
    for (x0, y0), (x, y), state in segments(page):
        if abs(y - y0) < 0.01 and abs(x - x0) > longer_than:
            (x1, y1), (x2, _) = state.point(x0, y0), state.point(x, y)
            yield min(x1, x2), max(x1, x2), y1, state


def squares(page) -> Iterator[tuple[float, float, float]]:
    """The squares the page draws as rectangles (re): the boxes to tick, as (left, bottom, side)."""
    for op, operands, state in operations(page):
        if op == b"re":
            x, y, w, h = (float(v) for v in operands)
            if abs(w - h) < 0.01:
                left, bottom = state.point(x, y)
                yield left, bottom, w * state.scale


def rectangles(page) -> Iterator[tuple[float, float, float, float]]:
    """The rectangles the page draws (re), square or not, as (left, bottom, width, height) on the page."""
    for op, operands, state in operations(page):
        if op == b"re":
            x, y, w, h = (float(v) for v in operands)
            left, bottom = state.point(min(x, x + w), min(y, y + h))
            yield left, bottom, abs(w) * state.scale, abs(h) * state.scale


def vertical_rules(page) -> Iterator[tuple[float, float, float]]:
    """The page's vertical lines: (x, bottom, top) on the page."""
    for (x0, y0), (x, y), state in segments(page):
        if abs(x - x0) < 0.01 and abs(y - y0) > 0.01:
            (x1, y1), (_, y2) = state.point(x0, y0), state.point(x, y)
            yield x1, min(y1, y2), max(y1, y2)
