"""A new roster from a list's text: the player pastes (or types) it, and it is read as
`rosterkit import` reads it. The terminal's clipboard reaches the app only as a paste into
the text box, so the box is where the list goes."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static, TextArea

from ...errors import RosterkitError
from ...files.listtext import read_text
from ...visible import plain
from .. import messages


class PasteListScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    #paste-list { width: 100; height: 100%; max-height: 40; }
    #paste-text { height: 1fr; min-height: 4; }
    #paste-message { height: auto; max-height: 6; color: $error; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="paste.cancel"),
        Binding("ctrl+s", "read", "Make the roster", priority=True, id="paste.read",
                tooltip="Read the list and open it as a new roster"),
    ]

    def __init__(self, registry) -> None:
        super().__init__()
        self.registry = registry

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="paste-list"):
            yield Label("New roster from a pasted list", classes="dialog-title", markup=False)
            yield Static(Text.assemble(
                "Paste a list (your terminal's paste, or ctrl+v) or type one: the text ",
                ("rosterkit text", "bold"), " writes, or bullets such as ", ("- 3x Spearmen, Spear", "bold"),
                ", under a header line ", ("++ Army name [Ruleset] ++", "bold"), "."), classes="dialog-text")
            yield TextArea("", id="paste-text", soft_wrap=True, show_line_numbers=True, tab_behavior="focus")
            yield Static("", id="paste-message")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Make the roster", id="paste-ok", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one("#paste-message", Static).display = False
        self.query_one("#paste-text", TextArea).focus()

    @on(TextArea.Changed, "#paste-text")
    def _edited(self) -> None:
        self.query_one("#paste-message", Static).display = False

    @on(Button.Pressed, "#paste-ok")
    def action_read(self) -> None:
        area = self.query_one("#paste-text", TextArea)
        box = self.query_one("#paste-message", Static)
        try:
            done = read_text(area.text, self.registry)
        except RosterkitError as exc:
            box.update(plain(str(exc), newlines=True))
            box.display = True
            line = exc.problems[0].line if exc.problems else None
            if line is not None and 0 < line <= area.document.line_count:
                area.move_cursor((line - 1, 0))  # the line the message names
            area.focus()
            return
        # posted to the app itself: this dialog is gone by the time the message is handled
        self.app.post_message(messages.OpenPastedList(done))
        self.dismiss(None)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
