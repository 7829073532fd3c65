"""Play: a game at the table. Each side's units with what the ruleset has a player track
(wounds per figure or element, casualties, a die track, checks, counters), marked with one
key or a click; the victory points live, and what the marks change, each with its rule.

Nothing is worked out here: the game (rosterkit.editing.play) marks, scores, undoes and saves;
the screen asks it and redraws. Every text shown comes from roster or ruleset files and goes
through rosterkit.visible.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static, TabbedContent, TabPane
from textual.widgets.option_list import Option

from ...editing.play import Game, MarkRef, PlayUnit, Side, TrackerState
from ...errors import RosterkitError
from ...rules.numbers import fmt
from ...visible import plain, visible
from .. import messages

MARKED, EMPTY = "■", "□"
GROUP = 5  # boxes in a group, so that a long row can be counted at a glance


@dataclass(frozen=True)
class Cursor:
    """What a line of the list marks: one cell (a figure's row, a check's item, a die, a counter),
    or a whole tracker of one box a figure, marked in order (``in_order``)."""

    ref: MarkRef
    in_order: bool = False


def boxes(marked: int, size: int, half: int = 0) -> Text:
    """``size`` boxes, ``marked`` of them ticked, in groups (a ¦ where half strength begins)."""
    text = Text()
    for i in range(size):
        if i and half and i == half:
            text.append("¦", style="yellow")
        elif i and i % GROUP == 0:
            text.append(" ")
        text.append(MARKED if i < marked else EMPTY, style="bold red" if i < marked else "")
    return text


def die_track(t: TrackerState) -> Text:
    """The die track as the card prints it: the dice left behind struck through, the die the
    figure rolls now highlighted (each hit moves it one step on; a hit at the last removes it)."""
    text = Text()
    for i, step in enumerate(t.steps):
        if i:
            text.append(" ")
        if i == t.total:
            text.append(f" {visible(step)} ", style="bold reverse")
        elif i < t.total:
            text.append(visible(step), style="dim strike")
        else:
            text.append(visible(step))
    if t.total >= len(t.steps):
        text.append("  removed", style="bold red")
    return text


def _label(t: TrackerState, row: int | None = None) -> Text:
    text = Text("  ")
    text.append_text(plain(t.label, "bold"))
    if t.who:
        text.append(" · ")
        text.append_text(plain(t.who))
    if row is not None:
        text.append(" · ")
        text.append_text(plain(f"{t.row_label} {row + 1}" if t.row_label else f"#{row + 1}"))
    return text


def tracker_lines(t: TrackerState) -> list[tuple[Text, Cursor]]:
    """The lines of one tracker in the list, and what each marks."""
    if t.kind == "boxes":
        if t.tally:  # as the card: the number to keep count of, not thousands of boxes
            line = _label(t)
            line.append(f"  {t.total} of {t.per_row} (a tally: too many boxes to draw)",
                        style="bold red" if t.total else "")
            return [(line, Cursor(t.ref))]
        if t.per_row == 1 and t.rows > 1:  # a box a figure: one line, marked in order
            line = _label(t)
            line.append("  ")
            line.append_text(boxes(t.total, t.rows, t.half))
            return [(line, Cursor(t.ref, in_order=True))]
        out = []
        for r in range(t.rows):
            line = _label(t, r if t.rows > 1 else None)
            line.append("  ")
            line.append_text(boxes(t.values[r], t.per_row, t.half if t.rows == 1 else 0))
            if t.values[r] >= t.per_row > 1:
                line.append(" ✗", style="bold red")
            out.append((line, Cursor(t.cell(row=r))))
        return out
    if t.kind == "die":
        line = _label(t)
        line.append("  ")
        line.append_text(die_track(t))
        return [(line, Cursor(t.ref))]
    if t.kind == "check":
        if not t.items:
            line = _label(t)
            line.append("  ")
            line.append("☒" if t.total else "☐", style="bold red" if t.total else "")
            return [(line, Cursor(t.ref))]
        out = []
        for i, item in enumerate(t.items):
            line = _label(t)
            line.append(" · ")
            line.append_text(plain(item))
            line.append("  ")
            line.append("☒" if t.values[i] else "☐", style="bold red" if t.values[i] else "")
            out.append((line, Cursor(t.cell(item=i))))
        return out
    line = _label(t)
    line.append("  ")
    line.append(str(t.total), style="bold red" if t.total else "")
    return [(line, Cursor(t.ref))]


class PlayScreen(Screen):
    """A game at the table: marks, turns and victory points, saved as they change."""

    DEFAULT_CSS = """
    PlayScreen TabbedContent { height: 1fr; }
    PlayScreen TabPane { padding: 0; height: 1fr; }
    PlayScreen .play-body { height: 1fr; }
    PlayScreen .play-list, PlayScreen .play-list:focus { width: 1fr; height: 1fr; border: none; padding: 0; }
    PlayScreen .play-aside { width: 34%; min-width: 24; max-width: 60; height: 1fr;
                             border-left: solid $primary-darken-2; padding: 0 1; }
    PlayScreen .play-aside Static { width: 1fr; }
    """

    BINDINGS = [
        Binding("space,plus,enter", "mark(1)", "Mark", id="play.mark",
                tooltip="Mark one: a wound, a casualty, a step of the die, a check (a click does it too)"),
        # the footer fits 60 columns: Undo takes the last mark off, F1 gives the key for any other
        Binding("minus,backspace", "mark(-1)", "Unmark", show=False, id="play.unmark", tooltip="Take one mark off"),
        Binding("x", "whole", "Whole", show=False, id="play.whole",
                tooltip="Tick all of a figure's or element's boxes at once, or clear them"),
        Binding("u,ctrl+z", "undo", "Undo", id="play.undo", tooltip="Undo the last mark or turn"),
        Binding("ctrl+y", "redo", "Redo", show=False, id="play.redo", tooltip="Redo what was undone"),
        Binding("t", "turn(1)", "Turn", id="play.next_turn", tooltip="The next turn"),
        Binding("T,shift+t", "turn(-1)", "Turn back", show=False, id="play.previous_turn"),
        Binding("s,left,right", "other_side", "Side", id="play.other_side",
                tooltip="Show the other side's units"),
        Binding("q,escape", "close", "Close", id="play.close",
                tooltip="Leave the game (it is saved as it goes: play it again to resume)"),
    ]

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        self.cursors: dict[int, list[Cursor | None]] = {}  # per side: what each line of its list marks

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        with TabbedContent(id="play-sides"):
            for side in self.game.sides:
                with TabPane(self._tab_title(side), id=f"side-{side.index}"):
                    with Horizontal(classes="play-body"):
                        yield OptionList(id=f"play-list-{side.index}", classes="play-list")
                        with VerticalScroll(classes="play-aside", id=f"play-aside-{side.index}"):
                            yield Static("", id=f"play-info-{side.index}", markup=False)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.redraw()
        self.query_one("#play-list-0", OptionList).focus()

    # ------------------------------------------------------------ drawing

    @property
    def side(self) -> int:
        active = self.query_one("#play-sides", TabbedContent).active
        return int(active.removeprefix("side-")) if active else 0

    def _tab_title(self, side: Side) -> Content:
        score = self.game.score(side.index)
        title = visible(side.name)
        if score.scored and len(self.game.sides) == 2:
            title += f" · {fmt(score.total)} VP"
        return Content(title)

    def redraw(self) -> None:
        """Every side's list, score and the header, from the game as it is now."""
        sides = self.game.sides
        names = " against ".join(visible(s.name) for s in sides)
        self.title = names
        self.sub_title = f"turn {fmt(self.game.turn)}"
        tabs = self.query_one("#play-sides", TabbedContent)
        for side in sides:
            tabs.get_tab(f"side-{side.index}").label = self._tab_title(side)
            self._fill(side)
            self._info(side)

    def _fill(self, side: Side) -> None:
        options: list[Option] = []
        cursors: list[Cursor | None] = []

        def line(prompt, cursor: Cursor | None) -> None:
            options.append(Option(prompt, disabled=cursor is None))
            cursors.append(cursor)

        if side.army:
            line(Text("Army", style="bold underline"), None)
            for t in side.army:
                for prompt, cursor in tracker_lines(t):
                    line(prompt, cursor)
        for unit in side.units:
            line(self._unit_head(unit), None)
            # a mixed unit's trackers by kind of figure, then the unit's own
            for t in sorted(unit.trackers, key=lambda t: (t.ref.kind is None, t.ref.kind or 0)):
                for prompt, cursor in tracker_lines(t):
                    line(prompt, cursor)
            for problem in unit.problems:
                line(plain(f"  cannot be worked out: {problem}", "red"), None)
            for e in self.game.effects(side.index, unit.index):
                effect = Text("  ▸ ", style="yellow")
                effect.append_text(plain(e.text, "yellow"))
                effect.append("\n    ")
                effect.append_text(plain(e.rule, "dim italic"))
                if e.reading:
                    effect.append("\n    ")
                    effect.append_text(plain(f"reading: {e.reading}", "dim"))
                line(effect, None)
        lst = self.query_one(f"#play-list-{side.index}", OptionList)
        keep = lst.highlighted
        lst.set_options(options)
        self.cursors[side.index] = cursors
        if keep is not None and keep < len(cursors) and cursors[keep] is not None:
            lst.highlighted = keep
        else:
            lst.highlighted = next((i for i, c in enumerate(cursors) if c is not None), None)

    def _unit_head(self, unit: PlayUnit) -> Text:
        head = plain(unit.name, "bold")
        if unit.type_name:
            head.append("  ")
            head.append_text(plain(unit.type_name, "dim"))
        if len(unit.kinds) > 1:
            head.append("  ")
            head.append_text(plain(", ".join(f"{k.count}x {k.name}" for k in unit.kinds), "dim"))
        elif unit.kinds and unit.kinds[0].count > 1:
            head.append(f"  x{unit.kinds[0].count}", style="dim")
        if not unit.trackers:
            head.append("  nothing to track", style="dim italic")
        return head

    def _info(self, side: Side) -> None:
        """The side's victory points with their rules, and what the line chosen means."""
        game = self.game
        score = game.score(side.index)
        parts: list[Text] = [Text(f"Turn {game.turn}", style="bold")]
        if score.scored:
            head = Text(f"{fmt(score.total)} victory points", style="bold green")
            if len(game.sides) == 2:
                head.append_text(plain(f" from the losses of {game.sides[score.losses_of].name}", "dim"))
            else:
                head.append(" its losses give the opponent", style="dim")
            parts.append(head)
            for sl in score.lines:
                parts.append(plain(f"  {sl.what}: {sl.unit} {fmt(sl.points)}"))
            for what, rule in {sl.what: sl.rule for sl in score.lines}.items():
                parts.append(plain(f"{what}: {rule}", "dim italic"))
        for problem in score.problems:
            parts.append(plain(f"cannot be worked out: {problem}", "red"))
        if score.note:
            parts.append(plain(score.note, "dim"))
        tracker = self._tracker_at(side.index)
        if tracker is not None and (tracker.note or tracker.item_notes):
            parts.append(Text(""))
            about = plain(tracker.label, "bold")
            if tracker.note:
                about.append(": ")
                about.append_text(plain(tracker.note))
            parts.append(about)
            cursor = self._cursor(side.index)
            if tracker.kind == "check" and tracker.item_notes and cursor is not None:
                note = tracker.item_notes[cursor.ref.item] if cursor.ref.item < len(tracker.item_notes) else ""
                if note:
                    parts.append(plain(note, "dim"))
        info = Text()
        for i, part in enumerate(parts):
            if i:
                info.append("\n")
            info.append_text(part)
        self.query_one(f"#play-info-{side.index}", Static).update(info)

    # ------------------------------------------------------------ what the keys mark

    def _cursor(self, side: int | None = None) -> Cursor | None:
        side = self.side if side is None else side
        lst = self.query_one(f"#play-list-{side}", OptionList)
        cursors = self.cursors.get(side, [])
        i = lst.highlighted
        return cursors[i] if i is not None and i < len(cursors) else None

    def _tracker_at(self, side: int) -> TrackerState | None:
        cursor = self._cursor(side)
        return self.game.tracker(cursor.ref) if cursor is not None else None

    def _change(self, change) -> None:
        """Make a change through the game (which saves it), then redraw; a save that fails is said."""
        try:
            change()
        except RosterkitError as exc:
            self.notify(str(exc), title="Not saved", severity="error", timeout=10)
        self.redraw()

    def action_mark(self, delta: int) -> None:
        cursor = self._cursor()
        if cursor is None:
            return
        ref = cursor.ref
        if cursor.in_order:  # the next figure's box, or the last one ticked
            t = self.game.tracker(ref)
            cells = t.cells()
            if delta > 0:
                ref = next((c for c in cells if t.value(c) < t.bound()), None)
            else:
                ref = next((c for c in reversed(cells) if t.value(c) > 0), None)
            if ref is None:
                return
        self._change(lambda: self.game.step(ref, delta))

    @on(OptionList.OptionSelected)
    def _clicked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_mark(1)

    @on(OptionList.OptionHighlighted)
    def _moved(self, event: OptionList.OptionHighlighted) -> None:
        cursors = self.cursors.get(self.side, [])
        if not any(cursors[event.option_index + 1:]):  # the last line to mark: what is under it comes into view
            event.option_list.scroll_end(animate=False)
        self._info(self.game.sides[self.side])

    def action_whole(self) -> None:
        cursor = self._cursor()
        if cursor is None:
            return
        if cursor.in_order:
            self.action_mark(1)
            return
        t = self.game.tracker(cursor.ref)
        value = self.game.value(cursor.ref)
        self._change(lambda: self.game.mark(cursor.ref, 0 if value >= t.bound() else t.bound()))

    def action_undo(self) -> None:
        if not self.game.can_undo:
            self.notify("Nothing to undo", timeout=2)
            return
        self._change(self.game.undo)

    def action_redo(self) -> None:
        if not self.game.can_redo:
            self.notify("Nothing to redo", timeout=2)
            return
        self._change(self.game.redo)

    def action_turn(self, delta: int) -> None:
        self._change(self.game.next_turn if delta > 0 else self.game.prev_turn)

    def action_other_side(self) -> None:
        sides = len(self.game.sides)
        if sides < 2:
            return
        tabs = self.query_one("#play-sides", TabbedContent)
        tabs.active = f"side-{(self.side + 1) % sides}"

    @on(TabbedContent.TabActivated)
    def _side_shown(self, event: TabbedContent.TabActivated) -> None:
        self.query_one(f"#play-list-{self.side}", OptionList).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not (action == "other_side" and len(self.game.sides) < 2)

    def action_close(self) -> None:
        self.post_message(messages.LeavePlay(self))
