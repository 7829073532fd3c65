"""Start-up and plain output, measured side by side (not collected by pytest: run it by hand).

    python tests/benchmarks/bench_startup.py [--runs 11]

Each line runs two whole processes in turn, A B A B ..., and prints the median wall time of
each and the median of the per-pair ratios A/B (pairs taken together hold when the machine's
speed drifts):

1. `rosterkit validate` on a sample army    vs  `python -c "import pydantic, tomllib"`
   and, for reference, a script that defines and uses one pydantic model against the same floor
   (what any use of pydantic's models costs before rosterkit does anything)
2. `rosterkit --help`                        vs  `python -c pass`
3. `rosterkit cost` piped, 1,000 units       vs  `rosterkit cost --json` of the same file
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
from synth import synthetic_roster

from rosterkit.files.rosters import save_roster
from rosterkit.files.rulesets import Registry

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_armies" / "ares_hill_clans.toml"


def wall(args: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def side_by_side(label: str, a: list[str], b: list[str], runs: int) -> None:
    wall(a), wall(b)  # warm the file cache
    pairs = [(wall(a), wall(b)) for _ in range(runs)]
    ma, mb = statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs)
    ratio = statistics.median(p[0] / p[1] for p in pairs)
    print(f"{label:44} {ma * 1000:7.0f} ms  vs {mb * 1000:6.0f} ms   ratio {ratio:4.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=11)
    opts = ap.parse_args()
    rosterkit = [sys.executable, "-m", "rosterkit"]
    script = Path(sys.executable).with_name("rosterkit")
    if script.exists():  # the installed command, as a player runs it
        rosterkit = [str(script)]
    print(f"Machine: {machine()}; {opts.runs} pairs each, medians")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["ROSTERKIT_HOME"] = str(Path(tmp) / "home")
        big = Path(tmp) / "fast_universal_1000.toml"
        save_roster(synthetic_roster(Registry().get("fast_universal"), 1000), big)
        side_by_side("validate SAMPLE vs import pydantic, tomllib", rosterkit + ["validate", str(SAMPLE)],
                     [sys.executable, "-c", "import pydantic, tomllib"], opts.runs)
        one_model = "import pydantic, tomllib\nclass X(pydantic.BaseModel):\n    a: int = 1\nX(a=2)"
        side_by_side("one pydantic model vs import pydantic, tomllib", [sys.executable, "-c", one_model],
                     [sys.executable, "-c", "import pydantic, tomllib"], opts.runs)
        side_by_side("--help vs python -c pass", rosterkit + ["--help"], [sys.executable, "-c", "pass"], opts.runs)
        side_by_side("cost piped vs cost --json, 1,000 units", rosterkit + ["cost", str(big)],
                     rosterkit + ["cost", "--json", str(big)], opts.runs)


if __name__ == "__main__":
    main()
