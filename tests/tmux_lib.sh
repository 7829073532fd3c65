# Shared by the tmux scripts: a scratch folder with a copy of a sample roster, and ways to
# read the screen and type into it. Source it after setting SESSION.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
EXE="${ROSTERKIT_EXE:-rosterkit}"
WORK="$(mktemp -d)"
# a tmux server of the test's own: other tmux sessions (or another run) cannot disturb it
TMUX_SERVER="rosterkit-test-$$"
cp "$ROOT/sample_armies/fast_universal_iron_vanguard.toml" "$WORK/army.toml"
mkdir -p "$WORK/home"

cleanup() {
    tmux -L "$TMUX_SERVER" kill-session -t "$SESSION" 2>/dev/null || true
    tmux -L "$TMUX_SERVER" kill-server 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

screen() { tmux -L "$TMUX_SERVER" capture-pane -p -t "$SESSION"; }

wait_for() {  # wait_for TEXT [SECONDS]
    local text="$1" limit="${2:-30}" waited=0
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

keys() { tmux -L "$TMUX_SERVER" send-keys -t "$SESSION" "$@"; }
type_text() { tmux -L "$TMUX_SERVER" send-keys -t "$SESSION" -l "$1"; }

add_average_human() {  # from the Iron Vanguard (497/500): add the catalogue's Average human
    keys C-n
    wait_for "Add a unit"
    type_text "average"
    wait_for "Average human"
    keys Enter
    wait_for "Units (4)"
    wait_for "707/500 points"
}
