"""The command line: validate, cost, new, rulesets, check-ruleset, text.

Exit codes: 0 fine, 1 the roster (or ruleset) has errors, 2 an input could not be read.
"""

from __future__ import annotations

import argparse
import errno
import gc
import json
import os
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from . import __version__
from .engine.checks import discrepancies
from .engine.costing import CostReport, cost_roster, explain_lines, singular
from .engine.roster import RosterFile
from .engine.textlist import roster_text
from .engine.validation import Validation, check_matchup, validate_report
from .errors import Problem, RosterkitError, UnreadableError
from .files.figures import resolve_for_roster
from .files.rosters import LoadedRoster, load_roster, save_roster
from .files.rulesets import Registry, load_ruleset_file, user_dir
from .files.tomlfile import find_line
from .findings import Finding
from .rules.numbers import fmt, fmt_pct, to_json
from .rules.ruleset import ITEM_SINGULAR

EXIT_OK, EXIT_ERRORS, EXIT_UNREADABLE = 0, 1, 2


def _console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, highlight=False, soft_wrap=True)


# Run as the `rosterkit` command (see run()), a one-shot command's results are kept here and left
# for the process's exit to free all at once: freeing a 10,000-unit roster's objects one by
# one takes 50-100 ms of a 1.5 s validate.
_KEEP: list | None = None


def _keep(obj: object) -> None:
    if _KEEP is not None:
        _KEEP.append(obj)


def print_json(doc: object) -> None:
    """Indented for a person at a terminal; compact (and much faster) for a pipe or a file."""
    indent = 2 if sys.stdout.isatty() else None
    sys.stdout.write(json.dumps(doc, indent=indent, ensure_ascii=False) + "\n")
    _keep(doc)


def print_problems(exc: RosterkitError) -> None:
    err = _console(stderr=True)
    for p in exc.problems:
        err.print(Text("error: ", style="bold red") + Text(p.render()))


class Loaded:
    def __init__(self, registry: Registry, path: str):
        self.loaded: LoadedRoster = load_roster(path)
        try:
            self.ruleset = registry.get(self.loaded.roster.ruleset)
        except RosterkitError as exc:
            p = exc.problems[0]
            raise RosterkitError(Problem(p.message, file=path, key="ruleset",
                                         line=find_line(self.loaded.text or "", ("ruleset",)), hint=p.hint)) from None
        # units may name the player's own figures (kept in the player's folder, per ruleset)
        self.ruleset, personal = resolve_for_roster(self.ruleset, self.loaded.roster)
        self.report: CostReport = cost_roster(self.ruleset, self.loaded.roster)
        self.report.findings.extend(personal)
        _keep(self)

    @property
    def roster(self) -> RosterFile:
        return self.loaded.roster


def _with_lines(findings: list[Finding], loaded: LoadedRoster) -> list[Finding]:
    out = []
    text = loaded.text or ""
    file = str(loaded.path)
    lines: dict[tuple[int | None, str | None], int | None] = {}  # several findings point at one key
    for f in findings:
        at = (f.unit, f.field)
        if at not in lines:
            loc: tuple = ()
            if f.unit is not None:
                loc = ("units", f.unit)
                if f.field:
                    loc += tuple(int(p) if p.isdigit() else p for p in
                                 f.field.replace("[", ".").replace("]", "").split("."))
            elif f.field:
                loc = tuple(f.field.replace("[", ".").replace("]", "").split("."))
            lines[at] = find_line(text, loc) if loc else None
        out.append(f.located(file, lines[at]))
    return out


# ---------------------------------------------------------------- commands


def cmd_validate(args, registry: Registry) -> int:
    loaded = [Loaded(registry, p) for p in args.rosters]
    results: list[tuple[Loaded, Validation]] = [(lo, validate_report(lo.report)) for lo in loaded]
    _keep(results)
    matchups: list[Finding] = []
    for i in range(len(loaded)):
        for j in range(i + 1, len(loaded)):
            a, b = loaded[i], loaded[j]
            if a.ruleset.id == b.ruleset.id and a.ruleset.matchups:
                matchups.extend(check_matchup(a.ruleset, a.report, b.report))
    any_error = any(not v.ok for _, v in results) or any(f.severity == "error" for f in matchups)
    if args.json:
        doc = {
            "ok": not any_error,
            "rosters": [{
                "file": str(lo.loaded.path), "name": lo.roster.name, "ruleset": lo.ruleset.id,
                "total": to_json(v.report.total), "limit": to_json(v.report.limit),
                "ok": v.ok,
                "findings": [f.to_json() for f in _with_lines(v.findings, lo.loaded)],
                "limits": [{"id": s.id, "label": s.label, "ok": s.ok, "value": to_json(s.value),
                            "at_most": to_json(s.at_most), "at_least": to_json(s.at_least)} for s in v.limits],
            } for lo, v in results],
            "matchup": [f.to_json() for f in matchups],
        }
        print_json(doc)
        return EXIT_ERRORS if any_error else EXIT_OK
    out = _console()
    for lo, v in results:
        label = lo.ruleset.data.points_label
        limit = f" / {fmt(v.report.limit)}" if v.report.limit is not None else ""
        head = f"{lo.loaded.path}: {lo.roster.name} ({lo.ruleset.name}), {fmt(v.report.total)}{limit} {label}"
        errors = len(v.errors)
        warnings = sum(1 for f in v.findings if f.severity == "warning")
        if v.ok:
            status = Text(" valid", style="bold green")
            if warnings:
                status += Text(f" ({warnings} warning{'s' * (warnings != 1)})", style="yellow")
        else:
            status = Text(f" {errors} error{'s' * (errors != 1)}", style="bold red")
            if warnings:
                status += Text(f", {warnings} warning{'s' * (warnings != 1)}", style="yellow")
        out.print(Text(head) + Text(":") + status)
        _print_findings(out, _with_lines(v.findings, lo.loaded))
    if matchups:
        out.print(Text("Match-up:", style="bold"))
        _print_findings(out, matchups)
    elif len(results) == 2 and results[0][0].ruleset.matchups and \
            results[0][0].ruleset.id == results[1][0].ruleset.id:
        out.print(Text("Match-up: ", style="bold") + Text("balanced", style="green") +
                  Text(f" ({fmt(results[0][1].report.total)} vs {fmt(results[1][1].report.total)})"))
    return EXIT_ERRORS if any_error else EXIT_OK


_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def _print_findings(out: Console, findings: list[Finding]) -> None:
    """One line a finding, in aligned columns: severity, where, rule, message (hint below).

    Plain aligned text rather than a table: it reads the same, copies cleanly, and stays
    fast for a roster with thousands of findings.
    """
    if not findings:
        return
    rows = [(f.severity, f.where() + (f" (line {f.line})" if f.line else ""), f.rule, f) for f in findings]
    w_where = min(max(len(r[1]) for r in rows), 40)
    w_rule = min(max(len(r[2]) for r in rows), 24)
    indent = " " * (8 + w_where + 2 + w_rule + 2)
    if not out.is_terminal:  # plain text for pipes and files: no styling work for thousands of lines
        out.file.write("".join(
            f"{severity:<8}{where:<{w_where}}  {rule:<{w_rule}}  {f.message}\n"
            + (f"{indent}{f.hint}\n" if f.hint else "") for severity, where, rule, f in rows))
        return
    text = Text()
    for severity, where, rule, f in rows:
        text.append(f"{severity:<8}", style=_STYLE.get(severity, ""))
        text.append(f"{where:<{w_where}}  {rule:<{w_rule}}  {f.message}\n")
        if f.hint:
            text.append(indent + f.hint + "\n", style="dim")
    out.print(text, end="", soft_wrap=True)


def cost_json(report: CostReport) -> dict:
    rs = report.ruleset
    basis = report.limit or report.total
    return {
        "roster": report.roster.name,
        "ruleset": rs.id,
        "points_label": rs.data.points_label,
        "total": to_json(report.total),
        "total_exact": str(report.total),
        "limit": to_json(report.limit),
        "by_type": {t: {"points": to_json(p), "share": to_json(p / basis) if basis else 0}
                    for t, p in report.by_type.items()},
        "units": [{
            "index": u.index,
            "name": u.name,
            "type": u.type_id,
            "figures": u.figures,
            "total": to_json(u.total),
            "total_exact": str(u.total),
            "derived": {k: to_json(v) for k, v in u.derived.items()},
            "members": [{
                "name": m.name,
                "count": m.count,
                "terms": [{"label": t.label, "detail": t.detail, "value": to_json(t.value)} for t in m.terms],
                "figure_cost": to_json(m.figure_cost),
                "figure_cost_detail": m.total_detail,
                "items": [{"kind": ITEM_SINGULAR[i.kind], "name": i.name, "cost": to_json(i.cost),
                           "source": i.source, "note": i.note or None,
                           "formula_value": to_json(i.formula_value)} for i in m.items],
                "per_figure": to_json(m.per_figure),
                "per_figure_exact": str(m.per_figure),
                "total": to_json(m.total),
                "derived": {k: to_json(v) for k, v in m.derived.items()},
            } for m in u.members],
        } for u in report.units],
    }


def cmd_cost(args, registry: Registry) -> int:
    lo = Loaded(registry, args.roster)
    report = lo.report
    if args.json:
        print_json(cost_json(report))
        return EXIT_OK
    out = _console()
    rs = report.ruleset
    label = rs.data.points_label
    if not args.brief:
        for u in report.units:
            count = f"{u.figures} {rs.data.count_label if u.figures != 1 else singular(rs.data.count_label)}"
            table = Table(title=f"#{u.index + 1} {u.name}: {u.type_name}, {count}",
                          title_justify="left", show_header=False, box=None, padding=(0, 1))
            table.add_column("what")
            table.add_column("working", overflow="fold")
            for what, working in explain_lines(u, rs):
                if what == "Unit total":
                    table.add_row(Text(what, style="bold"), Text(working, style="bold"))
                else:
                    table.add_row(what, working)
            for d, _ in rs.unit_derived:
                table.add_row(f"{d.label}", f"{d.prefix}{fmt(u.derived.get(d.id, 0))}{d.suffix}")
            out.print(table)
            out.print()
    summary = Table(title=f"{report.roster.name} ({rs.name})", title_justify="left")
    summary.add_column("#", justify="right")
    summary.add_column("Unit")
    summary.add_column("Type")
    summary.add_column(rs.data.count_label.capitalize(), justify="right")
    summary.add_column("Each", justify="right")
    summary.add_column(label.capitalize(), justify="right")
    for u in report.units:
        each = fmt(u.members[0].per_figure) if len(u.members) == 1 else "mixed"
        summary.add_row(str(u.index + 1), u.name, u.type_name, str(u.figures), each, fmt(u.total))
    limit = f" of {fmt(report.limit)}" if report.limit is not None else ""
    summary.add_section()
    summary.add_row("", Text("Total", style="bold"), "", "", "", Text(f"{fmt(report.total)}{limit}", style="bold"))
    out.print(summary)
    basis = report.limit or report.total
    shares = Table(title=f"{label.capitalize()} by type" + (" (share of the limit)" if report.limit else ""),
                   title_justify="left")
    shares.add_column("Type")
    shares.add_column(label.capitalize(), justify="right")
    shares.add_column("Share", justify="right")
    for tdef in rs.data.types:
        pts = report.by_type[tdef.id]
        shares.add_row(tdef.name, fmt(pts), fmt_pct(pts, basis) if basis else "-")
    out.print(shares)
    return EXIT_OK


def cmd_new(args, registry: Registry) -> int:
    rs = registry.get(args.ruleset)
    path = Path(args.file)
    if path.exists() and not args.force:
        raise RosterkitError(Problem("file exists; use --force to replace it (the old one is kept as .bak)",
                                     file=str(path)))
    roster = RosterFile(name=args.name, ruleset=rs.id, points_limit=args.points)
    save_roster(roster, path)
    _console().print(f"Created {path}: {args.name} ({rs.name}"
                     + (f", {fmt(args.points)} {rs.data.points_label}" if args.points is not None else "") + ")")
    return EXIT_OK


def cmd_rulesets(args, registry: Registry) -> int:
    out = _console()
    table = Table(title="Installed rulesets", title_justify="left")
    table.add_column("id")
    table.add_column("name")
    table.add_column("version")
    table.add_column("source", overflow="fold")
    table.add_column("file", overflow="fold")
    bad = False
    for path, rs in registry.all():
        if isinstance(rs, RosterkitError):
            bad = True
            table.add_row(Text("?", style="red"), Text("cannot load (see check-ruleset)", style="red"), "", "",
                          str(path))
        else:
            table.add_row(rs.id, rs.name, rs.data.version, rs.source_line(), str(path))
    out.print(table)
    out.print(f"Your own rulesets go in {user_dir()} (or pass --rulesets DIR).")
    return EXIT_ERRORS if bad else EXIT_OK


def cmd_check_ruleset(args, registry: Registry) -> int:
    out = _console()
    code = EXIT_OK
    for file in args.files:
        try:
            rs = load_ruleset_file(file)
        except RosterkitError as exc:
            if isinstance(exc, UnreadableError):
                raise
            print_problems(exc)
            out.print(Text(f"{file}: ", style="bold") + Text(f"{len(exc.problems)} error(s)", style="bold red"))
            code = EXIT_ERRORS
            continue
        found, errors = discrepancies(rs)
        if args.json:
            print_json({"file": file, "id": rs.id, "ok": not errors, "errors": errors,
                              "discrepancies": [{"what": d.what, "name": d.name, "published": to_json(d.published),
                                                 "computed": to_json(d.computed), "how": d.how, "note": d.note}
                                                for d in found]})
        else:
            for e in errors:
                out.print(Text("error: ", style="bold red") + Text(e))
            head = Text(f"{file}: {rs.id} ({rs.name}) ", style="bold")
            head += Text("has errors" if errors else "ok", style="bold red" if errors else "bold green")
            head += Text(f"; {len(rs.data.stats)} stats, {len(rs.data.types)} types, "
                         f"{sum(len(getattr(rs.data, k)) for k in ('weapons', 'abilities', 'equipment'))} "
                         f"catalogue items, {len(rs.data.figures)} figures, {len(rs.limits)} limits")
            out.print(head)
            if found:
                table = Table(title="Published numbers that disagree", title_justify="left")
                table.add_column("entry")
                table.add_column("printed", justify="right")
                table.add_column("other", justify="right")
                table.add_column("from")
                table.add_column("note", overflow="fold")
                for d in found:
                    table.add_row(f"{d.what}: {d.name}", fmt(d.published),
                                  fmt(d.computed) if d.computed is not None else "-", d.how,
                                  d.note or Text("not acknowledged in the data", style="yellow"))
                out.print(table)
        if errors or (args.strict and found):
            code = EXIT_ERRORS
    return code


def cmd_text(args, registry: Registry) -> int:
    lo = Loaded(registry, args.roster)
    valid = validate_report(lo.report).ok
    sys.stdout.write(roster_text(lo.report, markdown=args.markdown, valid=valid))
    return EXIT_OK


# ---------------------------------------------------------------- entry point


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--rulesets", metavar="DIR", action="append", default=argparse.SUPPRESS,
                        help="also look for rulesets in DIR (may be repeated)")
    p = argparse.ArgumentParser(
        prog="rosterkit", parents=[common],
        description="Design figures, build armies, validate lists and print unit cards for tabletop wargames.",
        epilog="Exit codes: 0 fine, 1 the roster has errors, 2 an input could not be read.")
    p.add_argument("--version", action="version", version=f"rosterkit {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    v = sub.add_parser("validate", parents=[common], help="check rosters against their ruleset's limits")
    v.add_argument("rosters", nargs="+", metavar="ROSTER")
    v.add_argument("--json", action="store_true", help="print findings as JSON")
    v.set_defaults(func=cmd_validate)

    c = sub.add_parser("cost", parents=[common], help="show every point of a roster, term by term")
    c.add_argument("roster", metavar="ROSTER")
    c.add_argument("--json", action="store_true", help="print the breakdown as JSON")
    c.add_argument("--brief", action="store_true", help="only the summary tables")
    c.set_defaults(func=cmd_cost)

    n = sub.add_parser("new", parents=[common], help="create an empty roster file")
    n.add_argument("--ruleset", required=True, metavar="ID")
    n.add_argument("--name", required=True)
    n.add_argument("--points", type=int, metavar="N", help="points limit")
    n.add_argument("--force", action="store_true", help="replace an existing file")
    n.add_argument("file", metavar="FILE")
    n.set_defaults(func=cmd_new)

    r = sub.add_parser("rulesets", parents=[common], help="list the installed rulesets")
    r.set_defaults(func=cmd_rulesets)

    k = sub.add_parser("check-ruleset", parents=[common],
                       help="check a ruleset file and list published costs that disagree with its formulas")
    k.add_argument("files", nargs="+", metavar="FILE")
    k.add_argument("--json", action="store_true")
    k.add_argument("--strict", action="store_true", help="exit 1 when any published number disagrees")
    k.set_defaults(func=cmd_check_ruleset)

    t = sub.add_parser("text", parents=[common], help="print a roster as plain text for a forum or chat")
    t.add_argument("roster", metavar="ROSTER")
    t.add_argument("--markdown", action="store_true", help="Markdown instead of plain text")
    t.set_defaults(func=cmd_text)

    d = sub.add_parser("cards", parents=[common], help="print unit record cards as a PDF")
    from .cards.command import configure as configure_cards
    configure_cards(d)
    d.set_defaults(func=cmd_cards)

    u = sub.add_parser("tui", parents=[common], help="open the terminal interface (the default)")
    u.add_argument("roster", nargs="?", metavar="ROSTER")
    u.set_defaults(func=cmd_tui)
    return p


def cmd_cards(args, registry: Registry) -> int:
    from .cards.command import run

    return run(args, registry)


def cmd_tui(args, registry: Registry) -> int:
    from .tui.app import run_app

    return run_app(args.roster, registry)


COMMANDS = {"validate", "cost", "new", "rulesets", "check-ruleset", "text", "cards", "tui"}


# the output could not be written: a full disk or quota, an I/O error, a file grown too large
_WRITE_ERRORS = {errno.ENOSPC, errno.EIO, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}


def _internal_error(exc: Exception) -> int:
    if os.environ.get("ROSTERKIT_DEBUG"):
        raise exc
    _console(stderr=True).print(Text("internal error: ", style="bold red") +
                                Text(f"{type(exc).__name__}: {exc} (set ROSTERKIT_DEBUG=1 for details)"))
    return 3


def run() -> None:
    """The `rosterkit` command: :func:`main`, then a one-shot command leaves without freeing its
    objects one by one (the interface exits as usual)."""
    global _KEEP
    _KEEP = []
    code = main()
    if not _one_shot_ran:
        raise SystemExit(code)
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (`| head`): not an error
        pass
    except OSError as exc:  # a full disk, say: the output is incomplete
        print(f"error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        code = code or EXIT_UNREADABLE
    try:
        sys.stderr.flush()
    except OSError:
        pass
    os._exit(code)


_one_shot_ran = False


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    # `rosterkit` alone, or `rosterkit FILE`, opens the terminal interface.
    if not any(a in COMMANDS or a in ("-h", "--help", "--version") for a in argv):
        argv = ["tui", *argv]
    args = parser.parse_args(argv)
    registry = Registry(getattr(args, "rulesets", []))
    # A one-shot command builds many small objects and no reference cycles worth collecting:
    # the cyclic collector's passes over them cost a third of a 10,000-unit validate
    # (2.7 s -> 2.1 s) and freed no memory. It stays on in the interface, which runs for long.
    global _one_shot_ran
    _one_shot_ran = args.func is not cmd_tui
    collecting = gc.isenabled() and _one_shot_ran
    if collecting:
        gc.disable()
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
        if exc.errno not in _WRITE_ERRORS:  # not the output failing: one of ours (below)
            return _internal_error(exc)
        try:
            _console(stderr=True).print(Text("error: ", style="bold red") +
                                        Text(f"cannot write the output: {exc.strerror or exc}"))
        except OSError:
            pass
        return EXIT_UNREADABLE
    except Exception as exc:  # a bug of ours: one line, no traceback unless asked for
        return _internal_error(exc)
    finally:
        if collecting:
            gc.enable()
