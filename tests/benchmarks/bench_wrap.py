"""The cards' own line breaking (layout.Wrapper) against platypus's Paragraph, which the cards use
for table cells.

Run:  python tests/benchmarks/bench_wrap.py [--runs 9] [--width 160]

Not collected by pytest. It prints the machine, then:

* how each breaks a weapon's name, a note and a list of weapons at a narrow column's width:
  Wrapper after a slash or a dash ("Claw/" "hand"), Paragraph inside the word ("Claw/ha" "nd");
* the median time to wrap every quick rule of the bundled rulesets (a bold name, then its text) at
  the body's 7.5 pt, uncached, as the fitting does at each body size it tries.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import machine
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph

from rosterkit.cards.fonts import DEJAVU
from rosterkit.cards.layout import Wrapper
from rosterkit.cards.style import INK, Metrics

SIZE = 7.5
# (text, width in points): a weapon's name, a note, a list of weapons, at widths a narrow column leaves
SAMPLES = [("Claw/hand", 30.0), ("melee-weapon", 40.0), ("Sword/axe/club", 30.0)]


def rules() -> list[tuple[str, str]]:
    out = []
    for path in sorted((ROOT / "rulesets").glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        out += [(r["name"], r["text"]) for r in data.get("card", {}).get("rules", [])]
    return out


def by_wrapper(wrapper: Wrapper, name: str, text: str, width: float) -> list[str]:
    runs = ((name + ": ", DEJAVU.bold, INK), (text, DEJAVU.regular, INK)) if name else ((text, DEJAVU.regular, INK),)
    return ["".join(seg[1] for seg in line) for line in wrapper.wrap(runs, SIZE, width, cache=False)]


def by_paragraph(style: ParagraphStyle, name: str, text: str, width: float) -> list[str]:
    head = f'<font face="{DEJAVU.bold}">{DEJAVU.markup(name + ": ", DEJAVU.bold)}</font>' if name else ""
    p = Paragraph(head + DEJAVU.markup(text, DEJAVU.regular), style)
    p.wrap(width, 10_000)
    lines = p.blPara.lines
    return [" ".join(w if isinstance(w, str) else w.text for w in line[1]) if isinstance(line, tuple)
            else "".join(f.text for f in line.words) for line in lines]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--width", type=float, default=160.0, help="the line's width in points (a poker card's text: 160)")
    opts = ap.parse_args()
    print(machine())
    wrapper = Wrapper(Metrics(DEJAVU))
    style = ParagraphStyle("body", fontName=DEJAVU.regular, fontSize=SIZE, leading=SIZE * 1.2)
    print(f"\nbroken at {SIZE} pt:")
    for text, width in SAMPLES:
        print(f"  {text!r} into {width:g} pt\n    Wrapper:   {by_wrapper(wrapper, '', text, width)}\n"
              f"    Paragraph: {by_paragraph(style, '', text, width)}")
    texts = rules()
    timings: dict[str, list[float]] = {"Wrapper": [], "Paragraph": []}
    for _ in range(opts.runs):
        for label, wrap in (("Wrapper", lambda n, t: by_wrapper(wrapper, n, t, opts.width)),
                            ("Paragraph", lambda n, t: by_paragraph(style, n, t, opts.width))):
            start = time.perf_counter()
            for name, text in texts:
                wrap(name, text)
            timings[label].append(time.perf_counter() - start)
    print(f"\n{len(texts)} quick rules at {SIZE} pt into {opts.width:g} pt, median of {opts.runs} runs:")
    for label, runs in timings.items():
        print(f"  {label:10} {statistics.median(runs) * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
