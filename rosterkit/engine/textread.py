"""Reading a list back from the text rosterkit writes (``text``, ``--markdown``, ``--compact``).

The text is untrusted and may have been edited by a person: names are matched as the ruleset
matches them (case and spacing folded, aliases), dashes, quotes, tabs, bullets and bold are
taken as the person meant them, and a stat line is read back by finding the stat values that
print it. A line that cannot be read is an error naming it and what was expected; a name the
ruleset does not know stays in the roster, where validation reports it.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher, get_close_matches
from fractions import Fraction

from ..errors import Problem, RosterkitError
from ..rules.numbers import fmt, parse_number
from ..rules.ruleset import ITEM_KINDS, ITEM_SINGULAR, SUGGEST_FROM, Ruleset, norm
from ..rules.stats import coerce, kind_of
from .costing import Costing, FigureShelf, resolve_type
from .display import (
    line_labels,
)
from .roster import LocalItem, Member, RosterFile, Unit
from .textlist import detail_lines

MAX_LINES = 50_000  # a list of 20,000 units at most (files/rosters.MAX_UNITS) and their stat lines
MAX_LINE = 20_000  # characters in one line
SEARCH_ROUNDS = 4  # passes over a figure's stats when its stat line is read back
MAX_TRIALS = 200_000  # stat values tried for a whole list (a list's units alike are read once)

# what a person's keyboard or word processor puts for the characters the text is written with
_SAME = str.maketrans({"\t": " ", "\u00a0": " ", "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2010": "-",
                       "\u2011": "-", "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00d7": "x"})
_MD_ESCAPED = re.compile(r"\\([\\`*_\[\]<>#|~&^$\-+=.)])")  # what textlist.markdown_text escapes
_HEADER = re.compile(r"^\+\+\s*(?P<body>.*?)\s*\+\+$")
_BRACKETS = re.compile(r"\s*\[(?P<inner>[^\[\]]*)\]\s*$")
_POINTS = re.compile(r"^\s*(?P<total>[-+]?[0-9][0-9.,eE+-]*)\s*(?:/\s*(?P<limit>[-+]?[0-9][0-9.,eE+-]*))?"
                     r"\s*(?P<label>.*)$")
_BULLET = re.compile(r"^[-*+]\s+")
_COUNT = re.compile(r"^(?P<n>\d+)\s*x\s+(?P<what>.+)$", re.IGNORECASE)
_LEVEL = re.compile(r"\((?P<label>[^()\d]+?)\s+(?P<n>\d{1,6})\)\s*$")
_UNIT_POINTS = re.compile(r"\s\[(?P<inner>[^\[\]]*)\](?=:|$)")
_STATS = re.compile(r"\s*\{(?P<body>[^{}]*)\}\s*$")
_PAIR = re.compile(r'\s*(?:(?P<key>[A-Za-z_][A-Za-z0-9_]*)|"(?P<qkey>(?:[^"\\]|\\.)*)")\s*[=:]\s*(?:"(?P<q>(?:[^"\\]|\\.)*)"|(?P<v>[^\s"]+))\s*,?')
_FINGERPRINT = re.compile(r"^fingerprint\s*:\s*(?P<code>[0-9A-Za-z-]+)\s*$", re.IGNORECASE)
_OWN = re.compile(r"^own\s+(?P<kind>weapon|ability|equipment)\s*:\s*(?P<name>.+)$", re.IGNORECASE)
_TOTAL = re.compile(r"^total\s*:", re.IGNORECASE)
_VALIDITY = re.compile(r"^(valid list\.?|not valid\b.*)$", re.IGNORECASE)
UNKNOWN_TYPE = "Unknown type"


@dataclass
class _MemberText:
    line: int
    count: int
    what: str | None  # the figure or member name written, None: the unit's own
    gear: list[str]
    stats: dict[str, str] | None  # the compact notation's stored values, None: not given


@dataclass
class _UnitText:
    line: int
    name: str
    type_id: str | None
    members: list[_MemberText]
    stat_lines: list[tuple[int, str]] = field(default_factory=list)
    points: str | None = None  # the unit's points as written


@dataclass
class ReadList:
    """A list read back: the roster, the fingerprint the text gave (None: none), and notes for the player."""

    roster: RosterFile
    written_fingerprint: str | None
    notes: list[str]


def _error(message: str, line: int | None, file: str, hint: str | None = None) -> RosterkitError:
    return RosterkitError(Problem(message, file=file, line=line, hint=hint))


def _clean(line: str) -> str:
    # a zero-width space after an @ is how the text keeps a name from calling anyone
    return line.translate(_SAME).replace("@\u200b", "@").replace("\ufeff", "")


def _markdown(line: str) -> str:
    """A Markdown line as the plain text: bullet, bold and backslash escapes taken off."""
    text = line.strip()
    text = re.sub(r"^[-*+]\s+", "", text)
    text = re.sub(r"(?<!\\)\*\*", "", text)
    return _MD_ESCAPED.sub(r"\1", text).strip()


def _number(text: str, what: str, line: int, file: str):
    try:
        return parse_number(text.replace(",", ""))
    except ValueError as exc:
        raise _error(f"{what}: {exc}", line, file) from None


def _ruleset(name: str, registry, line: int, file: str) -> Ruleset:
    """The installed ruleset the header names, by its name or its id, in any case."""
    wanted = norm(name)
    titles = registry.titles()
    named = [rid for rid, title in titles if wanted in (norm(title), norm(rid))]
    # the rulesets whose files give that name first: compiling is what costs (a file may still
    # compile to another name, so the others follow)
    for rid in dict.fromkeys(named + [rid for rid, _ in titles]):
        try:
            rs = registry.get(rid)
        except RosterkitError:
            continue
        if wanted in (norm(rs.name), norm(rs.id)):
            return rs
    installed = []
    for rid in registry.ids():
        try:
            installed.append(registry.get(rid).name)
        except RosterkitError:
            continue
    raise _error(f"the list is for the ruleset '{name}', which is not installed", line, file,
                 "installed: " + ", ".join(installed) if installed else None)


def _raw_value(sdef, text: str):
    """Text of a stat value (as the compact notation or a settings line writes it) -> the raw value."""
    kind = kind_of(sdef).name
    low = text.strip().casefold()
    if kind == "flag":
        return {"yes": True, "true": True, "no": False, "false": False}.get(low, text)
    if kind == "choices":
        return [part.strip() for part in re.split(r"[|,]", text) if part.strip()]
    if kind in ("int", "number", "die") and re.fullmatch(r"\s*[-+]?[0-9][0-9.eE+-]*\s*", text):
        try:
            value = parse_number(text.strip())
        except ValueError:
            return text
        if kind == "die" or (isinstance(value, int) and not re.search(r"[.eE]", text)):
            return value
        return float(Fraction(value))  # written as a decimal: a float, as the roster file had it
    return kind_of(sdef).from_input(sdef, text)


def _stat(sdef, text: str, line: int, file: str, where: str, notes: list[str] | None = None):
    raw = _raw_value(sdef, text)
    value, problem = coerce(sdef, raw)
    if problem is not None and notes is not None:  # a figure's value is kept as written: validation reports it
        notes.append(f"line {line}: {where}: {sdef.label} '{text}' kept as written ({problem})")
        return raw if value is None else kind_of(sdef).stored(sdef, raw, value)
    if problem is not None and value is None:  # a value out of bounds is kept: validation reports it
        raise _error(f"{where}: {sdef.label} '{text}' cannot be read: {problem}", line, file,
                     f"expected {kind_of(sdef).expected(sdef)}")
    return kind_of(sdef).stored(sdef, raw, value)


class _Reader:
    def __init__(self, text: str, registry, file: str, shelf_for=None):
        self.file = file
        self.registry = registry
        self.shelf_for = shelf_for
        self.notes: list[str] = []
        self.alike: dict[tuple, Unit] = {}
        self.trials = 0
        raw_lines = text.split("\n")
        if len(raw_lines) > MAX_LINES:
            raise _error(f"too many lines ({len(raw_lines):,}; at most {MAX_LINES:,})", None, file)
        self.lines: list[tuple[int, str, bool]] = []  # (line number, text, indented)
        # Markdown: a bold header, or bold units in list items (the escapes are undone only then)
        markdown = bool(re.search(r"^\s*(?:\*\*\s*\+\+|[-*+]\s+\*\*)", text, re.MULTILINE))
        for n, raw in enumerate(raw_lines, 1):
            if len(raw) > MAX_LINE:
                raise _error(f"line too long ({len(raw):,} characters; at most {MAX_LINE:,})", n, file)
            line = _clean(raw.rstrip("\r"))
            if not line.strip():
                continue
            indented = line.startswith((" ", "\t")) or bool(re.match(r"^\s{2,}[-*+]\s", line))
            text = _markdown(line) if markdown else line.strip()
            if markdown and not text:
                continue
            self.lines.append((n, text, indented))
        self.markdown = markdown
        self.compact = not any(indented for _, _, indented in self.lines)

    def read(self) -> ReadList:
        if not self.lines:
            raise _error("the text is empty: expected a list as `rosterkit text` writes it", None, self.file,
                         "the first line is the header: ++ Army name [Ruleset] [points] ++")
        n, first, _ = self.lines[0]
        head = _HEADER.match(first)
        if head is None:
            raise _error(f"expected the header '++ Army name [Ruleset] [points] ++', found '{first[:80]}'", n,
                         self.file)
        army, ruleset_name, points = self._header(head.group("body"), n)
        rs = _ruleset(ruleset_name, self.registry, n, self.file)
        self.rs = rs
        self.shelf = self.shelf_for(rs) if self.shelf_for else FigureShelf(rs)
        self.costing = Costing(rs, self.shelf)
        limit = None
        if points:
            m = _POINTS.match(points)
            if m is None:
                raise _error(f"expected the points as '[total / limit {rs.data.points_label}]', found '[{points}]'",
                             n, self.file)
            if m.group("limit"):
                limit = _number(m.group("limit"), "the points limit", n, self.file)
        settings: dict[str, object] = {}
        local: dict[str, list[LocalItem]] = {k: [] for k in ITEM_KINDS}
        self.local = local
        self.house: dict[str, object] = {}
        if not self.markdown and self._bulleted():
            self.lines[1:] = [(n, _BULLET.sub("", text, count=1), indented) for n, text, indented in self.lines[1:]]
        for n, text, indented in self.lines[1:]:  # the list's own items, named by the units above them
            own = _OWN.match(text)
            if own and not indented:
                self._own(own, n, local)
        units: list[_UnitText] = []
        fingerprint_code = None
        type_name: str | None = None
        rest = self.lines[1:]
        for i, (n, text, indented) in enumerate(rest):
            nxt = rest[i + 1] if i + 1 < len(rest) else None
            fp = _FINGERPRINT.match(text)
            if fp:
                fingerprint_code = fp.group("code")
                continue
            if _TOTAL.match(text) or _VALIDITY.match(text):
                continue
            if not indented and _OWN.match(text):
                continue
            if indented and units:
                units[-1].stat_lines.append((n, text))
                continue
            if not units and self._setting(text, n, settings):
                continue
            header = self._type_header(text, nxt)
            if header is not False:
                type_name = header
                continue
            if indented:
                raise _error(f"a stat line before any unit: '{text[:80]}'", n, self.file,
                             "stat lines are indented under their unit's line")
            units.append(self._unit(text, n, type_name))
        roster = RosterFile(name=army, ruleset=rs.id, ruleset_version=rs.data.version, points_limit=limit,
                            stats=settings, house_prices=self.house, units=[], **local)
        self.base = roster
        roster = roster.model_copy(update={"units": [self._build(u) for u in units]})
        return ReadList(roster, fingerprint_code, self.notes)

    def _own(self, m, n: int, local: dict) -> None:
        """``Own weapon: Rune Axe {damage=10 cost=5}``: an item the list itself defines."""
        kind = {"weapon": "weapons", "ability": "abilities", "equipment": "equipment"}[m.group("kind").casefold()]
        text = m.group("name")
        values: dict[str, str] = {}
        s = _STATS.search(text)
        if s:
            values = self._pairs(s.group("body"), n)
            text = text[:s.start()]
        name = text.strip()
        if not name:
            raise _error(f"expected 'Own {kind}: Name {{stat=value ...}}'", n, self.file)
        item: dict = {"name": name, "stats": {}}
        defs = self.rs.item_stats[kind]
        for key, value in values.items():
            if key == "cost":
                item["cost"] = _number(value, f"{kind} '{name}': the cost", n, self.file)
            elif key == "allowed_types":
                item["allowed_types"] = [v for v in value.split("|") if v]
            elif key in defs:
                item["stats"][key] = _stat(defs[key], value, n, self.file, f"{kind} '{name}'")
            else:
                raise _error(f"{kind} '{name}': unknown stat '{key}'", n, self.file,
                             "stats: " + ", ".join([*defs, "cost", "allowed_types"]))
        try:
            local[kind].append(LocalItem(**item))
        except ValueError as exc:
            raise _error(f"{kind} '{name}' cannot be read: {exc}", n, self.file) from None

    def _header(self, body: str, n: int) -> tuple[str, str, str | None]:
        groups = []
        while len(groups) < 2:
            m = _BRACKETS.search(body)
            if m is None:
                break
            groups.insert(0, m.group("inner").strip())
            body = body[:m.start()]
        if not groups:
            raise _error("the header names no ruleset: expected '++ Army name [Ruleset] [points] ++'", n, self.file)
        if len(groups) == 2 and not _POINTS.match(groups[1]):
            body, groups = f"{body} [{groups[0]}]", groups[1:]
        if len(groups) == 2:
            return body.strip(), groups[0], groups[1]
        return body.strip(), groups[0], None

    def _bulleted(self) -> bool:
        """A list written as plain bullets ("- 3x Spearmen, Spear"), Markdown without bold: every
        unit line starts with one. The text rosterkit writes starts only some (a unit named "- x")."""
        rest = self.lines[1:]
        units = 0
        for i, (_, text, indented) in enumerate(rest):
            if indented or _FINGERPRINT.match(text) or _TOTAL.match(text) or _VALIDITY.match(text) \
                    or _OWN.match(text) or self._setting_parts(text) is not None:
                continue
            if self._type_header(text, rest[i + 1] if i + 1 < len(rest) else None) is not False:
                continue
            if not _BULLET.match(text):
                return False
            units += 1
        return units > 0

    def _setting_parts(self, text: str) -> list | None:
        """(setting, value) for each part of a roster setting line, None when it is not one."""
        parts = [p for p in text.split("; ")] if "; " in text else [text]
        found = []
        for part in parts:
            label, sep, value = part.partition(":")
            if not sep:
                return None
            if norm(label) == "house prices":
                found.append((None, value.strip()))
                continue
            sdef = next((s for s in self.rs.roster_stats.values() if norm(s.label) == norm(label)), None)
            if sdef is None:
                return None
            found.append((sdef, value.strip()))
        return found

    def _setting(self, text: str, n: int, settings: dict) -> bool:
        """A roster setting line ("God chips: 3"; the compact text joins them with "; ")."""
        found = self._setting_parts(text)
        if found is None:
            return False
        for sdef, value in found:
            if sdef is None:
                body = _STATS.fullmatch(" " + value)
                if body is None:
                    raise _error("expected the house prices as 'House prices: {Name=points ...}'", n, self.file)
                for name, price in self._pairs(body.group("body"), n).items():
                    self.house[name] = _number(price, f"the house price of '{name}'", n, self.file)
                continue
            settings[sdef.id] = _stat(sdef, value, n, self.file, "the army's settings")
        return True

    def _type_header(self, text: str, nxt) -> str | None | bool:
        """The type a group header names (None: "Unknown type"), or False when the line is not one."""
        m = _BRACKETS.search(text)
        if m and not _POINTS.match(m.group("inner")):
            return False
        name = text[:m.start()].strip() if m else text
        if ":" in text or _STATS.search(text):
            return False
        tdef = self.rs.find_type(name)
        if tdef is None and norm(name) != norm(UNKNOWN_TYPE):
            return False
        if nxt is not None and nxt[2]:  # followed by stat lines: a unit named as the type
            return False
        if m and self.compact:  # the compact text writes a type without points
            return False
        return tdef.id if tdef is not None else None

    def _unit(self, text: str, n: int, type_id: str | None) -> _UnitText:
        # the points end the unit's name, which may itself hold ": "
        after = next((b for b in _UNIT_POINTS.finditer(text) if _POINTS.match(b.group("inner"))), None)
        if after is not None:
            head, listed = text[:after.end()], text[after.end():].lstrip(":").strip()
            sep = ":"
        else:
            head, sep, listed = text.partition(": ") if ": " in text else text.partition(":")
        if not sep and text.endswith(":"):
            head = text[:-1]
        m = _BRACKETS.search(head)
        points = None
        if m and _POINTS.match(m.group("inner")):
            head = head[:m.start()]
            points = _POINTS.match(m.group("inner")).group("total").replace(",", "")
        elif not sep:
            first = text.split(", ")[0]
            count = _COUNT.match(first)
            if (count and self._repeated(first) is None) or (", " in text and self.shelf.find(first) is not None):
                # figures without a unit name ("3x Spearmen, Spear"): the unit is named as its figure
                head, listed = (count.group("what") if count else first), text
        name = head.strip()
        if not name:
            raise _error(f"expected a unit line 'Unit [points]: 10x Figure, Weapon', found '{text[:80]}'", n,
                         self.file)
        members = [self._member(part, n, name) for part in self._split(listed, "; ", name)] if listed.strip() else []
        if not members:
            members = [_MemberText(n, 1, None, [], None)]
        return _UnitText(n, name, type_id, members, points=points)

    def _split(self, text: str, sep: str, unit_name: str | None = None) -> list[str]:
        """Parts separated by ``sep``, rejoined where a name the ruleset knows (or the unit's own
        name) holds the separator."""
        parts = [p for p in text.split(sep)]
        out: list[str] = []
        i = 0
        while i < len(parts):
            best = i
            for j in range(min(len(parts), i + 6) - 1, i, -1):
                joined = sep.join(parts[i:j + 1])
                if self._known(joined) or (unit_name is not None and sep in unit_name and norm(
                        _COUNT.sub(r"\g<what>", joined.strip()).split(", ")[0]) == norm(unit_name)):
                    best = j
                    break
            out.append(sep.join(parts[i:best + 1]).strip())
            i = best + 1
        return [p for p in out if p]

    def _known(self, name: str) -> bool:
        name = _COUNT.sub(r"\g<what>", name.strip())
        return self.shelf.find(name) is not None or self._item(name) is not None

    def _item(self, text: str) -> tuple[str, str] | None:
        """(kind, catalogue name) of gear as written ("Fire Pot (2/D6)", "Sword*"), None: unknown;
        an item taken at a level ("Hard to Kill (level 2)") as a roster lists it ("Hard to Kill:2")."""
        candidates = [text.strip()]
        bare = re.sub(r"\s*\([^()]*\)\s*$", "", text).strip()
        if bare != candidates[0]:
            candidates.append(bare)
        level = _LEVEL.search(text)
        for name in candidates:
            for kind in ITEM_KINDS:
                own = next((it for it in self.local[kind] if norm(it.name) == norm(name)), None)
                if own is not None:
                    return kind, own.name
            for kind in ITEM_KINDS:
                item = self.rs.find_item(kind, name)
                if item is not None:
                    levels = getattr(item, "levels", None)
                    if name == bare and level is not None and levels is not None \
                            and norm(level.group("label")) == norm(levels.label):
                        return kind, f"{item.name}:{int(level.group('n'))}"
                    return kind, item.name
        return None

    def _repeated(self, text: str) -> tuple[int, str] | None:
        """(copies, gear) of gear written with how many a figure holds ("3x Fire control"), None:
        not such gear (a count of figures, or a name)."""
        c = _COUNT.match(text)
        if c is None or self.shelf.find(c.group("what")) is not None or self._item(c.group("what")) is None:
            return None
        copies = int(c.group("n")) if len(c.group("n")) <= 4 else 0
        return (copies, c.group("what").strip()) if 1 < copies <= 1_000 else None

    def _closest_kind(self, name: str) -> str:
        """The kind of item whose catalogue holds the name nearest to ``name`` (weapons when none is near)."""
        best, kind = 0.5, "weapons"
        for k in ITEM_KINDS:
            names = [norm(it.name) for it in self.rs.catalogue(k)][:SUGGEST_FROM]
            for near in get_close_matches(norm(name), names, n=1, cutoff=best):
                ratio = SequenceMatcher(None, norm(name), near).ratio()
                if ratio > best:
                    best, kind = ratio, k
        return kind

    def _member(self, text: str, n: int, unit_name: str) -> _MemberText:
        stats = None
        m = _STATS.search(text)
        if m:
            stats = self._pairs(m.group("body"), n)
            text = text[:m.start()]
        parts = self._split(text, ", ", unit_name)
        count, what = 1, None
        if parts:
            c = _COUNT.match(parts[0])
            if c and self._repeated(parts[0]) is not None and norm(c.group("what")) != norm(unit_name):
                pass  # copies of an item the figure holds ("3x Fire control"), not a count of figures
            elif c:
                count = _number(c.group("n"), "the count", n, self.file)
                what = c.group("what").strip()
                parts = parts[1:]
            elif self.shelf.find(parts[0]) is not None or (self._item(parts[0]) is None
                                                             and not re.search(r"[()*]", parts[0])):
                # a figure the list designs is named first, as a weapon is written with its notation
                what = parts[0]
                parts = parts[1:]
        if not isinstance(count, int) or count > 1_000_000:
            raise _error(f"the count {count} is not a whole number of figures up to 1,000,000", n, self.file)
        return _MemberText(n, count, what, parts, stats)

    def _pairs(self, body: str, n: int) -> dict[str, str]:
        out: dict[str, str] = {}
        pos = 0
        body = body.strip()
        while pos < len(body):
            m = _PAIR.match(body, pos)
            if m is None:
                raise _error(f"expected stats as {{name=value ...}}, found '{body[pos:pos + 40]}'", n, self.file,
                             "stats: " + ", ".join(self.rs.stats))
            value = m.group("v") if m.group("v") is not None else re.sub(r"\\(.)", r"\1", m.group("q"))
            key = m.group("key") if m.group("key") is not None else re.sub(r"\\(.)", r"\1", m.group("qkey"))
            out[key] = value
            pos = m.end()
        return out

    # ---- the roster unit

    def _build(self, ut: _UnitText) -> Unit:
        rs = self.rs
        members: list[Member] = []
        for mt in ut.members:
            figure = None
            name = ""
            if mt.what is None and len(ut.members) == 1 and self.shelf.find(ut.name) is not None:
                figure = self.shelf.find(ut.name).name  # a unit named as its figure writes it once
            if mt.what is not None:
                fig = self.shelf.find(mt.what)
                if fig is not None:
                    figure = fig.name
                elif norm(mt.what) != norm(ut.name) or len(ut.members) > 1:
                    name = mt.what  # a figure the list designs: its stats are read from the list
                    if mt.stats is None and not ut.stat_lines:
                        self.notes.append(f"line {mt.line}: '{mt.what}' is not a figure of {rs.name} and the "
                                          f"list gives no stats for it: kept by name, without stats")
            gear: dict[str, list[str]] = {k: [] for k in ITEM_KINDS}
            for g in mt.gear:
                repeated = self._repeated(g)
                copies, g = repeated if repeated is not None else (1, g)
                found = self._item(g)
                if found is None:  # kept, under the kind of the closest known name: validation names it
                    kind = self._closest_kind(g)
                    gear[kind].append(g)
                    self.notes.append(f"line {mt.line}: unknown {ITEM_SINGULAR[kind]} '{g}' kept as written")
                else:
                    gear[found[0]].extend([found[1]] * copies)
            stats = {}
            if mt.stats is not None:
                for key, value in mt.stats.items():
                    sdef = rs.stats.get(key) or next((s for s in rs.stats.values()
                                                      if norm(s.label) == norm(key)), None)
                    if sdef is None:  # kept as written, as a roster file keeps it: validation names it
                        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,63}", key):
                            raise _error(f"unit '{ut.name}': '{key}' is not a stat name", mt.line, self.file,
                                         "stats: " + ", ".join(rs.stats))
                        stats[key] = _number(value, key, mt.line, self.file) if re.fullmatch(
                            r"[-+]?\d+(\.\d+)?", value) else value
                        self.notes.append(f"line {mt.line}: unknown stat '{key}' kept as written")
                        continue
                    stats[sdef.id] = _stat(sdef, value, mt.line, self.file, f"unit '{ut.name}'", self.notes)
            members.append(Member(name=name, figure=figure, count=mt.count, stats=stats, **gear))
        unit = self._unit_value(ut, members)
        if ut.stat_lines:
            unit = self._read_stats(ut, unit)
        return unit

    def _unit_value(self, ut: _UnitText, members: list[Member]) -> Unit:
        rs = self.rs
        if len(members) == 1 and not members[0].name:
            m = members[0]
            unit = Unit(name=ut.name, figure=m.figure, count=m.count, stats=m.stats, weapons=m.weapons,
                        abilities=m.abilities, equipment=m.equipment)
            figure = self.shelf.find(m.figure) if m.figure else None
        else:
            unit = Unit(name=ut.name, members=members)
            figure = None
        if ut.type_id is not None:
            given = resolve_type(rs, unit, figure)
            if given is None or given.id != ut.type_id:
                unit = unit.model_copy(update={"type": ut.type_id})
        return unit

    def _members(self, unit: Unit) -> list[Member]:
        return unit.member_list()

    def _rendered(self, unit: Unit, ut: _UnitText | None = None) -> tuple[list[str], object]:
        """The lines the text writes under the unit, as written for this unit value; given the
        unit's text, without the ruleset's extra rows it leaves out (worked out from the stats,
        such as a melee die: a list typed by hand need not repeat them)."""
        roster = self.base.model_copy(update={"units": [unit]})
        uc = self.costing.unit(roster, unit, 0)
        lines = detail_lines(self.rs, uc)
        if ut is not None:
            given = {norm(t.split(":", 1)[0]) for _, t in ut.stat_lines}
            extra = {norm(label) for label, _ in self.rs.card_rows} - given
            lines = [t for t in lines if not (":" in t and norm(t.split(":", 1)[0]) in extra)]
        return lines, uc.total

    def _read_stats(self, ut: _UnitText, unit: Unit) -> Unit:
        # units alike (a list's repeated units) are read once
        key = (unit.model_copy(update={"name": "-"}).model_dump_json(),
               tuple(tuple(_tokens(t)) for _, t in ut.stat_lines), ut.points)
        hit = self.alike.get(key)
        if hit is None:
            hit = self.alike[key] = self._read_stats_of(ut, unit)
        return hit.model_copy(update={"name": unit.name})

    def _read_stats_of(self, ut: _UnitText, unit: Unit) -> Unit:
        """The stat values that print the unit's stat lines as the text has them: each stat is
        tried at the values its figure's lines show (and the ruleset's options), keeping what
        prints closer; where two readings print alike, the unit's points choose."""
        target = [_tokens(t) for _, t in ut.stat_lines]
        best = self._search(ut, unit, target)
        rendered = self._rendered(best, ut)[0]
        wanted = [_compared(line) for line in target]
        if wanted == [_read_line(got) for got in rendered]:
            if ut.points is None or self._points(best) == norm(ut.points):
                return best
            for changed in _changed(unit, best):  # another stat may print the same and cost as written
                other = self._search(ut, unit, target, forbid=changed)
                if wanted == [_read_line(got) for got in self._rendered(other, ut)[0]] \
                        and self._points(other) == norm(ut.points):
                    return other
            return best  # points that differ are the list's own (house prices, edits): its fingerprint says so
        for (n, line), got in zip(ut.stat_lines, rendered + [""] * len(ut.stat_lines)):
            if _read_line(line) != _read_line(got):
                raise _error(f"unit '{ut.name}': the stat line '{line[:120]}' does not match the stats the ruleset "
                             f"can give this figure", n, self.file,
                             f"expected a line such as '{got[:120]}'" if got else "expected no more stat lines")
        raise _error(f"unit '{ut.name}': its stat lines do not match the figure", ut.line, self.file,
                     "expected: " + " / ".join(rendered)[:200])

    def _direct(self, tokens: list[str]) -> dict:
        """The stats the line shows as they are ("Move 5", "M:6"), read straight from it."""
        rs = self.rs
        line = " " + " ".join(tokens)
        sep = " ".join(_tokens("x" + rs.data.card.line_separator + "y"))[1:-1]
        out = {}
        for label, (_, template) in zip(line_labels(rs), rs.card_columns):
            sid = _bare_stat(template, rs.stats)
            if sid is None or not label:
                continue
            m = re.search(r"\s" + re.escape(" ".join(_tokens(label)) + sep) + r"(\S+)", line)
            if m is None:
                continue
            sdef = rs.stats[sid]
            text = m.group(1)
            text = text.removeprefix(sdef.prefix.casefold()).removesuffix(sdef.suffix.casefold())
            if text == "-":
                continue
            raw = _raw_value(sdef, text)
            value, problem = coerce(sdef, raw)
            if problem is None:
                out[sid] = kind_of(sdef).stored(sdef, raw, value)
        return out

    def _points(self, unit: Unit) -> str:
        return norm(fmt(self._rendered(unit)[1]))

    def _search(self, ut: _UnitText, unit: Unit, target: list[list[str]], forbid=frozenset()) -> Unit:
        rs = self.rs
        flat = [tok for line in target for tok in _compared(line)]
        whole = " ".join(flat)

        def score(u: Unit) -> float:
            # by token, then by character: a value such as "D10+" can take two stats to print
            got = [tok for line in self._rendered(u, ut)[0] for tok in _read_line(line)]
            return (SequenceMatcher(None, got, flat, autojunk=False).ratio()
                    + SequenceMatcher(None, " ".join(got), whole, autojunk=False).ratio() / 2)

        members = self._members(unit)
        shown = _member_lines(members, ut, target)
        for mi in range(len(members)):
            for sid, value in self._direct(shown[mi]).items():
                if (mi, sid) not in forbid:
                    unit = _with_stat(unit, mi, sid, value) or unit
        best, best_score = unit, score(unit)
        if best_score == 1.5:  # the values read straight from the line print it exactly: nothing can do better
            return best
        for _ in range(SEARCH_ROUNDS):
            improved = False
            for mi in range(len(members)):
                numbers = _numbers(shown[mi])
                for sid, sdef in rs.stats.items():
                    if (mi, sid) in forbid:
                        continue
                    for cand in _candidates(sdef, numbers, shown[mi]):
                        trial = _with_stat(best, mi, sid, cand)
                        if trial is None:
                            continue
                        self.trials += 1
                        if self.trials > MAX_TRIALS:
                            raise _error(f"unit '{ut.name}': too many stat values to try to read the list's stat "
                                         f"lines back (at most {MAX_TRIALS:,} for a list)", ut.line, self.file,
                                         "give the figures' stats in the notation {name=value ...}, as "
                                         "`rosterkit text --compact` writes them")
                        s = score(trial)
                        if s > best_score:
                            best, best_score, improved = trial, s, True
                            if best_score == 1.5:
                                return best
            if not improved:
                break
        return best


def _bare_stat(template, stats) -> str | None:
    """The stat a card column shows as it is (``{move}``), None for anything else."""
    parts = [p for p in template.parts if not (isinstance(p, str) and not p)]
    if len(parts) == 1 and not isinstance(parts[0], str):
        body = parts[0].tree.body
        if isinstance(body, ast.Name) and body.id in stats:
            return body.id
    return None


def _member_lines(members: list[Member], ut: _UnitText, target: list[list[str]]) -> list[list[str]]:
    """The tokens of each figure's own stat lines (a mixed unit's start with the figure's name)."""
    if len(members) < 2:
        return [[tok for line in target for tok in line]]
    names = [norm(m.name or m.figure or ut.name) + ":" for m in members]
    out: list[list[str]] = [[] for _ in members]
    current = 0
    for line in target:
        joined = " ".join(line)
        for i, name in enumerate(names):
            if joined.startswith(name):
                current = i
                break
        out[current].extend(line)
    return out


def _numbers(tokens: list[str]) -> set:
    numbers: set = set()
    for tok in tokens:
        for m in re.finditer(r"[-+]?\d+(?:\.\d+)?", tok):
            if len(numbers) < 100:
                try:
                    numbers.add(parse_number(m.group()))
                except ValueError:
                    pass
    return numbers


def _changed(before: Unit, after: Unit) -> list[frozenset]:
    old, new = before.member_list(), after.member_list()
    return [frozenset({(mi, sid)}) for mi, (a, b) in enumerate(zip(old, new))
            for sid in b.stats if a.stats.get(sid) != b.stats.get(sid)]


def _tokens(line: str) -> list[str]:
    return line.casefold().replace(": ", ":").split()


_ASIDE = re.compile(r"\(([^()]*)\)")
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")


def _compared(tokens: list[str]) -> list[str]:
    """A stat line's tokens as the list and the ruleset's lines are compared: without what is not a
    stat, the words of a bracketed aside and an inch mark ("0 (bow +1)" reads as "0 (crossbow +1)",
    "14" as '14"', as the cards' wording has moved on), the numbers strictly."""
    line = _ASIDE.sub(lambda m: "(" + " ".join(_NUMBER.findall(m.group(1))) + ")", " ".join(tokens))
    return re.sub(r'(?<=\d)"', "", line).split()


def _read_line(line: str) -> list[str]:
    """A stat line of the list or of the ruleset as the two are compared (see _compared)."""
    return _compared(_tokens(line))


def _candidates(sdef, numbers: set, tokens: list[str]):
    kind = kind_of(sdef).name
    if kind == "flag":
        yield from (True, False)
    elif kind in ("choice", "choices"):
        yield from ([o] if kind == "choices" else o for o in sdef.options)
    elif kind == "die":
        yield from sdef.dice
    elif kind == "pool":
        for tok in tokens:
            for m in re.finditer(r"(\d{0,3})d(\d{1,3})", tok):
                yield f"{m.group(1) or 1}d{m.group(2)}"
    elif kind in ("int", "number"):
        for v in sorted(numbers):
            yield v if isinstance(v, int) else float(v) if kind == "number" else None
    elif kind == "text":
        yield from tokens


def _with_stat(unit: Unit, mi: int, sid: str, value) -> Unit | None:
    if value is None:
        return None
    if unit.members:
        members = list(unit.members)
        m = members[mi]
        if m.stats.get(sid) == value and sid in m.stats:
            return None
        members[mi] = m.model_copy(update={"stats": {**m.stats, sid: value}})
        return unit.model_copy(update={"members": members})
    if unit.stats.get(sid) == value and sid in unit.stats:
        return None
    return unit.model_copy(update={"stats": {**unit.stats, sid: value}})


def read_list(text: str, registry, file: str = "<text>", shelf_for=None) -> ReadList:
    """The roster a list's text describes. ``registry``: the installed rulesets; ``shelf_for``:
    the figures a roster of a ruleset may name (the player's own beside the ruleset's)."""
    return _Reader(text, registry, file, shelf_for).read()
