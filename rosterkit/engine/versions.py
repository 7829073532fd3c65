"""Rules that change: what a roster recorded when it was saved, against the ruleset installed now.

A saved roster records the version of its ruleset (``ruleset_version``) and each unit's
points (``points``). When the installed ruleset has another version, :func:`changes`
gives, per unit, the points then and now; nothing in the roster is dropped (a unit whose
entries left the catalogue is costed and reported as any other). :func:`recorded` gives the
roster with the installed version and today's points written in (what a save records).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.numbers import Number, exact, exact_sum, showable
from .costing import CostReport
from .roster import RosterFile


@dataclass(frozen=True)
class UnitChange:
    index: int
    name: str
    then: Number | None  # None: the unit had no recorded points (added by hand, or an older file)
    now: Number

    @property
    def changed(self) -> bool:
        return self.then is None or self.then != plain(self.now)


@dataclass(frozen=True)
class VersionChange:
    recorded: str  # the version the roster was saved against
    installed: str
    units: list[UnitChange]
    total_then: Number | None  # None when a unit has no recorded points
    total_now: Number

    def notice(self, ruleset_name: str) -> str:
        return notice(ruleset_name, self.recorded, self.installed)


def notice(ruleset_name: str, recorded: str, installed: str) -> str:
    """The one line that says a roster was saved against another version of its ruleset."""
    return (f"built for {ruleset_name} version {recorded}; version {installed} is installed "
            f"(rosterkit update records the new version)")


def changes(report: CostReport) -> VersionChange | None:
    """What differs between the version the roster recorded and the installed ruleset
    (None when the roster recorded none, or the same version)."""
    roster, rs = report.roster, report.ruleset
    if roster.ruleset_version is None or roster.ruleset_version == rs.data.version:
        return None
    units = [UnitChange(u.index, u.name, roster.units[u.index].points, u.total) for u in report.units]
    # exactly: the points a file recorded are floats, whose sum can pass the largest float
    then = None if any(c.then is None for c in units) else exact_sum(exact(c.then) for c in units)
    return VersionChange(roster.ruleset_version, rs.data.version, units, then, report.total)


def recorded(roster: RosterFile, report: CostReport) -> RosterFile:
    """The roster with the installed ruleset's version and each unit's points written in.

    ``report`` is the cost report of this very roster (its units in the same order)."""
    if len(report.units) != len(roster.units):
        raise ValueError("the cost report is of another roster")
    units = [unit if unit.points == plain(u.total) else unit.model_copy(update={"points": plain(u.total)})
             for unit, u in zip(roster.units, report.units)]
    return roster.model_copy(update={"ruleset_version": report.ruleset.data.version, "units": units})


def plain(value: Number) -> int | float | None:
    """Points as a file holds them: a whole number, or a decimal for a fraction; None (nothing
    recorded) for points beyond what can be shown, which costing reports as an error."""
    if not showable(value):
        return None
    return int(value) if value == int(value) else value.numerator / value.denominator  # type: ignore[union-attr]
