"""A roster as plain text or Markdown, for posting to a forum or chat."""

from __future__ import annotations

from ..rules.numbers import fmt
from ..rules.ruleset import ITEM_KINDS
from ..rules.stats import coerce, display
from ..visible import visible
from .costing import CostReport
from .display import extra_rows, shown_derived, stat_line, stat_text


def roster_text(report: CostReport, markdown: bool = False, valid: bool | None = None) -> str:
    rs, roster = report.ruleset, report.roster
    label = rs.data.points_label
    limit = f" / {fmt(report.limit)}" if report.limit is not None else ""
    lines: list[str] = []
    title = f"{roster.name} ({rs.name}): {fmt(report.total)}{limit} {label}"
    lines.append(f"# {title}" if markdown else title)
    for sid, sdef in rs.roster_stats.items():
        if sid in roster.stats:
            value, _ = coerce(sdef, roster.stats[sid])
            lines.append(f"{'- ' if markdown else ''}{sdef.label}: {display(sdef, value)}")
    if valid is not None:
        if markdown:
            lines.append("")  # a paragraph of its own, not joined to the settings above
        lines.append("Valid list." if valid else "NOT VALID: see `rosterkit validate`." if markdown else
                     "NOT VALID: see rosterkit validate.")
    for tdef in rs.data.types:
        units = [u for u in report.units if u.type_id == tdef.id]
        if not units:
            continue
        lines.append("")
        pts = fmt(report.by_type[tdef.id])
        lines.append(f"## {tdef.name} ({pts} {label})" if markdown else f"{tdef.name} ({pts} {label})")
        for u in units:
            lines.extend(_unit_lines(report, u, markdown))
    orphans = [u for u in report.units if u.type_id is None]
    if orphans:
        lines.append("")
        lines.append("## Unknown type" if markdown else "Unknown type")
        for u in orphans:
            lines.extend(_unit_lines(report, u, markdown))
    return "".join(visible(line) + "\n" for line in lines)  # names from the file cannot send controls


def _unit_lines(report: CostReport, u, markdown: bool) -> list[str]:
    """A unit: a line with its points, then one line each for its stats and gear (in Markdown,
    items of a nested list, so that each shows as a line of its own)."""
    rs = report.ruleset
    label = rs.data.points_label
    out = []
    bullet = "- " if markdown else "* "
    inner = "    - " if markdown else "    "
    head = f"{u.name} x{u.figures}" if u.figures != 1 else u.name
    out.append(f"{bullet}{'**' + head + '**' if markdown else head}: {fmt(u.total)} {label}")
    for m in u.members:
        stats = stat_text(rs, u, m)
        prefix = f"{m.name} x{m.count}: " if len(u.members) > 1 else ""
        out.append(f"{inner}{prefix}{stats}")
        for label, values in extra_rows(rs, u, m):
            cols = [lab for lab, _ in stat_line(rs, u, m)]
            out.append(f"{inner}{label}: " + " ".join(f"{c} {v}" for c, v in zip(cols, values)))
        derived = shown_derived(rs, m)
        if derived:
            out.append(inner + "; ".join(f"{lab}: {val}" for lab, val in derived))
        gear = [it.name for kind in ITEM_KINDS for it in m.items if it.kind == kind]
        if gear:
            out.append(f"{inner}{', '.join(gear)}")
    return out
