"""Trackers from the rules: declared in each ruleset's card section, printed on the cards."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import SAMPLES, load
from pdfdraw import squares
from pypdf import PdfReader

from rosterkit.cards.content import CardBuilder
from rosterkit.cards.pdf import CardOptions
from rosterkit.cards.sizes import card_size
from rosterkit.editing.play import TRACK, Game, TrackerState
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.trackers import MAX_BOXES
from rosterkit.errors import RosterkitError
from rosterkit.files.rosters import load_roster
from rosterkit.files.rulesets import builtin_dir, compile_ruleset_text


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def cards_text(sample_cards, sample: str) -> list[str]:
    """The text of each card of a sample army at poker size, one string a card."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size="poker", paper="a4", summary=False))
    text = "\n".join(shared.pages)
    return [squash(c) for c in re.split(r"card \d+ of \d+", text)[:-1]]


def card(cards: list[str], title: str) -> str:
    return next(c for c in cards if c.startswith(squash(title)))


@pytest.mark.parametrize("ruleset, expected", [
    ("heroic_gods", {("Panicked", "check", "unit"), ("Locked", "check", "unit"), ("Spear lost", "check", "unit"),
                     ("God chips", "boxes", "army"), ("God events", "check", "army")}),
    ("fast_universal", {("Hits", "die", "unit"), ("Casualties", "boxes", "unit"),
                        ("Failed morale", "check", "unit"), ("Disordered", "check", "unit"),
                        ("Formation", "check", "unit"),
                        ("Damage", "boxes", "unit")}),
    ("lego_combat", {("Casualties", "boxes", "unit"), ("Stun", "boxes", "unit"), ("Reload", "boxes", "unit")}),
    ("for_the_masses", {("Wounds", "boxes", "unit"), ("CP left this turn", "counter", "unit"),
                        ("Actions", "check", "unit")}),
    ("ares", {("Wounds", "boxes", "unit"), ("Shaken", "boxes", "unit")}),
])
def test_each_ruleset_declares_its_trackers_as_data(ruleset, expected):
    rs = load(ruleset)
    assert {(tr.name, tr.kind, tr.on) for tr, _ in rs.card_trackers} == expected


def test_heroic_gods_cards_tick_god_chips_events_panic_and_the_spear(sample_cards):
    cards = cards_text(sample_cards, "heroic_gods_achaeans")
    army = "".join(c for c in cards if "AchaeanRaiders" in c[:40])
    assert "GodchipsGodchips123" in army or "Godchips123" in army
    for event, effect in (("Godfights", "+2D,+2attackroll"), ("Heal", "onewoundedfigureheals")):
        assert f"{event}:{effect}" in army
    achilles = card(cards, "Achilles")
    # one plain box each, with its effect beside it (no number: one box counts nothing)
    assert "Woundedstatshalved" in achilles and "Panickedflees" in achilles and "Wounded1" not in achilles
    assert "Spearlostthrown" in achilles
    # locked in melee after a round where both were wounded or unharmed: either may panic next phase
    assert "Lockedinmeleefromthelastphase:maychoosetopanic" in achilles


@pytest.mark.parametrize("sample", ["for_the_masses_alvernan_host", "for_the_masses_orc_warband"])
def test_for_the_masses_cards_count_the_actions_a_unit_takes(sample_cards, sample):
    """Each action a unit takes in a turn costs a CP more than the last: every unit card, a
    Personality's too, has four boxes to tick under its wounds, each saying what it costs."""
    cards = [c for c in cards_text(sample_cards, sample) if not c.startswith("Reference")]
    assert len(cards) == 4
    for c in cards:
        assert "Actions:1CP2CP3CP4CP" in c and "Actions:1st" not in c, c
        assert c.index("Wounds") < c.index("Actions:1CP"), c


@pytest.mark.parametrize("sample, army", [
    ("heroic_gods_achaeans", "Achaean Raiders"),
    ("heroic_gods_warning_chips_without_hero", "Leaderless Levy"),
    ("heroic_gods_warning_duplicate_base_ids", "Muddled Warband"),
])
@pytest.mark.parametrize("size", ["poker", "tarot", "a6", "index"])
def test_heroic_gods_army_card_holds_its_chips_and_every_event(sample_cards, sample, army, size):
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    report = shared.report
    roster = report.roster
    text = "\n".join(shared.pages)
    cards = [squash(c) for c in re.split(r"card \d+ of \d+", text)[:-1]]
    armies = [c for c in cards if c.startswith(squash(army))]
    assert len(armies) == 1 and "continued" not in armies[0]
    assert "Godchips" in armies[0] and "GODEVENTS" in armies[0]
    chosen = [str(e) for e in roster.stats.get("god_events", report.ruleset.roster_stats["god_events"].default)]
    assert chosen and all(squash(e) in armies[0] for e in chosen)


def test_fast_universal_hero_die_track_casualties_and_morale(sample_cards):
    cards = cards_text(sample_cards, "fast_universal_ashen_host")
    hero = card(cards, "Ember Shaman")
    assert "Hits2d6›2d4›removed" in hero and "d8›" not in hero and "Casualties" not in hero and "Failedmorale" not in hero
    skirmishers = card(cards, "Skirmishers")
    assert "Casualties123456" in skirmishers and "Failedmorale" in skirmishers


def test_lego_reload_marks_follow_the_weapon(sample_cards):
    cards = cards_text(sample_cards, "lego_combat_blackwater_corsairs")
    musketeers = card(cards, "Musketeers")
    assert "Reload" in musketeers and "Casualties" in musketeers and "Stun" in musketeers
    assert all("Reload" not in c for c in cards if "Musket" not in c and "Crossbow" not in c
               and "Pistol" not in c)


def test_for_the_masses_wounds_a_row_per_element(sample_cards):
    cards = cards_text(sample_cards, "for_the_masses_orc_warband")
    warriors = next(c for c in cards if "OrcWarriors" in c[:80])
    # numbered rows, two to a line, each number before its four boxes ("per element" under "Wounds")
    assert "perelement" in warriors and "Element" not in warriors
    runs = warriors.replace("perelement", "")
    assert "".join(f"{k}1234" for k in range(1, 6)) in runs and "61234" not in runs


def test_a_bad_tracker_is_reported_with_its_key():
    text = (builtin_dir() / "fast_universal.toml").read_text(encoding="utf-8")
    bad = text + '\n[[card.trackers]]\nname = "Odd"\nkind = "die"\ncount = "nonsense_name"\n'
    with pytest.raises(RosterkitError) as info:
        compile_ruleset_text(bad, "odd.toml")
    messages = " ".join(p.message + " " + (p.key or "") for p in info.value.problems)
    added = f"card.trackers[{text.count('[[card.trackers]]')}]"  # (the ruleset's own come first)
    assert added in messages and "nonsense_name" in messages and "steps and start" in messages


def _box_sides(pdf: Path) -> list[float]:
    """The sides of the square boxes drawn on the pages (the boxes to tick)."""
    return [round(side, 2) for page in PdfReader(str(pdf)).pages for _, _, side in squares(page) if side > 4]


def test_for_the_masses_wound_rows_use_the_a6_card(sample_cards):
    """Orc warband: on A6 cards the elements' numbered rows go two to a line, as on poker cards
    (every army of the game alike), and the boxes at least 20 pt (7 mm: easy to tick with a pencil)."""
    sides = {}
    for size in ("a6", "poker"):
        out = sample_cards(SAMPLES / "for_the_masses_orc_warband.toml",
                           CardOptions(rules=False, size=size, paper="a4", summary=False)).path
        width = card_size(size).width
        for page in PdfReader(str(out)).pages:
            rows, words = [], []

            def visit(text, cm, tm, font, fsize, rows=rows, words=words, width=width):
                words.append(text.strip())
                if text.strip() in {"1", "2", "3", "4", "5"}:  # a row's number (the boxes' run "1 2 3 4")
                    rows.append((int((cm[4] + tm[4]) // width), round(cm[5] + tm[5])))
            page.extract_text(visitor_text=visit)
            lines = {line: rows.count(line) for line in rows}  # (card, line): its elements
            assert "per element" in words and not any(w.startswith("Element") for w in words), words
            assert lines and max(lines.values()) == 2, lines
        sides[size] = max(_box_sides(out))
    assert sides["a6"] >= 20 and sides["a6"] > sides["poker"], sides  # (7 mm and more at A6)


# ---------------------------------------------------------------- the cards and play agree


def card_boxes(tracks) -> list[tuple[str, int, int, int]]:
    """A card's boxes trackers in order as (tracker, rows, boxes a row, boxes drawn together): a
    tracker's numbered runs (a row an element or figure) as its rows, a line of boxes as one row
    of them all (rows 0)."""
    return [(t.heading or t.label, t.boxes // t.group if t.runs else 0, t.group if t.runs else t.boxes, t.group)
            for t in tracks if t.kind == "boxes"]


def played_boxes(game: Game, rs) -> list[list[TrackerState]]:
    """Each unit's boxes trackers in play that are printed on its card (not those marked in play only)."""
    printed = {TRACK} | {i + 1 for i, (tr, _) in enumerate(rs.play_trackers) if tr.on_card}
    return [[t for t in u.trackers if t.kind == "boxes" and t.ref.tracker in printed] for u in game.sides[0].units]


def crowd(tmp_path: Path, sample: str, unit: str, count: int) -> Path:
    """A sample army with one of its units grown to ``count`` figures."""
    text = (SAMPLES / f"{sample}.toml").read_text(encoding="utf-8")
    at = text.index(f'name = "{unit}"')
    start = text.index("count = ", at)
    end = text.index("\n", start)
    path = tmp_path / f"{sample}.toml"
    path.write_text(text[:start] + f"count = {count}" + text[end:], encoding="utf-8")
    return path


@pytest.mark.parametrize("roster", [*sorted(p.stem for p in SAMPLES.glob("*.toml")),
                                    "lego_combat_blackwater_corsairs:Deckhands:400",
                                    "ares_hill_clans:Crossbows:350",
                                    "for_the_masses_orc_warband:Orc Warriors (left):120"])
def test_the_cards_and_play_give_every_unit_the_same_rows_and_boxes(tmp_path, roster):
    """A unit's printed card and the play screen: the same trackers, each with the same rows of
    the same boxes (a row a figure or element); where there are more boxes than a card prints,
    the card's tally is the number of boxes play holds."""
    sample, _, grown = roster.partition(":")
    path = SAMPLES / f"{sample}.toml"
    if grown:
        unit, count = grown.split(":")
        path = crowd(tmp_path, sample, unit, int(count))
    loaded = load_roster(path).roster
    report = cost_roster(load(loaded.ruleset), loaded)
    game = Game.start(path, path=tmp_path / "g.game.toml")
    cards = list(CardBuilder(report, "unit", []).cards())
    assert len(cards) == len(report.units)
    for content, played in zip(cards, played_boxes(game, report.ruleset), strict=True):
        printed = card_boxes(content.tracks)
        assert len(printed) == len(played), (content.title, printed, played)
        for (name, rows, per_row, group), t in zip(printed, played):
            assert name == t.label, (content.title, name, t)
            if rows:  # labelled rows: the same rows of the same boxes
                assert (rows, per_row) == (t.rows, t.per_row), (content.title, name)
                continue
            assert per_row == t.rows * t.per_row, (content.title, name)  # one line: all the boxes
            if per_row > MAX_BOXES:
                continue  # a tally: the card prints the number, no boxes to group
            figure = t.per_row if t.rows > 1 and t.per_row > 1 else per_row if per_row <= 10 else 5
            assert group == figure, (content.title, name)  # a figure's boxes drawn together, else in fives
