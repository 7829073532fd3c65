"""A new roster: pick a ruleset, name the army, set its points limit and where to keep it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...engine.roster import RosterFile
from ...errors import RosterkitError
from ...files.rulesets import Registry
from ...rules.ruleset import Ruleset
from ...visible import plain
from ...words import count_of
from ..widgets.ordered_input import OrderedInput
from .save_as import check_target


@dataclass(frozen=True)
class NewRoster:
    roster: RosterFile
    path: Path
    ruleset: Ruleset


def slug(name: str) -> str:
    text = re.sub(r"[^A-Za-z0-9]+", "_", name.strip().lower()).strip("_")
    return text or "roster"


class NewRosterScreen(ModalScreen[NewRoster | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "create", "Create", priority=True)]

    def __init__(self, registry: Registry, cwd: Path, path: Path | None = None) -> None:
        super().__init__()
        self.registry = registry
        self.cwd = cwd
        self.fixed_path = path
        self.rulesets: list[Ruleset] = []
        self.problems: list[tuple[Path, RosterkitError]] = []
        self._path_edited = path is not None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide", id="new-roster"):
            yield Label("New roster", classes="dialog-title", markup=False)
            with VerticalScroll(id="new-form"):
                yield Label("1. Ruleset (the game)", classes="form-label", markup=False)
                yield OptionList(id="new-ruleset")
                yield Static("", id="new-ruleset-info", classes="dialog-text", markup=False)
                yield Label("2. Army name", classes="form-label", markup=False)
                yield OrderedInput(placeholder="e.g. Iron Vanguard", id="new-name", compact=True)
                yield Static("", id="new-name-message", classes="field-message", markup=False)
                yield Label("3. Points limit (the game's agreed size; leave empty for none)", classes="form-label", markup=False)
                yield OrderedInput("500", id="new-points", compact=True)
                yield Static("", id="new-points-message", classes="field-message", markup=False)
                yield Label("4. File", classes="form-label", markup=False)
                yield OrderedInput(str(self.fixed_path) if self.fixed_path else "", id="new-path", compact=True)
                yield Static("", id="new-path-message", classes="field-message", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Create", id="create", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        options = []
        for path, rs in self.registry.all():
            if isinstance(rs, RosterkitError):
                self.problems.append((path, rs))
                continue
            self.rulesets.append(rs)
            prompt = Text.assemble((rs.name, "bold"), "\n", (rs.source_line(), "dim"))
            options.append(Option(prompt))
        for path, _ in self.problems:
            options.append(Option(Text(f"{path.name}: cannot be loaded (rosterkit check-ruleset)", style="red"),
                                  disabled=True))
        lst = self.query_one("#new-ruleset", OptionList)
        lst.set_options(options)
        if self.rulesets:
            lst.highlighted = 0
        for box in self.query(".field-message"):
            box.display = False
        self._update_path()
        self.query_one("#new-name", Input).focus() if len(self.rulesets) == 1 else lst.focus()

    @property
    def ruleset(self) -> Ruleset | None:
        i = self.query_one("#new-ruleset", OptionList).highlighted
        return self.rulesets[i] if i is not None and i < len(self.rulesets) else None

    @on(OptionList.OptionHighlighted, "#new-ruleset")
    def _ruleset_changed(self) -> None:
        rs = self.ruleset
        info = self.query_one("#new-ruleset-info", Static)
        if rs is None:
            info.update("")
            return
        info.update(Text.assemble((rs.data.summary or "", ""), (f"  ({count_of(len(rs.data.figures), 'ready figure')}, "
                                                                f"{count_of(len(rs.data.types), 'type')})", "dim")))
        self._update_path()

    @on(OptionList.OptionSelected, "#new-ruleset")
    def _ruleset_chosen(self) -> None:
        self.query_one("#new-name", Input).focus()

    @on(Input.Changed, "#new-name")
    def _name_changed(self, event: Input.Changed) -> None:
        if event.value.strip():
            self._say_name(None)
        self._update_path()

    def _say_name(self, problem: str | None) -> None:
        box = self.query_one("#new-name-message", Static)
        box.update(plain(problem or ""))
        box.display = bool(problem)
        box.set_class(bool(problem), "-error")

    @on(Input.Changed, "#new-path")
    def _path_changed(self, event: Input.Changed) -> None:
        if event.input.has_focus:
            self._path_edited = True
        self._check_path()

    @on(Input.Changed, "#new-points")
    def _points_changed(self) -> None:
        self._points()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "new-path":
            self.action_create()
        else:
            self.focus_next()

    def _update_path(self) -> None:
        if self._path_edited:
            return
        name = self.query_one("#new-name", Input).value
        rs = self.ruleset
        base = slug(name) if name.strip() else (f"{rs.id}_roster" if rs else "roster")
        if name.strip() and rs is not None and not base.startswith(rs.id):
            base = f"{rs.id}_{base}"
        path_input = self.query_one("#new-path", Input)
        with path_input.prevent(Input.Changed):
            path_input.value = f"{base}.toml"
        self._check_path()

    def _check_path(self) -> Path | None:
        path, problem, warning = check_target(self.query_one("#new-path", Input).value, self.cwd)
        box = self.query_one("#new-path-message", Static)
        box.update(plain(problem or warning or ""))
        box.display = bool(problem or warning)
        box.set_class(bool(problem), "-error")
        return path

    def _points(self) -> tuple[int | None, bool]:
        text = self.query_one("#new-points", Input).value.strip()
        box = self.query_one("#new-points-message", Static)
        problem = None
        value = None
        if text:
            if re.fullmatch(r"\d{1,9}", text):
                value = int(text)
                if value < 1:
                    problem = "The limit must be at least 1 (or leave it empty)"
            else:
                problem = f"'{text}' is not a whole number of points"
        box.update(plain(problem or ""))
        box.display = bool(problem)
        box.set_class(bool(problem), "-error")
        return value, problem is None

    @on(Button.Pressed, "#create")
    def action_create(self) -> None:
        rs = self.ruleset
        name = self.query_one("#new-name", Input).value.strip()
        points, points_ok = self._points()
        path = self._check_path()
        if rs is None:
            self.notify("Pick a ruleset first", severity="warning")
            self.query_one("#new-ruleset").focus()
            return
        if not name:
            self._say_name("The army needs a name before the roster can be created: type one here.")
            self.notify("Give the army a name", severity="warning")
            self.query_one("#new-name").focus()
            return
        if not points_ok:
            self.query_one("#new-points").focus()
            return
        if path is None:
            self.query_one("#new-path").focus()
            return
        roster = RosterFile(name=name[:200], ruleset=rs.id, points_limit=points)
        self.dismiss(NewRoster(roster, path, rs))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
