# shellcheck shell=bash
# The machinery of scripts/run-tests.sh (sourced there): suites in lanes, lanes side by side, a
# log per suite printed whole when the suite ends, and the table of results at the end.
#
# Files under $RESULTS: NAME.json (the suite's own {"passed": N, "failed": M}), NAME.log (its
# output), NAME.cpu, rows.tsv (lane, order, name, passed, failed, seconds, CPU seconds: one row
# per finished suite).

# suite NAME SECONDS COMMAND [ARGS...]: runs COMMAND ARGS --summary $RESULTS/NAME.json under
# `timeout SECONDS`, output to NAME.log (printed once it ends), and records its row. A missing
# or broken summary, or a non-zero exit with nothing failed, counts one failure.
suite() {
  local name="$1" seconds="$2" rc t0 sp sf reports=""
  shift 2
  local json="$RESULTS/$name.json" log="$RESULTS/$name.log"
  [[ ! -e "$RESULTS/.interrupted" ]] || return 0
  rm -f "$json"
  LANE_ORDER=$((LANE_ORDER + 1))
  say "==== [$LANE] $name: started ($(date -u +%T))"
  t0=$SECONDS
  if [[ -n "${SANITIZER_REPORTS:-}" ]]; then
    reports="$SANITIZER_REPORTS/$name"
    mkdir -p "$reports" && chmod 1777 "$reports"
  fi
  # `times` in the subshell: the CPU seconds of the processes the suite waited for (not those of
  # the daemons its stacks started: MariaDB, the worker, the web server).
  (
    [[ -z "$reports" ]] || reports_to "$reports"
    timeout -k 30 "$seconds" "$@" --summary "$json" </dev/null >"$log" 2>&1
    rc=$?
    times >"$RESULTS/$name.cpu"  # a builtin, in this shell (a pipe would run it in a child)
    awk 'NR == 2 { split($1 " " $2, t, "[ms]"); print int(t[1] * 60 + t[2] + t[3] * 60 + t[4] + 0.5) }' \
      "$RESULTS/$name.cpu" >"$RESULTS/$name.cpu.tmp" && mv "$RESULTS/$name.cpu.tmp" "$RESULTS/$name.cpu"
    exit $rc
  )
  rc=$?
  ((rc != 124)) || echo "suite $name: stopped after $seconds s (timeout)" >>"$log"
  read -r sp sf < <(summary_counts "$json" "$rc")
  if [[ -n "$reports" ]] && sanitizer_found "$reports" >>"$log"; then sf=$((sf + 1)); fi
  printf '%s\t%d\t%s\t%d\t%d\t%d\t%s\n' "$LANE" "$LANE_ORDER" "$name" "$sp" "$sf" $((SECONDS - t0)) \
    "$(cat "$RESULTS/$name.cpu" 2>/dev/null || echo '?')" >>"$RESULTS/rows.tsv"
  {
    printf '==== [%s] %s: %d passed, %d failed, %d s (exit %d)\n' "$LANE" "$name" "$sp" "$sf" \
      $((SECONDS - t0)) "$rc"
    cat "$log"
    printf '==== [%s] %s: end\n' "$LANE" "$name"
  } | say_block
}

# Sanitizer builds: run-tests.sh sets SANITIZER_REPORTS, a directory under /tmp (a worker may run
# as another user, e.g. www-data). Every process of a suite inherits log_path=DIR/<sanitizer> in
# ASAN_OPTIONS, UBSAN_OPTIONS and TSAN_OPTIONS (a harness that sets its own log_path keeps it),
# so a report is found wherever the suite started the worker: its stack, a network namespace, a
# browser test's stack. A report found in DIR after the suite counts one failure for it, its
# first lines in the suite's log. PLACARD_SANITIZER_REPORTS names DIR for a suite whose worker
# the options cannot reach (suEXEC clears the environment): it copies that worker's log there.
# The markers of a report, one fixed string a line (the e2e harness reads the same file).
SANITIZER_MARKERS="$(dirname "${BASH_SOURCE[0]}")/../tests/sanitizer-report-markers.txt"
reports_to() {
  local var name
  for var in ASAN_OPTIONS UBSAN_OPTIONS TSAN_OPTIONS; do
    name="${var%%_*}"
    [[ "${!var:-}" == *log_path=* ]] || export "$var=${!var:+${!var}:}log_path=$1/${name,,}"
  done
  export PLACARD_SANITIZER_REPORTS="$1"
}

# sanitizer_found DIR: for each file under DIR with a sanitizer report, a PROBLEM line naming
# where run-tests.sh keeps it ($RESULTS/sanitizer/) and the report's first lines; status 0 when
# there was one.
sanitizer_found() {
  local file found=1
  while IFS= read -r -d '' file; do
    grep -Fq -f "$SANITIZER_MARKERS" "$file" || continue
    found=0
    printf 'PROBLEM: sanitizer report in %s\n' "$RESULTS/sanitizer/${file#"$SANITIZER_REPORTS"/}"
    grep -F -m 1 -A 40 -f "$SANITIZER_MARKERS" "$file" | cut -c1-400 | sed 's/^/  | /'
  done < <(find "$1" -type f -print0 2>/dev/null | sort -z)
  return $found
}

# summary_counts FILE RC: "passed failed" from a suite's summary (see suite above).
summary_counts() {
  python3 -c '
import json, sys
try:
    d = json.load(open(sys.argv[1])); p, f = int(d["passed"]), int(d["failed"])
except Exception:
    p, f = 0, 1
print(p, f if (f or sys.argv[2] == "0") else 1)' "$1" "$2"
}

# Output of lanes running side by side: one line or one block at a time, never interleaved.
say() { printf '%s\n' "$*" | say_block; }
say_block() { flock "$RESULTS/.print.lock" cat; }

# run_lanes FUNCTION...: each lane function in the background (its suites one after another,
# whatever they report); returns when every lane has ended.
run_lanes() {
  local fn pids=()
  : >"$RESULTS/rows.tsv"
  rm -f "$RESULTS/.interrupted"
  for fn in "$@"; do
    (LANE="${fn#lane_}" LANE_ORDER=0 "$fn") &
    pids+=($!)
  done
  # Background jobs of a script ignore SIGINT: on Ctrl-C or TERM, each running suite's `timeout`
  # gets TERM and passes it on (the suites stop their stacks); the lanes end, the table follows.
  trap 'INTERRUPTED=1; stop_suites' INT TERM
  while ! wait "${pids[@]}"; do
    ((INTERRUPTED)) || break
    jobs -r | grep -q . || break
  done
  trap - INT TERM
}
INTERRUPTED=0

stop_suites() {
  local pid
  : >"$RESULTS/.interrupted"  # no suite starts after this
  for pid in $(descendants $$); do
    [[ "$(cat "/proc/$pid/comm" 2>/dev/null)" != timeout ]] || kill -TERM "$pid" 2>/dev/null
  done
}
descendants() {
  local child
  for child in $(pgrep -P "$1"); do
    echo "$child"
    descendants "$child"
  done
}

# rows_in_order: the finished suites' rows, by lane, then in the order they ran in it.
rows_in_order() { sort -t$'\t' -k1,1 -k2,2n "$RESULTS/rows.tsv"; }

# print_table: the table of suites (lane order), then the totals; the very last line is
# "N passed, M failed". Returns 1 when anything failed.
print_table() {
  local lane name p f s cpu total_p=0 total_f=0
  echo "==== results (lanes ran side by side; $(($(date +%s) - RUN_STARTED)) s in all)"
  printf '%-6s %-22s %7s %7s %8s %8s\n' lane suite passed failed seconds "cpu s"
  while IFS=$'\t' read -r lane _ name p f s cpu; do
    printf '%-6s %-22s %7d %7d %8d %8s\n' "$lane" "$name" "$p" "$f" "$s" "$cpu"
    total_p=$((total_p + p))
    total_f=$((total_f + f))
  done < <(rows_in_order)
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
  print_failures
  if ((INTERRUPTED)); then
    echo "interrupted: the suites that had not ended count one failure each, those not started none"
  fi
  echo "$total_p passed, $total_f failed"
  ((total_f == 0 && !INTERRUPTED))
}

# print_failures: under the table, for each suite that failed, the first lines of its log that
# name a failure (at most FAILURE_LINES, each cut at 400 characters), or its last line when none
# does: CI keeps only the tail of a run, and the tail must say what failed, not only where.
# Every runner's own word for a failed test: GoogleTest's "[  FAILED  ]", unittest's "FAIL:" and
# "ERROR:", the checks' "FAIL group / name: detail", TAP's "not ok", lint's "found problems",
# the e2e run's "PROBLEM:", and suite's own timeout line.
FAILURE_LINE='\bFAIL(ED)?\b|^ERROR: |PROBLEM: |found problems|^not ok |\(timeout\)$'
FAILURE_LINES=4
print_failures() {
  local name f log
  while IFS=$'\t' read -r _ _ name _ f _; do
    ((f > 0)) || continue
    log="$RESULTS/$name.log"
    echo "failed in $name:"
    { grep -E -m "$FAILURE_LINES" "$FAILURE_LINE" "$log" || tail -n 1 "$log"; } 2>/dev/null |
      cut -c1-400 | sed 's/^/  /'
  done < <(rows_in_order)
}
