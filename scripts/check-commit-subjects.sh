#!/usr/bin/env bash
# Every commit subject since the rule was set (issue 39, after df8e9d2) is at most 72 characters,
# so `git log --oneline` stays readable: figures and reasons go in the body. Run by .ci/run.
# Usage: scripts/check-commit-subjects.sh [BASE]   (BASE: the last commit before the rule)
set -euo pipefail
cd "$(dirname "$0")/.."
base="${1:-df8e9d2}"
if ! git rev-parse --quiet --verify "$base^{commit}" >/dev/null; then
  echo "check-commit-subjects: $base is not in this clone (shallow?): nothing checked" >&2
  exit 0
fi
long="$(git log --format='%h %s' "$base..HEAD" | awk '{ subject = substr($0, index($0, " ") + 1); if (length(subject) > 72) print length(subject) " characters: " $0 }')"
if [ -n "$long" ]; then
  echo "check-commit-subjects: subjects over 72 characters (put the detail in the body):" >&2
  echo "$long" >&2
  exit 1
fi
echo "check-commit-subjects: $(git rev-list --count "$base..HEAD") commits since $base, every subject ≤ 72 characters"
