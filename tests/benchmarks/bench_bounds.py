"""Work that multiplies: hostile rulesets and rosters within the file bounds, timed at the CLI.

Run:  python tests/benchmarks/bench_bounds.py [--cases unit_limits,...] [--keep DIR] [--scale 1.0]

Each case writes a ruleset (the fast_universal rules with many limits, derived values or stats
added) and a roster in a temporary folder, runs `rosterkit validate` (and, for the normal roster,
`update` and `cards`) under /usr/bin/time -v, and prints the wall time, the peak memory (maximum
resident set size), the exit code and the first line of output. ``--scale`` shrinks the sizes
for a quick look; ``--normal`` times a normal 20,000-unit roster instead (``--code`` another checkout,
for the figures before a change).
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


def misspelt_text(units: int) -> str:
    """``units`` units, each holding a weapon of its own misspelt name (see :func:`with_weapons`)."""
    return f'format = 1\nname = "Hostile"\nruleset = "{RULESET_ID}"\n' + "".join(
        f'[[units]]\nname = "U{u}"\ntype = "basic"\nweapons = ["Weapon numbr {u}"]\n' for u in range(units))


def with_weapons(n: int, data: dict | None = None) -> dict:
    """``n`` weapons of names alike ("Weapon number 7"): a "did you mean" compares many of them."""
    data = data or base_ruleset()
    data["weapons"] = data["weapons"] + [{"name": f"Weapon number {i}", "cost": 1} for i in range(n)]
    return data


def normal_roster_text(units: int) -> str:
    """A realistic roster of ``units`` units of the built-in fast_universal ruleset (varied stats and gear)."""
    from synth import synthetic_roster

    from rosterkit.files.rosters import dumps_roster
    from rosterkit.files.rulesets import Registry

    return dumps_roster(synthetic_roster(Registry().get("fast_universal"), units))


# ---------------------------------------------------------------- measuring

def measure(args: list[str], cwd: Path, code_root: Path = ROOT) -> tuple[float, float, int, int, str]:
    """(wall seconds, processor seconds, peak memory in MB, exit code, first output line) of one CLI process."""
    env = dict(os.environ, PYTHONPATH=str(code_root), ROSTERKIT_HOME=str(cwd / "home"))
    cmd = ["/usr/bin/time", "-v", sys.executable, "-m", "rosterkit", *args]
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started

    def field(name: str) -> str:
        m = re.search(rf"{re.escape(name)}: ([\d.]+)", proc.stderr)
        return m.group(1) if m else "-1"
    cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
    lines = [ln for ln in (proc.stdout + proc.stderr).splitlines() if ln.strip() and not ln.startswith("\t")]
    return wall, cpu, int(field("Maximum resident set size (kbytes)")) // 1024, int(field("Exit status")), \
        (lines[0][:160] if lines else "")


def work_of(ruleset: dict, roster: str) -> int:
    """The work the budget counts for the roster under the ruleset."""
    from rosterkit.engine.budget import work_parts
    from rosterkit.files.rosters import loads_roster
    from rosterkit.files.rulesets import compile_ruleset_text

    return sum(w for w, _ in work_parts(compile_ruleset_text(tomli_w.dumps(ruleset), "x"), loads_roster(roster)))


def at_bound(make_ruleset, roster: str) -> int:
    """The largest n for which ``make_ruleset(n)`` with the roster stays within the work budget
    (the work grows in step with n)."""
    from rosterkit.engine.budget import MAX_WORK

    w0, w1 = work_of(make_ruleset(0), roster), work_of(make_ruleset(1), roster)
    return (MAX_WORK - w0) // (w1 - w0)


def padded(data: dict, size: int = 8 * 2**20 - 4096) -> dict:
    """The ruleset grown to ``size`` bytes of TOML with a long note (8 MB, the file bound, less a little)."""
    data["notes"] = data.get("notes", []) + ["x"]
    data["notes"][-1] = "x" * max(0, size - len(tomli_w.dumps(data)))
    return data


def cases(scale: float) -> dict:
    """name: (title, ruleset data, roster text), made when asked for."""
    from rosterkit.rules.ruleset import MAX_FORMULAS

    def n(x: int) -> int:
        return max(1, int(x * scale))

    def bound(title: str, make_ruleset, units: int, **kw):
        def made():
            roster = roster_text(units, **kw)
            k = at_bound(make_ruleset, roster)
            return title.format(k=k, units=units), make_ruleset(k), roster
        return made

    def bound_units(title: str, ruleset: dict, roster=roster_text):
        """The most units of ``roster(units)`` within the budget (the work grows in step with them)."""
        def made():
            from rosterkit.engine.budget import MAX_WORK

            w1, w2 = work_of(ruleset, roster(1)), work_of(ruleset, roster(2))
            units = (MAX_WORK - (2 * w1 - w2)) // (w2 - w1)
            return title.format(units=units), ruleset, roster(units)
        return made

    def bound_members(title: str):
        """The most kinds of figure in one unit within the budget, its card going over them for each
        (the work grows with their square)."""
        def made():
            from rosterkit.engine.budget import MAX_WORK

            data = base_ruleset()
            data["card"]["columns"].append({"label": "All", "show": "{sum_of('move')}"})
            k = 1
            while work_of(data, inline_members_text(2 * k)) <= MAX_WORK:
                k *= 2
            low, high = k, 2 * k  # within at low, beyond at high
            while high - low > 1:
                mid = (low + high) // 2
                low, high = (mid, high) if work_of(data, inline_members_text(mid)) <= MAX_WORK else (low, mid)
            return title.format(k=low), data, inline_members_text(low)
        return made

    def fixed(title: str, ruleset, roster):
        return lambda: (title, ruleset(), roster())

    limits_in_8mb = MAX_FORMULAS // 3 - 20  # a limit is three formulas (check, measure, message)
    return {
        # the reports' sizes: refused
        "unit_limits": fixed("10,000 unit limits x 5,000 units", lambda: with_unit_limits(n(10_000)),
                             lambda: roster_text(n(5_000))),
        "figure_limits": fixed("3,000 figure limits x 5,000 units", lambda: with_figure_limits(n(3_000)),
                               lambda: roster_text(n(5_000))),
        "derived": fixed("5,000 derived values x 20,000 units", lambda: with_derived(n(5_000)),
                         lambda: roster_text(n(20_000))),
        "inline_members": fixed("one unit of 120,000 inline members", base_ruleset,
                                lambda: inline_members_text(n(120_000))),
        "unknown_stats": fixed("200,000 unknown stats in one unit", base_ruleset,
                               lambda: unknown_stats_text(n(200_000))),
        "unknown_stats_spread": fixed("200,000 unknown stats over 20,000 units", base_ruleset,
                                      lambda: unknown_stats_text(n(200_000), n(20_000))),
        "limits_8mb": fixed("8 MB ruleset of 60,000 limits, 1 unit", lambda: padded(with_unit_limits(60_000)),
                            lambda: roster_text(1)),
        # just within the bounds: the work is done
        "unit_limits_at_bound": bound("{k:,} unit limits x {units:,} units (at the bound)", with_unit_limits,
                                      n(1_000)),
        "unit_limits_at_bound_20k": bound("{k:,} unit limits x {units:,} units (at the bound)", with_unit_limits,
                                          n(20_000)),
        "figure_limits_at_bound": bound("{k:,} figure limits x {units:,} units (at the bound)", with_figure_limits,
                                        n(1_000)),
        "derived_at_bound": bound("{k:,} derived values x {units:,} units (at the bound)", with_derived, n(20_000)),
        "derived_at_bound_alike": bound("{k:,} derived values x {units:,} units alike (at the bound)", with_derived,
                                        n(20_000), alike=True),
        "ruleset_8mb_at_bound": bound_units(f"8 MB ruleset of {limits_in_8mb:,} unit limits x {{units:,}} units "
                                            "(at the bound)", padded(with_unit_limits(limits_in_8mb))),
        "misspelt_at_bound": bound_units("{units:,} names misspelt against 2,000 weapons alike (at the bound)",
                                         with_weapons(2_000), misspelt_text),
        "members_at_bound": bound_members("one unit of {k:,} kinds of figure, a card formula over them (at the bound)"),
        "unknown_stats_at_bound": bound_units("10 unknown stats in each of {units:,} units (at the bound)",
                                              base_ruleset(), lambda units: unknown_stats_text(10 * units, units)),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", default="", help="names of cases, comma-separated (default: all)")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--keep", default="", help="write the files into this folder and keep them")
    ap.add_argument("--normal", action="store_true",
                    help="only time update, cards and validate of a normal 20,000-unit roster")
    ap.add_argument("--code", default=str(ROOT), help="the source tree to run (another checkout, for a before)")
    args = ap.parse_args()
    from bench_core import machine

    print(machine())
    code = Path(args.code)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(args.keep) if args.keep else Path(tmp)
        if args.normal:
            folder = base / "normal"
            folder.mkdir(parents=True, exist_ok=True)
            units = int(20_000 * args.scale)
            path = folder / "normal.toml"
            path.write_text(normal_roster_text(units), encoding="utf-8")
            # update the first time (it records each unit's points in the file), then cards and validate
            for command in (["update"], ["cards", "-o", str(folder / "cards.pdf")], ["validate"]):
                wall, cpu, mb, status, first = measure([command[0], str(path), *command[1:]], folder, code)
                print(f"normal {units:,} units: {command[0]:8} {wall:6.1f} s ({cpu:5.1f} s processor) {mb:6} MB "
                      f"exit {status}  {first}")
            return
        table = cases(args.scale)
        for name in [c for c in args.cases.split(",") if c] or list(table):
            title, ruleset, roster = table[name]()
            folder = base / name
            rpath = write_ruleset(folder / "rulesets", ruleset)
            path = folder / "roster.toml"
            path.write_text(roster, encoding="utf-8")
            wall, cpu, mb, status, first = measure(["--rulesets", str(rpath.parent), "validate", str(path)], folder,
                                                   code)
            sizes = f"ruleset {rpath.stat().st_size / 2**20:.2f} MB, roster {path.stat().st_size / 2**20:.2f} MB"
            print(f"{title}: {sizes};"
                  f" {wall:.1f} s ({cpu:.1f} s processor), {mb} MB, exit {status}\n    {first}")


if __name__ == "__main__":
    main()
