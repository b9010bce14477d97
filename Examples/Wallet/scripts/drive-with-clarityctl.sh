#!/usr/bin/env bash
# The wallet under a daemon of its own, driven by clarityctl as a user would (README.md): starts
# `wallet-clarityd` on a private socket, earns and syncs on a naive device, reads the server over
# the socket (`server list`, `server call balance`), spends at the shield, then kills the daemon
# with SIGKILL, starts it again on the same state and reads the same balance; explores the naive
# sync's race from its scenario file. Exits 1 when anything differs.
#
#   scripts/drive-with-clarityctl.sh     (from Examples/Wallet; builds what it runs)
set -euo pipefail
# SWIFT_SCRATCH_PATH: build there instead of .build (as .ci/run does, one directory for every example).
build() { swift build ${SWIFT_SCRATCH_PATH:+--scratch-path "$SWIFT_SCRATCH_PATH"} "$@"; }
cd "$(dirname "$0")/.."
build --product clarityctl >/dev/null
build --product wallet-clarityd >/dev/null
bin="$(build --show-bin-path)"
ctl="$bin/clarityctl"
dir="$(mktemp -d /tmp/wallet-XXXXXX)"
export CLARITYD_SOCKET="$dir/clarityd.sock"
daemon=""
fail() { echo "drive-with-clarityctl: $*" >&2; cat "$dir/daemon.log" >&2; exit 1; }
expect() { grep -qF -- "$2" <<<"$1" || fail "expected '$2' in: $1"; }
starts=0
# Starts the daemon and waits for it to listen (a socket left by a killed one does not count).
start() {
    "$bin/wallet-clarityd" --socket "$CLARITYD_SOCKET" --state-dir "$dir/state" >>"$dir/daemon.log" 2>&1 &
    daemon=$!
    starts=$((starts + 1))
    for _ in $(seq 1 300); do
        (($(grep -c " listening on " "$dir/daemon.log" 2>/dev/null || true) >= starts)) && return
        sleep 0.1
    done
    fail "the daemon did not start"
}
trap '[[ -n "$daemon" ]] && kill "$daemon" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$dir"' EXIT

start
set -x
"$ctl" device create alice --app wallet --config '{"app":{"variant":"naive"}}'
"$ctl" --device alice intent lockApps apps='["com.burbn.instagram"]'
"$ctl" --device alice intent earn minutes=30
"$ctl" --device alice intent sync
expect "$("$ctl" --json server list)" '"server":"wallet"'
expect "$("$ctl" --json server call balance '{"user":"alice"}' --server wallet)" '"balance":30'
"$ctl" --device alice event app.open app=com.burbn.instagram
"$ctl" --device alice event shield.press app=com.burbn.instagram button=secondary
expect "$("$ctl" --json server call balance '{"user":"alice"}' --server wallet)" '"balance":20'
refused="$("$ctl" server call balance '{"user":"alice"}' --server nope 2>&1 || true)"
expect "$refused" "no server nope (known: thephone, wallet)"
kill -9 "$daemon"
wait "$daemon" || true
start
grep -qF "server instances restored:" "$dir/daemon.log" || fail "the wallet's server was not restored"
expect "$("$ctl" --json server call balance '{"user":"alice"}' --server wallet)" '"balance":20'
# A finished workout syncs in the background (the main app's Task {}): the intent answers at
# once with the minutes pending, while the (naive) sync's first request, GET /balance, is out
# until the clock moves. kill -9 meanwhile: the restored device has the same task waiting; when
# the clock moves it writes the balance back, and the server counts the 15 minutes once.
expect "$("$ctl" --json --device alice intent finishWorkout minutes=15)" '"pendingMinutes":15'
kill -9 "$daemon"
wait "$daemon" || true
start
expect "$("$ctl" --json server call balance '{"user":"alice"}' --server wallet)" '"balance":20'
expect "$("$ctl" --json --device alice device state)" '"pendingMinutes":15'
"$ctl" --device alice advance 1
expect "$("$ctl" --json server call balance '{"user":"alice"}' --server wallet)" '"balance":35'
expect "$("$ctl" --json --device alice device state)" '"pendingMinutes":0'
explored="$("$ctl" --json explore scenarios/wallet-spend-during-sync.json --schedules 300)"
expect "$explored" '"passed":true'
explored="$("$ctl" --json explore scenarios/wallet-two-workouts.json --schedules 300)"
expect "$explored" '"passed":true'
"$ctl" daemon shutdown
wait "$daemon"
daemon=""
set +x
echo "drive-with-clarityctl: the wallet ran, was read over the socket and came back after kill -9"
