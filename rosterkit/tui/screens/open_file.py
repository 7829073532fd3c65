"""Open a roster file: type a path or pick one in the folder tree."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, DirectoryTree, Input, Label, Static

from ...visible import plain
from ..widgets.ordered_input import OrderedInput


class RosterTree(DirectoryTree):
    """Folders and .toml files only."""

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        return [p for p in paths if not p.name.startswith(".") and (p.is_dir() or p.suffix.lower() == ".toml")]


class OpenFileScreen(ModalScreen[Path | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, cwd: Path, title: str = "Open a roster") -> None:
        super().__init__()
        self.cwd = cwd
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide", id="open-file"):
            yield Label(self.title_text, classes="dialog-title", markup=False)
            yield OrderedInput(placeholder="path/to/roster.toml (or pick below)", id="open-path", compact=True)
            yield Static("", id="open-message", classes="field-message", markup=False)
            yield RosterTree(self.cwd, id="open-tree")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Open", id="ok", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one("#open-message").display = False
        self.query_one("#open-path", Input).focus()

    def _resolve(self, text: str) -> Path | None:
        box = self.query_one("#open-message", Static)
        text = text.strip()
        path = Path(text).expanduser() if text else None
        if path is not None and not path.is_absolute():
            path = self.cwd / path
        problem = None
        if path is None:
            problem = "Type a path or pick a file below"
        else:
            try:
                if not path.is_file():
                    problem = f"No file {path}"
            except OSError as exc:  # a name too long, a folder that cannot be searched
                problem = f"Cannot open {path.name}: {exc.strerror or exc}"
        box.update(plain(problem or ""))
        box.display = bool(problem)
        return None if problem else path

    @on(DirectoryTree.FileSelected)
    def _picked(self, event: DirectoryTree.FileSelected) -> None:
        event.stop()
        self.dismiss(Path(event.path))

    @on(Input.Submitted, "#open-path")
    @on(Button.Pressed, "#ok")
    def _ok(self) -> None:
        path = self._resolve(self.query_one("#open-path", Input).value)
        if path is not None:
            self.dismiss(path)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
