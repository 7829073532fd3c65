"""Opening the rosters a command names, and the notes said about them on the way."""

from __future__ import annotations

import os
import sys

from .output import Out, print_problems


def open_roster(registry, path: str):
    """The roster at ``path``, costed lazily (a RosterkitError names what cannot be read)."""
    from .. import workspace

    return workspace.open_roster(path, registry)


_NOT_BUILTIN: dict[str, bool] = {}  # ruleset file -> not a built-in one (asked once per run, for many lists)


def ruleset_note(out: Out, ruleset) -> None:
    """Say where a ruleset came from when it is not the built-in one (a player's own file may
    reuse a built-in's id)."""
    from ..files.rulesets import builtin_dir

    if ruleset.path is None:
        return
    key = str(ruleset.path)
    if key not in _NOT_BUILTIN:
        _NOT_BUILTIN[key] = ruleset.path.parent.resolve() != builtin_dir().resolve()
    if _NOT_BUILTIN[key]:
        out.line((f"  ruleset {ruleset.id} from {ruleset.path} (not the built-in)", "dim"))


def notice_version(opened) -> None:
    """One line on standard error when the roster was saved against another version of its ruleset."""
    change = opened.version_change
    if change is not None:
        Out(sys.stderr).line(("note: ", "bold yellow"), f"{opened.path or opened.roster.name}: ",
                             change.notice(opened.ruleset.name))


def open_each(registry, paths: list[str], unquoted: frozenset[str] = frozenset()) -> list:
    """Each roster opened on its own: an OpenRoster, or the RosterkitError saying why it cannot be
    read (its problems printed on standard error at once). The problems of a file in
    ``unquoted`` (named by a pairings file, not by the player) quote none of its text."""
    import dataclasses

    from .. import workspace
    from ..errors import RosterkitError

    out = []
    costings: dict = {}  # one costing context per ruleset for all the lists
    for p in paths:
        try:
            opened = workspace.open_roster(p, registry, costings)
            opened.validation  # noqa: B018 (costed and checked here: a broken ruleset formula is this list's)
        except RosterkitError as exc:
            if p in unquoted:
                exc.problems = [dataclasses.replace(q, source=None, column=None)
                                if q.file and os.path.normpath(q.file) == os.path.normpath(p) else q
                                for q in exc.problems]
            print_problems(exc)
            out.append(exc)
            continue
        notice_version(opened)
        out.append(opened)
    return out
