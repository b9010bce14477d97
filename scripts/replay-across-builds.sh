#!/usr/bin/env bash
# A race found by one build replays to the same failure in another (docs/scenarios.md,
# "Schedules, strategies and replay"): explores the shipped race scenario with the first build's
# clarityctl (--standalone: its own clarityd), takes the failure's replay token, and replays it
# with the second build's; also checks that both builds make the same decisions for the
# scenario's own schedule. Exits 1 when they disagree.
#
#   scripts/replay-across-builds.sh FOUND_BIN REPLAY_BIN     (e.g. .build/debug .build/release)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
found="${1:?the bin directory of the build that explores}"
replay="${2:?the bin directory of the build that replays}"
scenario="$root/config/scenarios/clarity-stale-verification.json"
field() { python3 -c "import json,sys; r=json.load(sys.stdin); print(eval(sys.argv[1], {'r': r}))" "$1"; }

explored="$("$found/clarityctl" --json explore "$scenario" --standalone --schedules 1000 || true)"
token="$(printf '%s' "$explored" | field "r['failures'][0]['schedule']")"
invariant="$(printf '%s' "$explored" | field "r['failures'][0]['invariant']")"
echo "found by $found: $invariant, schedule $token"

status=0
replayed="$("$replay/clarityctl" --json replay "$scenario" --standalone --schedule "$token")" || status=$?
again="$(printf '%s' "$replayed" | field "r['failures'][0]['invariant'] if r['failures'] else 'passed'")"
divergence="$(printf '%s' "$replayed" | field "r.get('divergence')")"
echo "replayed by $replay: exit $status, $again, divergence: $divergence"

decisions() { "$1/clarityctl" --json run "$scenario" --standalone | field "r['decisions']"; }
first="$(decisions "$found")"
second="$(decisions "$replay")"
echo "the scenario's own schedule: $first decisions in $found, $second in $replay"

if [[ "$status" != 1 || "$again" != "$invariant" || "$divergence" != "None" || "$first" != "$second" ]]; then
    echo "replay-across-builds: the builds disagree" >&2
    exit 1
fi
echo "replay-across-builds: the same failure, the same decisions"
