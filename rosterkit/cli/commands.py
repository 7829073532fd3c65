"""The table of commands: each one's name, help, arguments and handler. The parser and the
dispatch are both made from it, so a command exists once it has a row here.

A handler is named, not imported: the module of the command that runs is the only one
imported, so ``rosterkit --help`` loads none of them.
"""

from __future__ import annotations

import argparse

from .. import __version__


class Arg:
    """One argument: what :meth:`argparse.ArgumentParser.add_argument` is given."""

    __slots__ = ("flags", "options")

    def __init__(self, *flags: str, **options) -> None:
        self.flags, self.options = flags, options


class Command:
    """A row of the table (a plain class: `rosterkit --help` does without dataclasses' imports)."""

    __slots__ = ("arguments", "configure", "handler", "help", "more", "name")

    def __init__(self, name: str, help: str, handler: str, arguments: tuple[Arg, ...] = (), more: str = "",
                 configure: str | None = None) -> None:
        self.name = name
        self.help = help  # the summary in `rosterkit --help`; with ``more``, the description in `rosterkit NAME --help`
        self.handler = handler  # "module.function" in this package, imported when the command runs
        self.arguments = arguments
        self.more = more
        self.configure = configure  # "module.function" adding arguments, for options kept with their code

    def function(self):
        from importlib import import_module

        module, name = self.handler.rsplit(".", 1)
        return getattr(import_module(f"{__package__}.{module}"), name)


def points_limit(text: str) -> int:
    """``--points``: a whole number of points, read with bounded digits (never a thousand-digit int)."""
    from ..rules.numbers import MAX_SHOWN, fmt, parse_number

    try:
        value = parse_number(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if type(value) is not int or not 1 <= value < MAX_SHOWN:
        raise argparse.ArgumentTypeError(f"{fmt(value)}: expected a whole number of points from 1 to {MAX_SHOWN - 1:,}")
    return value


ROSTER = "a roster file (.toml)"
INSTALLED = "{installed}"  # in a help text: the installed ruleset ids, filled in by build_parser

COMMANDS: tuple[Command, ...] = (
    Command("validate", "check rosters against their ruleset's limits", "validate.handle", (
        Arg("rosters", nargs="*", metavar="ROSTER", help="one or more roster files (lists/*.toml)"),
        Arg("--json", action="store_true", help="print findings as JSON"),
        Arg("--strict", action="store_true",
            help="exit 1 on warnings too (advice and readings such as a recommended army make-up), "
                 "for organisers who want every list to follow them"),
        Arg("--summary", action="store_true",
            help="one line per list (file, army, ruleset, points, errors, warnings, fingerprint), "
                 "failing lists first; with --json a list of objects"),
        Arg("--csv", action="store_true", help="the summary as CSV, for a spreadsheet"),
        Arg("--pairings", metavar="FILE",
            help="check the match-ups in FILE: one pair a line, two roster paths (relative to FILE's "
                 "folder); # starts a comment"),
        Arg("--allow-outside", action="store_true",
            help="let the pairings file name rosters outside its own folder (by default it may name only "
                 "rosters in its folder or below)"),
    ), more="Each list is checked on its own. Each finding gives its severity, the unit (and line), the "
            "rule's id and a message. Match-ups are checked only when asked: --pairings FILE, or "
            "`rosterkit matchup A B`."),
    Command("matchup", "check two rosters as a match-up (and each on its own)", "matchup.handle", (
        Arg("a", metavar="A", help=ROSTER),
        Arg("b", metavar="B", help=ROSTER),
        Arg("--json", action="store_true", help="print findings as JSON"),
        Arg("--strict", action="store_true", help="exit 1 on warnings too"),
    )),
    Command("cost", "show every point of a roster, term by term", "cost.handle", (
        Arg("roster", metavar="ROSTER", help=ROSTER),
        Arg("--json", action="store_true", help="print the breakdown as JSON"),
        Arg("--brief", action="store_true", help="only the summary tables"),
    ), more="Each figure's cost term by term, each weapon and ability and where its price comes from, "
            "the unit totals, the army total and the share per type."),
    Command("new", "create an empty roster file", "new.handle", (
        Arg("--ruleset", required=True, metavar="ID", help=f"the ruleset's id, in any case{INSTALLED}"),
        Arg("--name", required=True, help="the army's name"),
        Arg("--points", type=points_limit, metavar="N", help="points limit (the game's size)"),
        Arg("--force", action="store_true", help="replace an existing file"),
        Arg("file", metavar="FILE", help="the roster file to create"),
    )),
    Command("rulesets", "list the installed rulesets", "rulesets.handle",
            more="Each with its id, name, version, source and file."),
    Command("check-ruleset", "check a ruleset file and list published costs that disagree with its formulas",
            "check_ruleset.handle", (
                Arg("files", nargs="+", metavar="FILE", help="one or more ruleset files"),
                Arg("--json", action="store_true", help="print the result as JSON"),
                Arg("--strict", action="store_true", help="exit 1 when any published number disagrees"),
                Arg("--report", action="store_true",
                    help="the designer's report: published prices, dominated options, what a step of each stat "
                         "costs per type, the cheapest and dearest figure of each type"),
            )),
    Command("text", "print a roster as plain text for a forum or chat", "text.handle", (
        Arg("roster", metavar="ROSTER", help=ROSTER),
        Arg("--markdown", action="store_true", help="Markdown (GitHub, Reddit): each unit and stat line a list item"),
        Arg("--compact", action="store_true",
            help="one line per unit, its stats in a short notation (for chat and the cards' QR code)"),
        Arg("--no-points", action="store_true", help="no points anywhere (a secret list)"),
    )),
    Command("import", "read a list from its text (as `text` writes it) into a roster file", "import_list.handle", (
        Arg("file", metavar="FILE", help="the list's text, or - for standard input"),
        Arg("-o", "--output", metavar="OUT", required=True, help="the roster file to write (.toml)"),
        Arg("--force", action="store_true", help="replace OUT if it exists (the old one is kept as .bak)"),
    ), more="Plain, Markdown or compact text, edited by hand or not; names the ruleset does not know are "
            "kept and reported."),
    Command("fingerprint", "print a roster's fingerprint", "fingerprint.handle", (
        Arg("rosters", nargs="+", metavar="ROSTER", help="one or more roster files"),
    ), more="The fingerprint comes from what the army is, not how its file looks: the same on the "
            "cards, in validate, cost and text."),
    Command("verify", "check that a roster has a given fingerprint", "verify.handle", (
        Arg("roster", metavar="ROSTER", help=ROSTER),
        Arg("fingerprint", metavar="FINGERPRINT", help="XXXX-XXXX-XXXX-XXXX (any case, dashes optional)"),
    ), more="Exit 0 when it has, 1 naming what differs (ruleset, units, gear and stats, points) when not, "
            "2 when the fingerprint is malformed."),
    Command("update", "record the installed ruleset's version and each unit's points in a roster", "update.handle", (
        Arg("roster", metavar="ROSTER", help=ROSTER),
        Arg("--dry-run", action="store_true", help="show the report, write nothing"),
    ), more="Shows the points then and now and any findings first; the file keeps its comments and layout."),
    Command("diff", "show the units added, removed and changed between two rosters", "diff.handle", (
        Arg("old", metavar="OLD", help="the earlier roster file"),
        Arg("new", metavar="NEW", help="the later roster file"),
        Arg("--exit-code", action="store_true", help="exit 1 when the armies differ"),
    ), more="Points before and after per unit and the total. For git, see README (diff driver)."),
    # the cards' options are kept with the cards code (argparse setup only: no reportlab)
    Command("cards", "print unit record cards as a PDF", "cards.handle",
            configure="rosterkit.cards.command.configure"),
    Command("play", "play a game: mark losses, count turns, score by the book", "play.handle", (
        Arg("army", nargs="?", metavar="ARMY", help="your roster (.toml)"),
        Arg("opponent", nargs="?", metavar="OPPONENT", help="the opponent's roster (.toml), if any"),
        Arg("--game", metavar="FILE", help="the game file (default ARMY.game.toml beside the roster); "
                                           "resumed when it exists; given without ARMY, the game it holds"),
        Arg("--summary", action="store_true",
            help="print the game's result (turns, victory points per side, losses and effects by unit) as "
                 "plain text; ARMY is then the game file, or the roster whose ARMY.game.toml to read"),
    ), more="The game is saved as it changes, crash-safely, and resumes from its file. A roster changed "
            "since the game began is reported (exit 2)."),
    Command("tui", "open the terminal interface (the default)", "tui.handle", (
        Arg("roster", nargs="?", metavar="ROSTER", help="a roster to open (a new one if the file does not exist)"),
    )),
)

NAMES = frozenset(c.name for c in COMMANDS)


def find(name: str) -> Command:
    return next(c for c in COMMANDS if c.name == name)


def build_parser(ruleset_ids: str = "") -> argparse.ArgumentParser:
    """The command line's parser, one sub-command a row of :data:`COMMANDS`; ``ruleset_ids`` (the
    installed ids) is listed in `new --help`."""
    from importlib import import_module

    installed = f" (installed: {ruleset_ids})" if ruleset_ids else " (rosterkit rulesets lists them)"
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--rulesets", metavar="DIR", action="append", default=argparse.SUPPRESS,
                        help="also look for rulesets in DIR, before your own folder and the built-ins "
                             "(may be repeated)")
    p = argparse.ArgumentParser(
        prog="rosterkit", parents=[common],
        description="Design figures, build armies, validate lists and print unit cards for tabletop wargames. "
                    "`rosterkit` alone opens the terminal interface; `rosterkit ROSTER` opens a roster in it.",
        epilog="Exit codes: 0 fine, 1 the roster has errors, 2 an input could not be read or the output "
               "could not be written.")
    p.add_argument("--version", action="version", version=f"rosterkit {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        summary = command.help
        c = sub.add_parser(command.name, parents=[common], help=summary,
                           description=summary[0].upper() + summary[1:] + "."
                           + (" " + command.more if command.more else ""))
        for a in command.arguments:
            options = dict(a.options)
            if "help" in options:
                options["help"] = options["help"].replace(INSTALLED, installed)
            c.add_argument(*a.flags, **options)
        if command.configure:
            module, name = command.configure.rsplit(".", 1)
            getattr(import_module(module), name)(c)
    return p
