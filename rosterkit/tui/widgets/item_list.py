"""A unit's weapons, abilities or equipment: each with its cost, plus add and remove."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...engine.costing import ItemCost
from ...rules.numbers import fmt
from ...visible import plain


def _same_item(name: str, cost: ItemCost) -> bool:
    """A cost line is the held item's (by its name, or the catalogue name an alias stands for)."""
    held = name.strip().casefold()
    return not cost.name or held == cost.name.strip().casefold() or \
        held in (part.strip() for part in cost.name.casefold().split("/"))


class ItemOptions(OptionList):
    """The items themselves; a, + or insert adds, delete or x removes."""

    BINDINGS = [
        Binding("a,plus,insert", "add", "Add", key_display="a", tooltip="Add a weapon, ability or piece of equipment", id="items.add"),
        Binding("delete,x,minus", "remove", "Remove", key_display="del", tooltip="Remove the highlighted item", id="items.remove"),
    ]

    def action_add(self) -> None:
        self.parent_list.post_message(ItemList.AddRequested(self.parent_list, self.parent_list.kind))

    def action_remove(self) -> None:
        pos = self.highlighted
        if pos is not None and pos < len(self.parent_list.names):
            self.parent_list.post_message(ItemList.RemoveRequested(self.parent_list, self.parent_list.kind, pos))

    @property
    def parent_list(self) -> "ItemList":
        return self.query_ancestor(ItemList)

    def on_focus(self) -> None:
        if self.highlighted is None:  # (a list that takes the focus shows where its cursor is: del acts on it)
            self.action_first()


class ItemList(Vertical):
    @dataclass
    class AddRequested(Message):
        item_list: "ItemList"
        kind: str

        @property
        def control(self) -> "ItemList":
            return self.item_list

    @dataclass
    class RemoveRequested(Message):
        item_list: "ItemList"
        kind: str
        position: int

        @property
        def control(self) -> "ItemList":
            return self.item_list

    def __init__(self, kind: str, title: str, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="item-list")
        self.kind = kind
        self.title = title
        self.names: list[str] = []
        self._shown: object = None

    def compose(self) -> ComposeResult:
        with Horizontal(classes="item-head"):
            yield Label(self.title, classes="item-title", markup=False)
            add = Button("+ Add", id=f"add-{self.kind}", compact=True, classes="item-add")
            add.can_focus = False
            yield add
            remove = Button("− Remove", id=f"remove-{self.kind}", compact=True, classes="item-remove")
            remove.can_focus = False
            yield remove
        yield ItemOptions(classes="item-options")

    @property
    def options(self) -> ItemOptions:
        return self.query_one(ItemOptions)

    def show(self, names: list[str], costs: list[ItemCost], note: str = "") -> None:
        keep = self.options.highlighted
        self.names = list(names)
        aligned = len(costs) == len(names)  # costing lists a kind's items in the roster's order
        prompts = [self._prompt(name, costs[pos] if aligned and _same_item(name, costs[pos]) else None)
                   for pos, name in enumerate(names)]
        key = (tuple(p.plain for p in prompts), note)
        if key == self._shown:
            return
        self._shown = key
        options: list[Option] = [Option(p) for p in prompts]
        if not options:
            options.append(Option(Text("none: press a to add", style="dim"), disabled=True))
        with self.options.prevent(OptionList.OptionHighlighted):
            self.options.set_options(options)
            if keep is not None and names:
                self.options.highlighted = min(keep, len(names) - 1)
        found = self.query(".item-note")
        if found:
            note_box = found.first(Static)
            note_box.update(plain(note))
            if note_box.display != bool(note):
                note_box.display = bool(note)
        elif note:  # made the first time there is a note
            self.mount(Static(note, classes="item-note", markup=False))
        remove = self.query_one(".item-remove", Button)
        if remove.disabled != (not names):
            remove.disabled = not names

    def _prompt(self, name: str, cost: ItemCost | None) -> Text:
        if cost is None:
            return Text(name)
        text = Text(cost.name if cost.name else name)
        style = "dim"
        if cost.source in ("unknown", "error"):
            text.append("  unknown", style="bold red")
            return text
        how = cost.source
        if how == "published" and getattr(cost, "printed", None) is None:
            how = "price"  # "published" only for a price the rules print
        elif how == "unpriced":
            how = "no price in the rules"
        if cost.note:
            how += f"; {cost.note}"
        text.append(f"  {fmt(cost.cost)}", style="bold")
        text.append(f" ({how})", style=style)
        return text

    def focus_list(self) -> None:
        self.options.focus()
        self.scroll_visible()

    @on(Button.Pressed, ".item-add")
    def _add(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.AddRequested(self, self.kind))

    @on(Button.Pressed, ".item-remove")
    def _remove(self, event: Button.Pressed) -> None:
        event.stop()
        self.options.action_remove()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
