"""Card export speed and memory, against a bare reportlab loop on the same machine.

Run:  python tests/benchmarks/bench_cards.py [--cards 2000] [--runs 3]

Not collected by pytest: its name does not match pytest's ``test_*.py`` pattern. It prints:

* the machine (CPU model, Python, reportlab);
* cards per second for ``export_cards`` on a synthetic roster of N units of the
  fast_universal ruleset (one card each): cards only, and with the summary and
  reference cards as the command line prints them by default;
* cards per second for two bare reportlab loops writing the same number of cards
  9 to an A4 sheet, with the same embedded font and no layout at all: "same ink"
  draws the texts of a typical card at fixed positions (border, name band, badge,
  subtitle, a 5-column stat line, two weapon lines, two ability lines, footer);
  "minimal" draws a border and three lines of text;
* the median of ``--runs`` runs of each, the variants interleaved;
* memory: the peak traced by tracemalloc during ``export_cards`` (summary and
  glossary included) for 500 and for N cards, and, in a fresh process for each,
  the RSS before the export and the process's peak RSS after it.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

WEAPONS = ["Sword", "Bow", "Musket", "Longbow", "Assault rifle", "Great axe", "Pistol", "Sniper rifle"]
ABILITIES = ["Fearless", "Fast", "Command", "Fireball"]
TYPES = ["Basic", "Basic", "Basic", "Elite", "Hero", "Ordnance", "Vehicle"]


def synthetic_roster(n: int):
    """N units, one card each, with varied stats, weapons and abilities."""
    from rosterkit.engine.roster import RosterFile

    units = []
    for i in range(n):
        typ = TYPES[i % len(TYPES)]
        weapons = [WEAPONS[i % len(WEAPONS)], WEAPONS[(i * 3 + 1) % len(WEAPONS)]]
        abilities = []
        if typ == "Hero":
            abilities = ["Command", "Fireball"]
        elif i % 3 == 0:
            abilities = ["Fearless"]
        elif i % 5 == 0:
            abilities = ["Fast", "Fearless"]
        units.append({
            "name": f"Unit {i + 1:04d} {['Spearmen', 'Archers', 'Guard', 'Riders', 'Ogres'][i % 5]}",
            "type": typ,
            "count": 1 if typ in ("Hero", "Vehicle") else 1 + i % 12,
            "weapons": weapons,
            "abilities": abilities,
            "stats": {"dice": 1 + i % 3, "die": [6, 8, 10][i % 3], "move": 4 + i % 5, "fight": i % 2,
                      "shoot": i % 3, "defense": 7 + i % 4},
            "notes": "Hold the ford." if i % 7 == 0 else "",
        })
    return RosterFile(name=f"Synthetic host of {n}", ruleset="fast_universal", points_limit=n * 100, units=units)


def report_for(n: int):
    from rosterkit.engine.costing import cost_roster
    from rosterkit.engine.validation import validate_report
    from rosterkit.files.rulesets import load_ruleset_file

    rs = load_ruleset_file(ROOT / "rulesets" / "fast_universal.toml")
    report = cost_roster(rs, synthetic_roster(n))
    return report, validate_report(report)


def run_export(report, validation, out: str, full: bool) -> tuple[float, int]:
    from rosterkit.cards.pdf import CardOptions, export_cards

    opts = CardOptions(paper="a4", summary=full, glossary=full)
    t = time.perf_counter()
    result = export_cards(report, validation, out, opts)
    return time.perf_counter() - t, result.cards


def bare_loop(n: int, out: str, same_ink: bool) -> float:
    from reportlab.lib.colors import HexColor, white
    from reportlab.pdfgen.canvas import Canvas

    from rosterkit.cards.fonts import BOLD, REGULAR, register
    from rosterkit.cards.sizes import CARD_SIZES, PAPERS, plan_sheet

    register()
    sheet = plan_sheet(CARD_SIZES["poker"], PAPERS["a4"])
    w, h = sheet.card_width, sheet.card_height
    dark, tint, grey = HexColor("#2f4858"), HexColor("#dde3e6"), HexColor("#5f5f5a")
    t = time.perf_counter()
    c = Canvas(out, pagesize=(sheet.page_width, sheet.page_height), invariant=1, pageCompression=1)
    for i in range(n):
        slot = i % sheet.per_page
        x, y = sheet.slot(slot)
        c.setStrokeColor(dark)
        c.roundRect(x + 3.5, y + 3.5, w - 7, h - 7, 5, stroke=1, fill=0)
        if same_ink:
            top = y + h - 3.5
            c.setFillColor(dark)
            c.roundRect(x + 3.5, top - 18, w - 7, 18, 5, stroke=0, fill=1)
            c.setFillColor(white)
            c.setFont(BOLD, 10)
            c.drawString(x + 8, top - 13, f"Unit {i + 1:04d} Spearmen")
            c.roundRect(x + w - 40, top - 15, 30, 12, 4, stroke=0, fill=1)
            c.setFillColor(dark)
            c.drawString(x + w - 36, top - 12.5, "210")
            c.setFillColor(grey)
            c.setFont(REGULAR, 7)
            c.drawString(x + 8, top - 27, "Basic · 10 miniatures × 21 = 210 points")
            c.setFillColor(tint)
            c.rect(x + 8, top - 40, w - 16, 9, stroke=0, fill=1)
            c.setFillColor(grey)
            c.setFont(BOLD, 6.4)
            for k, lab in enumerate(["AD", "M", "F", "S", "D"]):
                c.drawString(x + 20 + k * 32, top - 37.5, lab)
            c.setFillColor(HexColor("#1d1d1b"))
            c.setFont(BOLD, 8.4)
            for k, val in enumerate(["1d6", '6"', "+0", "+1", "8"]):
                c.drawString(x + 18 + k * 32, top - 48, val)
            c.setFont(REGULAR, 7.5)
            c.drawString(x + 8, top - 62, "Claw/hand/spear/sword")
            c.drawString(x + 120, top - 62, "+0")
            c.drawString(x + 145, top - 62, '0"')
            c.drawString(x + 8, top - 72, "Bow/crossbow")
            c.drawString(x + 120, top - 72, "+1(S)")
            c.drawString(x + 145, top - 72, '6"')
            c.setFont(BOLD, 7.5)
            c.drawString(x + 8, top - 86, "Fearless")
            c.setFont(REGULAR, 7.5)
            c.drawString(x + 42, top - 86, ": Passes every morale check without")
            c.drawString(x + 14, top - 95, "rolling.")
            c.setFont(REGULAR, 6)
            c.drawString(x + 8, y + 8, "Synthetic host · Fast Universal Wargame")
        else:
            c.setFillColor(dark)
            c.setFont(BOLD, 10)
            c.drawString(x + 8, y + h - 18, f"Unit {i + 1:04d} Spearmen")
            c.setFont(REGULAR, 7.5)
            c.drawString(x + 8, y + h - 30, "AD 1d6  M 6\"  F +0  S +1  D 8")
            c.drawString(x + 8, y + h - 40, "Claw/hand/spear/sword +0")
        if slot == sheet.per_page - 1:
            c.showPage()
    if n % sheet.per_page:
        c.showPage()
    c.save()
    return time.perf_counter() - t


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _status_mib(field: str) -> float:
    """A memory figure of this process from /proc/self/status (Linux), in MiB."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return float("nan")


def child_rss(n: int) -> None:
    """In a fresh process: RSS before the export, and the process's peak RSS after it (MiB).

    The peak is VmHWM, which starts afresh with the new program (ru_maxrss would carry
    over the size of the parent process it was forked from)."""
    report, validation = report_for(n)
    before = _status_mib("VmRSS")
    with tempfile.TemporaryDirectory() as d:
        run_export(report, validation, os.path.join(d, "c.pdf"), True)
    print(f"{before:.1f} {_status_mib('VmHWM'):.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--child-rss", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child_rss:
        child_rss(args.child_rss)
        return
    import reportlab

    n, runs = args.cards, max(3, args.runs)
    print(f"machine: {cpu_model()}, {os.cpu_count()} CPUs; Python {platform.python_version()}; "
          f"reportlab {reportlab.Version}")
    report, validation = report_for(n)
    times: dict[str, list[float]] = {"cards": [], "full": [], "ink": [], "minimal": []}
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cards.pdf")
        _, printed = run_export(report, validation, out, False)  # warm up: fonts, caches of the interpreter
        bare_loop(n, out, True)
        for _ in range(runs):  # interleaved, so that a busy moment of the machine hits every variant alike
            times["cards"].append(run_export(report, validation, out, False)[0])
            times["full"].append(run_export(report, validation, out, True)[0])
            size = os.path.getsize(out)
            times["ink"].append(bare_loop(n, out, True))
            times["minimal"].append(bare_loop(n, out, False))
    rate = {k: (printed if k in ("cards", "full") else n) / statistics.median(v) for k, v in times.items()}
    print(f"{n} units -> {printed} cards (poker, 9 per A4 sheet); median of {runs} interleaved runs each")
    print(f"  export_cards, cards only:          {rate['cards']:8.0f} cards/s")
    print(f"  export_cards, + summary, glossary: {rate['full']:8.0f} cards/s  ({size / 1e6:.1f} MB PDF)")
    print(f"  bare reportlab loop, same ink:     {rate['ink']:8.0f} cards/s")
    print(f"  bare reportlab loop, minimal card: {rate['minimal']:8.0f} cards/s")
    print(f"  export_cards (cards only) / bare loop: {rate['cards'] / rate['ink']:.2f} (same ink), "
          f"{rate['cards'] / rate['minimal']:.2f} (minimal card); target >= 0.5")
    print(f"  export_cards (+ summary, glossary) / bare loop: {rate['full'] / rate['ink']:.2f} (same ink), "
          f"{rate['full'] / rate['minimal']:.2f} (minimal card)")

    # memory: tracemalloc peak of export_cards alone
    peaks = {}
    for m in (500, n):
        rep, val = report_for(m)
        with tempfile.TemporaryDirectory() as d:
            tracemalloc.start()
            tracemalloc.reset_peak()
            base = tracemalloc.get_traced_memory()[0]
            run_export(rep, val, os.path.join(d, "c.pdf"), True)
            peaks[m] = (tracemalloc.get_traced_memory()[1] - base) / 2**20
            tracemalloc.stop()
        del rep, val
    rss = {}
    for m in (500, n):
        res = subprocess.run([sys.executable, __file__, "--child-rss", str(m)], capture_output=True, text=True,
                             check=True)
        rss[m] = tuple(float(x) for x in res.stdout.split())
    for m in (500, n):
        print(f"  memory, {m:5d} cards: export_cards peak (tracemalloc) {peaks[m]:5.1f} MiB; fresh process: "
              f"RSS {rss[m][0]:5.1f} MiB before the export, peak RSS {rss[m][1]:5.1f} MiB")


if __name__ == "__main__":
    main()
