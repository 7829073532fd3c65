#!/usr/bin/env bash
# Crash recovery in a real terminal: edit a roster, let the autosave run, kill the program
# with SIGKILL (nothing of ours runs), start it again and restore the unsaved work.
#
#   tests/tmux_crash.sh            (uses `rosterkit` from PATH; ROSTERKIT_EXE=... to choose)
set -euo pipefail

SESSION="rkcrash$$"
# shellcheck source=tmux_lib.sh
. "$(dirname "$0")/tmux_lib.sh"

start() {
    tmux -L "$TMUX_SERVER" new-session -d -s "$SESSION" -x 120 -y 40 \
        "cd '$WORK' && ROSTERKIT_HOME='$WORK/home' exec '$EXE' army.toml"
}

start
wait_for "Units (3)" 30
wait_for "497/500 points"
add_average_human
echo "added a unit: 707/500, not saved"

# the autosave runs a second after the last edit (the folder also holds the window's lock file)
recovery() { compgen -G "$WORK/home/recovery/*.json" >/dev/null; }
for _ in $(seq 1 50); do
    recovery && break
    sleep 0.1
done
recovery || { echo "FAILED: no recovery file" >&2; exit 1; }

pid="$(tmux -L "$TMUX_SERVER" display-message -p -t "$SESSION" '#{pane_pid}')"
kill -9 "$pid"
tmux -L "$TMUX_SERVER" kill-session -t "$SESSION" 2>/dev/null || true
grep -q "Average human" "$WORK/army.toml" && { echo "FAILED: the unsaved unit reached the roster file" >&2; exit 1; }
echo "killed with SIGKILL; army.toml still holds the saved version"

start
wait_for "Restore" 30
keys r
wait_for "Units (4)"
wait_for "707/500 points"
echo "restarted: the recovery was offered and restored the unsaved unit"
keys C-s
wait_for "Saved army.toml"
grep -q "Average human" "$WORK/army.toml"
echo "saved after recovery"
echo "OK"
