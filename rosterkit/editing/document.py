"""One open roster being edited: its value, undo/redo history, and costs kept up to date incrementally.

The roster is a frozen value; every edit hands the document a new roster. The document
compares the new units with the old ones by identity and costs only those that are new
(``Costing.unit``), then re-assembles the totals and re-validates. Undo and redo
are stacks of roster values.

The document also keeps what the roster's file was when it was opened or last saved (to
notice another program changing it), and the window's recovery slot for the unsaved work;
whoever autosaves listens to :attr:`Document.on_change`. Every front-end edits through it.
"""

from __future__ import annotations

import dataclasses
import errno
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ..engine.costing import Costing, CostReport, FigureShelf, UnitCost, assemble
from ..engine.roster import RosterFile, Unit
from ..engine.validation import Validation, validate_report
from ..engine.versions import VersionChange, recorded
from ..errors import RosterkitError
from ..files.atomic import FileChangedError, Fingerprint, changed_since, fingerprint
from ..files.figures import figures_path, save_user_figures
from ..files.rosters import load_roster, save_roster
from ..files.rulesets import Registry
from ..findings import Finding
from ..rules.ruleset import ITEM_KINDS, Ruleset, norm
from ..rules.schema import FigureDef
from ..visible import visible
from ..workspace import OpenRoster, open_roster, open_value, player_figures
from . import recent
from .recovery import (
    Recovery,
    RecoverySlot,
    drop,
    find_recovery,
    keep_aside,
    new_window,
    others_open,
    recovery_key,
)

HISTORY_MAX = 1000


@dataclass(frozen=True)
class Where:
    """Where an edit happened, to put the cursor back there on undo/redo."""

    unit: int | None = None
    field: str | None = None
    member: int | None = None
    screen: str = "roster"  # or "design"
    item: tuple[str, int] | None = None  # (kind, index) of a roster-local item


@dataclass(frozen=True)
class Step:
    roster: RosterFile
    label: str
    where: Where


@dataclass
class Change:
    """What an edit changed, so the screen can redraw only that."""

    structure: bool  # units added, removed, moved or retyped: the list is rebuilt
    units: set[int] = field(default_factory=set)  # units whose cost or name changed
    label: str = ""
    where: Where = Where()
    notice: str | None = None  # what to tell the player about it (an autosave that failed)


SaveNeeds = Literal["file", "consent", "nothing"]


class Document:
    """An open roster being edited, made from the same :class:`OpenRoster` as every front-end."""

    def __init__(self, opened: OpenRoster, saved: RosterFile | None = None, origin: str = "",
                 path: Path | None = None, window: str | None = None):
        self.rs: Ruleset = opened.ruleset
        self.costing: Costing = opened.costing  # the ruleset with the player's figures layered in
        self.figures_error: RosterkitError | None = opened.figures_error
        # the player's figures file as read: a save over another window's figures is refused
        self.figures_disk: Fingerprint | None = fingerprint(figures_path(self.rs.id))
        self.path = Path(path) if path is not None else opened.path
        self.origin = origin  # what an unsaved roster was made from (a sample's file name)
        self.layout: str | None = opened.text  # the text it was read from: a save to a new file keeps its comments
        self.version_change: VersionChange | None = None  # the rules changed since the file was saved
        roster = opened.roster
        self.roster = roster
        self.saved: RosterFile | None = roster if saved is None else saved
        self.undo_stack: list[Step] = []
        self.redo_stack: list[Step] = []
        self._coalesce: object = None
        self._pricer = self.costing.pricer(roster)
        self.report: CostReport = opened.report
        self.costs: list[UnitCost] = list(self.report.units)
        self.validation: Validation = opened.validation
        self.revision = 0
        self.key = recovery_key(self.path, origin or roster.name)  # names the recovery file
        self.window = window or new_window()
        self.recovery = RecoverySlot(self.key, self.window)
        # the file as it was read (None: no file yet); a save over a file changed since asks first
        self.disk: Fingerprint | None = opened.disk if opened.disk is not None and self.path == opened.path \
            else fingerprint(self.path) if self.path is not None else None
        self.on_change: Callable[[Document], None] | None = None  # told after every change of value
        self._io = threading.Lock()  # the recovery file is written from a worker thread
        self._autosave_failing = False  # the last autosave failed (and the player was told)
        self._closed = False

    @property
    def figures(self) -> FigureShelf:
        """The figures this roster may name: the ruleset's, then the player's."""
        return self.costing.figures

    @property
    def user_figures(self) -> list[FigureDef]:
        """The player's own figures for this ruleset."""
        return list(self.costing.figures.own)

    # ------------------------------------------------------------ state

    @property
    def dirty(self) -> bool:
        if self.saved is None:
            return True
        return self.roster is not self.saved and self.roster != self.saved

    @property
    def title(self) -> str:
        return self.path.name if self.path else f"{self.roster.name} (not saved yet)"

    def recovery_key(self) -> str:
        return self.key

    def mark_saved(self, path: Path | None = None) -> None:
        """The roster is what the file holds now (just written to ``path``)."""
        if path is not None:
            self.path = Path(path)
            key = recovery_key(self.path)
            if key != self.key:  # a new file: the claim and the recovery slot move to its name
                with self._io:
                    held = self.recovery.active
                    self.recovery.drop()
                    self.recovery.release()
                    self.key = key
                    self.recovery = RecoverySlot(key, self.window)
                    if held:
                        self.recovery.claim(self.path)
        self.saved = self.roster
        self.disk = fingerprint(self.path) if self.path is not None else None

    def save(self, path: Path | None = None, expect: Fingerprint | None = None) -> Change | None:
        """Write the roster to ``path`` (default: its own file) with what a save records (the
        ruleset's version, each unit's points). ``expect``: the file the player chose to
        replace (else the roster's file as it was opened or saved here). A new file keeps the
        layout and comments of the file the roster was read from. Raises RosterkitError (nothing
        written); returns the change the recorded values made, if any."""
        path = Path(path) if path is not None else self.path
        if path is None:
            raise ValueError("a roster never saved needs a file name")
        value = recorded(self.roster, self.report)
        save_roster(value, path, expect=expect if expect is not None else self.expected_at(path), like=self.layout)
        change = self.record_saved(value)
        self.mark_saved(path)
        self.discard_recovery()
        recent.remember(path)
        return change

    def reload(self, registry: Registry) -> tuple[Document, bool]:
        """The roster's file as it is on disk now, as a new document in this window (this one
        is closed); ``True`` when the unsaved work was kept aside (offered when the file is
        opened again, and on the start screen). Raises RosterkitError (the file cannot be
        opened) or OSError (the work cannot be kept aside): then nothing changed."""
        assert self.path is not None
        opened = open_roster(self.path, registry)
        kept = self.dirty
        if kept:
            keep_aside(self.key, self.path, self.roster)
        fresh = Document(opened, window=self.window)
        self.close()
        return fresh, kept

    @property
    def broken_formula(self) -> Finding | None:
        """A formula of the ruleset that cannot be used (the ruleset's own mistake), if any."""
        return next((f for f in self.validation.findings if f.rule == "formula"), None)

    def changed_on_disk(self) -> bool:
        """Whether another program changed the roster's file since it was opened or saved here."""
        return self.path is not None and changed_since(self.path, self.disk)

    def expected_at(self, path: Path, replacing: bool = False) -> Fingerprint | None:
        """What a save to ``path`` must find there, or nothing is written: the roster's own file as
        it was opened or last saved here (None for another file: the player chose to replace it).
        ``replacing``: the player chose to replace the file as it is now, after being told it
        changed; it still may not have become a symbolic link, nor change again meanwhile."""
        if self.path is None or Path(path) != self.path or self.disk is None:
            return None
        now = fingerprint(path) if replacing else None
        if now is None:
            return self.disk
        return Fingerprint(now[0], now.size, now.digest, self.disk.link)

    def save_needs(self) -> SaveNeeds:
        """What a save must ask the player before it writes: ``"file"`` (the roster has no file
        yet), ``"consent"`` (another program changed its file since it was opened or saved here:
        replace it, load it, or save elsewhere), or ``"nothing"``."""
        if self.path is None:
            return "file"
        if self.changed_on_disk():
            return "consent"
        return "nothing"

    def suggested_file(self) -> str:
        """The file name a first save offers: the sample's the roster was copied from, else one
        made of the ruleset's id and the army's name."""
        return self.origin or f"{self.rs.id}_{self.roster.name.lower().replace(' ', '_')}.toml"

    # ------------------------------------------------------------ recovery

    def open_in_window(self) -> list[int]:
        """Claim the roster for this window; the process ids of other windows that have it open."""
        self.recovery.claim(self.path)
        return others_open(self.key, self.window)

    def write_recovery(self) -> str | None:
        """Keep the unsaved work in this window's recovery file (none when nothing is unsaved).

        Returns what to tell the player when it cannot be written: said once when autosave
        starts failing (it is tried again after each later edit, silently), and again only if
        it fails anew after having worked. Safe from a worker thread: it writes the value
        current when it runs, and nothing once the document is closed."""
        with self._io:
            if self._closed:
                return None
            try:
                if self.dirty:
                    self.recovery.write(self.path, self.roster)
                else:
                    self.recovery.drop()
            except OSError as exc:
                if self._autosave_failing:
                    return None
                self._autosave_failing = True
                return autosave_failed(self.recovery.file, exc)
            self._autosave_failing = False
            return None

    @property
    def autosave_failing(self) -> bool:
        """Whether the last autosave could not be written."""
        return self._autosave_failing

    def discard_recovery(self) -> None:
        with self._io:
            self.recovery.drop()

    def close(self) -> None:
        """Closed in this window: its recovery file goes, and its claim on the roster."""
        with self._io:
            self.recovery.drop()
            self.recovery.release()
            self._closed = True

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self)

    # ------------------------------------------------------------ editing

    def apply(self, roster: RosterFile, label: str, where: Where = Where(), coalesce: object = None) -> Change:
        """Make ``roster`` the current value. Edits with the same ``coalesce`` key in a row
        (typing in one field) make one undo step."""
        if roster is self.roster:
            return Change(False)
        if coalesce is None or coalesce != self._coalesce or not self.undo_stack:
            self.undo_stack.append(Step(self.roster, label, where))
            del self.undo_stack[:-HISTORY_MAX]
        self._coalesce = coalesce
        self.redo_stack.clear()
        return self._set(roster, label, where)

    def break_coalescing(self) -> None:
        self._coalesce = None

    def undo(self) -> Change | None:
        if not self.undo_stack:
            return None
        step = self.undo_stack.pop()
        self.redo_stack.append(Step(self.roster, step.label, step.where))
        self._coalesce = None
        return self._set(step.roster, f"undo {step.label}", step.where)

    def redo(self) -> Change | None:
        if not self.redo_stack:
            return None
        step = self.redo_stack.pop()
        self.undo_stack.append(Step(self.roster, step.label, step.where))
        self._coalesce = None
        return self._set(step.roster, f"redo {step.label}", step.where)

    def restore(self, found: Recovery) -> Change:
        """Take recovered work as the current value, an undoable step: undo brings back the
        roster as it was opened. This window's own copy of it is written first; the old copy
        goes once that worked (else it stays, the only one kept). Returns the change and what to
        tell the player when the copy could not be written."""
        change = self.apply(found.roster, "restore recovered work")
        self.break_coalescing()
        notice = self.write_recovery()
        if not self.autosave_failing:
            drop(found)
        change.notice = notice
        return change

    def pending_recovery(self) -> Recovery | None:
        """Work autosaved for this roster by a window that is gone, to offer (work the same as
        the roster is dropped at once). Work of another live window is its own: never offered."""
        found = find_recovery(self.key, own=self.window)
        if found is not None and found.roster == self.roster:
            drop(found)
            return None
        return found

    def record_saved(self, roster: RosterFile) -> Change | None:
        """The value just saved, with what a save records (the ruleset's version, each unit's
        points), as the current value without an undo step (None: nothing to record)."""
        if roster == self.roster:
            return None
        return self._set(roster, "save", Where())

    # ------------------------------------------------------------ the player's figures

    def reload_figures(self) -> Change:
        """Read the player's figures file again and re-cost every unit (no undo step: the
        file is not part of the roster)."""
        self.figures_disk = fingerprint(figures_path(self.rs.id))
        figures, self.figures_error = player_figures(self.rs)
        self.costing = Costing(self.rs, figures)
        self._pricer = self.costing.pricer(self.roster)
        self.costs = [self.costing.unit(self.roster, u, i, self._pricer) for i, u in enumerate(self.roster.units)]
        self.report = assemble(self.rs, self.roster, list(self.costs))
        self.validation = validate_report(self.report)
        self.revision += 1
        self._changed()
        return Change(True, set(range(len(self.costs))), "figures")

    def save_figures(self, figures: list[FigureDef]) -> Change:
        """Write the player's figures for this ruleset, then re-cost with them. Raises OSError;
        :class:`FileChangedError` when another window changed the file since it was read (then
        the file is read again, and nothing is written)."""
        path = figures_path(self.rs.id)
        try:
            if self.figures_disk is None and path.exists():  # made by another window since it was read
                raise FileChangedError(errno.ESTALE, "another program made it since it was read", str(path))
            save_user_figures(self.rs.id, figures, expect=self.figures_disk)
        except FileChangedError:
            self.reload_figures()
            raise
        return self.reload_figures()

    # ------------------------------------------------------------ costing

    def cost_apart(self, units: list[Unit]) -> list[UnitCost]:
        """Units not in the roster (a catalogue's figures, before one is added) priced as they
        would be in it: under its own items, house prices and settings, each as its only unit."""
        roster = self.roster.model_copy(update={"units": []})
        pricer = self.costing.pricer(roster)
        return [self.costing.unit(roster, unit, 0, pricer) for unit in units]

    def _set(self, roster: RosterFile, label: str, where: Where) -> Change:
        old = self.roster
        self.roster = roster
        self.revision += 1
        change = self._recost(old, roster)
        change.label, change.where = label, where
        self.report = assemble(self.rs, roster, list(self.costs))
        self.validation = validate_report(self.report)
        self._changed()
        return change

    def _recost(self, old: RosterFile, new: RosterFile) -> Change:
        rs = self.rs
        stale: set[str] | None = set()  # item names whose price changed; None: every unit
        repriced = False
        if any(getattr(old, k) is not getattr(new, k) and getattr(old, k) != getattr(new, k) for k in ITEM_KINDS) \
                or old.house_prices != new.house_prices:
            self._pricer = self.costing.pricer(new)
            stale = _changed_item_names(rs, old, new)
            repriced = True
        old_units, new_units = old.units, new.units
        change = Change(structure=len(old_units) != len(new_units))
        if old_units is new_units and not repriced:
            return change
        by_id = None
        costs: list[UnitCost] = []
        for i, unit in enumerate(new_units):
            cost = None
            if i < len(old_units) and old_units[i] is unit:
                cost = self.costs[i]
            else:
                if by_id is None:
                    by_id = {id(u): c for u, c in zip(old_units, self.costs)}
                cost = by_id.get(id(unit))
                if cost is not None and cost.index != i:
                    cost = _reindexed(cost, i)
                    change.structure = True
            if cost is None or (repriced and _holds_any(rs, unit, stale)):
                before = self.costs[i] if i < len(self.costs) and i < len(old_units) else None
                cost = self.costing.unit(new, unit, i, self._pricer)
                change.units.add(i)
                if before is None or before.type_id != cost.type_id:
                    change.structure = True
            costs.append(cost)
        self.costs = costs
        return change


def open_document(path: Path, registry: Registry, window: str | None = None, sample: bool = False) -> Document:
    """A roster file opened for editing (``sample``: as an unsaved copy of it); a file opened
    as itself goes on the recent list. Raises RosterkitError."""
    opened = open_roster(path, registry)
    if sample:
        return Document(dataclasses.replace(opened, path=None), origin=Path(path).name, window=window)
    doc = Document(opened, window=window)
    doc.version_change = opened.version_change
    recent.remember(path)
    return doc


def new_document(roster: RosterFile, ruleset: Ruleset, path: Path, window: str | None = None) -> Document:
    """A new roster, written to ``path`` first (a new file) and put on the recent list.
    Raises RosterkitError."""
    save_roster(roster, path)
    recent.remember(path)
    return Document(open_value(roster, ruleset, path=path), window=window)


def unsaved_document(opened: OpenRoster, origin: str, window: str | None = None) -> Document:
    """A new roster with no file yet (read from a pasted list): all of it is unsaved, so it is
    autosaved aside and closing it asks where to save it."""
    doc = Document(opened, origin=origin, window=window)
    doc.saved = None
    return doc


def recovered_document(found: Recovery, registry: Registry, window: str | None = None) -> Document:
    """Recovered work chosen on its own (not offered on opening its file), as a document whose
    saved value is its file as it is now (everything is unsaved when there is none). It is
    named as the work was, so it is offered under that name if lost again. Raises RosterkitError."""
    saved = None
    if found.path is not None and found.path.is_file():
        try:
            saved = load_roster(found.path).roster
        except RosterkitError:
            saved = None
    opened = open_value(found.roster, registry, path=found.path if saved is not None else None)
    doc = Document(opened, saved=saved, window=window)
    if saved is None:
        doc.saved = None
    if found.path is None:
        doc.key = found.key
        doc.recovery = RecoverySlot(found.key, doc.window)
    return doc


def take_over(doc: Document, found: Recovery) -> str | None:
    """The recovered work ``doc`` was made from is now this window's: its own copy is written,
    then the old one goes (kept when the copy cannot be written). What to tell the player, if anything."""
    notice = doc.write_recovery()
    if not doc.autosave_failing:
        drop(found)
    return notice


def autosave_failed(file: Path, exc: OSError) -> str:
    """The notice for an autosave that could not be written."""
    return (f"Cannot keep unsaved changes in {visible(file.parent)} ({exc.strerror or exc}): if rosterkit "
            "stops, they are lost. Save with ctrl+s; autosave tries again after each change.")


def _reindexed(cost: UnitCost, index: int) -> UnitCost:
    findings = [dataclasses.replace(f, unit=index) if f.unit is not None else f for f in cost.findings]
    return dataclasses.replace(cost, index=index, findings=findings, broken_limits=None)


def _changed_item_names(rs: Ruleset, old: RosterFile, new: RosterFile) -> set[str] | None:
    if old.house_prices != new.house_prices:
        return None
    names: set[str] = set()
    for kind in ITEM_KINDS:
        before = {norm(i.name): i for i in getattr(old, kind)}
        after = {norm(i.name): i for i in getattr(new, kind)}
        for key in before.keys() | after.keys():
            if before.get(key) != after.get(key):
                names.add(key)
                names.add(rs.canonical(key))
    return names


def _holds_any(rs: Ruleset, unit, names: set[str] | None) -> bool:
    if names is None:
        return True
    if not names:
        return False
    for m in unit.member_list():
        if m.figure:
            return True  # a catalogue figure's own gear may use the name
        for kind in ITEM_KINDS:
            for n in getattr(m, kind):
                if norm(n) in names or rs.canonical(n) in names:
                    return True
    return False
