"""One field of a stat line: a label, a control that fits the stat's kind, a note beside it and
a message under it.

Numbers are typed into an input checked against the stat's bounds (a Textual validator); a
die type is a choice of the ruleset's dice; a flag is a switch; a choice is a select;
several choices are a selection list. A value that does not fit is shown under the field,
marked as not applied, and never sent on: the roster keeps its last valid value.

Every value sent carries the control's text (or choice) it was read from, and counts only
while the control still shows it: a message that arrives after the player typed on, or
after the field was shown another value (undo, another unit), is out of date and dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.validation import ValidationResult, Validator
from textual.widget import Widget
from textual.widgets import Input, Label, Select

from ...rules.schema import StatDef
from ...rules.stats import coerce, expected, kind_of
from ...visible import plain
from .lines import ByWidth
from .ordered_input import OrderedInput


def parse_raw(stat: StatDef, text: str) -> tuple[object | None, str | None]:
    """Text typed by the player -> (value as the roster file stores it, problem).

    An empty field is None: the default (or the catalogue figure's value) applies.
    """
    if not text.strip():
        return None, None
    kind = kind_of(stat)
    raw = kind.from_input(stat, text)
    value, problem = kind.coerce(stat, raw)
    if problem:
        return None, problem
    return kind.stored(stat, raw, value), None


class StatValidator(Validator):
    """An input's text checked as the stat reads it (kind and bounds)."""

    def __init__(self, stat: StatDef) -> None:
        super().__init__()
        self.stat = stat

    def validate(self, value: str) -> ValidationResult:
        problem = parse_raw(self.stat, value)[1]
        return self.failure(problem, value) if problem else self.success()


def text_of(stat: StatDef, value: object) -> str:
    """A value (raw or coerced) as it reads in an input."""
    return "" if value is None else kind_of(stat).input_text(stat, value)


def fitted_note(note: str, room: int) -> Text:
    """A note for the room beside a value: whole when it fits, else with "from the figure" said
    as "figure" (the bounds after it stay in view), else cut with an ellipsis."""
    for text in (note, note.replace("from the figure", "figure")):
        if len(text) < room:
            return Text(f" {text}")
    line = Text(f" {note.replace('from the figure', 'figure')}", no_wrap=True, overflow="ellipsis")
    line.truncate(room, overflow="ellipsis")
    return line


class StatField(Widget):
    """A labelled editor for one stat."""

    LABEL_WIDTH = 14  # (when not given)

    @dataclass
    class Changed(Message):
        """The player entered a valid value (None: cleared, the default applies)."""

        stat_field: "StatField"
        stat_id: str
        raw: object | None
        token: object = None  # what the control showed when the value was read

        @property
        def current(self) -> bool:
            """The control still shows what this value was read from."""
            return self.stat_field.shows(self.token)

        @property
        def control(self) -> "StatField":
            return self.stat_field

    def __init__(self, stat: StatDef, *, id: str | None = None, classes: str | None = None,
                 label: str | None = None, placeholder: str = "", label_width: int | None = None,
                 apply_empty_on_leave: bool = False) -> None:
        super().__init__(id=id, classes=f"-kind-{stat.kind} {classes or ''}".strip())
        self.stat = stat
        self._label = label or stat.label
        self._placeholder = placeholder
        self._label_width = label_width or self.LABEL_WIDTH
        self._note = ""
        self.locked = False
        self._message: str | None = None
        # an emptied field (the default or the figure's value then applies) is applied when the
        # player leaves it, not while retyping it
        self.apply_empty_on_leave = apply_empty_on_leave
        self._applied: object | None = None  # the value the roster has, as last shown or sent
        self._showing = False  # a value is being shown (not typed): nothing is sent
        self._unapplied: str | None = None  # why the text in the control is not applied
        self._control_kind = kind_of(stat).control  # select, switch, multiselect, or an input
        self._quiet: tuple[type[Message], ...] = (Input.Changed, Select.Changed)  # not sent while showing
        # who takes the values at once, as they are typed (None: they are posted as Changed messages)
        self.receiver: Callable[[StatField.Changed], None] | None = None

    # ------------------------------------------------------------ building

    def compose(self) -> ComposeResult:
        one_line = self._control_kind not in ("multiselect",)  # (a selection list takes several lines)
        with Horizontal(classes="stat-row -one-line" if one_line else "stat-row"):
            label = Label(Text(self._label), classes="stat-label")
            label.styles.width = self._label_width
            yield label
            yield from self._control()
            yield Label(classes="stat-note")
        # the message under the value is made when there is first something to say

    def _control(self) -> ComposeResult:
        s = self.stat
        kind = kind_of(s)
        if kind.control == "select":
            yield Select([(Text(text), v) for text, v in kind.options(s)], allow_blank=True,
                         compact=True, classes="field-control", prompt="-")
        elif kind.control == "switch":  # (imported when a stat needs it, as a few rulesets do)
            from textual.widgets import Switch

            self._quiet += (Switch.Changed,)
            yield Switch(classes="field-control")
        elif kind.control == "multiselect":
            from textual.widgets import SelectionList

            self._quiet += (SelectionList.SelectedChanged,)
            yield SelectionList(*[(Text(text), v) for text, v in kind.options(s)], compact=True,
                                classes="field-control")
        else:
            yield OrderedInput(placeholder=self._placeholder, compact=True, classes="field-control",
                               validators=[StatValidator(s)], validate_on=["changed"])

    @property
    def control(self) -> Widget:
        return self.query_one(".field-control")

    def on_mount(self) -> None:
        control = self.control
        if isinstance(control, Input):
            # read as the text is set, in the same turn as the key that typed it: the edit reaches
            # the screen ahead of the input's own repaint, and the two are painted in one frame
            self.watch(control, "value", self._typed, init=False)
        self.control.tooltip = plain(self._help(), newlines=True)
        self.tooltip = plain(self.stat.label)  # (the label may be cut short)
        note, message = self._note, self._message  # (set before the field was mounted)
        self._note, self._message = "", None
        self.set_note(note)
        self.set_message(message)

    def _help(self) -> str:
        s = self.stat
        bits = [s.description] if s.description else []
        if kind_of(s).explained:
            bits.append(f"Expects {expected(s)}.")
        if s.entry_note:
            bits.append(s.entry_note)
        return " ".join(bits) or s.label

    # ------------------------------------------------------------ showing a value

    def show(self, raw: object | None, inherited: object | None = None, note: str = "",
             locked: bool = False) -> None:
        """Show a value without sending Changed. ``raw`` is what the roster enters,
        ``inherited`` what applies when it enters nothing."""
        s = self.stat
        control = self.control
        value = raw if raw is not None else inherited
        self._applied = raw
        self._unapplied = None
        self.remove_class("-unapplied")
        with self.prevent(*self._quiet):  # (shown, not typed: nothing is sent)
            if isinstance(control, Input):
                text = text_of(s, raw if raw is not None else inherited)
                if control.value != text:
                    self._showing = True
                    try:
                        control.value = text
                    finally:
                        self._showing = False
                shown = text_of(s, inherited) if inherited is not None else ""
                control.placeholder = self._placeholder or shown
            elif isinstance(control, Select):
                coerced = coerce(s, value)[0] if value is not None else None
                if coerced is None:
                    control.clear()
                elif control.value != coerced:
                    control.value = coerced
            elif self._control_kind == "switch":
                control.value = bool(value)
            elif self._control_kind == "multiselect":
                coerced = coerce(s, value)[0] if value is not None else ()
                wanted = set(coerced or ())
                if set(control.selected) != wanted:
                    control.deselect_all()
                    for o in wanted:
                        control.select(o)
        if locked != self.locked or control.disabled != locked:
            control.disabled = locked
        self.locked = locked
        self.set_note(note)
        # a value the file holds that does not fit is flagged here too (it is also a finding)
        problem = coerce(s, raw)[1] if raw is not None else None
        self.set_message(problem)

    def set_note(self, note: str) -> None:
        """The note beside the value (without touching the value: the player may be typing it)."""
        if note != self._note:
            before, self._note = self._note, note
            if self.is_mounted:
                label = self.query_one(".stat-note", Label)
                # one line, never wrapped: another text keeps its size, unless the width follows the text
                width = label.styles.width
                label.update(ByWidth(lambda room: fitted_note(note, room)) if note else Text(""),
                             layout=not (before and note) or width is None or width.is_auto)
                label.tooltip = plain(note) if note else None  # a narrow editor cuts it with an ellipsis

    def set_message(self, message: str | None) -> None:
        """Say something under the value (None: nothing)."""
        if message == self._message:
            return
        self._message = message
        self.set_class(bool(message), "-invalid")
        if not self.is_mounted:
            return
        found = self.query(".stat-message")
        if found:
            shown = found.first(Label)
            shown.update(Text(message or ""))
            shown.display = bool(message)
        elif message:
            shown = Label(Text(message), classes="stat-message")
            shown.styles.margin = (0, 0, 0, self._label_width)
            self.mount(shown)

    @property
    def note(self) -> str:
        """What the note beside the value says."""
        return self._note

    @property
    def message(self) -> str:
        """What the message under the value says ("" when nothing)."""
        return self._message or ""

    @property
    def label_width(self) -> int:
        return self._label_width

    @label_width.setter
    def label_width(self, width: int) -> None:
        if width != self._label_width:
            self._label_width = width
            if self.is_mounted:
                self.query_one(".stat-label").styles.width = width
                for message in self.query(".stat-message"):
                    message.styles.margin = (0, 0, 0, width)

    def on_click(self, event: events.Click) -> None:
        """A click on the label or the note goes to the value."""
        control = self.control
        if control.focusable and not control.has_focus:
            self.focus_control()

    def focus_control(self) -> None:
        """Focus the control now (not after the messages already queued: keys typed next go to it)."""
        self.screen.set_focus(self.control)
        self.scroll_visible()

    # ------------------------------------------------------------ reading what the player does

    def token(self) -> object:
        """What the control shows now (its text, or its choice)."""
        control = self.control
        if self._control_kind == "multiselect":
            return tuple(control.selected)
        return control.value

    def shows(self, token: object) -> bool:
        return self.is_mounted and self.token() == token

    @property
    def applied(self) -> object | None:
        """The value the roster has for this field (as last shown or sent)."""
        return self._applied

    @property
    def unapplied(self) -> str | None:
        """Why the text in the field is not applied (None when it is)."""
        return self._unapplied

    def _send(self, raw: object | None, token: object = None) -> None:
        if not self.locked:
            self._applied = raw
            message = self.Changed(self, self.stat.id, raw, token)
            if self.receiver is not None:
                self.receiver(message)
            else:
                self.post_message(message)

    def read(self) -> tuple[object | None, str | None]:
        """The control's text as a value: (value, problem)."""
        control = self.control
        if not isinstance(control, Input):
            return None, None
        return parse_raw(self.stat, control.value)

    def not_applied(self, problem: str, keeps: object | None = None) -> None:
        """Say at the field that its text is not applied, and why (``keeps``: the value the
        roster keeps, when the field did not send it)."""
        if keeps is not None:
            self._applied = keeps
        kept = text_of(self.stat, self._applied) if self._applied is not None else ""
        if not kept and isinstance(self.control, Input):
            kept = self.control.placeholder
        self._unapplied = problem
        self.add_class("-unapplied")
        self.set_message(f"{problem}. Not applied: the roster keeps {kept or 'no value'}")

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        event.stop()  # (read when the text was set: see :meth:`_typed`)

    def _typed(self, value: str) -> None:
        """The input's text changed (typed, or set other than by :meth:`show`)."""
        control = self.control
        if self._showing or not self.is_mounted or not isinstance(control, Input):
            return
        result = control.validate(value)
        if result is not None and not result.is_valid:
            self.not_applied(result.failure_descriptions[0] if result.failure_descriptions else "Not valid")
            return
        raw, _ = parse_raw(self.stat, value)
        self._unapplied = None
        self.remove_class("-unapplied")
        if raw is None and self.apply_empty_on_leave and control.has_focus:
            # emptied to type another value: nothing changes until a value is typed or the field is left
            self.set_message(None)
            return
        self._report_empty(raw, control)
        self._send(raw, value)

    def _report_empty(self, raw: object | None, control: Input) -> None:
        if raw is None and self.stat.required and not self._placeholder and not control.placeholder:
            self.set_message(f"{self.stat.label} must be entered" +
                             (f" ({self.stat.entry_note})" if self.stat.entry_note else ""))
        else:
            self.set_message(None)

    @on(Input.Blurred)
    def _left(self, event: Input.Blurred) -> None:  # (left to bubble: screens commit names on it)
        control = event.input
        if self.apply_empty_on_leave and not control.value.strip() and self._applied is not None:
            self._report_empty(None, control)
            self._send(None, control.value)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.screen.focus_next()

    @on(Select.Changed)
    def _select_changed(self, event: Select.Changed) -> None:
        event.stop()
        self._send(None if event.value is Select.NULL else event.value, event.value)

    def on_switch_changed(self, event) -> None:  # Switch.Changed
        event.stop()
        self._send(bool(event.value), event.value)

    def on_selection_list_selected_changed(self, event) -> None:  # SelectionList.SelectedChanged
        event.stop()
        chosen = [o for o in self.stat.options if o in event.selection_list.selected]
        self._send(chosen, tuple(event.selection_list.selected))
