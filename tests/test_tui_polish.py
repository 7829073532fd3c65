"""The interface's finish: dialogs that search as typed, the first finding preselected, counts
and articles, duplicate names, the new-roster form, the export's card choices, focus marks."""

from __future__ import annotations

import re
import shutil

from conftest import SAMPLES
from test_tui_flows import WIDE, app_for, empty_roster, screen_text, text_of, vanguard
from test_tui_small_terminal import screen_lines

from rosterkit.tui.screens.add_unit import AddUnitScreen
from rosterkit.tui.screens.export import ExportScreen
from rosterkit.tui.screens.item_picker import ItemPickerScreen
from rosterkit.tui.widgets.findings_panel import FindingsPanel
from rosterkit.tui.widgets.stat_field import StatField
from rosterkit.words import count_of, with_article


def test_counts_and_articles():
    assert count_of(1, "type") == "1 type" and count_of(2, "type") == "2 types" and count_of(0, "unit") == "0 units"
    assert count_of(2, "ability", "abilities") == "2 abilities"
    assert with_article("ares") == "an ares" and with_article("lego_combat") == "a lego_combat"


async def test_type_headings_duplicate_names_and_both_add_dialogs(registry, tmp_path):
    """On one roster: the type headings show their share of the limit as the limits do (one
    basis for every percentage: the points limit, as the composition limits count; the units
    pane's title says so); duplicate unit names are marked; both add dialogs search as typed
    and add on enter."""
    from rosterkit.rules.numbers import fmt_pct

    assert fmt_pct(101, 400) == "25.3%", "half up, as players round (half-even would give 25.2%)"
    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        screen = app.screen
        s = screen.session
        units = screen.units
        assert "% of 500" in str(screen.query_one("#units-pane").border_title), "the units pane names the basis"
        basic = str(units.get_option("type-basic").prompt)
        hero = str(units.get_option("type-hero").prompt)
        assert basic.endswith("382 76.4%") and hero.endswith("115 23%"), "of the 500-point limit"
        screen.set_focus(screen.query_one("#f-count", StatField).control)
        await pilot.press("ctrl+a", "ctrl+k", "5")  # Spearmen 10 -> 5: 105 fewer
        await pilot.pause()
        assert str(units.get_option("type-basic").prompt).endswith("277 55.4%"), "the basic units' share follows"
        assert str(units.get_option("type-hero").prompt).endswith("115 23%"), "its share of the limit stays"
        limits = screen.panel("limits")
        assert limits is not None and "Heroes" in limits.plain, "the limits panel"

        # duplicate unit names are marked
        name = screen.query_one("#f-name", StatField)
        assert name.note == "", "no note under a name of its own"
        screen.set_focus(name.control)
        await pilot.press("end", "ctrl+u", *s.roster.units[1].name)
        await pilot.pause()
        assert s.roster.units[0].name == s.roster.units[1].name, "the first unit renamed as the second"
        assert "2 units have this name" in name.note and "2 units have this name" in screen_text(app), \
            "the name's note says so, on screen"
        lines = [str(screen.units.get_option(f"unit-{i}").prompt) for i in (0, 1)]
        assert all(line.startswith("! ") for line in lines), "both units' lines marked"
        await pilot.press("x")
        await pilot.pause()
        assert name.note == "", "a name of its own again: no note"

        # both add dialogs search as typed and add on enter
        await pilot.press("ctrl+n")
        dialog = app.screen
        assert isinstance(dialog, AddUnitScreen) and app.focused is dialog.query_one("#add-search"), \
            "ctrl+n: the add-unit dialog, its search box focused"
        await pilot.press(*"hero")
        await pilot.pause()
        assert dialog.current is not None and dialog.current[1].name == "Hero", "hero typed: the Hero highlighted"
        await pilot.press("enter")
        assert app.screen is screen and s.roster.units[-1].type == "Hero", "enter: a hero added"

        screen.set_focus(screen.query_one("#items-weapons .item-options"))
        await pilot.press("a")
        picker = app.screen
        assert isinstance(picker, ItemPickerScreen) and app.focused is picker.query_one("#pick-search"), \
            "a: the item picker, its search box focused"
        shown_before = len(picker.shown)
        await pilot.press(*"bow")
        await pilot.pause()
        assert 1 <= len(picker.shown) < shown_before, "bow typed: fewer entries"
        assert all("bow" in (e[0].name + " ".join(getattr(e[0], "aliases", [])) + e[0].description).casefold()
                   for e in picker.shown), "each entry shown matches"
        wanted = picker.current[0].name
        await pilot.press("enter")  # the highlighted entry, even with several shown
        assert app.screen is screen and wanted in s.roster.units[-1].weapons, "enter: the highlighted entry added"


async def test_catalogue_price_is_the_price_in_this_roster(registry, tmp_path):
    path = tmp_path / "garrison.toml"
    shutil.copy(SAMPLES / "lego_combat_kingsbridge_garrison.toml", path)
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+n")
        dialog = app.screen
        for choice in [c for c in dialog.choices if c[0] == "figure"]:
            preview = dialog._cost(dialog._unit(choice))
            real = dialog.session.costing.unit(dialog.session.roster, dialog._unit(choice), 0)
            assert preview.total == real.total


async def test_first_finding_is_preselected(registry, tmp_path):
    app = app_for(registry, tmp_path, SAMPLES / "fast_universal_INVALID_hero_heavy.toml")
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        screen = app.screen
        panel = screen.panel("findings")
        assert isinstance(panel, FindingsPanel) and panel.findings
        assert panel.list.highlighted == 0
        panel.list.focus()
        await pilot.press("enter")  # straight to the first finding
        await pilot.pause()
        assert app.focused is not panel.list


async def test_export_offers_the_card_choices_of_the_cards_command(registry, tmp_path):
    from rosterkit.tui.screens.export import pdf_module

    if pdf_module() is None:
        import pytest

        pytest.skip("no PDF cards here")
    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f6")
        screen = app.screen
        assert isinstance(screen, ExportScreen)
        screen.query_one("#export-size").value = "tarot"
        screen.query_one("#export-paper").value = "letter"
        screen.query_one("#export-per").value = "figure"
        screen.query_one("#export-summary").value = False
        screen.query_one("#export-glossary").value = False
        await pilot.pause()
        o = screen.card_options
        assert (o.size, o.paper, o.per, o.summary, o.glossary, o.cut_marks) == \
            ("tarot", "letter", "figure", False, False, True)
        await pilot.press("p", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        status = text_of(screen.query_one("#export-status"))
        assert "tarot 70 x 120 mm" in status and "one per figure" in status and "4 to a Letter sheet" in status
        assert (tmp_path / "vanguard_cards.pdf").read_bytes().startswith(b"%PDF")


async def test_export_takes_an_own_card_size_a_gutter_and_backs(registry, tmp_path):


    from rosterkit.tui.screens.export import pdf_module

    if pdf_module() is None:
        import pytest

        pytest.skip("no PDF cards here")
    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("f6")
        screen = app.screen
        own = screen.query_one("#export-own-size")
        own.focus()
        await pilot.press(*"20x30mm")
        await pilot.pause()
        assert screen.card_options.size == "poker"  # too small to print on: not used, and said so
        assert "Own size not used" in screen_text(app) and "at least 40 mm" in screen_text(app)
        await pilot.press(*["backspace"] * 7, *"57x89mm")
        await pilot.pause()
        assert screen.card_options.size == "57x89mm"
        screen.query_one("#export-size").value = "tarot"  # the typed size stays the one used
        await pilot.pause()
        assert screen.card_options.size == "57x89mm"
        gutter = screen.query_one("#export-gutter")
        gutter.focus()
        await pilot.press("backspace", "2", "5")
        await pilot.pause()
        # 25 mm is beyond 20: not used, said so, and the last valid value (2) kept
        assert screen.card_options.gutter == 2 and "Gutter not used" in screen_text(app)
        await pilot.press("backspace", "0")
        await pilot.pause()
        assert screen.card_options.gutter == 20 and "Gutter not used" not in screen_text(app)
        await pilot.press("backspace", "backspace", "3")
        await pilot.pause()
        assert screen.card_options.gutter == 3
        screen.query_one("#export-backs").value = True
        await pilot.pause()
        assert screen.card_options.backs
        screen.query_one("#export-text").focus()
        await pilot.press("p", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        status = text_of(screen.query_one("#export-status"))
        assert "57 x 89 mm" in status, status
        assert (tmp_path / "vanguard_cards.pdf").read_bytes().startswith(b"%PDF")


async def test_focused_field_label_stands_out_only_while_focused(registry, tmp_path):
    app = app_for(registry, tmp_path, empty_roster(tmp_path))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+n", "enter")
        await pilot.pause()  # (the new unit's name has the focus)
        screen = app.screen
        move = screen.query_one("#stat-move", StatField)
        def label_style():  # as the label is drawn
            return move.query_one(".stat-label").rich_style

        plain = label_style()
        screen.set_focus(move.control)
        await pilot.pause()
        assert label_style().color != plain.color and label_style().bold
        await pilot.press("tab")
        await pilot.pause()
        assert label_style() == plain


def footer_pairs(app) -> list[str]:
    """Each key the footer offers as the player reads it: "^s Save" (one per action)."""
    pairs: dict[str, str] = {}
    for active in app.screen.active_bindings.values():
        binding = active.binding
        if binding.show and binding.action not in pairs:
            pairs[binding.action] = f"{app.get_key_display(binding)} {binding.description}"
    return list(pairs.values())


def footer_shows_whole(app, *wanted: str) -> None:
    """The bottom line shows every key of the footer whole, the palette's at the right end,
    and the keys wanted among them."""
    footer = screen_lines(app)[-1]
    left, palette = footer.rsplit("▏", 1)
    assert palette.strip() == "^p palette", footer
    for pair in footer_pairs(app):
        assert re.search(rf"(^| ){re.escape(pair)}( |$)", left.rstrip()), (pair, footer)
    assert set(wanted) <= set(footer_pairs(app)), (wanted, footer)


async def test_the_footer_shows_whole_keys_at_60_and_80_columns(registry, tmp_path):
    """At 60 and 80 columns the footer never cuts a key or its description: it offers the keys
    used most, whole; F1 and the palette give the rest (Export, Panels, Quit). (Another screen's
    keys, whole at 60 columns, are whole at 80.)"""
    from rosterkit.tui.keys import palette_entries
    from rosterkit.tui.screens.design import DesignScreen

    app = app_for(registry, tmp_path, vanguard(tmp_path))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        screen = app.screen
        for focus, keys in ((screen.units, ("a Add", "del Delete")),
                            (screen.query_one("#items-weapons .item-options"), ("a Add", "del Remove"))):
            screen.set_focus(focus)
            for size in ((80, 24), (60, 20)):
                await pilot.resize_terminal(*size)
                await pilot.pause()
                footer_shows_whole(app, *keys, "^s Save", "^z Undo", "f1 Help")
        listed = {(info.keys[0], info.description) for info in palette_entries(app, screen)}  # F1's and the palette's
        assert {("f6", "Export"), ("f8", "Panels"), ("^q", "Quit")} <= listed, listed
        for key, screen_keys in (("f6", ("esc Back", "c Copy", "s Save text", "p PDF cards")),
                                 ("f3", ("esc Back", "^z Undo", "^s Save", "^n New item")),
                                 ("f10", ("space Mark", "u Undo", "t Turn", "q Close"))):
            screen.units.focus()
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is not screen
            if isinstance(app.screen, DesignScreen):  # a catalogue weapon: every design key applies
                app.screen.query_one("#design-list").highlighted = app.screen.rows.index(("catalogue", "weapons", 10))
                await pilot.pause()
            footer_shows_whole(app, *screen_keys, "f1 Help")
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is screen


async def test_an_item_without_a_printed_price_is_not_called_published(registry, tmp_path):
    path = tmp_path / "garrison.toml"
    text = (SAMPLES / "lego_combat_kingsbridge_garrison.toml").read_text()
    path.write_text(text.replace('house_prices = { "Helmet" = 3, "Shield" = 3 }', ""))
    app = app_for(registry, tmp_path, path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        screen = app.screen
        shown = [str(screen.query_one("#items-equipment .item-options").get_option_at_index(i).prompt)
                 for i in range(2)]
        assert shown[0].startswith("Helmet") and shown[1].startswith("Shield")
        assert all("published" not in line and "no price in the rules" in line for line in shown)
        weapons = str(screen.query_one("#items-weapons .item-options").get_option_at_index(0).prompt)
        assert weapons.startswith("Spear") and "(published)" in weapons  # the rules print the spear's 7


