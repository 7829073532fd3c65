"""Showing a unit's stat line the way its ruleset prints it (cards, text lists, the TUI)."""

from __future__ import annotations

import ast
import re
from collections import Counter
from dataclasses import dataclass

from ..errors import RosterkitError
from ..rules.formula import Template
from ..rules.numbers import fmt
from ..rules.ruleset import Ruleset
from ..rules.stats import display as show_stat
from .costing import ItemCost, MemberCost, UnitCost
from .functions import CardFunctions, WeaponFunctions


def render(template: Template, env: dict, functions: dict, shown: dict[str, str], context: str) -> str:
    """Render a card template; a bare stat name shows as the stat reads (D10, 2d6, 7+, -).
    Spaces at either end are dropped, so a template may end each optional part with a space."""
    out = []
    for part in template.parts:
        if isinstance(part, str):
            out.append(part)
            continue
        body = part.tree.body
        if isinstance(body, ast.Name) and body.id in shown:
            out.append(shown[body.id])
            continue
        value = part.evaluate(env, functions, context)
        out.append(value if isinstance(value, str) else fmt(value))
    return "".join(out).strip(" ")


def shown_values(rs: Ruleset, unit: UnitCost, member: MemberCost, unset: str | None = None) -> dict[str, str]:
    """The figure's values as shown; ``unset`` for a stat the player must enter and has not (a
    card prints "?", keeping its column), else as any value left out."""
    shown = {sid: unset if unset is not None and sdef.required and member.stats.get(sid) is None
             else show_stat(sdef, member.stats.get(sid)) for sid, sdef in rs.stats.items()}
    for d, _ in rs.figure_derived:
        if d.id in member.derived:
            shown[d.id] = d.shown(member.derived[d.id])
    for d, _ in rs.unit_derived:
        if d.id in unit.derived:
            shown[d.id] = d.shown(unit.derived[d.id])
    return shown


def shown_derived(rs: Ruleset, member: MemberCost) -> list[tuple[str, str]]:
    """(label, text) of the figure's derived values the ruleset shows (``show = true``)."""
    return [(d.label, d.shown(member.derived[d.id])) for d, _ in rs.figure_derived
            if d.show and d.id in member.derived]


def card_env(unit: UnitCost, member: MemberCost) -> dict:
    env = dict(member.env)
    env.update(unit.env)
    env.update(count=member.count, per_figure=member.per_figure)
    return env


def stat_line(rs: Ruleset, unit: UnitCost, member: MemberCost, unset: str | None = None) -> list[tuple[str, str]]:
    """(label, text) for each card column of the ruleset (``unset``: see shown_values)."""
    env = card_env(unit, member)
    funcs = CardFunctions(rs, unit.members).table()
    shown = shown_values(rs, unit, member, unset)
    if not rs.card_columns:
        return [(rs.stats[s].short_label, shown[s]) for s in rs.stats]
    return [(label, render(t, env, funcs, shown, f"unit '{unit.name}'")) for label, t in rs.card_columns]


def line_labels(rs: Ruleset) -> list[str]:
    """The label of each card column when the stat line is written on one line: the column's
    ``line_label`` if it has one ("" for a value written alone), else its label."""
    if not rs.card_columns:
        return [rs.stats[s].short_label for s in rs.stats]
    by_label = [c.line_label if c.line_label is not None else c.label for c in rs.data.card.columns]
    if len(by_label) != len(rs.card_columns):  # a column that did not compile: the plain labels
        return [label for label, _ in rs.card_columns]
    return by_label


def written(rs: Ruleset, labels: list[str], values: list[str]) -> str:
    """Labels and values written on one line the way the ruleset's book writes them:
    ``1d6 M:6 F:0 S:0 D:8`` with ``line_separator = ":"`` and an AD column whose
    ``line_label`` is ""; ``Mv 4 Att 2d6`` with the default separator, a space."""
    sep = rs.data.card.line_separator
    return " ".join(f"{lab}{sep}{val}" if lab else val for lab, val in zip(labels, values))


def stat_text(rs: Ruleset, unit: UnitCost, member: MemberCost) -> str:
    """The figure's stat line on one line, in the book's notation (text lists)."""
    return written(rs, line_labels(rs), [text for _, text in stat_line(rs, unit, member)])


def extra_rows(rs: Ruleset, unit: UnitCost, member: MemberCost) -> list[tuple[str, list[str]]]:
    env = card_env(unit, member)
    funcs = CardFunctions(rs, unit.members).table()
    shown = shown_values(rs, unit, member)
    return [(label, [render(t, env, funcs, shown, f"unit '{unit.name}'") for t in ts]) for label, ts in rs.card_rows]


def reminder_line(rs: Ruleset, unit: UnitCost, member: MemberCost,
                  members: list[MemberCost] | None = None) -> str:
    """The ruleset's reminder line ([card] reminder) for the figure, "" where it has none; its
    functions (min_of, has) over ``members``, the card's figures (a card of one kind of figure of a
    mixed unit says that kind's: "Unit Morale -5" on the Noble's), by default the unit's. Its facts
    are separated by " · "; a fact that comes to nothing is left out with its separator (a template
    may write the separator once rather than a condition for it)."""
    if rs.card_reminder is None:
        return ""
    funcs = CardFunctions(rs, members or unit.members).table()
    text = render(rs.card_reminder, card_env(unit, member), funcs, shown_values(rs, unit, member),
                  f"unit '{unit.name}'")
    return " · ".join(fact.strip() for fact in f" {text} ".split(" · ") if fact.strip())


def weapon_line(rs: Ruleset, item: ItemCost, member: MemberCost | None = None) -> list[tuple[str, str]]:
    """The weapon's cells under the card's weapon columns; a column may read the figure's values
    (``member``'s: the figure holding it) where the weapon has no value of that name."""
    from ..rules.stats import coerce, formula_values
    env: dict[str, object] = dict(member.env) if member is not None else {}
    name = item.called or item.name  # (the roster's word for a catalogue row: "Spear")
    env.update(name=name, cost=item.cost)
    shown: dict[str, str] = {"name": name, "cost": fmt(item.cost)}
    for sid, sdef in rs.item_stats["weapons"].items():
        raw = item.stats.get(sid, sdef.default)
        value = coerce(sdef, raw)[0] if raw is not None else None
        env.update(formula_values(sdef, value))
        shown[sid] = show_stat(sdef, value)
    if not rs.weapon_columns:
        return [("Weapon", name)] + [(s.short_label, shown[s.id]) for s in rs.item_stats["weapons"].values()]
    funcs = WeaponFunctions().table()
    declared = rs.data.card.weapon_columns
    # a roll reads the holding figure's die: without a figure (the catalogue) it has none
    rolls = [col.roll for col in declared] if len(declared) == len(rs.weapon_columns) else [False] * len(rs.weapon_columns)
    cells = [(label, "" if roll and member is None else render(t, env, funcs, shown, item.name))
             for (label, t), roll in zip(rs.weapon_columns, rolls)]
    if len(declared) == len(cells):  # a column whose text the name already ends with is left empty
        cells = [(label, "" if col.unless_named and text and item.name.endswith(text) else text)
                 for (label, text), col in zip(cells, declared)]
    return cells


@dataclass(frozen=True)
class WrittenWeapon:
    """A weapon as lists write it, in the book's notation (see the weapon columns' ``text``)."""

    name: str  # "Fire Pot (2/D6)": the name and the cells written after it
    specials: tuple[str, ...]  # "*Polearm": listed with the figure's abilities
    lines: tuple[tuple[str, str], ...]  # (label, text) shown under the weapon in the cost breakdown


_MARK = re.compile(r"\s+(?=\*)")  # a cell listing several starred marks: "*Chain *Magic"


def written_weapon(rs: Ruleset, item: ItemCost, member: MemberCost | None = None) -> WrittenWeapon:
    declared = rs.data.card.weapon_columns
    if item.source == "unknown" or not any(col.text or col.breakdown for col in declared):
        return WrittenWeapon(item.name, (), ())
    try:
        cells = weapon_line(rs, item, member)
    except RosterkitError:  # a roster weapon the columns cannot show: named as entered
        return WrittenWeapon(item.name, (), ())
    if len(cells) != len(declared):
        return WrittenWeapon(item.name, (), ())
    name, specials, lines = item.name, [], []
    for (label, text), col in zip(cells, declared):
        if not text:
            continue
        if col.text == "after_name":
            name = f"{name} {text}"
        elif col.text == "special":
            specials.extend(part for part in _MARK.split(text) if part)
        if col.breakdown:
            lines.append((label, text))
    return WrittenWeapon(name, tuple(specials), tuple(lines))


def with_copies(name: str, copies: int) -> str:
    """An item's name with how many of it a figure holds: "3x Fire control" (one: the name alone)."""
    return f"{copies}x {name}" if copies > 1 else name


def counted(names: list[str]) -> list[str]:
    """Names as a list writes them, a repeated one once with its count, in the order first met:
    ["Fire control", "Laser", "Fire control"] -> ["2x Fire control", "Laser"]."""
    copies = Counter(names)
    return [with_copies(name, copies[name]) for name in dict.fromkeys(names)]


def special_label(rs: Ruleset) -> str | None:
    """The label of the figure's Special line in text lists, when a weapon column feeds it."""
    return next((col.label for col in rs.data.card.weapon_columns if col.text == "special"), None)
