"""The shapes of ruleset and roster files (pydantic v2).

These models check structure only: keys, types, required fields. Meaning
(names that must exist, formulas that must compile, stats within bounds) is
checked by :mod:`rosterkit.rules.ruleset` and :mod:`rosterkit.engine.validation`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Literal, Union

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    model_validator,
)

from .numbers import fmt, parse_fraction
from .stats import KINDS

Num = Union[StrictInt, StrictFloat]


def _number_text(value: object) -> object:
    """A ruleset's number written as text ("1/3", "2.5") as an exact number; anything else as it is."""
    return parse_fraction(value) if isinstance(value, str) else value


# a number in a ruleset: a TOML number, or text holding an exact one ("1/3": no 0.3333 rounding)
Exact = Annotated[Union[StrictInt, StrictFloat, Fraction], BeforeValidator(_number_text)]
Scalar = Union[StrictBool, StrictInt, StrictFloat, StrictStr, list[StrictStr]]
Name = Annotated[str, Field(min_length=1, max_length=200)]
Ident = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z][A-Za-z0-9_]*$")]
# what a roster is charged for an entry with a printed cost: the printed cost (the rule of
# every built-in ruleset), or what the ruleset's formula gives (chosen explicitly, per entry)
Pricing = Literal["printed", "formula"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=False, allow_inf_nan=False)


# the kinds of rosterkit.rules.stats.KINDS (a test keeps the two in step)
StatKind = Literal["int", "number", "die", "pool", "flag", "text", "choice", "choices"]


class StatDef(Strict):
    id: Ident
    label: Name
    short: str | None = None
    kind: StatKind = "int"
    min: Num | None = None
    max: Num | None = None
    default: Scalar | None = None
    optional: bool = False
    required: bool = False
    options: list[Name] = []
    dice: list[StrictInt] = [4, 6, 8, 10, 12]
    die_letter: str = "D"
    prefix: str = ""
    suffix: str = ""
    description: str = ""
    entry_note: str = ""

    @model_validator(mode="after")
    def _check(self) -> "StatDef":
        if KINDS[self.kind].needs_options and not self.options:
            raise ValueError(f"stat '{self.id}': a {self.kind} stat needs options")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"stat '{self.id}': min {self.min} is above max {self.max}")
        if self.required and self.default is not None:
            raise ValueError(f"stat '{self.id}': a required stat has no default (the player enters it)")
        return self

    @property
    def short_label(self) -> str:
        return self.short or self.label


class Source(Strict):
    title: Name
    author: str = ""
    publisher: str = ""
    year: StrictInt | None = None
    edition: str = ""
    url: str = ""


class Printing(Strict):
    """Another cost printed for the same entry somewhere in the source."""

    cost: Exact
    where: str


class TypeDef(Strict):
    id: Ident
    name: Name
    aliases: list[Name] = []
    params: dict[Ident, Exact] = {}
    set: dict[Ident, Scalar] = {}
    add: dict[Ident, Exact] = {}
    cost: Exact | None = None  # cost printed for a default figure of this type
    # "printed": a figure of this type is charged ``cost`` for what a default figure of the type
    # has, and the formula for what it has beyond that; "formula": the formula alone
    pricing: Pricing = "printed"
    other_printings: list[Printing] = []
    description: str = ""
    note: str = ""


class Levels(Strict):
    """An item taken at a level (a rating) set per unit: ``"Hard to Kill:2"`` in a roster; the
    item's formulas read it as ``level``."""

    min: StrictInt = 1
    max: StrictInt
    label: Name = "level"  # how the level is written after the item's name: "Hard to Kill (level 2)"

    @model_validator(mode="after")
    def _check(self) -> "Levels":
        if self.min > self.max:
            raise ValueError(f"levels: min {self.min} is above max {self.max}")
        return self


class ItemDef(Strict):
    name: Name
    levels: Levels | None = None
    aliases: list[Name] = []
    stats: dict[Ident, Scalar] = {}
    cost: Exact | None = None
    cost_formula: str | None = None
    cost_label: str = ""  # how cost_formula is described in the cost breakdown, in the book's words
    unpriced: bool = False
    pricing: Pricing = "printed"  # "formula": charged the catalogue's formula, not the printed cost
    allowed_types: list[Name] = []
    description: str = ""
    note: str = ""
    other_printings: list[Printing] = []

    @model_validator(mode="after")
    def _check(self) -> "ItemDef":
        if self.unpriced and (self.cost is not None or self.cost_formula):
            raise ValueError(f"'{self.name}': an unpriced entry has no cost or cost_formula")
        if self.cost is not None and self.cost_formula:
            raise ValueError(f"'{self.name}': give cost or cost_formula, not both")
        if self.unpriced and self.pricing == "formula":
            raise ValueError(f"'{self.name}': an unpriced entry cannot be priced by the formula")
        return self


class FigureDef(Strict):
    name: Name
    aliases: list[Name] = []
    type: Name
    count: StrictInt = Field(1, ge=1)
    stats: dict[Ident, Scalar] = {}
    weapons: list[Name] = []
    abilities: list[Name] = []
    equipment: list[Name] = []
    cost: Exact | None = None
    other_printings: list[Printing] = []
    description: str = ""
    note: str = ""


class Term(Strict):
    label: Name
    expr: str
    show_zero: bool = False  # shown in the cost breakdown when it comes to 0 (else left out)


class CostFormula(Strict):
    terms: list[Term] = Field(min_length=1)
    total: str = "subtotal"


class Formulas(Strict):
    figure_cost: str | CostFormula
    # true: the items are priced first and their cost joins the figure cost's total formula as
    # ``items_cost`` (a game that multiplies and rounds the whole sum, specials included)
    items_in_figure_cost: bool = False
    weapon_cost: str | None = None
    ability_cost: str | None = None
    equipment_cost: str | None = None
    # named values each kind's formulas may read (its cost formula, sum_items() and items() over
    # one item): name = formula, in order, each reading the item's stats, level and the values before it
    weapon_values: dict[Ident, str] = {}
    ability_values: dict[Ident, str] = {}
    equipment_values: dict[Ident, str] = {}
    # how each kind's formula is described in the cost breakdown, in the book's words
    weapon_cost_label: str = ""
    ability_cost_label: str = ""
    equipment_cost_label: str = ""


class DerivedDef(Strict):
    id: Ident
    label: Name
    short: str | None = None
    scope: Literal["figure", "unit"] = "figure"
    expr: str
    prefix: str = ""
    suffix: str = ""
    show: bool = False  # a figure value shown in the cost breakdown and text lists (unit values always are)
    description: str = ""

    @property
    def short_label(self) -> str:
        return self.short or self.label

    def shown(self, value: object) -> str:
        """The value as players read it: a number between the prefix and suffix; text (such as
        '-' for none) as it is."""
        if isinstance(value, str):
            return value
        return f"{self.prefix}{fmt(value)}{self.suffix}"


class LimitDef(Strict):
    id: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[a-z0-9][a-z0-9_-]*$")]
    label: Name
    severity: Literal["error", "warning"] = "error"
    scope: Literal["roster", "unit", "figure"] = "roster"
    applies_to: list[Name] = []
    check: str | None = None
    measure: str | None = None
    at_most: Exact | None = None
    at_least: Exact | None = None
    show_as: Literal["percent", "number"] = "number"
    message: str
    card: str | None = None  # the message's short form for the cards: whole, a line or two
    description: str = ""

    @model_validator(mode="after")
    def _check(self) -> "LimitDef":
        if self.check is not None and self.measure is not None:
            raise ValueError(f"limit '{self.id}': give a check, or a measure with at_most/at_least, not both")
        if self.check is None and self.measure is None:
            raise ValueError(f"limit '{self.id}': give a check or a measure with at_most/at_least")
        if self.measure is not None and self.at_most is None and self.at_least is None:
            raise ValueError(f"limit '{self.id}': a measure needs at_most or at_least")
        if self.measure is None and (self.at_most is not None or self.at_least is not None):
            raise ValueError(f"limit '{self.id}': at_most/at_least need a measure")
        if self.applies_to and self.scope == "roster":
            raise ValueError(f"limit '{self.id}': applies_to is for unit and figure limits")
        return self


class MatchupDef(Strict):
    id: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[a-z0-9][a-z0-9_-]*$")]
    label: Name
    severity: Literal["error", "warning"] = "error"
    check: str
    message: str
    description: str = ""


class CardColumn(Strict):
    label: str
    show: str
    # the label when the stat line is written on one line (text lists); "" writes the value alone
    line_label: str | None = None
    # weapon columns: leave the cell empty when the weapon's name already ends with its text
    # (a catalogue weapon named as the book prints it, "Sword (D8)")
    unless_named: bool = False
    # weapon columns, where a list names the weapon (text lists, the cost breakdown):
    # "after_name" writes the cell after the name ("Fire Pot (2/D6)"); "special" lists it with
    # the figure's abilities on a line headed by the column's label ("Special: Cavalry, *Magic")
    text: Literal["", "after_name", "special"] = ""
    breakdown: bool = False  # weapon columns: shown on a line of its own under the weapon in the cost breakdown
    # weapon columns, on a card: a line of its own under the weapon's row, across the table (notes),
    # so that the other columns take one row per weapon
    under: bool = False
    # weapon columns: the roll made with the weapon, the figure's own die in it (ARES's "D10+D8"),
    # not a stat of the weapon: a bracket in the weapon's name is not read against it
    roll: bool = False
    # weapon columns, on a card: a list of bands ("0-9\" / 10-18\" / 19-27\"") set one band to a column
    # (lined up down the table) under one heading, this word and the label ("Range 0 / -1 / -2")
    bands: str = ""
    # false leaves the column off the cards (text lists and the cost breakdown still write it):
    # LEGO's Max, the end of the -2 band, which a card's band columns show already, and its
    # Combat, which the stat band's attack and defense modifiers hold already
    on_cards: bool = True
    # stat band, with the card section's same_columns: the value most figures show (LEGO's one
    # attack a round); a column no card of an export shows another value in is left out
    usual: str | None = None
    # stat band, with same_columns: on every card of every export, even where each card shows 0 or
    # nothing (a book's core stat: LEGO's Resistance 0 is a soldier one hit kills)
    always: bool = False
    # stat band: on a card, who the figure is or what it carries ("ID #1", "Spear") goes in the
    # subtitle, not in a box of the band; left out where the subtitle says it already (the rank)
    subtitle: bool = False
    # stat band: also a column of the summary page's unit table (the number a figure is known by,
    # or a factor it plays by)
    summary: bool = False
    # stat band: where the band takes more than one row, a new row starts at this column
    new_band: StrictBool = False
    # stat band: the column's name spelt out ("Move" for "M"), heading its box on a large card
    # (tarot, A6) where every band of the export has room for its names; the label elsewhere
    name: Annotated[str, Field(max_length=24)] = ""


class CardRow(Strict):
    label: str
    values: list[str]
    # false: written in text lists only; a card says it otherwise (fast_universal's melee die, in
    # the whole roll of its reminder)
    on_cards: bool = True
    # false: on the cards only; text lists write the rows they have always written (For the Masses'
    # targets worked out by Defense, the lists keeping the sum that earlier lists read back by)
    in_lists: bool = True


class TrackerItem(Strict):
    label: str
    note: str = ""  # what it does, in a few words


class TrackerDef(Strict):
    """Something players mark on a card during a game, in the game's own words."""

    name: str
    # the name play-mode formulas ([play]) read its marks by: ``id`` (the marks), ``id_full`` (the
    # rows, one a figure or element, whose boxes are all marked) and ``id_any`` (rows with a mark)
    id: Ident | None = None
    # boxes: ``count`` boxes for the figures of one kind (in ``rows`` rows labelled ``row_label``
    # and a number, such as one per element); die: the steps of a die that shrinks, from ``start``;
    # check: one box (or one per item, with its effect); counter: a space to write a number in
    kind: Literal["boxes", "die", "check", "counter"]
    count: str = "1"  # formula
    rows: str | None = None  # formula
    row_label: str = ""
    # boxes: mark the box that takes the figures to half strength; true, or a formula (as ``when``)
    # naming the figures that have such a rule (fast_universal: ordnance only)
    half: StrictBool | Annotated[str, Field(min_length=1)] = False
    # boxes counted so many a figure: on a card, each figure's numbered from 1 (a soldier's stun
    # levels 1 to 4), as many figures to a line on every card and card size
    figure_lines: bool = False
    box_labels: list[Annotated[str, Field(min_length=1, max_length=12)]] = Field(
        [], max_length=20,
        description="With figure_lines: what each box of a figure's run means, printed over the box, "
                    "which stays empty to tick (LEGO's wake-up roll of each stun level: 5+, 6, 12, "
                    "18); a box past the list keeps its number.")
    steps: list[str] = []  # die: the die sizes in order ("d12", "d10", ...)
    start: str | None = None  # die: formula, the figure's die size (8 starts at "d8")
    # die: formula, how many dice the figure rolls, before each step ("3d8 › 3d6": a hit lowers the
    # die type, not the number of dice); none: the die type alone ("d8 › d6")
    dice: str | None = None
    # die: a last box after the smallest die, what a hit there does (fast_universal: "removed")
    after: Annotated[str, Field(max_length=16)] = ""
    items: list[TrackerItem] = []
    only: str | None = None  # check on the army card: the items chosen in this roster stat
    when: str | None = None  # formula: the card carries the tracker only where it is true
    on: Literal["unit", "army"] = "unit"
    note: str = ""
    # false: marked in play mode only, not printed (a figure removed from the table needs no box on its card)
    on_card: bool = True


class CardRule(Strict):
    """A rule of play a player looks up at the table (how an attack or a morale test is rolled),
    in a few words: printed under the ruleset's ``rules_label`` on the summary page where it has
    room for them all, else on the reference card."""

    name: Annotated[str, Field(min_length=1, max_length=32)]
    text: Annotated[str, Field(min_length=1, max_length=400)]
    # formula over a figure's values, as a tracker's: the rule is printed where a figure of the
    # army holds it (fast_universal's vehicle damage where the army fields a vehicle)
    when: str | None = None


class CardChart(Strict):
    """A table the game's text plays by but does not print (heroic_gods' combat chart): a card with
    it blank, its rows and columns labelled, for the players to fill in the one they agree, after the
    reference cards of every export with the quick rules."""

    name: Annotated[str, Field(min_length=1, max_length=32)]
    note: Annotated[str, Field(max_length=80)] = ""  # the card's subtitle: why the chart is blank
    corner: Annotated[str, Field(max_length=12)] = ""  # over the rows' labels ("A - D")
    columns: list[Annotated[str, Field(min_length=1, max_length=8)]] = Field(min_length=1, max_length=10)
    # the rows' labels ("" for a row whose label the players write in)
    rows: list[Annotated[str, Field(max_length=12)]] = Field(min_length=1, max_length=12)
    key: Annotated[str, Field(max_length=200)] = ""  # under the chart: what goes in a cell
    # the subtitle of a chart a roster gives filled in (RosterChart): whose chart it is
    agreed: Annotated[str, Field(min_length=1, max_length=60)] = "the players' chart"


class CardDef(Strict):
    columns: list[CardColumn] = []
    rows: list[CardRow] = []
    weapon_columns: list[CardColumn] = []
    track: str | None = None  # formula: boxes to tick for the figures of one kind in a unit ("wounds * count")
    track_label: str = "Wounds"
    track_note: str = ""  # what a tick on the track means in play, beside its boxes (as a tracker's note)
    track_id: Ident | None = None  # the name play-mode formulas read the track's marks by (as a tracker's id)
    trackers: list[TrackerDef] = []
    # every column on every card, even one no figure of the card has a value in (a book's fixed card)
    all_columns: bool = False
    # the same stat band columns on every card of an export: those some card has a value in, a
    # dash where a card has none (else each card leaves out the columns it has nothing in)
    same_columns: bool = False
    # the heading over a card's abilities, in the book's word ("Special"), and the line a card
    # prints under its stat band for a unit with none, as the book prints it ("No Special")
    abilities_label: str = "Abilities"
    no_abilities: str = ""
    # the heading over the texts of the weapon specials a card's weapons mark ("*Polearm"): a
    # weapon's, not the figure's, so never among the abilities
    specials_label: str = "Weapon specials"
    # the game's rolls in a few lines (an attack, a morale test), in every export under this heading:
    # on the summary page where it has room, else on the reference card (one of their own if need be)
    rules: list[CardRule] = Field([], max_length=16)
    rules_label: Annotated[str, Field(min_length=1, max_length=32)] = "Quick rules"
    # a line under the stat band of every unit card, the facts a player looks up in play (a template
    # with {formula} parts over the figure's values: "Rally 1D10 at or under {defense}")
    reminder: str = ""
    # on a card with the room, a lone figure's ``rows`` go in its stat band under the main
    # row, labelled with their own labels and the main row with this one ("Unwounded" over
    # "Wounded", as a datacard prints a degraded profile); "": they stay a line under the band
    main_label: Annotated[str, Field(max_length=24)] = ""
    per: Literal["unit", "figure"] = "unit"
    # the points' word on the cards' subtitles where the ruleset's own is long ("VP" for "victory
    # points the enemy can score"): the badge and the band show the number already
    points_label: Annotated[str, Field(min_length=1, max_length=12)] | None = None
    # a word after the badge's number, small ("VP": heroic_gods' bare number read as a cost)
    badge_label: Annotated[str, Field(max_length=4)] = ""
    # between a column's label and its value when the stat line is written on one line ("M:6")
    line_separator: Annotated[str, Field(max_length=8)] = " "
    # the card sizes at which every card's subtitle leaves out the count's word ("10 × 21 = 210
    # points"), so that all the ruleset's exports at a size read alike: those where the word takes
    # a subtitle of the ruleset's samples to a second line
    short_counts: list[Literal["poker", "tarot", "index", "a6"]] = []
    # the largest a stat value grows on a card with room, as a multiple of the body (the layout's own
    # limit where it is lower): a game whose band sets short values in narrow boxes keeps them apart
    stat_max: Annotated[float, Field(ge=1.2, le=2.5)] | None = None
    chart: CardChart | None = None

    @model_validator(mode="after")
    def _check(self) -> "CardDef":
        for col in self.weapon_columns:
            if col.new_band:
                raise ValueError(f"weapon column '{col.label}': new_band starts a row of the stat band's "
                                 "columns; a weapon table takes no such rows")
        return self


class PlayPoints(Strict):
    """Victory points a side gives away for its losses: a formula over one kind of figure of a
    unit (its stats, ``count`` and its marks), with the rule it comes from."""

    label: Name
    points: str
    rule: str = Field(min_length=1)  # the rule in the game's words
    reading: str = ""  # what of this is read into the text rather than stated by it


class PlayEffect(Strict):
    """What marks change about a unit, shown while they hold: for one kind of figure (``when``
    and ``show``, text with {formula} parts), or for the whole unit (``value`` added up over its
    kinds of figure, shown while it differs from the value before any mark)."""

    label: Name
    scope: Literal["kind", "unit"] = "kind"
    when: str | None = None
    show: str = ""
    value: str | None = None
    rule: str = Field(min_length=1)
    reading: str = ""

    @model_validator(mode="after")
    def _check(self) -> "PlayEffect":
        if self.scope == "unit" and (self.value is None or self.when is not None):
            raise ValueError(f"effect '{self.label}': a unit effect has a value (and no when)")
        if self.scope == "kind" and (self.when is None or self.value is not None):
            raise ValueError(f"effect '{self.label}': a kind effect has a when and a show (and no value)")
        return self


class PlayDef(Strict):
    """Play mode: the victory points of the game's text, or a note that it gives none, and the
    effects marks have."""

    scoring: str = ""  # how the text says a game is won; where it gives no points, it says so
    points: list[PlayPoints] = Field(default=[], max_length=20)
    effects: list[PlayEffect] = Field(default=[], max_length=40)


class RulesetFile(Strict):
    format: Literal[1] = 1
    id: Ident
    name: Name
    version: str = "1"
    source: Source
    summary: str = ""
    notes: list[str] = []
    points_label: str = "points"
    count_label: str = "figures"
    max_units: StrictInt | None = None
    stats: list[StatDef] = Field(min_length=1)
    weapon_stats: list[StatDef] = []
    ability_stats: list[StatDef] = []
    equipment_stats: list[StatDef] = []
    roster_stats: list[StatDef] = []
    types: list[TypeDef] = Field(min_length=1)
    formulas: Formulas
    derived: list[DerivedDef] = []
    weapons: list[ItemDef] = []
    abilities: list[ItemDef] = []
    equipment: list[ItemDef] = []
    figures: list[FigureDef] = []
    limits: list[LimitDef] = []
    matchup: list[MatchupDef] = []
    card: CardDef = CardDef()
    play: PlayDef = PlayDef()
