"""The roster as a value: the shape of a roster file (pydantic v2), frozen.

An edit makes a new roster; costing and validation read it. Loading and saving are in
:mod:`rosterkit.files.rosters`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictInt, model_validator

from ..rules.schema import Ident, Name, Num, Scalar, Strict


class LocalItem(Strict):
    """A roster-local (homebrew) weapon, ability or piece of equipment."""

    name: Name
    stats: dict[Ident, Scalar] = {}
    cost: Num | None = None
    allowed_types: list[Name] = []
    description: str = ""


class Member(Strict):
    """Figures of one kind inside a unit (a unit may mix kinds where the game allows)."""

    name: str = ""
    figure: Name | None = None
    count: StrictInt = Field(1, ge=0, le=1_000_000)
    stats: dict[Ident, Scalar] = {}
    weapons: list[Name] = []
    abilities: list[Name] = []
    equipment: list[Name] = []
    notes: str = ""


class Unit(Strict):
    name: Name
    type: Name | None = None
    figure: Name | None = None
    count: StrictInt | None = Field(None, ge=0, le=1_000_000)
    stats: dict[Ident, Scalar] = {}
    weapons: list[Name] = []
    abilities: list[Name] = []
    equipment: list[Name] = []
    members: list[Member] = []
    notes: str = ""

    @model_validator(mode="after")
    def _check(self) -> "Unit":
        if self.members and (self.stats or self.weapons or self.abilities or self.equipment
                             or self.figure or self.count is not None):
            raise ValueError(
                f"unit '{self.name}': give either members or figure/count/stats/weapons/abilities, not both"
            )
        return self

    def member_list(self) -> list[Member | SingleMember]:
        """The unit's figures as members: a plain unit is a single member."""
        return list(self.members) if self.members else [SingleMember(self)]


class SingleMember:
    """A unit without members read as its one kind of figure, with a Member's fields.

    Made without building (and validating again) a model: that was a tenth of the costing
    time of a big roster. ``model_fields_set`` is the unit's, so "the unit set an empty list"
    still tells from "the unit said nothing"."""

    __slots__ = ("name", "figure", "count", "stats", "weapons", "abilities", "equipment", "notes",
                 "model_fields_set")

    def __init__(self, unit: Unit):
        self.name = ""
        self.figure = unit.figure
        self.count = 1 if unit.count is None else unit.count
        self.stats = unit.stats
        self.weapons = unit.weapons
        self.abilities = unit.abilities
        self.equipment = unit.equipment
        self.notes = ""
        self.model_fields_set = unit.model_fields_set


class RosterFile(Strict):
    format: Literal[1] = 1
    name: Name
    ruleset: Ident
    points_limit: Num | None = None
    notes: str = ""
    stats: dict[Ident, Scalar] = {}
    house_prices: dict[Name, Num] = {}
    units: list[Unit] = Field([], max_length=100_000)
    weapons: list[LocalItem] = []
    abilities: list[LocalItem] = []
    equipment: list[LocalItem] = []
