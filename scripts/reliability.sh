#!/usr/bin/env bash
# Issue 17's reproducers (docs/reliability.md): each probe starts a clarityd of its own, does what
# a hostile user did, and prints one line of figures. Compare two builds in one session:
#
#   scripts/reliability.sh [--bin DIR] [PROBE ...]
#
#   --bin DIR   the clarityd and clarityctl to try (default: a release build of this checkout)
#   PROBE       run only these (1-writes-exploring 2-caller-killed 2-standalone-kill9
#               2-scenario-flood 3-large-values 4-descriptors 5-restart 6-sigterm-exploring
#               7-replay-memory); all by default. A full run takes some 5 minutes.
# Needs python3 (standard library) and Linux's /proc.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin=""
while (($#)); do
    case "$1" in
    --bin) bin="$2"; shift 2 ;;
    -h | --help) sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "reliability.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    *) break ;;
    esac
done
if [[ -z "$bin" ]]; then
    (cd "$root" && swift build -c release >/dev/null)
    bin="$(cd "$root" && swift build -c release --show-bin-path)"
fi
exec python3 "$root/scripts/reliability.py" "$bin" "$@"
