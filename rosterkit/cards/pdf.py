"""Unit record cards as a PDF: the public entry point.

``export_cards(report, validation, out_path, options, progress)`` writes the PDF and
returns an :class:`ExportResult`. It is a pure function of the costed roster: the
command line and the terminal interface both call it (the interface from a worker
thread, with ``progress`` reporting cards done out of cards to print).

Pages, in order: the summary (army, points against the limit, points by type,
validation, roster fingerprint), the card sheets (as many cards as fit on the paper,
with cut marks; an army card first when the ruleset has army-wide settings, reference
cards last, in the free slots of the last sheet, when long descriptions were left off
the cards), each sheet followed by its backs with ``backs``.
"""

from __future__ import annotations

import errno
import hashlib
import io
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from .. import __version__
from ..engine.costing import CostReport
from ..engine.validation import Validation
from ..errors import Problem, RosterkitError
from ..files.atomic import NotAFileError, atomic_write, existing_file
from ..rules.numbers import fmt
from ..words import count_of
from .content import (
    CardBuilder,
    CardContent,
    army_card,
    card_count,
    chart_card,
    declared_names,
    plan_glossary,
    roster_code,
    with_rules,
)
from .draw import draw_back, draw_card, draw_cut_marks
from .fonts import DEJAVU, FontSet, Glyphs, user_fonts
from .layout import CardLayout, LaidOut
from .plan import plan_cards, weapon_specials
from .shaping import Shaper
from .sizes import (
    MM,
    SHEET_MARGIN,
    CardSize,
    Sheet,
    card_size,
    default_paper,
    paper,
    plan_sheet,
)
from .style import RULED_MIN
from .summary import MARGIN, PageFlow, summary_story
from .tables import declared_rows

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class CardOptions:
    size: str = "poker"  # poker, tarot (large), index, a6, or WxH such as 57x89mm
    paper: str = field(default_factory=default_paper)  # a4 or letter; by default letter in North America
    cut_marks: bool = True
    per: str | None = None  # "unit" or "figure"; None: as the ruleset's card.per says
    summary: bool = True  # a first page with points, validation and the roster's fingerprint
    glossary: bool = True  # long texts repeated on several cards go to reference cards, which describe each once
    rules: bool = True  # the ruleset's card.rules (its rolls in a few lines) printed
    # on the reference cards, after their texts (players look for the rolls in the deck, a sheet
    # more at tarot and A6 if need be); with rules_page, on the summary page too, in two columns
    # after the units, where it holds them all (the organiser's copy of the list)
    rules_page: bool = True
    max_cards: int = 20_000  # refuse to print more (a per-figure export of a huge unit, say)
    gutter: float = 0.0  # millimetres between cards on a sheet
    backs: bool = False  # a page of card backs after each sheet, for printing on both sides
    font: str | FontSet | None = None  # a TrueType file of the user's own (or its faces, read already)


@dataclass
class ExportResult:
    path: Path
    pages: int
    cards: int  # cards printed, continuations, army and reference cards included
    missing_glyphs: set[str] = field(default_factory=set)  # characters the font has no glyph for
    per_page: int = 0
    card_pages: int = 0
    summary_pages: int = 0
    reference_cards: int = 0
    back_pages: int = 0
    continued: list[str] = field(default_factory=list)  # units that needed more than one card
    fingerprint: str = ""
    per: str = "unit"
    size: CardSize | None = None
    sheet: Sheet | None = None
    body_size: float = 0.0  # the one body text size of the export's cards
    type_sizes: frozenset[float] = frozenset()  # every text size of the cards: body, title, labels, stats, boxes
    by_kind: dict[str, int] = field(default_factory=dict)  # cards printed of each kind: unit, army, reference, chart
    fills: list[float] = field(default_factory=list)  # each card's share of its height in use (CardLayout.fill)
    # the fullest card that fits on one card at the export's body (before the boxes grow): the card
    # that holds the body down; "" at the size's largest body, where none does
    held_by: str = ""
    rules_size: float = 0.0  # the size of the reference cards' texts (0: the export prints none)

    def written(self, where: str, paper_label: str) -> str:
        """What was written, as the command and the interface both say it: "Wrote cards.pdf: 5 cards
        on 2 pages (poker 63 x 88 mm, one per unit, 9 to an A4 sheet; fingerprint ...)"; ``where``
        shown as given (made visible by the caller)."""
        sheet = self.sheet
        scale = f" at {round(sheet.scale * 100)}%" if sheet.scale != 1 else ""
        k = len(self.continued)
        extra = f"; {count_of(k, 'unit')} continued on further cards" if k else ""
        return (f"Wrote {where}: {count_of(self.cards, 'card')} on {count_of(self.pages, 'page')} "
                f"({self.size.label}, one per {self.per}, "
                f"{sheet.placing(paper_label)}{scale}{extra}; fingerprint {self.fingerprint})")


def card_line(by_kind: dict[str, int], size: CardSize, per: str, sheet: Sheet, paper_label: str) -> str:
    """The cards an export prints, by kind, and how they go on the sheets: "5 cards, poker 63 x 88
    mm, 9 to an A4 sheet: 4 unit cards, 1 reference card" ("2 to a landscape A4 sheet" for A6,
    printed beside a portrait summary page)."""
    names = {"unit": "figure" if per == "figure" else "unit"}
    parts = [count_of(n, f"{names.get(kind, kind)} card")
             for kind in ["army", "unit", "reference", *sorted(set(by_kind) - {"army", "unit", "reference"})]
             if (n := by_kind.get(kind, 0))]
    total = sum(by_kind.values())
    return (f"{count_of(total, 'card')}, {size.label}, {sheet.placing(paper_label)}"
            + (f": {', '.join(parts)}" if parts else ""))


def export_cards(report: CostReport, validation: Validation, out_path: str | os.PathLike | BinaryIO,
                 options: CardOptions = CardOptions(), progress: Progress | None = None, *,
                 named: bool = True) -> ExportResult:
    """Write the cards of a costed roster to ``out_path``.

    A file is written atomically (a failed export leaves no half-written file and keeps
    an older one; a link is written through to its file). A device such as /dev/null or
    a named pipe is opened and written to, never replaced; so is a binary stream given
    instead of a path (standard output, say). A folder, a socket or a block device is refused.

    ``named=False``: the path is one rosterkit chose, not one the player gave; only a regular
    file is written there, never a symbolic link (even one put there during the export) nor
    a device.

    ``progress(done, total)`` counts cards before continuations (units, or figures
    with ``per="figure"``); it is called with 0 first, then now and then (at most
    about 200 times) and always with ``done == total`` at the end.
    Raises :class:`RosterkitError` for an unknown size or paper, too many cards, an
    unreadable font, or a PDF that cannot be written.
    """
    rs, roster = report.ruleset, report.roster
    size = card_size(options.size)
    sheet_paper = paper(options.paper)
    sheet, per, total = _checked(report, options, size, sheet_paper)
    fonts = options.font if isinstance(options.font, FontSet) else user_fonts(options.font) if options.font else DEJAVU
    stream = out_path if hasattr(out_path, "write") else None
    out = Path("-") if stream is not None else Path(out_path)
    kind = "stream" if stream is not None else _destination(out, named)

    glyphs = Glyphs(fonts)
    entries = plan_glossary(report, per, options.glossary)
    specials = weapon_specials(report)
    code = roster_code(report)
    portrait = (sheet_paper.width, sheet_paper.height)  # the summary page's

    def one_page(line: str, rules: CardContent | None) -> bool:
        """Whether the summary page holds these quick rules on its one page (a trial run)."""
        trial = Canvas(io.BytesIO(), pagesize=portrait, initialFontName=fonts.regular)
        return PageFlow(trial, portrait).run(summary_story(report, validation, glyphs, code, portrait[0] - 2 * MARGIN,
                                                           line, rules, trial=True)) == 1

    # the quick rules: on the summary page where it holds them all (see CardOptions.rules_page)
    page_rules = with_rules(None, report) if options.rules and options.summary and options.rules_page else None
    if page_rules is not None:
        # (the page's line of cards is written once they are laid out: measured here as long as
        # it may be, a unit card a figure and two reference cards)
        widest = card_line({"army": bool(rs.roster_stats), "unit": max(total, sum(u.figures for u in report.units)),
                            "reference": 2, "chart": rs.data.card.chart is not None}, size, per, sheet,
                            sheet_paper.label)
        if not one_page(widest, page_rules):
            page_rules = None
    result = ExportResult(out, 0, 0, per_page=sheet.per_page, fingerprint=code, per=per, size=size,
                          sheet=sheet)

    pdf = io.BytesIO()  # reportlab makes the whole file in memory anyway, then writes it at once
    c = Canvas(pdf, pagesize=(sheet.page_width, sheet.page_height), invariant=1, pageCompression=1,
               initialFontName=fonts.regular, initialFontSize=10)
    c.setTitle(glyphs.clean(f"{roster.name}: unit cards"))
    c.setSubject(glyphs.clean(rs.name))
    c.setCreator(f"rosterkit {__version__}")

    # every card's content first: the export's one body size is the one its fullest card fits at
    builder = CardBuilder(report, per, entries, validation)
    army = army_card(report, builder)
    step = max(1, total // 200)
    if progress is not None:
        progress(0, total)
    layout = CardLayout(size, glyphs, f"{roster.name} · {rs.name}", list(rs.types), fonts,
                        record_line=rs.data.card.all_columns, short_counts=size.id in rs.data.card.short_counts,
                        band_rows=declared_rows(rs.data.card.columns), stat_max=rs.data.card.stat_max,
                        names=declared_names(rs.data.card.columns))

    plan = plan_cards(report, builder, army, layout, options, entries, specials, sheet, per)
    contents = plan.contents
    result.body_size, result.held_by = plan.body_size, plan.held_by
    layout.grow(contents)
    # every fight is resolved on the chart: a card in the players' hands, even on a sheet of its own
    # (on the summary page, where it once went to save that sheet, readers looked for it in the deck)
    chart = chart_card(report) if options.rules else None
    laid_all = _laid_out(layout, contents, chart, sheet, result)
    if options.summary:  # after the cards are laid out: the page says how many of each it prints
        story = summary_story(report, validation, glyphs, code, portrait[0] - 2 * MARGIN,
                              card_line(result.by_kind, size, per, sheet, sheet_paper.label),
                              page_rules)
        result.summary_pages = PageFlow(c, portrait).run(story)

    # an army over its limit says by how much on every card ("NOT VALID: 258/250"); the summary
    # page says what else breaks a rule
    flag = () if validation.ok else ("NOT VALID",) if report.limit is None or report.total <= report.limit \
        else (f"NOT VALID: {fmt(report.total)}/{fmt(report.limit)}", "NOT VALID")

    def unit_done(done: int) -> None:
        if progress is not None and (done == total or done % step == 0):
            progress(done, total)

    figures_done = _draw_sheets(c, layout, laid_all, sheet, options, result, flag, [roster.name, rs.name, code],
                                unit_done)
    if progress is not None and figures_done < total:
        progress(total, total)

    result.pages = result.summary_pages + result.card_pages + result.back_pages
    if result.pages == 0:
        c.setPageSize(portrait)
        c.setFont(fonts.regular, 12)
        c.drawString(MARGIN, portrait[1] - MARGIN, "This roster has no units.")
        c.showPage()
        result.pages = 1
    # compressed streams stay binary: reportlab's ASCII85 armour (its default) makes the file
    # a quarter larger and costs a third of the export's time
    a85 = rl_config.useA85
    rl_config.useA85 = 0
    try:
        c.save()
    finally:
        rl_config.useA85 = a85
    _write(unique_subset_tags(pdf.getvalue(), fonts), out, stream, kind, named)
    result.missing_glyphs = set(glyphs.missing)
    return result


def _checked(report: CostReport, options: CardOptions, size: CardSize, sheet_paper) -> tuple[Sheet, str, int]:
    """The sheet, what a card is of ("unit", "figure") and how many cards before continuations,
    or a clear error for a gutter, a ``per`` or a card count out of bounds."""
    if not (0 <= options.gutter <= 20):
        raise RosterkitError(Problem(f"{options.gutter:g} mm: expected 0 to 20 mm between cards", key="gutter"))
    sheet = plan_sheet(size, sheet_paper, gutter=options.gutter * MM)
    per = options.per or report.ruleset.data.card.per
    if per not in ("unit", "figure"):
        raise RosterkitError(Problem(f"cards per '{per}': expected 'unit' or 'figure'", key="per"))
    total = card_count(report, per)
    if total > options.max_cards:
        raise RosterkitError(Problem(
            f"{total} cards (one per {per}) is more than {options.max_cards}",
            hint="print one card per unit (--per unit)" if per == "figure" else None))
    return sheet, per, total


def _laid_out(layout: CardLayout, contents: list[CardContent], chart: CardContent | None, sheet: Sheet,
              result: ExportResult) -> list[LaidOut]:
    """Every card laid out at the export's sizes, the chart last; ``result`` counting them."""
    # (the places the last sheet leaves blank: the reference cards may take one of them to print larger)
    spare = -(layout.count(contents) + (chart is not None)) % sheet.per_page
    for content in contents:
        if content.kind == "reference":
            layout.fill_rules(content, spare)
    result.type_sizes = frozenset(layout.t.all())
    laid_all = []
    for content in contents:
        laid = layout.layout(content)
        laid_all.append(laid)
        if content.kind == "reference":  # (a reference card's texts take a size of their own: see rules_size)
            result.rules_size = layout.rules_size()
            result.type_sizes |= {result.rules_size}
            result.reference_cards += len(laid.pages)
        if len(laid.pages) > 1 and content.kind == "unit":
            result.continued.append(content.name)
    # a chart the rules play by and do not print, blank to fill in, after the reference cards (it
    # resolves every fight: printed even where it takes a sheet of its own, the summary page full)
    if chart is not None:
        laid_all.append(layout.layout(chart))
    # lines to write on: on every unit card with room for RULED_MIN or more (on large cards, the army
    # card's too: see CardLayout.roomy; three at most)
    for laid in laid_all:
        n = layout.ruled(laid)
        if n >= RULED_MIN:
            layout.with_ruled(laid, n)
    for laid in laid_all:
        result.by_kind[laid.content.kind] = result.by_kind.get(laid.content.kind, 0) + len(laid.pages)
        result.fills += [layout.fill(laid, page) for page in range(len(laid.pages))]
    return laid_all


def _draw_sheets(c: Canvas, layout: CardLayout, laid_all: list[LaidOut], sheet: Sheet, options: CardOptions,
                 result: ExportResult, flag: tuple[str, ...], back_lines: list[str],
                 unit_done: Callable[[int], None]) -> int:
    """The cards drawn sheet by sheet (each followed by its backs, with ``options.backs``);
    ``unit_done(n)`` after each unit's cards. Returns the units drawn."""
    shaper = Shaper()
    n_cards = sum(len(laid.pages) for laid in laid_all)
    slot = k = figures_done = 0

    def finish_sheet(used: int) -> None:
        if options.cut_marks:
            draw_cut_marks(c, sheet, used, SHEET_MARGIN)
        c.showPage()
        result.card_pages += 1
        if options.backs:
            c.setPageSize((sheet.page_width, sheet.page_height))
            for i in range(used):
                x, y = sheet.back_slot(i)
                draw_back(c, layout, x, y, sheet.scale, back_lines, shaper)
            c.showPage()
            result.back_pages += 1

    for laid in laid_all:
        for page in range(len(laid.pages)):
            if slot == 0:
                c.setPageSize((sheet.page_width, sheet.page_height))
            x, y = sheet.slot(slot)
            k += 1
            draw_card(c, layout, laid, page, x, y, sheet.scale, f"{result.fingerprint} · card {k} of {n_cards}",
                      shaper, flag)
            result.cards += 1
            slot += 1
            if slot == sheet.per_page:
                finish_sheet(slot)
                slot = 0
        if laid.content.kind == "unit":
            figures_done += 1
            unit_done(figures_done)
    if slot:
        finish_sheet(slot)
    return figures_done


def _write(pdf: bytes, out: Path, stream: BinaryIO | None, kind: str, named: bool) -> None:
    """The finished PDF to its stream, device or file (a file written atomically)."""
    data = memoryview(pdf)
    try:
        if stream is not None:
            _write_all(stream, data)
            stream.flush()
        elif kind == "device":
            _write_to_device(out, data)
        else:
            atomic_write(out, data, keep_backup=False, follow_links=named)
    except OSError as exc:
        raise RosterkitError(Problem(f"cannot write the PDF: {exc.strerror or exc}", file=str(out))) from None
    finally:
        data.release()


_SUBSET = re.compile(rb"/([A-Z]{6})\+([!-~]+?)(?=[\s/<>\[\]()])")


def unique_subset_tags(data: bytes, fonts: FontSet) -> bytes:
    """The PDF with a tag of its own for each embedded font subset, as the PDF format asks
    (a tag names one subset). reportlab tags each font's first subset AAAAAA and offers no way
    to name them, so the tags are rewritten in the finished file: the same length (the file's
    offsets hold) and worked out from the font's name, the same in every export."""
    names = set()
    for name in {fonts.regular, fonts.bold, fonts.cond, fonts.cond_bold, fonts.fallback} - {None}:
        face = pdfmetrics.getFont(name).face
        names.add(face.name + face.subfontNameX)
    tags: dict[tuple[bytes, bytes], bytes] = {}

    def retag(m: re.Match) -> bytes:
        tag, name = m.group(1), m.group(2)
        if name not in names:
            return m.group(0)
        new = tags.get((tag, name))
        if new is None:
            k = 0
            while new is None or new in tags.values():
                digest = hashlib.sha256(tag + b"+" + name + bytes([k])).digest()
                new = bytes(65 + b % 26 for b in digest[:6])
                k += 1
            tags[(tag, name)] = new
        return b"/" + new + b"+" + name

    return _SUBSET.sub(retag, data)


def _destination(out: Path, named: bool = True) -> str:
    """How to write the PDF to ``out``: "file" (a regular file, or none yet: written whole
    or not at all, through a link to its target) or "device" (such as /dev/null, or a
    named pipe: opened and written, never replaced by a file). Anything else is refused,
    and a link or a device at a path the player did not name (``named``) too.
    """
    if not named and os.path.islink(out):
        raise RosterkitError(Problem("is a symbolic link, and the cards are written through a link only when "
                                     "it is named as the output", file=str(out)))
    try:
        existing_file(out)
    except IsADirectoryError:
        raise RosterkitError(Problem("is a folder; give a file name for the PDF", file=str(out))) from None
    except NotAFileError as exc:
        st = os.stat(out)
        if named and (stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode)):
            return "device"
        raise RosterkitError(Problem(f"{exc.strerror}; give a file name for the PDF (or - for standard output)",
                                     file=str(out))) from None
    except OSError as exc:
        raise RosterkitError(Problem(f"cannot write the PDF: {exc.strerror or exc}", file=str(out))) from None
    return "file"


def _write_to_device(out: Path, data: memoryview) -> None:
    """Write to a device or a named pipe (waiting for a reader): opened as it is, never created."""
    fd = os.open(out, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
    with io.FileIO(fd, "wb") as fh:
        _write_all(fh, data)


def _write_all(stream, data: memoryview) -> None:
    """Every byte or an error: a stream may take part of a write (a pipe, a full disk)."""
    view = memoryview(data)
    while view:
        n = stream.write(view)
        if n is None:  # a non-blocking stream that is full
            raise BlockingIOError(errno.EAGAIN, "the output is not ready for more")
        view = view[n:]
