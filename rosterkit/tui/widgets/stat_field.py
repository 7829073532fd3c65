"""One field of a stat line: a label, a control that fits the stat's kind, and a message under it
(made the first time there is something to say).

Numbers are typed into an input checked against the stat's bounds; a die type is a choice
of the ruleset's dice; a flag is a switch; a choice is a select; several choices are a
selection list. A value that does not fit is shown under the field and never sent on.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, Label, Select, Static

from ...rules.schema import StatDef
from ...rules.stats import coerce, expected, kind_of


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


def text_of(stat: StatDef, value: object) -> str:
    """A value (raw or coerced) as it reads in an input."""
    return "" if value is None else kind_of(stat).input_text(stat, value)


class StatField(Widget):
    """A labelled editor for one stat."""

    @dataclass
    class Changed(Message):
        """The player entered a valid value (None: cleared, the default applies)."""

        stat_field: "StatField"
        stat_id: str
        raw: object | None

        @property
        def control(self) -> "StatField":
            return self.stat_field

    def __init__(self, stat: StatDef, *, id: str | None = None, classes: str | None = None,
                 label: str | None = None, placeholder: str = "", label_width: int | None = None) -> None:
        super().__init__(id=id, classes=f"-kind-{stat.kind} {classes or ''}".strip())
        self.stat = stat
        self._label = label or stat.label
        self._placeholder = placeholder
        self._label_width = label_width
        self._note = ""
        self.locked = False
        self._message: str | None = None
        self._control_kind = kind_of(stat).control  # select, switch, multiselect, or an input
        self._quiet: tuple[type[Message], ...] = (Input.Changed, Select.Changed)  # not sent while showing

    # ------------------------------------------------------------ building

    def compose(self) -> ComposeResult:
        s = self.stat
        with Horizontal(classes="field-row"):
            label = Label(self._label, classes="field-label", markup=False)
            label.tooltip = self.stat.label
            yield label
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
                yield Input(placeholder=self._placeholder, compact=True, classes="field-control")
            yield Label("", classes="field-note", markup=False)

    @property
    def control(self) -> Widget:
        return self.query_one(".field-control")

    def on_mount(self) -> None:
        self.control.tooltip = self._help()
        if self._label_width:
            self.query_one(".field-label").styles.width = self._label_width

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
        with self.prevent(*self._quiet):
            if isinstance(control, Input):
                text = text_of(s, raw if raw is not None else inherited)
                if control.value != text:
                    control.value = text
                control.placeholder = self._placeholder or (text_of(s, inherited) if inherited is not None else "")
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
        if note != self._note:
            self._note = note
            self.query_one(".field-note", Label).update(note)
        # a value the file holds that does not fit is flagged here too (it is also a finding)
        problem = coerce(s, raw)[1] if raw is not None else None
        self.set_message(problem)

    def set_message(self, message: str | None) -> None:
        if message == self._message:
            return
        self._message = message
        found = self.query(".field-message")
        if found:
            box = found.first(Static)
            box.update(message or "")
            box.display = bool(message)
        elif message:  # the first message: the box under the field is made now, lined up with the value
            box = Static(message, classes="field-message", markup=False)
            box.display = True
            width = self.query_one(".field-label").styles.width
            indent = int(width.value) if width is not None and width.is_cells else self._label_width
            if indent:
                box.styles.padding = (0, 0, 0, indent)
            self.mount(box)
        self.set_class(bool(message), "-invalid")

    def focus_control(self) -> None:
        self.control.focus()
        self.scroll_visible()

    # ------------------------------------------------------------ reading what the player does

    def _send(self, raw: object | None) -> None:
        if not self.locked:
            self.post_message(self.Changed(self, self.stat.id, raw))

    @on(Input.Changed)
    def _input_changed(self, event: Input.Changed) -> None:
        event.stop()
        raw, problem = parse_raw(self.stat, event.value)
        if problem:
            self.set_message(problem)
            return
        if raw is None and self.stat.required and not self._placeholder and not event.input.placeholder:
            self.set_message(f"{self.stat.label} must be entered" +
                             (f" ({self.stat.entry_note})" if self.stat.entry_note else ""))
        else:
            self.set_message(None)
        self._send(raw)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.screen.focus_next()

    @on(Select.Changed)
    def _select_changed(self, event: Select.Changed) -> None:
        event.stop()
        self._send(None if event.value is Select.NULL else event.value)

    def on_switch_changed(self, event) -> None:  # Switch.Changed
        event.stop()
        self._send(bool(event.value))

    def on_selection_list_selected_changed(self, event) -> None:  # SelectionList.SelectedChanged
        event.stop()
        chosen = [o for o in self.stat.options if o in event.selection_list.selected]
        self._send(chosen)
