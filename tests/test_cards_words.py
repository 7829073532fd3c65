"""The words on the cards a reader marked wrong, and the text lists that must still import when
they improve: LEGO's quiver aside names the weapon it helps, ARES' Command carries its inch mark,
ARES' weapon specials stand under their own heading, a one-figure ARES unit names its figure,
LEGO's weapon notes and range band headings."""

from __future__ import annotations

import re

import pytest
from conftest import FIXTURES, SAMPLES, run_cli

from rosterkit.cards.pdf import CardOptions

SIZES = ["poker", "tarot", "a6"]


def _cards(shared) -> list[str]:
    """The text of each card of the export, one string a card, its lines joined by spaces."""
    text = "\n".join(shared.pages)
    return [re.sub(r"\s+", " ", c).strip() for c in re.split(r"card \d+ of \d+", text)[:-1]]


def _card(shared, title: str) -> str:
    return next(c for c in _cards(shared) if c.removeprefix("NOT VALID ").startswith(title))


def _fingerprint(path) -> str:
    return run_cli("fingerprint", path).out.strip()


# ---------------------------------------------------------------- lists written before and now


@pytest.mark.parametrize(("sample", "words"), [
    ("lego_combat_kingsbridge_garrison", ["Att: 0 (crossbow +1)"]),
    ("lego_combat_blackwater_corsairs", ["Att: 0 (bow +1)"]),
    ("ares_border_levy", ['Unit Morale 17 Command 14"', 'Unit Morale 3 Command 2"']),
])
def test_a_list_written_now_says_the_new_words_and_imports(tmp_path, sample, words):
    """A list `rosterkit text` writes now names the weapon the quiver helps and gives Command in
    inches, as Move; it imports as the army it was written from."""
    text = run_cli("text", SAMPLES / f"{sample}.toml")
    assert text.code == 0, text.err
    for w in words:
        assert w in text.out, text.out
    src, out = tmp_path / "list.txt", tmp_path / "back.toml"
    src.write_text(text.out, encoding="utf-8")
    r = run_cli("import", src, "-o", out)
    assert r.code == 0, r.err
    assert _fingerprint(out) == _fingerprint(SAMPLES / f"{sample}.toml")


@pytest.mark.parametrize(("listed", "old", "kept", "refused"), [
    ("lego_combat_kingsbridge_garrison", "Att: 0 (bow +1)", "Att: 0 (crossbow +1)", "Att: 0 (crossbow +2)"),
    ("lego_combat_kingsbridge_garrison", "Att: 0 (bow +1)", "Att: 0 (crossbow +1)", "Att: +1 (crossbow +1)"),
    ("ares_border_levy", "Command 14", 'Command 14"', 'Command 15"'),
])
def test_a_stat_cell_is_compared_by_its_numbers(tmp_path, listed, old, kept, refused):
    """Reading a list back forgives what is not a stat, an aside's words and an inch mark (a list
    written before or after the cards' wording improved), never a number, in the aside or out of it."""
    text = (FIXTURES / "text_lists" / f"{listed}.txt").read_text(encoding="utf-8")
    assert old in text
    src, out = tmp_path / "list.txt", tmp_path / "back.toml"
    src.write_text(text.replace(old, kept), encoding="utf-8")
    r = run_cli("import", src, "-o", out)
    assert r.code == 0, r.err
    assert _fingerprint(out) == _fingerprint(SAMPLES / f"{listed}.toml")
    src.write_text(text.replace(old, refused, 1), encoding="utf-8")
    r = run_cli("import", src, "-o", tmp_path / "other.toml")
    assert r.code == 2, (r.code, r.out)
    assert "does not match" in r.err, r.err


@pytest.mark.parametrize("size", SIZES)
def test_the_quiver_aside_names_the_weapon_it_helps(sample_cards, size):
    """Kingsbridge's Wall crossbowmen read "(crossbow +1)" under their Att, Blackwater's Lookout
    "(bow +1)": the card says which weapon the quiver helps."""
    kings = sample_cards(SAMPLES / "lego_combat_kingsbridge_garrison.toml",
                         CardOptions(size=size, paper="a4", summary=False))
    wall = _card(kings, "Wall crossbowmen")
    assert "(crossbow +1)" in wall and "(bow +1)" not in wall, wall
    corsairs = sample_cards(SAMPLES / "lego_combat_blackwater_corsairs.toml",
                            CardOptions(size=size, paper="a4", summary=False))
    lookout = _card(corsairs, "Lookout")
    assert "(bow +1)" in lookout and "crossbow" not in lookout.split("Weapon")[0], lookout


@pytest.mark.parametrize("size", SIZES)
def test_ares_command_prints_in_inches_as_move_does(sample_cards, size):
    """Command is a distance in inches, as Move: 14" on the Noble's Retinue, 2" on the Outrider;
    the Hired Giant, an Individual alone, keeps its dash."""
    levy = sample_cards(SAMPLES / "ares_border_levy.toml", CardOptions(size=size, paper="a4", summary=False))
    text = " ".join(_cards(levy))
    assert '14"' in _card(levy, "Noble's Retinue") and '2"' in _card(levy, "Outrider"), text
    assert re.search(r'\b17 14"', _card(levy, "Noble's Retinue")), _card(levy, "Noble's Retinue")
    clans = sample_cards(SAMPLES / "ares_hill_clans.toml", CardOptions(size=size, paper="a4", summary=False))
    giant = _card(clans, "Hired Giant")
    assert '-"' not in giant, giant


# ---------------------------------------------------------------- ARES weapon specials

ARES = ["ares_border_levy", "ares_hill_clans", "ares_crown_household", "ares_MISMATCH_royal_host"]
HEADINGS = re.compile(r"\b(ABILITIES|WEAPON SPECIALS|EQUIPMENT|NOTES)\b|\bWounds 1\b")


def _sections(card: str) -> dict[str, str]:
    """A card's text under each of its headings (up to the next heading or the wound track)."""
    marks = list(HEADINGS.finditer(card))
    return {m.group(1): card[m.end():marks[k + 1].start() if k + 1 < len(marks) else len(card)]
            for k, m in enumerate(marks) if m.group(1)}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", ARES)
def test_a_weapon_special_is_never_under_abilities(sample_cards, sample, size):
    """A starred weapon special ("*Polearm", "*Magic") is a weapon's rule: its text stands under
    WEAPON SPECIALS on the unit cards and the reference cards alike, never under ABILITIES, and
    every special a card marks is explained under that heading somewhere in the export."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    explained, marked = set(), set()
    for card in _cards(shared):
        parts = _sections(card)
        assert not re.search(r"\*[A-Z]", parts.get("ABILITIES", "")), card
        explained |= set(re.findall(r"(\*[A-Z][a-z]+(?: [A-Z][a-z]+)?):", parts.get("WEAPON SPECIALS", "")))
        marked |= set(re.findall(r"(?<=\) )(\*[A-Z][a-z]+)", card))
    assert marked and all(any(e.startswith(m) for e in explained) for m in marked), (marked, explained)


# ---------------------------------------------------------------- ARES: a unit of one figure


@pytest.mark.parametrize("size", SIZES)
def test_an_ares_unit_of_one_figure_names_its_figure(sample_cards, size):
    """A unit of one figure says which figure it is, as a mixed unit's card says each kind
    ("1/2 · Dwarf Thane · 75 of 225"): the Outrider is a Human Mounted Archer (the book's
    catalogue entry), the Hired Giant a Hill Giant (the roster's own), not "1 figure"."""
    for sample, title, subtitle in (("ares_border_levy", "Outrider", "Human Mounted Archer · 99 rating"),
                                    ("ares_hill_clans", "Hired Giant", "Hill Giant · 150 rating")):
        shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
        card = _card(shared, title)
        assert card.split(" Combat Rating")[0].endswith(subtitle), card
        assert "1 figure" not in card, card


# ---------------------------------------------------------------- LEGO: weapon notes and band headings

LEGO = ["lego_combat_kingsbridge_garrison", "lego_combat_blackwater_corsairs", "lego_combat_INVALID_over_points"]
BAND = re.compile(r'\d+-\d+"')


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", LEGO)
def test_a_weapon_note_says_its_label_once(sample_cards, sample, size):
    """A weapon's notes read "Notes: blunt, stuns (stun-2) instead of killing" (the Militia's club),
    never a second colon after the first word ("Notes: blunt: stuns")."""
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(size=size, paper="a4", summary=False))
    text = " ".join(_cards(shared))
    assert "Notes:" in text
    assert not re.search(r"Notes: [\w-]+:", text), re.findall(r"Notes: [^.]{0,40}", text)
    if sample == "lego_combat_kingsbridge_garrison":
        assert "Notes: blunt, stuns (stun-2) instead of killing" in _card(shared, "Militia")


ROOMY = {("lego_combat_kingsbridge_garrison", "poker"), ("lego_combat_kingsbridge_garrison", "a6")}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", LEGO)
def test_each_range_band_has_its_own_heading_over_it(sample_cards, sample, size):
    """The range table heads each band on its own, as the book's table does ("No Penalty", "-1
    Penalty", "-2 Penalty"): "0", "-1" and "-2" each over its band's column on the weapon table's
    heading line, not one "Range 0 / -1 / -2" over the three; the first two centred on their bands,
    the last at most moved within its column to leave "Once every" its line, and only where the
    table has no room left to widen that heading's column (Kingsbridge's has at poker and A6: all
    three centred there)."""
    from test_cards_lego import _band_rows, _export, _words

    checked = 0
    for words in _words(_export(sample_cards, sample, size)):
        assert not any("0 / -1 / -2" in w[4] for w in words)
        for row in _band_rows(words):
            assert len(row) == 3, [w[4] for w in row]
            # the heading line: the nearest line above the row holding a "-1" over its middle band
            middle = (row[1][0] + row[1][1]) / 2
            above = [w for w in words if w[4] == "-1" and w[2] > row[0][2] and w[0] - 1 <= middle <= w[1] + 1]
            assert above, [w[4] for w in row]
            line = min(above, key=lambda w: w[2] - row[0][2])[2]
            for band, label in zip(row, ("0", "-1", "-2")):
                head = next((w for w in words if w[4] == label and abs(w[2] - line) < 0.1
                             and band[0] - 1 <= (w[0] + w[1]) / 2 <= band[1] + 1), None)
                assert head is not None, (label, band)
                if label != "-2" or (sample, size) in ROOMY:
                    assert abs((head[0] + head[1]) / 2 - (band[0] + band[1]) / 2) < 0.6, (head, band)
            checked += 1
    assert checked >= 1
