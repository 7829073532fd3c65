"""What goes on each card, worked out from a costed roster. Nothing here draws.

A card shows a unit (or, for skirmish games, one figure): its name, type, size and
points; the ruleset's stat line (``display.stat_line``) and extra rows
(``display.extra_rows``); its weapons (``display.weapon_line``); its abilities and
equipment with a short reminder from the catalogue; boxes to tick when the ruleset
has a ``card.track`` formula; and the unit's notes.

Long descriptions that would be repeated on several cards are moved to the glossary
page (each once) and the cards carry only the name.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction

from ..engine.costing import (
    CostReport,
    ItemCost,
    MemberCost,
    UnitCost,
    singular,
)
from ..engine.display import extra_rows, reminder_line, stat_line, weapon_line, with_copies
from ..engine.fingerprint import fingerprint
from ..engine.functions import CardFunctions
from ..engine.trackers import TrackerBoxes, army_trackers, carrying, die_steps, tracker_boxes
from ..engine.validation import Validation, chart_rows
from ..errors import RosterkitError
from ..rules.formula import Formula
from ..rules.numbers import fixed, fmt
from ..rules.ruleset import ITEM_KINDS, Ruleset, norm
from ..rules.stats import coerce, display
from ..words import count_of

# A description longer than this that appears on two or more cards goes to the glossary.
GLOSSARY_LENGTH = 100
# Values that say a figure has none of a stat: a stat no figure of the card has is left off it.
NOTHING = frozenset({"", "none", "n/a", "-", "–", "—", "0"})


@dataclass(frozen=True)
class Entry:
    """An ability or a piece of equipment as listed on a card."""

    name: str
    text: str  # the reminder printed on the card ('' when there is none or it is in the glossary)
    in_glossary: bool = False
    who: str = ""  # in a mixed unit: the members holding it, when not all do


@dataclass(frozen=True)
class Table:
    labels: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str, ...], bool], ...]  # (row label, one text per column, main line?)
    row_labels: bool  # print the row labels as a first column
    under: frozenset[str] = frozenset()  # weapon tables: the columns (by label) set on a line under the row
    # weapon tables: (label, heading) of each column listing bands, set one band to a column (see layout.banded)
    bands: tuple[tuple[str, str], ...] = ()
    states: bool = False  # stat bands: the rows are one figure's states ("Unwounded", "Wounded"), not kinds


@dataclass(frozen=True)
class Track:
    label: str  # the ruleset's track label, or in a mixed unit the member's name
    boxes: int
    heading: str = ""  # in a mixed unit: the ruleset's track label, printed once above the members
    group: int = 5  # boxes drawn together: one figure's (wounds x figures), else fives
    kind: str = "boxes"  # boxes, die (a step to tick per die size), check, counter (a number to write)
    marks: tuple[str, ...] = ()  # die: the steps; check: one box per item (none: one box)
    notes: tuple[str, ...] = ()  # check: each item's effect
    note: str = ""  # what the tracker means in play
    mark: int = 0  # boxes: the box after which the unit is at half strength (0: none)
    # boxes: a run of ``group`` boxes a row (figure, element), each run opening with the row's number
    # and its boxes numbered from 1; ``caption`` says what a row is ("Figure")
    runs: bool = False
    caption: str = ""
    each: bool = False  # boxes: each figure's run numbered from 1, under the label and note (see layout.EACH_MAX)
    labels: tuple[str, ...] = ()  # each: what a box of a run means, printed over it in place of its number
    start: str = ""  # die: the figure's own die, printed before the boxes (never ticked)
    after: str = ""  # die: a last box after the smallest die (the ruleset's tracker "after")


@dataclass(frozen=True)
class CardContent:
    unit_index: int  # -1 for the army card and the reference cards
    title: str
    type_id: str | None
    type_name: str
    subtitle: str
    badge: str  # the card's points, short
    stats: Table
    costs: str  # mixed units: points of each kind of figure
    weapons: Table | None
    abilities: tuple[Entry, ...]
    equipment: tuple[Entry, ...]
    tracks: tuple[Track, ...]
    notes: tuple[str, ...]
    problems: tuple[str, ...]  # card formulas that could not be worked out
    unit_wide: Table | None = None  # a mixed unit's values for the whole unit (unit morale), printed once
    marks: tuple[str, ...] = ()  # flags the card carries as a band of their own (General)
    invalid: tuple[str, ...] = ()  # the unit's errors: printed as a "not valid" band
    warnings: tuple[str, ...] = ()  # the warnings about the unit (readings, advice): a small line, not a band
    # (message, its short form) of the errors and warnings that have one: a card without room for
    # the message prints the short form, whole, rather than the message cut
    shorts: tuple[tuple[str, str], ...] = ()
    kind: str = "unit"  # unit, army or reference
    asides: tuple[str, ...] = ()  # sparse extra rows of the stat band, as a small note under it ("To hit: 4 + target's Def (Att)")
    # on a card with the room (see pdf.export_cards): the stat band with a lone figure's rows
    # in it (the ruleset's card.main_label), and the asides that then stay under it
    band: tuple[Table, tuple[str, ...]] | None = None
    reminder: str = ""  # the facts a player looks up in play (the last of the asides): in ink on a large card
    legend: str = ""  # the aside saying which values a band leaves out ("Swim 3 · ... unless shown"): always small
    abilities_label: str = "Abilities"  # the heading over the abilities: the ruleset's card.abilities_label
    # the stats a stat band's value writes after its number ("6 Sw 3 Cl 1 Ju 3"), in full ("Swim 3 ·
    # Climb 1 · Jump 3"): lines under the band, at the size of the text
    modes: tuple[str, ...] = ()
    usual_modes: str = ""  # those stats at the book's values: a line the export prints where there is room
    figure: str = ""  # a mixed unit's card of one kind of figure: that kind (in the subtitle, after the title)
    # the texts of the weapon specials the card's weapons mark ("*Polearm"), under a heading of their
    # own (the ruleset's card.specials_label): a weapon's rule, not one of the figure's abilities
    specials: tuple[Entry, ...] = ()
    specials_label: str = "Weapon specials"
    rules: tuple[Entry, ...] = ()  # a reference card's: the game's rolls (the ruleset's card.rules)
    rules_label: str = "Quick rules"
    # a reference card's: the stat bands' short labels spelt out ("AD Action dice, M Move"), the
    # first of the quick rules on the cards whose bands do not spell them (see layout.rules)
    key: str = ""
    badge_label: str = ""  # after the badge's number, small: the ruleset's card.badge_label ("VP")
    # a chart card's (the ruleset's card.chart): its columns' labels and its rows, the cells blank,
    # and the label over the rows' labels
    chart: Table | None = None
    corner: str = ""

    @property
    def name(self) -> str:
        """The card's name as messages give it: the title, with the kind of figure of a mixed unit's card."""
        return f"{self.title}: {self.figure}" if self.figure else self.title


@dataclass(frozen=True)
class GlossaryEntry:
    kind: str  # abilities or equipment
    name: str
    text: str
    cards: int  # how many cards carry it
    moved: bool  # the cards print only its name


# ---------------------------------------------------------------- small helpers


def roster_code(report: CostReport) -> str:
    """The roster's fingerprint (``XXXX-XXXX-XXXX-XXXX``), printed on every card and on the summary."""
    return fingerprint(report).code


_PAREN = re.compile(r"^(.*\S)\s*\(([^()]*)\)$")


def plain_weapon_name(name: str, cells: list[str]) -> str:
    """A weapon's name without a bracket that repeats its own stats: "Longbow (5/D10)" beside 5/D10."""
    m = _PAREN.match(name)
    if not m:
        return name
    inner = norm(m.group(2)).replace(" ", "")
    shown = {norm(c).replace(" ", "") for c in cells}
    if inner and (inner in shown or inner in "".join(shown)):
        return m.group(1)
    return name


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def starred_name(name: str) -> str:
    """A weapon's name with the star that ties it to its starred marks under Special, before its
    bracket, as the stat blocks write it ("Pike* (D8)" over "*Polearm"): "Crossbow (4/D10)" ->
    "Crossbow* (4/D10)"; a name with a star already is left as it is."""
    if "*" in name:
        return name
    m = _PAREN.match(name)
    return f"{m.group(1)}* ({m.group(2)})" if m else f"{name}*"


def unit_wide_columns(rs) -> set[int]:
    """Card columns that show only values of the whole unit (``scope = "unit"`` derived values)."""
    unit_ids = {d.id for d in rs.data.derived if d.scope == "unit"}
    other_ids = set(rs.stats) | {d.id for d in rs.data.derived if d.scope != "unit"}
    out = set()
    for i, col in enumerate(c for c in rs.data.card.columns if c.on_cards):  # as the card's band numbers them
        names = set()
        for part in re.findall(r"\{([^{}]*)\}", col.show):
            names.update(_IDENT.findall(part))
        if names & unit_ids and not names & other_ids:
            out.add(i)
    return out


def short_number(value) -> str:
    """A number for a small badge: 22.5, or ≈10.33 for a third."""
    text = fmt(value)
    if "(≈" in text and isinstance(value, Fraction):
        return f"≈{fixed(value, 2)}"
    return text


def card_count(report: CostReport, per: str) -> int:
    """Cards before any continuation: one per unit, or one per figure."""
    if per == "figure":
        return sum(max(1, sum(m.count for m in u.members if m.count > 0)) for u in report.units)
    return len(report.units)


def item_description(report: CostReport, item: ItemCost) -> str:
    if item.local:
        for local in getattr(report.roster, item.kind):
            if norm(local.name) == norm(item.name):
                return local.description.strip()
        return ""
    found = report.ruleset.find_item(item.kind, item.name)
    return found.description.strip() if found is not None else ""


def plan_glossary(report: CostReport, per: str, enabled: bool) -> list[GlossaryEntry]:
    """Every described ability and piece of equipment of the roster, once, by name."""
    seen: dict[tuple[str, str], list] = {}
    for u in report.units:
        unit_keys: dict[tuple[str, str], int] = {}
        for m in u.members:
            for it in m.items:
                if it.kind == "weapons":
                    continue
                key = (it.kind, norm(it.name))
                if key not in seen:
                    seen[key] = [it.kind, it.name, item_description(report, it), 0]
                unit_keys[key] = unit_keys.get(key, 0) + (max(m.count, 0) if per == "figure" else 1)
        for key, n in unit_keys.items():
            seen[key][3] += n if per == "figure" else 1
    out = []
    for kind, name, text, cards in seen.values():
        if not text:
            continue
        moved = enabled and cards >= 2 and len(text) > GLOSSARY_LENGTH
        out.append(GlossaryEntry(kind, name, text, cards, moved))
    out.sort(key=lambda e: (ITEM_KINDS.index(e.kind), norm(e.name)))
    return out


# ---------------------------------------------------------------- building cards



def counted_units(report: CostReport, rule: str) -> list[int]:
    """The units of the types an army-wide limit's measure counts (``points('hero')``: the heroes)."""
    types = {t for lim in report.ruleset.limits if lim.spec.id == rule and lim.spec.scope == "roster"
             for t in lim.measured_types}
    return [u.index for u in report.units if u.type_id in types]


def sharing_units(report: CostReport, rule: str) -> list[int]:
    """The units an army-wide limit measuring ``duplicates('stat')`` is about: those with a figure
    whose value of the stat another figure of the side has too (two bases numbered 3)."""
    stats = set()
    for lim in report.ruleset.limits:
        if lim.spec.id == rule and lim.spec.scope == "roster":
            for formula, _ in lim.parts():
                for node in ast.walk(formula.tree):
                    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                            and node.func.id in ("duplicates", "repeated") and node.args
                            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                        stats.add(node.args[0].value)
    out = []
    for stat in sorted(stats):
        counts: Counter = Counter()
        for u in report.units:
            for m in u.members:
                if m.count > 0 and m.stats.get(stat) is not None:
                    counts[m.stats[stat]] += m.count
        out += [u.index for u in report.units
                if any(m.count > 0 and counts.get(m.stats.get(stat), 0) > 1 for m in u.members)]
    return sorted(set(out))


def drawn_together(b: TrackerBoxes) -> int:
    """How many boxes a card draws in one run: a figure's, when each figure has several; else all
    of them up to ten, else fives."""
    return b.per_row if b.rows > 1 and b.per_row > 1 else b.boxes if b.boxes <= 10 else 5


class CardBuilder:
    """Turns costed units into :class:`CardContent`, one card per unit or per figure."""

    def __init__(self, report: CostReport, per: str, glossary: list[GlossaryEntry],
                 validation: Validation | None = None):
        self.report = report
        # the ruleset's reminder on each unit card (False: an export without them; a set: on the
        # cards of those units only, by index)
        self.reminders: bool | set[int] = True
        # errors by unit, each with the kind of figure it concerns (a stat of that figure) or None
        self.errors: dict[int, list[tuple[str, int | None]]] = {}
        self.shorts: dict[str, str] = {}  # a finding's message: its short form (see CardContent.shorts)
        # warnings by unit; an army-wide one under None (the army card), unless it names figures
        # sharing a value (duplicates('stat')): then on the cards of those figures
        self.warnings: dict[int | None, list[str]] = {}
        for f in (validation.findings if validation is not None else []):
            if f.card and f.card != f.message:
                self.shorts[f.message] = f.card
            if f.severity == "error" and f.unit is not None:
                self.errors.setdefault(f.unit, []).append((f.message, f.member))
            elif f.severity == "error":  # army-wide: on the cards of the types the limit counts
                for u in counted_units(report, f.rule):
                    self.errors.setdefault(u, []).append((f.message, None))
            elif f.severity == "warning":
                for u in ([f.unit] if f.unit is not None else sharing_units(report, f.rule) or [None]):
                    self.warnings.setdefault(u, []).append(f.message)
        self.unit_wide = unit_wide_columns(report.ruleset) if report.ruleset.card_columns else set()
        self.marks = [s for s in report.ruleset.stats.values() if s.kind == "flag" and not s.default
                      and not any(s.id in col.show for col in report.ruleset.data.card.columns)
                      and not any(s.id in v for row in report.ruleset.data.card.rows for v in row.values)]
        self.rs = report.ruleset
        self.per = per
        self.moved = {(e.kind, norm(e.name)) for e in glossary if e.moved}
        self.points_label = self.rs.data.card.points_label or self.rs.data.points_label
        self.count_label = self.rs.data.count_label
        self.one = singular(self.count_label)
        self.words = {d.short: d.label for d in self.rs.stats.values() if d.short and d.short != d.label}
        # catalogue weapons are priced once per roster and shared by every unit holding them,
        # so their card line is worked out once per kind of figure holding them (a column may read its values)
        self._weapon_lines: dict[tuple[int, int], tuple[ItemCost, MemberCost, list[tuple[str, str]]]] = {}
        self._used: frozenset[str] | None = None  # see used_stats()
        self.key = ""  # the book's values of the stats a band's value cuts off, see cards()
        self.usual = {d.short: d.default for d in self.rs.stats.values() if d.short in self.words}

    def cards(self) -> Iterator[CardContent]:
        cards = [c for unit in self.report.units for c in self.unit_cards(unit)]
        # a figure's swim, climb and jump at the book's values ("Swim 3 · Climb 1 · Jump 3", see
        # spread()) go under the band of every card with them in the text's size where the export
        # has the room for them (keyed()), else in a note under the band of the first such card
        first = next((i for i, c in enumerate(cards) if self.abbreviated(c)), None)
        if first is not None:
            # (a card without the line has the book's values: the first card says so)
            self.key = f"{cards[first].usual_modes} unless shown"
            cards[first] = replace(cards[first], asides=cards[first].asides + (self.key,), legend=self.key)
        yield from cards

    def abbreviated(self, card: CardContent) -> bool:
        """Whether the card's stat band cut the book's values of other stats off one of its values."""
        return card.kind == "unit" and bool(card.usual_modes)

    def keyed(self, cards: list[CardContent]) -> list[CardContent]:
        """The cards with the book's values of the stats their band cut off on each: cards are
        handed out one by one at the table."""
        return [replace(c, modes=c.modes + (c.usual_modes,), asides=tuple(a for a in c.asides if a != self.key))
                if self.abbreviated(c) and c.usual_modes not in c.modes else c for c in cards]

    def member_cards(self, unit: UnitCost) -> list[CardContent]:
        """A mixed unit too large for one card: one card per kind of figure, each with the
        unit-wide values (unit morale, command) in its own stat band."""
        members = [m for m in unit.members if m.count > 0] or unit.members[:1]
        return [self.card(unit, [m], part=(k, len(members))) for k, m in enumerate(members, 1)]

    def without_texts(self, c: CardContent) -> CardContent:
        """The card with its abilities' and equipment's names only: their texts are on the reference cards."""
        return replace(c, abilities=tuple(replace(e, text="", in_glossary=bool(e.text) or e.in_glossary)
                                          for e in c.abilities),
                       equipment=tuple(replace(e, text="", in_glossary=bool(e.text) or e.in_glossary)
                                       for e in c.equipment))

    def unit_cards(self, unit: UnitCost) -> Iterator[CardContent]:
        if self.per == "figure":
            members = [m for m in unit.members if m.count > 0] or unit.members[:1]
            total = sum(max(m.count, 0) for m in members)
            k = 0
            for m in members:
                single = replace(m, count=1, total=m.per_figure)
                for _ in range(max(m.count, 1)):
                    k += 1
                    yield self.card(unit, [single], figure_no=(k, total))
        else:
            yield self.card(unit, unit.members)

    # ------------------------------------------------------------ one card

    def card(self, unit: UnitCost, members: list[MemberCost], figure_no: tuple[int, int] | None = None,
             part: tuple[int, int] | None = None) -> CardContent:
        problems: list[str] = []
        mixed = len(members) > 1
        label = self.points_label
        # a value the player must enter and has not: the points are not known yet ("?", as in the band)
        unknown = any(sdef.required and m.stats.get(sid) is None
                      for m in members for sid, sdef in self.rs.stats.items())

        def pts(value) -> str:
            return "?" if unknown else fmt(value)

        title = unit.name
        many = ""  # a mixed unit's card of one kind of figure: how many of them, after their kind
        figure = ""  # a mixed unit's card of one kind of figure: its kind opens the subtitle
        if part is not None:
            m = members[0]
            figure = m.name or self.one
            points = m.total
            n = max(m.count, 0)
            # "Human Knight × 2", never "2 of 3": that reads as the second figure of three
            many = f" × {n}" if n != 1 else ""
            sub = [unit.type_name, f"{pts(points)} of {pts(unit.total)}"]
        elif figure_no is not None:
            m = members[0]
            if len(unit.members) > 1 and m.name and norm(m.name) != norm(unit.name):
                figure = m.name
            points = m.per_figure
            sub = [unit.type_name]
            if figure_no[1] > 1:
                sub.append(f"{figure_no[0]} of {figure_no[1]}")
            if not unknown and short_number(points) != fmt(points):  # (else the badge says them: no working)
                sub.append(f"{pts(points)} {label}")
        else:
            points = unit.total
            n = unit.figures
            sub = [unit.type_name]
            if mixed:
                sub.append(f"{n} {self.count_label if n != 1 else self.one}")
                sub.append(f"{pts(points)} {label}")
            elif (n == 1 and members[0].name and norm(members[0].name) != norm(unit.name)
                  and norm(unit.type_name) in (norm(self.one), norm(self.count_label))):
                # the figure the unit is, named as a mixed unit's card names each kind ("Human Mounted
                # Archer · 99 rating"), where the roster names it apart from the unit and the type says
                # nothing more (ARES' one type, Figure; "Personality" says what a unit of one is)
                figure = members[0].name
                if not unknown:  # (the badge's "?" says a value is missing)
                    sub.append(f"{fmt(points)} {label}")
            elif n == 1:
                sub.append(f"1 {self.one}")
                if not unknown and short_number(points) != fmt(points):
                    sub.append(f"{pts(points)} {label}")
            else:
                sub.append(f"{n} {self.count_label} × {pts(members[0].per_figure)} = {pts(points)} {label}")
        stats, modes, usual = self.spread(self.stats(unit, members, problems))
        stats, said = subtitle_columns(stats, {c.label for c in self.rs.data.card.columns if c.subtitle}, sub[0])
        sub[1:1] = said
        if norm(sub[0]) in (norm(self.one), norm(self.count_label)):
            # a type named as the count's word (ARES' one type, Figure) says nothing the count does not
            sub = sub[1:]
            if figure_no is not None and figure_no[1] > 1:  # "Figure 1 of 3", not "1 of 3"
                sub[len(said)] = f"{self.one[:1].upper()}{self.one[1:]} {sub[len(said)]}"
        # (the unit's name alone in the band: the bands of a sheet take one line alike, where the unit's
        # name and the figure's together would take two on some cards)
        # (a mixed unit's cards counted: two cards under one name read as two units)
        counted = [f"{part[0]}/{part[1]}"] if part is not None and part[1] > 1 else []
        subtitle = " · ".join(counted + ([figure + many] if figure else []) + sub)
        costs = ""
        if mixed and not all(fmt(m.per_figure) in cells for m, (_, cells, _) in
                             zip(members, [r for r in stats.rows if r[2]])):
            # (the points of each kind of figure, unless the stat band shows them already)
            costs = f"{label[:1].upper()}{label[1:]} per {self.one}: " + ", ".join(
                f"{m.name or self.one} {fmt(m.per_figure)}" for m in members)
        unit_wide = None
        if mixed and self.unit_wide and stats.labels:
            keep = [j for j in range(len(stats.labels)) if j not in self.unit_wide]
            wide = [j for j in range(len(stats.labels)) if j in self.unit_wide]
            first = next((cells for _, cells, main in stats.rows if main), None)
            if first is not None and wide:
                unit_wide = Table(tuple(stats.labels[j] for j in wide), (("", tuple(first[j] for j in wide), True),),
                                  False)
                stats = Table(tuple(stats.labels[j] for j in keep),
                              tuple((lab, tuple(cells[j] for j in keep), main) for lab, cells, main in stats.rows),
                              stats.row_labels)
        # a book's fixed card (all_columns) keeps its dashes, "-/-" and "-", as its stat lines print them
        if not self.rs.data.card.all_columns:
            stats = without_nothing(stats, self.used_stats() if self.rs.data.card.same_columns else None)
        full = stats
        names = declared_names(self.rs.data.card.columns)
        stats, asides = sparse_rows(stats, names)
        band = lone_band(full, self.rs.data.card.main_label, names)
        live = [m for m in members if m.count > 0] or members
        on = self.reminders is True or (isinstance(self.reminders, set) and unit.index in self.reminders)
        reminder = reminder_line(self.rs, unit, live[0], live) if live and on else ""
        if reminder:  # the facts a player looks up in play, under the band
            asides += (reminder,)
        abilities = self.entries(members, "abilities")
        if not abilities and self.rs.data.card.no_abilities:  # the book's "No Special" under its stat line
            # (on the line of the note under the band, if there is one, rather than a line of its own)
            none = self.rs.data.card.no_abilities
            asides = asides[:-1] + (f"{asides[-1]} · {none}",) if asides else (none,)
        marks = []
        for sdef in self.marks:
            if any(m.stats.get(sdef.id) is True for m in members):
                marks.append(sdef.label)
        return CardContent(
            unit_index=unit.index,
            title=title,
            figure=figure,
            type_id=unit.type_id,
            type_name=unit.type_name,
            subtitle=subtitle,
            # (a mixed unit's card of one kind of figure: that kind's points, the subtitle saying "110 of
            # 286": the unit's total on each of its cards read as counted twice; the badges add up)
            badge="?" if unknown else short_number(points),
            badge_label=self.rs.data.card.badge_label,
            stats=stats,
            costs=costs,
            weapons=self.weapons(unit, members),
            abilities=abilities,
            equipment=self.entries(members, "equipment"),
            tracks=self.tracks(unit, members, problems) + self.trackers(unit, members, problems),
            notes=self.notes(unit, members),
            problems=tuple(problems),
            unit_wide=unit_wide,
            marks=tuple(marks),
            invalid=(invalid := self.invalid(unit, members)),
            warnings=(warnings := tuple(dict.fromkeys(self.warnings.get(unit.index, ())))),
            shorts=self.shorts_of(invalid, warnings),
            asides=asides,
            band=(band[0], tuple(a for a in asides if a not in band[1])) if band is not None else None,
            reminder=reminder,
            abilities_label=self.rs.data.card.abilities_label,
            modes=modes,
            usual_modes=usual,
        )

    def invalid(self, unit: UnitCost, members: list[MemberCost]) -> tuple[str, ...]:
        """The unit's errors a card of these figures carries: one about a kind of figure only on
        that figure's card (the footer of the others says "not valid"), named where the card shows
        several kinds."""
        shown = {m.index for m in members}
        out = []
        for msg, member in self.errors.get(unit.index, ()):
            if member is not None and member not in shown:
                continue
            name = unit.members[member].name if member is not None and member < len(unit.members) else None
            if len(members) > 1 and name and not msg.startswith(f"{name}: "):
                if msg in self.shorts:
                    self.shorts[f"{name}: {msg}"] = f"{name}: {self.shorts[msg]}"
                msg = f"{name}: {msg}"
            out.append(msg)
        return tuple(dict.fromkeys(out))

    def shorts_of(self, *messages: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
        """(message, short form) for those of the messages that have one."""
        return tuple((m, self.shorts[m]) for ms in messages for m in dict.fromkeys(ms) if m in self.shorts)

    def stats(self, unit: UnitCost, members: list[MemberCost], problems: list[str]) -> Table:
        rs = self.rs
        mixed = len(members) > 1
        labels: tuple[str, ...] = ()
        rows: list[tuple[str, tuple[str, ...], bool]] = []
        off_rows = {r.label for r in rs.data.card.rows if not r.on_cards}
        for m in members:
            try:
                line = stat_line(rs, unit, m, unset="?")
            except RosterkitError as exc:
                problems.append(_first(exc))
                line = [(rs.stats[s].short_label, "?") for s in rs.stats]
            if not labels:
                labels = tuple(lab for lab, _ in line)
            name = f"{m.name or self.one} ×{m.count}" if mixed else ""
            rows.append((name, tuple(text for _, text in line), True))
            try:
                extra = extra_rows(rs, unit, m)
            except RosterkitError as exc:
                problems.append(_first(exc))
                extra = []
            for row_label, values in extra:
                if row_label not in off_rows:
                    rows.append((("↳ " if mixed else "") + row_label, tuple(values), False))
        width = len(labels)
        rows = [(lab, (vals + ("",) * width)[:width], main) for lab, vals, main in rows]
        row_labels = mixed or any(lab for lab, _, _ in rows)
        # a column the ruleset keeps off the cards (LEGO's Combat, inside Att and Def) is written in text lists only
        off = {col.label for col in rs.data.card.columns if not col.on_cards}
        keep = [j for j, lab in enumerate(labels) if lab not in off]
        if len(keep) < width:
            labels = tuple(labels[j] for j in keep)
            rows = [(lab, tuple(vals[j] for j in keep), main) for lab, vals, main in rows]
        return Table(labels, tuple(rows), row_labels)

    def spread(self, t: Table) -> tuple[Table, tuple[str, ...], str]:
        """The table with a value the book writes with other stats' abbreviations after it ("6 Sw 3
        Cl 1 Ju 3") cut to its number, those stats named in full ("Swim 5 · Climb 3 · Jump 3": at
        the size of the text rather than small beside the number, on any card's width) on lines
        of their own where they differ from the book's (a line per kind of figure where kinds
        differ), and the line of the book's values where the card's are those (see cards())."""
        width = len(t.labels)
        lines: list[tuple[str, str, bool]] = []  # (row label, the stats in full, the book's values?)
        cut: dict[tuple[int, int], str] = {}  # (row, column): the number alone
        for r, (lab, cells, main) in enumerate(t.rows):
            for j in range(width):
                p = qualifiers(cells[j], self.words) if main else None
                if p:
                    cut[r, j] = p[0]
                    lines.append((lab, " · ".join(f"{self.words[a]} {v}" for a, v in p[1]),
                                  all(v == str(self.usual.get(a)) for a, v in p[1])))
        if not cut:
            return t, (), ""
        t = Table(t.labels, tuple((lab, tuple(cut.get((r, j), c) for j, c in enumerate(cells)), main)
                                  for r, (lab, cells, main) in enumerate(t.rows)), t.row_labels, t.under, t.bands)
        if len({text for _, text, _ in lines}) == 1:  # every kind of figure alike: said once
            lab, text, usual = lines[0]
            return (t, (), text) if usual else (t, (text,), "")
        return t, tuple(f"{lab}: {text}" if lab else text for lab, text, _ in lines), ""

    def used_stats(self) -> frozenset[str]:
        """The stat band's columns some card of the export fills (with other than the column's
        usual value): with the card section's ``same_columns``, every card shows these (the
        sheet's bands read alike), and no card the others."""
        if self._used is None:
            usual = {col.label: norm(col.usual) for col in self.rs.data.card.columns if col.usual is not None}
            used: set[str] = {col.label for col in self.rs.data.card.columns if col.always}
            for unit in self.report.units:
                t = self.stats(unit, unit.members, [])
                used.update(lab for j, lab in enumerate(t.labels)
                            if any(norm(cells[j]) not in NOTHING and norm(cells[j]) != usual.get(lab)
                                   for _, cells, _ in t.rows))
            self._used = frozenset(used)
        return self._used

    def weapons(self, unit: UnitCost, members: list[MemberCost]) -> Table | None:
        holders: dict[str, list[MemberCost]] = {}
        first: dict[str, ItemCost] = {}
        copies: Counter = Counter()  # the most copies of a weapon one figure holds
        for m in members:
            held = Counter(norm(it.name) for it in m.items if it.kind == "weapons")
            for it in m.items:
                if it.kind != "weapons":
                    continue
                key = norm(it.name)
                first.setdefault(key, it)
                if not any(h is m for h in holders.setdefault(key, [])):
                    holders[key].append(m)
                copies[key] = max(copies[key], held[key])
        if not first:
            return None
        labels: tuple[str, ...] = ()
        rows = []
        declared = self.rs.data.card.weapon_columns
        for key, it in first.items():
            line = list(self._weapon_line(it, holders[key][0]))
            # a weapon with a starred mark under Special is starred itself, as the stat blocks write
            # it ("Pike* (D8)" over "*Polearm"), whether the catalogue's name carries the star or not
            starred = len(line) == len(declared) and any(
                col.text == "special" and "*" in text for (_, text), col in zip(line, declared))
            cols = list(declared) if len(line) == len(declared) else []
            if cols:
                # a column the book writes after the name goes with it: "Longbow (5/D10)" in one column
                after = " ".join(text for (_, text), col in zip(line, cols) if col.text == "after_name" and text)
                if after and line:
                    line[0] = (line[0][0], f"{line[0][1]} {after}")
                line = [cell for cell, col in zip(line, cols) if col.text != "after_name"]
                cols = [col for col in cols if col.text != "after_name"]
            if not labels:
                labels = tuple(lab for lab, _ in line)
            cells = [text for _, text in line]
            if cells:
                own = [text for text, col in zip(cells[1:], cols[1:]) if not col.roll] if cols else cells[1:]
                name = plain_weapon_name(cells[0], own)
                cells[0] = with_copies(starred_name(name) if starred else name, copies[key])
            who = self._who(members, holders[key])
            if who and cells:
                cells[0] = f"{cells[0]} ({who})"
            cells = (cells + [""] * len(labels))[:len(labels)]
            rows.append(("", tuple(cells), False))
        # a column no weapon of the unit fills (the range die of a unit without missile weapons) is left out
        empty = {""} if self.rs.data.card.all_columns else NOTHING - {"0"}
        off = {col.label for col in declared if not col.on_cards}
        keep = [i for i in range(len(labels)) if i == 0 or labels[i] not in off
                and any(norm(cells[i]) not in empty for _, cells, _ in rows)]
        if len(keep) < len(labels):
            labels = tuple(labels[i] for i in keep)
            rows = [(lab, tuple(cells[i] for i in keep), main) for lab, cells, main in rows]
        under = frozenset(col.label for col in declared if col.under) & set(labels[1:])
        bands = tuple((col.label, col.bands) for col in declared if col.bands and col.label in labels[1:])
        return Table(labels, tuple(rows), False, under, bands)

    def _weapon_line(self, it: ItemCost, holder: MemberCost) -> list[tuple[str, str]]:
        hit = self._weapon_lines.get((id(it), id(holder)))
        if hit is not None and hit[0] is it and hit[1] is holder:
            return hit[2]
        try:
            line = weapon_line(self.rs, it, holder)
        except RosterkitError:
            line = [("Weapon", it.name)]
        if len(self._weapon_lines) > 1_000:
            self._weapon_lines.clear()
        self._weapon_lines[(id(it), id(holder))] = (it, holder, line)
        return line

    def entries(self, members: list[MemberCost], kind: str) -> tuple[Entry, ...]:
        holders: dict[str, list[MemberCost]] = {}
        first: dict[str, ItemCost] = {}
        copies: Counter = Counter()  # the most copies of an item one figure holds
        for m in members:
            held = Counter(norm(it.name) for it in m.items if it.kind == kind)
            for it in m.items:
                if it.kind == kind:
                    key = norm(it.name)
                    first.setdefault(key, it)
                    if not any(h is m for h in holders.setdefault(key, [])):
                        holders[key].append(m)
                    copies[key] = max(copies[key], held[key])
        out = []
        for key, it in first.items():
            who = self._who(members, holders[key])
            if it.source == "house price":  # (the rules give it no price: the card says the roster's)
                who = ", ".join(filter(None, (who, f"house price {fmt(it.cost)}")))
            name = with_copies(it.name, copies[key])
            if (kind, key) in self.moved:
                out.append(Entry(name, "", True, who))
            else:
                out.append(Entry(name, item_description(self.report, it), False, who))
        return tuple(out)

    def _who(self, members: list[MemberCost], holding: list[MemberCost]) -> str:
        if len(members) < 2:
            return ""
        ids = {id(m) for m in holding}
        if all(id(m) in ids for m in members if m.count > 0):
            return ""
        return ", ".join(m.name or self.one for m in holding)

    def tracks(self, unit: UnitCost, members: list[MemberCost], problems: list[str]) -> tuple[Track, ...]:
        rs = self.rs
        label = rs.data.card.track_label
        # a declared boxes tracker of the same name takes the track's place on the cards
        if rs.card_track is None or any(tr.on == "unit" and tr.kind == "boxes" and norm(tr.name) == norm(label)
                                        for tr, _ in rs.card_trackers):
            return ()
        funcs = CardFunctions(rs, unit.members).table()
        ctx = f"unit '{unit.name}'"
        track = {"count": rs.card_track, "rows": None, "when": None}
        out = []
        for m in members:
            try:
                found = list(tracker_boxes(unit, [m], None, track, funcs, ctx, printed=True))
            except RosterkitError as exc:
                problems.append(_first(exc))
                continue
            for b in found:
                note = "" if out else rs.data.card.track_note  # (said once, on the first kind's line)
                if len(members) > 1:
                    out.append(Track(m.name or self.one, b.boxes, label, drawn_together(b), note=note))
                else:
                    out.append(Track(label, b.boxes, "", drawn_together(b), note=note))
        return tuple(out)

    def trackers(self, unit: UnitCost, members: list[MemberCost], problems: list[str]) -> tuple[Track, ...]:
        """The ruleset's declared trackers (``card.trackers``) for this card: boxes for each kind
        of figure; a die track, a check box or a counter once for the card."""
        rs = self.rs
        funcs = CardFunctions(rs, unit.members).table()
        ctx = f"unit '{unit.name}'"
        out: list[Track] = []
        for tr, f in rs.card_trackers:
            if tr.on != "unit":
                continue
            try:
                if tr.kind == "boxes":
                    for b in tracker_boxes(unit, members, tr, f, funcs, ctx, printed=True):
                        who = (b.member.name or self.one) if len(members) > 1 else ""
                        if b.declared and b.rows == 1:  # one row: named for the tracker, not "Element 1"
                            out.append(Track(who or tr.name, b.per_row, tr.name if who else "", b.per_row,
                                             note=tr.note))
                            continue
                        if b.declared:  # a run a row, numbered (1 [1][2][3] 2 [1][2][3] ...)
                            out.append(Track(who or tr.name, b.boxes, tr.name if who else "", b.per_row,
                                             note=tr.note, runs=True, caption=tr.row_label))
                            continue
                        # one line, a figure's boxes together (a tally when there are too many to print)
                        out.append(Track(who or tr.name, b.boxes, tr.name if who else "", drawn_together(b), note=tr.note,
                                         mark=b.half, each=tr.figure_lines, labels=tuple(tr.box_labels)))
                    continue
                holding = carrying(f, unit, members, funcs, ctx)
                if not holding:
                    continue
                if tr.kind == "die":
                    # the dice a hit takes the figure to, after its own die (never ticked: "d8 › [d6] › [d4]")
                    dice = die_steps(tr.steps, f, unit, holding[0], funcs, ctx)
                    own, steps = (dice[0], dice[1:]) if dice else ("", ())
                    out.append(Track(tr.name, len(steps), kind="die", marks=tuple(steps), note=tr.note,
                                     start=own, after=tr.after))
                elif tr.kind == "check":
                    out.append(Track(tr.name, max(1, len(tr.items)), kind="check",
                                     marks=tuple(i.label for i in tr.items), notes=tuple(i.note for i in tr.items),
                                     note=tr.note))
                else:
                    out.append(Track(tr.name, 1, kind="counter", note=tr.note))
            except RosterkitError as exc:
                problems.append(_first(exc))
        return tuple(out)

    def notes(self, unit: UnitCost, members: list[MemberCost]) -> tuple[str, ...]:
        roster = self.report.roster
        if not (0 <= unit.index < len(roster.units)):
            return ()
        runit = roster.units[unit.index]
        out = []
        if runit.notes.strip():
            out.append(runit.notes.strip())
        if runit.members:
            for m in members:
                if 0 <= m.index < len(runit.members) and runit.members[m.index].notes.strip():
                    who = m.name or f"{self.one} {m.index + 1}"
                    out.append(f"{who}: {runit.members[m.index].notes.strip()}")
        return tuple(out)


def army_tracks(report: CostReport) -> tuple[Track, ...]:
    """The army card's trackers (God chips, events) as boxes to print."""
    return tuple(Track(t.name, t.boxes, kind="check", marks=t.items, notes=t.item_notes, note=t.note)
                 if t.kind == "check" else Track(t.name, 1, kind="counter", note=t.note) if t.kind == "counter"
                 else Track(t.name, t.boxes, group=5, note=t.note)
                 for t in army_trackers(report))


def subtitle_columns(t: Table, labels: set[str], type_name: str) -> tuple[Table, list[str]]:
    """The columns the card section sets in the subtitle, out of the table, each as a few words
    ("ID #1", "Spear", "no spear"); one the type's name says already (Rank "Hero") is dropped.
    A column whose figures differ (a mixed unit) stays in the band."""
    mains = [cells for _, cells, main in t.rows if main]
    move = [j for j, lab in enumerate(t.labels) if lab in labels and mains and len({c[j] for c in mains}) == 1]
    if not move:
        return t, []
    said = []
    named = norm(type_name).split()
    for j in move:
        value, label = mains[0][j].strip(), t.labels[j]
        if not value or norm(value).split() == named[:len(norm(value).split())]:
            continue
        said.append(label if value == "yes" else f"no {label.lower()}" if value == "no" else f"{label} {value}")
    keep = [j for j in range(len(t.labels)) if j not in move]
    rows = tuple((lab, tuple(cells[j] for j in keep), main) for lab, cells, main in t.rows)
    return Table(tuple(t.labels[j] for j in keep), rows, t.row_labels, t.under), said


def lone_band(t: Table, main_label: str, names: dict[str, str] | None = None) -> tuple[Table, tuple[str, ...]] | None:
    """A lone figure's stat band with its full extra rows kept in it (sparse_rows makes them notes),
    the main row labelled ``main_label`` ("Unwounded" over "Wounded"), and the notes those rows would
    have been; None without a label, for a card with several lines of figures, or with no such rows."""
    mains = [lab for lab, _, is_main in t.rows if is_main]
    if not main_label or len(mains) != 1 or mains[0]:
        return None
    rows = [(main_label, cells, True) if is_main else (lab.removeprefix("↳ "), cells, True)
            for lab, cells, is_main in t.rows
            if is_main or lab and 2 * len([c for c in cells if c.strip()]) >= len(cells)]
    if len(rows) < 2:
        return None
    moved = sparse_rows(Table(t.labels, tuple((lab, cells, is_main) for lab, cells, is_main in t.rows
                                              if is_main or lab.removeprefix("↳ ") in {r[0] for r in rows[1:]}),
                              t.row_labels), names)[1]
    return Table(t.labels, tuple(rows), True, states=True), moved


def declared_names(columns) -> dict[str, str]:
    """A ruleset's card columns' names spelt out, by label (those that declare one)."""
    return {col.label: col.name for col in columns if col.name}


def sparse_rows(t: Table, names: dict[str, str] | None = None) -> tuple[Table, tuple[str, ...]]:
    """Extra rows with values in fewer than half the columns leave the table as notes
    ("To hit: 4 + target's Def (melee dice)", ``names`` the columns' names spelt out where the
    ruleset gives them), and so do all of a lone figure's ("Wounded: A 4, D 4, M 3"): its band
    then reads labels over values, without a first column whose head and main cell say nothing;
    in the rows that stay, a word repeating the main row's (an ID, a rank) is left blank."""
    keep, asides = [], []
    main: tuple[str, ...] = ()
    mains = [lab for lab, _, is_main in t.rows if is_main]
    lone = len(mains) == 1 and not mains[0]
    for lab, cells, is_main in t.rows:
        if is_main:
            main = cells
            keep.append((lab, cells, is_main))
            continue
        filled = [j for j, c in enumerate(cells) if c.strip()]
        if lab and (lone or 2 * len(filled) < len(cells)):
            if filled:
                asides.append(lab.removeprefix("↳ ") + ": " + ", ".join(
                    _aside_cell(t.labels[j], cells[j], (names or {}).get(t.labels[j], "")) for j in filled))
            continue
        cells = tuple("" if main and j < len(main) and c == main[j] and not _numeric(c) else c
                      for j, c in enumerate(cells))
        keep.append((lab, cells, is_main))
    if tuple(keep) == t.rows:
        return t, ()
    row_labels = t.row_labels and (len([r for r in keep if r[2]]) > 1 or any(lab for lab, _, _ in keep))
    return Table(t.labels, tuple(keep), row_labels), tuple(asides)


def qualifiers(cell: str, names: dict[str, str]) -> tuple[str, list[tuple[str, str]]] | None:
    """A value with other stats after it, each as its abbreviation and value ("6 Sw 3 Cl 1 Ju 3" ->
    ("6", [(Sw, 3), (Cl, 1), (Ju, 3)])); None for any other value."""
    words = cell.split()
    if len(words) < 3 or len(words) % 2 == 0 or not all(w in names for w in words[1::2]):
        return None
    return words[0], list(zip(words[1::2], words[2::2]))


def _aside_cell(label: str, cell: str, name: str = "") -> str:
    """A cell of a row set as a note: a value after its column ("A 4", "AD 2d8 (next lower die)"); a
    sum before it, in brackets, so that its first number does not read as the column's value, by the
    column's name where it has one ("4 + target's Def (melee dice)": "(Att)" read as cryptic)."""
    return f"{cell} ({name.lower() or label})" if re.search(r"\s[+\-−]\s", cell) else f"{label} {cell}"


def _numeric(text: str) -> bool:
    return bool(re.fullmatch(r"[+-]?\d+(\.\d+)?", text.strip()))


def without_nothing(t: Table, used: frozenset[str] | None = None) -> Table:
    """The table without the stats no figure of the card has (Spells "None", Scale 0, Ranged "n/a"),
    or, given the stats some card of the export has (``used``), without the others: a column the
    card itself has nothing in then shows a dash in its main rows, or its 0 (a number, as a book
    writes "Combat: 0")."""
    width = len(t.labels)
    filled = [any(norm(cells[j]) not in NOTHING for _, cells, _ in t.rows) for j in range(width)]
    keep = [j for j in range(width) if (t.labels[j] in used if used is not None else filled[j])]
    if not keep:
        return t
    rows = tuple((lab, tuple(cells[j] if filled[j] or not main or norm(cells[j]) == "0" else "-" for j in keep), main)
                 for lab, cells, main in t.rows)
    return Table(tuple(t.labels[j] for j in keep), rows, t.row_labels)


def _first(exc: RosterkitError) -> str:
    return exc.problems[0].message if exc.problems else str(exc)


# ---------------------------------------------------------------- army and reference cards


def army_card(report: CostReport, builder: CardBuilder) -> CardContent | None:
    """The army-wide settings the ruleset declares (``roster_stats``, such as God chips), as a card
    of their own; None when the ruleset declares none."""
    rs, roster = report.ruleset, report.roster
    if not rs.roster_stats:
        return None
    entries = []
    tracks = army_tracks(report)
    tracked = {norm(t.label) for t in tracks}
    for sid, sdef in rs.roster_stats.items():
        if norm(sdef.label) in tracked:  # its boxes on the card show it
            continue
        raw = roster.stats.get(sid, sdef.default)
        if raw is not None:
            value, _ = coerce(sdef, raw)
            shown = display(sdef, value)
        else:
            shown = "not set"
        entries.append(Entry(sdef.label, shown))
    label = rs.data.card.points_label or rs.data.points_label
    limit = f" / {fmt(report.limit)}" if report.limit is not None else ""
    n = len(report.units)
    counted = count_of(n, "unit")
    if rs.data.card.per == "figure" and all(u.figures == 1 for u in report.units):  # (a card per figure)
        counted = count_of(n, singular(rs.data.count_label), rs.data.count_label)
    # no list of the units: each has a card of its own and the summary page lists them, so the
    # card keeps its room for the trackers and reads alike in every army; the footer names the ruleset
    return CardContent(
        unit_index=-1, title=roster.name, type_id=None, type_name="Army",
        subtitle=f"Army · {counted} · {fmt(report.total)}{limit} {label}",
        badge=short_number(report.total), badge_label=rs.data.card.badge_label,
        stats=Table((), (), False), costs="", weapons=None,
        abilities=tuple(entries), equipment=(), tracks=tracks, notes=(), problems=(), kind="army",
        warnings=(warnings := tuple(dict.fromkeys(builder.warnings.get(None, ())))),
        shorts=builder.shorts_of(warnings))


def reference_card(report: CostReport, entries: list[GlossaryEntry]) -> CardContent | None:
    """Abilities and equipment described once, as card-shaped reference cards."""
    described = [e for e in entries if e.text]
    if not described:
        return None
    abilities = tuple(Entry(e.name, e.text) for e in described if e.kind == "abilities")
    equipment = tuple(Entry(e.name, e.text) for e in described if e.kind != "abilities")
    card = CardContent(
        unit_index=-1, title="Reference", type_id=None, type_name="Reference",
        subtitle="", badge="", stats=Table((), (), False),
        costs="", weapons=None, abilities=abilities, equipment=equipment, tracks=(), notes=(), problems=(),
        kind="reference", abilities_label=report.ruleset.data.card.abilities_label)
    return replace(card, subtitle=reference_subtitle(card))


def chart_card(report: CostReport) -> CardContent | None:
    """The chart the ruleset declares (card.chart) as a card of its own, or None: the one the
    roster gives, filled in and said to be the players' (see RosterChart), else a blank one."""
    chart = report.ruleset.data.card.chart
    if chart is None:
        return None
    agreed = chart_rows(report.ruleset, report.roster)
    if agreed is not None:
        note = report.roster.chart.note  # (rows given: a chart given)
        rows = tuple((r[0], tuple(r[1:]), True) for r in agreed)
        subtitle = chart.agreed + (f" · {note}" if note.strip() else "")
    else:
        blank = ("",) * len(chart.columns)
        rows = tuple((row, blank, True) for row in chart.rows)
        subtitle = chart.note
    return CardContent(
        unit_index=-1, title=chart.name, type_id=None, type_name="Reference", subtitle=subtitle, badge="",
        stats=Table((), (), False), costs="", weapons=None, abilities=(), equipment=(), tracks=(), notes=(),
        problems=(), kind="chart", legend=chart.key, chart=Table(tuple(chart.columns), rows, True),
        corner=chart.corner)


def with_rules(reference: CardContent | None, report: CostReport) -> CardContent | None:
    """The reference card with the game's rolls (the ruleset's card.rules) after its texts, or a
    reference card of their own where the export has none; ``reference`` where it declares none."""
    rs = report.ruleset
    card = rs.data.card
    rules = [r for r, when in rs.card_rules if when is None or any(held(rs, when, u) for u in report.units)]
    if not rules:
        return reference
    if reference is None:
        reference = CardContent(
            unit_index=-1, title="Reference", type_id=None, type_name="Reference", subtitle="", badge="",
            stats=Table((), (), False), costs="", weapons=None, abilities=(), equipment=(), tracks=(), notes=(),
            problems=(), kind="reference", abilities_label=card.abilities_label)
    # the columns' names the bands print short ("AD", "Mv"); a name that is its label says nothing more
    key = ", ".join(f"{col.label} {col.name}" for col in card.columns
                    if col.name and col.on_cards and not col.subtitle and norm(col.name) != norm(col.label))
    reference = replace(reference, rules=tuple(Entry(r.name, r.text) for r in rules),
                        rules_label=card.rules_label, key=key)
    return replace(reference, subtitle=reference_subtitle(reference))


def held(rs: Ruleset, when: Formula, unit: UnitCost) -> bool:
    """Whether a figure of ``unit`` holds a quick rule's ``when`` (one that cannot be worked out
    for it counts as held: the rule is printed rather than left out unseen)."""
    try:
        return bool(carrying({"when": when}, unit, unit.members, CardFunctions(rs, unit.members).table(),
                             f"unit '{unit.name}'"))
    except RosterkitError:
        return True


def reference_subtitle(card: CardContent) -> str:
    """What a reference card explains, by its headings: "Abilities and weapon specials" (its footer
    names the game: the subtitle keeps to one line)."""
    held = [label for label, entries in ((card.abilities_label, card.abilities),
                                         (card.specials_label, card.specials), ("Equipment", card.equipment),
                                         (card.rules_label, card.rules))
            if entries]
    words = [held[0]] + [x[0].lower() + x[1:] for x in held[1:]] if held else ["Rules"]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
