"""``rosterkit import``: a list's text (a file, or standard input) read back into a roster file."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from ..engine.costing import CostReport, cost_roster
from ..engine.fingerprint import differing_parts, fingerprint, normalise
from ..engine.textread import ReadList, read_list
from ..errors import Problem, RosterkitError, UnreadableError
from ..findings import Finding
from .bounded import megabytes, read_regular
from .figures import load_user_figures
from .rosters import save_roster
from .tomlfile import MAX_FILE_BYTES

STDIN = "-"
PASTED = "<pasted list>"
_UNKNOWN = ("unknown-figure", "unknown-weapon", "unknown-ability", "unknown-equipment", "unknown-type")


@dataclass
class Imported:
    read: ReadList
    report: CostReport
    path: Path | None  # None: read, not saved (a list pasted into the interface)
    fingerprint: str
    unknown: list[Finding]  # names the ruleset does not know, kept in the roster

    @property
    def fingerprint_differs(self) -> list[str] | None:
        """The parts that differ from the fingerprint the text gave (None: it gave none, or it matches)."""
        written = normalise(self.read.written_fingerprint or "")
        if written is None or written == self.fingerprint:
            return None
        return differing_parts(fingerprint(self.report), written) or ["the army"]


def read_source(source: str, stdin=None) -> tuple[str, str]:
    """The text of a list and its name for messages: a file, or standard input for ``-``;
    at most :data:`MAX_FILE_BYTES` either way."""
    if source == STDIN:
        stream = stdin if stdin is not None else sys.stdin.buffer
        data = stream.read(MAX_FILE_BYTES + 1)
        name = "<standard input>"
        if len(data) > MAX_FILE_BYTES:
            raise UnreadableError(Problem(f"too much text (more than {megabytes(MAX_FILE_BYTES)})", file=name))
    else:
        name = source
        data = read_regular(source, MAX_FILE_BYTES, kind="a list's text")
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), name
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise UnreadableError(Problem(f"not UTF-8 text (byte {exc.start}); save the text as UTF-8", file=name,
                                      line=line)) from None


def _shelf(rs):
    from ..engine.costing import FigureShelf
    from .figures import figures_path

    try:
        return FigureShelf(rs, load_user_figures(rs.id), figures_path(rs.id))
    except RosterkitError:  # the player's figures file is broken: the ruleset's figures only
        return FigureShelf(rs)


def import_list(source: str, output: str | Path, registry, force: bool = False, stdin=None) -> Imported:
    """Read the list in ``source`` and save it as the roster file ``output`` (an existing file is
    replaced only with ``force``, kept as ``.bak``)."""
    path = Path(output)
    try:
        exists = path.exists()
    except OSError as exc:
        raise RosterkitError(Problem(f"cannot save: {exc.strerror or exc}", file=str(path))) from None
    if exists and not force:
        raise RosterkitError(Problem("file exists; use --force to replace it (the old one is kept as .bak)",
                                     file=str(path)))
    text, name = read_source(source, stdin)
    done = read_text(text, registry, name)
    save_roster(done.read.roster, path, keep_layout=False, report=done.report)
    done.path = path
    return done


def read_text(text: str, registry, name: str = PASTED) -> Imported:
    """A list's text read into a roster, not saved; ``name`` names the text in messages.
    Raises RosterkitError naming the line that cannot be read."""
    if len(text) > MAX_FILE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise UnreadableError(Problem(f"too much text (more than {megabytes(MAX_FILE_BYTES)})", file=name))
    read = read_list(text, registry, name, _shelf)
    rs = registry.get(read.roster.ruleset)
    report = cost_roster(rs, read.roster, _shelf(rs))
    unknown = [f for f in report.findings if f.rule in _UNKNOWN]
    return Imported(read, report, None, fingerprint(report).code, unknown)
