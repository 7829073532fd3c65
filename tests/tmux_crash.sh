#!/usr/bin/env bash
# Crash recovery in a real terminal: edit a roster, let the autosave run, kill the program
# with SIGKILL (nothing of ours runs), start it again and restore the unsaved work.
#
#   tests/tmux_crash.sh            (uses `rosterkit` from PATH; ROSTERKIT_EXE=... to choose)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
EXE="${ROSTERKIT_EXE:-rosterkit}"
WORK="$(mktemp -d)"
SESSION="rkcrash$$"
cp "$ROOT/sample_armies/fast_universal_iron_vanguard.toml" "$WORK/army.toml"
mkdir -p "$WORK/home"

cleanup() {
    tmux kill-session -t "$SESSION" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

screen() { tmux capture-pane -p -t "$SESSION"; }
wait_for() {  # wait_for TEXT [SECONDS]
    local text="$1" limit="${2:-15}" waited=0
    while ! screen | grep -qF -- "$text"; do
        sleep 0.1
        waited=$((waited + 1))
        if [ "$waited" -ge $((limit * 10)) ]; then
            echo "FAILED: '$text' did not appear. The screen:" >&2
            screen >&2
            exit 1
        fi
    done
}
keys() { tmux send-keys -t "$SESSION" "$@"; }
type_text() { tmux send-keys -t "$SESSION" -l "$1"; }

start() {
    tmux new-session -d -s "$SESSION" -x 120 -y 40 \
        "cd '$WORK' && ROSTERKIT_HOME='$WORK/home' exec '$EXE' army.toml"
}

start
wait_for "Units (3)" 30
wait_for "497/500 points"
keys C-n
wait_for "Add a unit"
type_text "average"
wait_for "Average human"
keys Enter
wait_for "Units (4)"
wait_for "707/500 points"
echo "added a unit: 707/500, not saved"

# the autosave runs a second after the last edit
for _ in $(seq 1 50); do
    [ -n "$(ls -A "$WORK/home/recovery" 2>/dev/null)" ] && break
    sleep 0.1
done
[ -n "$(ls -A "$WORK/home/recovery" 2>/dev/null)" ] || { echo "FAILED: no recovery file" >&2; exit 1; }

pid="$(tmux display-message -p -t "$SESSION" '#{pane_pid}')"
kill -9 "$pid"
tmux kill-session -t "$SESSION" 2>/dev/null || true
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
