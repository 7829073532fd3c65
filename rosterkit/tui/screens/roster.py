"""The roster: units by type, the unit editor, cost, composition and findings.

Wide terminals show everything side by side; narrow ones (such as 80x24) show the units
and one panel at a time, chosen with the tabs (or F8). What is not shown is not made: the
tabs are made when the terminal is narrow, and a side panel when its tab is first shown.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.events import Resize, ScreenResume
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, TabbedContent, TabPane

from ...editing import edits
from ...editing.document import Change, Document, Where
from ...engine.roster import Member, RosterFile, Unit
from ...findings import Finding
from ...rules.numbers import fmt
from ...rules.ruleset import ITEM_KINDS
from .. import messages
from ..widgets.composition import CompositionPanel
from ..widgets.cost_panel import CostPanel
from ..widgets.findings_panel import FindingsPanel
from ..widgets.stat_field import StatField
from ..widgets.topbar import TopBar
from ..widgets.unit_editor import UnitEditor
from ..widgets.units_list import UnitsList, share_basis
from .history import HistoryActions

NARROW = 110  # columns below which the panels become tabs
WIDE = 150  # columns from which the side panels get wider
TABS = ("unit", "cost", "limits", "findings")
TAB_TITLES = {"unit": "Unit", "cost": "Cost", "limits": "Limits", "findings": "Findings"}
PANELS = {"cost": (CostPanel, "cost"), "limits": (CompositionPanel, "composition"),
          "findings": (FindingsPanel, "findings")}  # the side panels, by tab, in their order


def _make_panel(tab: str) -> Widget:
    cls, panel_id = PANELS[tab]
    return cls(id=panel_id)


class Detail(Vertical):
    """The unit editor and the side panels: side by side on a wide terminal; on a narrow one,
    one at a time in a TabbedContent, a side panel made when its tab is first shown. Crossing
    from one layout to the other recomposes it (a widget cannot move to another parent)."""

    def __init__(self, ruleset, narrow: bool, tab: str, findings_title: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ruleset = ruleset
        self.narrow = narrow
        self.tab = tab
        self.findings_title = findings_title

    def compose(self) -> ComposeResult:
        editor = UnitEditor(self.ruleset, id="editor")
        if not self.narrow:
            with Horizontal(id="panels"):
                yield editor
                with Vertical(id="side"):
                    for tab in PANELS:
                        yield _make_panel(tab)
            return
        titles = dict(TAB_TITLES, findings=self.findings_title)
        with TabbedContent(id="detail-tabs", initial=f"tab-{self.tab}"):
            with TabPane(Content(titles["unit"]), id="tab-unit"):
                yield editor
            for tab in PANELS:
                with TabPane(Content(titles[tab]), id=f"tab-{tab}"):
                    if tab == self.tab:
                        yield _make_panel(tab)


class RosterScreen(HistoryActions, Screen):
    """Edit one roster."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW, "-medium"), (WIDE, "-wide")]

    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True, tooltip="Save the roster (atomic; keeps a .bak)", id="roster.save"),
        Binding("ctrl+z", "undo", "Undo", priority=True, tooltip="Undo the last edit", id="roster.undo"),
        Binding("ctrl+y,ctrl+shift+z", "redo", "Redo", priority=True, show=False, tooltip="Redo what was undone", id="roster.redo"),
        Binding("ctrl+n", "add_unit", "Add unit", priority=True, show=False,
                tooltip="Add a unit from the catalogue or blank", id="roster.add_unit"),
        # keys that move the focus act as they arrive (priority), so the keys typed next go where
        # the focus went, not to the widget that had it while the key made its way up
        Binding("f2", "rename_unit", "Rename", show=False, priority=True, tooltip="Rename the selected unit", id="roster.rename_unit"),
        Binding("f3", "design", "Design", show=False, tooltip="Design the roster's own weapons and abilities", id="roster.design"),
        Binding("f4", "ruleset", "Ruleset", show=False, tooltip="Browse the ruleset: stats, types, formulas, catalogues", id="roster.ruleset"),
        Binding("f5", "matchup", "Match-up", show=False, tooltip="Check this roster against an opponent's", id="roster.matchup"),
        Binding("f6", "export", "Export", show=False, tooltip="The list as text or Markdown; PDF cards", id="roster.export"),
        Binding("f7", "settings", "Settings", show=False, tooltip="Army name, points limit, notes, army settings", id="roster.settings"),
        # the footer shows the keys used most, whole at 60 columns; F1 and ctrl+p list them all
        Binding("f8", "next_panel", "Panels", priority=True, show=False,
                tooltip="Show the next panel (unit, cost, limits, findings)", id="roster.next_panel"),
        Binding("tab", "app.focus_next", "Next field", show=False, priority=True, id="roster.focus_next"),
        Binding("shift+tab", "app.focus_previous", "Previous field", show=False, priority=True, id="roster.focus_previous"),
        Binding("escape", "focus_units", "Units", show=False, tooltip="Back to the units list", id="roster.focus_units"),
        Binding("f9", "add_member", "Add figures", show=False, priority=True, id="roster.add_member",
                tooltip="Add figures of another kind to the unit (a unit of one kind becomes mixed)"),
        Binding("shift+f9", "remove_member", "Remove figures", show=False, priority=True, id="roster.remove_member",
                tooltip="Remove the figures shown from a mixed unit"),
        Binding("alt+c", "focus_count", "Count", show=False, priority=True, id="roster.focus_count",
                tooltip="Change how many figures of the kind shown the unit has"),
        Binding("alt+n,ctrl+down", "finding(1)", "Next finding", show=False, priority=True, id="roster.next_finding",
                tooltip="Go to the next error or warning"),
        Binding("alt+p,ctrl+up", "finding(-1)", "Previous finding", show=False, priority=True,
                id="roster.previous_finding", tooltip="Go to the previous error or warning"),
        Binding("f10", "app.play_army", "Play this army", show=False, id="roster.play",
                tooltip="A game at the table: mark wounds and losses, score, turns"),
    ]

    def __init__(self, session: Document, registry, cwd: Path, width: int = 160) -> None:
        # the size class is set from the start (the breakpoints set it again on each resize):
        # changing a screen's classes once shown restyles all of it
        super().__init__(classes=next(c for w, c in reversed(self.HORIZONTAL_BREAKPOINTS) if width >= w))
        self.session = session
        self.registry = registry
        self.cwd = cwd
        self.selected: int | None = 0 if session.roster.units else None
        self._finding = -1  # the finding last gone to with the keys
        self._tab = "unit"  # the tab shown when the terminal is narrow
        self._seen_revision = session.revision
        self._narrow = width < NARROW

    # ------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield TopBar(id="topbar")
        with Horizontal(id="body"):
            with Vertical(id="units-pane"):
                yield UnitsList(id="units")
            yield Detail(self.session.rs, self._narrow, self._tab, self._findings_label(), id="detail")
        yield Footer(compact=True)

    @property
    def _tabbed(self) -> TabbedContent | None:
        found = self.query("#detail-tabs")
        return found.first(TabbedContent) if found else None

    def panel(self, tab: str) -> Widget | None:
        """A side panel ("cost", "limits", "findings"), or None while it has not been shown."""
        found = self.query(f"#{PANELS[tab][1]}")
        return found.first() if found else None

    def _show_panel(self, tab: str) -> None:
        self._fill(self.panel(tab))

    def _fill(self, panel: Widget | None) -> None:
        s = self.session
        if isinstance(panel, CostPanel):
            panel.show(s, self.selected)
        elif isinstance(panel, CompositionPanel):
            panel.show(s)
        elif isinstance(panel, FindingsPanel):
            panel.show(s)

    def on_mount(self) -> None:
        self.query_one("#units-pane").border_title = "Units"
        self._load_detail()
        self.units.rebuild(self.session, keep=self.selected)
        self.units.focus()

    def _load_detail(self) -> None:
        editor = self.editor
        editor.receiver = self._edited
        editor.load(self.session, self.selected)
        self._refresh_panels()

    async def on_resize(self, event: Resize) -> None:
        narrow = event.size.width < NARROW
        if narrow == self._narrow:
            return
        self._narrow = narrow
        self.apply_pending()  # what the focused field holds is kept, the editor being made anew
        detail = self.query_one(Detail)
        focused = self.focused
        kept = None  # the id of the field that has the focus, if it is in the detail
        if focused is not None and detail in focused.ancestors:
            kept = next((w.id for w in (focused, *focused.ancestors) if w.id), None)
        detail.narrow, detail.tab, detail.findings_title = narrow, self._tab, self._findings_label()
        await detail.recompose()
        self._load_detail()
        if kept is not None:
            self._refocus(kept)

    def _refocus(self, widget_id: str) -> None:
        """Focus again, in the editor made anew, the field that had the focus."""
        found = self.query(f"#{widget_id}") if widget_id != "detail" else None
        widget = found.first() if found else None
        if isinstance(widget, StatField):
            widget.focus_control()
        elif widget is not None and widget.focusable:
            widget.focus()
        else:
            self.units.focus()

    @property
    def tab(self) -> str:
        """The tab shown when the terminal is narrow: "unit", "cost", "limits" or "findings"."""
        return self._tab

    def _set_tab(self, tab: str) -> None:
        self._tab = tab
        tabbed = self._tabbed
        if tabbed is not None and tabbed.active != f"tab-{tab}":
            tabbed.active = f"tab-{tab}"  # its TabActivated message makes the panel, if need be

    @property
    def narrow(self) -> bool:
        return self._narrow

    @on(TabbedContent.TabActivated, "#detail-tabs")
    def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        event.stop()
        tab = (event.pane.id or "tab-unit").removeprefix("tab-")
        self._tab = tab
        if tab in PANELS and not event.pane.children:  # not made until first shown
            panel = _make_panel(tab)
            self._fill(panel)
            event.pane.mount(panel)

    # ------------------------------------------------------------ refreshing

    @property
    def units(self) -> UnitsList:
        return self.query_one(UnitsList)

    @property
    def editor(self) -> UnitEditor:
        return self.query_one(UnitEditor)

    def _refresh_panels(self) -> None:
        s = self.session
        for tab in PANELS:
            self._show_panel(tab)
        self._refresh_title()
        pane, title = self.query_one("#units-pane"), f"Units ({len(s.roster.units)}) · {share_basis(s)}"
        if pane.border_title != title:  # (setting it redraws the whole pane)
            pane.border_title = title
        tabbed = self._tabbed
        if tabbed is not None:
            tab = tabbed.get_tab("tab-findings")
            label = self._findings_label()
            if str(tab.label) != label:
                tab.label = Content(label)

    def _findings_label(self) -> str:
        problems = len(self.session.validation.findings)
        return f"Findings ({problems})" if problems else "Findings"

    def _refresh_title(self) -> None:
        s = self.session
        rs, report = s.rs, s.report
        left = Text.assemble((s.roster.name, "bold"), (f" · {rs.name}", ""), (f" · {s.title}", "dim"))
        total = fmt(report.total) + (f"/{fmt(report.limit)}" if report.limit is not None else "")
        right = Text(f"{total} {rs.data.points_label}  ")
        errors = len(s.validation.errors)
        warnings = sum(1 for f in s.validation.findings if f.severity == "warning")
        if errors:
            right.append(f"✘ {errors} error{'s' if errors != 1 else ''}", style="bold red")
        elif warnings:
            right.append(f"! {warnings} warning{'s' if warnings != 1 else ''}", style="bold yellow")
        else:
            right.append("✔ valid", style="bold green")
        if s.dirty:
            right.append("  ● unsaved", style="bold yellow")
        bar = self.query_one(TopBar)
        bar.left, bar.right = left, right

    def after_change(self, change: Change | None, *, from_editor: bool = False, select: int | None = None,
                     focus_field: str | None = None, member: int | None = None) -> None:
        """Bring the screen up to date with the session after an edit, undo or redo."""
        if change is None:
            return
        s = self.session
        self._seen_revision = s.revision
        n = len(s.roster.units)
        if select is not None:
            self.selected = select
        if self.selected is not None and self.selected >= n:
            self.selected = n - 1 if n else None
        if self.selected is None and n:
            self.selected = 0
        units = self.units
        if change.structure:
            units.rebuild(s, keep=self.selected)
        else:
            units.update_units(change.units)
            if select is not None and units.current_unit != self.selected:  # (scrolling to it again costs a frame's work)
                units.select_unit(self.selected, announce=False)
        editor = self.editor
        if from_editor and editor.index == self.selected:
            editor.refresh_costs()
        else:
            editor.load(s, self.selected, member=member)
            if focus_field is not None and self.selected is not None:
                editor.focus_field(focus_field, member)
        self._refresh_panels()

    def apply(self, roster: RosterFile, label: str, where: Where = Where(), coalesce: object = None,
              **kw) -> None:
        change = self.session.apply(roster, label, where, coalesce)
        self.after_change(change, **kw)

    def on_screen_resume(self, event: ScreenResume) -> None:
        if self.session.revision != self._seen_revision:  # edited elsewhere (design screen, a restored recovery)
            self.after_change(Change(structure=True))

    # ------------------------------------------------------------ selection and editing

    @on(UnitsList.UnitHighlighted)
    def _unit_highlighted(self, event: UnitsList.UnitHighlighted) -> None:
        if event.index is None or event.index == self.selected and self.editor.index == event.index:
            return
        self.selected = event.index
        self.editor.load(self.session, self.selected)
        self._show_panel("cost")

    @on(UnitsList.UnitChosen)
    def _unit_chosen(self, event: UnitsList.UnitChosen) -> None:
        self.selected = event.index
        if self.narrow:
            self._set_tab("unit")
        self.editor.focus_field("name")

    @on(UnitEditor.Edited)
    def _edited_message(self, event: UnitEditor.Edited) -> None:
        event.stop()
        self._edited(event)

    def _edited(self, event: UnitEditor.Edited) -> None:
        s = self.session
        if event.index >= len(s.roster.units) or not event.current:  # out of date: typed on, or undone
            return
        unit = s.roster.units[event.index]
        new = event.change(unit)
        if event.field == "type":  # the type list gives the type's id
            new = edits.printed_type(s.rs, new)
        if new == unit:
            return
        roster = edits.replace_unit(s.roster, event.index, new)
        structural = event.field in ("members", "type")
        self.apply(roster, event.label, Where(unit=event.index, field=event.field, member=event.member),
                   event.coalesce, from_editor=not structural, select=event.index, member=event.member)

    @on(UnitEditor.ItemWanted)
    def _item_wanted(self, event: UnitEditor.ItemWanted) -> None:
        from .item_picker import ItemPickerScreen

        event.stop()
        s = self.session
        cost = s.costs[event.index]
        mi = event.member or 0
        mc = cost.members[mi] if mi < len(cost.members) else None
        tdef = s.rs.types.get(cost.type_id) if cost.type_id else None
        editor = event.editor

        def done(name: str | None) -> None:
            if name:
                editor.add_item(event.kind, name)

        self.app.push_screen(ItemPickerScreen(s, event.kind, mc, tdef, cost.name), done)

    @on(UnitEditor.MemberWanted)
    def _member_wanted(self, event: UnitEditor.MemberWanted) -> None:
        from .add_unit import AddUnitScreen

        event.stop()
        editor = event.editor

        def done(member: Unit | Member | None) -> None:
            if isinstance(member, Member):
                editor.add_member(member)

        self.app.push_screen(AddUnitScreen(self.session, member=True), done)

    # ------------------------------------------------------------ unit actions

    def action_add_unit(self) -> None:
        from .add_unit import AddUnitScreen

        def done(unit: Unit | Member | None) -> None:
            if not isinstance(unit, Unit):
                return
            s = self.session
            index = len(s.roster.units)
            self.apply(edits.insert_unit(s.roster, index, unit), f"add {unit.name}", Where(unit=index),
                       select=index)
            if self.narrow:
                self._set_tab("unit")
            # the new unit is named first (focused once the dialog has gone): letters typed next
            # are its name, not the units list's keys
            self.call_after_refresh(self.editor.focus_name)
            self.notify(f"Added {unit.name}", timeout=2)

        self.app.push_screen(AddUnitScreen(self.session), done)

    def action_duplicate_unit(self) -> None:
        s, i = self.session, self.selected
        if i is None:
            return
        unit = s.roster.units[i]
        copy = unit.model_copy(update={"name": edits.copy_name(unit.name, {u.name for u in s.roster.units})})
        self.apply(edits.insert_unit(s.roster, i + 1, copy), f"duplicate {unit.name}", Where(unit=i + 1),
                   select=i + 1)
        self.notify(f"Duplicated {unit.name} as {copy.name}", timeout=2)

    def action_delete_unit(self) -> None:
        s, i = self.session, self.selected
        if i is None:
            return
        order = self.units.unit_order()
        pos = order.index(i) if i in order else 0
        name = s.roster.units[i].name
        following = [u for u in order[pos + 1:]] or [u for u in order[:pos]][-1:]
        nxt = following[0] if following else None
        if nxt is not None and nxt > i:
            nxt -= 1
        self.apply(edits.delete_unit(s.roster, i), f"delete {name}", Where(unit=i), select=nxt)
        self.notify(f"Deleted {name} (ctrl+z brings it back)", timeout=3)

    def action_move_unit(self, step: int) -> None:
        s, i = self.session, self.selected
        if i is None:
            return
        type_id = s.costs[i].type_id
        order = [u for u in self.units.unit_order() if s.costs[u].type_id == type_id]
        pos = order.index(i)
        if not 0 <= pos + step < len(order):
            return
        j = order[pos + step]
        self.apply(edits.move_unit(s.roster, i, j), f"move {s.roster.units[i].name}", Where(unit=j), select=j)

    def action_rename_unit(self) -> None:
        if self.selected is None:
            return
        if self.narrow:
            self._set_tab("unit")
        self.editor.focus_name()

    def _before_undo(self) -> None:
        self.apply_pending()

    def apply_pending(self) -> None:
        """Apply what the focused field holds and the roster does not have yet (its message may
        still be on the way), so that undo and save see everything typed."""
        edit = self.editor.pending_edit()
        if edit is not None:
            self._edited(edit)

    def action_focus_units(self) -> None:
        self.units.focus()

    def action_next_panel(self) -> None:
        if self.narrow:
            self._set_tab(TABS[(TABS.index(self.tab) + 1) % len(TABS)])
            return
        findings = self.panel("findings")
        order = [self.units, self.editor] + ([findings.list] if isinstance(findings, FindingsPanel) else [])
        focused = self.focused
        for k, w in enumerate(order):
            if focused is not None and (focused is w or w in focused.ancestors):
                nxt = order[(k + 1) % len(order)]
                break
        else:
            nxt = order[0]
        if nxt is self.editor:
            self.editor.focus_field("name")
        else:
            nxt.focus()

    # ------------------------------------------------------------ undo, redo, save

    def _after_history(self, change: Change) -> None:
        where = change.where
        n = len(self.session.roster.units)
        select = where.unit if where.unit is not None and where.unit < n else None
        self.after_change(change, select=select, member=where.member)
        self.notify(change.label.capitalize(), timeout=2)

    def action_save(self) -> None:
        """Save (the app asks where, or about a file changed on disk, as need be). A field whose
        text is not a valid value is not applied, and the notice lists it."""
        self.apply_pending()
        unapplied = self.editor.unapplied()
        if unapplied:
            self.notify("\n".join(unapplied), title="Not applied: the roster keeps the last valid values",
                        severity="warning", timeout=10)
        self.post_message(messages.SaveRequested(self.session))

    @on(messages.Saved)
    def _saved(self, event: messages.Saved) -> None:
        if event.document is self.session:
            self.after_change(event.change)
            self._refresh_title()

    def on_screen_suspend(self) -> None:
        """What the focused field holds is applied when another screen or a dialog comes over
        this one: a save asked for there (quitting, the design screen) sees it."""
        if self.query(UnitEditor):  # (not while the screen is taken down)
            self.apply_pending()

    # ------------------------------------------------------------ findings

    def action_add_member(self) -> None:
        if self.selected is not None:
            self.editor.post_message(UnitEditor.MemberWanted(self.editor, self.selected))

    def action_remove_member(self) -> None:
        self.editor.remove_member()

    def action_focus_count(self) -> None:
        if self.selected is not None:
            if self.narrow:
                self._set_tab("unit")
            self.editor.focus_field("count", self.editor.member)

    def action_finding(self, step: int) -> None:
        """The next (or previous) finding after the one last gone to, round the list."""
        findings = self.session.validation.findings
        if not findings:
            self.notify("No errors or warnings.", timeout=2)
            return
        n = len(findings)
        self._finding = (0 if step > 0 else n - 1) if self._finding < 0 else (self._finding + step) % n
        f = findings[self._finding]
        self.notify(f.message, title=f"Finding {self._finding + 1} of {len(findings)}",
                    severity="error" if f.severity == "error" else "warning", timeout=4)
        self.jump_to(f)

    @on(FindingsPanel.Jump)
    def _jump(self, event: FindingsPanel.Jump) -> None:
        event.stop()
        self.jump_to(event.finding)

    def jump_to(self, f: Finding) -> None:
        s = self.session
        if f.unit is not None and f.unit < len(s.roster.units):
            self._go_unit(f.unit, f.field or "name", f.member)
            return
        field = f.field or ""
        kind = field.split("[")[0]
        if kind in ITEM_KINDS:
            self.action_design()
            return
        if field.startswith("stats.") or field == "house_prices":
            self.action_settings()
            return
        unit = self._unit_for_limit(f.rule)
        if unit is not None:
            self._go_unit(unit, "count", None)
            self.notify(f.message, title="Limit", severity="warning" if f.severity == "warning" else "error",
                        timeout=6)
        else:
            self.notify(f.message, severity="warning", timeout=6)

    def _go_unit(self, unit: int, field: str, member: int | None) -> None:
        self.selected = unit
        self.units.select_unit(unit, announce=False)
        if self.narrow:
            self._set_tab("unit")
        self.editor.load(self.session, unit, member=member)
        self._show_panel("cost")
        self.editor.focus_field(field, member)

    def _unit_for_limit(self, rule: str) -> int | None:
        """For an army-wide limit: the costliest unit of the types it measures."""
        s = self.session
        lim = next((lim for lim in s.rs.limits if lim.spec.id == rule), None)
        if lim is None:
            return None
        types = lim.measured_types
        candidates = [c for c in s.costs if not types or c.type_id in types]
        if not candidates:
            return None
        return max(candidates, key=lambda c: c.total).index

    # ------------------------------------------------------------ other screens

    def action_design(self) -> None:
        from .design import DesignScreen

        self.app.push_screen(DesignScreen(self.session, self.selected))

    def action_ruleset(self) -> None:
        from .ruleset_browser import RulesetScreen

        self.app.push_screen(RulesetScreen(self.session.rs))

    def action_matchup(self) -> None:
        from .matchup import MatchupScreen

        self.app.push_screen(MatchupScreen(self.session, self.registry, self.cwd))

    def action_export(self) -> None:
        from .export import ExportScreen

        self.app.push_screen(ExportScreen(self.session, self.cwd))

    def action_settings(self) -> None:
        from .roster_settings import RosterSettingsScreen

        def done(roster: RosterFile | None) -> None:
            if roster is not None and roster is not self.session.roster:
                self.apply(roster, "roster settings")

        self.app.push_screen(RosterSettingsScreen(self.session.roster, self.session.rs), done)
