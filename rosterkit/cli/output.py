"""What the commands share: output styled at a terminal and plain otherwise, findings,
version changes, the exit codes."""

from __future__ import annotations

import sys

from ..visible import json_text, plain, visible

EXIT_OK, EXIT_ERRORS, EXIT_UNREADABLE = 0, 1, 2


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


def as_path(name: str):
    from pathlib import Path  # not at the top: `rosterkit --help` needs no pathlib

    return Path(name)


def version_change_json(change) -> dict:
    from ..rules.numbers import to_json

    return {"recorded": change.recorded, "installed": change.installed,
            "total_then": to_json(change.total_then), "total_now": to_json(change.total_now),
            "units": [{"index": c.index, "name": c.name, "then": c.then, "now": to_json(c.now)}
                      for c in change.units if c.changed]}


def print_version_change(out: Out, opened) -> None:
    """The points each unit had when the roster was saved against an older ruleset, and now."""
    from ..rules.numbers import fmt

    change = opened.version_change
    if change is None:
        return
    out.line((f"  saved with {opened.ruleset.name} version {change.recorded}; version {change.installed} is installed:",
              "yellow"))
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

