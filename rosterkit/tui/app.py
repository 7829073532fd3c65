"""The terminal interface: `rosterkit` (start screen) or `rosterkit FILE` (that roster).

`rosterkit FILE` opens straight on the roster screen: the start screen is made only when
the player goes to it (closing the roster) or when the file cannot be opened. Screens
shown later (design, export, match-up, the ruleset, help, dialogs) are imported when opened.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path

from textual import on, work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.timer import Timer

from ..editing import recovery
from ..editing.document import (
    Document,
    new_document,
    open_document,
    recovered_document,
    take_over,
    unsaved_document,
)
from ..errors import RosterkitError
from ..files.atomic import Fingerprint
from ..files.rulesets import Registry
from ..visible import visible
from . import messages
from .keymap import keymap_path, read_keymap
from .safe_text import ShowControls
from .screens.roster import RosterScreen

AUTOSAVE_DELAY = 1.0  # seconds after the last edit before the unsaved work is written aside


class RosterkitApp(App[int]):
    """rosterkit: design figures, build armies, see every point, check every limit."""

    CSS_PATH = "app.tcss"
    TITLE = "rosterkit"
    BINDINGS = [
        Binding("f1", "help", "Help", tooltip="Every key of this screen", id="app.help"),
        # ctrl+q quits every Textual app; as in Textual's own App, it is in F1 and the palette, not
        # the footer, which keeps its room at 60 columns for the screen's own keys
        Binding("ctrl+q", "quit", "Quit", priority=True, show=False, tooltip="Quit (asks to save unsaved changes)",
                id="app.quit"),
        Binding("ctrl+o", "open_file", "Open", show=False, tooltip="Open a roster file", id="app.open_file"),
    ]

    def __init__(self, registry: Registry | None = None, path: Path | str | None = None, *,
                 cwd: Path | None = None, samples: list[Path] | None = None, game=None) -> None:
        super().__init__()
        self.start_game = game  # a game to play (rosterkit play), shown first
        self.registry = registry or Registry()
        self.start_path = Path(path).absolute() if path is not None else None
        self.cwd = Path(cwd) if cwd is not None else Path.cwd()
        self.samples = samples
        self._open_error: tuple[Path, RosterkitError] | None = None  # the roster given could not be opened
        self.window = recovery.new_window()  # this window's name in the recovery folder
        self._autosave_timer: Timer | None = None
        self._show_controls = ShowControls()
        self.player_keys: dict[str, str] = {}  # binding id -> keys, from the player's keymap file
        self.start_screen: Screen | None = None  # the start screen, once made (rosters are shown over it)

    def get_line_filters(self):
        """Textual's line filters, then ours: no control character from a file reaches the terminal."""
        return [*super().get_line_filters(), self._show_controls]

    def notify(self, message: str, *, title: str = "", severity="information", timeout: float | None = None,
               markup: bool = False) -> None:
        """A notification, its text never read as markup (names from files are shown as written)."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def get_default_screen(self) -> Screen:
        """An empty screen under every other: the roster given on the command line, or the start
        screen, is pushed over it (and replaced by popping and pushing, never by switching)."""
        return Screen(id="base")

    def _start_screen(self) -> Screen:
        from .screens.start import StartScreen

        self.start_screen = StartScreen(self.registry)
        return self.start_screen

    def on_mount(self) -> None:
        """The roster given on the command line when it opens; otherwise the start screen."""
        self.player_keys, problems = read_keymap(keymap_path())
        self.set_keymap(self.player_keys)
        for problem in problems:
            self.notify(problem, title="Your keymap file", severity="warning", timeout=15)
        if self.start_game is not None:
            from .screens.play import PlayScreen

            self.push_screen(PlayScreen(self.start_game))
            return
        path = self.start_path
        session = self._open_session(path) if path is not None and path.exists() else None
        if session is not None:
            self.push_screen(RosterScreen(session, self.registry, self.cwd, self.size.width))
            self._offer_recovery(session)
            return
        self.push_screen(self._start_screen())
        if self._open_error is not None:
            self._report_open_error(*self._open_error)
            self._open_error = None
        elif path is not None and not path.exists():
            self.action_new_roster(path)

    # ------------------------------------------------------------ rosters

    @property
    def roster_screens(self) -> list[RosterScreen]:
        return [s for s in self.screen_stack if isinstance(s, RosterScreen)]

    def _open_session(self, path: Path, sample: bool = False) -> Document | None:
        """A document for a roster file (a sample opens as an unsaved copy); None when it cannot
        be opened (the reason is kept for :meth:`_report_open_error`)."""
        try:
            doc = open_document(path, self.registry, self.window, sample)
        except RosterkitError as exc:
            self._open_error = (path, exc)
            return None
        if doc.version_change is not None:  # the rules changed since the roster was saved
            self.notify(doc.version_change.notice(doc.rs.name), title="Rules changed", severity="warning",
                        timeout=10)
        return doc

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

    def _offer_recovery(self, session: Document, show: bool = False) -> None:
        """Offer the work autosaved for this roster by a window that is gone, if any, then show
        it (``show``: the roster screen is still to be made; otherwise it is on screen already,
        under the offer)."""
        if not show:
            self._hold_session(session)
        found = session.pending_recovery()
        if found is None:
            if show:
                self._show(session)
            return

        def answered(restore: bool | None) -> None:
            if show:
                self._show(session)
            if restore:
                self._autosave_failed(session.restore(found).notice)  # a roster screen on show redraws itself
            else:
                recovery.drop(found)

        from .screens.recovery_offer import RecoveryOfferScreen

        total = session.costing.report(found.roster).total
        self.push_screen(RecoveryOfferScreen(found.roster.name, len(session.roster.units), len(found.roster.units),
                                             found.when(), total, kept_aside=found.window is None), answered)

    def restore_recovery(self, found: recovery.Recovery) -> None:
        """Open recovered work chosen on the start screen."""
        try:
            session = recovered_document(found, self.registry, self.window)
        except RosterkitError as exc:
            self.notify(str(exc), severity="error", timeout=10)
            return

        def show() -> None:
            self._show(session)
            self._autosave_failed(take_over(session, found))

        self._leave_rosters(show)

    def reload_from_disk(self, session: Document) -> None:
        """Open the roster's file as it is on disk now, in place of the document; its unsaved
        work is kept aside (offered when the file is opened again, and on the start screen)."""
        assert session.path is not None
        try:
            fresh, kept = session.reload(self.registry)
        except RosterkitError as exc:
            self._report_open_error(session.path, exc)
            return
        except OSError as exc:
            self.notify(f"Cannot keep your changes aside ({exc.strerror or exc}): nothing was loaded",
                        title="Not loaded", severity="error", timeout=10)
            return
        if kept:
            said = ("Your unsaved changes are kept as recovered work: the start screen lists them, and they "
                    f"are offered when {visible(session.path.name)} is opened again.")
        else:
            said = f"Loaded {visible(session.path.name)} as it is on disk"
        self._release_session(session)
        self._show(fresh)
        self.call_after_refresh(self.notify, said, title="Loaded the file's version", timeout=10)

    # ------------------------------------------------------------ what screens ask for

    @on(messages.NewRoster)
    def _new_roster_asked(self) -> None:
        self.action_new_roster()

    @on(messages.PasteList)
    def _paste_list_asked(self) -> None:
        self.action_paste_list()

    @on(messages.OpenPastedList)
    def _pasted_list_read(self, message: messages.OpenPastedList) -> None:
        self.open_pasted(message.imported)

    @on(messages.LeavePlay)
    def _play_left(self, message: messages.LeavePlay) -> None:
        if self.screen is message.screen:
            self.pop_screen()
        if len(self.screen_stack) == 1:  # the game was all there was (rosterkit play)
            self.exit(0)

    @on(messages.OpenFile)
    def _open_file_asked(self) -> None:
        self.action_open_file()

    @on(messages.OpenRoster)
    def _open_roster_asked(self, message: messages.OpenRoster) -> None:
        self.open_roster(message.path, message.sample)

    @on(messages.RestoreRecovery)
    def _restore_asked(self, message: messages.RestoreRecovery) -> None:
        self.restore_recovery(message.found)

    @on(messages.BrowseRuleset)
    def _ruleset_asked(self, message: messages.BrowseRuleset) -> None:
        self.browse_ruleset(message.ruleset_id)

    @on(messages.SaveRequested)
    def _save_asked(self, message: messages.SaveRequested) -> None:
        self.save_document(message.document, message.then)

    # ------------------------------------------------------------ saving

    def save_document(self, doc: Document, then: Callable[[], None] | None = None) -> None:
        """Save a roster to its file, asking first what the document says a save needs (a file
        name, or what to do about a file another program changed), then carry on with ``then``.
        Nothing is carried on with when the save fails or is cancelled."""
        needs = doc.save_needs()
        if needs == "file":
            self._save_as(doc, then)
        elif needs == "consent":
            self._ask_changed(doc, then)
        elif self._write(doc, doc.path) and then is not None:
            then()

    def _ask_changed(self, doc: Document, then: Callable[[], None] | None) -> None:
        from .screens.file_changed import FileChangedScreen

        path = doc.path
        assert path is not None
        seen = doc.expected_at(path, replacing=True)  # the version the player is told of is the one replaced

        def answered(answer: str | None) -> None:
            if doc.path != path or doc not in self._documents():
                return
            if answer == "mine":
                if self._write(doc, path, seen) and then is not None:
                    then()
            elif answer == "theirs":
                self.reload_from_disk(doc)
                if then is not None:
                    then()
            elif answer == "save_as":
                self._save_as(doc, then)

        self.push_screen(FileChangedScreen(path.name, doc.dirty), answered)

    def _save_as(self, doc: Document, then: Callable[[], None] | None) -> None:
        from .screens.save_as import SaveAsScreen

        def chosen(path: Path | None) -> None:
            if path is not None and self._write(doc, path) and then is not None:
                then()

        self.push_screen(SaveAsScreen(doc.suggested_file(), self.cwd), chosen)

    def _write(self, doc: Document, path: Path, expect: Fingerprint | None = None) -> bool:
        """Write the roster to ``path`` now; False (the reason shown) when it cannot be. ``expect``:
        the file the player chose to replace (else the roster's file as it was opened or saved)."""
        try:
            change = doc.save(path, expect)
        except RosterkitError as exc:
            self.notify(visible(exc), title="Not saved", severity="error", timeout=8)
            return False
        for screen in self.screen_stack:  # (each screen showing the roster updates its title)
            screen.post_message(messages.Saved(doc, change))
        self.notify(f"Saved {visible(path.name)}", timeout=2)
        return True

    def _documents(self) -> list[Document]:
        return [s.session for s in self.roster_screens]

    # ------------------------------------------------------------ autosave and windows

    def _hold_session(self, session: Document) -> None:
        """A session shown in this window: claimed for it, autosaved after each change, and
        the player told when another window has the same roster open."""
        if session.on_change is not None:
            return
        session.on_change = self._roster_changed
        others = session.open_in_window()
        if others and session.path is not None:  # (an unsaved copy is this window's alone)
            pid = others[0]
            self.notify(f"This roster is also open in another window (pid {pid}); saving here may overwrite "
                        "its changes.", title="Open twice", severity="warning", timeout=12)
        broken = session.broken_formula
        if broken is not None:  # the ruleset's own mistake: said at once, whatever panel is shown
            self.notify(f"{broken.message}" + (f"\n{broken.hint}" if broken.hint else "") +
                        "\nThe units it prices are marked ✘ (see Findings); fix the ruleset and open the roster again.",
                        title=f"A formula of {session.rs.name} cannot be used", severity="error", timeout=15)

    def _release_session(self, session: Document) -> None:
        """A session closed in this window: its recovery file and claim go."""
        if self._autosave_timer is not None:
            self._autosave_timer.stop()
            self._autosave_timer = None
        session.on_change = None
        session.close()

    def on_unmount(self) -> None:
        """The window closes: it lets go of its rosters (its unsaved work stays until then)."""
        for screen in self.roster_screens:
            screen.session.recovery.release()

    def _roster_changed(self, session: Document) -> None:
        # the timer is the interface's (Textual's clock); what is written aside is the document's
        if self._autosave_timer is not None:
            self._autosave_timer.stop()
        self._autosave_timer = self.set_timer(AUTOSAVE_DELAY, partial(self._autosave, session))

    def _autosave(self, session: Document) -> None:
        self._autosave_timer = None
        self._write_recovery(session)

    @work(thread=True, exclusive=True, group="autosave")
    def _write_recovery(self, session: Document) -> None:
        notice = session.write_recovery()
        if notice is not None:
            self.call_from_thread(self._autosave_failed, notice)

    def _autosave_failed(self, notice: str | None) -> None:
        if notice is not None:
            self.notify(notice, title="Autosave failed", severity="warning", timeout=15)

    def _show(self, session: Document) -> None:
        """Make a roster the screen in front, in place of any roster open before."""
        self._pop_to_base()
        self._hold_session(session)
        self.push_screen(RosterScreen(session, self.registry, self.cwd, self.size.width))

    def _pop_to_base(self) -> None:
        """Close every screen down to the start screen, or to the empty one under it all."""
        while len(self.screen_stack) > 1 and self.screen is not self.start_screen:
            self.pop_screen()

    def _leave_rosters(self, then) -> None:
        """Close open rosters (asking about unsaved changes), then carry on."""
        screens = self.roster_screens
        dirty = [s for s in screens if s.session.dirty]
        if not dirty:
            for s in screens:
                self._release_session(s.session)
            then()
            return
        self._ask_unsaved(dirty, "opening another roster", then)

    def _ask_unsaved(self, dirty: list[RosterScreen], leaving: str, then) -> None:
        from .screens.confirm_quit import ConfirmQuitScreen

        def answered(answer: str | None) -> None:
            if answer == "discard":
                for s in dirty:
                    self._release_session(s.session)
                then()
            elif answer == "save":
                self._save_all(dirty, lambda: self._close_all_then(then))

        for s in dirty:
            self._autosave_failed(s.session.write_recovery())
        self.push_screen(ConfirmQuitScreen([s.session.roster.name for s in dirty], leaving), answered)

    def _close_all_then(self, then) -> None:
        for s in self.roster_screens:
            self._release_session(s.session)
        then()

    def _save_all(self, dirty: list[RosterScreen], then) -> None:
        """Save each roster (asking where, or about a file changed on disk, as a save does), then
        carry on; a save that fails or is cancelled stops there."""
        pending = [s.session for s in dirty]

        def next_one() -> None:
            if pending:
                self.save_document(pending.pop(0), then=next_one)
                return
            then()

        next_one()

    # ------------------------------------------------------------ actions

    async def action_quit(self) -> None:
        dirty = [s for s in self.roster_screens if s.session.dirty]
        if not dirty:
            for s in self.roster_screens:
                self._release_session(s.session)
            self.exit(0)
            return
        from .screens.confirm_quit import ConfirmQuitScreen

        if any(isinstance(s, ConfirmQuitScreen) for s in self.screen_stack):
            return
        self._ask_unsaved(dirty, "quitting", lambda: self.exit(0))

    def action_new_roster(self, path: Path | None = None) -> None:
        from .screens.new_roster import NewRoster, NewRosterScreen

        def done(result: NewRoster | None) -> None:
            if result is None:
                return
            try:
                session = new_document(result.roster, result.ruleset, result.path, self.window)
            except RosterkitError as exc:
                self.notify(str(exc), title="Not created", severity="error", timeout=10)
                return
            self._leave_rosters(lambda: self._show(session))

        self.push_screen(NewRosterScreen(self.registry, self.cwd, path), done)

    def action_paste_list(self) -> None:
        from .screens.paste_list import PasteListScreen

        self.push_screen(PasteListScreen(self.registry))

    def open_pasted(self, imported) -> None:
        """A list read from pasted text, opened as a new roster not saved yet (kept aside at once)."""
        from ..workspace import open_value

        try:
            opened = open_value(imported.read.roster, imported.report.ruleset)
        except RosterkitError as exc:
            self.notify(str(exc), title="Not created", severity="error", timeout=10)
            return
        session = unsaved_document(opened, "pasted list", self.window)
        said = [visible(note) for note in imported.read.notes]
        said += [visible(f"kept as written: {f.message}") for f in imported.unknown]

        def show() -> None:
            self._show(session)
            self._autosave_failed(session.write_recovery())
            self.notify("\n".join([f"{len(session.roster.units)} units read; not saved yet (ctrl+s saves)",
                                   *said[:8]]), title="New roster from the pasted list", timeout=10)

        self._leave_rosters(show)

    def action_play_army(self, against: bool = False) -> None:
        """A game with the roster in front (``against``: an opponent's roster asked for), saved
        first when it has to be: a game is of roster files."""
        screens = self.roster_screens
        if not screens:
            return
        screen = screens[-1]
        screen.apply_pending()  # what the focused field holds is part of the file played from
        session = screen.session

        def play() -> None:
            if session.path is None or session.dirty:
                return
            if not against:
                self.play_game(session.path)
                return
            from .screens.open_file import OpenFileScreen

            def chosen(opponent: Path | None) -> None:
                if opponent is not None:
                    self.play_game(session.path, opponent)

            self.push_screen(OpenFileScreen(self.cwd, "The opponent's roster"), chosen)

        if session.path is None or session.dirty:
            self.notify("A game is played from the roster's file: save it first", timeout=5)
            self.save_document(session, then=play)
            return
        play()

    def play_game(self, army: Path, opponent: Path | None = None) -> None:
        """Begin a game (or resume the one beside the roster) and show it."""
        from ..editing.play import Game
        from .screens.play import PlayScreen

        try:
            game = Game.start(army, opponent, registry=self.registry)
        except RosterkitError as exc:
            self.notify(str(exc), title="Cannot play", severity="error", timeout=12)
            return
        self.push_screen(PlayScreen(game))

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
        if self.screen is not self.start_screen:
            self.push_screen(self._start_screen())

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
            ("New roster from pasted list…", "Paste or type a list's text; it is read as `rosterkit import` "
             "reads it", self.action_paste_list),
        ]
        if self.roster_screens:
            extra.append(("Close roster", "Back to the start screen (asks to save)", self.action_close_roster))
            extra.append(("Play this army", "A game at the table: mark wounds and losses, score, turns",
                          self.action_play_army))
            extra.append(("Play this army against…", "A game against an opponent's roster: both sides' losses "
                          "and victory points", partial(self.action_play_army, True)))
        for title, help_text, callback in extra:
            if title.casefold() not in titles:
                yield SystemCommand(title, help_text, callback)
        for command in super().get_system_commands(screen):
            if command.title.casefold() not in titles and command.title not in ("Quit",):
                yield command

    async def _run(self, node, action: str) -> None:
        await self.run_action(action, node)


def run_app(path, registry, game=None) -> int:
    """Run the terminal interface (``game``: on that game's screen); the exit code for the command line."""
    app = RosterkitApp(registry, path, game=game)
    app.run()
    return app.return_code or 0
