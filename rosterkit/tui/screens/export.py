"""Export: the list as plain text or Markdown (copy or save), and PDF unit cards when available,
with the choices of the `rosterkit cards` command (card size, paper, a card per unit or per
figure, cut marks, summary page, glossary), printed by the function that command calls."""

from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.validation import Number as NumberValidator
from textual.validation import ValidationResult, Validator
from textual.widgets import (
    Button,
    Footer,
    Input,
    Label,
    ProgressBar,
    Select,
    Static,
    Switch,
    TextArea,
)

from ...cards import sizes
from ...editing.document import Document
from ...engine.textlist import roster_text
from ...errors import RosterkitError
from ...files.atomic import atomic_write
from ...visible import plain, visible
from ..widgets.ordered_input import OrderedInput
from ..widgets.topbar import TopBar

# the cards package's own sizes (rosterkit.cards.sizes is arithmetic only: no reportlab)
CARD_SIZES = tuple((size.label[:1].upper() + size.label[1:], size.id) for size in sizes.CARD_SIZES.values())
PAPERS = tuple((paper.label, paper.id) for paper in sizes.PAPERS.values())
SWITCHES = (("cut_marks", "Cut marks"), ("summary", "Summary page"), ("rules_page", "Rules on summary"),
            ("glossary", "Glossary"), ("backs", "Card backs"))


class OwnSize(Validator):
    """A card size typed by the player: empty (the size chosen in the list), or one the cards
    command takes (WxH in mm or in); the failure says why not."""

    def validate(self, value: str) -> ValidationResult:
        if not value.strip():
            return self.success()
        try:
            sizes.card_size(value)
        except RosterkitError as exc:
            return self.failure(str(exc), value)
        return self.success()


def pdf_module():
    """rosterkit.cards.pdf when it provides export_cards, else None."""
    try:
        module = importlib.import_module("rosterkit.cards.pdf")
    except Exception:
        return None
    return module if hasattr(module, "export_cards") else None


class ExportScreen(Screen):
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (90, "-wide")]  # narrow: the card choices stack
    BINDINGS = [
        Binding("escape", "back", "Back"),
        # the footer fits 60 columns: Markdown is a switch on the screen, F1 gives its key
        Binding("m", "toggle_markdown", "Markdown", show=False),
        Binding("c", "copy", "Copy"),
        Binding("s", "save_text", "Save text"),
        Binding("p", "pdf", "PDF cards"),
    ]

    def __init__(self, session: Document, cwd: Path) -> None:
        super().__init__()
        self.session = session
        self.cwd = cwd
        self.markdown = False
        self.pdf = pdf_module()
        # the cards command's defaults: poker cards, the locale's paper, per as the ruleset says
        self.card_options = self.pdf.CardOptions() if self.pdf is not None else None

    def compose(self) -> ComposeResult:
        yield TopBar(Text.assemble(("Export", "bold"), f" · {self.session.roster.name}"), id="topbar")
        with VerticalScroll(id="export-body"):
            with Horizontal(id="export-controls"):
                yield Switch(False, id="export-md")
                yield Label("Markdown", id="export-md-label", markup=False)
                yield Button("Copy", id="export-copy", compact=True, variant="primary")
                yield Button("Save text…", id="export-save", compact=True)
                if self.pdf is not None:
                    yield Button("PDF cards…", id="export-pdf", compact=True)
            if self.card_options is not None:
                yield from self._card_controls()
            yield TextArea("", id="export-text", read_only=True, soft_wrap=False)
            yield ProgressBar(id="pdf-progress", show_eta=False)
            yield Static("", id="export-status", markup=False)
        yield Footer(compact=True)

    def _card_controls(self) -> ComposeResult:
        """The PDF cards' choices, as `rosterkit cards` offers them."""
        o = self.card_options
        rs = self.session.rs
        with Horizontal(id="export-cards"):
            yield Label("Cards", classes="export-label", markup=False)
            yield Select(CARD_SIZES, value=o.size, allow_blank=False, compact=True, id="export-size")
            yield Select(PAPERS, value=o.paper, allow_blank=False, compact=True, id="export-paper")
            per_default = rs.data.card.per
            yield Select([(plain(f"Per {per_default} (ruleset)"), "default"), ("Per unit", "unit"),
                          ("Per figure", "figure")], value="default", allow_blank=False, compact=True,
                         id="export-per")
        # each control with its label: a narrow screen puts them in rows of their own
        with Horizontal(id="export-card-switches"):
            for name, label in SWITCHES:
                with Horizontal(classes="export-pair"):
                    yield Switch(getattr(o, name), id=f"export-{name.replace('_', '-')}")
                    yield Label(label, classes="export-label", markup=False)
        with Horizontal(id="export-card-more"):
            with Horizontal(classes="export-pair"):
                yield Label("Own size", classes="export-label", markup=False)
                yield OrderedInput(placeholder="57x89mm", compact=True, id="export-own-size",
                                   validators=[OwnSize()])
            with Horizontal(classes="export-pair"):
                yield Label("Gutter (mm)", classes="export-label", markup=False)
                yield OrderedInput(f"{o.gutter:g}", type="number", compact=True, id="export-gutter",
                                   validators=[NumberValidator(0, 20, "0 to 20 mm between cards")])

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

    @on(Select.Changed, "#export-size, #export-paper, #export-per")
    def _card_choice(self, event: Select.Changed) -> None:
        event.stop()
        if event.value is Select.NULL or self.card_options is None:
            return
        name = (event.select.id or "").removeprefix("export-")
        if name == "size" and self.query_one("#export-own-size", Input).value.strip():
            return  # a size of the player's own is typed: it is the one used
        value = None if name == "per" and event.value == "default" else str(event.value)
        self.card_options = dataclasses.replace(self.card_options, **{name: value})

    @on(Input.Changed, "#export-own-size")
    def _own_size(self, event: Input.Changed) -> None:
        """A size of the player's own (WxH in mm or in) is used while it is valid; emptied, the
        size chosen in the list is used again."""
        event.stop()
        if self.card_options is None:
            return
        result = event.validation_result
        if result is not None and not result.is_valid:
            self._status(f"Own size not used: {result.failure_descriptions[0]}", "bold red")
            return
        chosen = self.query_one("#export-size", Select).value
        size = event.value.strip() or (str(chosen) if chosen is not Select.NULL else "poker")
        self.card_options = dataclasses.replace(self.card_options, size=size)
        self._status("")

    @on(Input.Changed, "#export-gutter")
    def _gutter(self, event: Input.Changed) -> None:
        event.stop()
        if self.card_options is None:
            return
        if event.validation_result is not None and not event.validation_result.is_valid:
            self._status("Gutter not used: 0 to 20 mm between cards", "bold red")
            return
        self.card_options = dataclasses.replace(self.card_options, gutter=float(event.value or 0))
        self._status("")

    @on(Switch.Changed, "#export-cut-marks, #export-summary, #export-rules-page, #export-glossary, #export-backs")
    def _card_switch(self, event: Switch.Changed) -> None:
        event.stop()
        if self.card_options is not None:
            name = (event.switch.id or "").removeprefix("export-").replace("-", "_")
            self.card_options = dataclasses.replace(self.card_options, **{name: event.value})

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

        try:  # what `rosterkit cards` calls, with the same options
            result = self.pdf.export_cards(s.report, s.validation, path, self.card_options, progress)
        except (RosterkitError, OSError, ValueError, TypeError) as exc:
            self.app.call_from_thread(self._status, f"Cards not written: {exc}", "bold red")
            return
        done = result.written(visible(path), sizes.PAPERS[self.card_options.paper].label)  # (as `rosterkit cards` says it)
        missing = result.missing_glyphs
        if missing:
            done += f" (no glyph for {''.join(sorted(missing))})"
        self.app.call_from_thread(self._status, done, "green")

    def action_back(self) -> None:
        self.dismiss()
