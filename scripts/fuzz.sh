#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer, with AddressSanitizer) of the daemon's parsers:
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET ...]
# SECONDS_PER_TARGET defaults to 60; TARGETs default to all seven (Fuzz/Package.swift):
# fuzz-line-framing, fuzz-json, fuzz-request, fuzz-scenario, fuzz-snapshot, fuzz-backend,
# fuzz-journal.
# Each target starts from its seed corpus in Fuzz/Corpus/<target> (copied: the repository's
# corpus is not changed), with Fuzz/numbers.dict's edge numbers among its mutations, and keeps
# what it grows in .build/fuzz/<target>/corpus. A crash, a
# leak, a timeout (10 s an input) or an out-of-memory input is written to
# .build/fuzz/<target>/artifacts/ and fails the run, printing the command that reproduces it.
# Prints one line per target: executions, coverage (edges, features), corpus and speed. The
# targets run side by side, one per core (FUZZ_JOBS=N to change).
# docs/fuzzing.md, "Coverage-guided".
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
  export PATH=/opt/swift/usr/bin:$PATH
fi
seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz.sh: SECONDS_PER_TARGET must be a positive whole number, got '$seconds'" >&2
  exit 2
fi
shift || true
all=(fuzz-line-framing fuzz-json fuzz-request fuzz-scenario fuzz-snapshot fuzz-backend fuzz-journal)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")
for target in "${targets[@]}"; do
  if [[ ! " ${all[*]} " == *" $target "* ]]; then
    echo "fuzz.sh: unknown target '$target' (one of: ${all[*]})" >&2
    exit 2
  fi
done

echo "building the fuzz targets (release, -sanitize=fuzzer,address)…"
# swiftc keeps only the last -sanitize= it is given, and SwiftPM passed `--sanitize=fuzzer
# --sanitize=address` in an order that changed from build to build: some builds had no coverage
# (libFuzzer ran blind, "ok"), the others no AddressSanitizer. `--sanitize=fuzzer` makes SwiftPM
# build the targets as libFuzzer wants (no main of their own); the -sanitize naming both comes
# last, so it is the one swiftc keeps. Each run below is checked for both.
# --disable-build-manifest-caching: the targets build clarityd's modules as a dependency, and
# SwiftPM's cached build plan kept that dependency's old file list: a source file added to
# clarityd since the last fuzz build was left out ("cannot find 'MonitorCallbackQueue' in scope")
# until Fuzz/.build was deleted. Planning again costs a second.
build=(swift build --package-path Fuzz -c release --disable-build-manifest-caching --sanitize=fuzzer
  -Xswiftc -sanitize=fuzzer,address)
mkdir -p .build
if ! "${build[@]}" >.build/fuzz-build.log 2>&1; then
  grep -E "error:" -A 3 .build/fuzz-build.log | head -n 40 >&2
  echo "fuzz.sh: the fuzz targets did not build (.build/fuzz-build.log)" >&2
  exit 1
fi
tail -n 1 .build/fuzz-build.log
bin="$("${build[@]}" --show-bin-path)"

# Targets run side by side, one per core (FUZZ_JOBS overrides): 60 s each on two cores is
# three and a half minutes, not seven.
jobs="${FUZZ_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}"
run_target() {
  local target="$1" work=".build/fuzz/$1"
  mkdir -p "$work/corpus" "$work/artifacts"
  cp -n Fuzz/Corpus/"$target"/* "$work/corpus/" 2>/dev/null || true
  local status=0
  # Swift's own backtracer, reading memory after a trap, is itself reported by AddressSanitizer
  # (a use-after-free in CrashHandlerLinux.cpp) instead of the trap; libFuzzer's report names it.
  SWIFT_BACKTRACE=enable=no "$bin/$target" "$work/corpus" -dict=Fuzz/numbers.dict -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix="$work/artifacts/" -print_final_stats=1 >"$work/last-run.log" 2>&1 || status=$?
  echo "$status" >"$work/last-run.status"
}
running=0
for target in "${targets[@]}"; do
  run_target "$target" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait

failed=0
printf '%-18s %10s %8s %8s %10s %8s  %s\n' target executions edges features corpus exec/s result
for target in "${targets[@]}"; do
  work=".build/fuzz/$target"
  log="$work/last-run.log"
  status="$(cat "$work/last-run.status")"
  done_line="$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 || true)"
  [ -z "$done_line" ] && done_line="$(grep -E '^#[0-9]+[[:space:]]' "$log" | tail -n 1 || true)"
  executions="$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$done_line")"
  edges="$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$done_line")"
  features="$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$done_line")"
  corpus="$(sed -nE 's/.* corp: ([0-9]+\/[0-9]+[a-zA-Z]*).*/\1/p' <<<"$done_line")"
  speed="$(sed -nE 's/.* exec\/s: ([0-9]+).*/\1/p' <<<"$done_line")"
  if ! grep -q "inline 8-bit counters" "$log"; then
    failed=1
    result="FAILED: $target is not instrumented for coverage (libFuzzer ran blind); log: $log"
  elif ! grep -q "__asan_report_store" < <(nm "$bin/$target" 2>/dev/null); then
    failed=1
    result="FAILED: $target was built without AddressSanitizer"
  elif [ "$status" -eq 0 ]; then
    result=ok
  else
    failed=1
    artifact="$(ls -t "$work/artifacts" 2>/dev/null | head -n 1)"
    result="FAILED (status $status): $work/artifacts/$artifact — reproduce: $bin/$target $work/artifacts/$artifact; log: $log"
  fi
  printf '%-18s %10s %8s %8s %10s %8s  %s\n' "$target" "${executions:--}" "${edges:--}" "${features:--}" "${corpus:--}" \
    "${speed:--}" "$result"
done

# A finding on a CI machine is read from this output alone (its artifacts stay there): for each,
# the trap or sanitizer report, the frames in this project's sources, and the input itself.
for target in "${targets[@]}"; do
  work=".build/fuzz/$target"
  [ "$(cat "$work/last-run.status")" -eq 0 ] && continue
  artifact="$(ls -t "$work/artifacts" 2>/dev/null | head -n 1)"
  [ -z "$artifact" ] && continue
  echo
  echo "== $target: $artifact"
  grep -m 3 -E 'runtime failure|Fatal error|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)' "$work/last-run.log" || true
  grep -E '/(Sources|Fuzz/Sources)/' "$work/last-run.log" | grep -v -E 'fuzzer::|LLVMFuzzer' | head -n 8 || true
  size="$(wc -c <"$work/artifacts/$artifact")"
  if [ "$size" -le 16384 ]; then
    echo "the input ($size bytes), to run it again:"
    echo "  echo '$(base64 -w0 "$work/artifacts/$artifact")' | base64 -d > input && $bin/$target input"
  else
    echo "the input is $size bytes: $work/artifacts/$artifact"
  fi
done
exit "$failed"
