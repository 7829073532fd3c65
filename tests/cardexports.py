"""Sample armies exported once per test run and worker, for the card tests that only read the PDF back.

Many card tests print the same sample army with the same options and check different things in
the PDF. The ``sample_cards`` fixture (conftest) exports each (sample, options) once per worker and
hands every such test the same :class:`SampleCards`; its read-backs are worked out on first use and
handed out as tuples or fresh copies, so no test can change what the next one reads.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from conftest import load
from pypdf import PdfReader

from rosterkit.cards.pdf import CardOptions, ExportResult, export_cards
from rosterkit.engine.costing import CostReport, cost_roster
from rosterkit.engine.validation import Validation, validate_report
from rosterkit.files.rosters import load_roster

# an invalid army's footer flag ("NOT VALID", "NOT VALID: 258/250"): the text's extraction sets it
# after the card's number, so a split at "card N of M" reads it as the next card's first words
_FLAG = re.compile(r"^NOT VALID(: \S+)?\s+")


def without_flag(card: str) -> str:
    """A card's text read back from the PDF, without the footer flag of the card before it."""
    return _FLAG.sub("", card)


def read_back(pdf: Path) -> tuple[tuple[str, ...], dict[float, int]]:
    """Every page's plain text, and the font sizes of the text on every page with how many
    characters each sets (one pass of pypdf's text extraction)."""
    pages, sizes = [], {}
    for page in PdfReader(str(pdf)).pages:
        def visit(text, cm, tm, font, size):
            if text.strip():
                s = round(size * tm[0] if tm[0] else size, 2)
                sizes[s] = sizes.get(s, 0) + len(text.strip())
        pages.append(page.extract_text(visitor_text=visit) or "")
    return tuple(pages), sizes


def font_sizes(pdf: Path) -> dict[float, int]:
    """Font sizes of the text on every page, with how many characters each sets."""
    return read_back(pdf)[1]


def _digest(pdf: Path) -> str:
    return hashlib.sha256(pdf.read_bytes()).hexdigest()


@dataclass(frozen=True)
class SampleCards:
    """One sample army exported with one set of options: the costed roster, its validation, the
    export's result and its PDF (for reading only), and what the tests read back from it."""

    sample: Path
    options: CardOptions
    report: CostReport
    validation: Validation
    result: ExportResult
    path: Path
    digest: str  # the PDF's SHA-256 as exported: checked each time the export is handed out

    @cached_property
    def _plain(self) -> tuple[tuple[str, ...], tuple[tuple[float, int], ...]]:
        pages, sizes = read_back(self.path)
        return pages, tuple(sizes.items())

    @property
    def pages(self) -> tuple[str, ...]:
        """Each page's text (pypdf's plain extraction; "" for a page without text)."""
        return self._plain[0]

    @property
    def sizes(self) -> dict[float, int]:
        """The font sizes of the text on every page, with how many characters each sets (a copy)."""
        return dict(self._plain[1])

    @cached_property
    def layout_lines(self) -> tuple[str, ...]:
        """The pages' text line by line as it stands on the page (pypdf's layout mode: a line is
        a baseline across the sheet)."""
        return tuple(line for p in PdfReader(str(self.path)).pages
                     for line in p.extract_text(extraction_mode="layout").splitlines())


def sample_exporter(folder: Path) -> Callable[[Path, CardOptions], SampleCards]:
    """``export(sample, options)``: the sample army's cards with those options, exported into
    ``folder`` the first time they are asked for. A failed export raises for every test that
    asks for it, as its own export would."""
    done: dict[tuple[Path, CardOptions], SampleCards] = {}

    def export(sample: Path, options: CardOptions) -> SampleCards:
        key = (sample.resolve(), options)
        if key in done:
            cards = done[key]
            assert _digest(cards.path) == cards.digest, f"{cards.path} was changed after its export"
            return cards
        roster = load_roster(sample).roster
        report = cost_roster(load(roster.ruleset), roster)
        validation = validate_report(report)
        out = folder / f"{len(done):03d}-{sample.stem}.pdf"
        result = export_cards(report, validation, out, options)
        done[key] = SampleCards(sample, options, report, validation, result, out, _digest(out))
        return done[key]

    return export
