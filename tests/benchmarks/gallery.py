"""Pictures of the cards of every sample army, to look at after a change to the cards.

Run:  python tests/benchmarks/gallery.py [OUT_FOLDER] [--size poker] [--paper a4] [--dpi 100]

Not collected by pytest. For each ``sample_armies/*.toml`` it writes ``NAME.pdf`` and, when
poppler's ``pdftoppm`` is installed, PNG pictures of the summary page (``NAME-summary.png``),
the first sheet of cards (``NAME-cards.png``) and the sheet with the reference cards
(``NAME-reference.png``, when there are any) into OUT_FOLDER (default: ``card-gallery``).
It prints, per army, the cards, the body size chosen, the card that holds it there (the fullest
that fits on one card) and the median share of each card's height its content uses (the "fill", at
the body size chosen) and as printed (the stat values and boxes grown, the lines to write on included).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def fills(report, size_id: str, per: str) -> list[float]:
    """Share of each card's height (between the name band's top and the footer) its content uses."""
    from rosterkit.cards.content import CardBuilder, plan_glossary
    from rosterkit.cards.fonts import Glyphs
    from rosterkit.cards.layout import CardLayout
    from rosterkit.cards.sizes import card_size
    from rosterkit.cards.tables import declared_rows

    size = card_size(size_id)
    lay = CardLayout(size, Glyphs(), f"{report.roster.name} · {report.ruleset.name}", list(report.ruleset.types),
                     record_line=report.ruleset.data.card.all_columns,
                     band_rows=declared_rows(report.ruleset.data.card.columns),
                     stat_max=report.ruleset.data.card.stat_max)
    contents = list(CardBuilder(report, per, plan_glossary(report, per, True)).cards())
    lay.fit(contents)
    out = []
    for c in contents:
        laid = lay.layout(c)
        out += [lay.fill(laid, i) for i in range(len(laid.pages))]
    return out


def main() -> int:
    from rosterkit.cards.pdf import CardOptions, export_cards
    from rosterkit.engine.costing import cost_roster
    from rosterkit.engine.validation import validate_report
    from rosterkit.files.rosters import load_roster
    from rosterkit.files.rulesets import Registry

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", default="card-gallery")
    ap.add_argument("--size", default="poker")
    ap.add_argument("--paper", default="a4")
    ap.add_argument("--dpi", type=int, default=100)
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    registry = Registry()
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm is None:
        print("pdftoppm not found (poppler-utils): writing PDFs only", file=sys.stderr)
    all_fills = []
    printed: list[float] = []
    for path in sorted((ROOT / "sample_armies").glob("*.toml")):
        roster = load_roster(path).roster
        report = cost_roster(registry.get(roster.ruleset), roster)
        validation = validate_report(report)
        pdf = out / f"{path.stem}.pdf"
        result = export_cards(report, validation, pdf, CardOptions(size=args.size, paper=args.paper))
        f = fills(report, args.size, result.per)
        all_fills += f
        printed += result.fills
        held = f"held by {result.held_by}" if result.held_by else "the size's largest body"
        print(f"{path.stem}: {result.cards} cards, body {result.body_size:g} pt ({held}), "
              f"median fill {statistics.median(f):.0%}, as printed {statistics.median(result.fills):.0%}")
        if pdftoppm is None:
            continue
        first = result.summary_pages + 1
        last_sheet = result.summary_pages + result.card_pages + result.back_pages
        if result.back_pages:
            last_sheet -= 1
        pages = {"summary": 1 if result.summary_pages else None, "cards": first,
                 "reference": last_sheet if result.reference_cards else None}
        for name, page in pages.items():
            if page is None:
                continue
            subprocess.run([pdftoppm, "-r", str(args.dpi), "-f", str(page), "-l", str(page), "-singlefile", "-png",
                            str(pdf), str(out / f"{path.stem}-{name}")], check=True)
    print(f"all: median fill {statistics.median(all_fills):.0%}, as printed {statistics.median(printed):.0%} "
          f"over {len(all_fills)} cards ({args.size})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
