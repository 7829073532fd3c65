"""`rosterkit cards`: print a roster's unit record cards as a PDF.

Exit codes as for the other commands: 0 the PDF was written (also for a roster with
errors: they are listed on the summary page and in a warning), 2 an input could not
be read or the PDF could not be written.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from ..words import count_of

SIZES_HELP = ("card size: poker (63 x 88 mm, the default), tarot or large (70 x 120 mm), index (5 x 3 in), "
              "a6 (105 x 148 mm, at its true size: two to an A4 or Letter sheet), or your own as WxH in mm or in, "
              "such as 57x89mm")
PROGRESS_FROM = 50  # cards; smaller rosters print without a progress line


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Print unit record cards for a roster as a PDF: one card per unit (or per figure), as "
                          "many to a sheet as fit, with cut marks, a summary page and a glossary.")
    parser.add_argument("roster", metavar="ROSTER", help="a roster file (.toml)")
    parser.add_argument("-o", "--output", metavar="PDF",
                        help="the PDF to write (default: the roster's name with -cards.pdf, in the current folder); "
                             "- for standard output")
    parser.add_argument("--size", default="poker", metavar="SIZE", help=SIZES_HELP)
    parser.add_argument("--paper", choices=["a4", "letter"], type=str.lower,
                        help="sheet size (default: letter in North American locales, else a4)")
    parser.add_argument("--per", choices=["unit", "figure"],
                        help="one card per unit or one per figure (default: as the ruleset's card section says)")
    parser.add_argument("--cut-marks", action=argparse.BooleanOptionalAction, default=True,
                        help="marks in the margins where to cut (default: on)")
    parser.add_argument("--gutter", type=_millimetres, default=0.0, metavar="MM",
                        help="space between cards on the sheet, in millimetres (default: 0, cards butted together "
                             "so one cut separates two)")
    parser.add_argument("--backs", action="store_true",
                        help="after each sheet, a page of card backs for printing on both sides (flip on the "
                             "long edge)")
    parser.add_argument("--font", metavar="TTF",
                        help="a TrueType font file for the characters DejaVu Sans lacks (Chinese, Japanese); "
                             "DejaVu Sans stays the face of the rest, bold included")
    parser.add_argument("--summary", action=argparse.BooleanOptionalAction, default=True,
                        help="a first page with points by type, validation and the roster's fingerprint (default: on)")
    parser.add_argument("--glossary", action=argparse.BooleanOptionalAction, default=True,
                        help="long ability texts repeated on several cards go to reference cards, after the "
                             "unit cards in the free places of the last sheet, that describe each ability once "
                             "(default: on)")
    parser.add_argument("--rules", action=argparse.BooleanOptionalAction, default=True,
                        help="the game's rolls in a few lines (an attack, a morale test), where the ruleset's "
                             "card section declares them, on reference cards after the abilities' texts, and "
                             "a chart the game plays by on a card of its own (default: on)")
    parser.add_argument("--rules-page", action=argparse.BooleanOptionalAction, default=True,
                        help="those rolls on the summary page as well, in two columns after the units, where "
                             "it has room for them all (default: on)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress or summary line")


def _millimetres(text: str) -> float:
    """``--gutter``: a number read with bounded digits, as every number given as text is."""
    from ..rules.numbers import parse_number

    try:
        return float(parse_number(text))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


class _Progress:
    """Cards done out of cards to print, on stderr: one updating line on a terminal, a few lines otherwise."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.last = 0.0
        self.shown_quarter = 0
        self.active = False

    def __call__(self, done: int, total: int) -> None:
        if total < PROGRESS_FROM:
            return
        if self.tty:
            now = time.monotonic()
            if done == total or now - self.last >= 0.1:
                self.last = now
                self.stream.write(f"\rcards: {done}/{total}")
                self.stream.flush()
                self.active = True
        else:
            quarter = done * 4 // total
            if quarter > self.shown_quarter:
                self.shown_quarter = quarter
                self.stream.write(f"cards: {done}/{total}\n")
                self.active = False

    def end(self) -> None:
        if self.active:
            self.stream.write("\n")
            self.active = False


def run(args, registry, opened_hook=None) -> int:
    """Print the cards; ``opened_hook`` is given the roster once it is open (the command line's notes)."""
    from ..visible import visible
    from ..workspace import open_roster
    from .fonts import describe_missing, user_fonts
    from .pdf import CardOptions, export_cards
    from .sizes import PAPERS, default_paper

    fonts = user_fonts(args.font) if args.font else None  # a font that cannot be used is said before any work
    opened = open_roster(args.roster, registry)
    if opened_hook is not None:
        opened_hook(opened)
    validation = opened.validation
    from pathlib import Path

    options = CardOptions(size=args.size, paper=args.paper or default_paper(), cut_marks=args.cut_marks,
                          per=args.per, summary=args.summary, glossary=args.glossary, rules=args.rules,
                          rules_page=args.rules_page, gutter=args.gutter, backs=args.backs, font=fonts)
    to_stdout = args.output == "-"
    if to_stdout:
        out = _stdout_stream()
    else:
        out = Path(args.output) if args.output else _default_output(Path(args.roster))
    progress = None if args.quiet else _Progress(sys.stderr)
    try:
        result = export_cards(opened.report, validation, out, options, progress, named=bool(args.output))
    finally:
        if progress is not None:
            progress.end()
        if to_stdout:
            out.close()
    err = sys.stderr
    if result.missing_glyphs:
        err.write(f"warning: the font has no glyph for {visible(describe_missing(result.missing_glyphs))}; "
                  "printed as [U+code] instead\n")
    if not validation.ok:
        n = len(validation.errors)
        where = ("; the summary page lists " + ("it" if n == 1 else "them")) if options.summary else ""
        err.write(f"warning: the roster has {count_of(n, 'error')}{where} (see rosterkit validate "
                  f"{visible(args.roster)})\n")
    if not args.quiet:
        where = "the PDF to standard output" if to_stdout else visible(out)  # (a file name may hold controls)
        (sys.stderr if to_stdout else sys.stdout).write(result.written(where, PAPERS[options.paper].label) + "\n")
    return 0


def _default_output(roster):
    """``NAME-cards.pdf`` in the current folder, where only a regular file of that name is
    replaced: a link or a device there (put there by whoever made the folder) is not the
    player's to write through."""
    import stat
    from pathlib import Path

    from ..errors import Problem, RosterkitError

    out = Path(f"{roster.stem}-cards.pdf")
    try:
        st = os.lstat(out)
    except OSError:
        return out
    if stat.S_ISLNK(st.st_mode) or not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
        what = "a symbolic link" if stat.S_ISLNK(st.st_mode) else "not a regular file"
        raise RosterkitError(Problem(f"is {what}, and rosterkit did not make it: the cards are not written "
                                     "there unless you name it", file=str(out),
                                     hint="pass -o/--output with the PDF to write (naming this one writes "
                                          "through it)"))
    return out


def _stdout_stream():
    """Standard output for the PDF's bytes, written straight to it (``-o -``); a terminal is refused."""
    import io

    from ..errors import Problem, RosterkitError

    try:
        sys.stdout.flush()
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):
        raise RosterkitError(Problem("standard output cannot take a PDF here; give a file name", file="-")) from None
    if os.isatty(fd):
        raise RosterkitError(Problem("standard output is a terminal; send it to a file or a program "
                                     "(> cards.pdf, | lpr) or give a file name", file="-"))
    return io.FileIO(fd, "wb", closefd=False)
