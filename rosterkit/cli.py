"""The command line: validate, matchup, cost, text, fingerprint, verify, update, diff, cards, new, rulesets,
check-ruleset, and the interface.

Exit codes: 0 fine, 1 the roster (or ruleset) has errors (``validate --strict``: or warnings), 2 an input
could not be read or the output could not be written.

Each command imports what it uses when it runs, so ``rosterkit --help`` starts in a few tens
of milliseconds: the core (pydantic) for the roster commands, rich only for output to a
terminal, the cards code only for ``cards`` and Textual only for the interface. Output to a
pipe or a file is plain aligned text, one entry a line, without trailing spaces.
"""

from __future__ import annotations

import argparse
import errno
import io
import os
import re
import sys

from . import __version__
from .visible import json_text, plain, visible

EXIT_OK, EXIT_ERRORS, EXIT_UNREADABLE = 0, 1, 2


# ---------------------------------------------------------------- output


class Out:
    """Lines to a stream: styled with rich at a terminal, plain text otherwise. Every text is
    shown through :func:`visible`: a name from a file cannot send control characters."""

    def __init__(self, stream=None):
        self.stream = stream if stream is not None else sys.stdout
        isatty = getattr(self.stream, "isatty", None)
        self.terminal = bool(isatty and isatty())
        self._console = None

    @property
    def console(self):
        if self._console is None:
            from rich.console import Console

            self._console = Console(file=self.stream, highlight=False, soft_wrap=True)
        return self._console

    def line(self, *parts: str | tuple[str, str]) -> None:
        """One line from parts, each text or (text, rich style)."""
        parts = tuple(visible(p) if isinstance(p, str) else (visible(p[0]), p[1]) for p in parts)
        if self.terminal:
            from rich.text import Text

            self.console.print(Text.assemble(*parts))
        else:
            self.stream.write("".join(p if isinstance(p, str) else p[0] for p in parts) + "\n")

    def table(self, title: str, header: list[str] | None, rows: list[list[str]], right: set[int] = frozenset(),
              fold: set[int] = frozenset(), total: list[str] | None = None) -> None:
        """A table: drawn by rich at a terminal; aligned plain columns otherwise (``grep`` finds a row).
        Rich reads a str cell as markup, so every text goes to it as a Text (:func:`plain`)."""
        if self.terminal:
            from rich import box
            from rich.table import Table

            table = Table(title=plain(title, "table.title"), title_justify="left",
                          show_header=header is not None, box=None if header is None else box.HEAVY_HEAD,
                          padding=(0, 1))
            for i in range(len(rows[0]) if rows else len(header or [])):
                table.add_column(plain(header[i] if header else ""), justify="right" if i in right else "left",
                                 overflow="fold" if i in fold else "ellipsis")
            for row in rows:
                table.add_row(*[plain(c) for c in row])
            if total is not None:
                table.add_section()
                table.add_row(*[plain(c) for c in total], style="bold")
            self.console.print(table)
            return
        lines = [[visible(c) for c in row] for row in ([header] if header else []) + rows + ([total] if total else [])]
        self.stream.write(visible(title) + "\n" + "".join(f"  {line}\n" for line in columns(lines, right)))


def columns(rows: list[list[str]], right: set[int] = frozenset()) -> list[str]:
    """Rows as lines of aligned columns two spaces apart, without trailing spaces."""
    if not rows:
        return []
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.rjust(w) if i in right else cell.ljust(w)
                      for i, (cell, w) in enumerate(zip(row, widths))).rstrip() for row in rows]


def print_json(doc: object) -> None:
    """Indented for a person at a terminal; compact (and faster) for a pipe or a file."""
    sys.stdout.write(json_text(doc, 2 if sys.stdout.isatty() else None) + "\n")


def print_problems(exc) -> None:
    err = Out(sys.stderr)
    for p in exc.problems:
        first, *more = p.render().split("\n")  # the lines render() made; file text in them is made visible
        err.line(("error: ", "bold red"), first)
        for line in more:
            err.line(line)


def _path(name: str):
    from pathlib import Path  # not at the top: `rosterkit --help` needs no pathlib

    return Path(name)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


# ---------------------------------------------------------------- commands


def _open(registry, path: str):
    from .workspace import open_roster

    return open_roster(path, registry)


_NOT_BUILTIN: dict[str, bool] = {}  # ruleset file -> not a built-in one (asked once per run, for many lists)


def _ruleset_note(out: Out, ruleset) -> None:
    """Say where a ruleset came from when it is not the built-in one (a player's own file may
    reuse a built-in's id)."""
    from .files.rulesets import builtin_dir

    if ruleset.path is None:
        return
    key = str(ruleset.path)
    if key not in _NOT_BUILTIN:
        _NOT_BUILTIN[key] = ruleset.path.parent.resolve() != builtin_dir().resolve()
    if _NOT_BUILTIN[key]:
        out.line((f"  ruleset {ruleset.id} from {ruleset.path} (not the built-in)", "dim"))


def _notice_version(opened) -> None:
    """One line on standard error when the roster was saved against another version of its ruleset."""
    change = opened.version_change
    if change is not None:
        Out(sys.stderr).line(("note: ", "bold yellow"), f"{opened.path or opened.roster.name}: ",
                             change.notice(opened.ruleset.name))


def _notice_version_of_file(path: str, registry) -> None:
    """The line of :func:`_notice_version` for a command that opens the roster itself (the
    file's problems, if any, are that command's to report)."""
    from .engine.versions import notice
    from .errors import RosterkitError
    from .files.rosters import load_roster

    try:
        roster = load_roster(path).roster
        rs = registry.get(roster.ruleset)
    except RosterkitError:
        return
    if roster.ruleset_version is not None and roster.ruleset_version != rs.data.version:
        Out(sys.stderr).line(("note: ", "bold yellow"), f"{path}: ",
                             notice(rs.name, roster.ruleset_version, rs.data.version))


def _open_each(registry, paths: list[str], unquoted: frozenset[str] = frozenset()) -> list:
    """Each roster opened on its own: an OpenRoster, or the RosterkitError saying why it cannot be
    read (its problems printed on standard error at once). The problems of a file in
    ``unquoted`` (named by a pairings file, not by the player) quote none of its text."""
    import dataclasses

    from .errors import RosterkitError
    from .workspace import open_roster

    out = []
    costings: dict = {}  # one costing context per ruleset for all the lists
    for p in paths:
        try:
            opened = open_roster(p, registry, costings)
            opened.validation  # noqa: B018 (costed and checked here: a broken ruleset formula is this list's)
        except RosterkitError as exc:
            if p in unquoted:
                exc.problems = [dataclasses.replace(q, source=None, column=None)
                                if q.file and os.path.normpath(q.file) == os.path.normpath(p) else q
                                for q in exc.problems]
            print_problems(exc)
            out.append(exc)
            continue
        _notice_version(opened)
        out.append(opened)
    return out


PAIRING_LINE_SHOWN = 80  # characters of a pairings line (or a path on it) quoted in a message


def read_pairings(file: str, allow_outside: bool = False) -> list[tuple[str, str, int]]:
    """The pairs of a pairings file: one pair a line, two roster paths (quoted when they hold
    spaces; relative to the pairings file's folder), blank lines and ``#`` comments ignored.

    A pairings file comes from someone else (a tournament's pack, a submission): it may name
    rosters in its own folder or below, links included only when they lead there too, so that
    it cannot make rosterkit read (and quote) any other file; ``allow_outside`` lifts that."""
    import shlex

    from .errors import Problem, UnreadableError
    from .files.tomlfile import read_text

    path = _path(file)
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
        a, b = (str(path.parent / w) if not _path(w).is_absolute() else w for w in words)
        if not allow_outside:
            for word, roster in zip(words, (a, b)):
                if not _inside(_path(roster), folder):
                    link = _inside(_path(os.path.abspath(roster)), _path(os.path.abspath(path.parent)), follow=False)
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
            return _path(os.path.normpath(path)).is_relative_to(folder)
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

    from .engine.validation import check_matchup
    from .errors import Problem, UnreadableError

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


def cmd_validate(args, registry) -> int:
    pairs: list[tuple[str, str, int | None]] = []
    if getattr(args, "pairings", None):
        pairs = read_pairings(args.pairings, args.allow_outside)
    if not args.rosters and not pairs:
        from .errors import Problem, RosterkitError

        raise RosterkitError(Problem("no rosters given (name roster files, or a pairings file with --pairings)"))
    return _validate(args, registry, pairs)


def cmd_matchup(args, registry) -> int:
    args.rosters = [args.a, args.b]
    args.summary = args.csv = False
    return _validate(args, registry, [(args.a, args.b, None)])


def _validate(args, registry, pairs) -> int:
    import os.path

    from .engine.fingerprint import fingerprint
    from .rules.numbers import fmt, to_json

    given: dict[str, str] = {}  # one opening per file however its path is written
    for p in [*args.rosters, *(p for a, b, _ in pairs for p in (a, b))]:
        given.setdefault(os.path.normpath(p), p)
    paths = list(given.values())
    named = {os.path.normpath(p) for p in args.rosters}
    each = _open_each(registry, paths, frozenset(p for p in paths if os.path.normpath(p) not in named))
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
            status = [(" valid", "bold green")] + ([(f" ({_plural(warnings, 'warning')})", "yellow")] if warnings
                                                   else [])
        else:
            status = [(f" {_plural(len(v.errors), 'error')}", "bold red")] + (
                [(f", {_plural(warnings, 'warning')}", "yellow")] if warnings else [])
        out.line(head, *status)
        _ruleset_note(out, o.ruleset)
        print_version_change(out, o)
        print_findings(out, o.findings)
        out.line((f"  fingerprint {fingerprint(report).code}", "dim"))
    print_matchups(out, results)
    if args.strict and any_warning and not any_error:
        out.line(("strict: ", "bold red"), "warnings count as errors (--strict)")
    if unreadable and len(each) > 1:
        out.line((f"{_plural(len(each) - len(opened), 'roster')} of {len(each)} could not be read "
                  "(see the errors above)", "bold red"))
    return code


def print_matchups(out: Out, results) -> None:
    """Each pair: its findings, or that it is balanced (or that the ruleset has no match-up rules)."""
    from .rules.numbers import fmt

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
    from .engine.summary import FIELDS, failing_first, summarise, unreadable

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
    Out().table(f"{_plural(len(rows), 'list')}, {failed} failing",
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


def version_change_json(change) -> dict:
    from .rules.numbers import to_json

    return {"recorded": change.recorded, "installed": change.installed,
            "total_then": to_json(change.total_then), "total_now": to_json(change.total_now),
            "units": [{"index": c.index, "name": c.name, "then": c.then, "now": to_json(c.now)}
                      for c in change.units if c.changed]}


def print_version_change(out: Out, opened) -> None:
    """The points each unit had when the roster was saved against an older ruleset, and now."""
    from .rules.numbers import fmt

    change = opened.version_change
    if change is None:
        return
    out.line((f"  saved with {opened.ruleset.name} version {change.recorded}; version {change.installed} "
              "is installed:", "yellow"))
    moved = [c for c in change.units if c.changed]
    rows = [[f"#{c.index + 1}", c.name, "-" if c.then is None else fmt(c.then), fmt(c.now)] for c in moved]
    if rows:
        out.table("  points then and now", ["#", "unit", "then", "now"], rows, right={0, 2, 3},
                  total=["", "total", "-" if change.total_then is None else fmt(change.total_then),
                         fmt(change.total_now)])
    else:
        out.line("  every unit costs what it did")


_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def print_findings(out: Out, findings) -> None:
    """One line a finding, in aligned columns: severity, where, rule, message (hint below)."""
    if not findings:
        return
    rows = [(f.severity, visible(f.where()) + (f" (line {f.line})" if f.line else ""), visible(f.rule),
             visible(f.message), visible(f.hint) if f.hint else "") for f in findings]
    w_where = min(max(len(r[1]) for r in rows), 40)
    w_rule = min(max(len(r[2]) for r in rows), 24)
    indent = " " * (8 + w_where + 2 + w_rule + 2)
    if not out.terminal:
        out.stream.write("".join(
            f"{severity:<8}{where:<{w_where}}  {rule:<{w_rule}}  {message}\n"
            + (f"{indent}{hint}\n" if hint else "") for severity, where, rule, message, hint in rows))
        return
    from rich.text import Text

    text = Text()
    for severity, where, rule, message, hint in rows:
        text.append(f"{severity:<8}", style=_STYLE.get(severity, ""))
        text.append(f"{where:<{w_where}}  {rule:<{w_rule}}  {message}\n")
        if hint:
            text.append(indent + hint + "\n", style="dim")
    out.console.print(text, end="", soft_wrap=True)


def _points_limit(text: str) -> int:
    """``--points``: a whole number of points, read with bounded digits (never a thousand-digit int)."""
    from .rules.numbers import MAX_SHOWN, fmt, parse_number

    try:
        value = parse_number(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if type(value) is not int or not 1 <= value < MAX_SHOWN:
        raise argparse.ArgumentTypeError(f"{fmt(value)}: expected a whole number of points from 1 to {MAX_SHOWN - 1:,}")
    return value


def cost_json(report) -> dict:
    from .engine.fingerprint import fingerprint
    from .rules.numbers import divide, exact_text, to_json
    from .rules.ruleset import ITEM_SINGULAR

    rs = report.ruleset
    basis = report.limit or report.total
    return {
        "roster": report.roster.name,
        "ruleset": rs.id,
        "ruleset_file": str(rs.path) if rs.path else None,
        "ruleset_version": rs.data.version,
        "fingerprint": fingerprint(report).code,
        "points_label": rs.data.points_label,
        "total": to_json(report.total),
        "total_exact": exact_text(report.total),
        "limit": to_json(report.limit),
        "by_type": {t: {"points": to_json(p), "share": to_json(divide(p, basis)) if basis else 0}
                    for t, p in report.by_type.items()},
        "units": [{
            "index": u.index,
            "name": u.name,
            "type": u.type_id,
            "figures": u.figures,
            "total": to_json(u.total),
            "total_exact": exact_text(u.total),
            "derived": {k: to_json(v) for k, v in u.derived.items()},
            "members": [{
                "name": m.name,
                "count": m.count,
                "terms": [{"label": t.label, "detail": t.detail, "value": to_json(t.value)} for t in m.terms],
                "figure_cost": to_json(m.figure_cost),
                "figure_cost_detail": m.total_detail,
                "printed_price": None if m.printed is None else {
                    "type": m.printed.what, "printed": to_json(m.printed.printed),
                    "formula": to_json(m.printed.formula), "adjustment": to_json(m.printed.adjustment),
                    "figure_cost_by_formula": to_json(m.formula_cost)},
                "items": [{"kind": ITEM_SINGULAR[i.kind], "name": i.name, "cost": to_json(i.cost),
                           "source": i.source, "note": i.note or None,
                           "formula_value": to_json(i.formula_value), "printed": to_json(i.printed)}
                          for i in m.items],
                "per_figure": to_json(m.per_figure),
                "per_figure_exact": exact_text(m.per_figure),
                "total": to_json(m.total),
                "derived": {k: to_json(v) for k, v in m.derived.items()},
            } for m in u.members],
        } for u in report.units],
    }


def cmd_cost(args, registry) -> int:
    from .engine.costing import explain_lines, singular
    from .engine.fingerprint import fingerprint
    from .rules.numbers import fmt, fmt_pct

    opened = _open(registry, args.roster)
    _notice_version(opened)
    report = opened.report
    if args.json:
        doc = cost_json(report)
        if opened.version_change is not None:
            doc["version_change"] = version_change_json(opened.version_change)
        print_json(doc)
        return EXIT_OK
    out = Out()
    rs = report.ruleset
    _ruleset_note(out, rs)
    if opened.version_change is not None:
        print_version_change(out, opened)
        print_findings(out, opened.findings)
        out.line("")
    label = rs.data.points_label
    if not args.brief:
        for u in report.units:
            count = f"{u.figures} {rs.data.count_label if u.figures != 1 else singular(rs.data.count_label)}"
            rows = [[what, working] for what, working in explain_lines(u, rs)]
            rows += [[d.label, d.shown(u.derived.get(d.id, 0))] for d, _ in rs.unit_derived]
            out.table(f"#{u.index + 1} {u.name}: {u.type_name}, {count}", None, rows, fold={1})
            out.line("")
    rows = [[str(u.index + 1), u.name, u.type_name, str(u.figures),
             fmt(u.members[0].per_figure) if len(u.members) == 1 else "mixed", fmt(u.total)] for u in report.units]
    limit = f" of {fmt(report.limit)}" if report.limit is not None else ""
    out.table(f"{report.roster.name} ({rs.name})",
              ["#", "Unit", "Type", rs.data.count_label.capitalize(), "Each", label.capitalize()], rows,
              right={0, 3, 4, 5}, total=["", "Total", "", "", "", f"{fmt(report.total)}{limit}"])
    basis = report.limit or report.total
    out.table(f"{label.capitalize()} by type" + (" (share of the limit)" if report.limit else ""),
              ["Type", label.capitalize(), "Share"],
              [[t.name, fmt(report.by_type[t.id]), fmt_pct(report.by_type[t.id], basis) if basis else "-"]
               for t in rs.data.types], right={1, 2})
    out.line(f"Fingerprint {fingerprint(report).code}")
    return EXIT_OK


def cmd_new(args, registry) -> int:
    import dataclasses

    from pydantic import ValidationError

    from .engine.roster import RosterFile
    from .errors import Problem, RosterkitError
    from .files.rosters import save_roster
    from .files.tomlfile import validation_problems
    from .rules.numbers import fmt

    rs = registry.resolve(args.ruleset)
    try:
        roster = RosterFile(name=args.name, ruleset=rs.id, ruleset_version=rs.data.version, points_limit=args.points)
    except ValidationError as exc:  # the options, worded as a file's keys are
        options = {"name": "--name", "points_limit": "--points"}
        raise RosterkitError([dataclasses.replace(p, key=options.get(p.key, p.key))
                              for p in validation_problems(exc, None, None)]) from None
    path = _path(args.file)
    try:
        exists = path.exists()
    except OSError as exc:  # a name too long, a folder that cannot be searched
        raise RosterkitError(Problem(f"cannot save: {exc.strerror or exc}", file=str(path))) from None
    if exists and not args.force:
        raise RosterkitError(Problem("file exists; use --force to replace it (the old one is kept as .bak)",
                                     file=str(path)))
    save_roster(roster, path, keep_layout=False)
    points = f", {fmt(args.points)} {rs.data.points_label}" if args.points is not None else ""
    Out().line(f"Created {path}: {args.name} ({rs.name}{points})")
    return EXIT_OK


def cmd_rulesets(args, registry) -> int:
    from .errors import RosterkitError
    from .files.rulesets import user_dir

    out = Out()
    rows, bad = [], False
    for path, rs in registry.all():
        if isinstance(rs, RosterkitError):
            bad = True
            rows.append(["?", "cannot load (see check-ruleset)", "", "", str(path)])
        else:
            rows.append([rs.id, rs.name, rs.data.version, rs.source_line(), str(path)])
    out.table("Installed rulesets", ["id", "name", "version", "source", "file"], rows, fold={3, 4})
    out.line(f"Your own rulesets go in {user_dir()} (or pass --rulesets DIR).")
    unsearchable = registry.unsearchable()
    for exc in unsearchable:
        print_problems(exc)
    return EXIT_UNREADABLE if unsearchable else EXIT_ERRORS if bad else EXIT_OK


def cmd_check_ruleset(args, registry) -> int:
    from .engine.checks import discrepancies
    from .errors import RosterkitError, UnreadableError
    from .files.rulesets import load_ruleset_file
    from .rules.numbers import fmt, to_json

    out = Out()
    code = EXIT_OK
    for file in args.files:
        try:
            rs = load_ruleset_file(file)
        except RosterkitError as exc:
            if isinstance(exc, UnreadableError):
                raise
            print_problems(exc)
            out.line((f"{file}: ", "bold"), (f"{len(exc.problems)} error(s)", "bold red"))
            code = EXIT_ERRORS
            continue
        found, errors = discrepancies(rs)
        if args.json:
            print_json({"file": file, "id": rs.id, "ok": not errors, "errors": errors,
                        "discrepancies": [{"what": d.what, "name": d.name, "published": to_json(d.published),
                                           "computed": to_json(d.computed), "how": d.how, "note": d.note,
                                           "charged": d.charged}
                                          for d in found]})
        else:
            for e in errors:
                out.line(("error: ", "bold red"), e)
            items = sum(len(getattr(rs.data, k)) for k in ("weapons", "abilities", "equipment"))
            out.line((f"{file}: {rs.id} ({rs.name}) ", "bold"),
                     ("has errors" if errors else "ok", "bold red" if errors else "bold green"),
                     f"; {len(rs.data.stats)} stats, {len(rs.data.types)} types, {items} catalogue items, "
                     f"{len(rs.data.figures)} figures, {len(rs.limits)} limits")
            if found:
                out.table("Published numbers that disagree",
                          ["entry", "printed", "other", "from", "charged", "note"],
                          [[f"{d.what}: {d.name}", fmt(d.published),
                            fmt(d.computed) if d.computed is not None else "-", d.how, d.charged,
                            d.note or "not acknowledged in the data"] for d in found],
                          right={1, 2}, fold={5})
        if errors or (args.strict and found):
            code = EXIT_ERRORS
    return code


def cmd_text(args, registry) -> int:
    from .engine.textlist import roster_text

    opened = _open(registry, args.roster)
    _notice_version(opened)
    sys.stdout.write(roster_text(opened.report, markdown=args.markdown, valid=opened.validation.ok,
                                 compact=args.compact, points=not args.no_points))
    return EXIT_OK


def cmd_import(args, registry) -> int:
    from .files.listtext import import_list
    from .rules.numbers import fmt

    done = import_list(args.file, _path(args.output), registry, force=args.force)
    out, roster, report = Out(), done.read.roster, done.report
    out.line(f"Created {done.path}: {visible(roster.name)} ({visible(report.ruleset.name)}, "
             f"{_plural(len(roster.units), 'unit')}, {fmt(report.total)} {report.ruleset.data.points_label})")
    for note in done.read.notes:
        out.line(f"note: {visible(note)}")
    for f in done.unknown:
        out.line(f"kept as written: {visible(f.where())}: {visible(f.message)}" + (f" ({visible(f.hint)})"
                                                                                   if f.hint else ""))
    differs = done.fingerprint_differs
    if differs is not None:
        out.line(f"Fingerprint {done.fingerprint}, not the {visible(done.read.written_fingerprint or '')} the text "
                 f"gives: the list was changed ({', '.join(differs)})")
    else:
        out.line(f"Fingerprint: {done.fingerprint}")
    return EXIT_OK


def cmd_fingerprint(args, registry) -> int:
    from .engine.fingerprint import fingerprint

    for path in args.rosters:
        opened = _open(registry, path)
        _notice_version(opened)
        code = fingerprint(opened.report).code
        Out().line(f"{code}  {path}" if len(args.rosters) > 1 else code)
    return EXIT_OK


def cmd_verify(args, registry) -> int:
    from .engine.fingerprint import differing_parts, fingerprint, normalise
    from .errors import Problem, UnreadableError

    expected = normalise(args.fingerprint)
    if expected is None:
        raise UnreadableError(Problem(f"'{args.fingerprint}' is not a fingerprint: expected 16 letters and digits "
                                      "as XXXX-XXXX-XXXX-XXXX (rosterkit fingerprint ROSTER prints one)"))
    opened = _open(registry, args.roster)
    _notice_version(opened)
    actual = fingerprint(opened.report)
    out = Out()
    if actual.code == expected:
        out.line(("match: ", "bold green"), f"{args.roster} is the list with fingerprint {expected}")
        return EXIT_OK
    parts = differing_parts(actual, expected)
    what = ", ".join(parts) if parts else "the list (no single part can be named)"
    out.line(("no match: ", "bold red"), f"{args.roster} has fingerprint {actual.code}, not {expected}; "
             f"differs in: {what}")
    return EXIT_ERRORS


def cmd_update(args, registry) -> int:
    from .errors import Problem, RosterkitError
    from .files.rosters import ChangedOnDisk, save_roster

    opened = _open(registry, args.roster)
    out = Out()
    change = opened.version_change
    recorded_version = opened.roster.ruleset_version
    if change is not None:
        out.line(f"{args.roster}:")
        print_version_change(out, opened)
        print_findings(out, opened.findings)
    if args.dry_run:
        out.line("nothing written (--dry-run)")
        return EXIT_OK
    try:
        if opened.disk is None:  # no file a moment before it was read
            raise ChangedOnDisk(opened.path, "it appeared as it was read")
        save_roster(opened.roster, opened.path, report=opened.report, expect=opened.disk)
    except ChangedOnDisk as exc:
        raise RosterkitError(Problem(f"the file changed while updating ({exc.reason}); nothing was written",
                                     file=args.roster, hint="run rosterkit update again")) from None
    if change is None and recorded_version == opened.ruleset.data.version:
        out.line(f"{args.roster}: already recorded against {opened.ruleset.name} version "
                 f"{opened.ruleset.data.version}; points brought up to date")
    else:
        out.line(f"{args.roster}: ", ("recorded ", "bold green"),
                 f"{opened.ruleset.name} version {opened.ruleset.data.version} and each unit's points")
    return EXIT_OK


def cmd_diff(args, registry) -> int:
    from .engine.diff import diff
    from .rules.numbers import fmt

    old, new = _open(registry, args.old), _open(registry, args.new)
    for o in (old, new):
        _notice_version(o)
    d = diff(old.report, new.report)
    out = Out()
    label = new.ruleset.data.points_label
    out.line(f"--- {args.old}: {old.roster.name}, {fmt(old.report.total)} {old.ruleset.data.points_label}")
    out.line(f"+++ {args.new}: {new.roster.name}, {fmt(new.report.total)} {label}")
    for line in d.army:
        out.line(("~ army: ", "yellow"), line)
    for u in d.removed:
        out.line(("- ", "red"), f"{u.name} [{fmt(u.before)} {old.ruleset.data.points_label}]: ", *u.changes)
    for u in d.added:
        out.line(("+ ", "green"), f"{u.name} [{fmt(u.after)} {label}]: ", *u.changes)
    for u in d.changed:
        out.line(("~ ", "yellow"), f"{u.name} [{fmt(u.before)} -> {fmt(u.after)} {label}]"
                 + (": " + "; ".join(u.changes) if u.changes else ": points only (the rules changed)"))
    if d.same:
        out.line("no changes to the army")
    delta = new.report.total - old.report.total
    out.line(("total: ", "bold"), f"{fmt(old.report.total)} -> {fmt(new.report.total)} {label}"
             + (f" ({'+' if delta > 0 else ''}{fmt(delta)})" if delta else ""))
    return EXIT_OK if d.same or not args.exit_code else EXIT_ERRORS


def cmd_cards(args, registry) -> int:
    from .cards.command import run

    _notice_version_of_file(args.roster, registry)

    return run(args, registry)


def cmd_tui(args, registry) -> int:
    from .errors import Problem, UnreadableError
    from .tui.app import run_app

    if args.roster is not None:
        try:
            _path(args.roster).exists()
        except OSError as exc:  # a name too long, a folder that cannot be searched: said before the screen opens
            raise UnreadableError(Problem(f"cannot open: {exc.strerror or exc}", file=args.roster)) from None

    return run_app(args.roster, registry)


# ---------------------------------------------------------------- entry point


def build_parser(ruleset_ids: str = "") -> argparse.ArgumentParser:
    """The command line's parser; ``ruleset_ids`` (the installed ids) is listed in `new --help`."""
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

    def command(name: str, summary: str, more: str = "") -> argparse.ArgumentParser:
        return sub.add_parser(name, parents=[common], help=summary, description=summary[0].upper() + summary[1:]
                              + "." + (" " + more if more else ""))

    roster_help = "a roster file (.toml)"
    v = command("validate", "check rosters against their ruleset's limits",
                "Each list is checked on its own. Each finding gives its severity, the unit (and line), the "
                "rule's id and a message. Match-ups are checked only when asked: --pairings FILE, or "
                "`rosterkit matchup A B`.")
    v.add_argument("rosters", nargs="*", metavar="ROSTER", help="one or more roster files (lists/*.toml)")
    v.add_argument("--json", action="store_true", help="print findings as JSON")
    v.add_argument("--strict", action="store_true",
                   help="exit 1 on warnings too (advice and readings such as a recommended army make-up), "
                        "for organisers who want every list to follow them")
    v.add_argument("--summary", action="store_true",
                   help="one line per list (file, army, ruleset, points, errors, warnings, fingerprint), "
                        "failing lists first; with --json a list of objects")
    v.add_argument("--csv", action="store_true", help="the summary as CSV, for a spreadsheet")
    v.add_argument("--pairings", metavar="FILE",
                   help="check the match-ups in FILE: one pair a line, two roster paths (relative to FILE's "
                        "folder); # starts a comment")
    v.add_argument("--allow-outside", action="store_true",
                   help="let the pairings file name rosters outside its own folder (by default it may name only "
                        "rosters in its folder or below)")
    v.set_defaults(func=cmd_validate)

    m = command("matchup", "check two rosters as a match-up (and each on its own)")
    m.add_argument("a", metavar="A", help=roster_help)
    m.add_argument("b", metavar="B", help=roster_help)
    m.add_argument("--json", action="store_true", help="print findings as JSON")
    m.add_argument("--strict", action="store_true", help="exit 1 on warnings too")
    m.set_defaults(func=cmd_matchup)

    c = command("cost", "show every point of a roster, term by term",
                "Each figure's cost term by term, each weapon and ability and where its price comes from, "
                "the unit totals, the army total and the share per type.")
    c.add_argument("roster", metavar="ROSTER", help=roster_help)
    c.add_argument("--json", action="store_true", help="print the breakdown as JSON")
    c.add_argument("--brief", action="store_true", help="only the summary tables")
    c.set_defaults(func=cmd_cost)

    n = command("new", "create an empty roster file")
    n.add_argument("--ruleset", required=True, metavar="ID",
                   help="the ruleset's id, in any case" + (f" (installed: {ruleset_ids})" if ruleset_ids else
                                                           " (rosterkit rulesets lists them)"))
    n.add_argument("--name", required=True, help="the army's name")
    n.add_argument("--points", type=_points_limit, metavar="N", help="points limit (the game's size)")
    n.add_argument("--force", action="store_true", help="replace an existing file")
    n.add_argument("file", metavar="FILE", help="the roster file to create")
    n.set_defaults(func=cmd_new)

    r = command("rulesets", "list the installed rulesets", "Each with its id, name, version, source and file.")
    r.set_defaults(func=cmd_rulesets)

    k = command("check-ruleset", "check a ruleset file and list published costs that disagree with its formulas")
    k.add_argument("files", nargs="+", metavar="FILE", help="one or more ruleset files")
    k.add_argument("--json", action="store_true", help="print the result as JSON")
    k.add_argument("--strict", action="store_true", help="exit 1 when any published number disagrees")
    k.set_defaults(func=cmd_check_ruleset)

    t = command("text", "print a roster as plain text for a forum or chat")
    t.add_argument("roster", metavar="ROSTER", help=roster_help)
    t.add_argument("--markdown", action="store_true",
                   help="Markdown (GitHub, Reddit): each unit and stat line a list item")
    t.add_argument("--compact", action="store_true",
                   help="one line per unit, its stats in a short notation (for chat and the cards' QR code)")
    t.add_argument("--no-points", action="store_true", help="no points anywhere (a secret list)")
    t.set_defaults(func=cmd_text)

    im = command("import", "read a list from its text (as `text` writes it) into a roster file",
                 "Plain, Markdown or compact text, edited by hand or not; names the ruleset does not know are "
                 "kept and reported.")
    im.add_argument("file", metavar="FILE", help="the list's text, or - for standard input")
    im.add_argument("-o", "--output", metavar="OUT", required=True, help="the roster file to write (.toml)")
    im.add_argument("--force", action="store_true", help="replace OUT if it exists (the old one is kept as .bak)")
    im.set_defaults(func=cmd_import)

    f = command("fingerprint", "print a roster's fingerprint",
                "The fingerprint comes from what the army is, not how its file looks: the same on the "
                "cards, in validate, cost and text.")
    f.add_argument("rosters", nargs="+", metavar="ROSTER", help="one or more roster files")
    f.set_defaults(func=cmd_fingerprint)

    y = command("verify", "check that a roster has a given fingerprint",
                "Exit 0 when it has, 1 naming what differs (ruleset, units, gear and stats, points) when not, "
                "2 when the fingerprint is malformed.")
    y.add_argument("roster", metavar="ROSTER", help=roster_help)
    y.add_argument("fingerprint", metavar="FINGERPRINT", help="XXXX-XXXX-XXXX-XXXX (any case, dashes optional)")
    y.set_defaults(func=cmd_verify)

    up = command("update", "record the installed ruleset's version and each unit's points in a roster",
                 "Shows the points then and now and any findings first; the file keeps its comments and layout.")
    up.add_argument("roster", metavar="ROSTER", help=roster_help)
    up.add_argument("--dry-run", action="store_true", help="show the report, write nothing")
    up.set_defaults(func=cmd_update)

    df = command("diff", "show the units added, removed and changed between two rosters",
                 "Points before and after per unit and the total. For git, see README (diff driver).")
    df.add_argument("old", metavar="OLD", help="the earlier roster file")
    df.add_argument("new", metavar="NEW", help="the later roster file")
    df.add_argument("--exit-code", action="store_true", help="exit 1 when the armies differ")
    df.set_defaults(func=cmd_diff)

    d = command("cards", "print unit record cards as a PDF")
    from .cards.command import (
        configure as configure_cards,  # argparse setup only: no reportlab
    )

    configure_cards(d)
    d.set_defaults(func=cmd_cards)

    u = command("tui", "open the terminal interface (the default)")
    u.add_argument("roster", nargs="?", metavar="ROSTER", help="a roster to open (a new one if the file does not exist)")
    u.set_defaults(func=cmd_tui)
    return p


COMMANDS = {"validate", "matchup", "cost", "new", "rulesets", "check-ruleset", "text", "import", "fingerprint", "verify",
            "update", "diff", "cards", "tui"}

# the output could not be written: a full disk or quota, an I/O error, a file grown too large
_WRITE_ERRORS = {errno.ENOSPC, errno.EIO, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}


def _internal_error(exc: Exception) -> int:
    if os.environ.get("ROSTERKIT_DEBUG"):
        raise exc
    Out(sys.stderr).line(("internal error: ", "bold red"),
                         f"{type(exc).__name__}: {exc} (set ROSTERKIT_DEBUG=1 for details)")
    return 3


class _WholeWrites(io.RawIOBase):
    """Standard output where a write is written whole or fails with the reason.

    A full disk takes part of a write and refuses the rest; Python's own unbuffered
    standard output (``python -u``, ``PYTHONUNBUFFERED``) drops the rest without a word.
    Here the rest is written again, so the refusal comes back as an error (ENOSPC).
    """

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd
        self.failed: OSError | None = None  # the first write that failed, even if its caller let it pass

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return os.isatty(self._fd)

    def write(self, data) -> int:
        view = memoryview(data).cast("B")
        done = 0
        while done < len(view):
            try:
                done += os.write(self._fd, view[done:])
            except BlockingIOError:  # a non-blocking pipe that is full: wait until it takes more
                import select

                select.select([], [self._fd], [])
            except OSError as exc:
                if self.failed is None:
                    self.failed = exc
                raise
        return done


def _whole_writes_to_stdout() -> _WholeWrites | None:
    """Output to a file or a pipe goes through :class:`_WholeWrites` (a terminal is left as it is)."""
    stream = sys.stdout
    try:
        fd = stream.fileno()
        if os.isatty(fd):
            return None
    except (AttributeError, ValueError, OSError):
        return None
    raw = _WholeWrites(fd)
    unbuffered = isinstance(getattr(stream, "buffer", None), io.RawIOBase)
    sys.stdout = io.TextIOWrapper(raw if unbuffered else io.BufferedWriter(raw), encoding=stream.encoding,
                                  errors=stream.errors, newline="\n", line_buffering=stream.line_buffering,
                                  write_through=unbuffered)
    return raw


_output_failed = False  # "cannot write the output" was said already


def _output_error(exc: OSError) -> None:
    """The one line saying the output could not be written (said once)."""
    global _output_failed
    if _output_failed:
        return
    _output_failed = True
    try:
        Out(sys.stderr).line(("error: ", "bold red"), f"cannot write the output: {exc.strerror or exc}")
    except OSError:
        pass


def run() -> None:
    """The `rosterkit` command.

    What it prints must arrive whole: output that cannot be written (a full disk, say)
    is an error, exit code 2, never a cut file with exit code 0.
    """
    raw = _whole_writes_to_stdout()
    try:
        code = main()
    except SystemExit as exc:  # --help, --version, a usage error: their output is checked too
        if exc.code is not None and not isinstance(exc.code, int):
            raise
        code = exc.code or 0
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (`| head`): not an error
        # nothing more can reach the reader; keep the interpreter from complaining at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except OSError as exc:  # a full disk, say: the output is incomplete
        _output_error(exc)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if raw is not None and raw.failed is not None and not isinstance(raw.failed, BrokenPipeError):
        _output_error(raw.failed)  # a failed write that was let pass (argparse's help, say)
    if _output_failed and code in (EXIT_OK, EXIT_ERRORS):
        code = EXIT_UNREADABLE
    raise SystemExit(code)


def _installed_ids() -> str:
    from .files.rulesets import Registry

    return ", ".join(Registry().ids())


def _mistyped_command(argv: list[str]) -> str | None:
    """A first word that is no file and reads like a command (`valdate`) is a typo, not a roster."""
    from difflib import get_close_matches

    words = [a for a in argv if not a.startswith("-")]
    if not words or os.path.exists(words[0]) or words[0].endswith(".toml") or os.sep in words[0]:
        return None
    close = get_close_matches(words[0], sorted(COMMANDS), n=1, cutoff=0.7)
    if not close:
        return None
    return f"unknown command '{words[0]}'; did you mean 'rosterkit {close[0]}'? (rosterkit --help lists them)"


def main(argv: list[str] | None = None) -> int:
    global _output_failed
    _output_failed = False
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(_installed_ids() if "new" in argv and ("-h" in argv or "--help" in argv) else "")
    # `rosterkit` alone, or `rosterkit FILE`, opens the terminal interface.
    if not any(a in COMMANDS or a in ("-h", "--help", "--version") for a in argv):
        mistyped = _mistyped_command(argv)
        if mistyped:
            Out(sys.stderr).line(("error: ", "bold red"), mistyped)
            return EXIT_UNREADABLE
        argv = ["tui", *argv]
    args = parser.parse_args(argv)
    from .errors import Problem, RosterkitError
    from .files.rulesets import Registry

    registry = Registry(getattr(args, "rulesets", []))
    try:
        return args.func(args, registry)
    except RosterkitError as exc:
        print_problems(exc)
        return EXIT_UNREADABLE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except OSError as exc:
        if exc.errno not in _WRITE_ERRORS and exc.filename is not None:  # a file named that cannot be used
            print_problems(RosterkitError(Problem(f"cannot use the file: {exc.strerror or exc}",
                                                  file=str(exc.filename))))
            return EXIT_UNREADABLE
        if exc.errno not in _WRITE_ERRORS:  # not the output failing: one of ours (below)
            return _internal_error(exc)
        _output_error(exc)
        return EXIT_UNREADABLE
    except Exception as exc:  # a bug of ours: one line, no traceback unless asked for
        return _internal_error(exc)
