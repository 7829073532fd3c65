"""Textual's Input, with its editing keys acting in the order they were typed.

Kept instead of the stock Input because Textual issue 6605 is a real lost-keystroke bug."""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.widgets import Input


class OrderedInput(Input):
    """An Input whose own editing keys (backspace, ctrl+u, end, ...) are run as they come.

    Textual runs them as bindings once the key has bubbled up to the app, while a character is
    put in as soon as the input reads it: typed fast (or by a busy machine, or a macro),
    "ctrl+u 7" gave "57" and then an empty field (Textual issue 6605). Run here, each key acts in
    the order it was typed. Bindings of the screen and the app marked as priority still come
    first, as Textual has them."""

    # (worked out once, with the class: the stock input's bindings are the same for every input)
    EDITING = {b.key: b.action for b in Binding.make_bindings(Input.BINDINGS) if not b.priority}

    async def on_key(self, event: events.Key) -> None:
        action = None if event.is_printable else self.EDITING.get(event.key)
        if action is not None and await self.app.run_action(action, self):
            event.stop()
