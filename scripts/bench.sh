#!/usr/bin/env bash
# Benchmarks a release clarityd with `clarityctl bench` and, in the same run, redis-server with
# redis-benchmark, both on Unix sockets on this machine, and prints one comparison table.
#
#   scripts/bench.sh [--scratch-path DIR] [--bin DIR] [--config FILE] [--quick] [--install]
#
#   --scratch-path DIR  passed to `swift build -c release` (default: SwiftPM's .build)
#   --bin DIR           use the clarityd and clarityctl already in DIR; build nothing
#   --config FILE       the daemon's config (default: config/clarityd.json), e.g. one with
#                       "durability": "write" to measure without syncs
#   --quick             a tenth of the requests (a smoke run; figures are noisier)
#   --install           install redis-server and redis-benchmark first when they are missing
#                       (apt-get on Debian/Ubuntu, brew on macOS)
#
# Workloads: daemon.ping, event (lock/unlock), clock.advance (1 s) and store.set, the last three on
# a device created for the run, at -c 1, -c 50 and -c 50 -P 16; redis PING at the same settings,
# sent by the same clients (`clarityctl bench --redis`, so one load generator drives both). The
# ratio column compares each clarityd row with that redis PING; redis-benchmark's own PING_MBULK
# is shown beside it for reference.
# Then two more tables (docs/performance.md, issue 22): events under each durability (fsync,
# everysec, write; one daemon each), and events at -c 50 spread over 1, 2, 8 and 50 devices. Each
# row also shows the CPU the daemon used while it ran (cores: CPU seconds ÷ wall seconds), which
# says whether a figure is bound by the processor or by waiting (for a disk, a lock, a client).
# Everything started here is stopped on exit.
# Needs: swift (unless --bin), and for the comparison redis-server and redis-benchmark
# (Debian/Ubuntu: apt-get install -y redis-server redis-tools; macOS: brew install redis).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scratch=()
bin=""
config_file=""
scale=1
install=false
while (($#)); do
    case "$1" in
    --scratch-path) scratch=(--scratch-path "$2"); shift 2 ;;
    --bin) bin="$2"; shift 2 ;;
    --config) config_file="$2"; shift 2 ;;
    --quick) scale=10; shift ;;
    --install) install=true; shift ;;
    -h | --help) sed -n '2,27p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done

# Requests per workload: [name]=count, sized so that a full run takes well under 3 minutes.
declare -A requests=(
    [ping_c1]=$((100000 / scale)) [ping_c50]=$((200000 / scale)) [ping_p16]=$((1000000 / scale))
    [event_c1]=$((5000 / scale)) [event_c50]=$((20000 / scale)) [event_p16]=$((20000 / scale))
    [advance_c1]=$((5000 / scale)) [advance_c50]=$((20000 / scale)) [advance_p16]=$((20000 / scale))
    [store_c1]=$((2000 / scale)) [store_c50]=$((10000 / scale)) [store_p16]=$((10000 / scale))
    [spread]=$((40000 / scale))
)

if $install && ! { command -v redis-server && command -v redis-benchmark; } >/dev/null; then
    echo "installing redis…" >&2
    if command -v apt-get >/dev/null; then
        sudo=""
        [[ $(id -u) -eq 0 ]] || sudo=sudo
        $sudo apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q redis-server redis-tools >&2
    elif command -v brew >/dev/null; then
        brew install redis >&2
    else
        echo "bench.sh: --install knows apt-get and brew; install redis-server and redis-benchmark yourself" >&2
        exit 1
    fi
fi

if [[ -z "$bin" ]]; then
    echo "building release…" >&2
    (cd "$root" && swift build -c release ${scratch[@]+"${scratch[@]}"} >&2)
    bin="$(cd "$root" && swift build -c release ${scratch[@]+"${scratch[@]}"} --show-bin-path)"
fi
for tool in clarityd clarityctl; do
    [[ -x "$bin/$tool" ]] || { echo "bench.sh: $bin/$tool not found" >&2; exit 1; }
done
# The daemons run from the run's own directory: a --bin given relative must still name the tools.
bin="$(cd "$bin" && pwd)"

work="$(mktemp -d /tmp/clarity-bench.XXXXXX)"
pids=()
redis_pid=""
cleanup() {
    set +e
    for pid in ${pids[@]+"${pids[@]}"} $redis_pid; do
        kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# shellcheck source=wait-for-socket.sh
source "$root/scripts/wait-for-socket.sh"

if [[ -z "$config_file" && -f "$root/config/clarityd.json" ]]; then config_file="$root/config/clarityd.json"; fi

# start_daemon NAME [DURABILITY]: a clarityd on $work/NAME.sock with the config (its durability
# replaced when given); sets daemon_pid.
start_daemon() {
    local name=$1 durability=${2:-} config=()
    if [[ -n "$durability" ]]; then
        python3 -c 'import json, sys
config = json.load(open(sys.argv[1])) if sys.argv[1] else {}
config["durability"] = sys.argv[2]
json.dump(config, open(sys.argv[3], "w"))' "$config_file" "$durability" "$work/$name.json"
        config=(--config "$work/$name.json")
    elif [[ -n "$config_file" ]]; then
        config=(--config "$config_file")
    fi
    (cd "$work" && exec "$bin/clarityd" ${config[@]+"${config[@]}"} --socket "$work/$name.sock" \
        --state-dir "$work/$name-state" --log-level warning) 2>"$work/$name.log" &
    daemon_pid=$!
    pids+=("$daemon_pid")
    wait_for_socket "$work/$name.sock" "$daemon_pid" || {
        echo "bench.sh: clarityd ($name) did not start:" >&2
        cat "$work/$name.log" >&2
        exit 1
    }
}

stop_daemon() { # pid
    kill "$1" 2>/dev/null && wait "$1" 2>/dev/null || true
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
    echo "redis comparison skipped: redis-server/redis-benchmark not installed (--install installs them)" >&2
fi

# clarityctl --json bench prints {"results":[{…}]} with sorted keys: pick fields by name.
field() { sed -n "s/.*\"$1\":\([-0-9.e+]*\).*/\1/p" <<<"$2"; }

# CPU seconds the process has used (user + system), from /proc; empty where there is no /proc.
cpu_seconds() { # pid
    [[ -r "/proc/$1/stat" ]] || return 0
    awk -v tick="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); printf "%.3f", ($12 + $13) / tick }' "/proc/$1/stat"
}

# bench SOCKET PID WORKLOAD CLIENTS PIPELINE REQUESTS [DEVICES]: runs clarityctl bench; sets
# rps, p50, p99 and cores (the daemon's CPU seconds per wall second while it ran), or returns 1.
bench() {
    local socket=$1 pid=$2 workload=$3 clients=$4 pipeline=$5 n=$6 devices=${7:-1} redis=${8:-} out before after
    local target=(--socket "$socket") server=clarityd
    [[ -n "$redis" ]] && target=(--redis "$socket") server="redis (clarityctl bench --redis)"
    echo "  $server $workload -c $clients -P $pipeline -n $n --devices $devices" >&2
    before=$(cpu_seconds "$pid")
    if ! out=$("$bin/clarityctl" --json bench "${target[@]}" -t "$workload" \
        -c "$clients" -P "$pipeline" -n "$n" --devices "$devices" 2>&1); then
        echo "bench.sh: clarityctl bench failed: $out" >&2
        return 1
    fi
    after=$(cpu_seconds "$pid")
    rps=$(field requestsPerSecond "$out")
    p50=$(field p50Ms "$out")
    p99=$(field p99Ms "$out")
    cores=$(awk -v a="${before:-0}" -v b="${after:-0}" -v s="$(field seconds "$out")" \
        'BEGIN { if (s > 0 && b > 0) printf "%.2f", (b - a) / s; else print "-" }')
}

rows=()
measure() { # label workload clients pipeline key
    local label=$1 workload=$2 clients=$3 pipeline=$4 key=$5 n=${requests[$5]}
    local r_rps="" r_p50="" r_p99="" r_cores="-" b_rps="" ratio="-"
    if ! bench "$work/main.sock" "$main_pid" "$workload" "$clients" "$pipeline" "$n"; then
        rows+=("$(printf '%-13s %4s %3s | %s' "$label" "$clients" "$pipeline" "failed (see above)")")
        return
    fi
    local d_rps=$rps d_p50=$p50 d_p99=$p99 d_cores=$cores
    if $have_redis; then
        local rn=${requests[ping_${key#*_}]} same csv
        # redis PING through the same clients (clarityctl bench --redis): the ratio's denominator.
        same="$work/same-c$clients-P$pipeline"
        if [[ ! -s "$same" ]]; then
            if bench "$work/redis.sock" "$redis_pid" ping "$clients" "$pipeline" "$rn" 1 --redis; then
                echo "$rps $p50 $p99 $cores" >"$same"
            fi
        fi
        [[ -s "$same" ]] && read -r r_rps r_p50 r_p99 r_cores <"$same"
        # redis PING through redis's own client, for reference.
        csv="$work/redis-c$clients-P$pipeline.csv"
        if [[ ! -s "$csv" ]]; then
            echo "  redis-benchmark PING -c $clients -P $pipeline -n $rn" >&2
            redis-benchmark -s "$work/redis.sock" -t ping_mbulk -c "$clients" -P "$pipeline" -n "$rn" --csv \
                | grep PING_MBULK | tr -d '"' >"$csv"
        fi
        IFS=, read -r _ b_rps _ <"$csv"
        ratio=$(awk -v a="$d_rps" -v b="${r_rps:-0}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
    fi
    rows+=("$(printf '%-13s %4s %3s | %11.0f %8.3f %8.3f %5s | %11.0f %8s %8s %5s | %6s | %11.0f' "$label" "$clients" \
        "$pipeline" "$d_rps" "$d_p50" "$d_p99" "$d_cores" "${r_rps:-0}" "${r_p50:--}" "${r_p99:--}" "$r_cores" "$ratio" \
        "${b_rps:-0}")")
}

start_daemon main
main_pid=$daemon_pid
echo "running (clarityd pid $main_pid${redis_pid:+, redis pid $redis_pid})…" >&2
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

# Events spread over more devices, at -c 50 (client c on device c mod N).
spread_rows=()
for devices in 1 2 8 50; do
    if bench "$work/main.sock" "$main_pid" event 50 1 "${requests[spread]}" "$devices"; then
        spread_rows+=("$(printf '%8s | %11.0f %8.3f %8.3f %5s' "$devices" "$rps" "$p50" "$p99" "$cores")")
    else
        spread_rows+=("$(printf '%8s | %s' "$devices" "failed (see above)")")
    fi
done

threads="?"
[[ -r "/proc/$main_pid/status" ]] && threads=$(awk '/^Threads:/ { print $2 }' "/proc/$main_pid/status")
durability=$(sed -n 's/.*"durability"[[:space:]]*:[[:space:]]*"\([a-z]*\)".*/\1/p' "${config_file:-/dev/null}" 2>/dev/null)
stop_daemon "$main_pid"

# Each durability on a daemon of its own: events and store.set at -c 1 and -c 50.
durability_rows=()
for mode in fsync everysec write; do
    start_daemon "$mode" "$mode"
    row=$(printf '%-9s' "$mode")
    for phase in "event 1 event_c1" "event 50 event_c50" "store 1 store_c1" "store 50 store_c50"; do
        read -r workload clients key <<<"$phase"
        if bench "$work/$mode.sock" "$daemon_pid" "$workload" "$clients" 1 "${requests[$key]}"; then
            row+=$(printf ' | %8.0f %7.3f %5s' "$rps" "$p99" "$cores")
        else
            row+=" | failed"
        fi
    done
    durability_rows+=("$row")
    stop_daemon "$daemon_pid"
done

echo
echo "$(uname -sm), $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') CPUs," \
    "load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime | sed 's/.*load averages*: //');" \
    "clarityd threads after the run: $threads; durability ${durability:-fsync}"
printf '%-13s %4s %3s | %11s %8s %8s %5s | %11s %8s %8s %5s | %6s | %11s\n' workload -c -P "clarityd/s" "p50 ms" \
    "p99 ms" cores "redis/s" "p50 ms" "p99 ms" cores ratio "r-bench/s"
printf '%s\n' "--------------------------------------------------------------------------------------------------------------------------"
printf '%s\n' "${rows[@]}"
$have_redis && echo "(redis: PING at the same -c/-P sent by the same clients, clarityctl bench --redis; ratio = clarityd" \
    "requests/s ÷ those; r-bench/s = redis's own redis-benchmark PING_MBULK at the same -c/-P, for reference)"
echo
echo "events at -c 50 over N devices (durability ${durability:-fsync})"
printf '%8s | %11s %8s %8s %5s\n' devices "events/s" "p50 ms" "p99 ms" cores
printf '%s\n' "${spread_rows[@]}"
echo
echo "by durability: requests/s, p99 ms, daemon cores"
printf '%-9s | %-22s | %-22s | %-22s | %-22s\n' durability "event -c 1" "event -c 50" "store.set -c 1" "store.set -c 50"
printf '%s\n' "${durability_rows[@]}"
exit 0
