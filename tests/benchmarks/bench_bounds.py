"""Work that multiplies: hostile rulesets and rosters within the file bounds, timed at the CLI.

Run:  python tests/benchmarks/bench_bounds.py [--cases unit_limits,...] [--keep DIR] [--scale 1.0]

Each case writes a ruleset (the fast_universal rules with many limits, derived values or stats
added) and a roster in a temporary folder, runs `rosterkit validate` (and, for the normal roster,
`update` and `cards`) under /usr/bin/time -v, and prints the wall time, the peak memory (maximum
resident set size), the exit code and the first line of output. ``--scale`` shrinks the sizes
for a quick look. The functions that write the files are used by tests/test_shared_files_budget.py.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import rtoml
import tomli_w

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))

RULESET_ID = "hostile"


def base_ruleset() -> dict:
    """The fast_universal ruleset as data, under another id (so a folder of its own holds it)."""
    data = rtoml.load(ROOT / "rulesets" / "fast_universal.toml")
    data["id"] = RULESET_ID
    data["name"] = "Hostile"
    return data


def write_ruleset(folder: Path, data: dict) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{RULESET_ID}.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    return path


def with_unit_limits(n: int, data: dict | None = None) -> dict:
    """``n`` unit-scope limits, each broken by every unit (so each makes a finding and a message)."""
    data = data or base_ruleset()
    data["limits"] = data["limits"] + [
        {"id": f"u{i}", "label": f"Unit rule {i}", "scope": "unit", "check": f"figures > {10**6 + i}",
         "message": f"{{figures}} figures; rule {i}"} for i in range(n)]
    return data


def with_figure_limits(n: int, data: dict | None = None) -> dict:
    """``n`` figure-scope limits, each broken by every figure."""
    data = data or base_ruleset()
    data["limits"] = data["limits"] + [
        {"id": f"f{i}", "label": f"Figure rule {i}", "scope": "figure", "check": f"count > {10**6 + i}",
         "message": f"{{count}} figures; rule {i}"} for i in range(n)]
    return data


def with_derived(n: int, data: dict | None = None) -> dict:
    """``n`` figure derived values."""
    data = data or base_ruleset()
    data["derived"] = [{"id": f"d{i}", "label": f"Derived {i}", "expr": f"dice + {i}"} for i in range(n)]
    return data


def roster_text(units: int, alike: bool = False, extra: str = "") -> str:
    """A roster of ``units`` units of the hostile ruleset; each unit unlike the others (its own count),
    so nothing is costed once for many, unless ``alike``. ``extra`` is added to each unit's table."""
    out = ['format = 1', 'name = "Hostile"', f'ruleset = "{RULESET_ID}"', '']
    for i in range(units):
        count = 10 if alike else i % 999_999 + 1
        out.append(f'[[units]]\nname = "U{i}"\ntype = "basic"\ncount = {count}\n'
                   f'weapons = ["Sword"]\nstats = {{ dice = 1, die = 6, move = 6, defense = 8 }}\n{extra}')
    return "\n".join(out)


def inline_members_text(members: int) -> str:
    """One unit of ``members`` kinds of figure, written as inline tables on one line."""
    row = ", ".join(f'{{ count = {i % 1000 + 1} }}' for i in range(members))
    return (f'format = 1\nname = "Hostile"\nruleset = "{RULESET_ID}"\n\n'
            f'[[units]]\nname = "Horde"\ntype = "basic"\nmembers = [{row}]\n')


def unknown_stats_text(stats: int, units: int = 1) -> str:
    """``units`` units holding ``stats`` stats the ruleset does not know, in all."""
    per = max(1, stats // units)
    out = [f'format = 1\nname = "Hostile"\nruleset = "{RULESET_ID}"\n']
    for u in range(units):
        keys = ", ".join(f"x{u}_{i} = 1" for i in range(per))
        out.append(f'[[units]]\nname = "U{u}"\ntype = "basic"\ncount = 1\nstats = {{ {keys} }}\n')
    return "\n".join(out)


def normal_roster_text(units: int) -> str:
    """A realistic roster of ``units`` units of the built-in fast_universal ruleset (varied stats and gear)."""
    from synth import synthetic_roster

    from rosterkit.files.rosters import dumps_roster
    from rosterkit.files.rulesets import Registry

    return dumps_roster(synthetic_roster(Registry().get("fast_universal"), units))


# ---------------------------------------------------------------- measuring

def measure(args: list[str], cwd: Path) -> tuple[float, int, int, str]:
    """(wall seconds, peak memory in MB, exit code, first output line) of one CLI process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), ROSTERKIT_HOME=str(cwd / "home"))
    cmd = ["/usr/bin/time", "-v", sys.executable, "-m", "rosterkit", *args]
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    code = re.search(r"Exit status: (\d+)", proc.stderr)
    lines = [ln for ln in (proc.stdout + proc.stderr).splitlines() if ln.strip() and not ln.startswith("\t")]
    return wall, int(rss.group(1)) // 1024 if rss else -1, int(code.group(1)) if code else proc.returncode, \
        (lines[0][:150] if lines else "")


def at_bound(per_unit: int, units: int) -> int:
    """How many of a ruleset part (each costing ``per_unit`` steps a unit) fill the work budget
    over ``units`` units, less what the rest of the ruleset takes."""
    from rosterkit.engine.budget import MAX_WORK

    return (MAX_WORK - 60 * units) // (per_unit * units)


def cases(scale: float) -> dict:
    from rosterkit.engine.budget import LIMIT_WEIGHT

    def n(x: int) -> int:
        return max(1, int(x * scale))
    u_lim = at_bound(LIMIT_WEIGHT + 1, n(1_000))
    u_lim_many = at_bound(LIMIT_WEIGHT + 1, n(20_000))
    f_lim = at_bound(LIMIT_WEIGHT + 1, n(1_000))
    derived = at_bound(1, n(20_000))
    return {
        "unit_limits": ("10,000 unit limits x 5,000 units", lambda: with_unit_limits(n(10_000)),
                        lambda: roster_text(n(5_000))),
        "figure_limits": ("3,000 figure limits x 5,000 units", lambda: with_figure_limits(n(3_000)),
                          lambda: roster_text(n(5_000))),
        "derived": ("5,000 derived values x 20,000 units (alike)", lambda: with_derived(n(5_000)),
                    lambda: roster_text(n(20_000), alike=True)),
        "derived_unlike": ("5,000 derived values x 20,000 units", lambda: with_derived(n(5_000)),
                           lambda: roster_text(n(20_000))),
        "unit_limits_at_bound": (f"{u_lim:,} unit limits x {n(1_000):,} units (at the bound)",
                                 lambda: with_unit_limits(u_lim), lambda: roster_text(n(1_000))),
        "unit_limits_at_bound_20k": (f"{u_lim_many:,} unit limits x {n(20_000):,} units (at the bound)",
                                     lambda: with_unit_limits(u_lim_many), lambda: roster_text(n(20_000))),
        "figure_limits_at_bound": (f"{f_lim:,} figure limits x {n(1_000):,} units (at the bound)",
                                   lambda: with_figure_limits(f_lim), lambda: roster_text(n(1_000))),
        "derived_at_bound": (f"{derived:,} derived values x {n(20_000):,} units (at the bound)",
                             lambda: with_derived(derived), lambda: roster_text(n(20_000))),
        "inline_members": ("one unit of 120,000 inline members", base_ruleset, lambda: inline_members_text(n(120_000))),
        "unknown_stats": ("200,000 unknown stats in one unit", base_ruleset, lambda: unknown_stats_text(n(200_000))),
        "unknown_stats_spread": ("200,000 unknown stats over 20,000 units", base_ruleset,
                                 lambda: unknown_stats_text(n(200_000), n(20_000))),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", default="")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--keep", default="", help="write the files into this folder and keep them")
    ap.add_argument("--normal", action="store_true", help="also time update and cards of a normal 20,000-unit roster")
    args = ap.parse_args()
    from bench_core import machine

    print(machine())
    table = cases(args.scale)
    chosen = [c for c in args.cases.split(",") if c] or list(table)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(args.keep) if args.keep else Path(tmp)
        for name in chosen:
            title, ruleset, roster = table[name]
            folder = base / name
            rpath = write_ruleset(folder / "rulesets", ruleset())
            path = folder / "roster.toml"
            path.write_text(roster(), encoding="utf-8")
            wall, mb, code, first = measure(["--rulesets", str(rpath.parent), "validate", str(path)], folder)
            print(f"{title:48} ruleset {rpath.stat().st_size / 2**20:5.2f} MB, roster {path.stat().st_size / 2**20:5.2f} MB:"
                  f" {wall:6.1f} s {mb:6} MB exit {code}  {first}")
        if args.normal:
            folder = base / "normal"
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / "normal.toml"
            path.write_text(normal_roster_text(int(20_000 * args.scale)), encoding="utf-8")
            for command in (["update"], ["cards", "-o", str(folder / "cards.pdf")], ["validate"]):
                wall, mb, code, first = measure([command[0], str(path), *command[1:]], folder)
                print(f"normal {int(20_000 * args.scale):,} units: {command[0]:8} {wall:6.1f} s {mb:6} MB exit {code}  {first}")


if __name__ == "__main__":
    main()
