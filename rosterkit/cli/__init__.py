"""The command line: validate, matchup, cost, text, fingerprint, verify, update, diff, cards, new, rulesets,
check-ruleset, and the interface. Each command is a row of the table in :mod:`.commands` and
a module of its own here.

Exit codes: 0 fine, 1 the roster (or ruleset) has errors (``validate --strict``: or warnings), 2 an input
could not be read or the output could not be written.

Each command imports what it uses when it runs, so ``rosterkit --help`` starts in a few tens
of milliseconds: the core (pydantic) for the roster commands, rich only for output to a
terminal, the cards code only for ``cards`` and Textual only for the interface. Output to a
pipe or a file is plain aligned text, one entry a line, without trailing spaces.
"""

from .entry import main, run

__all__ = ["main", "run"]
