#!/usr/bin/env bash
# Measures exploration speed in a release build (docs/performance.md) and prints the figures:
#   1. the bare runtime: three actors doing read-modify-write, a fresh world per schedule;
#   2. the real platform: Clarity's race scenario (config/scenarios/clarity-stale-verification*.json)
#      explored through a release clarityd, with 1 job and with every core.
#
#   scripts/explore-bench.sh [--schedules N]     (default 10000 for the fixed variant)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
schedules=10000
while (($#)); do
    case "$1" in
    --schedules) schedules="$2"; shift 2 ;;
    -h | --help) sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "explore-bench.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
cd "$root"
cores="$(getconf _NPROCESSORS_ONLN)"

echo "== building (release)"
swift build -c release >/dev/null
swift build -c release --build-tests -Xswiftc -enable-testing >/dev/null
bin="$(swift build -c release --show-bin-path)"

echo "== bare runtime"
CLARITYD_BENCH=1 swift test -c release --skip-build -Xswiftc -enable-testing --filter RuntimeBenchmarkTests 2>&1 |
    grep "bare runtime"

work="$(mktemp -d)"
"$bin/clarityd" --socket "$work/clarityd.sock" --state-dir "$work/state" --log-level warning >"$work/log" 2>&1 &
daemon=$!
trap 'kill "$daemon" 2>/dev/null; wait "$daemon" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do [[ -S "$work/clarityd.sock" ]] && break; sleep 0.05; done
ctl() { "$bin/clarityctl" --socket "$work/clarityd.sock" --timeout 0 "$@"; }

explore() { # FILE STRATEGY SCHEDULES JOBS [--all]
    ctl explore "config/scenarios/$1.json" --strategy "$2" --schedules "$3" --jobs "$4" "${@:5}" |
        grep -E '^(schedules|failed|schedules/s|steps/s|decisions/s|seconds|stoppedBy|  seed):' | tr -s ' ' | paste -sd ' ' || true
}

echo "== real platform (Clarity, release clarityd, $cores cores)"
echo "-- race scenario, pct, until the first failure:"
explore clarity-stale-verification pct 1000 1
echo "-- race scenario, pct, 1000 schedules, collect all, 1 job:"
explore clarity-stale-verification pct 1000 1 --all
echo "-- race scenario, pct, 1000 schedules, collect all, $cores jobs:"
explore clarity-stale-verification pct 1000 "$cores" --all
echo "-- fixed variant, pct, $schedules schedules, 1 job:"
explore clarity-stale-verification-fixed pct "$schedules" 1
echo "-- fixed variant, pct, $schedules schedules, $cores jobs:"
explore clarity-stale-verification-fixed pct "$schedules" "$cores"
