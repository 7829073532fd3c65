"""The roster's own settings: name, points limit, notes and the ruleset's army settings."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from ...engine.roster import RosterFile
from ...rules.schema import StatDef
from ..widgets.stat_field import StatField


class RosterSettingsScreen(ModalScreen[RosterFile | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "ok", "Apply", priority=True)]

    def __init__(self, roster: RosterFile, ruleset) -> None:
        super().__init__()
        self.roster = roster
        self.rs = ruleset
        self.values: dict[str, object] = {}
        self.bad: set[str] = set()

    def compose(self) -> ComposeResult:
        rs = self.rs
        with Vertical(classes="dialog wide", id="roster-settings"):
            yield Label("Roster settings", classes="dialog-title", markup=False)
            with VerticalScroll(id="settings-form"):
                yield StatField(StatDef(id="name", label="Army name", kind="text"), id="set-name")
                yield StatField(StatDef(id="points_limit", label=f"{rs.data.points_label.capitalize()} limit",
                                        kind="int", min=1, max=10**9, optional=True), id="set-points",
                                placeholder="none")
                yield StatField(StatDef(id="notes", label="Notes", kind="text"), id="set-notes")
                if rs.data.roster_stats:
                    yield Static("Army settings of " + rs.name, classes="section", markup=False)
                    for sdef in rs.data.roster_stats:
                        yield StatField(sdef, id=f"rstat-{sdef.id}")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Apply", id="ok", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        r = self.roster
        self.query_one("#set-name", StatField).show(r.name)
        self.query_one("#set-points", StatField).show(r.points_limit)
        self.query_one("#set-notes", StatField).show(r.notes or None)
        for sdef in self.rs.data.roster_stats:
            raw = r.stats.get(sdef.id)
            self.query_one(f"#rstat-{sdef.id}", StatField).show(
                raw, inherited=sdef.default, note="default" if raw is None and sdef.default is not None else
                ("must be entered" if raw is None and sdef.required else ""))
        self.query_one("#set-name", StatField).focus_control()

    @on(StatField.Changed)
    def _changed(self, event: StatField.Changed) -> None:
        event.stop()
        fid = event.stat_field.id or ""
        if fid == "set-name" and not (isinstance(event.raw, str) and event.raw.strip()):
            event.stat_field.set_message("The army needs a name")
            self.bad.add(fid)
            return
        self.bad.discard(fid)
        self.values[fid] = event.raw

    def result(self) -> RosterFile:
        r = self.roster
        update: dict = {}
        if "set-name" in self.values:
            update["name"] = str(self.values["set-name"])[:200]
        if "set-points" in self.values:
            update["points_limit"] = self.values["set-points"]
        if "set-notes" in self.values:
            update["notes"] = self.values["set-notes"] or ""
        stats = dict(r.stats)
        for key, raw in self.values.items():
            if key.startswith("rstat-"):
                sid = key[6:]
                if raw is None:
                    stats.pop(sid, None)
                else:
                    stats[sid] = raw
        if stats != r.stats:
            update["stats"] = stats
        return r.model_copy(update=update) if update else r

    @on(Button.Pressed, "#ok")
    def action_ok(self) -> None:
        if self.query(".-invalid") or self.bad:
            self.notify("Fix the fields marked in red first", severity="warning")
            return
        self.dismiss(self.result())

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
