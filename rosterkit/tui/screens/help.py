"""F1: every key of the screen you came from, grouped by where it works."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Label, Static

from ...visible import plain
from ..keys import TEXT_KEYS, collect


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,f1,q", "close", "Close")]

    def __init__(self, under: Screen) -> None:
        super().__init__()
        self.under = under

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide", id="help"):
            yield Label("Keys", classes="dialog-title", markup=False)
            with VerticalScroll(id="help-body"):
                yield Static(self._body(), id="help-text", markup=False)
            yield Static(Text("Every action is also in the command palette: ctrl+p, then type. Keys can be changed "
                              "in keymap.toml in rosterkit's folder: \"units.add\" = \"n\" (ids in brackets). "
                              "The mouse works everywhere: click, scroll, hover for hints.  esc closes.",
                              style="dim"), id="help-foot", markup=False)

    def _body(self):
        infos = collect(self.app, self.under)
        groups: dict[str, list] = {}
        for info in infos:
            groups.setdefault(info.group, []).append(info)
        parts = []
        for group, items in groups.items():
            table = Table.grid(padding=(0, 2))
            table.add_column(style="bold cyan", min_width=18)
            table.add_column()
            for info in items:
                table.add_row(plain(", ".join(info.keys)), Text.assemble(info.description,
                                                                  (f"  {info.help}" if info.help else "", "dim"),
                                                                  (f"  [{info.key_id}]" if info.key_id else "", "dim")))
            parts += [Text(group, style="bold underline"), table, Text("")]
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold cyan", min_width=18)
        table.add_column()
        for keys, what in TEXT_KEYS:
            table.add_row(plain(keys), plain(what))
        parts += [Text("Fields and lists", style="bold underline"), table]
        return Group(*parts)

    def action_close(self) -> None:
        self.dismiss(None)
