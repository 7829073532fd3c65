"""`rosterkit play`: a game at the table (the interface's play screen), and `--summary`: its
result as plain text."""

from __future__ import annotations

from .output import EXIT_OK, Out, as_path


def handle(args, registry) -> int:
    from ..editing.play import Game
    from ..errors import Problem, UnreadableError
    from ..files.game import SUFFIX, default_game_path

    if args.summary:
        # the file named is the game; a roster names the game beside it (ARMY.game.toml)
        name = args.game or args.army
        if name is None:
            raise UnreadableError(Problem("give the game file: rosterkit play --summary GAME.game.toml"))
        path = as_path(name)
        if args.game is None and not path.name.lower().endswith(SUFFIX) and default_game_path(path).exists():
            path = default_game_path(path)
        game = Game.load(path, registry)
        out = Out()
        for line in game.summary_text().splitlines():
            out.line(line)
        return EXIT_OK
    if args.army is None and args.game is None:
        raise UnreadableError(Problem("give the army's roster: rosterkit play ARMY.toml [OPPONENT.toml]"))
    if args.army is None:
        game = Game.load(as_path(args.game), registry)
    else:
        game = Game.start(as_path(args.army), as_path(args.opponent) if args.opponent else None,
                          as_path(args.game) if args.game else None, registry)
    run_play = play_screen()
    if run_play is not None:
        code = run_play(game)
        return EXIT_OK if code is None else code
    # a version without the play screen: the game is begun (or resumed) and its state printed
    out = Out()
    out.line(f"Game file: {game.path}")
    for line in game.summary_text().splitlines():
        out.line(line)
    return EXIT_OK


def play_screen():
    """The interface's play screen, ``rosterkit.tui.play_app.run_play(game)``, when this version has it."""
    from importlib import import_module

    try:
        module = import_module("rosterkit.tui.play_app")
    except ModuleNotFoundError as exc:
        if exc.name != "rosterkit.tui.play_app":
            raise
        return None
    return getattr(module, "run_play", None)
