"""Typing into the unit editor as a person does: a key, a pause, a key; the roster checked
after every pause. Also: a half-typed or invalid field never changes the roster."""

from __future__ import annotations

import re
import shutil

from conftest import SAMPLES
from test_tui_flows import app_for, screen_text, vanguard

from rosterkit.tui.widgets.stat_field import StatField

# a fast typist's pause between keys: the app settles and redraws (60 Hz) before the next
# key, and nothing in it waits longer than this except the autosave
PAUSE = 0.12


async def keys(pilot, *pressed: str) -> None:
    for key in pressed:
        await pilot.press(key)
        await pilot.pause(PAUSE)


async def add_average_human(pilot, screen) -> int:
    await keys(pilot, "ctrl+n", *"average", "enter")
    assert pilot.app.screen is screen
    name = screen.query_one("#f-name", StatField)
    assert pilot.app.focused is name.control  # the new unit's name: letters typed next are its name
    return len(screen.session.roster.units) - 1


async def tab_to(pilot, field: StatField) -> None:
    for _ in range(8):
        if pilot.app.focused is field.control:
            return
        await keys(pilot, "tab")
    assert pilot.app.focused is field.control


async def test_typing_with_pauses_in_every_kind_of_field_then_undoing_keys_typed_at_once(registry, tmp_path):
    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        s = screen.session
        i = await add_average_human(pilot, screen)

        def unit():
            return s.roster.units[i]

        assert unit().count == 10 and s.report.total == 707, "an average human added: ten figures"

        # the count: emptied to type another number, it changes nothing until a digit comes
        count = screen.query_one("#f-count", StatField)
        await tab_to(pilot, count)
        await keys(pilot, "ctrl+a", "ctrl+k")
        assert count.control.value == "" and unit().count == 10 and s.report.total == 707, \
            "an emptied count changes nothing"
        await keys(pilot, "3")
        assert unit().count == 3 and s.report.total == 560, "3 typed: three figures"
        assert "560/500 points" in screen_text(app), "the top bar shows the new total"
        await keys(pilot, "5")
        assert unit().count == 35 and s.report.total == 1232, "5 typed: thirty-five figures"
        await keys(pilot, "backspace")
        assert unit().count == 3 and count.control.value == "3", "backspace: three again"
        await pilot.pause(1.2)  # past the autosave: nothing writes the field back
        assert count.control.value == "3" and unit().count == 3, "nothing wrote the field back"

        # a number stat (from the figure until typed)
        move = screen.query_one("#stat-move", StatField)
        await tab_to(pilot, move)
        await keys(pilot, "ctrl+a", "ctrl+k")
        assert "move" not in unit().stats, "emptied: the figure's move"
        await keys(pilot, "8")
        assert unit().stats["move"] == 8, "8 typed: the unit's move"
        await keys(pilot, "tab")  # left: the count and the move both stay
        assert unit().count == 3 and unit().stats["move"] == 8, "left: the count and the move both stay"

        # a die stat: a choice of the ruleset's dice
        die = screen.query_one("#stat-die", StatField)
        screen.set_focus(die.control)
        await keys(pilot, "enter", "down", "enter")
        chosen = die.control.value
        assert chosen != "d6" and unit().stats["die"] == chosen, "the die chosen"

        # text: the name (never empty) and the notes
        name = screen.query_one("#f-name", StatField)
        await keys(pilot, "f2")  # rename: straight to the name
        assert app.focused is name.control, "f2: the name field"
        await keys(pilot, "ctrl+a", "ctrl+k")
        assert unit().name == "Average human", "a unit needs a name: the empty one is not applied"
        assert name.unapplied and "keeps Average human" in name.message, "the field says so"
        await keys(pilot, "M", "i")
        assert unit().name == "Mi" and not name.unapplied, "Mi typed: the unit's name"
        notes = screen.query_one("#f-notes", StatField)
        screen.set_focus(notes.control)
        await keys(pilot, "a", "b")
        assert unit().notes == "ab", "the notes typed"
        # everything typed is there, once
        assert (unit().count, unit().stats["move"], unit().name) == (3, 8, "Mi"), "everything typed is there, once"

        # keys typed and ctrl+z pressed at once: the typing is one step, undone as a whole
        i = await add_average_human(pilot, screen)
        await pilot.press("f2", *"Militia", "ctrl+z")  # no pauses
        await pilot.pause(PAUSE)
        assert len(s.roster.units) == i + 1 and s.roster.units[i].name == "Average human", "the typing undone"
        assert screen.query_one("#f-name", StatField).control.value == "Average human", "the field shows it"
        await keys(pilot, "ctrl+y")
        assert s.roster.units[i].name == "Militia", "and redone as a whole"


async def test_typing_a_choice_stat(registry, tmp_path):
    path = tmp_path / "garrison.toml"
    shutil.copy(SAMPLES / "lego_combat_kingsbridge_garrison.toml", path)
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        s = screen.session
        index = screen.editor.index
        field = screen.query_one("#stat-expert_bonus", StatField)
        screen.set_focus(field.control)
        await keys(pilot, "enter", "down", "enter")
        assert field.control.value == "attack"
        assert s.roster.units[index].stats["expert_bonus"] == "attack"


def post_keys(app, *keys: str) -> None:
    """Keys posted as the terminal driver posts them, with no waiting in between (as a fast
    typist, a macro or a busy machine delivers them)."""
    from textual import events

    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else None))


async def test_fast_keys_keep_their_order_and_invalid_text_is_shown_not_applied(registry, tmp_path):
    """Two fields typed quickly both reach the roster; the editing keys (end, ctrl+u, backspace)
    act in the order they were typed, between the digits, when keys come faster than the app
    reads them; invalid text is shown, not applied, and named on save; and the keys typed fast
    into a dialog's search box keep their order too."""
    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        s = screen.session
        count = screen.query_one("#f-count", StatField)
        move = screen.query_one("#stat-move", StatField)
        screen.set_focus(count.control)
        await pilot.press("ctrl+a", "ctrl+k", "7", "tab")
        screen.set_focus(move.control)
        await pilot.press("ctrl+a", "ctrl+k", "9")
        await pilot.pause(PAUSE)
        assert s.roster.units[0].count == 7 and s.roster.units[0].stats["move"] == 9, \
            "two fields typed quickly both reach the roster"

        for typed, value in ((("end", "ctrl+u", "7"), 7), (("ctrl+u", "4", "2"), 42),
                             (("1", "backspace", "backspace", "9"), 49), (("end", "ctrl+u", "3"), 3)):
            post_keys(app, *typed)
            await pilot.pause(0.2)
            assert move.control.value == str(value), typed
            assert s.roster.units[0].stats["move"] == value, typed
            assert re.search(rf"Move *▌?{value}\b", screen_text(app)), value  # (▌: the focus ring)

        # invalid text is shown, not applied, and named on save
        defense = screen.query_one("#stat-defense", StatField)
        screen.set_focus(defense.control)
        await keys(pilot, "ctrl+a", "ctrl+k", "5", "0")
        assert s.roster.units[0].stats["defense"] == 50, "a valid value applied"
        await keys(pilot, "0")  # 500: beyond the bounds
        assert s.roster.units[0].stats["defense"] == 50, "the last valid value stays"
        assert defense.has_class("-unapplied") and defense.unapplied, "the field says it is not applied"
        message = defense.message
        assert "Not applied" in message and "keeps 50" in message, "and what the roster keeps"
        await keys(pilot, "tab")
        assert s.roster.units[0].stats["defense"] == 50 and defense.has_class("-unapplied"), "left: still not applied"

        screen.set_focus(move.control)
        before = s.roster.units[0].stats.get("move")
        await keys(pilot, "ctrl+a", "ctrl+k", "a", "b", "c")
        assert s.roster.units[0].stats.get("move") == before, "text is not a move"
        await keys(pilot, "ctrl+s")
        said = [(n.title, n.message) for n in app._notifications]
        _title, listed = next((t, m) for t, m in said if t.startswith("Not applied"))
        assert "Defense (500)" in listed and "Move (abc)" in listed, "the save names what was not applied"
        # what is saved is the roster's values, and the fields still say they are not applied
        assert "defense = 50" in (tmp_path / "vanguard.toml").read_text(), "the roster's value saved"
        await keys(pilot, "backspace", "backspace", "backspace", "7")
        assert s.roster.units[0].stats["move"] == 7 and not move.unapplied, "a valid value applies again"

        await pilot.press("ctrl+n")
        search = app.screen.query_one("#add-search")
        assert app.focused is search, "the add-unit dialog's search box has the focus"
        post_keys(app, "h", "x", "backspace", "u", "m", "ctrl+w", "a", "v", "e")
        await pilot.pause(0.2)
        assert search.value == "ave", "the dialog's search box keeps the order of fast keys"


async def test_a_stat_note_follows_an_edit_at_once(registry, tmp_path):
    """The note beside a value says where the value now comes from, as soon as it is typed:
    the catalogue figure's, the player's own, the type's bonus on what was typed."""
    path = tmp_path / "notes.toml"
    path.write_text('format = 1\nname = "Notes"\nruleset = "fast_universal"\npoints_limit = 500\n\n'
                    '[[units]]\nname = "Humans"\nfigure = "Average human"\n')
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        s = screen.session
        move = screen.query_one("#stat-move", StatField)
        assert move.note.startswith("from the figure")
        move.control.focus()
        await keys(pilot, "end", "ctrl+u")
        await keys(pilot, "8")
        assert s.roster.units[0].stats["move"] == 8
        assert "from the figure" not in move.note
        await keys(pilot, "backspace", "tab")  # emptied and left: the figure's value again
        assert "move" not in s.roster.units[0].stats
        assert move.note.startswith("from the figure")


async def test_a_type_bonus_note_follows_an_edit_at_once(registry, tmp_path):
    path = tmp_path / "bonus.toml"
    path.write_text('format = 1\nname = "Bonus"\nruleset = "lego_combat"\npoints_limit = 500\n\n'
                    '[[units]]\nname = "Sir Bob"\ntype = "Hero"\nstats = { combat = 3 }\n')
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        combat = screen.query_one("#stat-combat", StatField)
        assert combat.note.startswith("+2 Hero = 5")
        combat.control.focus()
        await keys(pilot, "end", "backspace", "4")
        assert screen.session.roster.units[0].stats["combat"] == 4
        assert combat.note.startswith("+2 Hero = 6")
