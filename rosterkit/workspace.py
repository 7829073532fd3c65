"""Opening a roster: the one way every front-end does it.

The command line, the cards command and the terminal interface all open a roster here:
the roster (from a file or as a value), its ruleset from the registry, the player's own
figures layered after the ruleset's, the costing context, the cost report and the
findings, with the file's line for each finding. None of them assembles its own, so they
cannot disagree about a roster's points or findings.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from .engine.budget import TooMuchWork, check_work
from .engine.costing import Costing, CostReport, FigureShelf
from .engine.roster import RosterFile
from .engine.validation import Validation, validate_report
from .engine.versions import VersionChange, changes
from .errors import Problem, RosterkitError
from .files.atomic import Fingerprint
from .files.figures import figures_path, load_user_figures
from .files.rosters import load_roster, loads_roster
from .files.rulesets import Registry
from .files.tomlfile import find_line
from .findings import Finding
from .rules.ruleset import Ruleset


@dataclass(frozen=True)
class OpenRoster:
    """A roster opened for use: everything a front-end shows of it."""

    roster: RosterFile
    ruleset: Ruleset
    figures: FigureShelf  # the ruleset's figures, then the player's
    figures_error: RosterkitError | None  # the player's figures file could not be read (and was not needed)
    path: Path | None = None
    text: str | None = None  # the file's text, for the lines of findings
    shared: Costing | None = None  # a costing context shared with other rosters of the ruleset (many lists)
    disk: Fingerprint | None = None  # the file just before it was read (a save over it checks it is still so)

    @cached_property
    def costing(self) -> Costing:
        return self.shared if self.shared is not None else Costing(self.ruleset, self.figures)

    @cached_property
    def report(self) -> CostReport:
        return self.costing.report(self.roster)

    @cached_property
    def validation(self) -> Validation:
        return validate_report(self.report)

    @cached_property
    def version_change(self) -> VersionChange | None:
        """Points then and now when the roster was saved against another version of its ruleset."""
        return changes(self.report)

    @cached_property
    def findings(self) -> list[Finding]:
        """Every finding, with the file and the line it points at (located once: commands read
        them more than once)."""
        return self.locate(self.validation.findings)

    def locate(self, findings: list[Finding]) -> list[Finding]:
        return locate(findings, self.path, self.text)


def open_roster(path: Path | str, registry: Registry, costings: dict[str, Costing] | None = None) -> OpenRoster:
    """Open a roster file. Raises :class:`RosterkitError` naming the file, key and line when it
    cannot be read, names an unknown ruleset, or needs a player's figures file that is broken.

    ``costings``, a dict the caller keeps while it opens many rosters (a tournament's lists),
    shares one costing context per ruleset between them: what costing remembers (checked stat
    values, item prices) is worked out once for all, in memory, for that run."""
    loaded = load_roster(path)
    if costings is not None:
        rs = ruleset_of(loaded.roster, registry, loaded.path, loaded.text)
        shared = costings.get(rs.id)
        if shared is None:
            figures, error = player_figures(rs, loaded.roster)
            opened = _bounded(OpenRoster(loaded.roster, rs, figures, error, loaded.path, loaded.text, disk=loaded.disk))
            if error is None:
                costings[rs.id] = opened.costing
            return opened
        return _bounded(OpenRoster(loaded.roster, rs, shared.figures, None, loaded.path, loaded.text, shared,
                                   loaded.disk))
    return open_value(loaded.roster, registry, path=loaded.path, text=loaded.text, disk=loaded.disk)


def open_text(text: str, registry: Registry, file: str = "<roster>") -> OpenRoster:
    """Open a roster given as text (a recovered or pasted roster)."""
    return open_value(loads_roster(text, file), registry, text=text)


def open_value(roster: RosterFile, registry: Registry | Ruleset, *, path: Path | str | None = None,
               text: str | None = None, disk: Fingerprint | None = None) -> OpenRoster:
    """Open a roster value (made in the interface, or already read; ``disk``: its file just before it was read)."""
    path = Path(path) if path is not None else None
    rs = registry if isinstance(registry, Ruleset) else ruleset_of(roster, registry, path, text)
    figures, error = player_figures(rs, roster)
    return _bounded(OpenRoster(roster, rs, figures, error, path, text, disk=disk))


def _bounded(opened: OpenRoster) -> OpenRoster:
    """The opened roster, when the work it asks of its ruleset is within the budget
    (:func:`rosterkit.engine.budget.check_work`); else the error, naming its file."""
    try:
        check_work(opened.ruleset, opened.roster, opened.figures)
    except TooMuchWork as exc:
        file = str(opened.path) if opened.path is not None else None
        raise TooMuchWork([dataclasses.replace(p, file=p.file or file) for p in exc.problems]) from None
    return opened


def ruleset_of(roster: RosterFile, registry: Registry, path: Path | None = None, text: str | None = None) -> Ruleset:
    try:
        return registry.get(roster.ruleset)
    except RosterkitError as exc:
        p = exc.problems[0]
        if p.file is not None:  # the ruleset's own file has mistakes: they are reported against it
            raise
        raise RosterkitError(Problem(p.message, file=str(path) if path else None, key="ruleset",
                                     line=find_line(text, ("ruleset",)) if text else None, hint=p.hint)) from None


def player_figures(rs: Ruleset, roster: RosterFile | None = None) -> tuple[FigureShelf, RosterkitError | None]:
    """The figures a roster of this ruleset may name: the ruleset's, then the player's own.

    A player's file that cannot be read is an error for a roster that names a figure the
    ruleset lacks (raised, naming the file, key and line); otherwise it is returned beside an
    empty layer, for the interface to show.
    """
    try:
        own = load_user_figures(rs.id)
    except RosterkitError as exc:
        if roster is not None and any(rs.find_figure(n) is None for n in used_figure_names(roster)):
            raise
        return FigureShelf(rs), exc
    return FigureShelf(rs, own, figures_path(rs.id)), None


def used_figure_names(roster: RosterFile) -> list[str]:
    names: list[str] = []
    for unit in roster.units:
        if unit.figure:
            names.append(unit.figure)
        names.extend(m.figure for m in unit.members if m.figure)
    return names


def locate(findings: list[Finding], path: Path | None, text: str | None) -> list[Finding]:
    """The findings with the file and line each points at (several findings share a key's line)."""
    file = str(path) if path is not None else None
    lines: dict[tuple[int | None, str | None], int | None] = {}
    out = []
    for f in findings:
        at = (f.unit, f.field)
        if at not in lines:
            lines[at] = find_line(text, _key_path(f)) if text else None
        out.append(dataclasses.replace(f, file=file, line=lines[at]))
    return out


def _key_path(f: Finding) -> tuple:
    parts: tuple = ()
    if f.field:
        parts = tuple(int(p) if p.isdigit() else p for p in f.field.replace("[", ".").replace("]", "").split("."))
    return ("units", f.unit, *parts) if f.unit is not None else parts
