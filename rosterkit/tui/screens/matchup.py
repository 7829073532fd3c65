"""Match-up: this roster against an opponent's of the same ruleset."""

from __future__ import annotations

from pathlib import Path

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from ...editing.document import Document
from ...engine.validation import check_matchup
from ...errors import RosterkitError
from ...rules.numbers import fmt
from ...visible import plain
from ...words import with_article
from ...workspace import open_roster
from ..widgets.findings_panel import finding_text
from ..widgets.topbar import TopBar


class MatchupScreen(Screen):
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("o", "pick", "Opponent…"),
    ]

    def __init__(self, session: Document, registry, cwd: Path, opponent: Path | None = None) -> None:
        super().__init__()
        self.session = session
        self.registry = registry
        self.cwd = cwd
        self.opponent = opponent

    def compose(self) -> ComposeResult:
        yield TopBar(Text.assemble(("Match-up", "bold"), f" · {self.session.roster.name}"), id="topbar")
        with VerticalScroll(id="matchup-body"):
            yield Static("", id="matchup", markup=False)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        if self.opponent is not None:
            self.show(self.opponent)
        else:
            self.query_one("#matchup", Static).update(Text(
                "Press o to choose the opponent's roster (a file of the same ruleset).", style="dim"))
            self.action_pick()

    def action_pick(self) -> None:
        from .open_file import OpenFileScreen

        def done(path: Path | None) -> None:
            if path is not None:
                self.show(path)

        self.app.push_screen(OpenFileScreen(self.cwd, "Opponent's roster"), done)

    def show(self, path: Path) -> None:
        self.opponent = path
        box = self.query_one("#matchup", Static)
        s = self.session
        rs = s.rs
        try:
            opened = open_roster(path, self.registry)
        except RosterkitError as exc:
            box.update(Text(str(exc), style="red"))
            return
        theirs = opened.roster
        if theirs.ruleset != rs.id:
            box.update(Text(f"{path.name} is {with_article(theirs.ruleset)} roster; this one is {rs.id}. "
                            "A match-up needs two rosters of the same ruleset.", style="bold red"))
            return
        their_report, their_validation = opened.report, opened.validation
        label = rs.data.points_label
        table = Table(expand=True, header_style="bold")
        table.add_column("")
        # (the two armies' names head the columns: Rich reads a str header as markup)
        table.add_column(plain(s.roster.name), justify="right")
        table.add_column(plain(theirs.name), justify="right")

        def limit(report) -> Text:
            return plain(fmt(report.limit) if report.limit is not None else "-")

        def status(v) -> Text:
            return Text("valid", style="green") if v.ok else Text(f"{len(v.errors)} error(s)", style="red")

        table.add_row(plain(label.capitalize()), fmt(s.report.total), fmt(their_report.total))
        table.add_row("Limit", limit(s.report), limit(their_report))
        table.add_row("Units", fmt(len(s.roster.units)), fmt(len(theirs.units)))
        table.add_row("List", status(s.validation), status(their_validation))
        diff = s.report.total - their_report.total
        parts: list = [table, Text("")]
        if diff:
            parts.append(Text(f"{s.roster.name if diff > 0 else theirs.name} has {fmt(abs(diff))} {label} more."))
        else:
            parts.append(Text("Both armies have the same points."))
        if rs.matchups:
            findings = check_matchup(rs, s.report, their_report)
            parts.append(Text("\nMatch-up rules", style="bold"))
            for m in rs.matchups:
                broken = next((f for f in findings if f.rule == m.spec.id), None)
                if broken is None:
                    parts.append(Text.assemble(("✔ ", "bold green"), m.spec.label))
                else:
                    parts.append(finding_text(broken))
        else:
            parts.append(Text(f"\n{rs.name} has no match-up rules; only the totals are compared.", style="dim"))
        parts.append(Text(f"\nOpponent: {path.name}  (o: choose another)", style="dim"))
        box.update(Group(*parts))

    def action_back(self) -> None:
        self.dismiss()
