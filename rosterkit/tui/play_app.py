"""`rosterkit play ARMY [OPPONENT]`: the interface opened on the game's screen."""

from __future__ import annotations

import sys


def run_play(game) -> int:
    """Show the game (a rosterkit.editing.play.Game, begun or resumed) until the player leaves it;
    the exit code for the command line. Away from a terminal (a pipe, a script) there is no
    screen to show: the game file and the game are printed as text instead."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        from ..visible import visible

        lines = [f"Game file: {game.path}", *game.summary_text().splitlines()]
        sys.stdout.write("".join(visible(line) + "\n" for line in lines))
        return 0
    from .app import run_app

    return run_app(None, None, game=game)
