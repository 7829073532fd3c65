"""Composition limits as bars, coloured by state: heroes 23% of a 25% cap."""

from __future__ import annotations

from fractions import Fraction

from rich.text import Text
from textual.widgets import Static

from ...editing.document import Document
from ...engine.validation import LimitState
from ...rules.numbers import fmt, fmt_pct
from .lines import ByWidth

BLOCKS = " ▏▎▍▌▋▊▉█"


def bar(fill: Fraction, width: int, style: str) -> Text:
    fill = max(Fraction(0), min(Fraction(1), fill))
    eighths = int(fill * width * 8)
    full, part = divmod(eighths, 8)
    text = Text("█" * full, style=style)
    if full < width:
        text.append(BLOCKS[part] if part else " ", style=style)
        text.append("·" * (width - full - 1), style="dim")
    return text


def show_value(state: LimitState, value) -> str:
    if value is None:
        return "-"
    return fmt_pct(Fraction(value), 1) if state.show_as == "percent" else fmt(value)


def limit_style(state: LimitState) -> tuple[str, str]:
    """(style, word) for a limit's state."""
    if not state.ok:
        return ("bold red", "over") if state.severity == "error" else ("yellow", "warning")
    if state.value is not None and state.at_most:
        if Fraction(state.value) >= Fraction(state.at_most) * Fraction(9, 10):
            return "yellow", "near"
    return "green", "ok"


class CompositionPanel(Static):
    """One line per limit of the ruleset: label, bar, value against its bound (made to the
    panel's width: nothing to wrap)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(ByWidth(self.lines), id=id)
        self.border_title = "Composition"
        self.session: Document | None = None
        self._key: object = None
        self._label_width = 16
        self._count = 0  # the lines shown

    def show(self, session: Document) -> None:
        self.session = session
        key = (tuple(session.validation.limits), session.report.total, session.report.limit)
        if key != self._key:
            self._key = key
            # a line a limit (see lines()), never wrapped: the height changes with their number alone
            limit = session.report.limit
            count = max(1, bool(limit) + sum(1 for st in session.validation.limits
                                             if not (st.id == "points-limit" and limit)))
            self.update(ByWidth(self.lines), layout=count != self._count)
            self._count = count

    @property
    def plain(self) -> str:
        """What the panel says (at the width it is drawn at)."""
        return self.lines(self.content_region.width).plain

    def lines(self, width: int) -> Text:
        """The panel's lines at a width."""
        s = self.session
        if s is None:
            return Text("")
        width = max(20, width or 40)
        self._label_width = max([6] + [len(st.label) + 1 for st in s.validation.limits])
        out = Text(overflow="fold")  # (a label wider than the panel is wrapped, never cut)
        report = s.report
        lines = []
        if report.limit:
            used = Fraction(report.total) / Fraction(report.limit)
            style = "green" if used <= 1 else "bold red"
            lines.append(self._line(s.rs.data.points_label.capitalize(), used, f"{fmt(report.total)}/{fmt(report.limit)}", style, width))
        for state in s.validation.limits:
            if state.id == "points-limit" and report.limit:
                continue
            lines.append(self._state_line(state, width))
        if not lines:
            lines.append(Text("This ruleset sets no composition limits.", style="dim"))
        for i, line in enumerate(lines):
            if i:
                out.append("\n")
            out.append_text(line)
        return out

    def _line(self, label: str, fill: Fraction, right: str, style: str, width: int) -> Text:
        label_w = min(self._label_width, max(8, width * 2 // 5))
        right_w = max(len(right), 10)
        bar_w = max(4, width - label_w - right_w - 2)
        text, label_style = Text(), "bold" if style != "green" else ""
        if len(label) > label_w:  # a long label stands whole on lines of its own, the bar under it
            text.append(label + "\n", style=label_style)
            label = ""
        text.append(label.ljust(label_w), style=label_style)
        text.append_text(bar(fill, bar_w, style))
        text.append(" " + right.rjust(right_w), style=style)
        return text

    def _state_line(self, state: LimitState, width: int) -> Text:
        style, _ = limit_style(state)
        if state.value is None or (state.at_most is None and state.at_least is None):
            return self._check_line(state, style, width)
        value = Fraction(state.value)
        if state.at_most is not None:
            bound = Fraction(state.at_most)
            fill = value / bound if bound else Fraction(1)
            right = f"{show_value(state, state.value)} ≤{show_value(state, state.at_most)}"
        else:
            bound = Fraction(state.at_least)  # type: ignore[arg-type]
            fill = value / bound if bound else Fraction(1)
            right = f"{show_value(state, state.value)} ≥{show_value(state, state.at_least)}"
        return self._line(state.label, fill, right, style, width)

    def _check_line(self, state: LimitState, style: str, width: int) -> Text:
        """A rule that holds or not (no measure to draw): a mark, no bar."""
        if state.ok:
            right = Text("✔ ok", style="green")
        elif state.show_as == "number" and state.value:
            n = state.value
            right = Text(f"✘ {fmt(n)} unit{'s' if n != 1 else ''}", style=style)
        else:
            right = Text("✘ broken", style=style)
        label_w = max(8, width - right.cell_len - 1)
        text = Text(state.label, style="bold" if not state.ok else "")
        if len(state.label) > label_w:  # a long label stands whole; the mark goes under its end
            text.append("\n")
            text.append(" " * max(0, width - right.cell_len))
        else:
            text.append(" " * (width - len(state.label) - right.cell_len))
        text.append_text(right)
        return text
