"""The words on fast_universal's and For the Masses' cards: the player's weapon names, no "No
Special", and one subtitle form for a ruleset's exports at a card size."""

from __future__ import annotations

import re

import pytest
from conftest import RULESETS, SAMPLES, load

from rosterkit.cards.pdf import CardOptions
from rosterkit.errors import RosterkitError
from rosterkit.files.rosters import load_roster
from rosterkit.files.rulesets import load_ruleset_file

SIZES = ["poker", "tarot", "a6"]
FAST = sorted(SAMPLES.glob("fast_universal_*.toml"))
MASSES = sorted(SAMPLES.glob("for_the_masses_*.toml"))


def _text(shared) -> str:
    return re.sub(r"\s+", " ", "\n".join(shared.pages))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", FAST, ids=lambda p: p.stem)
def test_fast_universal_samples_name_their_weapons_as_a_player_would(sample_cards, sample, size):
    """The samples name each weapon as its player would ("Spear", "Bow", "Crossbow"), an alias of a
    row of the book's weapon table: the cards print that name, never the row's list of names
    ("Claw/hand/spear/sword"), with the row's modifier and range beside it."""
    shared = sample_cards(sample, CardOptions(size=size, paper="a4", summary=False))
    text = _text(shared)
    assert "Claw/hand" not in text and "Bow/crossbow" not in text and "/crossbow" not in text, text
    held = {w for u in load_roster(sample).roster.units for w in u.weapons}
    assert held and not any("/" in w for w in held), held
    # (a melee weapon's range, 0 in the book's table, reads "melee")
    for name, mod, rng in (("Spear", r"\+0", "melee"), ("Bow", r"\+1\(S\)", "6"), ("Crossbow", r"\+1\(S\)", "6")):
        if name in held:
            assert re.search(rf"\b{name} {mod} {rng}\b", text), (name, text)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", MASSES, ids=lambda p: p.stem)
def test_for_the_masses_cards_print_no_no_special(sample_cards, sample, size):
    """A unit without a special has no "No Special" on its card: the to-hit note under the band ends
    with its attack, and no card of the samples (whose units have no special) says "Special"."""
    shared = sample_cards(sample, CardOptions(size=size, paper="a4", summary=False))
    text = _text(shared)
    assert "No Special" not in text and "Special" not in text, text
    notes = re.findall(r"Hits v Def 0/1/2/3: (?:Att|Rng) [\d+/ (×)]*(?: · [^A-Z]*)?", text)
    assert notes and all(not n.rstrip().endswith("·") for n in notes), notes


@pytest.mark.parametrize("size", ["poker", "tarot", "index", "a6"])
@pytest.mark.parametrize("ruleset", ["fast_universal", "for_the_masses", "lego_combat"])
def test_a_rulesets_subtitles_count_alike_at_a_size(sample_cards, ruleset, size):
    """Every export of a ruleset's samples at one card size writes a unit's count one way: with
    the count's word ("6 miniatures × 43 = 258 points") where it fits on every card, else without
    it on every card ("6 × 43 = 258 points"), as the ruleset's short_counts says."""
    forms = {}
    for sample in sorted(SAMPLES.glob(f"{ruleset}_*.toml")):
        text = _text(sample_cards(sample, CardOptions(size=size, paper="a4", summary=False)))
        for count, word in re.findall(r"\b(\d+) (?:([^\W\d_]+) )?× [\d.]+ = ", text):
            forms.setdefault(bool(word), []).append(f"{sample.stem}: {count} {word}")
    assert len(forms) == 1, forms
    short = size in load(ruleset).data.card.short_counts
    assert list(forms) == [not short], forms


def test_short_counts_names_card_sizes(tmp_path):
    """A size short_counts does not know is refused with the key and the sizes it takes."""
    text = (RULESETS / "fast_universal.toml").read_text(encoding="utf-8")
    bad = tmp_path / "fast_universal.toml"
    bad.write_text(text.replace('short_counts = ["tarot"]', 'short_counts = ["huge"]'), encoding="utf-8")
    with pytest.raises(RosterkitError) as exc:
        load_ruleset_file(bad)
    message = str(exc.value)
    assert "short_counts" in message and "'poker'" in message and "huge" in message, message


def _runs_with_face(path) -> list[tuple[str, str, tuple[float, ...]]]:
    """Each string the PDF shows, with its font's name and its fill colour."""
    from pdfdraw import operations
    from pypdf import PdfReader

    out = []
    for page in PdfReader(str(path)).pages:
        fonts = page["/Resources"]["/Font"]
        face, fill = "", (0.0,)
        for op, operands, _ in operations(page):
            if op == b"Tf":
                face = str(fonts[operands[0]].get_object()["/BaseFont"])
            elif op == b"rg":
                fill = tuple(float(v) for v in operands)
            elif op == b"Tj":
                out.append((str(operands[0]), face, fill))
    return out


@pytest.mark.parametrize("size", SIZES)
def test_the_to_hit_line_reads_in_ink_its_label_bold(sample_cards, size):
    """For the Masses: the number each die hits on, "Hits v Def 0/1/2/3: Att 4+/5+/6+/7+", in the
    card's ink with its label bold (grey, it read as a footnote beside the black reminder lines)."""
    shared = sample_cards(SAMPLES / "for_the_masses_orc_warband.toml", CardOptions(size=size, paper="a4", summary=False))
    runs = _runs_with_face(shared.path)
    labels = [r for r in runs if r[0].startswith("Hits v Def")]
    values = [r for r in runs if re.search(r"\d+\+/\d+\+", r[0])]
    assert len(labels) == len(values) >= 4, (labels, values)
    assert all("Bold" in face and max(fill) < 0.25 for _, face, fill in labels), labels
    assert all("Bold" not in face and max(fill) < 0.25 for _, face, fill in values), values
