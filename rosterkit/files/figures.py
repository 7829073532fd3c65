"""A player's own reusable figures, kept across rosters.

One TOML file per ruleset in the player's folder, ``<home>/figures/<ruleset id>.toml``,
holds ``[[figures]]`` tables in the ruleset's figure shape (name, type, count, stats,
weapons, abilities, equipment, description). The folder follows the rulesets folder's
rule: ``$ROSTERKIT_HOME``, else ``$XDG_CONFIG_HOME/rosterkit``, else ``~/.config/rosterkit``.

A roster unit with ``figure = "My Ogre"`` finds the player's figure when the ruleset has
no figure of that name: :func:`with_user_figures` gives a ruleset whose figure index
holds both (the ruleset's own figures win a clash of names).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import tomli_w
from pydantic import ValidationError

from ..engine.costing import resolve_type
from ..engine.roster import RosterFile, Unit
from ..errors import Problem, RosterkitError
from ..findings import Finding
from ..rules.ruleset import ITEM_KINDS, NameIndex, Ruleset, norm
from ..rules.schema import FigureDef, Strict
from .atomic import atomic_write
from .paths import home_dir
from .tomlfile import find_line, load_toml, validation_problems


class FiguresFile(Strict):
    """A player's figures file: ``[[figures]]`` tables in the ruleset's figure shape."""

    figures: list[FigureDef] = []


def figures_dir() -> Path:
    """The folder of the player's figure files (next to the player's rulesets folder)."""
    return home_dir() / "figures"


def figures_path(ruleset_id: str) -> Path:
    return figures_dir() / f"{ruleset_id}.toml"


def load_user_figures(ruleset_id: str) -> list[FigureDef]:
    """The player's figures for a ruleset; none when there is no file.

    A file that cannot be read, is not TOML or has wrong keys raises :class:`RosterkitError`
    naming the file, the key and the line.
    """
    path = figures_path(ruleset_id)
    if not path.exists():
        return []
    data, text = load_toml(path)
    file = str(path)
    try:
        figures = FiguresFile.model_validate(data).figures
    except ValidationError as exc:
        raise RosterkitError(validation_problems(exc, file, text)) from None
    seen: set[str] = set()
    for i, fig in enumerate(figures):
        if norm(fig.name) in seen:
            raise RosterkitError(Problem(f"figure name '{fig.name}' is used twice", file=file,
                                         key=f"figures[{i}].name", line=find_line(text, ("figures", i, "name"))))
        seen.add(norm(fig.name))
    return figures


def dumps_figures(figures: list[FigureDef]) -> str:
    tables = []
    for fig in figures:
        table: dict = {"name": fig.name, "type": fig.type, "count": fig.count}
        if fig.aliases:
            table["aliases"] = list(fig.aliases)
        for key in ("stats", "weapons", "abilities", "equipment", "description"):
            value = getattr(fig, key)
            if value:
                table[key] = dict(value) if key == "stats" else (list(value) if isinstance(value, list) else value)
        tables.append(table)
    return tomli_w.dumps({"figures": tables})


def save_user_figures(ruleset_id: str, figures: list[FigureDef]) -> Path:
    """Write the player's figures for a ruleset atomically (the old file is kept as ``.bak``)."""
    path = figures_path(ruleset_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, dumps_figures(figures))
    return path


def figure_from_unit(rs: Ruleset, unit: Unit, name: str) -> FigureDef:
    """A reusable figure made from a roster unit: its type, count, stats and gear as they cost.

    Raises ValueError with a message for the player when the unit cannot be one figure.
    """
    if unit.members:
        raise ValueError("a unit of mixed figures cannot be saved as one figure")
    base = rs.find_figure(unit.figure) if unit.figure else None
    tdef = resolve_type(rs, unit, base)
    if tdef is None:
        raise ValueError("the unit's type is unknown; give it a type first")
    fields: dict = {"name": name, "type": tdef.name, "stats": {**(base.stats if base else {}), **unit.stats}}
    count = unit.count if unit.count is not None else (base.count if base else 1)
    fields["count"] = max(count, 1)
    for kind in ITEM_KINDS:
        listed = list(getattr(unit, kind))
        if not listed and kind not in unit.model_fields_set and base is not None:
            listed = list(getattr(base, kind))
        fields[kind] = listed
    if base is not None and base.description:
        fields["description"] = base.description
    try:
        return FigureDef(**fields)
    except ValidationError as exc:
        raise ValueError(exc.errors(include_url=False)[0]["msg"]) from None


def figure_index(rs: Ruleset, figures: list[FigureDef]) -> NameIndex:
    """The ruleset's figures, then the player's: a name the ruleset uses stays the ruleset's."""
    return NameIndex(([f.name, *f.aliases], f) for f in [*rs.data.figures, *figures])


def with_user_figures(rs: Ruleset, figures: list[FigureDef]) -> Ruleset:
    """A copy of the ruleset whose figure index also holds the player's figures."""
    if not figures:
        return rs
    return dataclasses.replace(rs, figure_index=figure_index(rs, figures))


def used_figure_names(roster: RosterFile) -> list[str]:
    names: list[str] = []
    for unit in roster.units:
        if unit.figure:
            names.append(unit.figure)
        for m in unit.members:
            if m.figure:
                names.append(m.figure)
    return names


def needs_user_figures(rs: Ruleset, roster: RosterFile) -> bool:
    """Whether any unit names a figure the ruleset does not have."""
    return any(rs.find_figure(n) is None for n in used_figure_names(roster))


def personal_figure_findings(rs: Ruleset, roster: RosterFile, figures: list[FigureDef]) -> list[Finding]:
    """An info finding for each unit that relies on one of the player's own figures."""
    if not figures:
        return []
    mine = {norm(n) for f in figures for n in (f.name, *f.aliases)}
    path = figures_path(rs.id)
    out: list[Finding] = []
    for i, unit in enumerate(roster.units):
        names = [unit.figure] if unit.figure else [m.figure for m in unit.members if m.figure]
        for name in dict.fromkeys(n for n in names if n):
            if rs.find_figure(name) is None and norm(name) in mine:
                out.append(Finding("info", "personal-figure",
                                   f"figure '{name}' is your own, from {path}; share that file with this roster",
                                   unit=i, unit_name=unit.name, field="figure" if unit.figure else "members"))
    return out


def resolve_for_roster(rs: Ruleset, roster: RosterFile) -> tuple[Ruleset, list[Finding]]:
    """The ruleset to cost a roster with, and findings about the player's figures it uses.

    The player's file is read only when a unit names a figure the ruleset lacks; a broken
    file then raises :class:`RosterkitError` naming the file, the key and the line.
    """
    if not needs_user_figures(rs, roster):
        return rs, []
    figures = load_user_figures(rs.id)
    return with_user_figures(rs, figures), personal_figure_findings(rs, roster, figures)
