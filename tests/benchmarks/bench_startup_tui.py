"""Time to the interface's first screen, against a minimal Textual app (run it by hand; not collected by pytest).

    python tests/benchmarks/bench_startup_tui.py [--runs N] [--units N] [--warmup N] [--floor]

Two programs are launched the same way, side by side and alternating, each in a new
160x48 session of the benchmark's own tmux server (``tmux -L rkbench``):

  a. ``rosterkit FILE`` with a roster of 50 units (``--units``) (built like ``bench_tui.big_roster``);
  b. a minimal Textual app: one Static showing a known word.

Each run is timed from spawning the program until its content is on the screen, polling
``tmux -L rkbench capture-pane -p``: for rosterkit the units list's title ``Units (50)``
and the first unit in the editor's title (the whole first screen is drawn at once), for
the minimal app its word. The medians of both and their ratio are printed, with the
machine. Both programs draw on the terminal as they would for a player (Textual writes
to stderr, which is left alone).

With ``--floor`` a third program is timed alongside: the minimal app preceded by what any
interface to the roster needs, rosterkit's core imported and the roster opened, costed and
checked (``workspace.open_roster``), which shows how much of the time is the interface's.

The programs run with Python's compiled bytecode cached, as for an installed package
(pip compiles it): a cache folder of the benchmark's own (PYTHONPYCACHEPREFIX), filled by the
untimed warm-up runs, even where PYTHONDONTWRITEBYTECODE is set. ``--warmup 0`` times
cold starts instead.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import machine
from bench_tui import big_roster

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_armies" / "fast_universal_iron_vanguard.toml"
SERVER = "rkbench"
WIDTH, HEIGHT = 160, 48
TIMEOUT = 30.0
POLL = 0.005

MINIMAL_WORD = "rkbench-minimal-ready"
MINIMAL_APP = f'''\
from textual.app import App, ComposeResult
from textual.widgets import Static


class Minimal(App):
    def compose(self) -> ComposeResult:
        yield Static("{MINIMAL_WORD}")


if __name__ == "__main__":
    Minimal().run()
'''

FLOOR_WORD = "rkbench-floor-ready"
FLOOR_APP = f'''\
import sys

from rosterkit.files.rulesets import Registry
from rosterkit.workspace import open_roster
from textual.app import App, ComposeResult
from textual.widgets import Static

opened = open_roster(sys.argv[1], Registry())
findings = opened.validation.findings  # costed and checked


class Floor(App):
    def compose(self) -> ComposeResult:
        yield Static(f"{FLOOR_WORD} {{len(opened.roster.units)}} units, {{len(findings)}} findings")


if __name__ == "__main__":
    Floor().run()
'''


def load_first_unit(path: Path) -> str:
    from rosterkit.files.rosters import load_roster

    return load_roster(path).roster.units[0].name


def tmux(*args: str, check: bool = False) -> subprocess.CompletedProcess:
    return subprocess.run(["tmux", "-L", SERVER, *args], capture_output=True, text=True, check=check)


def launch(command: str, expect: tuple[str, ...], name: str) -> float:
    """Seconds from spawning `command` in a new tmux window until every text of `expect` shows on its screen."""
    start = time.perf_counter()
    tmux("new-session", "-d", "-s", name, "-x", str(WIDTH), "-y", str(HEIGHT), f"{command}; sleep 30",
         check=True)
    try:
        while time.perf_counter() - start < TIMEOUT:
            screen = tmux("capture-pane", "-p", "-t", name).stdout
            if all(text in screen for text in expect):
                return time.perf_counter() - start
            time.sleep(POLL)
        screen = tmux("capture-pane", "-p", "-t", name).stdout
        raise SystemExit(f"{expect!r} not on screen after {TIMEOUT:.0f} s; the screen shows:\n{screen}")
    finally:
        tmux("kill-session", "-t", name)


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:.0f} ms (min {min(values) * 1000:.0f}, " \
           f"max {max(values) * 1000:.0f}, n={len(values)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs of each program (default 7)")
    parser.add_argument("--units", type=int, default=50, help="units in the roster (default 50)")
    parser.add_argument("--floor", action="store_true",
                        help="also time the core alone (imports, the roster opened) before the minimal app")
    parser.add_argument("--warmup", type=int, default=1,
                        help="untimed runs of each first, which also fill the bytecode cache (default 1)")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        raise SystemExit("tmux is not installed")
    exe = Path(sys.executable).parent / "rosterkit"
    if not exe.exists():
        raise SystemExit(f"no {exe}: install rosterkit in this Python first (pip install -e .)")
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        roster = big_roster(args.units, folder)
        minimal = folder / "minimal_app.py"
        minimal.write_text(MINIMAL_APP)
        home = folder / "home"  # no recent files or recovered work from the player's own folder
        home.mkdir()
        first = load_first_unit(roster)
        env = (f"cd {folder} && env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX={folder / 'pycache'} "
               f"ROSTERKIT_HOME={home} PYTHONPATH={ROOT}")  # (this checkout, not an installed copy)
        programs = {
            "rosterkit": (f"{env} {exe} {roster}", (f"Units ({args.units})", f"#1 {first}")),
            "minimal": (f"{env} {sys.executable} {minimal}", (MINIMAL_WORD,)),
        }
        if args.floor:
            floor = folder / "floor_app.py"
            floor.write_text(FLOOR_APP)
            programs["floor"] = (f"{env} {sys.executable} {floor} {roster}", (FLOOR_WORD,))
        times: dict[str, list[float]] = {name: [] for name in programs}
        # a session kept open, so the server's own start is not timed
        tmux("new-session", "-d", "-s", "keep", "-x", str(WIDTH), "-y", str(HEIGHT), "sleep 3600", check=True)
        try:
            for i in range(args.warmup + args.runs):
                names = list(programs)
                order = names[i % len(names):] + names[:i % len(names)]  # alternating
                for name in order:
                    command, expect = programs[name]
                    elapsed = launch(command, expect, f"{name}{i}")
                    if i >= args.warmup:
                        times[name].append(elapsed)
                    time.sleep(0.2)  # let the previous program finish exiting
        finally:
            tmux("kill-server")
    rk, mini = times["rosterkit"], times["minimal"]
    print(f"rosterkit FILE ({args.units} units) to the roster on screen: {ms(rk)}")
    print(f"minimal Textual app to its word on screen:          {ms(mini)}")
    print(f"ratio of medians: {statistics.median(rk) / statistics.median(mini):.2f}x")
    if args.floor:
        floor_times = times["floor"]
        print(f"core alone (imports, roster opened) then the minimal app: {ms(floor_times)}; "
              f"ratio to the minimal app {statistics.median(floor_times) / statistics.median(mini):.2f}x")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
