"""`rosterkit play ARMY [OPPONENT]`: the interface opened on the game's screen."""

from __future__ import annotations


def run_play(game) -> int:
    """Show the game (a rosterkit.editing.play.Game, begun or resumed) until the player leaves it;
    the exit code for the command line."""
    from .app import run_app

    return run_app(None, None, game=game)
