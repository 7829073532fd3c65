"""`rosterkit validate`: check rosters against their ruleset's limits, each on its own and
in the match-ups a pairings file names."""

from __future__ import annotations

import os
import re
import sys

from ..visible import visible
from ..words import count_of
from .opening import open_each, ruleset_note
from .output import (
    EXIT_ERRORS,
    EXIT_OK,
    EXIT_UNREADABLE,
    Out,
    as_path,
    print_findings,
    print_json,
    print_version_change,
    version_change_json,
)

PAIRING_LINE_SHOWN = 80  # characters of a pairings line (or a path on it) quoted in a message


def read_pairings(file: str, allow_outside: bool = False) -> list[tuple[str, str, int]]:
    """The pairs of a pairings file: one pair a line, two roster paths (quoted when they hold
    spaces; relative to the pairings file's folder), blank lines and ``#`` comments ignored.

    A pairings file comes from someone else (a tournament's pack, a submission): it may name
    rosters in its own folder or below, links included only when they lead there too, so that
    it cannot make rosterkit read (and quote) any other file; ``allow_outside`` lifts that."""
    import shlex

    from ..errors import Problem, UnreadableError
    from ..files.tomlfile import read_text

    path = as_path(file)
    text = read_text(path)
    folder = path.parent.resolve()
    pairs = []
    for n, line in enumerate(text.splitlines(), 1):
        try:
            words = shlex.split(line, comments=True)
        except ValueError as exc:
            raise UnreadableError(Problem(f"cannot read the line ({exc}); expected two roster paths",
                                          file=file, line=n)) from None
        if not words:
            continue
        if len(words) != 2:
            raise UnreadableError(Problem(f"expected two roster paths on the line, found {len(words)}: "
                                          f"{_short(line.strip())}",
                                          file=file, line=n))
        a, b = (str(path.parent / w) if not as_path(w).is_absolute() else w for w in words)
        if not allow_outside:
            for word, roster in zip(words, (a, b)):
                if not _inside(as_path(roster), folder):
                    link = _inside(as_path(os.path.abspath(roster)), as_path(os.path.abspath(path.parent)), follow=False)
                    what = "is a link to a file" if link else "is"
                    raise UnreadableError(Problem(
                        f"'{_short(word, tail=True)}' {what} outside the pairings file's folder; a pairings file "
                        "may name rosters in its own folder or below", file=file, line=n,
                        hint="to check rosters elsewhere, pass --allow-outside (only for a pairings file you trust)"))
        pairs.append((a, b, n))
    return pairs


def _inside(path, folder, follow: bool = True) -> bool:
    """Whether ``path``, its links followed, is in ``folder`` (resolved) or below (``follow=False``:
    whether its name is, ``..`` worked out)."""
    try:
        if not follow:
            return as_path(os.path.normpath(path)).is_relative_to(folder)
        return path.resolve().is_relative_to(folder)
    except (OSError, RuntimeError):  # a name too long, a loop of links: not shown to be inside
        return False


def _short(text: str, most: int = PAIRING_LINE_SHOWN, tail: bool = False) -> str:
    """The text, or its start (``tail``: its end, for a path) when longer than ``most``."""
    if len(text) <= most:
        return text
    return "..." + text[3 - most:] if tail else text[:most - 3] + "..."


def _matchup_results(opened_by_path: dict, pairs: list[tuple[str, str, int | None]], pairings: str | None):
    """[(a, b, findings)] for each pair whose two lists could be read; a pair of two rulesets is
    an input error naming the line."""
    import os.path

    from ..engine.validation import check_matchup
    from ..errors import Problem, UnreadableError

    out = []
    for a_path, b_path, line in pairs:
        a, b = opened_by_path[os.path.normpath(a_path)], opened_by_path[os.path.normpath(b_path)]
        if isinstance(a, Exception) or isinstance(b, Exception):
            continue
        if a.ruleset.id != b.ruleset.id:
            raise UnreadableError(Problem(f"{a_path} is a {a.ruleset.id} list and {b_path} a {b.ruleset.id} list: "
                                          "no match-up", file=pairings, line=line))
        out.append((a, b, check_matchup(a.ruleset, a.report, b.report)))
    return out


def handle(args, registry) -> int:
    pairs: list[tuple[str, str, int | None]] = []
    if getattr(args, "pairings", None):
        pairs = read_pairings(args.pairings, args.allow_outside)
    if not args.rosters and not pairs:
        from ..errors import Problem, RosterkitError

        raise RosterkitError(Problem("no rosters given (name roster files, or a pairings file with --pairings)"))
    return check(args, registry, pairs)




def check(args, registry, pairs) -> int:
    import os.path

    from ..engine.fingerprint import fingerprint
    from ..rules.numbers import fmt, to_json

    given: dict[str, str] = {}  # one opening per file however its path is written
    for p in [*args.rosters, *(p for a, b, _ in pairs for p in (a, b))]:
        given.setdefault(os.path.normpath(p), p)
    paths = list(given.values())
    named = {os.path.normpath(p) for p in args.rosters}
    each = open_each(registry, paths, frozenset(p for p in paths if os.path.normpath(p) not in named))
    by_path = {os.path.normpath(p): o for p, o in zip(paths, each)}
    results = _matchup_results(by_path, pairs, getattr(args, "pairings", None))
    opened = [o for o in each if not isinstance(o, Exception)]
    unreadable = len(opened) != len(each)
    matchups = [f for _, _, found in results for f in found]
    any_error = any(not o.validation.ok for o in opened) or any(f.severity == "error" for f in matchups)
    any_warning = any(f.severity == "warning" for o in opened for f in o.findings) or \
        any(f.severity == "warning" for f in matchups)
    failed = any_error or (args.strict and any_warning)
    code = EXIT_UNREADABLE if unreadable else EXIT_ERRORS if failed else EXIT_OK
    if args.summary or args.csv:
        print_summary(args, paths, each)
        if not (args.csv or args.json):
            print_matchups(Out(), results)
        return code
    if args.json:
        print_json({
            "ok": not any_error and not unreadable,
            "strict": bool(args.strict),
            "warnings": any_warning,
            "rosters": [{
                "file": str(o.path), "name": o.roster.name, "ruleset": o.ruleset.id,
                "ruleset_file": str(o.ruleset.path) if o.ruleset.path else None,
                "ruleset_version": o.ruleset.data.version,
                "total": to_json(o.report.total), "limit": to_json(o.report.limit),
                "ok": o.validation.ok,
                "fingerprint": fingerprint(o.report).code,
                "findings": [f.to_json() for f in o.findings],
                "limits": [{"id": s.id, "label": s.label, "ok": s.ok, "value": to_json(s.value),
                            "at_most": to_json(s.at_most), "at_least": to_json(s.at_least)}
                           for s in o.validation.limits],
                **({"version_change": version_change_json(o.version_change)} if o.version_change else {}),
            } for o in opened],
            "unreadable": [str(p) for p, o in zip(paths, each) if isinstance(o, Exception)],
            "matchup": [f.to_json() for f in matchups],
            "matchups": [{"a": str(a.path), "b": str(b.path), "ok": not any(f.severity == "error" for f in found),
                          "findings": [f.to_json() for f in found]} for a, b, found in results],
        })
        return code
    out = Out()
    for o in opened:
        v, report = o.validation, o.report
        limit = f" / {fmt(report.limit)}" if report.limit is not None else ""
        head = f"{o.path}: {o.roster.name} ({o.ruleset.name}), {fmt(report.total)}{limit} " \
               f"{o.ruleset.data.points_label}:"
        warnings = sum(1 for f in v.findings if f.severity == "warning")
        if v.ok:
            status = [(" valid", "bold green")] + ([(f" ({count_of(warnings, 'warning')})", "yellow")] if warnings
                                                   else [])
        else:
            status = [(f" {count_of(len(v.errors), 'error')}", "bold red")] + (
                [(f", {count_of(warnings, 'warning')}", "yellow")] if warnings else [])
        out.line(head, *status)
        ruleset_note(out, o.ruleset)
        print_version_change(out, o)
        print_findings(out, o.findings)
        out.line((f"  fingerprint {fingerprint(report).code}", "dim"))
    print_matchups(out, results)
    if args.strict and any_warning and not any_error:
        out.line(("strict: ", "bold red"), "warnings count as errors (--strict)")
    if unreadable and len(each) > 1:
        out.line((f"{count_of(len(each) - len(opened), 'roster')} of {len(each)} could not be read (see the errors above)",
                  "bold red"))
    return code


def print_matchups(out: Out, results) -> None:
    """Each pair: its findings, or that it is balanced (or that the ruleset has no match-up rules)."""
    from ..rules.numbers import fmt

    for a, b, found in results:
        if found:
            out.line(("Match-up: ", "bold"), f"{a.path} vs {b.path}")
            print_findings(out, found)
        elif not a.ruleset.matchups:
            out.line(("Match-up: ", "bold"), f"{a.path} vs {b.path}: ",
                     f"no match-up rules in {a.ruleset.name} ({fmt(a.report.total)} vs {fmt(b.report.total)})")
        else:
            out.line(("Match-up: ", "bold"), f"{a.path} vs {b.path}: ", ("balanced", "green"),
                     f" ({fmt(a.report.total)} vs {fmt(b.report.total)})")


def print_summary(args, paths: list[str], each: list) -> None:
    """One line per list, failing lists first: text, ``--json`` or ``--csv``."""
    from ..engine.summary import FIELDS, failing_first, summarise, unreadable

    rows = failing_first([unreadable(str(p), len(o.problems)) if isinstance(o, Exception)
                          else summarise(str(p), o.validation, args.strict) for p, o in zip(paths, each)])
    if args.csv:
        import csv

        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(FIELDS)
        for r in rows:
            d = r.to_json()
            writer.writerow([_cell(visible(str(d[k]))) if isinstance(d[k], str) else "" if d[k] is None else d[k]
                             for k in FIELDS])
        return
    if args.json:
        print_json([r.to_json() for r in rows])
        return
    failed = sum(r.failed for r in rows)
    Out().table(f"{count_of(len(rows), 'list')}, {failed} failing",
                ["file", "army", "ruleset", "points", "errors", "warnings", "status", "fingerprint"],
                [[r.file, r.name, r.ruleset, r.points_text(), str(r.errors), str(r.warnings), r.status,
                  r.fingerprint] for r in rows], right={3, 4, 5})


_FORMULA_START = "=+-@\t\r"  # what makes a spreadsheet read a cell as a formula (OWASP: CSV injection)
# a formula after a separator a spreadsheet may split on (";" in many locales, "|", ","), spaces allowed
_FORMULA_AFTER_SEPARATOR = re.compile(r"([,;|]\s*)(?=[=+\-@])")


def _cell(text: str) -> str:
    """A text cell a spreadsheet cannot take for a formula: a quote before a cell that starts
    (after any spaces) with = + - @ or a tab or CR ("=cmd|...", " +1"), and before each such
    character that follows a separator ("x;=HYPERLINK(...)" read by a spreadsheet that splits
    on ";")."""
    text = _FORMULA_AFTER_SEPARATOR.sub(r"\1'", text)
    stripped = text.lstrip()
    return "'" + text if stripped[:1] and stripped[0] in _FORMULA_START else text
