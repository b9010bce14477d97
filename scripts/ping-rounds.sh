#!/usr/bin/env bash
# Compares clarityd's daemon.ping with redis's PING in alternated rounds, and says what each
# request cost the server: the figure behind docs/performance.md's "what bounds it" (issue 22).
#
#   scripts/ping-rounds.sh [--bin DIR] [--against DIR] [--scratch-path DIR] [--rounds N] [-P PIPELINE] [-n REQUESTS]
#
#   --bin DIR           use the clarityd and clarityctl already in DIR; build nothing
#   --against DIR       also run the clarityd in DIR each round (another build, say the commit
#                       before a change; its rows are named "before"), through the same clients
#   --scratch-path DIR  passed to `swift build -c release` (default: SwiftPM's .build)
#   --rounds N          rounds (default 5); each starts a fresh clarityd, then runs redis
#   -P PIPELINE         requests in flight per client (default 1)
#   -n REQUESTS         requests per round and server (default 300000; 2000000 suits -P 16)
#
# One load generator drives both (`clarityctl bench -c 50`, and `--redis` for redis), on the same
# machine. A single run of bench.sh moves by ±10 % with the machine; alternating the two servers
# round by round and averaging is what the ratio in the docs means. Per round it prints requests
# a second and, read from /proc for the server's threads over the round: user and system CPU
# microseconds per request, and involuntary context switches (the server preempted, mostly by a
# client thread it just woke) per 100 requests. Needs redis-server.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
bin=""
against=""
scratch=()
rounds=5
pipeline=1
requests=300000
while [[ $# -gt 0 ]]; do
    case $1 in
        --bin) bin=$2; shift 2 ;;
        --scratch-path) scratch=(--scratch-path "$2"); shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        -P) pipeline=$2; shift 2 ;;
        -n) requests=$2; shift 2 ;;
        --against) against=$2; shift 2 ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) echo "ping-rounds.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
for number in "$rounds" "$pipeline" "$requests"; do
    [[ "$number" =~ ^[1-9][0-9]*$ ]] || { echo "ping-rounds.sh: '$number' is not a positive whole number" >&2; exit 2; }
done
command -v redis-server >/dev/null || { echo "ping-rounds.sh: needs redis-server (scripts/bench.sh --install installs it)" >&2; exit 1; }

if [[ -z "$bin" ]]; then
    echo "building release…" >&2
    (cd "$root" && swift build -c release ${scratch[@]+"${scratch[@]}"} >&2)
    bin="$(cd "$root" && swift build -c release ${scratch[@]+"${scratch[@]}"} --show-bin-path)"
fi
[[ -d "$bin" ]] || { echo "ping-rounds.sh: --bin '$bin' is not a directory" >&2; exit 2; }
bin="$(cd "$bin" && pwd)"
if [[ -n "$against" ]]; then
    [[ -x "$against/clarityd" ]] || { echo "ping-rounds.sh: --against '$against' holds no clarityd" >&2; exit 2; }
    against="$(cd "$against" && pwd)"
fi
for tool in clarityd clarityctl; do
    [[ -x "$bin/$tool" ]] || { echo "ping-rounds.sh: $bin/$tool not found" >&2; exit 1; }
done

work="$(mktemp -d /tmp/clarity-ping-rounds.XXXXXX)"
pids=()
cleanup() {
    set +e
    for pid in ${pids[@]+"${pids[@]}"}; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# shellcheck source=wait-for-socket.sh
source "$root/scripts/wait-for-socket.sh"

# usage PID: user ticks, system ticks and involuntary context switches, summed over its threads.
usage() {
    local user=0 system=0 switches=0 task fields
    for task in /proc/"$1"/task/*; do
        read -r -a fields < <(sed 's/.*) //' "$task/stat" 2>/dev/null) || continue
        user=$((user + fields[11])) system=$((system + fields[12]))
        switches=$((switches + $(awk '/^nonvoluntary_ctxt_switches/ {print $2}' "$task/status" 2>/dev/null || echo 0)))
    done
    echo "$user $system $switches"
}

# measure NAME PID ARGS...: one bench run against the server PID; prints its row and appends it
# (name, requests/s, user and system µs a request, preemptions a 100 requests) to rows.
measure() {
    local name=$1 pid=$2 before after rate
    shift 2
    before=$(usage "$pid")
    rate=$("$bin/clarityctl" --socket "$work/clarityd.sock" bench "$@" -c 50 -P "$pipeline" -n "$requests" --json \
        | python3 -c 'import json, sys; print(json.load(sys.stdin)["results"][0]["requestsPerSecond"])')
    after=$(usage "$pid")
    python3 -c 'import sys
name, rate, n, tick, *t = sys.argv[1:]; n, tick = int(n), int(tick); b, a = [int(x) for x in t[0:3]], [int(x) for x in t[3:6]]
print(name, rate, (a[0] - b[0]) / tick * 1e6 / n, (a[1] - b[1]) / tick * 1e6 / n, (a[2] - b[2]) * 100 / n)' \
        "$name" "$rate" "$requests" "$(getconf CLK_TCK)" $before $after | tee -a "$work/rows" \
        | awk '{printf "%-9s %10.0f/s  user %.3f  sys %.3f µs a request  preempted %.1f a 100\n", $1, $2, $3, $4, $5}'
}

redis-server --port 0 --unixsocket "$work/redis.sock" --unixsocketperm 700 --save '' --appendonly no \
    --daemonize no --logfile "$work/redis.log" &
redis_pid=$!
pids+=("$redis_pid")
wait_for_socket "$work/redis.sock" "$redis_pid" || { echo "ping-rounds.sh: redis-server did not start" >&2; exit 1; }

echo "daemon.ping vs redis PING, -c 50 -P $pipeline, $requests requests a round, $rounds rounds; $(nproc) CPUs"
# run_daemon NAME DIR: a fresh clarityd from DIR, measured under NAME, then stopped.
run_daemon() {
    local daemon
    (cd "$work" && exec "$2/clarityd" --socket "$work/clarityd.sock" --state-dir "$work/state" --log-level warning) \
        2>"$work/clarityd.log" &
    daemon=$!
    pids+=("$daemon")
    wait_for_socket "$work/clarityd.sock" "$daemon" || { echo "ping-rounds.sh: $2/clarityd did not start:" >&2; cat "$work/clarityd.log" >&2; exit 1; }
    measure "$1" "$daemon" -t ping
    kill "$daemon" && wait "$daemon" 2>/dev/null || true
    rm -rf "$work/state" "$work/clarityd.sock"
}

for round in $(seq "$rounds"); do
    echo "round $round"
    [[ -z "$against" ]] || run_daemon before "$against"
    run_daemon clarityd "$bin"
    measure redis "$redis_pid" --redis "$work/redis.sock"
done

python3 - "$work/rows" <<'PY'
import sys
from collections import defaultdict
rows = defaultdict(list)
for line in open(sys.argv[1]):
    name, *figures = line.split()
    rows[name].append([float(x) for x in figures])
mean = lambda name, i: sum(r[i] for r in rows[name]) / len(rows[name])
names = [name for name in ("before", "clarityd", "redis") if name in rows]
print("mean      requests/s  user µs  sys µs  preempted/100")
for name in names:
    print(f"{name:9} {mean(name, 0):11.0f}  {mean(name, 1):7.3f}  {mean(name, 2):6.3f}  {mean(name, 3):13.1f}")
for name in names[:-1]:
    ratios = [c[0] / r[0] for c, r in zip(rows[name], rows["redis"])]
    print(f"ratio {name}/redis: {mean(name, 0) / mean('redis', 0):.2f} (rounds {min(ratios):.2f}–{max(ratios):.2f})")
PY
