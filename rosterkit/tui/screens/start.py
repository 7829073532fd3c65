"""Start: new roster, open a file, recent rosters, the sample armies, the rulesets."""

from __future__ import annotations

from pathlib import Path

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ... import __version__
from ...editing import recent, recovery
from ...errors import RosterkitError
from ...files.rosters import load_roster
from ...files.tomlfile import load_toml
from ...rules.numbers import exact, fmt
from ...visible import plain
from ...words import count_of
from .. import messages
from ..widgets.topbar import TopBar

Entry = tuple[str, object]  # (what, payload): new, open, recovery, recent, sample, ruleset


def _is_broken_example(path: Path) -> bool:
    """Sample armies that are wrong on purpose say so in their file names."""
    return any(word in path.stem for word in ("INVALID", "MISMATCH"))


class StartScreen(Screen):
    BINDINGS = [
        Binding("n", "app.new_roster", "New roster"),
        Binding("o", "app.open_file", "Open file"),
        Binding("delete", "forget", "Forget", show=False,
                tooltip="Take a recent roster off the list, or discard recovered work"),
    ]

    def __init__(self, registry) -> None:
        super().__init__()
        self.registry = registry
        self.entries: list[Entry | None] = []
        self._preview_cache: dict[Path, object] = {}
        self._resumed = 0

    def compose(self) -> ComposeResult:
        yield TopBar("", Text(f"v{__version__}", style="dim"), id="topbar")
        with Horizontal(id="start-body"):
            with Vertical(id="start-left"):
                yield Static(Text.assemble(
                    ("Build an army for a tabletop wargame: ", "bold"),
                    "every point explained, every limit checked.\n",
                    ("Start a new roster, or open a sample army to look around. "
                     "F1 shows every key; ctrl+p finds any command.", "dim")), id="start-welcome", markup=False)
                yield OptionList(id="start-list")
            with VerticalScroll(id="start-preview"):
                yield Static("", id="start-preview-body", markup=False)
        yield Footer(compact=True)

    def on_resize(self, event) -> None:
        self.set_class(event.size.width < 100, "-narrow")

    def on_mount(self) -> None:
        self.query_one("#start-preview").border_title = "Preview"
        self.query_one("#start-list", OptionList).focus()
        self.fill()

    def on_screen_resume(self) -> None:
        # filled again when shown again (after closing a roster): the recent rosters have changed
        self._resumed += 1
        if self._resumed > 1:
            self.call_later(self._fill_if_current)

    def _fill_if_current(self) -> None:
        if self.is_current:
            self.fill()

    # ------------------------------------------------------------ the list

    def fill(self) -> None:
        entries: list[Entry | None] = []
        options: list[Option] = []

        def head(title: str) -> None:
            entries.append(None)
            options.append(Option(Text(title, style="bold underline"), disabled=True))

        def add(entry: Entry, prompt: Text) -> None:
            entries.append(entry)
            options.append(Option(prompt))

        head("Start")
        add(("new", None), Text.assemble(("New roster…", "bold green"), ("  pick a game, name your army", "dim")))
        add(("open", None), Text.assemble(("Open a file…", "bold"), ("  any roster .toml", "dim")))
        add(("paste", None), Text.assemble(("New roster from pasted list…", "bold"),
                                            ("  a list's text", "dim")))
        recoveries = recovery.all_recoveries()
        if recoveries:
            head("Unsaved work (recovered)")
            for r in recoveries:
                where = r.path.name if r.path else "not saved yet"
                add(("recovery", r), Text.assemble((r.roster.name, "bold yellow"), (f"  {where}, {r.when()}", "dim")))
        lately = recent.recent_rosters()
        if lately:
            head("Recent rosters")
            for p in lately:
                add(("recent", p), self._roster_prompt(p))
        samples = self.app.samples if getattr(self.app, "samples", None) is not None else recent.sample_files()
        samples = sorted(samples, key=lambda p: (_is_broken_example(p), p.name))
        if samples:
            head("Sample armies")
            for p in samples:
                add(("sample", p), self._roster_prompt(p))
        rulesets = self._rulesets()
        if rulesets:
            head("Rulesets (browse)")
            for rid, name, path in rulesets:
                add(("ruleset", rid), Text.assemble((name, ""), (f"  {rid}", "dim")))
        lst = self.query_one("#start-list", OptionList)
        keep = lst.highlighted
        self.entries = entries
        lst.set_options(options)
        first = 1
        lst.highlighted = keep if keep is not None and keep < len(entries) and entries[keep] else first
        self._preview()

    def _rulesets(self) -> list[tuple[str, str, Path]]:
        out, seen = [], set()
        for path in self.registry.files():
            try:
                data, _ = load_toml(path)
            except RosterkitError:
                continue
            rid, name = data.get("id"), data.get("name")
            if isinstance(rid, str) and rid not in seen:
                seen.add(rid)
                out.append((rid, name if isinstance(name, str) else rid, path))
        return out

    def _roster_data(self, path: Path):
        if path not in self._preview_cache:
            try:
                self._preview_cache[path] = load_roster(path).roster
            except RosterkitError as exc:
                self._preview_cache[path] = exc
        return self._preview_cache[path]

    def _roster_prompt(self, path: Path) -> Text:
        roster = self._roster_data(path)
        if isinstance(roster, RosterkitError):
            return Text.assemble((path.name, "red"), ("  cannot be read", "dim red"))
        pts = f", {fmt(exact(roster.points_limit))} pts" if roster.points_limit is not None else ""
        n = len(roster.units)
        text = Text.assemble((roster.name, "bold"), (f"  {roster.ruleset}{pts}, {n} unit{'s' if n != 1 else ''}", "dim"))
        if _is_broken_example(path):
            text.append("  example with errors", style="italic red")
        return text

    @property
    def current(self) -> Entry | None:
        i = self.query_one("#start-list", OptionList).highlighted
        return self.entries[i] if i is not None and i < len(self.entries) else None

    @on(OptionList.OptionHighlighted, "#start-list")
    def _preview(self) -> None:
        body = self.query_one("#start-preview-body", Static)
        entry = self.current
        if entry is None:
            body.update("")
            return
        what, payload = entry
        if what == "new":
            body.update(Text.assemble(("New roster\n\n", "bold"),
                                      "Pick a ruleset, name the army, set the points limit, and you are in. "
                                      "Then press ctrl+n to add units from the ruleset's catalogue.\n\n",
                                      ("Enter to start.", "dim")))
        elif what == "paste":
            body.update(Text.assemble(("New roster from a pasted list\n\n", "bold"),
                                      "Paste a list's text (as rosterkit text writes it, or a bulleted list "
                                      "from a forum or a chat) and it opens as a new roster.\n\n",
                                      ("Enter to start.", "dim")))
        elif what == "open":
            body.update(Text.assemble(("Open a roster file\n\n", "bold"), "Type a path or pick one in a folder tree."))
        elif what == "ruleset":
            body.update(Text.assemble((f"Browse the ruleset {payload}\n\n", "bold"),
                                      "Its stats, types, cost formulas, catalogues and composition limits."))
        elif what == "recovery":
            r = payload
            body.update(Text.assemble((f"{r.roster.name}\n\n", "bold"),  # type: ignore[union-attr]
                                      f"Unsaved changes autosaved {r.when()} "  # type: ignore[union-attr]
                                      f"({count_of(len(r.roster.units), 'unit')}). Enter restores them.",  # type: ignore[union-attr]
                                      ("\n" + str(r.path) if r.path else "", "dim")))  # type: ignore[union-attr]
        else:
            body.update(self._roster_preview(payload))  # type: ignore[arg-type]

    def _roster_preview(self, path: Path) -> Group | Text:
        roster = self._roster_data(path)
        if isinstance(roster, RosterkitError):
            return Text(str(roster), style="red")
        head = Text.assemble((roster.name, "bold"), "\n", (f"{roster.ruleset}", "dim"))
        if roster.points_limit is not None:
            head.append(f" · {fmt(exact(roster.points_limit))} points", style="dim")
        table = Table.grid(padding=(0, 1))
        table.add_column()
        table.add_column(justify="right")
        for u in roster.units[:30]:
            count = u.count if u.count is not None else sum(m.count for m in u.members) if u.members else ""
            table.add_row(plain(u.name), plain(f"x{count}" if count != "" else ""))
        if len(roster.units) > 30:
            table.add_row(Text(f"… and {len(roster.units) - 30} more", style="dim"), "")
        parts = [head]
        if roster.notes:
            parts.append(Text(roster.notes, style="italic"))
        parts.append(Text(""))
        parts.append(table)
        parts.append(Text(f"\n{path.name}", style="dim"))
        return Group(*parts)

    @on(OptionList.OptionSelected, "#start-list")
    def _chosen(self) -> None:
        entry = self.current
        if entry is None:
            return
        what, payload = entry
        if what == "new":
            self.post_message(messages.NewRoster())
        elif what == "paste":
            self.post_message(messages.PasteList())
        elif what == "open":
            self.post_message(messages.OpenFile())
        elif what == "recovery":
            self.post_message(messages.RestoreRecovery(payload))  # type: ignore[arg-type]
        elif what in ("recent", "sample"):
            self.post_message(messages.OpenRoster(payload, sample=what == "sample"))  # type: ignore[arg-type]
        elif what == "ruleset":
            self.post_message(messages.BrowseRuleset(payload))  # type: ignore[arg-type]

    def action_forget(self) -> None:
        entry = self.current
        if entry is None:
            return
        what, payload = entry
        if what == "recovery":
            recovery.drop(payload)  # type: ignore[arg-type]
            self.notify("Recovered work discarded", timeout=2)
            self.fill()
        elif what == "recent":
            recent.forget(payload)  # type: ignore[arg-type]
            self.fill()
