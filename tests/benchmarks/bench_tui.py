"""Timings of the terminal interface (not collected by pytest: run it by hand).

    python tests/benchmarks/bench_tui.py [--runs N] [--units N] [--process]

1. Launch to first screen with a 50-unit roster (--units): from App construction to the roster
   screen mounted and drawn (Textual Pilot), median of N runs. With --process, also the
   real program in tmux: from spawning `rosterkit FILE` until the units list shows on
   screen (includes starting Python and importing everything).
2. Keystroke to updated totals on the same roster: a digit typed into a
   stat field of a unit (or deleted), until the top bar holds the new totals; until the screen
   has painted everything the keystroke changed (the end of the last frame that drew the top
   bar, the unit's line, the cost panel, the limits or the editor's title: a frame that only
   drew the typed digit does not count); and until Pilot reports the app idle (which includes
   Pilot's own polling, 20 ms a turn). Medians of N keystrokes, and how many frames each took.
   Textual draws at most 60 frames a second: a change ready within 16.7 ms of the frame
   before waits for the next one, so a keystroke whose digit and totals are painted in two
   frames costs up to 16.7 ms more than one painted in one frame.
   The same with each key posted to the app as the terminal driver posts it
   (``App.post_message(events.Key)``) and nothing else running until it is painted: Pilot's
   ``press`` also posts a callback to every widget of the screen (about 90) and waits for
   them, interleaved with the app's work and its frame, which a real terminal never adds.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DUPLICATES: list[float] = []
FRAMES: list[int] = []  # frames written until every changed panel was drawn, per keystroke
SAMPLE = ROOT / "sample_armies" / "fast_universal_iron_vanguard.toml"


def big_roster(n: int, folder: Path) -> Path:
    from rosterkit.files.rosters import load_roster, save_roster

    base = load_roster(SAMPLE).roster
    units = [u.model_copy(update={"name": f"{u.name} {i // len(base.units) + 1}"})
             for i, u in zip(range(n), base.units * (n // len(base.units) + 1))]
    path = folder / f"big_{n}.toml"
    save_roster(base.model_copy(update={"units": units, "points_limit": 200 * n}), path)
    return path


async def launch_once(path: Path) -> float:
    from rosterkit.files.rulesets import Registry
    from rosterkit.tui.app import RosterkitApp
    from rosterkit.tui.screens.roster import RosterScreen

    start = time.perf_counter()
    app = RosterkitApp(Registry(), path, cwd=path.parent)
    async with app.run_test(size=(160, 48)) as pilot:
        while not (isinstance(app.screen, RosterScreen) and app.screen.is_mounted):
            await asyncio.sleep(0.001)
        await pilot.pause()  # drawn
        elapsed = time.perf_counter() - start
    return elapsed


async def keystrokes(path: Path, count: int, terminal: bool = False) -> tuple[list[float], list[float], list[float]]:
    """(to totals, to painted, to idle) of ``count`` keystrokes. ``terminal``: each key is posted
    to the app as the terminal driver posts it, and nothing else runs until it is painted
    (Pilot's ``press`` also posts a callback to every widget of the screen and waits for them
    all, interleaved with the app's own work and its frame: work a real terminal never adds)."""
    from textual import events

    from rosterkit.files.rulesets import Registry
    from rosterkit.tui.app import RosterkitApp
    from rosterkit.tui.screens.roster import RosterScreen

    to_totals: list[float] = []
    to_paint: list[float] = []
    to_idle: list[float] = []
    app = RosterkitApp(Registry(), path, cwd=path.parent)
    async with app.run_test(size=(160, 48)) as pilot:
        while not isinstance(app.screen, RosterScreen):
            await pilot.pause()
        screen = app.screen
        screen.query_one("#units").select_unit(len(screen.session.roster.units) // 2)
        await pilot.pause()
        field = screen.query_one("#stat-move")
        field.control.focus()
        await pilot.press("end", "ctrl+u", "1")
        await pilot.pause()
        bar = screen.query_one("#topbar")
        # what a keystroke changes: the top bar, the unit's line, the cost panel, the limits, the editor's title
        watched = [bar, screen.query_one("#units"), screen.query_one("#cost-body"),
                   screen.query_one("#cost-total"), screen.query_one("#composition"),
                   screen.query_one("#editor-title")]
        drawn: set[object] = set()

        def watch(widget) -> None:
            render_line = widget.render_line

            def drawing(y: int):  # (called only for lines not drawn before)
                drawn.add(widget)
                return render_line(y)

            widget.render_line = drawing

        for widget in watched:
            watch(widget)
        paints: list[tuple[float, bool]] = []  # (when a frame was written, whether it drew a watched widget)
        refresh = screen._compositor_refresh

        def painted() -> None:  # the screen writes its changed lines to the terminal
            drawn.clear()
            refresh()
            paints.append((time.perf_counter(), bool(drawn)))

        screen._compositor_refresh = painted
        for i in range(count):
            key = "2" if i % 2 == 0 else "backspace"
            before = str(bar.right)
            start = time.perf_counter()
            if terminal:
                app.post_message(events.Key(key, key if len(key) == 1 else None))
                task = None
            else:
                task = asyncio.ensure_future(pilot.press(key))
            while str(bar.right) == before:
                await asyncio.sleep(0)
            changed = time.perf_counter()
            to_totals.append(changed - start)
            if task is None:  # until a frame has drawn what changed, and a few frames' time more
                while not any(drew and t > changed for t, drew in paints):
                    await asyncio.sleep(0.001)
                await asyncio.sleep(0.05)
            else:
                await task
            await pilot.pause()
            to_idle.append(time.perf_counter() - start)
            # painted: the end of the last frame that drew any of them (all are drawn by then)
            frames = [t for t, drew in paints if drew and t > start]
            to_paint.append(frames[-1] - start)
            FRAMES.append(len(frames))
            paints.clear()
        # a structural edit: duplicate a unit (the units list is rebuilt)
        units = screen.query_one("#units")
        units.focus()
        await pilot.pause()
        dup: list[float] = []
        for _ in range(5):
            before = len(screen.session.roster.units)
            start = time.perf_counter()
            task = asyncio.ensure_future(pilot.press("d"))
            while len(screen.session.roster.units) == before:
                await asyncio.sleep(0)
            await task
            await pilot.pause()
            dup.append([t for t, drew in paints if drew and t > start][-1] - start)
            paints.clear()
        global DUPLICATES
        DUPLICATES = dup
    return to_totals, to_paint, to_idle


PEAKS_KB: list[int] = []
SERVER = "rkbench"  # a tmux server of its own: other tmux sessions neither disturb nor see it


def tmux(*args: str, check: bool = False) -> subprocess.CompletedProcess:
    return subprocess.run(["tmux", "-L", SERVER, *args], capture_output=True, text=True, check=check)


def _peak_rss_kb(session: str) -> int | None:
    """Peak resident memory of the program running in a tmux session (Linux /proc)."""
    pane = tmux("list-panes", "-t", session, "-F", "#{pane_pid}").stdout.split()
    pids = list(pane)
    while pids:
        pid = pids.pop()
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"rosterkit" in cmdline and b"sh\x00-c" not in cmdline:
            for line in status.splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        children = subprocess.run(["pgrep", "-P", pid], capture_output=True, text=True).stdout.split()
        pids.extend(children)
    return None


def process_launch(path: Path, runs: int, units: int) -> list[float]:
    exe = Path(sys.executable).parent / "rosterkit"
    out = []
    for i in range(runs):
        name = f"rkbench{os.getpid()}_{i}"
        env_cmd = f"ROSTERKIT_HOME={tempfile.mkdtemp()} {exe} {path}; sleep 5"
        start = time.perf_counter()
        tmux("new-session", "-d", "-s", name, "-x", "160", "-y", "48", env_cmd, check=True)
        try:
            while time.perf_counter() - start < 30:
                text = tmux("capture-pane", "-p", "-t", name).stdout
                if f"Units ({units})" in text:
                    out.append(time.perf_counter() - start)
                    peak = _peak_rss_kb(name)
                    if peak:
                        PEAKS_KB.append(peak)
                    break
                time.sleep(0.005)
        finally:
            tmux("kill-session", "-t", name)
    return out


def process_keys(path: Path, count: int) -> tuple[list[float], float]:
    """Keystrokes in the real program in tmux: from sending a digit (or backspace) into a unit's
    Move field until tmux's copy of the screen shows the new total in the top bar. Includes
    tmux's own work: the send-keys command, and polling with capture-pane (whose own time is
    returned too, to read the figures by)."""
    exe = Path(sys.executable).parent / "rosterkit"
    name = f"rkkeys{os.getpid()}"
    tmux("new-session", "-d", "-s", name, "-x", "160", "-y", "48",
         f"ROSTERKIT_HOME={tempfile.mkdtemp()} {exe} {path}; sleep 5", check=True)

    def screen() -> list[str]:
        return tmux("capture-pane", "-p", "-t", name).stdout.splitlines() or [""]

    def keys(*pressed: str, literal: bool = False) -> None:
        tmux("send-keys", "-t", name, *(["-l"] if literal else []), *pressed, check=True)

    out: list[float] = []
    try:
        start = time.perf_counter()
        while not any("Units (" in line for line in screen()):
            if time.perf_counter() - start > 30:
                raise SystemExit("the program did not show its units in 30 s")
            time.sleep(0.05)
        time.sleep(1.5)
        for _ in range(6):  # from the units list to the first unit's Move field
            keys("Tab")
            time.sleep(0.3)
        for key in ("End", "C-u"):
            keys(key)
            time.sleep(0.2)
        keys("1", literal=True)
        time.sleep(0.5)
        move = next((line for line in screen() if "│ Move " in line), "")
        if "│ Move         1 " not in move:
            raise SystemExit(f"the Move field was not reached: {move!r}")
        for i in range(count):
            before = screen()[0]
            start = time.perf_counter()
            if i % 2 == 0:
                keys("2", literal=True)
            else:
                keys("BSpace")
            while screen()[0] == before:
                if time.perf_counter() - start > 5:
                    raise SystemExit("a keystroke changed nothing in 5 s")
            out.append(time.perf_counter() - start)
            time.sleep(0.25)
        polls = []
        for _ in range(11):
            t = time.perf_counter()
            screen()
            polls.append(time.perf_counter() - t)
        return out, statistics.median(polls)
    finally:
        tmux("kill-session", "-t", name)


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:.0f} ms (min {min(values) * 1000:.0f}, " \
           f"max {max(values) * 1000:.0f}, n={len(values)})"


def frames() -> str:
    """How many frames the keystrokes took to paint everything they changed (and empties the list)."""
    counts = [FRAMES.count(n) for n in sorted(set(FRAMES))]
    text = ", ".join(f"{c} in {n} frame{'s' if n != 1 else ''}" for n, c in zip(sorted(set(FRAMES)), counts))
    FRAMES.clear()
    return text


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--keys", type=int, default=21)
    parser.add_argument("--units", type=int, default=50, help="units in the roster (a real army is 5-50)")
    parser.add_argument("--process", action="store_true", help="also time the real program in tmux")
    parser.add_argument("--keys-only", action="store_true", help="only the keystroke timings")
    args = parser.parse_args()
    os.environ.setdefault("ROSTERKIT_HOME", tempfile.mkdtemp())
    n = args.units
    print(f"machine: {platform.machine()} {platform.processor() or ''} {os.cpu_count()} CPUs, "
          f"Python {platform.python_version()}, {platform.system()} {platform.release()}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = big_roster(n, folder)
        if not args.keys_only:
            launches = [asyncio.run(launch_once(path)) for _ in range(args.runs)]
            print(f"launch to first screen, {n} units (Pilot): {ms(launches)}")
        if args.process:
            if shutil.which("tmux"):
                print(f"launch to first screen, {n} units (real process in tmux): "
                      f"{ms(process_launch(path, args.runs, n))}")
                if PEAKS_KB:
                    print(f"peak memory of the program with {n} units on screen: "
                          f"{statistics.median(PEAKS_KB) / 1024:.0f} MB")
                real, poll = process_keys(path, args.keys)
                print(f"keystroke to the new total on screen, {n} units (real process in tmux, including "
                      f"tmux's send-keys and a capture-pane of {poll * 1000:.1f} ms per poll): {ms(real)}")
            else:
                print("tmux not installed: real-process launch not measured")
        totals, paint, idle = asyncio.run(keystrokes(path, args.keys))
        print(f"keystroke to updated totals (cost, limits, findings, top bar), {n} units: {ms(totals)}")
        print(f"keystroke to the new totals painted, {n} units: {ms(paint)}, {frames()}")
        print(f"keystroke to Pilot's idle (includes its polling), {n} units: {ms(idle)}")
        totals, paint, _ = asyncio.run(keystrokes(path, args.keys, terminal=True))
        print(f"keys posted as a terminal posts them, {n} units: to totals {ms(totals)}")
        print(f"keys posted as a terminal posts them, {n} units: to painted {ms(paint)}, {frames()}")
        print(f"duplicate a unit (list rebuilt) to painted, {n} units: {ms(DUPLICATES)}")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
