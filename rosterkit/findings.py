"""A finding: one thing a player should know about a roster."""

from __future__ import annotations

from dataclasses import asdict, dataclass

SEVERITIES = ("error", "warning", "info")


@dataclass(frozen=True)
class Finding:
    severity: str  # error, warning or info
    rule: str  # the ruleset's limit id, or a built-in check such as "unknown-weapon"
    message: str
    unit: int | None = None  # index in roster.units
    unit_name: str | None = None
    field: str | None = None  # e.g. "stats.move", "weapons", "count"
    member: int | None = None
    hint: str | None = None
    file: str | None = None
    line: int | None = None
    card: str | None = None  # the message's short form for the cards (the full text stays the message)

    def to_json(self) -> dict:
        # (the cards' wording is not part of a report: the message says it in full)
        return {k: v for k, v in asdict(self).items() if v is not None and k != "card"}

    def on_card(self) -> str:
        """What a card prints: the short form where there is one, else the message."""
        return self.card or self.message

    def where(self) -> str:
        if self.unit_name is None:
            return "army"
        return f"#{self.unit + 1} {self.unit_name}" if self.unit is not None else self.unit_name
