"""The terminal interface: `rosterkit` (start screen) or `rosterkit FILE` (that roster).

`rosterkit FILE` opens straight on the roster screen: the start screen is made only when
the player goes to it (closing the roster) or when the file cannot be opened. Screens
shown later (design, export, match-up, the ruleset, help, dialogs) are imported when opened.
"""

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
from .screens.roster import RosterScreen
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
        self._open_error: tuple[Path, RosterkitError] | None = None  # the roster given could not be opened

    def get_default_screen(self) -> Screen:
        """The roster given on the command line when it opens; otherwise the start screen."""
        screen: Screen | None = None
        path = self.start_path
        if path is not None and path.exists():
            session = self._open_session(path)
            if session is not None:
                screen = RosterScreen(session, self.registry, self.cwd, self.size.width)
        if screen is None:
            screen = self._start_screen()
        # the bottom screen is replaced with switch_screen (closing the roster, opening another),
        # which takes the result callback that push_screen gives a screen: Textual gives the
        # default screen none, so it gets an empty one here
        screen._push_result_callback(self, None)
        return screen

    def _start_screen(self) -> Screen:
        from .screens.start import StartScreen

        return StartScreen(self.registry)

    def on_mount(self) -> None:
        if self._open_error is not None:
            self._report_open_error(*self._open_error)
            self._open_error = None
        screen = self.screen
        if isinstance(screen, RosterScreen):
            self._offer_recovery(screen.session)
        elif self.start_path is not None and not self.start_path.exists():
            self.action_new_roster(self.start_path)

    # ------------------------------------------------------------ rosters

    @property
    def roster_screens(self) -> list[RosterScreen]:
        return [s for s in self.screen_stack if isinstance(s, RosterScreen)]

    def _open_session(self, path: Path, sample: bool = False) -> RosterSession | None:
        """A session for a roster file (a sample opens as an unsaved copy); None when it cannot
        be opened (the reason is kept for :meth:`_report_open_error`)."""
        try:
            opened = open_roster(path, self.registry)
        except RosterkitError as exc:
            self._open_error = (path, exc)
            return None
        if sample:
            return RosterSession(dataclasses.replace(opened, path=None), origin=path.name)
        if opened.version_change is not None:  # the rules changed since the roster was saved
            self.notify(opened.version_change.notice(opened.ruleset.name), title="Rules changed", severity="warning",
                        timeout=10)
        home.remember(path)
        return RosterSession(opened)

    def _report_open_error(self, path: Path, exc: RosterkitError) -> None:
        self.notify(str(exc), title=f"Cannot open {path.name}", severity="error", timeout=10)

    def open_roster(self, path: Path, sample: bool = False) -> None:
        """Open a roster file (a sample opens as an unsaved copy), offering any recovered work."""
        path = Path(path)
        if not path.is_absolute():
            path = self.cwd / path
        session = self._open_session(path, sample)
        if session is None:
            self._report_open_error(*self._open_error)
            self._open_error = None
            return
        self._leave_rosters(lambda: self._offer_recovery(session, show=True))

    def _offer_recovery(self, session: RosterSession, show: bool = False) -> None:
        """Offer the work autosaved for this roster, if any, then show it (``show``: the roster
        screen is still to be made; otherwise it is on screen already, under the offer)."""
        found = home.find_recovery(session.recovery_key())
        if found is None or found.roster == session.roster:
            if found is not None:
                home.drop_recovery(found.key)
            if show:
                self._show(session)
            return

        def answered(restore: bool | None) -> None:
            if restore:
                session.replace_all(found.roster)  # a roster screen on show redraws itself
            else:
                home.drop_recovery(found.key)
            if show:
                self._show(session)

        from .screens.recovery_offer import RecoveryOfferScreen

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
        """Make a roster the screen in front, in place of any roster open before."""
        self._pop_to_base()
        screen = RosterScreen(session, self.registry, self.cwd, self.size.width)
        if isinstance(self.screen, RosterScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def _pop_to_base(self) -> None:
        while len(self.screen_stack) > 1:
            self.pop_screen()

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
            self._leave_rosters(self._back_to_start)

    def _back_to_start(self) -> None:
        """Close every screen down to the start screen (made now when a roster was opened first)."""
        self._pop_to_base()
        if isinstance(self.screen, RosterScreen):
            self.switch_screen(self._start_screen())

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
        from .keys import palette_entries

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
