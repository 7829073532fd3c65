"""A tournament's lists: `rosterkit validate` of 1 and of 300 lists of 20 units, per built-in ruleset.

Run:  python tests/benchmarks/bench_lists.py [--runs 5] [--lists 300] [--units 20] [--rulesets ares,...] [--unlike]
The lists are made from the sample armies of each ruleset (their units taken in turn, with the
counts varied so that no two lists are alike) in a temporary folder. Each figure is the median
of whole `rosterkit validate` processes; the time a list adds is
(time for 300 lists - time for 1) / 299, in wall time and in processor time (user + system of
the process, steadier when the machine is shared). The target is at most 2 ms a list.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import machine

from rosterkit.files.rosters import load_roster, save_roster
from rosterkit.files.rulesets import Registry

SAMPLES = Path(__file__).resolve().parents[2] / "sample_armies"


def samples(rid: str) -> list:
    """The ruleset's valid sample armies (files without INVALID or MISMATCH in their names)."""
    return [load_roster(p).roster for p in sorted(SAMPLES.glob(f"{rid}_*.toml"))
            if "INVALID" not in p.name and "MISMATCH" not in p.name]


def make_lists(rid: str, folder: Path, lists: int, units: int, unlike: bool = False) -> list[Path]:
    """``lists`` rosters of ``units`` units each: list i takes the units of sample army i (in turn),
    with its own weapons and abilities, repeated to the length asked and the counts varied.
    ``unlike``: each list also sets a house price of its own (for an item no unit holds), so no
    unit is costed alike with another list's and nothing is shared between lists."""
    armies = samples(rid)
    paths = []
    for i in range(lists):
        army = armies[i % len(armies)]
        chosen = []
        for j in range(units):
            unit = army.units[(i + j) % len(army.units)]
            change = {"name": f"{unit.name} {j + 1}"}
            if unit.count is not None and unit.count > 1:
                change["count"] = max(1, unit.count - (i + j) % 3)
            chosen.append(unit.model_copy(update=change))
        path = folder / f"{rid}_{i + 1:03}.toml"
        change = {"name": f"{army.name} {i + 1}", "units": chosen, "points_limit": None}
        if unlike:
            change["house_prices"] = {**army.house_prices, f"Unheld item {i + 1}": 1}
        save_roster(army.model_copy(update=change), path, keep_layout=False)
        paths.append(path)
    return paths


def run(args: list[str], env: dict) -> tuple[float, float]:
    """Wall time and processor time (user + system) of one child process."""
    started = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0
    return time.perf_counter() - started, usage.ru_utime + usage.ru_stime


def medians(args: list[str], runs: int, env: dict) -> tuple[float, float]:
    results = [run(args, env) for _ in range(runs)]
    return statistics.median(r[0] for r in results), statistics.median(r[1] for r in results)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--lists", type=int, default=300)
    ap.add_argument("--units", type=int, default=20)
    ap.add_argument("--rulesets", default="")
    ap.add_argument("--unlike", action="store_true",
                    help="no unit costed alike across lists (each list has a house price of its own)")
    opts = ap.parse_args()
    registry = Registry()
    ids = opts.rulesets.split(",") if opts.rulesets else registry.ids()
    exe = [sys.executable, "-m", "rosterkit", "validate"]
    print(f"Machine: {machine()}")
    print(f"Whole `rosterkit validate` processes, medians of {opts.runs}; "
          f"{opts.lists} lists of {opts.units} units made from the sample armies"
          + (", no unit alike across lists." if opts.unlike else "."))
    print("Wall time, and processor time (user + system: steadier on a shared machine);")
    print(f"per list: (time for {opts.lists} lists - time for 1) / {opts.lists - 1}.")
    header = (f"{'ruleset':16} {'1 list':>8} {f'{opts.lists} lists':>10} {'per list':>9}   "
              f"{'cpu 1':>7} {f'cpu {opts.lists}':>8} {'per list':>9}")
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["ROSTERKIT_HOME"] = str(Path(tmp) / "home")  # the player's own folders stay untouched
        env = dict(os.environ)
        for rid in ids:
            folder = Path(tmp) / rid
            folder.mkdir()
            paths = [str(p) for p in make_lists(rid, folder, opts.lists, opts.units, opts.unlike)]
            one, cpu_one = medians(exe + paths[:1], opts.runs, env)
            many, cpu_many = medians(exe + paths, opts.runs, env)
            n = len(paths) - 1
            print(f"{rid:16} {one * 1000:>6.0f}ms {many * 1000:>8.0f}ms {(many - one) / n * 1000:>7.2f}ms   "
                  f"{cpu_one * 1000:>5.0f}ms {cpu_many * 1000:>6.0f}ms {(cpu_many - cpu_one) / n * 1000:>7.2f}ms")


if __name__ == "__main__":
    main()
