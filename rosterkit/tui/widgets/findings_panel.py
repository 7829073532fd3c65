"""Every error and warning of the roster, updated on every edit; choosing one jumps to it."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...editing.document import Document
from ...findings import Finding

ICONS = {"error": ("✘", "bold red"), "warning": ("!", "bold yellow"), "info": ("i", "cyan")}


def finding_text(f: Finding) -> Text:
    icon, style = ICONS.get(f.severity, ("·", ""))
    text = Text.assemble((icon + " ", style))
    if f.unit_name is not None:
        text.append(f.where() + ": ", style="bold")
    text.append(f.message)
    if f.hint:
        text.append(f"\n  {f.hint}", style="dim")
    return text


class FindingsPanel(Vertical):
    @dataclass
    class Jump(Message):
        panel: "FindingsPanel"
        finding: Finding

        @property
        def control(self) -> "FindingsPanel":
            return self.panel

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Findings"
        self.findings: tuple[Finding, ...] = ()
        self._shown: tuple[Finding, ...] | None = None
        self._pending: Document | None = None  # shown before it was mounted

    def compose(self) -> ComposeResult:
        yield Static("", id="findings-head", markup=False)
        yield OptionList(id="findings-list")

    def on_mount(self) -> None:
        if self._pending is not None:
            self.show(self._pending)

    @property
    def list(self) -> OptionList:
        return self.query_one("#findings-list", OptionList)

    def show(self, session: Document) -> None:
        if not self.children:  # not composed yet (made when first shown): filled once mounted
            self._pending = session
            return
        self._pending = None
        findings = tuple(session.validation.findings)
        if findings == self._shown:
            return
        self._shown = findings
        self.findings = findings
        errors = sum(1 for f in findings if f.severity == "error")
        warnings = sum(1 for f in findings if f.severity == "warning")
        head = self.query_one("#findings-head", Static)
        if not findings:
            head.update(Text("✔ No problems: the roster is valid.", style="bold green"))
        else:
            text = Text()
            if errors:
                text.append(f"{errors} error{'s' if errors != 1 else ''}", style="bold red")
            if warnings:
                text.append(", " if errors else "")
                text.append(f"{warnings} warning{'s' if warnings != 1 else ''}", style="bold yellow")
            text.append("  (enter: go to it)", style="dim")
            head.update(text)
        lst = self.list
        keep = lst.highlighted
        lst.set_options([Option(finding_text(f)) for f in findings])
        lst.display = bool(findings)
        if findings:  # the first finding is preselected: enter goes to it at once
            with lst.prevent(OptionList.OptionHighlighted):
                lst.highlighted = min(keep, len(findings) - 1) if keep is not None else 0

    @on(OptionList.OptionSelected, "#findings-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self.findings):
            self.post_message(self.Jump(self, self.findings[event.option_index]))
