"""A player's own reusable figures, kept across rosters.

One TOML file per ruleset in the player's folder, ``<home>/figures/<ruleset id>.toml``,
holds ``[[figures]]`` tables in the ruleset's figure shape (name, type, count, stats,
weapons, abilities, equipment, description). The folder follows the rulesets folder's
rule: ``$ROSTERKIT_HOME``, else ``$XDG_CONFIG_HOME/rosterkit``, else ``~/.config/rosterkit``.

A roster unit with ``figure = "My Ogre"`` finds the player's figure when the ruleset has
no figure of that name: costing consults a :class:`rosterkit.engine.costing.FigureShelf`,
the ruleset's figures first, then these (the ruleset's own figures win a clash of names).
"""

from __future__ import annotations

from pathlib import Path

import tomli_w
from pydantic import ValidationError

from ..engine.costing import FigureShelf, resolve_type
from ..engine.roster import Unit
from ..errors import Problem, RosterkitError, UnreadableError
from ..rules.ruleset import ITEM_KINDS, norm
from ..rules.schema import FigureDef, Strict
from .atomic import Fingerprint, atomic_write
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
    try:
        if not path.exists():
            return []
    except OSError as exc:  # a folder that cannot be searched: said as for a file that cannot be read
        raise UnreadableError(Problem(f"cannot read: {exc.strerror or exc}", file=str(path))) from None
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


def save_user_figures(ruleset_id: str, figures: list[FigureDef], expect: Fingerprint | None = None) -> Path:
    """Write the player's figures for a ruleset atomically (the old file is kept as ``.bak``).

    ``expect``, the file as it was read, keeps another window's figures: a file changed since
    raises :class:`FileChangedError` and nothing is written.
    """
    path = figures_path(ruleset_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, dumps_figures(figures), expect=expect)
    return path


def figure_from_unit(figures: FigureShelf, unit: Unit, name: str) -> FigureDef:
    """A reusable figure made from a roster unit: its type, count, stats and gear as they cost.

    Raises ValueError with a message for the player when the unit cannot be one figure.
    """
    if unit.members:
        raise ValueError("a unit of mixed figures cannot be saved as one figure")
    rs = figures.rs
    base = figures.find(unit.figure) if unit.figure else None
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
