"""The footer: the keys of the focused panel and screen, with help (F1) always first, and only
as many as fit whole (the rest are in F1's help and the command palette)."""

from __future__ import annotations

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Footer

FIRST = ("help", "app.help")


def key_width(key: Widget) -> int:
    """The cells a key takes in the compact footer: "^s Save" (the palette's has a bar before it)."""
    shown, description = getattr(key, "key_display", ""), getattr(key, "description", "")
    width = cell_len(shown) + (1 + cell_len(description) if description else 0)
    return width + (1 if key.has_class("-command-palette") else 0)


class KeyFooter(Footer):
    def __init__(self) -> None:
        super().__init__(compact=True)
        self._width = 0

    def compose(self) -> ComposeResult:
        widgets = list(super().compose())
        first = [w for w in widgets if getattr(w, "action", None) in FIRST]
        rest = [w for w in widgets if w not in first]
        shown = first + rest
        palette = [w for w in shown if w.has_class("-command-palette")]
        keys = [w for w in shown if w not in palette]
        # keys are a cell apart; the palette's key stands at the right end
        room = (self.size.width or self.app.size.width) - sum(key_width(w) + 1 for w in palette)
        while len(keys) > 1 and sum(key_width(w) for w in keys) + len(keys) - 1 > room:
            keys.pop()  # (the last are the least used: they stay in F1 and the palette)
        self._width = self.size.width
        yield from keys + palette

    def on_resize(self) -> None:
        if self.size.width != self._width:
            self._width = self.size.width
            self.refresh(recompose=True)
