#!/usr/bin/env bash
# Benchmarks a release clarityd with `clarityctl bench` and, in the same run, redis-server with
# redis-benchmark, both on Unix sockets on this machine, and prints one comparison table.
#
#   scripts/bench.sh [--scratch-path DIR] [--bin DIR] [--config FILE] [--quick]
#
#   --scratch-path DIR  passed to `swift build -c release` (default: SwiftPM's .build)
#   --bin DIR           use the clarityd and clarityctl already in DIR; build nothing
#   --config FILE       the daemon's config (default: config/clarityd.json), e.g. one with
#                       "durability": "write" to measure without syncs
#   --quick             a tenth of the requests (a smoke run; figures are noisier)
#
# Workloads: daemon.ping, event (lock/unlock), clock.advance (1 s) and store.set, the last three on
# a device created for the run, at -c 1, -c 50 and -c 50 -P 16; redis PING (PING_MBULK) at the
# same settings. The ratio column compares each
# clarityd row with redis PING at the same -c/-P. Everything started here is stopped on exit.
# Needs: swift (unless --bin), and for the comparison redis-server and redis-benchmark
# (Debian/Ubuntu: apt-get install -y redis-server redis-tools; macOS: brew install redis).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scratch=()
bin=""
config_file=""
scale=1
while (($#)); do
    case "$1" in
    --scratch-path) scratch=(--scratch-path "$2"); shift 2 ;;
    --bin) bin="$2"; shift 2 ;;
    --config) config_file="$2"; shift 2 ;;
    --quick) scale=10; shift ;;
    -h | --help) sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done

# Requests per workload: [name]=count, sized so that a full run takes well under 3 minutes.
declare -A requests=(
    [ping_c1]=$((100000 / scale)) [ping_c50]=$((200000 / scale)) [ping_p16]=$((1000000 / scale))
    [event_c1]=$((5000 / scale)) [event_c50]=$((20000 / scale)) [event_p16]=$((20000 / scale))
    [advance_c1]=$((5000 / scale)) [advance_c50]=$((20000 / scale)) [advance_p16]=$((20000 / scale))
    [store_c1]=$((2000 / scale)) [store_c50]=$((10000 / scale)) [store_p16]=$((10000 / scale))
)

if [[ -z "$bin" ]]; then
    echo "building release…" >&2
    (cd "$root" && swift build -c release ${scratch[@]+"${scratch[@]}"} >&2)
    bin="$(cd "$root" && swift build -c release ${scratch[@]+"${scratch[@]}"} --show-bin-path)"
fi
for tool in clarityd clarityctl; do
    [[ -x "$bin/$tool" ]] || { echo "bench.sh: $bin/$tool not found" >&2; exit 1; }
done

work="$(mktemp -d /tmp/clarity-bench.XXXXXX)"
daemon_pid=""
redis_pid=""
cleanup() {
    set +e
    for pid in $daemon_pid $redis_pid; do
        kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

wait_for_socket() { # path pid
    for _ in $(seq 100); do
        [[ -S "$1" ]] && return 0
        kill -0 "$2" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}

config=()
if [[ -n "$config_file" ]]; then
    config=(--config "$config_file")
elif [[ -f "$root/config/clarityd.json" ]]; then
    config=(--config "$root/config/clarityd.json")
fi
(cd "$work" && exec "$bin/clarityd" ${config[@]+"${config[@]}"} --socket "$work/clarityd.sock" \
    --state-dir "$work/state" --log-level warning) 2>"$work/clarityd.log" &
daemon_pid=$!
wait_for_socket "$work/clarityd.sock" "$daemon_pid" || {
    echo "bench.sh: clarityd did not start:" >&2
    cat "$work/clarityd.log" >&2
    exit 1
}

have_redis=false
if command -v redis-server >/dev/null && command -v redis-benchmark >/dev/null; then
    redis-server --port 0 --unixsocket "$work/redis.sock" --unixsocketperm 700 --save '' --appendonly no \
        --daemonize no --logfile "$work/redis.log" &
    redis_pid=$!
    if wait_for_socket "$work/redis.sock" "$redis_pid"; then
        have_redis=true
    else
        echo "bench.sh: redis-server did not start; comparison skipped" >&2
    fi
else
    echo "redis comparison skipped: redis-server/redis-benchmark not installed" \
        "(Debian/Ubuntu: apt-get install -y redis-server redis-tools; macOS: brew install redis)" >&2
fi

# clarityctl --json bench prints {"results":[{…}]} with sorted keys: pick fields by name.
field() { sed -n "s/.*\"$1\":\([-0-9.e+]*\).*/\1/p" <<<"$2"; }

rows=()
measure() { # label workload clients pipeline key
    local label=$1 workload=$2 clients=$3 pipeline=$4 key=$5 n=${requests[$5]}
    local out rps p50 p99 r_rps="" r_p50="" r_p99="" ratio="-"
    echo "  clarityd $label -c $clients -P $pipeline -n $n" >&2
    if ! out=$("$bin/clarityctl" --socket "$work/clarityd.sock" --json bench -t "$workload" \
        -c "$clients" -P "$pipeline" -n "$n" 2>&1); then
        echo "bench.sh: clarityctl bench failed: $out" >&2
        rows+=("$(printf '%-13s %4s %3s | %s' "$label" "$clients" "$pipeline" "failed (see above)")")
        return
    fi
    rps=$(field requestsPerSecond "$out")
    p50=$(field p50Ms "$out")
    p99=$(field p99Ms "$out")
    if $have_redis; then
        local csv
        csv="$work/redis-c$clients-P$pipeline.csv"
        if [[ ! -s "$csv" ]]; then
            local rn=${requests[ping_${key#*_}]}
            echo "  redis PING -c $clients -P $pipeline -n $rn" >&2
            redis-benchmark -s "$work/redis.sock" -t ping_mbulk -c "$clients" -P "$pipeline" -n "$rn" --csv \
                | grep PING_MBULK | tr -d '"' >"$csv"
        fi
        IFS=, read -r _ r_rps _ _ r_p50 _ r_p99 _ <"$csv"
        ratio=$(awk -v a="$rps" -v b="$r_rps" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
    fi
    rows+=("$(printf '%-13s %4s %3s | %11.0f %8.3f %8.3f | %11.0f %8s %8s | %6s' "$label" "$clients" "$pipeline" \
        "$rps" "$p50" "$p99" "${r_rps:-0}" "${r_p50:--}" "${r_p99:--}" "$ratio")")
}

echo "running (clarityd pid $daemon_pid${redis_pid:+, redis pid $redis_pid})…" >&2
measure daemon.ping ping 1 1 ping_c1
measure daemon.ping ping 50 1 ping_c50
measure daemon.ping ping 50 16 ping_p16
measure event event 1 1 event_c1
measure event event 50 1 event_c50
measure event event 50 16 event_p16
measure clock.advance advance 1 1 advance_c1
measure clock.advance advance 50 1 advance_c50
measure clock.advance advance 50 16 advance_p16
measure store.set store 1 1 store_c1
measure store.set store 50 1 store_c50
measure store.set store 50 16 store_p16

threads="?"
[[ -r "/proc/$daemon_pid/status" ]] && threads=$(awk '/^Threads:/ { print $2 }' "/proc/$daemon_pid/status")

echo
echo "$(uname -sm), $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') CPUs," \
    "load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime | sed 's/.*load averages*: //');" \
    "clarityd threads after the run: $threads"
printf '%-13s %4s %3s | %11s %8s %8s | %11s %8s %8s | %6s\n' workload -c -P "clarityd/s" "p50 ms" "p99 ms" \
    "redis/s" "p50 ms" "p99 ms" ratio
printf '%s\n' "-------------------------------------------------------------------------------------------"
printf '%s\n' "${rows[@]}"
$have_redis && echo "(redis: PING_MBULK at the same -c/-P; ratio = clarityd requests/s ÷ redis requests/s)"
exit 0
