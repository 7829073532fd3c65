"""The footer: the keys of the focused panel and screen, with help (F1) always first."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer

FIRST = ("help", "app.help")


class KeyFooter(Footer):
    def __init__(self) -> None:
        super().__init__(compact=True)

    def compose(self) -> ComposeResult:
        widgets = list(super().compose())
        first = [w for w in widgets if getattr(w, "action", None) in FIRST]
        rest = [w for w in widgets if w not in first]
        yield from first + rest
