"""One family of errors for everything rosterkit reads.

Loaders collect :class:`Problem` records (file, key, line, column, message,
hint) and raise a single :class:`RosterkitError` carrying all of them, so the
command line can print every problem at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .visible import visible


@dataclass(frozen=True)
class Problem:
    message: str
    file: str | None = None
    key: str | None = None
    line: int | None = None
    column: int | None = None
    source: str | None = None  # the offending text, shown with a caret under `column`
    hint: str | None = None

    def location(self) -> str:
        parts = []
        if self.file:
            parts.append(self.file + (f":{self.line}" if self.line else ""))
        if self.key:
            parts.append(self.key)
        return ", ".join(parts)

    def render(self) -> str:
        """The problem as lines for a person: where, what, the text at fault with a caret, a hint.
        Text from the file is shown with its control characters made visible."""
        loc = visible(self.location())
        out = f"{loc}: {visible(self.message)}" if loc else visible(self.message)
        if self.source is not None and self.column is not None:
            shown, caret = excerpt(self.source, self.column)
            out += f"\n    {shown}\n    {' ' * caret}^"
        if self.hint:
            out += f"\n    {visible(self.hint)}"
        return out


EXCERPT_SHOWN = 60  # characters of a file's line quoted under a message, around the place at fault


def excerpt(source: str, column: int) -> tuple[str, int]:
    """A short piece of a line around ``column``, made visible, and where the column is in it:
    a message quotes a few words of a file, never a whole line (which may be megabytes, or a
    secret in a file that was named by mistake)."""
    line = source
    column = max(0, min(column, len(line)))
    start = max(0, min(column - EXCERPT_SHOWN // 2, len(line) - EXCERPT_SHOWN))
    end = start + EXCERPT_SHOWN
    before = "..." if start > 0 else ""
    after = "..." if end < len(line) else ""
    return (before + visible(line[start:end]) + after,
            len(before) + len(visible(line[start:column])))


class RosterkitError(Exception):
    """Raised with every problem found; ``str()`` renders them all."""

    def __init__(self, problems: list[Problem] | Problem | str):
        if isinstance(problems, str):
            problems = [Problem(problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems: list[Problem] = list(problems)
        super().__init__("\n".join(p.render() for p in self.problems))


class UnreadableError(RosterkitError):
    """The file cannot be read as what it should be: missing, a folder, not UTF-8, the wrong kind."""


class FormulaError(RosterkitError):
    """A formula could not be compiled or evaluated."""


@dataclass
class ProblemList:
    """Collects problems; raise them together at the end of a load."""

    items: list[Problem] = field(default_factory=list)

    def add(self, message: str, **kw) -> None:
        self.items.append(Problem(message, **kw))

    def extend(self, problems: list[Problem]) -> None:
        self.items.extend(problems)

    def raise_if_any(self, cls: type[RosterkitError] = RosterkitError) -> None:
        if self.items:
            raise cls(self.items)

    def __bool__(self) -> bool:
        return bool(self.items)
