"""Core benchmarks: validate and cost a synthetic roster of every built-in ruleset at several sizes.

Run:  python tests/benchmarks/bench_core.py [--runs 5] [--sizes 10,100,1000,10000]
Prints one table: medians of whole-process runs with the peak memory of the process and the
time each unit adds (the curve from 10 to 10,000 units), the in-process time to re-cost and
re-validate after one edit on a 1,000-unit roster, and the load + save round trip. The floor is a bare
`python -c "import pydantic, tomllib"`.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synth import synthetic_roster

from rosterkit.engine.costing import Costing, assemble, cost_unit
from rosterkit.engine.validation import validate_report
from rosterkit.files.rosters import load_roster, save_roster
from rosterkit.files.rulesets import Registry

GNU_TIME = "/usr/bin/time" if Path("/usr/bin/time").exists() else None


def run_process(args: list[str], env: dict | None = None) -> tuple[float, int]:
    """Wall time and peak resident memory (KB) of one child process.

    The peak comes from GNU time where it exists: a child forked straight from this
    (large) benchmark process would report this process's memory as its own peak.
    """
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        cmd = [GNU_TIME, "-f", "%M", "-o", rss.name, *args] if GNU_TIME else args
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        _, _, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - started
        proc.returncode = 0
        text = rss.read().strip() if GNU_TIME else ""
    peak = int(text.splitlines()[-1]) if text and text.splitlines()[-1].isdigit() else usage.ru_maxrss
    return elapsed, peak


def median_process(args: list[str], runs: int, env: dict | None = None) -> tuple[float, int]:
    results = [run_process(args, env) for _ in range(runs)]
    return statistics.median(r[0] for r in results), max(r[1] for r in results)


def machine() -> str:
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sizes", default="10,100,1000,10000")
    ap.add_argument("--rulesets", default="")
    opts = ap.parse_args()
    sizes = [int(s) for s in opts.sizes.split(",")]
    registry = Registry()
    ids = opts.rulesets.split(",") if opts.rulesets else registry.ids()
    exe = [sys.executable, "-m", "rosterkit"]
    print(f"Machine: {machine()}")
    floor, floor_mem = median_process([sys.executable, "-c", "import pydantic, tomllib"], opts.runs)
    print(f"Floor (python -c 'import pydantic, tomllib'): {floor * 1000:.0f} ms, {floor_mem / 1024:.0f} MB")
    print()
    print("Whole process, medians; per unit: (time - time at 10 units) / (units - 10).")
    header = (f"{'ruleset':16} {'units':>6} {'validate':>9} {'x floor':>8} {'per unit':>9} "
              f"{'cost --json':>11} {'peak MB':>8}")
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["ROSTERKIT_HOME"] = str(Path(tmp) / "home")  # the player's own folders stay untouched
        env = dict(os.environ)
        for rid in ids:
            rs = registry.get(rid)
            base = None
            for n in sizes:
                path = Path(tmp) / f"{rid}_{n}.toml"
                save_roster(synthetic_roster(rs, n), path)
                v, vmem = median_process(exe + ["validate", str(path)], opts.runs, env)
                c, cmem = median_process(exe + ["cost", "--json", str(path)], opts.runs, env)
                if base is None:
                    base = (n, v)
                per = f"{(v - base[1]) / (n - base[0]) * 1e6:>7.0f}us" if n > base[0] else f"{'-':>9}"
                print(f"{rid:16} {n:>6} {v * 1000:>7.0f}ms {v / floor:>7.1f}x {per} "
                      f"{c * 1000:>9.0f}ms {max(vmem, cmem) / 1024:>8.0f}")
        print()
        print("In process, 1,000 units: one stat edited, then re-cost that unit, re-total and re-validate;")
        print("memory: tracemalloc peak of costing the roster and 50 edits (a separate, untimed pass)")
        for rid in ids:
            rs = registry.get(rid)
            times = edit_loop(rs, timed=True)
            tracemalloc.start()
            edit_loop(rs, timed=False)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            print(f"  {rid:16} median {statistics.median(times) * 1000:.2f} ms, peak {peak / 2**20:.0f} MiB")
        print()
        print("Load + save round trip, 10,000 units;")
        print("memory: tracemalloc peak of one round trip (a separate, untimed pass)")
        for rid in ids:
            rs = registry.get(rid)
            path = Path(tmp) / f"{rid}_rt.toml"
            save_roster(synthetic_roster(rs, 10000), path)
            times = []
            for _ in range(max(1, opts.runs // 2)):
                started = time.perf_counter()
                r = load_roster(path).roster
                save_roster(r, path)
                times.append(time.perf_counter() - started)
            del r
            tracemalloc.start()
            save_roster(load_roster(path).roster, path)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            print(f"  {rid:16} median {statistics.median(times) * 1000:.0f} ms, peak {peak / 2**20:.0f} MiB")


def edit_loop(rs, timed: bool) -> list[float]:
    roster = synthetic_roster(rs, 1000)
    costing = Costing(rs)
    report = costing.report(roster)
    units = list(report.units)
    times = []
    for k in range(50):
        i = (k * 37) % len(roster.units)
        u = roster.units[i]
        edited = u.model_copy(update={"count": u.count % 12 + 1})
        new_units = list(roster.units)
        new_units[i] = edited
        roster = roster.model_copy(update={"units": new_units})
        started = time.perf_counter()
        units[i] = cost_unit(costing, roster, edited, i)
        validate_report(assemble(rs, roster, units))
        if timed:
            times.append(time.perf_counter() - started)
    return times


if __name__ == "__main__":
    main()
