#!/usr/bin/env bash
# DailyLimit under a daemon of its own, driven by clarityctl as a user would (docs/sdk.md,
# "Your own daemon"): starts `dailylimitd` (clarityd with DailyLimit registered beside the five
# built-in apps) on a private socket, creates a DailyLimit device, limits Instagram, uses it up
# to the limit and reads the shield; explores the first version's race from its scenario file,
# against the same daemon and with --standalone; then restarts on the same state with plain
# clarityd (no DailyLimit: the device is kept on disk, unrestored) and with dailylimitd again (the
# device is back as it was). Exits 1 when anything differs.
#
#   scripts/drive-with-clarityctl.sh     (from Examples/DailyLimit, after `swift build`; builds clarityctl)
set -euo pipefail
# SWIFT_SCRATCH_PATH: build there instead of .build (as .ci/run does, one directory for every example).
build() { swift build ${SWIFT_SCRATCH_PATH:+--scratch-path "$SWIFT_SCRATCH_PATH"} "$@"; }
cd "$(dirname "$0")/.."
build --product clarityctl >/dev/null
build --product clarityd >/dev/null
bin="$(build --show-bin-path)"
ctl="$bin/clarityctl"
dir="$(mktemp -d /tmp/dailylimit-XXXXXX)"
export CLARITYD_SOCKET="$dir/clarityd.sock"
daemon=""
start() {
    "$1" --socket "$CLARITYD_SOCKET" --state-dir "$dir/state" >>"$dir/daemon.log" 2>&1 &
    daemon=$!
    for _ in $(seq 1 300); do [[ -S "$CLARITYD_SOCKET" ]] && return; sleep 0.1; done
}
trap '[[ -n "$daemon" ]] && kill "$daemon" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$dir"' EXIT
start "$bin/dailylimitd"
fail() { echo "drive-with-clarityctl: $*" >&2; cat "$dir/daemon.log" >&2; exit 1; }
expect() { grep -qF -- "$2" <<<"$1" || fail "expected '$2' in: $1"; }

set -x
"$ctl" ping
catalog="$("$ctl" call daemon.catalog)"
expect "$catalog" '"name":"dailylimit"'
"$ctl" device create phone --app dailylimit --start 2026-01-05T09:00:00Z --config '{"app":{"dailyLimitMinutes":20}}'
"$ctl" --device phone intent limitApps apps='["com.burbn.instagram"]'
"$ctl" --device phone event app.open app=com.burbn.instagram
advanced="$("$ctl" --device phone --json advance 1200)"
expect "$advanced" "You've used your 20 minutes for today."
shield="$("$ctl" --device phone --json shield-config com.burbn.instagram)"
expect "$shield" '"title":"Daily limit reached"'
state="$("$ctl" --device phone --json device state)"
expect "$state" '"shielded":true'
explored="$("$ctl" --json explore scenarios/dailylimit-last-press.json --schedules 500)"
expect "$explored" '"passed":true'
expect "$explored" 'requestsToday: dailylimit.shieldAction over dailylimit.monitor'
CLARITYD_EXECUTABLE="$bin/dailylimitd" "$ctl" explore scenarios/dailylimit-last-press.json --standalone --schedules 500
"$ctl" daemon shutdown
wait "$daemon"

start "$bin/clarityd"
listed="$("$ctl" --json device list)"
grep -qF '"phone"' <<<"$listed" && fail "clarityd, without DailyLimit, listed its device: $listed"
refused="$("$ctl" device create phone --app clarity 2>&1 || true)"
expect "$refused" "phone"
grep -qF "runs dailylimit, which this daemon was not given" "$dir/daemon.log" || fail "clarityd did not say why phone was kept"
"$ctl" daemon shutdown
wait "$daemon"

start "$bin/dailylimitd"
state="$("$ctl" --device phone --json device state)"
expect "$state" '"shielded":true'
"$ctl" daemon shutdown
wait "$daemon"
daemon=""
set +x
echo "drive-with-clarityctl: DailyLimit ran under its own daemon, driven by clarityctl"
