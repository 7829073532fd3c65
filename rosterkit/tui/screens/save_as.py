"""Choose where to save a roster."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static


def check_target(text: str, cwd: Path, suffix: str = ".toml") -> tuple[Path | None, str | None, str | None]:
    """(path, problem, warning) for a file name typed by the player."""
    text = text.strip()
    if not text:
        return None, "Enter a file name", None
    path = Path(text).expanduser()
    if not path.is_absolute():
        path = cwd / path
    if suffix and path.suffix.lower() != suffix:
        path = path.with_name(path.name + suffix)
    if path.is_dir():
        return None, "That is a folder; add a file name", None
    if not path.parent.is_dir():
        return None, f"No folder {path.parent}", None
    warning = "A file of that name exists: it will be replaced (the old one is kept as .bak)" \
        if path.exists() else None
    return path, None, warning


class SaveAsScreen(ModalScreen[Path | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, suggestion: str, cwd: Path, title: str = "Save roster as", suffix: str = ".toml") -> None:
        super().__init__()
        self.suggestion = suggestion
        self.cwd = cwd
        self.title_text = title
        self.suffix = suffix

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="save-as"):
            yield Label(self.title_text, classes="dialog-title", markup=False)
            yield Static(f"File name (relative to {self.cwd}):", classes="dialog-text", markup=False)
            yield Input(self.suggestion, id="save-path", compact=True)
            yield Static("", id="save-message", classes="field-message", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save", id="ok", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        self._check(self.suggestion)
        self.query_one("#save-path", Input).focus()

    def _check(self, text: str) -> Path | None:
        path, problem, warning = check_target(text, self.cwd, self.suffix)
        box = self.query_one("#save-message", Static)
        box.update(problem or warning or "")
        box.display = bool(problem or warning)
        box.set_class(bool(problem), "-error")
        self.query_one("#ok", Button).disabled = path is None
        return path

    @on(Input.Changed, "#save-path")
    def _changed(self, event: Input.Changed) -> None:
        self._check(event.value)

    @on(Input.Submitted, "#save-path")
    @on(Button.Pressed, "#ok")
    def _ok(self) -> None:
        path = self._check(self.query_one("#save-path", Input).value)
        if path is not None:
            self.dismiss(path)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
