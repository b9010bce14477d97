#!/usr/bin/env bash
# A soak of clarityd (issue 22, docs/reliability.md "Soak"): 100 devices across every app, mixed
# traffic, an exploration, subscribers, clients dropping, a kill -9 and restart at half time; a
# table of requests, p99 latency, RSS, descriptors and state directory bytes each minute.
#
#   scripts/soak.sh [--minutes N] [--bin DIR]
#
#   --minutes N   how long (default 10)
#   --bin DIR     the clarityd to soak (default: a release build of this checkout)
# Exit 1 when an acknowledged write is lost or RSS, descriptors or state bytes grow more than
# 10 % after warm-up. Needs python3 (standard library) and Linux's /proc.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
minutes=10
bin=""
while (($#)); do
    case "$1" in
    --minutes) minutes="$2"; shift 2 ;;
    --bin) bin="$2"; shift 2 ;;
    -h | --help) sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "soak.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
if ! [[ "$minutes" =~ ^[0-9]+(\.[0-9]+)?$ ]] || [[ "$minutes" =~ ^0+(\.0+)?$ ]]; then
    echo "soak.sh: --minutes must be a positive number, got '$minutes'" >&2
    exit 2
fi
if [[ -z "$bin" ]]; then
    if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then export PATH=/opt/swift/usr/bin:$PATH; fi
    (cd "$root" && swift build -c release >/dev/null)
    bin="$(cd "$root" && swift build -c release --show-bin-path)"
fi
exec python3 "$root/scripts/soak.py" "$bin" "$minutes"
