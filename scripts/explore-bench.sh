#!/usr/bin/env bash
# Measures exploration speed in a release build (docs/performance.md) and prints the figures:
#   1. the bare runtime: three actors doing read-modify-write, a fresh world per schedule;
#   2. the real platform: Clarity's race scenario (config/scenarios/clarity-stale-verification*.json)
#      explored through a release clarityd, with 1 job and with every core.
# With --baseline DIR (the bin directory of another build, e.g. a release build of an older
# commit), it measures instead both builds side by side, in one run, alternating, 1 job each:
# the shipped fixed variants (Clarity's with PCT and with random search, ScrollKitty's, and
# SpendLess's flag race) — schedules/s by wall time and per CPU second of each daemon (which a
# busy machine disturbs less), and this build's speed-up.
#
#   scripts/explore-bench.sh [--schedules N] [--baseline DIR] [--rounds R]
#     --schedules N   schedules a row (default 10000 for the fixed variant)
#     --baseline DIR  the other build's bin directory (holding clarityd and clarityctl)
#     --rounds R      with --baseline, runs of each row per build, alternating (default 3); the best is shown
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
schedules=10000
baseline=""
rounds=3
while (($#)); do
    case "$1" in
    --schedules) schedules="$2"; shift 2 ;;
    --baseline) baseline="$(cd "$2" && pwd)"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    -h | --help) sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "explore-bench.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
if [[ -n "$baseline" && ! -x "$baseline/clarityd" ]]; then
    echo "explore-bench.sh: --baseline $baseline holds no clarityd" >&2
    exit 2
fi
cd "$root"
cores="$(getconf _NPROCESSORS_ONLN)"
ticks="$(getconf CLK_TCK)"

echo "== building (release)"
if [[ -z "$baseline" ]]; then
    swift build -c release >/dev/null
    swift build -c release --build-tests -Xswiftc -enable-testing >/dev/null
else
    # The products only, with the flags the tests' build uses (as a baseline's build usually was).
    swift build -c release -Xswiftc -enable-testing >/dev/null
fi
bin="$(swift build -c release --show-bin-path)"

work="$(mktemp -d)"
daemons=()
trap 'for d in "${daemons[@]}"; do kill "$d" 2>/dev/null; wait "$d" 2>/dev/null; done; rm -rf "$work"' EXIT

start_daemon() { # BIN NAME: a clarityd of BIN on $work/NAME.sock; its pid in $work/NAME.pid
    "$1/clarityd" --socket "$work/$2.sock" --state-dir "$work/$2.state" --log-level warning >"$work/$2.log" 2>&1 &
    daemons+=("$!")
    echo "$!" >"$work/$2.pid"
    for _ in $(seq 100); do [[ -S "$work/$2.sock" ]] && return; sleep 0.05; done
    echo "explore-bench.sh: $1/clarityd did not start:" >&2
    cat "$work/$2.log" >&2
    exit 1
}

cpu_ticks() { # PID: user + system time so far, in clock ticks
    awk '{ print $14 + $15 }' "/proc/$1/stat"
}

explore() { # BIN NAME FILE STRATEGY SCHEDULES JOBS [--all]
    "$1/clarityctl" --socket "$work/$2.sock" --timeout 0 explore "config/scenarios/$3.json" --strategy "$4" \
        --schedules "$5" --jobs "$6" "${@:7}" 2>/dev/null
}

summary() { # the summary lines of an explore, on one line
    grep -E '^(schedules|failed|schedules/s|steps/s|decisions/s|seconds|stoppedBy|  seed):' | tr -s ' ' | paste -sd ' ' || true
}

start_daemon "$bin" this

if [[ -z "$baseline" ]]; then
    echo "== bare runtime"
    CLARITYD_BENCH=1 swift test -c release --skip-build -Xswiftc -enable-testing --filter RuntimeBenchmarkTests 2>&1 |
        grep "bare runtime"
    echo "== real platform (Clarity, release clarityd, $cores cores)"
    echo "-- race scenario, pct, until the first failure:"
    explore "$bin" this clarity-stale-verification pct 1000 1 | summary
    echo "-- race scenario, pct, 1000 schedules, collect all, 1 job:"
    explore "$bin" this clarity-stale-verification pct 1000 1 --all | summary
    echo "-- race scenario, pct, 1000 schedules, collect all, $cores jobs:"
    explore "$bin" this clarity-stale-verification pct 1000 "$cores" --all | summary
    echo "-- fixed variant, pct, $schedules schedules, 1 job:"
    explore "$bin" this clarity-stale-verification-fixed pct "$schedules" 1 | summary
    echo "-- fixed variant, pct, $schedules schedules, $cores jobs:"
    explore "$bin" this clarity-stale-verification-fixed pct "$schedules" "$cores" | summary
    exit 0
fi

start_daemon "$baseline" baseline

measure() { # BIN NAME FILE STRATEGY: "wall-schedules/s cpu-schedules/s failed" of one run of $schedules, 1 job
    local pid before after out
    pid="$(cat "$work/$2.pid")"
    before="$(cpu_ticks "$pid")"
    out="$(explore "$1" "$2" "$3" "$4" "$schedules" 1 --all || true)"
    after="$(cpu_ticks "$pid")"
    local rate done failed
    rate="$(awk '/^schedules\/s:/ { print $2 }' <<<"$out")"
    done="$(awk '/^schedules:/ { print $2 }' <<<"$out")"
    failed="$(awk '/^failed:/ { print $2 }' <<<"$out")"
    awk -v rate="${rate:-0}" -v done="${done:-0}" -v ticks="$((after - before))" -v hz="$ticks" -v failed="${failed:-?}" \
        'BEGIN { printf "%.0f %.0f %s\n", rate, (ticks > 0 ? done * hz / ticks : 0), failed }'
}

best() { # the largest of the numbers on stdin
    sort -n | tail -n 1
}

echo "== this build ($bin) beside --baseline ($baseline), 1 job, $schedules schedules a row, best of $rounds"
printf '%-44s %22s %22s %9s\n' "scenario, strategy" "baseline: wall (cpu)" "this: wall (cpu)" "× (cpu)"
for row in "clarity-stale-verification-fixed pct" "clarity-stale-verification-fixed random" \
    "scrollkitty-concurrent-bypass-fixed pct" "spendless-flag-race pct"; do
    read -r file strategy <<<"$row"
    : >"$work/baseline.rows"
    : >"$work/this.rows"
    for _ in $(seq "$rounds"); do
        measure "$baseline" baseline "$file" "$strategy" >>"$work/baseline.rows"
        measure "$bin" this "$file" "$strategy" >>"$work/this.rows"
    done
    base_wall="$(cut -d' ' -f1 "$work/baseline.rows" | best)"
    base_cpu="$(cut -d' ' -f2 "$work/baseline.rows" | best)"
    this_wall="$(cut -d' ' -f1 "$work/this.rows" | best)"
    this_cpu="$(cut -d' ' -f2 "$work/this.rows" | best)"
    failed="$(cut -d' ' -f3 "$work/this.rows" | sort -u | paste -sd/)"
    printf '%-44s %22s %22s %9s\n' "$file $strategy (failed: $failed)" "$base_wall ($base_cpu)" "$this_wall ($this_cpu)" \
        "$(awk -v a="$base_cpu" -v b="$this_cpu" 'BEGIN { printf "%.2f", (a > 0 ? b / a : 0) }')"
done
