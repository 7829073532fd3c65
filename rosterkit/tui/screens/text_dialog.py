"""A dialog asking for one line of text, checked as it is typed: OK works only when it passes."""

from __future__ import annotations

from typing import Generic, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from ..widgets.ordered_input import OrderedInput

T = TypeVar("T")


class TextDialog(ModalScreen[T | None], Generic[T]):
    """Subclasses name their widgets (``DIALOG_ID``, ``INPUT_ID``, ``MESSAGE_ID``) and give
    :meth:`verdict`: the value to return, or a problem that keeps OK disabled, and a warning."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    DIALOG_ID = "text-dialog"
    INPUT_ID = "text-input"
    MESSAGE_ID = "text-message"
    MAX_LENGTH = 0  # no limit

    def __init__(self, title: str, text: str, suggestion: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text
        self.suggestion = suggestion

    def verdict(self, text: str) -> tuple[T | None, str | None, str | None]:
        """(value, problem, warning) for what is typed; the value is None when there is a problem."""
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id=self.DIALOG_ID):
            yield Label(self.title_text, classes="dialog-title", markup=False)
            yield Static(self.text, classes="dialog-text", markup=False)
            yield OrderedInput(self.suggestion, id=self.INPUT_ID, compact=True, max_length=self.MAX_LENGTH)
            yield Static("", id=self.MESSAGE_ID, classes="field-message", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save", id="ok", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        self._check(self.suggestion)
        self.query_one(f"#{self.INPUT_ID}", Input).focus()

    def _check(self, text: str) -> T | None:
        value, problem, warning = self.verdict(text)
        box = self.query_one(f"#{self.MESSAGE_ID}", Static)
        box.update(problem or warning or "")
        box.display = bool(problem or warning)
        box.set_class(bool(problem), "-error")
        self.query_one("#ok", Button).disabled = value is None
        return value

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        self._check(event.value)

    @on(Input.Submitted)
    @on(Button.Pressed, "#ok")
    def _ok(self) -> None:
        value = self._check(self.query_one(f"#{self.INPUT_ID}", Input).value)
        if value is not None:
            self.dismiss(value)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
