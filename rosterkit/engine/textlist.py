"""A roster as plain text or Markdown, for posting to a forum or chat."""

from __future__ import annotations

from ..rules.numbers import fmt
from ..rules.ruleset import ITEM_KINDS
from ..rules.stats import coerce, display
from ..visible import visible
from .costing import CostReport
from .display import (
    extra_rows,
    line_labels,
    shown_derived,
    special_label,
    stat_text,
    written,
    written_weapon,
)
from .fingerprint import fingerprint


def roster_text(report: CostReport, markdown: bool = False, valid: bool | None = None, compact: bool = False,
                points: bool = True) -> str:
    """The list in the forum convention: a header ``++ Army [ruleset] [N pts] ++``, the units by type,
    one line each (``Unit [N pts]: 10x Spearmen, Bow, Fearless``) with its stats below, the total,
    then the fingerprint. ``compact``: one line per unit and no stats (for chat); ``points=False``:
    no points anywhere (a secret list); ``markdown``: list items, so each line stays a line."""
    rs, roster = report.ruleset, report.roster
    pts = _pts(rs)
    limit = f" / {fmt(report.limit)}" if report.limit is not None else ""
    lines: list[str] = []
    title = f"++ {roster.name} [{rs.name}]" + (f" [{fmt(report.total)}{limit} {pts}]" if points else "") + " ++"
    lines.append(f"**{title}**" if markdown else title)
    settings = []
    for sid, sdef in rs.roster_stats.items():
        if sid in roster.stats:
            value, _ = coerce(sdef, roster.stats[sid])
            settings.append(f"{sdef.label}: {display(sdef, value)}")
    if compact:
        if settings:
            lines.append("; ".join(settings))
    else:
        lines.extend(f"{'- ' if markdown else ''}{line}" for line in settings)
        if valid is not None:
            if markdown:
                lines.append("")  # a paragraph of its own, not joined to the settings above
            lines.append("Valid list." if valid else "NOT VALID: see `rosterkit validate`." if markdown else
                         "NOT VALID: see rosterkit validate.")
    groups = [(tdef.name, tdef.id, [u for u in report.units if u.type_id == tdef.id]) for tdef in rs.data.types]
    groups.append(("Unknown type", None, [u for u in report.units if u.type_id is None]))
    for name, tid, units in groups:
        if not units:
            continue
        if not compact:
            lines.append("")
            head = name + (f" [{fmt(report.by_type[tid])} {pts}]" if points and tid is not None else "")
            lines.append(f"**{head}**" if markdown else head)
            if markdown:
                lines.append("")
        for u in units:
            lines.extend(_unit_lines(report, u, markdown, compact, points))
    if not compact:
        lines.append("")
    end = "  " if markdown else ""  # two trailing spaces: a line break in Markdown
    if points:
        lines.append(f"Total: {fmt(report.total)}{limit} {pts}{end}")
    lines.append(f"Fingerprint: {fingerprint(report).code}")
    return "".join(visible(line) + "\n" for line in lines)  # names from the file cannot send controls


def compact_text(report: CostReport) -> str:
    """The list in one line per unit, without stats: for chat, or a QR code on the cards' summary page."""
    return roster_text(report, compact=True)


def _pts(rs) -> str:
    label = rs.data.points_label
    return "pts" if label == "points" else label


def _gear(rs, m) -> list[str]:
    """The figure's items by name, a weapon as the book writes it ("Fire Pot (2/D6)")."""
    return [written_weapon(rs, it).name if kind == "weapons" else it.name
            for kind in ITEM_KINDS for it in m.items if it.kind == kind]


def _special(rs, label: str, m) -> str:
    """The figure's Special line as a stat block prints it: abilities, then its weapons' marks."""
    marks = [mark for it in m.items if it.kind == "weapons" for mark in written_weapon(rs, it).specials]
    abilities = [it.name for it in m.items if it.kind == "abilities"]
    return f"{label}: " + ", ".join(dict.fromkeys([*abilities, *marks])) if abilities or marks else ""


def _unit_line(rs, u, points: bool, pts: str) -> str:
    """``Unit [N pts]: 10x Spearmen, Bow, Fearless`` (members of a mixed unit apart by "; ")."""
    members = []
    for m in u.members:
        what = m.name or u.name
        who = [f"{m.count}x {what}"] if m.count != 1 else [] if what == u.name else [what]
        members.append(", ".join([*who, *_gear(rs, m)]))
    head = u.name + (f" [{fmt(u.total)} {pts}]" if points else "")
    listed = "; ".join(m for m in members if m)
    return f"{head}: {listed}" if listed else head


def _unit_lines(report: CostReport, u, markdown: bool, compact: bool = False, points: bool = True) -> list[str]:
    """A unit: its line, then (unless compact) one line each for its stats (in Markdown, items of a
    nested list, so that each shows as a line of its own)."""
    rs = report.ruleset
    line = _unit_line(rs, u, points, _pts(rs))
    if markdown:
        name, colon, rest = line.partition(": ")
        line = f"- **{name}**{colon}{rest}"
    out = [line]
    if compact:
        return out
    inner = "    - " if markdown else "    "
    labels = line_labels(rs)
    special = special_label(rs)
    for m in u.members:
        stats = stat_text(rs, u, m)
        prefix = f"{m.name or u.name}: " if len(u.members) > 1 else ""
        out.append(f"{inner}{prefix}{stats}")
        if special and _special(rs, special, m):
            out.append(f"{inner}{_special(rs, special, m)}")
        for label, values in extra_rows(rs, u, m):
            given = [(c, v) for c, v in zip(labels, values) if v]  # a row fills only some columns
            out.append(f"{inner}{label}: " + written(rs, [c for c, _ in given], [v for _, v in given]))
        derived = shown_derived(rs, m)
        if derived:
            out.append(inner + "; ".join(f"{lab}: {val}" for lab, val in derived))
    return out
