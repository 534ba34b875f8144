#!/usr/bin/env bash
# `make bench`: Placard's performance harness. Starts a private stack (MariaDB, placard.fcgi,
# lighttpd or Apache) in its own state directory, loads a generated catalog, measures every
# public endpoint with wrk on 127.0.0.1 against baselines of the same run, all through the same
# web server: a 1 KiB static file, the bare libfcgi program (bench/bare/: the physical limit of a
# FastCGI answer, and the denominator of every ratio), `placard.fcgi --bench-echo` (our pool,
# no handler) and, for the event steps, the bare program with --journal (each POST's body
# fdatasync'd before its answer: the durable baseline, reported beside them). Writes
# build/bench/report.md and report.svg, prints the tables and the verdicts, and stops everything
# it started.
#
# It is not a test: it exits 0 when targets are missed, non-zero only when the harness broke.
# Method and how to read the report: docs/performance.md. The parts live in scripts/bench/:
# settings.sh (the environment), sides.sh (the stacks under test), prepare.sh (starting them),
# catalog.sh, measure.sh (one step), compare.sh (BENCH_COMPARE), steps/NN-group.sh (the steps).
#
# Environment (all optional):
#   BENCH_SERVER      lighttpd (default) | apache (mod_proxy_fcgi)
#   BENCH_PORT        HTTP port on 127.0.0.1 (18300); MariaDB gets BENCH_DB_PORT (BENCH_PORT+1);
#                     with BENCH_COMPARE the other commit's stack gets BENCH_PORT+2 and +3
#   BENCH_OFFERS      offers in the big catalog (100000); BENCH_SMALL_OFFERS (100) for the small one
#   BENCH_SECONDS     seconds per measured step (10)
#   BENCH_CONNECTIONS wrk connections (32); BENCH_WRK_THREADS wrk threads (2)
#   BENCH_THREADS     the worker's `threads` and the threads of the bare and echo baselines (8;
#                     the durable baseline runs max(BENCH_THREADS, BENCH_CONNECTIONS))
#   BENCH_FLUSH_AT_COMMIT  innodb_flush_log_at_trx_commit during the run: 1 (default, every
#                     commit is on disk before `recorded` is answered) or 2 (the dev stack's)
#   BENCH_REDO_MB     MariaDB's redo log (innodb_log_file_size) during the run, MiB (512)
#   BENCH_VAR_DIR     state directory (build/bench/var; wiped at the start of every run)
#   BENCH_KEEP=1      leave the stack running at the end (stop: VAR_DIR=... scripts/stack.sh stop;
#                     kill $(cat <dir>/run/bench-*.pid), the echo worker and the bare programs)
#   BENCH_STEPS       which groups of steps run, comma-separated (default: every file under
#                     scripts/bench/steps/, today query,events,stats,sync,registration,footprint,
#                     scale; the baselines always run)
#   BENCH_COMPARE     a commit: built beside the working tree (build/compare/<sha>) and measured
#                     in the same run, step by step alternating, with the ratio of each step
#   BENCH_SYNC_OFFERS offers of the stand-in network in the sync group (100000)
#   BENCH_SCALE_ROWS  rows of history in `impressions` for the scale group (8000000: past the
#                     stack's 256 MiB buffer pool)
set -Eeuo pipefail
umask 022

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
readonly REPO
cd "$REPO"

for part in common settings sides prepare catalog measure compare; do
  # shellcheck source=/dev/null
  source "$REPO/scripts/bench/$part.sh"
done
for part in "$REPO"/scripts/bench/steps/[0-9][0-9]-*.sh; do
  # shellcheck source=/dev/null
  source "$part"
done

trap 'on_error $? $LINENO "$BASH_COMMAND"' ERR
trap cleanup EXIT
trap 'trap - ERR; printf "\nbench: interrupted\n" >&2; exit 130' INT TERM HUP

preflight
prepare_compare
use_side 0
describe_run
for_sides fresh_state
for_sides start_side
for_sides load_base

# The baselines: the static file and the bare program on the working tree's web server; the
# echo worker (our pool, no handler) on every side.
use_side 0
step warmup-bare "warm-up" /bench/bare plain "" ""
step static "1 KiB static file (baseline)" /bench/static-1k.txt plain "" ""
step bare "bare libfcgi program, 1 KiB (baseline)" /bench/bare plain "" ""
# shellcheck disable=SC2034 # read by the events group (tokens enough for a step this fast)
BARE_RPS="$(json_field "$LAST_JSON" 'int(d["requests"] * 1e6 / d["duration_us"])')"
measure echo "our pool, no handler (placard.fcgi --bench-echo), 1 KiB" /bench/echo plain "" ""

for group in "${GROUPS_ALL[@]}"; do
  if want "$group"; then "group_$group"; fi
done

if want events; then durable_baseline; fi
use_side 0
step bare-end "bare libfcgi program again, at the end" /bench/bare plain "" ""
measure echo-end "our pool, no handler, again at the end" /bench/echo plain "" ""
if ((BIG_LOADED)); then rebuild_again; fi
meta load_end "$(cut -d' ' -f1-3 /proc/loadavg)"
meta duration_s "$((SECONDS - BENCH_START))"

cleanup
trap - ERR
python3 "$REPO/bench/report.py" --results "$OUT/results.tsv" --meta "$OUT/meta.txt" --out "$OUT" \
  ${COMPARE:+--compare "$OUT/compare.tsv" --compare-label "$COMPARE"} || die "bench/report.py failed"
