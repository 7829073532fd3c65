"""`rosterkit cards`: unit record cards as a PDF (the work is the cards package's)."""

from __future__ import annotations

import sys

from .output import Out


def _notice_version_of_file(path: str, registry) -> None:
    """The line of :func:`.opening.notice_version` for a command that opens the roster itself (the
    file's problems, if any, are that command's to report)."""
    from ..engine.versions import notice
    from ..errors import RosterkitError
    from ..files.rosters import load_roster

    try:
        roster = load_roster(path).roster
        rs = registry.get(roster.ruleset)
    except RosterkitError:
        return
    if roster.ruleset_version is not None and roster.ruleset_version != rs.data.version:
        Out(sys.stderr).line(("note: ", "bold yellow"), f"{path}: ",
                             notice(rs.name, roster.ruleset_version, rs.data.version))


def handle(args, registry) -> int:
    from ..cards.command import run

    _notice_version_of_file(args.roster, registry)
    return run(args, registry)
