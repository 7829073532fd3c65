#!/usr/bin/env bash
# Every benchmark, one after the other: the core (CLI, in-process edit, round trip, memory), a
# tournament's 300 lists, the terminal interface (and its start against a minimal Textual app),
# PDF card export, and the cards' line breaking against platypus's.
# Each prints its own table with the machine.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
py="${PYTHON:-python}"
"$py" "$here/bench_core.py" "$@"
echo
"$py" "$here/bench_lists.py"
echo
"$py" "$here/bench_tui.py" --process
echo
"$py" "$here/bench_startup_tui.py" --floor
echo
"$py" "$here/bench_cards.py"
echo
"$py" "$here/bench_wrap.py"
