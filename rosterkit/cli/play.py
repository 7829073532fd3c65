"""`rosterkit play`: a game at the table (the play screen), and `--summary`: its result as plain text."""

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
    out = Out()
    out.line(f"Game file: {game.path}")
    for line in game.summary_text().splitlines():
        out.line(line)
    return EXIT_OK
