"""What changed between two versions of a roster: units added, removed and changed.

Units are matched by name (the n-th unit of a name to the n-th of the same name), so a
unit moved in the file is not a change. A changed unit lists its count, stat, gear and
type changes, with its points before and after.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rules.numbers import Number
from ..rules.stats import display
from ..words import count_of
from .costing import CostReport, MemberCost, UnitCost


@dataclass(frozen=True)
class UnitDiff:
    name: str
    before: Number | None  # None: added
    after: Number | None  # None: removed
    changes: list[str] = field(default_factory=list)  # "count 10 -> 12", "Move 6 -> 7", "+ Bow"


@dataclass(frozen=True)
class RosterDiff:
    old: CostReport
    new: CostReport
    added: list[UnitDiff]
    removed: list[UnitDiff]
    changed: list[UnitDiff]
    army: list[str]  # army-wide changes: name, ruleset, points limit

    @property
    def same(self) -> bool:
        return not (self.added or self.removed or self.changed or self.army)


def diff(old: CostReport, new: CostReport) -> RosterDiff:
    army = []
    for label, a, b in (("name", old.roster.name, new.roster.name),
                        ("ruleset", f"{old.ruleset.id} {old.ruleset.data.version}",
                         f"{new.ruleset.id} {new.ruleset.data.version}"),
                        ("points limit", _text(old.limit), _text(new.limit))):
        if a != b:
            army.append(f"{label} {a} -> {b}")
    for sid in sorted(set(old.roster.stats) | set(new.roster.stats)):
        a, b = old.roster.stats.get(sid), new.roster.stats.get(sid)
        if a != b:
            army.append(f"{sid} {_text(a)} -> {_text(b)}")
    pending: dict[str, list[UnitCost]] = {}
    for u in old.units:
        pending.setdefault(u.name, []).append(u)
    added, changed = [], []
    for u in new.units:
        same_name = pending.get(u.name)
        if not same_name:
            added.append(UnitDiff(u.name, None, u.total, [_describe(u)]))
            continue
        before = same_name.pop(0)
        changes = _unit_changes(before, u, new)
        if changes or before.total != u.total:
            changed.append(UnitDiff(u.name, before.total, u.total, changes))
    removed = [UnitDiff(u.name, u.total, None, [_describe(u)]) for units in pending.values() for u in units]
    removed.sort(key=lambda d: next(u.index for u in old.units if u.name == d.name))
    return RosterDiff(old, new, added, removed, changed, army)


def _text(value) -> str:
    if value is None:
        return "none"
    from ..rules.numbers import fmt

    return fmt(value) if isinstance(value, (int, float)) or hasattr(value, "denominator") else str(value)


def _describe(u: UnitCost) -> str:
    gear = ", ".join(i.name for m in u.members for i in m.items)
    return f"{u.type_name}, {count_of(u.figures, 'figure')}" + (f": {gear}" if gear else "")


def _unit_changes(a: UnitCost, b: UnitCost, report: CostReport) -> list[str]:
    out = []
    if a.type_id != b.type_id:
        out.append(f"type {a.type_name} -> {b.type_name}")
    if a.figures != b.figures and len(a.members) != 1:
        out.append(f"figures {a.figures} -> {b.figures}")
    if len(a.members) != len(b.members):
        out.append(f"members {len(a.members)} -> {len(b.members)}")
    several = len(a.members) > 1 or len(b.members) > 1
    for ma, mb in zip(a.members, b.members):
        prefix = f"{mb.name}: " if several else ""
        out.extend(prefix + c for c in _member_changes(ma, mb, report))
    return out


def _member_changes(a: MemberCost, b: MemberCost, report: CostReport) -> list[str]:
    rs = report.ruleset
    out = []
    if a.count != b.count:
        out.append(f"count {a.count} -> {b.count}")
    for sdef in rs.data.stats:
        va, vb = a.stats.get(sdef.id), b.stats.get(sdef.id)
        if va != vb:
            out.append(f"{sdef.label} {_shown(sdef, va)} -> {_shown(sdef, vb)}")
    held_a = [(i.kind, i.name) for i in a.items]
    held_b = [(i.kind, i.name) for i in b.items]
    out.extend(f"- {name}" for kind, name in held_a if (kind, name) not in held_b)
    out.extend(f"+ {name}" for kind, name in held_b if (kind, name) not in held_a)
    return out


def _shown(sdef, value) -> str:
    if value is None:
        return "none"
    try:
        return display(sdef, value)
    except Exception:  # a value the stat no longer takes: as it is
        return str(value)
