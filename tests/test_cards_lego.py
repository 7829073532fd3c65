"""LEGO Combat's cards as a player reads them: the range bands as a table, trackers that say what
the book says, one shape of stun boxes, a stat band without noise (read back from the PDF)."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from conftest import SAMPLES
from pdfdraw import operations
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth

from rosterkit.cards.fonts import BOLD, COND, COND_BOLD, REGULAR, register
from rosterkit.cards.pdf import CardOptions

LEGO = ["lego_combat_blackwater_corsairs", "lego_combat_kingsbridge_garrison", "lego_combat_INVALID_over_points"]
SIZES = ["poker", "tarot", "a6"]
FACES = {"DejaVuSans": REGULAR, "DejaVuSans-Bold": BOLD, "DejaVuSansCondensed": COND,
         "DejaVuSansCondensed-Bold": COND_BOLD}
BAND = re.compile(r'\d+-\d+"')
# each stun level's name (S1 to S4), over its box
WAKE = ["S1", "S2", "S3", "S4"]


def _export(sample_cards, sample: str, size: str) -> Path:
    return sample_cards(SAMPLES / f"{sample}.toml", CardOptions(rules=False, size=size, paper="a4", summary=False)).path


@functools.cache  # (the shared exports are only read: each is read back once)
def _words(pdf: Path) -> tuple[tuple[tuple, ...], ...]:
    """Each page's strings as drawn, one a text-showing operator: (left, right, baseline, size,
    text, face, fill colour)."""
    register()
    pages = []
    for page in PdfReader(str(pdf)).pages:
        fonts = page["/Resources"].get("/Font", {})
        found: list[tuple] = []
        face, size, tm = REGULAR, 0.0, (1, 0, 0, 1, 0, 0)
        for op, operands, state in operations(page):
            if op == b"Tf":
                face = FACES[str(fonts[operands[0]].get_object()["/BaseFont"]).split("+", 1)[-1]]
                size = float(operands[1])
            elif op == b"Tm":
                tm = tuple(float(x) for x in operands)
            elif op == b"Tj":
                raw = operands[0]
                text = raw.decode("latin-1") if isinstance(raw, bytes) else str(raw)
                x, y = state.point(tm[4], tm[5])
                pt = size * state.scale
                found.append((x, x + stringWidth(text, face, pt), y, pt, text, face, state.fill))
        pages.append(tuple(found))
    return tuple(pages)


def _band_rows(words) -> list[list[tuple]]:
    """The runs of bands drawn on one baseline close together (a weapon's row on one card)."""
    by_line: dict[float, list] = {}
    for w in words:
        if BAND.fullmatch(w[4]):
            by_line.setdefault(round(w[2], 1), []).append(w)
    rows = []
    for line in by_line.values():
        line.sort()
        row: list = []
        for w in line:
            if row and w[0] - row[-1][1] > 3 * w[3]:
                rows.append(row)
                row = []
            row.append(w)
        rows.append(row)
    return rows


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", LEGO)
def test_range_bands_are_columns_lined_up_under_one_heading(sample_cards, sample, size):
    """A ranged weapon's three bands stand in three columns on its own row (never a band alone
    on a line, no " / " between them), each column under its own heading ("0", "-1", "-2"; the
    middle one's found here), each band centred over the same band of the rows below it on the card."""
    checked = 0
    for words in _words(_export(sample_cards, sample, size)):
        assert not any(" / " in t and BAND.search(t) for *_, t in words), [t for *_, t in words if " / " in t]
        heads = [w for w in words if w[4] == "-1" and w[5] in (BOLD, COND_BOLD)]
        tables: dict[int, list[list[float]]] = {}
        for row in _band_rows(words):
            assert len(row) == 3, [w[4] for w in row]
            centres = [(w[0] + w[1]) / 2 for w in row]
            # its table: the nearest heading above it that spans its middle band
            above = [(h[2] - row[0][2], k) for k, h in enumerate(heads)
                     if h[0] - 1 <= centres[1] <= h[1] + 1 and h[2] > row[0][2]]
            assert above, [w[4] for w in row]
            tables.setdefault(min(above)[1], []).append(centres)
        for rows in tables.values():
            for centres in rows[1:]:
                assert all(abs(a - b) < 0.6 for a, b in zip(centres, rows[0])), (rows[0], centres)
            checked += len(rows)
    assert checked >= 2


def _lines_below(words, label, width: float) -> list[list[tuple]]:
    """The lines of strings under ``label`` within the card (``width`` from its left edge), top
    down, from the label's own line to the card's footer."""
    x, y = label[0], label[2]
    by_line: dict[float, list] = {}
    for w in words:
        if x - 1 <= w[0] < x + width and w[2] <= y + 0.1 and y - w[2] < 120:
            by_line.setdefault(round(w[2], 1), []).append(w)
    return [sorted(by_line[k]) for k in sorted(by_line, reverse=True)]


def _in_box(text: str) -> bool:
    """Whether a string is what a line of tracking boxes holds: a box's number, or a stun level's
    name over its box."""
    return text.isdigit() or text in WAKE


def _boxes(lines: list[list[tuple]]) -> list[list[str]]:
    """The strings of the first run of lines holding only what boxes hold (a soldier's number
    before his run, in bold, left out)."""
    out: list[list[str]] = []
    lines = [kept for line in lines if (kept := [w for w in line if not (w[4].isdigit() and w[5] == BOLD)])]
    for line in lines:
        if all(_in_box(w[4]) for w in line):
            out.append([w[4] for w in line])
        elif out:
            break
    return out


def _inner(size: str) -> float:
    from rosterkit.cards.sizes import card_size

    return card_size(size).width - 16


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", LEGO)
def test_stun_and_reload_captions_open_with_their_label(sample_cards, sample, size):
    """Stun and Reload: the label opens its caption on one line, the caption's lines run on
    to the boxes under them (label, caption, boxes one block, never another tracker's caption),
    no caption line is one word alone, and the captions say what the book says: each level's roll
    to wake, stun-5 (S5) kills, a soldier reloads standing still."""
    seen = set()
    for words in _words(_export(sample_cards, sample, size)):
        for label in (w for w in words if w[4] in ("Stun", "Reload")):
            seen.add(label[4])
            lines = _lines_below(words, label, _inner(size))
            first = lines[0]
            assert first[0] is label and len(first) > 1, [w[4] for w in first]
            caption = [first[1:]]
            for line in lines[1:]:
                if all(_in_box(w[4]) for w in line):
                    break
                caption.append(line)
            else:
                raise AssertionError(f"no boxes under {label[4]}")
            text = " ".join(w[4] for line in caption for w in line)
            assert all(" " in " ".join(w[4] for w in line).strip() for line in caption), text
            assert ("12 on 2D, 18 on 3D" if label[4] == "Stun" else "stands still") in text, text
    assert "Stun" in seen


@pytest.mark.parametrize("sample", LEGO)
def test_stun_boxes_take_one_shape_on_every_card(sample_cards, sample):
    """A soldier's stun levels are his own four boxes, under their names, in one grid on every card
    of an export: two soldiers to a line, or at tarot, where the boxes grow to a finger tip's 6.1 mm
    with the room that leaves, one soldier a line (two at 5.6 mm left the cards' lower third empty)."""
    from test_cards_stun_heads import blocks  # (it reads the strings with this module's _words)

    for size in SIZES:
        per_line = set()
        for block in blocks(_export(sample_cards, sample, size), "Stun", size, tuple(WAKE)):
            grid = [[len(run) for run in block["runs"] if run[0] in line] for line in block["lines"]]
            assert all(n == 4 for line in grid for n in line), grid
            if len(block["runs"]) > 1:
                per_line.add(len(grid[0]))
                assert all(len(line) == len(grid[0]) for line in grid[:-1]) and len(grid[-1]) <= len(grid[0]), grid
                side = block["lines"][0][0][3]
                assert len(grid[0]) == 2 or side >= 17.25 - 0.01, (size, grid, side)
        assert len(per_line) == 1, (size, per_line)
        assert per_line == {2} or size == "tarot", (size, per_line)


def test_each_musketeer_reloads_on_his_own_boxes(sample_cards):
    """Blackwater's Musketeers: two soldiers, each with his musket's three rounds to mark (the
    book's reload is a soldier's, standing still), so two runs of 1 2 3."""
    for words in _words(_export(sample_cards, "lego_combat_blackwater_corsairs", "poker")):
        for label in (w for w in words if w[4] == "Reload"):
            assert _boxes(_lines_below(words, label, _inner("poker"))) == [["1", "2", "3", "1", "2", "3"]]
            return
    raise AssertionError("no Reload boxes")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", LEGO)
def test_a_dash_in_the_stat_band_reads_light(sample_cards, sample, size):
    """Where a soldier has nothing (no flying speed), the stat band's dash is set in the regular
    face, not bold like the values beside it (a standard soldier's 0 among them, as the rules
    write "Combat: 0")."""
    values = dashes = 0
    shared = sample_cards(SAMPLES / f"{sample}.toml", CardOptions(rules=False, size=size, paper="a4", summary=False))
    for words in _words(shared.path):
        # the band's values, set larger than the body (a weapon's "Once every" 1 is not one of them)
        large = [w for w in words if w[3] >= 10 and w[3] > shared.result.body_size + 0.01
                 and re.fullmatch(r"[+-]?\d+|-", w[4])]
        for w in large:
            if w[4] == "-":
                dashes += 1
                assert w[5] in (REGULAR, COND), w
            else:
                values += 1
                assert w[5] in (BOLD, COND_BOLD), w
    assert values



@pytest.mark.parametrize("size", SIZES)
def test_a_quivers_bonus_has_its_own_line_under_the_hit_value(sample_cards, size):
    """Blackwater's Lookout and Kingsbridge's Wall crossbowmen carry a quiver: the Hit box holds
    the value large and "(bow +1)" ("(crossbow +1)") small on a line of its own under it, centred in the same box
    (not squeezed beside the value on two lines)."""
    for sample in ("lego_combat_blackwater_corsairs", "lego_combat_kingsbridge_garrison"):
        asides = []
        for words in _words(_export(sample_cards, sample, size)):
            for aside in (w for w in words if w[4] in ("(bow +1)", "(crossbow +1)")):
                centre = (aside[0] + aside[1]) / 2
                over = [w for w in words if w[4] == "0" and w[3] >= 10 and 0 < w[2] - aside[2] < 3 * w[3]
                        and abs((w[0] + w[1]) / 2 - centre) < 0.6]
                assert over and aside[3] < over[0][3], aside
                asides.append(aside)
        assert len(asides) == 1, (sample, asides)


LEGO = ["lego_combat_kingsbridge_garrison", "lego_combat_blackwater_corsairs", "lego_combat_INVALID_over_points"]


@pytest.mark.parametrize("size", SIZES)
def test_every_lego_army_prints_one_stat_band(sample_cards, size):
    """One stat band for the game: Att, Def, Dmg, Res and Move on every unit card of every army,
    Dmg "0" where no soldier buys a damage bonus (Kingsbridge's cards once left the column out,
    Blackwater's, whose Boarders buy one, printed it)."""
    for sample in LEGO:
        pages = [page.extract_text() for page in PdfReader(str(_export(sample_cards, sample, size))).pages]
        bands = re.findall(r"Att\s+Def\s+(?:Dmg\s+)?Res\s+Move", " ".join(pages))
        units = sum(len(re.findall(r"card \d+ of", page)) for page in pages)
        assert len(bands) == units and all("Dmg" in band for band in bands), (sample, size, bands)


@pytest.mark.parametrize("size", SIZES)
def test_the_move_box_writes_swim_climb_and_jump_one_way_with_a_key(sample_cards, size):
    """Every army at a size writes a figure's swim, climb and jump the same way, in full under the
    band, "Swim 3 · Climb 1 · Jump 3" (never "Sw 3" on one army's cards and "Swim 3" on another's):
    on every card using them, or where that would lower the body size, on the first one, which
    says that a card without the line has these values ("unless shown")."""
    for sample in LEGO:
        text = "\n".join(p.extract_text() or "" for p in PdfReader(str(_export(sample_cards, sample, size))).pages)
        cards = [c for c in re.split(r"card \d+ of \d+", text)[:-1] if "Weapon" in c]
        assert cards
        for card in cards:
            assert not re.search(r"\b(Sw|Cl|Ju) \d", card), card
        keyed = sum(bool(re.search(r"Swim \d+ · Climb \d+ · Jump \d+", card.split("Weapon")[0])) for card in cards)
        assert keyed == len(cards) or "Swim 3 · Climb 1 · Jump 3 unless shown" in cards[0].split("Weapon")[0], \
            (sample, size, keyed)
