"""A roster as plain text or Markdown, for posting to a forum or chat."""

from __future__ import annotations

import re

from ..rules.numbers import fmt
from ..rules.ruleset import ITEM_KINDS, ITEM_SINGULAR
from ..rules.stats import coerce, display
from ..visible import visible
from .costing import CostReport
from .display import (
    counted,
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
                points: bool = True, stats: bool = True) -> str:
    """The list in the forum convention: a header ``++ Army [ruleset] [N pts] ++``, the units by type,
    one line each (``Unit [N pts]: 10x Spearmen, Bow, Fearless``) with its stats below, the total,
    then the fingerprint. ``compact``: one line per unit under its type's name, the stats the
    list gives each figure in the stat notation (``{move=6 defense=9}``), for chat and the cards' QR
    code; ``points=False``: no points anywhere (a secret list); ``markdown``: list items, so each
    line stays a line. Every form carries what reading it back needs (``engine.textread``): stats
    no stat line shows, the list's own items, its house prices. ``stats=False`` (compact only):
    names without the stat notation, for a QR code the whole list would not fit."""
    rs, roster = report.ruleset, report.roster
    md = markdown_text if markdown else _same
    pts = _pts(rs)
    limit = f" / {fmt(report.limit)}" if report.limit is not None else ""
    lines: list[str] = []
    title = f"++ {md(roster.name)} [{md(rs.name)}]" + (f" [{fmt(report.total)}{limit} {md(pts)}]" if points else "") \
        + " ++"
    lines.append(f"**{title}**" if markdown else title)
    settings = []
    for sid, sdef in rs.roster_stats.items():
        if sid in roster.stats:
            value, _ = coerce(sdef, roster.stats[sid])
            settings.append(f"{sdef.label}: {display(sdef, value)}")
    if roster.house_prices:  # prices agreed for the game: they are part of the army's points
        settings.append(f"House prices:{_notation(roster.house_prices)}")
    if compact:
        if settings:
            lines.append(md("; ".join(settings)))
    else:
        lines.extend(f"{'- ' if markdown else ''}{md(line)}" for line in settings)
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
        if compact:
            lines.append(md(name))
        else:
            lines.append("")
            head = md(name) + (f" [{fmt(report.by_type[tid])} {md(pts)}]" if points and tid is not None else "")
            lines.append(f"**{head}**" if markdown else head)
            if markdown:
                lines.append("")
        for u in units:
            lines.extend(_unit_lines(report, u, markdown, compact, points, stats))
    own = [f"Own {ITEM_SINGULAR[kind]}: {md(it.name)}{_notation(_own_values(it), markdown)}"
           for kind in ITEM_KINDS for it in getattr(roster, kind)]
    if own:
        if not compact:
            lines.append("")
        lines.extend(f"- {line}" if markdown else line for line in own)
    if not compact:
        lines.append("")
    end = "  " if markdown else ""  # two trailing spaces: a line break in Markdown
    if points:
        lines.append(f"Total: {fmt(report.total)}{limit} {md(pts)}{end}")
    lines.append(f"Fingerprint: {fingerprint(report).code}")
    # names from the file cannot send controls, nor call everyone in a chat
    return "".join(no_mentions(visible(line)) + "\n" for line in lines)


# Markdown that a name could start: emphasis, code, links and images, HTML, tables, strike,
# superscript, math, entities (the backslash escapes of CommonMark, GitHub and Reddit)
_MD_ANYWHERE = re.compile(r"([\\`*_\[\]<>#|~&^$])")
# at the start of a line's text: a list item or heading underline ("- x"), a numbered item ("1. x")
_MD_START = re.compile(r"^(\s*)([-+=])|^(\s*\d+)([.)])")


def markdown_text(text: str) -> str:
    """Text from a file as Markdown that shows it as written: every character that could make
    a link, an image, emphasis, HTML or a list escaped with a backslash."""
    text = _MD_ANYWHERE.sub(r"\\\1", text)
    return _MD_START.sub(lambda m: f"{m.group(1)}\\{m.group(2)}" if m.group(2) else f"{m.group(3)}\\{m.group(4)}",
                         text)


def no_mentions(text: str) -> str:
    """``@everyone``, ``@here``, ``@name`` and ``<@id>`` shown, not calling anyone: a zero-width
    space after each @ that starts a word (the way chat services quote a mention)."""
    return _MENTION.sub("@\u200b", text) if "@" in text else text


_MENTION = re.compile(r"@(?=[^\s\u200b])")


def _same(text: str) -> str:
    return text


def compact_text(report: CostReport, stats: bool = True) -> str:
    """The list in one line per unit, its stats in the short notation (``stats=False``: without
    them): for chat, or a QR code on the cards' summary page."""
    return roster_text(report, compact=True, stats=stats)


def stat_notation(value) -> str:
    """A stored value as the stat notation writes it: ``6``, ``yes``, ``D10``, ``a|b``, ``"two words"``."""
    if isinstance(value, bool):
        text = "yes" if value else "no"
    elif isinstance(value, (list, tuple)):
        text = "|".join(str(v) for v in value)
    else:
        text = str(value)
    if not text or _QUOTED.search(text):
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return text


_QUOTED = re.compile(r'[\s,;{}="\\]')


def _notation(values: dict, markdown: bool = False) -> str:
    """`` {move=6 defense=9}``: the values a list gives a figure (or its own item), "" for none."""
    if not values:
        return ""
    text = "{" + " ".join(f"{stat_notation(k)}={stat_notation(v)}" for k, v in values.items()) + "}"
    return " " + (markdown_text(text) if markdown else text)


def _own_values(item) -> dict:
    values = dict(item.stats)
    if item.cost is not None:
        values["cost"] = item.cost
    if item.allowed_types:
        values["allowed_types"] = list(item.allowed_types)
    return values


def hidden_stats(rs) -> frozenset[str]:
    """The stats a stat line never shows (no card column, row or shown value reads them): a text
    list gives them in the stat notation, so that the list read back is the same army."""
    card = rs.data.card
    texts = [c.show for c in card.columns] + [v for row in card.rows for v in row.values]
    derived = {d.id: d for d in rs.data.derived}
    read = set()
    pending = " ".join(texts) + " " + " ".join(d.expr for d in derived.values() if d.show)
    while pending:
        words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", pending)) - read
        read |= words
        pending = " ".join(derived[w].expr for w in words if w in derived)
    if not card.columns:
        return frozenset()
    return frozenset(sid for sid in rs.stats if sid not in read and f"{sid}_die" not in read)


def _pts(rs) -> str:
    label = rs.data.points_label
    return "pts" if label == "points" else label


def _gear(rs, m) -> list[str]:
    """The figure's items by name, a weapon as the book writes it ("Fire Pot (2/D6)")."""
    return counted([written_weapon(rs, it, m).name if kind == "weapons" else it.name
                    for kind in ITEM_KINDS for it in m.items if it.kind == kind])


def _special(rs, label: str, m) -> str:
    """The figure's Special line as a stat block prints it: abilities, then its weapons' marks."""
    marks = [mark for it in m.items if it.kind == "weapons" for mark in written_weapon(rs, it, m).specials]
    abilities = counted([it.name for it in m.items if it.kind == "abilities"])
    return f"{label}: " + ", ".join(dict.fromkeys([*abilities, *marks])) if abilities or marks else ""


def _unit_line(rs, u, points: bool, pts: str, markdown: bool = False, given: list[dict] | None = None) -> str:
    """``Unit [N pts]: 10x Spearmen, Bow, Fearless`` (members of a mixed unit apart by "; ");
    in Markdown ``- **Unit [N pts]**: ...``, the names escaped. ``given``: each figure's values
    written in the stat notation after it (``{move=6 defense=9}``)."""
    md = markdown_text if markdown else _same
    members = []
    for i, m in enumerate(u.members):
        what = m.name or u.name
        who = [f"{m.count}x {md(what)}"] if m.count != 1 else [] if what == u.name else [md(what)]
        values = _notation(given[i], markdown) if given and i < len(given) else ""
        members.append((", ".join([*who, *map(md, _gear(rs, m))]) + values).lstrip())
    head = md(u.name) + (f" [{fmt(u.total)} {md(pts)}]" if points else "")
    if markdown:
        head = f"- **{head}**"
    listed = "; ".join(m for m in members if m)
    return f"{head}: {listed}" if listed else head


def _unit_lines(report: CostReport, u, markdown: bool, compact: bool = False, points: bool = True,
                stats: bool = True) -> list[str]:
    """A unit: its line, then (unless compact) one line each for its stats (in Markdown, items of a
    nested list, so that each shows as a line of its own)."""
    rs = report.ruleset
    hidden = None if compact else hidden_stats(rs)
    given = [{k: v for k, v in m.stats.items() if hidden is None or k in hidden}
             for m in report.roster.units[u.index].member_list()] \
        if stats and u.index < len(report.roster.units) else None
    out = [_unit_line(rs, u, points, _pts(rs), markdown, given)]
    if compact:
        return out
    inner = "    - " if markdown else "    "
    md = markdown_text if markdown else _same
    out.extend(inner + md(line) for line in detail_lines(rs, u))
    return out


def detail_lines(rs, u) -> list[str]:
    """The lines a full list writes under a unit: each figure's stats, its Special line, the
    ruleset's extra rows and shown derived values (as plain text; ``engine.textread`` reads them
    back by writing a candidate unit the same way)."""
    out = []
    labels = line_labels(rs)
    special = special_label(rs)
    unlisted = {row.label for row in rs.data.card.rows if not row.in_lists}  # (rows for the cards alone)
    for m in u.members:
        prefix = f"{m.name or u.name}: " if len(u.members) > 1 else ""
        out.append(f"{prefix}{stat_text(rs, u, m)}")
        if special and _special(rs, special, m):
            out.append(_special(rs, special, m))
        for label, values in extra_rows(rs, u, m):
            if label in unlisted:
                continue
            given = [(c, v) for c, v in zip(labels, values) if v]  # a row fills only some columns
            if not given:  # (nothing for this figure: an archer's melee die, not a spearman's)
                continue
            out.append(f"{label}: " + written(rs, [c for c, _ in given], [v for _, v in given]))
        derived = shown_derived(rs, m)
        if derived:
            out.append("; ".join(f"{lab}: {val}" for lab, val in derived))
    return out
