#!/usr/bin/env bash
# Runs the libFuzzer targets built by `make fuzz-build` (build/fuzz/fuzz_*), each FUZZ_SECONDS
# (default 600), and prints a table: target, seconds, executions, corpus size, result.
# Usage: scripts/fuzz.sh [--summary FILE] [target...]   (targets by name, e.g. router tokens)
#
# Each target starts from a working copy of its seed corpus (tests/fuzz/corpus/<target>/ copied
# into build/fuzz/corpus/<target>/, kept between runs); libFuzzer writes what it finds there and
# crash inputs under build/fuzz/artifacts/<target>/, never into the repository. A target fails
# when libFuzzer stops with an error (crash, sanitizer report, leak, timeout, out of memory) or
# leaves an artifact. --summary writes {"passed": N, "failed": M, "targets": [...]} for
# scripts/run-tests.sh.
set -uo pipefail
cd "$(dirname "$0")/.." || exit

FUZZ_SECONDS="${FUZZ_SECONDS:-600}"
OUT=build/fuzz
summary=""
wanted=()
while (($#)); do
  case "$1" in
    --summary) summary="$2"; shift 2 ;;
    *) wanted+=("$1"); shift ;;
  esac
done

# Reports of the fuzz build's sanitizers go to the log of the run, not to files elsewhere.
export ASAN_OPTIONS="detect_leaks=1:print_stacktrace=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"

targets=()
if ((${#wanted[@]})); then
  targets=("${wanted[@]}")
else
  for bin in "$OUT"/fuzz_*; do
    [[ -x "$bin" ]] && targets+=("${bin#"$OUT"/fuzz_}")
  done
fi
if ((${#targets[@]} == 0)); then
  echo "fuzz: no targets in $OUT (run: make fuzz-build)"
  exit 1
fi

rows=()
passed=0
failed=0
json_rows=()
for t in "${targets[@]}"; do
  bin="$OUT/fuzz_$t"
  work="$OUT/corpus/$t"
  artifacts="$OUT/artifacts/$t"
  log="$OUT/logs/$t.log"
  mkdir -p "$work" "$artifacts" "$OUT/logs"
  rm -f "$artifacts"/*
  if [[ -d "tests/fuzz/corpus/$t" ]]; then
    cp -n "tests/fuzz/corpus/$t"/* "$work"/ 2>/dev/null
  fi
  args=(-max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
        -artifact_prefix="$artifacts/")
  [[ -f "tests/fuzz/$t.dict" ]] && args+=(-dict="tests/fuzz/$t.dict")
  echo "==== fuzz $t (${FUZZ_SECONDS}s)"
  start=$(date +%s)
  if [[ -x "$bin" ]]; then
    timeout -k 10 $((FUZZ_SECONDS + 120)) "$bin" "${args[@]}" "$work" >"$log" 2>&1
    rc=$?
  else
    echo "missing $bin" >"$log"
    rc=127
  fi
  seconds=$(($(date +%s) - start))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  execs="${execs:-0}"
  corpus=$(find "$work" -type f | wc -l)
  crashes=$(find "$artifacts" -type f | wc -l)
  if ((rc == 0 && crashes == 0)); then
    result=pass
    passed=$((passed + 1))
  else
    result="FAIL (exit $rc, $crashes artifact(s), see $log)"
    failed=$((failed + 1))
    grep -m1 -E '^(==[0-9]+==ERROR|SUMMARY|fuzz invariant|.*runtime error)' "$log" | head -3
  fi
  rows+=("$(printf '%-18s %7s %12s %8s  %s' "$t" "$seconds" "$execs" "$corpus" "$result")")
  json_rows+=("{\"target\": \"$t\", \"seconds\": $seconds, \"executions\": $execs, \"corpus\": $corpus, \"passed\": $([[ $result == pass ]] && echo true || echo false)}")
done

echo "==== fuzz results (FUZZ_SECONDS=$FUZZ_SECONDS)"
printf '%-18s %7s %12s %8s  %s\n' target seconds executions corpus result
printf '%s\n' "${rows[@]}"
echo "$passed passed, $failed failed"
if [[ -n "$summary" ]]; then
  mkdir -p "$(dirname "$summary")"
  joined=$(IFS=,; echo "${json_rows[*]}")
  printf '{"passed": %d, "failed": %d, "targets": [%s]}\n' "$passed" "$failed" "$joined" >"$summary"
fi
((failed == 0))
