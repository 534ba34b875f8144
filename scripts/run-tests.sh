#!/usr/bin/env bash
# What `make test` runs (make exports BUILD: build, build/san, ...): every suite, each once,
# in LANES that run side by side; the suites of one lane run one after another, and every
# suite runs even when an earlier one failed. Each suite's output is printed whole when it ends;
# at the end a table (lane, suite, passed, failed, seconds), then, as the very last line,
# "N passed, M failed" (all suites); exit status 1 if M > 0. docs/testing.md: what runs where,
# how long, why.
#
# ADDING A SUITE is one line in one of the lanes below:
#     suite NAME SECONDS COMMAND [ARGS...]
# COMMAND ARGS get "--summary FILE" appended and must write {"passed": N, "failed": M} there;
# NAME is unique (its output: $BUILD/test-results/NAME.log); SECONDS bounds it (timeout -k 30).
# A GoogleTest binary: `suite NAME S python3 tools/run_gtest.py BINARY`; an e2e run with options
# of its own: `suite NAME S python3 tests/e2e/run.py --server S --build "$BUILD" OPTIONS...`.
# Suites start their own stacks on free ports with their own VAR_DIRs, so lanes never share one.
# Put a new suite at the end of the lane that ends first (the table's seconds tell); the
# machine has 2 cores: a fourth lane of stacks or compilers made the whole run slower, not faster.
set -uo pipefail
cd "$(dirname "$0")/.." || exit

BUILD="${BUILD:-build}"
export BUILD
RESULTS="$BUILD/test-results"
mkdir -p "$RESULTS"
RUN_STARTED=$(date +%s)
# shellcheck source=scripts/test-lanes.sh
source scripts/test-lanes.sh

SANITIZER_REPORTS=""
if [[ "$(basename "$BUILD")" == san* ]]; then
  # Sanitizer errors abort the process with a stack trace. Every suite's processes write their
  # reports under SANITIZER_REPORTS/<suite>/ (log_path, set by suite in scripts/test-lanes.sh),
  # and a report there fails the suite, whichever way it started the worker; the reports are
  # kept under $RESULTS/sanitizer/ at the end.
  SANITIZER_REPORTS="$(mktemp -d /tmp/placard-sanitizer.XXXXXX)"
  chmod 0755 "$SANITIZER_REPORTS"
  export ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1:detect_leaks=1}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
  # SANITIZE=thread (build/san-thread): a race report fails the unit tests (exit code 66) and,
  # scanned from the worker's logs, the e2e run. tests/tsan.supp: uninstrumented libraries only.
  export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0:exitcode=66:second_deadlock_stack=1:suppressions=$PWD/tests/tsan.supp}"
fi

E2E=(python3 tests/e2e/run.py --build "$BUILD")
BROWSER=(node tests/browser/run.mjs --build "$BUILD")
# The browser smoke behind Apache: the server's security headers on the page, sign-in (always
# run), a write through the page, no CSP violation or script error, sign-out.
SMOKE='security headers,select a country,no CSP violation,sign out'

# Lane 1: the unit tests, the whole end-to-end suite behind lighttpd at the root (its answers
# recorded and checked against docs/openapi.yaml), the base path's own checks behind lighttpd,
# the admin page's smoke behind Apache, the example extension in Chromium, then the Debian package
# in fresh Debian roots (the longest suite: it starts when the lane's stacks are done).
lane_1() {
  suite unit 600 python3 tools/run_gtest.py "$BUILD/unit_tests"
  PLACARD_TRAFFIC_LOG="$RESULTS/openapi-traffic.jsonl" suite e2e-lighttpd 1500 "${E2E[@]}" --server lighttpd
  suite openapi 600 bash scripts/check-openapi.sh "$RESULTS/openapi-traffic.jsonl"
  suite e2e-lighttpd-base 600 "${E2E[@]}" --server lighttpd --base-path /offers -k test_base_path
  suite browser-apache 600 "${BROWSER[@]}" --server apache -k "$SMOKE"
  suite extension 600 node tests/extension/run.mjs --build "$BUILD" --server lighttpd
  suite package 3000 python3 tests/package/test_package.py --build "$BUILD"
}

# Lane 2: the whole end-to-end suite again behind Apache, but under the base path /offers with a
# static site at / (what depends on the web server is proven behind both; the contract under a
# base), the worker's other modes (mod_fcgid, CGI; placardctl), the auth limits and database TLS
# on stacks of their own, the admin page in Chromium behind lighttpd, and the short fault and
# load runs (make chaos, make soak), then the bundle on a shared host (Apache, mod_fcgid, suEXEC)
# and two web hosts over MariaDB in network namespaces.
lane_2() {
  suite e2e-apache-base 1500 "${E2E[@]}" --server apache --base-path /offers
  suite e2e-modes 600 python3 tests/e2e/test_worker_modes.py --build "$BUILD"
  suite e2e-auth-limits 600 python3 tests/e2e/test_auth_limits.py --build "$BUILD"
  suite e2e-db-tls 300 python3 tests/e2e/test_db_tls.py --build "$BUILD"
  suite browser-lighttpd 900 "${BROWSER[@]}" --server lighttpd
  suite chaos 300 python3 tests/resilience/chaos.py --short --build "$BUILD" --out "$RESULTS/chaos"
  suite soak 300 python3 tests/resilience/soak.py --seconds 30 --probe 3 --build "$BUILD" --out "$RESULTS/soak"
  suite shared-host 900 python3 tests/shared_hosting/test_shared_host.py --build "$BUILD"
  suite cluster 600 python3 tests/cluster/cluster.py --build "$BUILD" --load-seconds 2
  # The Galera topology (three galera-4 nodes, two web hosts), after the other namespace test
  # (never beside it); lane 3, with the cold clang-tidy run, is the longest lane.
  suite cluster-galera 600 python3 tests/cluster/galera.py --build "$BUILD"
  # make cluster-bench's script with 2 s runs: what it measures is for make bench, but its code
  # must keep working (the harness split once broke it unseen).
  suite cluster-bench 300 python3 tests/cluster/scaling.py --build "$BUILD" --seconds 2
}

# Lane 3: work without stacks: the fuzz targets (their clang build first), the linters, the client
# module's Node tests, the bench report's rules, the bench's bare program, and this machinery's
# own tests (scripts/test-lanes.sh: the table and, under it, what failed).
lane_3() {
  # shellcheck disable=SC2016 # "$@" is the child's: the --summary FILE that suite appends
  suite fuzz 1500 env FUZZ_SECONDS="${FUZZ_TEST_SECONDS:-20}" \
    bash -c 'make -s -j"$(nproc)" fuzz-build && exec bash scripts/fuzz.sh "$@"' fuzz
  suite lint 2400 bash scripts/lint.sh  # under a load of ~20 it took ~40 min; ~4 quiet
  suite client-unit 300 node clients/placard-client/test-support/summary.mjs
  suite bench-report 60 python3 tests/bench/test_report_p99.py
  suite bench-bare 60 python3 tests/bench/test_bare_program.py
  suite bench-wrk 120 python3 tests/bench/test_wrk_step.py
  suite test-lanes 120 python3 tests/tooling/test_test_lanes.py
}

rm -f "$RESULTS/openapi-traffic.jsonl"  # this run's answers only
run_lanes lane_1 lane_2 lane_3
print_table
rc=$?
if [[ -n "$SANITIZER_REPORTS" ]]; then
  rm -rf "$RESULTS/sanitizer"
  cp -R "$SANITIZER_REPORTS" "$RESULTS/sanitizer" 2>/dev/null
  rm -rf "$SANITIZER_REPORTS"
fi
exit $rc
