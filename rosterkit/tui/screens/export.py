"""Export: the list as plain text or Markdown (copy or save), and PDF unit cards when available."""

from __future__ import annotations

import importlib
from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Label, ProgressBar, Select, Static, Switch, TextArea

from ...engine.textlist import roster_text
from ...errors import RosterkitError
from ...files.atomic import atomic_write
from ..session import RosterSession
from ..widgets.footer import KeyFooter
from ..widgets.topbar import TopBar

CARD_SIZES = ("poker", "tarot", "index", "a6")


def pdf_module():
    """rosterkit.cards.pdf when it provides export_cards, else None."""
    try:
        module = importlib.import_module("rosterkit.cards.pdf")
    except Exception:
        return None
    return module if hasattr(module, "export_cards") else None


class ExportScreen(Screen):
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("m", "toggle_markdown", "Markdown"),
        Binding("c", "copy", "Copy"),
        Binding("s", "save_text", "Save text"),
        Binding("p", "pdf", "PDF cards"),
    ]

    def __init__(self, session: RosterSession, cwd: Path) -> None:
        super().__init__()
        self.session = session
        self.cwd = cwd
        self.markdown = False
        self.pdf = pdf_module()
        self.card_size = CARD_SIZES[0]

    def compose(self) -> ComposeResult:
        yield TopBar(Text.assemble(("Export", "bold"), f" · {self.session.roster.name}"), id="topbar")
        with Vertical(id="export-body"):
            with Horizontal(id="export-controls"):
                yield Switch(False, id="export-md")
                yield Label("Markdown", id="export-md-label", markup=False)
                yield Button("Copy", id="export-copy", compact=True, variant="primary")
                yield Button("Save text…", id="export-save", compact=True)
                if self.pdf is not None:
                    yield Button("PDF cards…", id="export-pdf", compact=True)
            yield TextArea("", id="export-text", read_only=True, soft_wrap=False)
            yield ProgressBar(id="pdf-progress", show_eta=False)
            yield Static("", id="export-status", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#pdf-progress").display = False
        self._render_text()

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "pdf":
            return self.pdf is not None
        return True

    @property
    def text(self) -> str:
        s = self.session
        return roster_text(s.report, markdown=self.markdown, valid=s.validation.ok)

    def _render_text(self) -> None:
        area = self.query_one("#export-text", TextArea)
        area.load_text(self.text)
        area.language = "markdown" if self.markdown else None

    def _status(self, text: str, style: str = "") -> None:
        self.query_one("#export-status", Static).update(Text(text, style=style))

    @on(Select.Changed, "#export-size")
    def _size(self, event: Select.Changed) -> None:
        if event.value is not Select.NULL:
            self.card_size = str(event.value)

    @on(Switch.Changed, "#export-md")
    def _md(self, event: Switch.Changed) -> None:
        self.markdown = event.value
        self._render_text()

    def action_toggle_markdown(self) -> None:
        switch = self.query_one("#export-md", Switch)
        switch.value = not switch.value

    @on(Button.Pressed, "#export-copy")
    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self.text)
        self._status(f"Copied the list ({'Markdown' if self.markdown else 'plain text'}) to the clipboard.", "green")

    @on(Button.Pressed, "#export-save")
    def action_save_text(self) -> None:
        from .save_as import SaveAsScreen

        suffix = ".md" if self.markdown else ".txt"
        stem = self.session.path.stem if self.session.path else self.session.roster.name.lower().replace(" ", "_")

        def done(path: Path | None) -> None:
            if path is None:
                return
            try:
                atomic_write(path, self.text)
            except OSError as exc:
                self._status(f"Not saved: {exc.strerror or exc}", "bold red")
                return
            self._status(f"Saved {path}", "green")

        self.app.push_screen(SaveAsScreen(stem + suffix, self.cwd, "Save the list as", suffix=suffix), done)

    @on(Button.Pressed, "#export-pdf")
    def action_pdf(self) -> None:
        from .save_as import SaveAsScreen

        if self.pdf is None:
            return
        stem = self.session.path.stem if self.session.path else self.session.roster.name.lower().replace(" ", "_")

        def done(path: Path | None) -> None:
            if path is not None:
                bar = self.query_one("#pdf-progress", ProgressBar)
                bar.update(total=None, progress=0)
                bar.display = True
                self._status(f"Writing {path.name}…")
                self._export_pdf(path)

        self.app.push_screen(SaveAsScreen(f"{stem}_cards.pdf", self.cwd, "Save unit cards as", suffix=".pdf"), done)

    @work(thread=True, exclusive=True, group="pdf")
    def _export_pdf(self, path: Path) -> None:
        s = self.session
        bar = self.query_one("#pdf-progress", ProgressBar)

        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(bar.update, total=total, progress=done)

        try:
            kwargs: dict = {"progress": progress}
            if hasattr(self.pdf, "CardOptions"):
                kwargs["options"] = self.pdf.CardOptions(size=self.card_size)
            result = self.pdf.export_cards(s.report, s.validation, path, **kwargs)
        except (RosterkitError, OSError, ValueError, TypeError) as exc:
            self.app.call_from_thread(self._status, f"Cards not written: {exc}", "bold red")
            return
        done = f"Wrote {path}"
        cards, pages = getattr(result, "cards", None), getattr(result, "pages", None)
        if cards is not None and pages is not None:
            done += f": {cards} card{'s' if cards != 1 else ''} on {pages} page{'s' if pages != 1 else ''}"
        missing = getattr(result, "missing_glyphs", None)
        if missing:
            done += f" (no glyph for {''.join(sorted(missing))})"
        self.app.call_from_thread(self._status, done, "green")

    def action_back(self) -> None:
        self.dismiss()
