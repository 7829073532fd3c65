"""One line per list, for an organiser checking many lists at once (``validate --summary``)."""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.numbers import Number, fmt, to_json
from .fingerprint import fingerprint
from .validation import Validation

# the columns of the summary, as `--csv` and `--json` name them
FIELDS = ("file", "name", "ruleset", "points", "limit", "errors", "warnings", "status", "fingerprint")


@dataclass(frozen=True)
class ListSummary:
    file: str
    name: str
    ruleset: str
    points: Number | None
    limit: Number | None
    errors: int
    warnings: int
    status: str  # valid, invalid, unreadable (or, with --strict, warnings)
    fingerprint: str

    @property
    def failed(self) -> bool:
        return self.status != "valid"

    def points_text(self) -> str:
        if self.points is None:
            return ""
        return fmt(self.points) + (f" of {fmt(self.limit)}" if self.limit is not None else "")

    def to_json(self) -> dict:
        return {"file": self.file, "name": self.name, "ruleset": self.ruleset, "points": to_json(self.points),
                "limit": to_json(self.limit), "errors": self.errors, "warnings": self.warnings,
                "status": self.status, "fingerprint": self.fingerprint}


def summarise(file: str, validation: Validation, strict: bool = False) -> ListSummary:
    report = validation.report
    warnings = sum(1 for f in validation.findings if f.severity == "warning")
    errors = len(validation.errors)
    status = "invalid" if errors else "warnings" if strict and warnings else "valid"
    return ListSummary(file, report.roster.name, report.ruleset.id, report.total, report.limit, errors, warnings,
                       status, fingerprint(report).code)


def unreadable(file: str, problems: int) -> ListSummary:
    """A list that could not be read (its problems are printed on their own)."""
    return ListSummary(file, "", "", None, None, problems, 0, "unreadable", "")


_RANK = {"unreadable": 0, "invalid": 1, "warnings": 2, "valid": 3}


def failing_first(rows: list[ListSummary]) -> list[ListSummary]:
    """Lists that cannot be read, then invalid ones, then (strict) ones with warnings, then the
    valid ones; in the order given within each."""
    return sorted(rows, key=lambda r: _RANK.get(r.status, 0))
