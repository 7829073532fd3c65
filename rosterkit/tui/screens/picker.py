"""A dialog to pick one entry from a searchable list, with the highlighted entry described beside
it: the add-unit dialog and the item picker."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from rich.console import RenderableType
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ..widgets.ordered_input import OrderedInput

Result = TypeVar("Result")


def matches(query: str, *texts: str) -> bool:
    """Every word of the query is found in one of the texts ("blank vehicle": both words)."""
    words = query.casefold().split()
    haystack = [t.casefold() for t in texts if t]
    return all(any(w in t for t in haystack) for w in words)


class PickerScreen(ModalScreen[Result], Generic[Result]):
    """Typing filters the list (``fill``); enter or the button takes the highlighted entry."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="picker.cancel"),
        Binding("down", "move(1)", "Next", show=False, id="picker.next"),
        Binding("up", "move(-1)", "Previous", show=False, id="picker.previous"),
    ]

    PREFIX = "pick"  # the widgets' ids: #pick-search, #pick-list, #pick-detail

    def __init__(self) -> None:
        super().__init__()
        self.shown: list[Any] = []  # what each line of the list stands for (None: a heading)

    # ------------------------------------------------------------ what a picker says

    def heading(self) -> str:
        raise NotImplementedError

    def placeholder(self) -> str:
        raise NotImplementedError

    def fill(self, query: str) -> list[tuple[Option, Any]]:
        """The lines matching the query, each with what it stands for (None: not to pick)."""
        raise NotImplementedError

    def describe(self, choice: Any) -> RenderableType:
        raise NotImplementedError

    def chosen(self, choice: Any) -> Result:
        raise NotImplementedError

    # ------------------------------------------------------------ the dialog

    def compose(self) -> ComposeResult:
        p = self.PREFIX
        with Vertical(classes="dialog wide", id=f"{p}-dialog"):
            yield Label(self.heading(), classes="dialog-title", markup=False)
            yield OrderedInput(placeholder=self.placeholder(), id=f"{p}-search", compact=True)
            with Horizontal(id=f"{p}-body", classes="picker-body"):
                yield OptionList(id=f"{p}-list")
                with VerticalScroll(id=f"{p}-detail-box", classes="picker-detail"):
                    yield Static("", id=f"{p}-detail", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Add", id="ok", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        self._fill("")
        self.set_focus(self.query_one(f"#{self.PREFIX}-search", Input))  # typing filters; enter adds

    def _fill(self, query: str) -> None:
        lines = self.fill(query)
        if not lines:
            lines = [(Option("Nothing matches.", disabled=True), None)]
        self.shown = [choice for _, choice in lines]
        lst = self.query_one(f"#{self.PREFIX}-list", OptionList)
        lst.set_options([option for option, _ in lines])
        first = next((i for i, c in enumerate(self.shown) if c is not None), None)
        if first is not None:
            lst.highlighted = first
        self._detail()

    @property
    def current(self) -> Any:
        i = self.query_one(f"#{self.PREFIX}-list", OptionList).highlighted
        return self.shown[i] if i is not None and i < len(self.shown) else None

    def _detail(self) -> None:
        box = self.query_one(f"#{self.PREFIX}-detail", Static)
        choice = self.current
        self.query_one("#ok", Button).disabled = choice is None
        box.update("" if choice is None else self.describe(choice))

    @on(Input.Changed)
    def _search(self, event: Input.Changed) -> None:
        self._fill(event.value)

    @on(Input.Submitted)
    def _search_done(self) -> None:
        if self.current is not None:
            self._ok()
        else:
            self.query_one(f"#{self.PREFIX}-list").focus()

    @on(OptionList.OptionHighlighted)
    def _moved(self) -> None:
        self._detail()

    @on(OptionList.OptionSelected)
    @on(Button.Pressed, "#ok")
    def _ok(self) -> None:
        choice = self.current
        if choice is not None:
            self.dismiss(self.chosen(choice))

    def action_move(self, step: int) -> None:
        lst = self.query_one(f"#{self.PREFIX}-list", OptionList)
        lst.action_cursor_down() if step > 0 else lst.action_cursor_up()

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)  # type: ignore[arg-type]
