# shellcheck shell=bash
# make bench: the BENCH_* environment, checked, as the harness's variables (sourced).
# shellcheck disable=SC2034 # the variables are read by the other parts

OUT="$REPO/build/bench"
BUILD_DIR="${BUILD:-build}"
[[ "$BUILD_DIR" == /* ]] || BUILD_DIR="$REPO/$BUILD_DIR"

SERVER="${BENCH_SERVER:-lighttpd}"
case "$SERVER" in lighttpd | apache) ;; *) die "BENCH_SERVER must be lighttpd or apache, not '$SERVER'" ;; esac
BENCH_PORT0="${BENCH_PORT:-18300}"
need_uint BENCH_PORT "$BENCH_PORT0" 1024 65532
BENCH_PORT0=$((10#$BENCH_PORT0))
BENCH_DB_PORT0="${BENCH_DB_PORT:-$((BENCH_PORT0 + 1))}"
need_uint BENCH_DB_PORT "$BENCH_DB_PORT0" 1024 65535
OFFERS="${BENCH_OFFERS:-100000}"
need_uint BENCH_OFFERS "$OFFERS" 1 10000000
SMALL_OFFERS="${BENCH_SMALL_OFFERS:-100}"
need_uint BENCH_SMALL_OFFERS "$SMALL_OFFERS" 1 10000000
STEP_SECONDS="${BENCH_SECONDS:-10}"
need_uint BENCH_SECONDS "$STEP_SECONDS" 1 3600
CONNECTIONS="${BENCH_CONNECTIONS:-32}"
need_uint BENCH_CONNECTIONS "$CONNECTIONS" 1 10000
WRK_THREADS="${BENCH_WRK_THREADS:-2}"
need_uint BENCH_WRK_THREADS "$WRK_THREADS" 1 64
((CONNECTIONS >= WRK_THREADS)) || die "BENCH_CONNECTIONS must be at least BENCH_WRK_THREADS"
THREADS="${BENCH_THREADS:-8}"
need_uint BENCH_THREADS "$THREADS" 1 256
FLUSH="${BENCH_FLUSH_AT_COMMIT:-1}"
case "$FLUSH" in 0 | 1 | 2) ;; *) die "BENCH_FLUSH_AT_COMMIT must be 0, 1 or 2" ;; esac
REDO_MB="${BENCH_REDO_MB:-512}"
need_uint BENCH_REDO_MB "$REDO_MB" 64 4096
SYNC_OFFERS="${BENCH_SYNC_OFFERS:-100000}"
need_uint BENCH_SYNC_OFFERS "$SYNC_OFFERS" 1 1000000
SCALE_ROWS="${BENCH_SCALE_ROWS:-8000000}"
need_uint BENCH_SCALE_ROWS "$SCALE_ROWS" 1000 50000000

# The groups of steps: one file each under scripts/bench/steps/, NN-name.sh defining
# group_name, run in the order of NN. A new group is a new file; BENCH_STEPS names groups.
GROUPS_ALL=()
for f in "$REPO"/scripts/bench/steps/[0-9][0-9]-*.sh; do
  g="${f##*/[0-9][0-9]-}"
  GROUPS_ALL+=("${g%.sh}")
done
unset f g
STEPS="${BENCH_STEPS:-$(
  IFS=,
  echo "${GROUPS_ALL[*]}"
)}"
for g in ${STEPS//,/ }; do
  [[ " ${GROUPS_ALL[*]} " == *" $g "* ]] || die "BENCH_STEPS: unknown group '$g' (groups: ${GROUPS_ALL[*]})"
done
[[ -n "${STEPS//,/}" ]] || die "BENCH_STEPS names no group"
want() { [[ ",$STEPS," == *",$1,"* ]]; }

# BENCH_COMPARE=<commit>: that commit, built beside the working tree, measured in the same run.
COMPARE="${BENCH_COMPARE:-}"
[[ -z "$COMPARE" || "$COMPARE" =~ ^[A-Za-z0-9._/^~-]+$ ]] || die "BENCH_COMPARE must be a commit, not '$COMPARE'"

VAR0="${BENCH_VAR_DIR:-$OUT/var}"
VAR0="$(realpath -m -s -- "$VAR0")"
[[ "$VAR0" != "/" && "$VAR0" != "$REPO" ]] || die "BENCH_VAR_DIR must be a directory of its own"

RAW="$OUT/raw"
HARNESS_LOG="$OUT/bench.log"
LUA="$REPO/bench/wrk/step.lua"
BARE="$BUILD_DIR/bench-bare-fcgi"
Q=/api/v1/offers/query
# What a browser extension's fetch() sends anyway; the worker may answer compressed one day.
AE=(-H "Accept-Encoding: gzip, deflate, br")
