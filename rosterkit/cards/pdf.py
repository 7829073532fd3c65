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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import BinaryIO

from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from .. import __version__
from ..engine.costing import CostReport
from ..engine.display import written_weapon
from ..engine.validation import Validation
from ..errors import Problem, RosterkitError
from ..files.atomic import NotAFileError, atomic_write, existing_file
from ..rules.numbers import fmt
from ..rules.ruleset import norm
from .boxes import without_box_notes
from .content import (
    CardBuilder,
    CardContent,
    Entry,
    GlossaryEntry,
    Table,
    army_card,
    card_count,
    chart_card,
    declared_names,
    plan_glossary,
    reference_card,
    reference_subtitle,
    roster_code,
    with_rules,
)
from .draw import draw_back, draw_card, draw_cut_marks
from .fonts import DEJAVU, FontSet, Glyphs, user_fonts
from .layout import CardLayout
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
from .style import RULED_MIN, STEP
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


def card_line(by_kind: dict[str, int], size: CardSize, per: str, sheet: Sheet, paper_label: str) -> str:
    """The cards an export prints, by kind, and how they go on the sheets: "5 cards, poker 63 x 88
    mm, 9 to an A4 sheet: 4 unit cards, 1 reference card" ("2 to a landscape A4 sheet" for A6,
    printed beside a portrait summary page)."""
    names = {"unit": "figure" if per == "figure" else "unit"}
    parts = [f"{n} {names.get(kind, kind)} card{'s' * (n != 1)}"
             for kind in ["army", "unit", "reference", *sorted(set(by_kind) - {"army", "unit", "reference"})]
             if (n := by_kind.get(kind, 0))]
    total = sum(by_kind.values())
    return (f"{total} card{'s' * (total != 1)}, {size.label}, {sheet.placing(paper_label)}"
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
    if not (0 <= options.gutter <= 20):
        raise RosterkitError(Problem(f"{options.gutter:g} mm: expected 0 to 20 mm between cards", key="gutter"))
    sheet = plan_sheet(size, sheet_paper, gutter=options.gutter * MM)
    per = options.per or rs.data.card.per
    if per not in ("unit", "figure"):
        raise RosterkitError(Problem(f"cards per '{per}': expected 'unit' or 'figure'", key="per"))
    total = card_count(report, per)
    if total > options.max_cards:
        raise RosterkitError(Problem(
            f"{total} cards (one per {per}) is more than {options.max_cards}",
            hint="print one card per unit (--per unit)" if per == "figure" else None))
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
    first = list(builder.cards())

    count = layout.count

    def planned(top: int) -> list[CardContent]:
        """The cards as they print, at a body no larger than ``layout.sizes[top]``."""
        layout.top = top
        layout.head_min.clear()
        contents = ([army] if army is not None else []) + list(first)
        # the effects beside single boxes (heroic_gods' Wounded, Panicked) where they cost no card
        # and no body; else every card leaves them off, so the cards of the export read alike
        bare = [without_box_notes(x) for x in contents]
        if bare != contents:
            body, cards = layout.fit(contents), count(contents)
            if layout.fit(bare) > body + 1e-9 or count(bare) < cards:
                contents = bare
        # the cards that fit on one card at no size (fit() lets them continue at the export's size)
        # are shortened or split, and the size chosen again
        layout.fit(contents)
        shortened = split = False
        fitted_all: list[CardContent] = []
        for content in contents:
            if content.kind == "unit" and layout.one_card(content) is None:
                fitted, short = one_unit_one_card(content, report, builder, layout, per, options.glossary)
                shortened = shortened or short
                split = True
                fitted_all += fitted
            else:
                fitted_all.append(content)
        contents = fitted_all
        if split:
            layout.fit(contents)
        if per == "unit":
            contents, parted = by_figure_where_larger(contents, report, builder, layout, options.glossary)
            split = split or parted
        if options.glossary:
            # a card with room for its abilities' texts prints them (the reference cards keep them too),
            # unless the card holding the export's type down grows it a point or more without them
            contents, reference = texts_where_room(contents, entries, layout, report, sheet.per_page)
            if reference is not None:  # a card with room prints a text the others send to the reference card
                contents = texts_on_cards_with_room(contents, entries, layout)
                reference = referred_card(contents, entries, report)
        else:
            reference = None
        # every weapon special a card marks ("*Polearm") explained in the export: on the cards marking
        # it where they all have the room, else on the reference card (one of its own if need be)
        contents, references = specials_explained(contents, reference, specials, layout, report,
                                                    sheet.per_page)
        # the game's rolls after the reference cards' texts, else on a card of their own: one
        # reference card whose texts run on (the specials' card of their own left the abilities'
        # half empty before the rules on a third)
        if options.rules:
            ruled = with_rules(merged(references), report)
            references = [ruled] if ruled is not None else references
        contents += references
        result.body_size = layout.fit(contents) if split or references else layout.t.body
        keyed = builder.keyed(contents)
        if keyed != contents:  # each card's own line on it (cards are handed out one by one at the table),
            # where that keeps the number of cards and costs the body KEY_DROP at most
            cards = count(contents)
            body = layout.fit(keyed)
            if body >= result.body_size - KEY_DROP - 1e-9 and count(keyed) == cards:
                contents = keyed
                result.body_size = body
            else:
                layout.fit(contents)
        # a lone figure's rows in its band at every size (where its labels' column takes them whole:
        # the values keep their room), where that keeps the body (at poker, costs it BAND_DROP at
        # most) and the units' cards: the reference cards' count left out, so that a rule a line
        # longer cannot turn every unit card's band
        banded = [replace(x, stats=x.band[0], asides=x.band[1], band=None)
                  if x.band is not None and layout.key_column(x.band[0])[0] < layout.inner_w * 0.34 else x
                  for x in contents]
        if banded != contents:
            def units(cs: list[CardContent]) -> int:
                return count([c for c in cs if c.kind != "reference"])

            cards = units(contents)
            body = layout.fit(banded)
            if body >= result.body_size - (0.0 if layout.roomy else BAND_DROP) - 1e-9 and units(banded) == cards:
                result.body_size = body
                contents = banded
            else:
                layout.fit(contents)
        line_up_headers(contents, sheet, layout)
        return contents

    # a larger body may send a rule to a reference card or a unit onto a second card, or (a book's
    # record line of eight stats or more, one row of values as wide as the card: For the Masses')
    # leave its values smaller: on a large card the export takes the largest body at which it prints
    # no more cards than at the size's count_at, and such a line's values as large (grown)
    keep = next((i for i, s in enumerate(layout.sizes) if s <= size.count_at + 1e-9), 0)

    def chosen() -> list[CardContent]:
        """The cards as they print: at the largest body, or on a large card as said above."""
        contents = planned(0)
        fewest = len(first) + (army is not None)
        wide = layout.record_line and any(c.kind == "unit" and len(c.stats.labels) >= 8 for c in first)
        if keep and layout.sizes.index(result.body_size) < keep and (count(contents) > fewest or wide):
            def outcome(top: int) -> tuple[int, float]:
                cards = planned(top)
                n = count(cards)
                if wide:
                    layout.grow(cards)
                return n, layout.t.stat if wide else 0.0

            got, base = outcome(0), outcome(keep)
            top = 0
            if got[0] > base[0] or got[1] < base[1] - 1e-9:
                lo, hi = 1, keep
                while lo < hi:
                    mid = (lo + hi) // 2
                    n, stat = outcome(mid)
                    if n <= base[0] and stat >= base[1] - 1e-9:
                        hi = mid
                    else:
                        lo = mid + 1
                top = lo
            contents = planned(top)
        return contents

    # the reminders: on every unit card of the export (cards handed out at the table read alike),
    # decided once the cards are split and their rules' texts placed; they may cost the body
    # REMINDER_DROP (REMINDER_DROP_LARGE on a large card, whose body is a third larger), never a card.
    # Where they cost more, the cards with room for theirs at the size without them keep them (a
    # half-empty card without the rules it is played by read as an error), the others go without
    def reminding(on: bool | set[int]) -> list[CardContent]:
        """The cards as they print with the reminders ``on`` (see CardBuilder.reminders)."""
        nonlocal first
        builder.reminders = on
        first = list(builder.cards())
        return chosen()

    reminded, bare = first, None
    if any(c.reminder for c in first):
        without = reminding(False)
        bare = result.body_size, count(without)  # (counted at its own size, before the layout moves on)
        builder.reminders, first = True, reminded
    contents = chosen()
    drop = REMINDER_DROP_LARGE if layout.roomy else REMINDER_DROP
    if bare is not None and (result.body_size < bare[0] - drop - 1e-9 or count(contents) > bare[1]):
        contents = reminding(False)
        texts = {x.unit_index: x.reminder for x in reminded if x.kind == "unit" and x.reminder}
        units: dict[int, list[CardContent]] = {}
        for x in contents:
            if x.kind == "unit" and x.unit_index in texts:
                units.setdefault(x.unit_index, []).append(x)
        room = {u for u, xs in units.items()
                if all(layout.one_card(with_reminder(x, texts[u])) is not None for x in xs)}
        if room:
            body, cards = result.body_size, count(contents)
            some = reminding(room)
            contents = some if result.body_size >= body - 1e-9 and count(some) <= cards else reminding(False)
    if layout.t.body < layout.sizes[0]:
        result.held_by = layout.fullest(contents)
    layout.grow(contents)
    # every fight is resolved on the chart: a card in the players' hands, even on a sheet of its own
    # (on the summary page, where it once went to save that sheet, readers looked for it in the deck)
    chart = chart_card(report) if options.rules else None
    # (the places the last sheet leaves blank: the reference cards may take one of them to print larger)
    spare = -(count(contents) + (chart is not None)) % sheet.per_page
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
        if len(laid.pages) > 1 and content.kind == "unit":
            result.continued.append(content.name)
        if content.kind == "reference":
            result.reference_cards += len(laid.pages)
    n_cards = sum(len(laid.pages) for laid in laid_all)
    # a chart the rules play by and do not print, blank to fill in, after the reference cards (it
    # resolves every fight: printed even where it takes a sheet of its own, the summary page full)
    if chart is not None:
        laid_all.append(layout.layout(chart))
        n_cards += len(laid_all[-1].pages)
    # lines to write on: on every unit card with room for RULED_MIN or more (on large cards, the army
    # card's too: see CardLayout.roomy; three at most)
    for laid in laid_all:
        n = layout.ruled(laid)
        if n >= RULED_MIN:
            layout.with_ruled(laid, n)

    for laid in laid_all:
        result.by_kind[laid.content.kind] = result.by_kind.get(laid.content.kind, 0) + len(laid.pages)
        result.fills += [layout.fill(laid, page) for page in range(len(laid.pages))]
    if options.summary:  # after the cards are laid out: the page says how many of each it prints
        story = summary_story(report, validation, glyphs, code, portrait[0] - 2 * MARGIN,
                              card_line(result.by_kind, size, per, sheet, sheet_paper.label),
                              page_rules)
        result.summary_pages = PageFlow(c, portrait).run(story)

    shaper = Shaper()
    back_lines = [roster.name, rs.name, code]
    slot = 0
    k = 0
    figures_done = 0

    def finish_sheet(used: int) -> None:
        c.showPage()
        result.card_pages += 1
        if options.backs:
            c.setPageSize((sheet.page_width, sheet.page_height))
            for i in range(used):
                x, y = sheet.back_slot(i)
                draw_back(c, layout, x, y, sheet.scale, back_lines, shaper)
            c.showPage()
            result.back_pages += 1

    # an army over its limit says by how much on every card ("NOT VALID: 258/250"); the summary
    # page says what else breaks a rule
    flag = () if validation.ok else ("NOT VALID",) if report.limit is None or report.total <= report.limit \
        else (f"NOT VALID: {fmt(report.total)}/{fmt(report.limit)}", "NOT VALID")
    for laid in laid_all:
        for page in range(len(laid.pages)):
            if slot == 0:
                c.setPageSize((sheet.page_width, sheet.page_height))
            x, y = sheet.slot(slot)
            k += 1
            draw_card(c, layout, laid, page, x, y, sheet.scale, f"{code} · card {k} of {n_cards}", shaper, flag)
            result.cards += 1
            slot += 1
            if slot == sheet.per_page:
                if options.cut_marks:
                    draw_cut_marks(c, sheet, slot, SHEET_MARGIN)
                finish_sheet(slot)
                slot = 0
        if laid.content.kind == "unit":
            figures_done += 1
            if progress is not None and (figures_done == total or figures_done % step == 0):
                progress(figures_done, total)
    if slot:
        if options.cut_marks:
            draw_cut_marks(c, sheet, slot, SHEET_MARGIN)
        finish_sheet(slot)
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
    data = memoryview(unique_subset_tags(pdf.getvalue(), fonts))
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
    result.missing_glyphs = set(glyphs.missing)
    return result


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


_COPIES = re.compile(r"^\d+x ")
# how far the body may drop for a stat band's cut-off stats (LEGO's "Swim 3 · Climb 1 · Jump 3") on every card
KEY_DROP = 0.5
# how far the body may drop at poker for a lone figure's rows in its band (heroic_gods' Wounded)
BAND_DROP = 0.25
# how far the body may drop for the ruleset's reminder line on every unit card (a point: ARES hill
# clans at poker 8 to 7 pt with every card's losses line; readers took a unit card without the
# lines its neighbours print for a fault sooner than the point, at three quarters of one too)
REMINDER_DROP = 1.0
REMINDER_DROP_LARGE = 1.25


def entry_key(e: Entry, kind: str) -> tuple[str, str]:
    """An ability's or equipment's key on a card, as the glossary's ((kind, normalised name);
    "2x Sword" is a Sword)."""
    return kind, norm(_COPIES.sub("", e.name))


def with_texts(contents: list[CardContent], entries: list[GlossaryEntry], layout: CardLayout,
               withheld: frozenset[tuple[str, str]] = frozenset(), cap: float | None = None) -> list[CardContent]:
    """The unit cards with the texts of their abilities and equipment, an ability treated alike on
    every card of the export: its text on each card that has it when each of them still fits on one
    card at the export's size, else its name on each and its text on the reference cards (the
    longest texts leave a crowded card first). The ``withheld`` ones ((kind, normalised name))
    go to the reference cards on every card, and the export's size is chosen again without them;
    ``cap``: the texts are chosen as the cards fit at that size, if it is smaller than the export's."""
    texts = {(e.kind, norm(e.name)): e.text for e in entries if e.text}

    def described(c: CardContent) -> set[tuple[str, str]]:
        return {entry_key(e, kind) for kind, es in (("abilities", c.abilities), ("equipment", c.equipment)) for e in es
                if entry_key(e, kind) in texts and (e.text or e.in_glossary)}

    def shown(c: CardContent, printed: set[tuple[str, str]]) -> CardContent:
        def one(e: Entry, kind: str) -> Entry:
            k = entry_key(e, kind)
            if k not in texts or not (e.text or e.in_glossary):
                return e
            return replace(e, text=texts[k], in_glossary=False) if k in printed else \
                replace(e, text="", in_glossary=True)
        return replace(c, abilities=tuple(one(e, "abilities") for e in c.abilities),
                       equipment=tuple(one(e, "equipment") for e in c.equipment))

    if withheld:
        contents = [shown(c, described(c) - withheld) if c.kind == "unit" and described(c) else c
                    for c in contents]
        layout.fit(contents)
    if cap is not None and cap < layout.t.body:
        layout.use(cap)
    units = [c for c in contents if c.kind == "unit" and described(c)]
    # a card that continues even with names only does not hold the others' texts back
    units = [c for c in units if layout.one_card(shown(c, set())) is not None]
    printed = set().union(*(described(c) for c in units)) - withheld if units else set()
    changed = True
    while changed:
        changed = False
        for c in units:
            mine = described(c) & printed
            while mine and layout.one_card(shown(c, printed)) is None:
                longest = max(mine, key=lambda k: (len(texts[k]), k))
                printed.discard(longest)
                mine.discard(longest)
                changed = True
    return [shown(c, printed) if c.kind == "unit" and described(c) and
            layout.one_card(shown(c, set())) is not None else c for c in contents]


def referred_card(contents: list[CardContent], entries: list[GlossaryEntry], report: CostReport) -> CardContent | None:
    """The reference card for what the cards refer to it (not the texts they print in full), or None."""
    referred = {entry_key(e, kind) for c in contents
                for kind, es in (("abilities", c.abilities), ("equipment", c.equipment)) for e in es if e.in_glossary}
    return reference_card(report, [e for e in entries if (e.kind, norm(e.name)) in referred]) if referred else None


def weapon_specials(report: CostReport) -> list[Entry]:
    """The marks the cards write under a weapon's Special ("*Polearm"), each with its weapon stat's
    text, in the ruleset's order."""
    rs = report.ruleset
    marked = {mark for u in report.units for m in u.members for it in m.items if it.kind == "weapons"
              for mark in written_weapon(rs, it, m).specials}
    out = []
    for sdef in rs.item_stats["weapons"].values():
        mark = f"*{sdef.label}"
        if sdef.description.strip() and any(s == mark or s.startswith(mark + " ") for s in marked):
            out.append(Entry(mark, sdef.description.strip()))
    return out


def marks_special(content: CardContent, special: Entry) -> bool:
    """Whether the card's weapon table marks that special ("*Polearm", "*Area Effect 2\"")."""
    if content.kind != "unit" or content.weapons is None:
        return False
    return any(part == special.name or part.startswith(special.name + " ")
               for _, cells, _ in content.weapons.rows for cell in cells for part in cell.split(", "))


def merged(references: list[CardContent]) -> CardContent | None:
    """The reference cards' texts on one reference card (None for none)."""
    if not references:
        return None
    first = references[0]
    for more in references[1:]:
        first = replace(first, abilities=first.abilities + more.abilities, equipment=first.equipment + more.equipment,
                        specials=first.specials + more.specials, specials_label=more.specials_label)
    return replace(first, subtitle=reference_subtitle(first))


def specials_explained(contents: list[CardContent], reference: CardContent | None, specials: list[Entry],
                       layout: CardLayout, report: CostReport,
                       per_page: int) -> tuple[list[CardContent], list[CardContent]]:
    """The cards with the texts of the weapon specials they mark, and the reference cards (``reference``
    and, where it has no room left, one of the specials' own). A special's text is on every card
    marking it where that keeps the export's body and number of cards (the cards of an export read
    alike), else on a reference card; where a card of the specials' own would take a sheet of
    ``per_page`` more, the cards print them anyway at a smaller body (a sheet for a few lines costs
    more than the type gains), if every card still fits on one. Leaves the layout at the export's size."""
    refs = [reference] if reference is not None else []
    label = report.ruleset.data.card.specials_label
    count = layout.count

    def with_text(cards: list[CardContent], special: Entry) -> list[CardContent]:
        return [replace(c, specials=c.specials + (special,), specials_label=label) if marks_special(c, special)
                else c
                for c in cards]

    body = layout.fit(contents + refs)
    cards = count(contents + refs)
    left: list[Entry] = []
    for special in sorted(specials, key=lambda e: (len(e.text), e.name)):
        tried = with_text(contents, special)
        if tried == contents:
            continue
        if layout.fit(tried + refs) >= body - 1e-9 and count(tried + refs) == cards:
            contents = tried
        else:
            left.append(special)
    left = [e for e in specials if e in left]  # the ruleset's order
    if left and reference is not None:
        layout.fit(contents + refs)
        fuller = with_weapon_specials(contents, reference, left, layout, label)
        left = [e for e in left if e not in fuller.specials]
        refs = [fuller]
    if left and per_page and -(-(cards + 1) // per_page) > -(-cards // per_page):
        forced = contents
        for special in left:
            forced = with_text(forced, special)
        layout.fit(forced + refs)
        if count(forced + refs) == cards:
            contents, left = forced, []
    if left:
        card = CardContent(
            unit_index=-1, title="Reference", type_id=None, type_name="Reference",
            subtitle="", badge="", stats=Table((), (), False),
            costs="", weapons=None, abilities=(), equipment=(), tracks=(), notes=(), problems=(),
            kind="reference", specials=tuple(left), specials_label=label)
        refs.append(replace(card, subtitle=reference_subtitle(card)))
    layout.fit(contents + refs)
    return contents, refs


def with_weapon_specials(contents: list[CardContent], reference: CardContent, specials: list[Entry],
                         layout: CardLayout, label: str) -> CardContent:
    """The reference card with the texts of the weapon specials the cards mark, all of them where
    the card keeps its number of cards and the export's size, else none (they go together on a card
    of their own: one heading of weapon specials in the export, not two). Leaves the layout at the
    export's size."""
    body = layout.fit(contents + [reference])
    pages = layout.cards(reference)
    fuller = replace(reference, specials=tuple(specials), specials_label=label)
    fuller = replace(fuller, subtitle=reference_subtitle(fuller))
    fits = layout.fit(contents + [fuller]) >= body - 1e-9 and layout.cards(fuller) <= pages
    layout.fit(contents + [fuller if fits else reference])
    return fuller if fits else reference


def texts_where_room(contents: list[CardContent], entries: list[GlossaryEntry], layout: CardLayout,
                     report: CostReport, per_page: int = 0) -> tuple[list[CardContent], CardContent | None]:
    """The cards with their abilities' texts (with_texts) and the reference card they need: while the
    card that sets the export's body size prints texts, those texts go to the reference card (for
    their abilities on every card, so a sheet reads alike) where the body then grows by a point or
    more, or by more than a step when that card alone holds the others back, and the cards still
    take as many sheets of ``per_page`` (a sheet printed for one reference card costs more than the
    type gains); each comes back as far as the grown size keeps. On tarot and A6 no text leaves the
    cards once the body is at the size's count_at (see ample). Leaves the layout at the export's size."""
    texts = {(e.kind, norm(e.name)): e.text for e in entries if e.text}

    def sheets(shown: list[CardContent], reference: CardContent | None) -> int:
        cards = len(shown) + (reference is not None)
        return -(-cards // per_page) if per_page else 0

    def printed(c: CardContent) -> set[tuple[str, str]]:
        return {entry_key(e, kind) for kind, es in (("abilities", c.abilities), ("equipment", c.equipment))
                for e in es if e.text and not e.in_glossary} & texts.keys()

    last: list[frozenset] = []  # the texts the layout's last trial withheld

    # the cards the reference card takes with those texts withheld: the type grows by sending texts
    # there only while it keeps to one card (or as many as it takes already)
    ref_cards: dict[frozenset, int] = {}

    def trial(withheld: frozenset) -> tuple[list[CardContent], CardContent | None, float]:
        last[:] = [withheld]
        layout.fit(contents)
        best: tuple | None = None
        # (on tarot and A6 the texts are chosen as the cards fit at the size's count_at: a body that
        # large reads easily, and a rule on the card beats "see the reference card" on a roomy card)
        cap = layout.size.count_at or None
        # a reference card that would go on to a second card: the texts chosen a step smaller at a
        # time, until it keeps to one; the fewest cards win, then the largest type
        while True:
            shown = with_texts(contents, entries, layout, withheld, cap)
            reference = referred_card(shown, entries, report)
            body = layout.fit(shown + ([reference] if reference is not None else []))
            pages = layout.cards(reference) if reference is not None else 0
            units = layout.count(shown)
            # (fewer cards for the reference card, never more for a unit)
            if best is None or (units + pages < best[0] and units <= best[5]):
                best = (units + pages, shown, reference, body, pages, units)
            cap = round(min(cap or body, body) - STEP, 2)
            if pages <= 1 or cap < layout.sizes[-1] - 1e-9:
                break
            layout.fit(contents)
        _, shown, reference, body, ref_cards[withheld], _ = best
        layout.fit(shown + ([reference] if reference is not None else []))
        return shown, reference, body

    def more_cards(tried: frozenset, withheld: frozenset) -> bool:
        return ref_cards[tried] > max(1, ref_cards[withheld])

    def holding(shown: list[CardContent], body: float) -> list[CardContent]:
        """The cards that stop the next size up (a card too full at any size continues instead)."""
        at = layout.sizes.index(body)
        if at <= layout.top:
            return []
        layout.use(layout.sizes[at - 1])
        return [c for c in shown if c.kind == "unit" and layout.one_card(c) is None and layout.fits(c)]

    def holding_texts(shown: list[CardContent], body: float) -> set[tuple[str, str]]:
        """The texts printed on the cards that stop the next size up (one held by its stat band
        or weapon rows is not helped)."""
        return set().union(*(printed(c) for c in holding(shown, body)))

    def ample(body: float) -> bool:
        """Whether the body is at or above the size's count_at (tarot, A6): no text leaves the cards
        to grow it further (readers took "see the reference card" on a card with room for a defect)."""
        return bool(layout.size.count_at) and body >= layout.size.count_at - 1e-9

    withheld: frozenset = frozenset()
    shown, reference, body = trial(withheld)
    while True:
        if last != [withheld]:  # (the layout as the cards stand)
            layout.fit(shown + ([reference] if reference is not None else []))
        lone = holding(shown, body)
        # the next card may hold the size a little above this one's: its texts go too, until the
        # body has grown a point or no text holds it
        tried, t_shown, t_ref, grown = withheld, shown, reference, body
        while grown < body + 1 - 1e-9:
            more = holding_texts(t_shown, grown) - tried
            if not more:
                break
            tried = tried | more
            t_shown, t_ref, grown = trial(tried)
        grew = grown >= body + 1 - 1e-9 and sheets(t_shown, t_ref) <= sheets(shown, reference) \
            and not more_cards(tried, withheld) and not ample(body)
        # or a card alone holding the export more than a step below the others: its texts go
        if len(lone) == 1 and printed(lone[0]) - withheld:
            o_tried = withheld | printed(lone[0])
            o_shown, o_ref, o_grown = trial(o_tried)
            if not ample(body) and o_grown > body + STEP + 1e-9 and (not grew or o_grown > grown + 1e-9) \
                    and sheets(o_shown, o_ref) <= sheets(shown, reference) and not more_cards(o_tried, withheld):
                tried, t_shown, t_ref, grown, grew = o_tried, o_shown, o_ref, o_grown, True
        if not grew:
            break
        # the shortest texts come back first, each where the grown size holds with it
        for key in sorted(tried - withheld, key=lambda k: (len(texts[k]), k)):
            back = tried - {key}
            b_shown, b_ref, b_body = trial(back)
            if b_body >= grown - 1e-9:
                tried, t_shown, t_ref, grown = back, b_shown, b_ref, b_body
        withheld, shown, reference, body = tried, t_shown, t_ref, grown
    layout.fit(shown + ([reference] if reference is not None else []))
    return shown, reference


def with_reminder(c: CardContent, reminder: str) -> CardContent:
    """A unit card with the ruleset's reminder under its band (the last of its asides)."""
    return replace(c, reminder=reminder, asides=c.asides + (reminder,))


def texts_on_cards_with_room(contents: list[CardContent], entries: list[GlossaryEntry],
                             layout: CardLayout) -> list[CardContent]:
    """The cards printing a text they refer to the reference card for where every card naming it
    still fits on one card with it and the export's size holds (the shortest first): the cards
    naming a rule read alike, each printing it or each sending the player to the reference card.
    Leaves the layout at the export's size."""
    body = layout.fit(contents)
    texts = {(e.kind, norm(e.name)): e.text for e in entries if e.text}

    def referred(c: CardContent) -> set[tuple[str, str]]:
        return {entry_key(e, kind) for kind, es in (("abilities", c.abilities), ("equipment", c.equipment))
                for e in es if e.in_glossary and entry_key(e, kind) in texts}

    def printing(c: CardContent, key: tuple[str, str]) -> CardContent:
        def one(e: Entry, kind: str) -> Entry:
            return replace(e, text=texts[key], in_glossary=False) if e.in_glossary and entry_key(e, kind) == key else e
        return replace(c, abilities=tuple(one(e, "abilities") for e in c.abilities),
                       equipment=tuple(one(e, "equipment") for e in c.equipment))

    out = list(contents)
    keys = set().union(*(referred(c) for c in out if c.kind == "unit"))
    for key in sorted(keys, key=lambda k: (len(texts[k]), k)):
        naming = [k for k, c in enumerate(out) if c.kind == "unit" and key in referred(c)]
        trial = list(out)
        for k in naming:
            trial[k] = printing(out[k], key)
        if all(layout.one_card(trial[k]) is not None for k in naming) \
                and layout.fit(trial) >= body - 1e-9:
            out = trial
        layout.fit(out)
    return out


def one_unit_one_card(content: CardContent, report: CostReport, builder: CardBuilder, layout: CardLayout,
                      per: str, glossary: bool) -> tuple[list[CardContent], bool]:
    """A unit card too full for one card at the smallest type: its abilities' texts go to the
    reference cards; a mixed unit still too full prints one card per kind of figure (each with
    the unit's values). Returns the cards and whether any text went to the reference cards."""
    if content.kind != "unit" or layout.fits(content):
        return [content], False
    if glossary:
        short = builder.without_texts(content)
        if short != content and layout.fits(short):
            return [short], True
    unit = report.units[content.unit_index] if 0 <= content.unit_index < len(report.units) else None
    if per == "unit" and unit is not None and sum(1 for m in unit.members if m.count > 0) > 1:
        out, moved = [], False
        for part in builder.member_cards(unit):
            # names only: the texts come back where the export's size leaves room (with_texts)
            if glossary and builder.without_texts(part) != part:
                part, moved = builder.without_texts(part), True
            out.append(part)
        return out, moved
    if glossary:
        return [builder.without_texts(content)], True
    return [content], False


def line_up_headers(contents: list[CardContent], sheet: Sheet, layout: CardLayout) -> None:
    """Cards side by side on a row of a sheet take the tallest of their headers (the shorter ones
    with the spare room under their subtitles) where they still fit on one card: their stat
    bands line up. Before grow(), which then keeps them fitting."""
    row: list[tuple[CardContent | None, float]] = []
    slot = 0

    def line_up() -> None:
        tallest = max(h for _, h in row)
        for c, h in row:
            if c is None or h >= tallest - 1e-9:
                continue
            layout.head_min[c] = tallest
            if layout.cards(c) > 1:
                del layout.head_min[c]

    for c in contents:
        laid = layout.layout(c)
        for page in range(len(laid.pages)):
            if c.kind != "reference":  # (no stat band to line up)
                row.append((c if len(laid.pages) == 1 else None, laid.head(page).height))
            slot += 1
            if slot % sheet.cols == 0 and row:
                line_up()
                row = []
    if row:
        line_up()


def by_figure_where_larger(contents: list[CardContent], report: CostReport, builder: CardBuilder,
                           layout: CardLayout, glossary: bool) -> tuple[list[CardContent], bool]:
    """The cards with a mixed unit printed one card per kind of figure (each with the unit's
    values in its stat band) where that lets the export's body grow by a point or more, or keeps
    every stat band across when the unit's card would turn them all down the side: one crowded
    card does not hold the export's type down. A figure's card too full for its abilities' texts
    at the smallest type carries their names (with_texts brings the texts back where the export's
    size leaves room). Returns the cards and whether any unit was split."""
    body = layout.fit(contents)
    turned = layout.turn_all()
    parted = False
    for index, unit in enumerate(report.units):
        if sum(1 for m in unit.members if m.count > 0) < 2:
            continue
        at = [k for k, c in enumerate(contents) if c.kind == "unit" and c.unit_index == index]
        if len(at) != 1:  # printed per figure already (too full for one card)
            continue
        parts = builder.member_cards(unit)
        if glossary:
            parts = [p if layout.fits(p) else builder.without_texts(p) for p in parts]
        if not all(layout.fits(p) for p in parts):
            continue
        trial = contents[:at[0]] + parts + contents[at[0] + 1:]
        grown = layout.fit(trial)
        across = turned and not layout.turn_all()
        if grown >= body + 1 - 1e-9 or (across and grown >= body - 1e-9):
            contents, body, turned, parted = trial, grown, layout.turn_all(), True
    layout.fit(contents)
    return contents, parted


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
