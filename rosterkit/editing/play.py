"""Play mode: a game in progress, as a value of marks on the units of one or two rosters.

What a player marks is what the ruleset declares for its cards (``[card] track`` and
``[[card.trackers]]``, the same formulas evaluated the same way); the victory points and the
effects of the marks are the ruleset's ``[play]`` formulas. Each change is undoable and saved
at once, crash-safely, to the game file (:mod:`rosterkit.files.game`), so a game resumes from
the file alone after a crash or the next evening. A roster changed since the game began is
reported, never silently reused.

The interface reads :attr:`Game.sides` (units, kinds of figure, trackers with their values),
:meth:`Game.score` and :meth:`Game.effects`, and changes the game with :meth:`Game.mark`,
:meth:`Game.step`, :meth:`Game.next_turn` / :meth:`Game.prev_turn`, :meth:`Game.undo` and
:meth:`Game.redo`. Every text here comes from roster or ruleset files: show it through
:func:`rosterkit.visible.visible`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path

from .. import workspace
from ..engine.costing import CostReport, UnitCost
from ..engine.display import card_env, render
from ..engine.fingerprint import fingerprint as roster_fingerprint
from ..engine.functions import CardFunctions
from ..engine.trackers import TrackerBoxes, army_trackers, carrying, die_steps, holds, tracker_boxes
from ..errors import Problem, RosterkitError
from ..files import atomic
from ..files.game import (
    MAX_TURN,
    GameFile,
    MarkEntry,
    SideEntry,
    default_game_path,
    game_text,
    load_game_file,
)
from ..files.rulesets import Registry
from ..files.tomlfile import find_line
from ..rules.numbers import exact_sum, fmt
from ..rules.ruleset import MARK_SUFFIXES, norm
from ..words import count_of

ARMY = -1  # MarkRef.unit of a side's own trackers (God chips, God events)
TRACK = 0  # MarkRef.tracker of the card's track; the ruleset's card.trackers[i] is i + 1
MAX_COUNTER = 999  # a counter tracker's largest value
MAX_UNDO = 1000  # changes kept for undo


class GameFileError(RosterkitError):
    """The game file cannot be used: unreadable, the wrong shape, marks that do not fit, a roster
    missing or changed since the game began."""


class GameSaveError(RosterkitError):
    """The game could not be saved (the change is kept in memory; saving again may succeed)."""


@dataclass(frozen=True)
class MarkRef:
    """One cell a player marks: a side, a unit (:data:`ARMY` for the side's own trackers), a kind
    of figure (the member's index; None for a tracker of the whole unit or the army), a tracker
    (:data:`TRACK` for the card's track, ``i + 1`` for the ruleset's ``card.trackers[i]``), a row
    (boxes: the figure or element, 0 first) and an item (checks: 0 first)."""

    side: int
    unit: int
    kind: int | None
    tracker: int
    row: int = 0
    item: int = 0


@dataclass(frozen=True)
class TrackerState:
    """A tracker of one unit (or kind of figure, or the army) and its marks.

    ``kind`` says how it is marked: "boxes" (``rows`` rows of ``per_row`` boxes, one row a figure
    or element where the tracker is so many per figure; a row's value is its boxes ticked),
    "die" (``steps`` ticked one by one: the value is how many), "check" (one box per item of
    ``items``, or one box when there are none) or "counter" (a number up to :data:`MAX_COUNTER`).
    ``values`` holds one value per row (boxes), per item (check), or one (die, counter)."""

    ref: MarkRef  # the tracker's first cell; :meth:`cell` gives the others
    label: str  # the game's words ("Wounds", "God chips")
    kind: str
    rows: int = 1
    per_row: int = 1
    values: tuple[int, ...] = (0,)
    steps: tuple[str, ...] = ()  # die: the die sizes in order ("d10", "d8", ...)
    items: tuple[str, ...] = ()  # check: the items' labels
    item_notes: tuple[str, ...] = ()
    note: str = ""  # what the tracker means in play
    who: str = ""  # in a mixed unit: the kind of figure's name
    row_label: str = ""  # boxes: what a row is ("Element"); "" for figures
    half: int = 0  # boxes: the marks that take the figures to half strength (0: none)
    tally: bool = False  # boxes: one row holding a count too large to mark box by box

    def cell(self, row: int = 0, item: int = 0) -> MarkRef:
        return replace(self.ref, row=row, item=item)

    def cells(self) -> list[MarkRef]:
        """Every cell of the tracker, in order."""
        if self.kind == "boxes":
            return [self.cell(row=r) for r in range(self.rows)]
        if self.kind == "check":
            return [self.cell(item=i) for i in range(len(self.values))]
        return [self.ref]

    def bound(self) -> int:
        """The largest value of one cell."""
        return {"boxes": self.per_row, "die": len(self.steps), "check": 1}.get(self.kind, MAX_COUNTER)

    def value(self, ref: MarkRef) -> int:
        index = ref.row if self.kind == "boxes" else ref.item if self.kind == "check" else 0
        return self.values[index] if 0 <= index < len(self.values) else 0

    @property
    def total(self) -> int:
        """The marks: boxes ticked, die steps taken, items checked, or the counter's number."""
        return sum(self.values)

    @property
    def full(self) -> int:
        """Rows whose boxes are all ticked (figures or elements lost); for a die, 1 when every step is."""
        if self.kind == "boxes":
            return sum(1 for v in self.values if v >= self.per_row)
        return int(self.total >= self.bound() > 0) if self.kind == "die" else self.total

    @property
    def any(self) -> int:
        """Rows with at least one mark."""
        return sum(1 for v in self.values if v > 0)

    @property
    def size(self) -> int:
        """All the marks the tracker holds."""
        return self.rows * self.per_row if self.kind == "boxes" else self.bound() * len(self.values)

    def shown(self) -> str:
        """The marks as a short text: "3/8" (boxes ticked of all), "d8 (2 of 4 steps)", "Heal, Mist", "4"."""
        if self.kind == "boxes":
            return f"{self.total}/{self.size}"
        if self.kind == "die":  # the first step is the die the figure starts with; each hit moves one on
            t = self.total
            hits = count_of(t, "hit")
            if t >= len(self.steps):
                return f"removed ({hits})"
            return f"{self.steps[t]} (not hit)" if t == 0 else f"{self.steps[t]} ({hits})"
        if self.kind == "check":
            if not self.items:
                return "yes" if self.total else "no"
            return ", ".join(lab for lab, v in zip(self.items, self.values) if v) or "none"
        return str(self.total)


@dataclass(frozen=True)
class PlayKind:
    index: int  # the member's index in the unit
    name: str  # the kind of figure's name ("" in a plain unit)
    count: int


@dataclass(frozen=True)
class PlayUnit:
    index: int  # the unit's index in the roster
    name: str
    type_name: str
    kinds: list[PlayKind]
    trackers: list[TrackerState]  # boxes per kind of figure; die, check and counter once for the unit
    problems: tuple[str, ...] = ()  # tracker formulas that could not be worked out

    @property
    def marked(self) -> bool:
        return any(t.total for t in self.trackers)


@dataclass(frozen=True)
class Side:
    index: int
    name: str  # the roster's army name
    ruleset: str  # the ruleset's name
    roster_path: Path
    fingerprint: str
    units: list[PlayUnit]
    army: list[TrackerState]  # the side's own trackers (God chips, God events)
    scoring_note: str  # how the game's text says a game is won, or that it gives no points


@dataclass(frozen=True)
class ScoreLine:
    unit: str  # the unit's name (and kind of figure's, in a mixed unit)
    what: str  # the points' label ("Dead heroes")
    points: Fraction | int
    rule: str  # the rule in the game's words
    reading: str = ""  # what is read into the text


@dataclass(frozen=True)
class Score:
    """Victory points ``side`` earns from the losses of ``losses_of`` (the opponent; with one
    side only, the side itself: the points its losses give away)."""

    side: int
    losses_of: int
    total: Fraction | int
    lines: list[ScoreLine]
    note: str  # the ruleset's scoring note; where it declares no points, that the text gives none
    scored: bool  # whether the ruleset declares victory points at all
    problems: tuple[str, ...] = ()


@dataclass(frozen=True)
class Effect:
    label: str
    text: str  # e.g. "Wounded: A 4, D 4, M 3"
    rule: str  # where it comes from, in the game's words
    reading: str = ""  # what of it is a reading of the text


@dataclass
class _Opened:
    """A side's roster as opened, with what is worked out from it once."""

    path: Path
    report: CostReport
    fingerprint: str
    layout: list[PlayUnit] = field(default_factory=list)  # the trackers, every value 0
    army: list[TrackerState] = field(default_factory=list)


class Game:
    """A game in progress. Start or resume one with :meth:`start`, or open a game file alone
    with :meth:`load`. Every change is saved at once and can be undone."""

    def __init__(self, path: Path, opened: list[_Opened], turn: int = 1,
                 marks: dict[MarkRef, int] | None = None):
        self.path = Path(path)
        self._opened = opened
        self.turn = turn
        self._marks: dict[MarkRef, int] = dict(marks or {})
        self._undo: list[tuple[dict[MarkRef, int], int]] = []
        self._redo: list[tuple[dict[MarkRef, int], int]] = []
        self._disk: atomic.Fingerprint | None = None
        self._trackers = {t.ref: t for o in opened for u in o.layout for t in u.trackers}
        self._trackers.update({t.ref: t for o in opened for t in o.army})

    # ---------------------------------------------------------------- opening

    @classmethod
    def start(cls, army: Path | str, opponent: Path | str | None = None, path: Path | str | None = None,
              registry: Registry | None = None) -> Game:
        """The game of ``army`` (against ``opponent``) in ``path`` (default ``ARMY.game.toml`` beside
        the army): resumed when the file exists and names the same rosters, else begun and saved
        at once. A file holding a game of other rosters is an error (it is never overwritten)."""
        registry = registry or Registry()
        army = Path(army)
        rosters = [army] + ([Path(opponent)] if opponent is not None else [])
        path = Path(path) if path is not None else default_game_path(army)
        if os.path.lexists(path):
            game = cls.load(path, registry)
            named = [os.path.realpath(o.path) for o in game._opened]
            if named != [os.path.realpath(r) for r in rosters]:
                raise GameFileError(Problem(
                    "holds a game of " + " against ".join(str(o.path) for o in game._opened)
                    + ", not of " + " against ".join(str(r) for r in rosters), file=str(path),
                    hint="give another game file with --game, or open this one alone with `rosterkit play --game "
                         f"{path}`"))
            return game
        opened = [_open_side(r, registry, s) for s, r in enumerate(rosters)]
        game = cls(path, opened)
        game.save()
        return game

    @classmethod
    def load(cls, path: Path | str, registry: Registry | None = None) -> Game:
        """A game from its file alone: the rosters it names (relative to its folder) are opened and
        must be as they were when the game began; every mark must fit its tracker."""
        registry = registry or Registry()
        path = Path(path)
        data, text = load_game_file(path)
        file = str(path)
        opened = []
        for s, side in enumerate(data.sides):
            roster = path.parent / side.roster
            try:
                o = _open_side(roster, registry, s)
            except RosterkitError as exc:
                first = exc.problems[0]
                raise GameFileError([Problem(
                    f"the game's roster {side.roster} cannot be opened: {first.location() or roster}: "
                    f"{first.message}", file=file, key=f"sides[{s}].roster",
                    line=find_line(text, ("sides", s, "roster")))] + list(exc.problems[1:])) from None
            if o.fingerprint != side.fingerprint:
                raise GameFileError(Problem(
                    f"the roster {side.roster} changed since this game began (fingerprint {side.fingerprint} "
                    f"then, {o.fingerprint} now): its marks may no longer fit its units", file=file,
                    key=f"sides[{s}].fingerprint", line=find_line(text, ("sides", s, "fingerprint")),
                    hint="put the roster back as it was, or begin a new game with another --game file"))
            opened.append(o)
        game = cls(path, opened, data.turn)
        game._marks = game._read_marks(data, text)
        game._disk = atomic.fingerprint(path)
        return game

    def _read_marks(self, data: GameFile, text: str) -> dict[MarkRef, int]:
        marks: dict[MarkRef, int] = {}
        file = str(self.path)
        for s, side in enumerate(data.sides):
            o = self._opened[s]
            for i, m in enumerate(side.marks):
                def bad(message: str, key: str, s: int = s, i: int = i) -> GameFileError:
                    return GameFileError(Problem(message, file=file, key=f"sides[{s}].marks[{i}].{key}",
                                                 line=find_line(text, ("sides", s, "marks", i, key))
                                                 or find_line(text, ("sides", s, "marks", i))))
                if m.number == 0:
                    candidates = o.army
                    where = "the army"
                else:
                    if m.number > len(o.layout):
                        raise bad(f"unit {m.number}: the roster has {len(o.layout)} units", "number")
                    unit = o.layout[m.number - 1]
                    if m.unit and norm(m.unit) != norm(unit.name):
                        raise bad(f"names unit '{m.unit}', but unit {m.number} of the roster is '{unit.name}'",
                                  "unit")
                    kind = m.kind - 1 if m.kind else None
                    candidates = [t for t in unit.trackers if t.ref.kind == kind]
                    where = f"unit {m.number} ('{unit.name}')" + (f", kind {m.kind}" if m.kind else "")
                t = next((t for t in candidates if norm(t.label) == norm(m.tracker)), None)
                if t is None:
                    names = ", ".join(f"'{c.label}'" for c in candidates) or "none"
                    raise bad(f"{where} has no tracker '{m.tracker}' (it has {names})", "tracker")
                if t.kind == "check":
                    if t.items:
                        hit = [k for k, lab in enumerate(t.items) if norm(lab) == norm(m.item)]
                        if not hit:
                            raise bad(f"'{t.label}' has no item '{m.item}' (it has "
                                      + ", ".join(f"'{x}'" for x in t.items) + ")", "item")
                        ref = t.cell(item=hit[0])
                    elif m.item:
                        raise bad(f"'{t.label}' is one box, without items", "item")
                    else:
                        ref = t.ref
                else:
                    rows = t.rows if t.kind == "boxes" else 1
                    if m.row > rows:
                        raise bad(f"row {m.row}: '{t.label}' of {where} has {count_of(rows, 'row')}", "row")
                    ref = t.cell(row=m.row - 1)
                if m.value > t.bound():
                    raise bad(f"{m.value} marks: '{t.label}' of {where} holds at most {t.bound()} a row"
                              if t.kind == "boxes" else f"{m.value}: '{t.label}' of {where} is at most {t.bound()}",
                              "value")
                if ref in marks:
                    raise bad(f"marks the same cell as an earlier entry ('{t.label}' of {where})", "tracker")
                if m.value:
                    marks[ref] = m.value
        return marks

    # ---------------------------------------------------------------- what is shown

    @property
    def sides(self) -> list[Side]:
        """The sides with every tracker's current values."""
        out = []
        for s, o in enumerate(self._opened):
            units = [replace(u, trackers=[self._with_values(t) for t in u.trackers]) for u in o.layout]
            rs = o.report.ruleset
            note = rs.data.play.scoring or ("" if rs.play_points else "The ruleset declares no victory points.")
            out.append(Side(s, o.report.roster.name, rs.name, o.path, o.fingerprint, units,
                            [self._with_values(t) for t in o.army], note))
        return out

    def tracker(self, ref: MarkRef) -> TrackerState:
        """The tracker holding the cell ``ref``, with its current values."""
        return self._with_values(self._tracker_of(ref))

    def value(self, ref: MarkRef) -> int:
        return self._marks.get(ref, 0)

    def _with_values(self, t: TrackerState) -> TrackerState:
        return replace(t, values=tuple(self._marks.get(c, 0) for c in t.cells()))

    def _tracker_of(self, ref: MarkRef) -> TrackerState:
        t = self._trackers.get(replace(ref, row=0, item=0))
        if t is None:
            raise ValueError(f"no tracker at {ref}")
        if ref not in t.cells():
            raise ValueError(f"{ref} is not a cell of '{t.label}'")
        return t

    # ---------------------------------------------------------------- changes

    def mark(self, ref: MarkRef, value: int) -> None:
        """Set one cell (0 to the tracker's bound); undoable, saved at once. A value out of bounds
        is a ValueError (the interface offers only what fits)."""
        t = self._tracker_of(ref)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= t.bound():
            raise ValueError(f"'{t.label}': a value from 0 to {t.bound()}, not {value!r}")
        if self._marks.get(ref, 0) == value:
            return
        self._change()
        if value:
            self._marks[ref] = value
        else:
            self._marks.pop(ref, None)
        self.save()

    def step(self, ref: MarkRef, delta: int = 1) -> None:
        """One key press: the cell one mark up (or down), within its bounds; undoable, saved."""
        t = self._tracker_of(ref)
        self.mark(ref, min(max(self._marks.get(ref, 0) + delta, 0), t.bound()))

    def next_turn(self) -> None:
        if self.turn < MAX_TURN:
            self._change()
            self.turn += 1
            self.save()

    def prev_turn(self) -> None:
        if self.turn > 1:
            self._change()
            self.turn -= 1
            self.save()

    def _change(self) -> None:
        self._undo.append((dict(self._marks), self.turn))
        del self._undo[:-MAX_UNDO]
        self._redo.clear()

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> bool:
        """Back one change (a mark or a turn); saved. False when there is none."""
        if not self._undo:
            return False
        self._redo.append((dict(self._marks), self.turn))
        self._marks, self.turn = self._undo.pop()
        self.save()
        return True

    def redo(self) -> bool:
        if not self._redo:
            return False
        self._undo.append((dict(self._marks), self.turn))
        self._marks, self.turn = self._redo.pop()
        self.save()
        return True

    # ---------------------------------------------------------------- saving

    def file_value(self) -> GameFile:
        """The game as its file holds it."""
        sides = []
        marked = sorted(self._marks.items(), key=lambda kv: _order(kv[0]))
        for s, o in enumerate(self._opened):
            entries = []
            for ref, v in marked:
                if ref.side != s or not v:
                    continue
                t = self._trackers[replace(ref, row=0, item=0)]
                unit = o.layout[ref.unit] if ref.unit != ARMY else None
                entries.append(MarkEntry(
                    unit=unit.name if unit else "", number=unit.index + 1 if unit else 0,
                    kind=(ref.kind + 1) if ref.kind is not None else 0, tracker=t.label,
                    row=ref.row + 1, item=t.items[ref.item] if t.kind == "check" and t.items else "", value=v))
            rel = os.path.relpath(os.path.abspath(o.path), os.path.abspath(self.path.parent))
            sides.append(SideEntry(roster=Path(rel).as_posix(), fingerprint=o.fingerprint, marks=entries))
        return GameFile(turn=self.turn, sides=sides)

    def save(self) -> None:
        """Write the game file crash-safely (the previous version kept as .bak). A file another
        program changed since it was read is not overwritten: :class:`GameSaveError`."""
        try:
            atomic.atomic_write(self.path, game_text(self.file_value()), expect=self._disk)
        except atomic.FileChangedError as exc:
            raise GameSaveError(Problem(f"not saved: {exc.strerror}", file=str(self.path),
                                        hint="another program is playing this game; open it again")) from None
        except OSError as exc:
            raise GameSaveError(Problem(f"not saved: {exc.strerror or exc}", file=str(self.path))) from None
        self._disk = atomic.fingerprint(self.path)

    # ---------------------------------------------------------------- score and effects

    def score(self, side: int) -> Score:
        """The victory points ``side`` earns from the other side's losses (with one side only, the
        points its own losses give away), line by line, from the ruleset's ``[play]`` formulas."""
        losses_of = 1 - side if len(self._opened) == 2 else side
        o = self._opened[losses_of]
        rs = o.report.ruleset
        lines: list[ScoreLine] = []
        problems: list[str] = []
        for unit in o.layout:
            ucost = o.report.units[unit.index]
            funcs = CardFunctions(rs, ucost.members).table()
            mixed = len(unit.kinds) > 1
            for k in unit.kinds:
                env = self._env(losses_of, unit, ucost, k)
                for p, f in rs.play_points:
                    try:
                        pts = f.evaluate(env, funcs, f"unit '{unit.name}'")
                    except RosterkitError as exc:
                        problems.append(exc.problems[0].message)
                        continue
                    if isinstance(pts, bool) or not isinstance(pts, (int, Fraction, float)) or not pts:
                        continue
                    who = f"{unit.name} ({k.name})" if mixed and k.name else unit.name
                    lines.append(ScoreLine(who, p.label, pts, p.rule, p.reading))
        note = rs.data.play.scoring or ("" if rs.play_points else "The ruleset declares no victory points.")
        return Score(side, losses_of, exact_sum([line.points for line in lines]) if lines else 0, lines, note,
                     bool(rs.play_points), tuple(problems))

    def effects(self, side: int, unit: int) -> list[Effect]:
        """What the marks change about a unit now, each with its rule (the ruleset's ``[play]`` effects)."""
        o = self._opened[side]
        rs = o.report.ruleset
        pu = o.layout[unit]
        ucost = o.report.units[unit]
        funcs = CardFunctions(rs, ucost.members).table()
        ctx = f"unit '{pu.name}'"
        mixed = len(pu.kinds) > 1
        out: list[Effect] = []
        for e, when, show, value in rs.play_effects:
            try:
                if e.scope == "unit":
                    if value is None:
                        continue
                    now = exact_sum([value.evaluate(self._env(side, pu, ucost, k), funcs, ctx) for k in pu.kinds])
                    before = exact_sum([value.evaluate(self._env(side, pu, ucost, k, blank=True), funcs, ctx)
                                        for k in pu.kinds])
                    if now != before:
                        out.append(Effect(e.label, f"{e.label}: {fmt(now)} (was {fmt(before)})", e.rule, e.reading))
                    continue
                for k in pu.kinds:
                    env = self._env(side, pu, ucost, k)
                    if when is None or not holds(when.evaluate(env, funcs, ctx)):
                        continue
                    shown = render(show, env, funcs, {}, ctx) if show is not None else ""
                    who = f" ({k.name})" if mixed and k.name else ""
                    out.append(Effect(e.label, f"{e.label}{who}: {shown}" if shown else f"{e.label}{who}",
                                      e.rule, e.reading))
            except RosterkitError as exc:
                out.append(Effect(e.label, f"{e.label}: cannot be worked out ({exc.problems[0].message})", e.rule,
                                  e.reading))
        return out

    def _env(self, side: int, unit: PlayUnit, ucost: UnitCost, kind: PlayKind, blank: bool = False) -> dict:
        """The names [play] formulas read for one kind of figure: its card values, and its marks
        (the kind's own trackers and the unit's; 0 for a tracker it does not have)."""
        rs = self._opened[side].report.ruleset
        member = next(m for m in ucost.members if m.index == kind.index)
        env = card_env(ucost, member)
        ids = {TRACK: rs.data.card.track_id}
        ids.update({i + 1: tr.id for i, (tr, _) in enumerate(rs.play_trackers) if tr.id})
        for ident in ids.values():
            if ident:
                for suffix in MARK_SUFFIXES:
                    env[ident + suffix] = 0
        for t in unit.trackers:
            ident = ids.get(t.ref.tracker)
            if not ident or t.ref.kind not in (None, kind.index):
                continue
            t = self._with_values(t) if not blank else t
            env[ident] += t.total
            env[ident + "_full"] += t.full
            env[ident + "_any"] += t.any
        return env

    # ---------------------------------------------------------------- summary

    def summary_text(self) -> str:
        """The result as plain text for a forum post or a campaign log: turns, victory points per
        side, losses by unit, each unit's effects. Texts from files are as written (the caller
        shows them through rosterkit.visible)."""
        sides = self.sides
        title = " against ".join(f"{s.name} ({s.ruleset})" for s in sides)
        lines = [f"Game: {title}", f"Turn: {self.turn}", ""]
        for s in sides:
            sc = self.score(s.index)
            lines.append(s.name)
            if not sc.scored:
                lines.append(f"  Victory points: none scored. {sc.note}".rstrip())
            elif len(sides) == 2:
                lines.append(f"  Victory points: {fmt(sc.total)} (from the losses of {sides[sc.losses_of].name})")
            else:
                lines.append(f"  Victory points its losses give the opponent: {fmt(sc.total)}")
            for line in sc.lines:
                lines.append(f"    {line.what}: {line.unit} {fmt(line.points)}")
            for p in sc.problems:
                lines.append(f"    cannot be worked out: {p}")
            losses = [u for u in s.units if u.marked]
            lines.append("  Losses and marks:" if losses else "  Losses and marks: none")
            for u in losses:
                marked = [f"{t.who + ' ' if t.who else ''}{t.label} {t.shown()}" for t in u.trackers if t.total]
                lines.append(f"    {u.name}: " + "; ".join(marked))
                for e in self.effects(s.index, u.index):
                    lines.append(f"      {e.text}")
            for u in s.units:
                for p in u.problems:
                    lines.append(f"    {u.name}: a tracker cannot be worked out: {p}")
            used = [t for t in s.army if t.total]
            if used:
                lines.append("  Army: " + "; ".join(f"{t.label} {t.shown()}" for t in used))
            lines.append("")
        rules = {}
        for s in sides:
            sc = self.score(s.index)
            for line in sc.lines:
                rules.setdefault(line.what, (line.rule, line.reading))
        if rules:
            lines.append("Scoring rules:")
            for what, (rule, reading) in rules.items():
                lines.append(f"  {what}: {rule}" + (f" (reading: {reading})" if reading else ""))
        return "\n".join(lines).rstrip("\n") + "\n"


# -------------------------------------------------------------------- building the trackers


def _open_side(path: Path, registry: Registry, side: int) -> _Opened:
    """A side's roster opened (through the workspace, the one way), with its trackers laid out."""
    opened = workspace.open_roster(path, registry)
    report = opened.report
    o = _Opened(Path(path), report, str(roster_fingerprint(report)))
    o.layout = [_unit_layout(report, u, side) for u in report.units]
    o.army = _army_layout(report, side)
    return o


def _unit_layout(report: CostReport, unit: UnitCost, side: int) -> PlayUnit:
    """A unit's trackers, every value 0: the ruleset's card track and trackers, evaluated with the
    cards' formulas over the unit's values (boxes for each kind of figure, one row a figure where
    the count is so many per figure; a die, a check or a counter once for the unit)."""
    rs = report.ruleset
    funcs = CardFunctions(rs, unit.members).table()
    ctx = f"unit '{unit.name}'"
    members = [m for m in unit.members if m.count > 0]
    mixed = len(members) > 1
    kinds = [PlayKind(m.index, m.name if mixed else "", m.count) for m in members]
    out: list[TrackerState] = []
    problems: list[str] = []
    card = rs.data.card
    replaced = any(tr.on == "unit" and tr.kind == "boxes" and norm(tr.name) == norm(card.track_label)
                   for tr, _ in rs.play_trackers)
    if rs.card_track is not None and not replaced:
        track = {"count": rs.card_track, "rows": None, "when": None}
        for m in members:  # (a member's formula error leaves the other members their boxes)
            try:
                for b in tracker_boxes(unit, [m], None, track, funcs, ctx, printed=False):
                    out.append(_boxes_state(b, MarkRef(side, unit.index, m.index, TRACK), card.track_label, mixed))
            except RosterkitError as exc:
                problems.append(exc.problems[0].message)
    for i, (tr, f) in enumerate(rs.play_trackers):
        if tr.on != "unit":
            continue
        try:
            if tr.kind == "boxes":
                for b in tracker_boxes(unit, members, tr, f, funcs, ctx, printed=False):
                    out.append(_boxes_state(b, MarkRef(side, unit.index, b.member.index, i + 1), tr.name, mixed))
                continue
            holding = carrying(f, unit, members, funcs, ctx)
            if not holding:
                continue
            if tr.kind == "die":
                steps = die_steps(tr.steps, f, unit, holding[0], funcs, ctx)
                if steps:
                    out.append(TrackerState(MarkRef(side, unit.index, None, i + 1), tr.name, "die",
                                            per_row=len(steps), steps=steps, note=tr.note))
            elif tr.kind == "check":
                items = tuple(x.label for x in tr.items)
                out.append(TrackerState(MarkRef(side, unit.index, None, i + 1), tr.name, "check",
                                        per_row=1, values=(0,) * max(1, len(items)), items=items,
                                        item_notes=tuple(x.note for x in tr.items), note=tr.note))
            else:
                out.append(TrackerState(MarkRef(side, unit.index, None, i + 1), tr.name, "counter",
                                        per_row=MAX_COUNTER, note=tr.note))
        except RosterkitError as exc:
            problems.append(exc.problems[0].message)
    return PlayUnit(unit.index, unit.name, unit.type_name, kinds, out, tuple(problems))


def _boxes_state(b: TrackerBoxes, ref: MarkRef, label: str, mixed: bool) -> TrackerState:
    """A boxes tracker of one kind of figure as play marks it: a row a figure or element, every value 0."""
    tr = b.tracker
    return TrackerState(ref, label, "boxes", rows=b.rows, per_row=b.per_row, values=(0,) * b.rows,
                        note=tr.note if tr else "", who=b.member.name if mixed else "",
                        row_label=tr.row_label if tr else "", half=b.half, tally=b.tally)


def _order(ref: MarkRef) -> tuple:
    """Marks in the file in the order of the roster: unit, kind of figure, tracker, row, item."""
    return ref.side, ref.unit, -1 if ref.kind is None else ref.kind, ref.tracker, ref.row, ref.item


def _army_layout(report: CostReport, side: int) -> list[TrackerState]:
    """The side's own trackers (God chips, God events) as the army card has them."""
    rs = report.ruleset
    positions = {tr.name: i + 1 for i, (tr, _) in enumerate(rs.play_trackers) if tr.on == "army"}
    out = []
    for t in army_trackers(report):
        pos = positions.get(t.name)
        if pos is None:
            continue
        ref = MarkRef(side, ARMY, None, pos)
        if t.kind == "check":
            out.append(TrackerState(ref, t.name, "check", values=(0,) * max(1, len(t.items)), items=t.items,
                                    item_notes=t.item_notes, note=t.note))
        elif t.kind == "counter":
            out.append(TrackerState(ref, t.name, "counter", per_row=MAX_COUNTER, note=t.note))
        else:
            out.append(TrackerState(ref, t.name, "boxes", per_row=t.boxes, note=t.note))
    return out
