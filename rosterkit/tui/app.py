"""The terminal interface: `rosterkit` (start screen) or `rosterkit FILE` (that roster)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from functools import partial
from pathlib import Path

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from ..errors import RosterkitError
from ..files.rosters import load_roster, save_roster
from ..files.rulesets import Registry
from ..workspace import open_roster, open_value
from . import home
from .keys import palette_entries
from .screens.roster import RosterScreen
from .screens.start import StartScreen
from .session import RosterSession


class RosterkitApp(App[int]):
    """rosterkit: design figures, build armies, see every point, check every limit."""

    CSS_PATH = "app.tcss"
    TITLE = "rosterkit"
    BINDINGS = [
        Binding("f1", "help", "Help", tooltip="Every key of this screen"),
        Binding("ctrl+q", "quit", "Quit", priority=True, tooltip="Quit (asks to save unsaved changes)"),
        Binding("ctrl+o", "open_file", "Open", show=False, tooltip="Open a roster file"),
    ]

    def __init__(self, registry: Registry | None = None, path: Path | str | None = None, *,
                 cwd: Path | None = None, samples: list[Path] | None = None) -> None:
        super().__init__()
        self.registry = registry or Registry()
        self.start_path = Path(path).absolute() if path is not None else None
        self.cwd = Path(cwd) if cwd is not None else Path.cwd()
        self.samples = samples

    def get_default_screen(self) -> Screen:
        return StartScreen(self.registry)

    def on_mount(self) -> None:
        if self.start_path is not None:
            if self.start_path.exists():
                self.open_roster(self.start_path)
            else:
                self.action_new_roster(self.start_path)

    # ------------------------------------------------------------ rosters

    @property
    def roster_screens(self) -> list[RosterScreen]:
        return [s for s in self.screen_stack if isinstance(s, RosterScreen)]

    def open_roster(self, path: Path, sample: bool = False) -> None:
        """Open a roster file (a sample opens as an unsaved copy), offering any recovered work."""
        path = Path(path)
        if not path.is_absolute():
            path = self.cwd / path
        try:
            opened = open_roster(path, self.registry)
        except RosterkitError as exc:
            self.notify(str(exc), title=f"Cannot open {path.name}", severity="error", timeout=10)
            if path == self.start_path:
                # the start screen skips its list when a roster opens straight away: it is shown after all
                self.start_path = None
                screen = self.screen
                if isinstance(screen, StartScreen) and screen.is_mounted and not screen.entries:
                    screen.call_after_refresh(screen.fill)
            return
        if sample:
            session = RosterSession(dataclasses.replace(opened, path=None), origin=path.name)
        else:
            session = RosterSession(opened)
            home.remember(path)
        self._leave_rosters(lambda: self._offer_recovery(session))

    def _offer_recovery(self, session: RosterSession) -> None:
        from .screens.recovery_offer import RecoveryOfferScreen

        found = home.find_recovery(session.recovery_key())
        if found is None or found.roster == session.roster:
            if found is not None:
                home.drop_recovery(found.key)
            self._show(session)
            return

        def answered(restore: bool | None) -> None:
            if restore:
                session.replace_all(found.roster)
            else:
                home.drop_recovery(found.key)
            self._show(session)

        total = session.costing.report(found.roster).total
        self.push_screen(RecoveryOfferScreen(found.roster.name, len(session.roster.units), len(found.roster.units),
                                             found.when(), total), answered)

    def restore_recovery(self, found: home.Recovery) -> None:
        """Open recovered work chosen on the start screen."""
        saved = None
        if found.path is not None and found.path.is_file():
            try:
                saved = load_roster(found.path).roster
            except RosterkitError:
                saved = None
        try:
            opened = open_value(found.roster, self.registry, path=found.path if saved is not None else None)
        except RosterkitError as exc:
            self.notify(str(exc), severity="error", timeout=10)
            return
        session = RosterSession(opened, saved=saved)
        if saved is None:
            session.saved = None  # nothing on disk: everything is unsaved
        session.key = found.key
        self._leave_rosters(lambda: self._show(session))

    def _show(self, session: RosterSession) -> None:
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(RosterScreen(session, self.registry, self.cwd, self.size.width))

    def _leave_rosters(self, then) -> None:
        """Close open rosters (asking about unsaved changes), then carry on."""
        screens = self.roster_screens
        dirty = [s for s in screens if s.session.dirty]
        if not dirty:
            for s in screens:
                s.discard_recovery()
            then()
            return
        self._ask_unsaved(dirty, "opening another roster", then)

    def _ask_unsaved(self, dirty: list[RosterScreen], leaving: str, then) -> None:
        from .screens.confirm_quit import ConfirmQuitScreen

        def answered(answer: str | None) -> None:
            if answer == "discard":
                for s in dirty:
                    s.discard_recovery()
                then()
            elif answer == "save":
                self._save_all(dirty, then)

        for s in dirty:
            s.flush_recovery()
        self.push_screen(ConfirmQuitScreen([s.session.roster.name for s in dirty], leaving), answered)

    def _save_all(self, dirty: list[RosterScreen], then) -> None:
        pending = list(dirty)

        def next_one() -> None:
            while pending:
                screen = pending.pop(0)
                if screen.session.path is None:
                    screen.save_as(then=next_one)
                    return
                if not screen.save_to(screen.session.path):
                    return  # the error is shown; stay
            then()

        next_one()

    # ------------------------------------------------------------ actions

    async def action_quit(self) -> None:
        dirty = [s for s in self.roster_screens if s.session.dirty]
        if not dirty:
            for s in self.roster_screens:
                s.discard_recovery()
            self.exit(0)
            return
        if any(type(s).__name__ == "ConfirmQuitScreen" for s in self.screen_stack):
            return
        self._ask_unsaved(dirty, "quitting", lambda: self.exit(0))

    def action_new_roster(self, path: Path | None = None) -> None:
        from .screens.new_roster import NewRoster, NewRosterScreen

        def done(result: NewRoster | None) -> None:
            if result is None:
                return
            try:
                save_roster(result.roster, result.path)
            except RosterkitError as exc:
                self.notify(str(exc), title="Not created", severity="error", timeout=10)
                return
            home.remember(result.path)
            try:
                session = RosterSession(open_value(result.roster, result.ruleset, path=result.path))
            except RosterkitError as exc:
                self.notify(str(exc), title="Cannot open", severity="error", timeout=10)
                return
            self._leave_rosters(lambda: self._show(session))

        self.push_screen(NewRosterScreen(self.registry, self.cwd, path), done)

    def action_open_file(self) -> None:
        from .screens.open_file import OpenFileScreen

        def done(path: Path | None) -> None:
            if path is not None:
                self.open_roster(path)

        self.push_screen(OpenFileScreen(self.cwd), done)

    def action_close_roster(self) -> None:
        if self.roster_screens:
            self._leave_rosters(lambda: [self.pop_screen() for _ in range(len(self.screen_stack) - 1)])

    def browse_ruleset(self, ruleset_id: str) -> None:
        from .screens.ruleset_browser import RulesetScreen

        try:
            rs = self.registry.get(ruleset_id)
        except RosterkitError as exc:
            self.notify(str(exc), severity="error", timeout=10)
            return
        self.push_screen(RulesetScreen(rs))

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
            return
        self.push_screen(HelpScreen(self.screen))

    # ------------------------------------------------------------ command palette

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        titles = set()
        for info in palette_entries(self, screen):
            keys = ", ".join(info.keys)
            help_text = f"{keys}" + (f" · {info.help}" if info.help else "") + f" · {info.group}"
            titles.add(info.description.casefold())
            yield SystemCommand(info.description, help_text, partial(self._run, info.node, info.action))
        extra = [
            ("New roster…", "Pick a ruleset, name the army, set the points", self.action_new_roster),
            ("Open roster…", "ctrl+o · Open a roster file", self.action_open_file),
        ]
        if self.roster_screens:
            extra.append(("Close roster", "Back to the start screen (asks to save)", self.action_close_roster))
        for title, help_text, callback in extra:
            if title.casefold() not in titles:
                yield SystemCommand(title, help_text, callback)
        for command in super().get_system_commands(screen):
            if command.title.casefold() not in titles and command.title not in ("Quit",):
                yield command

    async def _run(self, node, action: str) -> None:
        await self.run_action(action, node)


def run_app(path, registry) -> int:
    """Run the terminal interface; the exit code for the command line."""
    app = RosterkitApp(registry, path)
    app.run()
    return app.return_code or 0
