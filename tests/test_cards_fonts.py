"""Fonts on the cards: a player's font fills in the characters DejaVu Sans lacks, and every
embedded font subset has a tag of its own."""

from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest
from conftest import SAMPLES, load
from pypdf import PdfReader

from rosterkit.cards.pdf import CardOptions, export_cards
from rosterkit.engine.costing import cost_roster
from rosterkit.engine.validation import validate_report
from rosterkit.files.rosters import load_roster, loads_roster

# TrueType fonts with Japanese that reportlab can embed (Debian's fonts-ipafont-gothic and
# fonts-ipafont-mincho); .ci/run installs the first where it can
KNOWN = ["/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf", "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",
         "/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf", "/usr/share/fonts/truetype/fonts-japanese-mincho.ttf"]


def japanese_font() -> Path | None:
    """A TrueType (.ttf) font with Japanese on this machine: a known one, else any fontconfig lists."""
    from reportlab.pdfbase.ttfonts import TTFont

    found = [Path(p) for p in KNOWN]
    if shutil.which("fc-list"):
        listed = subprocess.run(["fc-list", ":lang=ja", "file"], capture_output=True, text=True).stdout
        found += [Path(line.split(":")[0]) for line in listed.splitlines() if line.split(":")[0].endswith(".ttf")]
    for path in found:
        if path.is_file():
            try:
                if ord("侍") in TTFont("probe", str(path)).face.charToGlyph:
                    return path
            except Exception:  # noqa: S112 (a font reportlab cannot embed, CFF outlines: try the next)
                continue
    return None


JAPANESE = japanese_font()
JP = r"[\u3040-\u30ff\u4e00-\u9fff]"  # kana and kanji

ROSTER = '''format = 1
name = "侍の軍 Army"
ruleset = "fast_universal"

[[units]]
name = "足軽 Spearmen"
type = "basic"
count = 4
weapons = ["Claw/hand/spear/sword"]
stats = { dice = 1, die = 6, move = 6, fight = 0, shoot = 0, defense = 8 }

[[units]]
name = "الفرسان الخفيفة"
type = "basic"
count = 2
weapons = ["Claw/hand/spear/sword"]
stats = { dice = 1, die = 6, move = 6, fight = 0, shoot = 0, defense = 8 }
'''


def _fragments(pdf: Path) -> list[tuple[str, str]]:
    """(text, font name) of every piece of text drawn, on every page."""
    out: list[tuple[str, str]] = []
    for page in PdfReader(str(pdf)).pages:
        def visit(text, cm, tm, font, size):
            if text.strip() and font is not None:
                out.append((text, str(font.get("/BaseFont", ""))))
        page.extract_text(visitor_text=visit)
    return out


@pytest.mark.skipif(JAPANESE is None, reason="no TrueType font with Japanese on this machine "
                                               "(apt-get install fonts-ipafont-gothic gives one)")
def test_a_players_font_fills_in_what_dejavu_lacks(tmp_path):
    """--font with a Japanese font: the Japanese is drawn in it, everything else stays DejaVu Sans
    (bold titles bold), the Arabic name is still shaped, and nothing prints as [U+...]."""
    roster = loads_roster(ROSTER)
    report = cost_roster(load(roster.ruleset), roster)
    out = tmp_path / "c.pdf"
    result = export_cards(report, validate_report(report), out, CardOptions(size="poker", paper="a4",
                                                                               font=str(JAPANESE)))
    assert result.missing_glyphs == set()
    pieces = _fragments(out)
    text = "".join(t for t, _ in pieces)
    assert "[U+" not in text
    jp = [f for t, f in pieces if re.search(JP, t)]
    assert jp and all("IPA" in f or "Japanese" in f or "Gothic" in f or "Mincho" in f for f in jp), pieces
    # the Latin text around it: DejaVu, and the card titles in its bold face
    assert any("DejaVuSans-Bold" in f for t, f in pieces if "Spearmen" in t), pieces
    others = {re.sub(r"^/[A-Z]{6}\+", "", f) for t, f in pieces if not re.search(JP, t)}
    assert others <= {"DejaVuSans", "DejaVuSans-Bold", "DejaVuSansCondensed", "DejaVuSansCondensed-Bold"}, [
        p for p in pieces if not re.search(JP, p[0]) and "IPA" in p[1]]
    assert any("DejaVuSans" in f and "Bold" not in f for t, f in pieces if "miniatures" in t)
    assert any(0xFE70 <= ord(ch) <= 0xFEFF for ch in text)  # the Arabic name's joined letter forms
    cards = unicodedata.normalize("NFKC", text)
    assert "足軽" in cards and "侍の軍" in cards


def test_every_font_subset_has_a_tag_of_its_own(tmp_path):
    """pdffonts lists each embedded subset as TAG+Name; no two fonts share a tag."""
    roster = load_roster(SAMPLES / "ares_hill_clans.toml").roster
    report = cost_roster(load(roster.ruleset), roster)
    out = tmp_path / "c.pdf"
    export_cards(report, validate_report(report), out, CardOptions(size="poker", paper="a4"))
    names = {str(ref.get_object()["/BaseFont"]) for page in PdfReader(str(out)).pages
             for ref in page["/Resources"].get_object().get("/Font", {}).values()}
    tags = [n.lstrip("/").split("+")[0] for n in names]
    assert len(names) >= 2 and all(re.fullmatch(r"[A-Z]{6}", t) for t in tags), names
    assert len(set(tags)) == len(tags), names
