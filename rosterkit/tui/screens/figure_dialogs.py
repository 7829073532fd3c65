"""Small dialogs for the player's own figures: name one, and confirm a deletion."""

from __future__ import annotations

from collections.abc import Callable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static


class FigureNameScreen(ModalScreen[str | None]):
    """Asks for a figure's name; ``check`` returns a problem with a name, or None."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, text: str, suggestion: str, check: Callable[[str], str | None]) -> None:
        super().__init__()
        self.title_text = title
        self.text = text
        self.suggestion = suggestion
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="figure-name"):
            yield Label(self.title_text, classes="dialog-title", markup=False)
            yield Static(self.text, classes="dialog-text", markup=False)
            yield Input(self.suggestion, id="figure-name-input", compact=True, max_length=200)
            yield Static("", id="figure-name-message", classes="field-message", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save", id="ok", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        self._check(self.suggestion)
        self.query_one("#figure-name-input", Input).focus()

    def _check(self, text: str) -> str | None:
        name = " ".join(text.split())
        problem = "Enter a name" if not name else self.check(name)
        box = self.query_one("#figure-name-message", Static)
        box.update(problem or "")
        box.display = bool(problem)
        box.set_class(bool(problem), "-error")
        self.query_one("#ok", Button).disabled = problem is not None
        return None if problem else name

    @on(Input.Changed, "#figure-name-input")
    def _changed(self, event: Input.Changed) -> None:
        self._check(event.value)

    @on(Input.Submitted, "#figure-name-input")
    @on(Button.Pressed, "#ok")
    def _ok(self) -> None:
        name = self._check(self.query_one("#figure-name-input", Input).value)
        if name is not None:
            self.dismiss(name)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmFigureScreen(ModalScreen[bool]):
    """Yes or no for a change to the player's figures file (it is outside the roster's undo)."""

    BINDINGS = [Binding("escape,n", "answer(False)", "Keep"), Binding("y", "answer(True)", "Delete")]

    def __init__(self, title: str, text: str, yes: str = "Delete") -> None:
        super().__init__()
        self.title_text = title
        self.text = text
        self.yes = yes

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="confirm-figure"):
            yield Label(self.title_text, classes="dialog-title", markup=False)
            yield Static(self.text, classes="dialog-text", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button(self.yes, id="yes", variant="error", compact=True)
                yield Button("Keep it", id="no", compact=True)

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")
