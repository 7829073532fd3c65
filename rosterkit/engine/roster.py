"""The roster as a value: the shape of a roster file (pydantic v2), frozen.

An edit makes a new roster; costing and validation read it. Loading and saving are in
:mod:`rosterkit.files.rosters`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictInt, field_validator, model_validator

from ..rules.schema import Ident, Name, Num, Scalar, Strict


class LocalItem(Strict):
    """A roster-local (homebrew) weapon, ability or piece of equipment."""

    name: Name
    stats: dict[Ident, Scalar] = Field(default_factory=dict)
    cost: Num | None = None
    allowed_types: list[Name] = Field(default_factory=list)
    description: str = ""


class Member(Strict):
    """Figures of one kind inside a unit (a unit may mix kinds where the game allows)."""

    name: str = ""
    figure: Name | None = None
    count: StrictInt = Field(1, ge=0, le=1_000_000)
    stats: dict[Ident, Scalar] = Field(default_factory=dict)
    weapons: list[Name] = Field(default_factory=list)
    abilities: list[Name] = Field(default_factory=list)
    equipment: list[Name] = Field(default_factory=list)
    notes: str = ""


class Unit(Strict):
    name: Name
    type: Name | None = None
    figure: Name | None = None
    count: StrictInt | None = Field(None, ge=0, le=1_000_000)
    stats: dict[Ident, Scalar] = Field(default_factory=dict)
    weapons: list[Name] = Field(default_factory=list)
    abilities: list[Name] = Field(default_factory=list)
    equipment: list[Name] = Field(default_factory=list)
    members: list[Member] = Field(default_factory=list)
    notes: str = ""
    points: Num | None = None  # what the unit cost when the roster was last saved (see ruleset_version)

    @model_validator(mode="after")
    def _check(self) -> Unit:
        if self.members and (self.stats or self.weapons or self.abilities or self.equipment
                             or self.figure or self.count is not None):
            raise ValueError(
                f"unit '{self.name}': give either members or figure/count/stats/weapons/abilities, not both"
            )
        return self

    def member_list(self) -> list[Member]:
        """The unit's figures as members: a plain unit is a single member (what the unit
        itself set stays marked as set, so "no weapons" still tells from "nothing said")."""
        if self.members:
            return list(self.members)
        given = {k: getattr(self, k) for k in _MEMBER_KEYS}
        return [Member.model_construct(self.model_fields_set & _MEMBER_KEYS.union({"count"}), **given,
                                       count=1 if self.count is None else self.count)]


_MEMBER_KEYS = frozenset(("figure", "stats", "weapons", "abilities", "equipment"))


class RosterChart(Strict):
    """The chart the players agreed for a game whose text plays by a chart it does not print (the
    ruleset's card.chart): each row its label, then a result for each of the chart's columns. The
    chart card prints it filled in, as the players' and not the book's."""

    note: Annotated[str, Field(max_length=80)] = ""  # who agreed it, or for which game
    # (a row: its label, then a result for each of the chart's columns, ten at most)
    rows: list[Annotated[list[Annotated[str, Field(max_length=12)]], Field(max_length=11)]] = \
        Field(min_length=1, max_length=24)


class RosterFile(Strict):
    format: Literal[1] = 1
    name: Name
    ruleset: Ident
    # the version of the ruleset the roster was last saved against; with each unit's `points`,
    # what lets a later version of the rules say what changed (None: an older file)
    ruleset_version: Name | None = None
    points_limit: Num | None = None  # the game's size: a whole number of points, at least 1
    notes: str = ""
    stats: dict[Ident, Scalar] = Field(default_factory=dict)
    house_prices: dict[Name, Num] = Field(default_factory=dict)
    chart: RosterChart | None = None
    units: list[Unit] = Field(default_factory=list, max_length=20_000)  # files/rosters.MAX_UNITS
    weapons: list[LocalItem] = Field(default_factory=list)
    abilities: list[LocalItem] = Field(default_factory=list)
    equipment: list[LocalItem] = Field(default_factory=list)

    @field_validator("points_limit")
    @classmethod
    def _whole_points(cls, value: float | None) -> int | float | None:
        """A limit of 0 or less would allow no army, and a fraction of a point is no game size."""
        if value is not None and (value < 1 or (isinstance(value, float) and not value.is_integer())):
            raise ValueError(f"must be a whole number of at least 1 (got {value!r})")
        return value
