"""Edits as pure functions: each takes a roster (a frozen value) and returns a new one.

Unchanged units are carried over as the same objects, which lets the document find
what an edit touched by identity and recompute only that.
"""

from __future__ import annotations

import re

from ..engine.costing import FigureShelf
from ..engine.roster import LocalItem, Member, RosterFile, Unit
from ..rules.ruleset import ITEM_KINDS, Ruleset, norm
from ..rules.schema import FigureDef

TARGET_FIELDS = ("figure", "count", "stats", "weapons", "abilities", "equipment")


def replace_unit(roster: RosterFile, index: int, unit: Unit) -> RosterFile:
    units = list(roster.units)
    units[index] = unit
    return roster.model_copy(update={"units": units})


def insert_unit(roster: RosterFile, index: int, unit: Unit) -> RosterFile:
    units = list(roster.units)
    units.insert(index, unit)
    return roster.model_copy(update={"units": units})


def delete_unit(roster: RosterFile, index: int) -> RosterFile:
    units = list(roster.units)
    del units[index]
    return roster.model_copy(update={"units": units})


def move_unit(roster: RosterFile, index: int, to: int) -> RosterFile:
    units = list(roster.units)
    unit = units.pop(index)
    units.insert(to, unit)
    return roster.model_copy(update={"units": units})


def copy_name(name: str, taken: set[str]) -> str:
    """'Spearmen' -> 'Spearmen 2' (or the next free number)."""
    m = re.match(r"^(.*?)\s+(\d+)$", name)
    base, n = (m.group(1), int(m.group(2))) if m else (name, 1)
    while True:
        n += 1
        candidate = f"{base} {n}"[:200]
        if candidate not in taken:
            return candidate


# ---------------------------------------------------------------- a unit's figures


def target(unit: Unit, member: int | None) -> Unit | Member:
    """What the editor edits: the unit itself, or one of its members."""
    if unit.members and member is not None:
        return unit.members[member]
    return unit


def update_target(unit: Unit, member: int | None, **changes) -> Unit:
    if unit.members and member is not None:
        members = list(unit.members)
        members[member] = members[member].model_copy(update=changes)
        return unit.model_copy(update={"members": members})
    return unit.model_copy(update=changes)


def set_stat(unit: Unit, member: int | None, stat: str, raw: object | None) -> Unit:
    """Set a stat as the roster enters it; None removes it (the default or the figure's value applies)."""
    stats = dict(target(unit, member).stats)
    if raw is None:
        stats.pop(stat, None)
    else:
        stats[stat] = raw
    return update_target(unit, member, stats=stats)


def held_items(unit: Unit, member: int | None, kind: str, figures: FigureShelf) -> tuple[list[str], bool]:
    """(names, inherited): the items as listed, or the catalogue figure's when the roster lists none."""
    t = target(unit, member)
    listed = list(getattr(t, kind))
    if listed or kind in t.model_fields_set:
        return listed, False
    if t.figure:
        fig = figures.find(t.figure)
        if fig is not None and getattr(fig, kind):
            return list(getattr(fig, kind)), True
    return listed, False


def add_item(unit: Unit, member: int | None, kind: str, name: str, figures: FigureShelf) -> Unit:
    names, _ = held_items(unit, member, kind, figures)
    return update_target(unit, member, **{kind: names + [name]})


def remove_item(unit: Unit, member: int | None, kind: str, position: int, figures: FigureShelf) -> Unit:
    names, _ = held_items(unit, member, kind, figures)
    del names[position]
    return update_target(unit, member, **{kind: names})


def to_members(unit: Unit) -> list[Member]:
    if unit.members:
        return list(unit.members)
    given = {k: getattr(unit, k) for k in TARGET_FIELDS if k in unit.model_fields_set and k != "count"}
    return [Member(count=1 if unit.count is None else unit.count, **given)]


def add_member(unit: Unit, member: Member) -> Unit:
    """Add figures of another kind; a plain unit becomes a unit of members."""
    members = to_members(unit) + [member]
    return Unit(name=unit.name, type=unit.type, members=members, notes=unit.notes)


def remove_member(unit: Unit, index: int) -> Unit:
    members = to_members(unit)
    del members[index]
    if len(members) == 1:  # back to a plain unit
        m = members[0]
        fields = {k: getattr(m, k) for k in TARGET_FIELDS if k in m.model_fields_set}
        fields["count"] = m.count
        return Unit(name=unit.name, type=unit.type, notes=unit.notes, **fields)
    return Unit(name=unit.name, type=unit.type, members=members, notes=unit.notes)


def unit_from_figure(fig: FigureDef) -> Unit:
    """A unit of a catalogue figure: the figure is referenced, its gear listed so the player sees it."""
    fields: dict = {"name": fig.name, "figure": fig.name, "count": fig.count}
    for kind in ITEM_KINDS:
        if getattr(fig, kind):
            fields[kind] = list(getattr(fig, kind))
    return Unit(**fields)


def blank_unit(rs: Ruleset, type_id: str, taken: set[str]) -> Unit:
    tdef = rs.types[type_id]
    name = f"New {tdef.name}"
    if name in taken:
        name = copy_name(name, taken)
    return Unit(name=name, type=tdef.name, count=1)


def printed_type(rs: Ruleset, unit: Unit) -> Unit:
    """The unit with its type written as the ruleset prints it ("Basic", not the id "basic"),
    as the README's examples and the sample files write it."""
    tdef = rs.find_type(unit.type) if unit.type else None
    if tdef is None or unit.type == tdef.name:
        return unit
    return unit.model_copy(update={"type": tdef.name})


# ---------------------------------------------------------------- roster-local items


def set_local(roster: RosterFile, kind: str, index: int, item: LocalItem) -> RosterFile:
    items = list(getattr(roster, kind))
    items[index] = item
    return roster.model_copy(update={kind: items})


def add_local(roster: RosterFile, kind: str, item: LocalItem) -> RosterFile:
    return roster.model_copy(update={kind: list(getattr(roster, kind)) + [item]})


def delete_local(roster: RosterFile, kind: str, index: int) -> RosterFile:
    items = list(getattr(roster, kind))
    del items[index]
    return roster.model_copy(update={kind: items})


def rename_local(roster: RosterFile, kind: str, index: int, new_name: str) -> RosterFile:
    """Rename a roster-local item and every unit's reference to it."""
    items = list(getattr(roster, kind))
    old = items[index].name
    items[index] = items[index].model_copy(update={"name": new_name})
    key = norm(old)

    def fix(names: list[str]) -> list[str] | None:
        if not any(norm(n) == key for n in names):
            return None
        return [new_name if norm(n) == key else n for n in names]

    units = []
    for unit in roster.units:
        if unit.members:
            members = []
            changed = False
            for m in unit.members:
                fixed = fix(getattr(m, kind))
                if fixed is not None:
                    m = m.model_copy(update={kind: fixed})
                    changed = True
                members.append(m)
            units.append(unit.model_copy(update={"members": members}) if changed else unit)
        else:
            fixed = fix(getattr(unit, kind))
            units.append(unit.model_copy(update={kind: fixed}) if fixed is not None else unit)
    return roster.model_copy(update={kind: items, "units": units})


def unique_local_name(roster: RosterFile, kind: str, base: str) -> str:
    taken = {norm(i.name) for i in getattr(roster, kind)}
    if norm(base) not in taken:
        return base
    n = 2
    while norm(f"{base} {n}") in taken:
        n += 1
    return f"{base} {n}"


# ---------------------------------------------------------------- the player's own figures


def units_using_figure(roster: RosterFile, name: str) -> list[int]:
    """Indexes of the units that name the figure (as a plain unit or in a member)."""
    key = norm(name)
    return [i for i, u in enumerate(roster.units)
            if (u.figure and norm(u.figure) == key) or any(m.figure and norm(m.figure) == key for m in u.members)]


def rename_figure_refs(roster: RosterFile, old: str, new: str) -> RosterFile:
    """Every unit's reference to a figure, renamed (units not naming it stay the same objects)."""
    key = norm(old)
    units = []
    for unit in roster.units:
        if unit.figure and norm(unit.figure) == key:
            unit = unit.model_copy(update={"figure": new})
        elif any(m.figure and norm(m.figure) == key for m in unit.members):
            members = [m.model_copy(update={"figure": new}) if m.figure and norm(m.figure) == key else m
                       for m in unit.members]
            unit = unit.model_copy(update={"members": members})
        units.append(unit)
    return roster.model_copy(update={"units": units})
