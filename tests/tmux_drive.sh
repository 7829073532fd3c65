#!/usr/bin/env bash
# Drive the real rosterkit program in tmux, as a player would at a 120x40 terminal:
# open a roster, add a unit from the catalogue, rename it, undo, redo, type its count digit by
# digit, save, quit.
#
#   tests/tmux_drive.sh            (uses `rosterkit` from PATH; ROSTERKIT_EXE=... to choose)
#
# Exits 0 when every step showed what it should; prints the screen when one does not.
set -euo pipefail

SESSION="rk$$"
# shellcheck source=tmux_lib.sh
. "$(dirname "$0")/tmux_lib.sh"

# Textual draws on stderr: it is not redirected.
tmux -L "$TMUX_SERVER" new-session -d -s "$SESSION" -x 120 -y 40 \
    "cd '$WORK' && ROSTERKIT_HOME='$WORK/home' '$EXE' army.toml; sleep 30"

wait_for "Units (3)" 30
wait_for "497/500 points"
echo "opened: 3 units, 497/500 points"

add_average_human
wait_for "The army costs 707 points"
wait_for "▌Average human"  # the new unit's name has the focus (framed)
echo "added Average human from the catalogue: 707/500, the points finding shows"

keys F2
sleep 0.3  # a player's pause: keys sent in the same instant can reach the list before the field has focus
type_text "Militia"
wait_for "Militia"
keys C-z
wait_for "Undo rename"
keys C-y
wait_for "Redo rename"
wait_for "Militia"
echo "renamed to Militia, undone and redone"

# the count, typed digit by digit with a person's pauses: Tab to it, empty it, type 3 then 5
keys Tab
sleep 0.4
keys Tab
sleep 0.4
keys C-a
sleep 0.4
keys C-k
sleep 0.6
wait_for "707/500 points"  # emptied: nothing changes until a digit is typed
keys 3
sleep 0.7
wait_for "560/500 points"
keys 5
sleep 0.5
wait_for "1232/500 points"
keys BSpace
sleep 1.2  # past the autosave
wait_for "560/500 points"
screen | grep -qE "Miniatures +(▌)?3 " || { echo "FAILED: the count field does not show 3" >&2; screen >&2; exit 1; }
echo "typed the count 3, 35, 3 with pauses: 560, 1232, 560 points"

keys C-s
wait_for "Saved army.toml"
grep -q 'name = "Militia"' "$WORK/army.toml"
grep -q 'count = 3' "$WORK/army.toml"
[ -f "$WORK/army.toml.bak" ]
echo "saved: army.toml has the new unit, army.toml.bak the old file"

keys C-q
for _ in $(seq 1 300); do  # up to 30 s on a busy machine
    screen | grep -qF "Units (4)" || break
    sleep 0.1
done
if screen | grep -qF "Units (4)"; then
    echo "FAILED: still running after ctrl+q" >&2
    screen >&2
    exit 1
fi
if [ -n "$(ls -A "$WORK/home/recovery" 2>/dev/null)" ]; then
    echo "FAILED: a recovery file was left after a clean quit" >&2
    exit 1
fi
echo "quit cleanly; no recovery file left"
echo "OK"
