#!/usr/bin/env bash
# `make bench`: Placard's performance harness. Starts a private stack (MariaDB, placard.fcgi,
# lighttpd or Apache) in its own state directory, loads a generated catalog, measures every
# public endpoint with wrk on 127.0.0.1 against two baselines of the same run (a 1 KiB static
# file and the bare FastCGI answer of `placard.fcgi --bench-echo`, both through the same web
# server), writes build/bench/report.md and build/bench/report.svg, prints the table and the
# verdicts against the targets of issue 6, and stops everything it started.
#
# It is not a test: it exits 0 when targets are missed, non-zero only when the harness broke.
# Method and how to read the report: docs/performance.md.
#
# Environment (all optional):
#   BENCH_SERVER      lighttpd (default) | apache (mod_proxy_fcgi)
#   BENCH_PORT        HTTP port on 127.0.0.1 (18300); MariaDB gets BENCH_DB_PORT (BENCH_PORT+1)
#   BENCH_OFFERS      offers in the big catalog (100000); BENCH_SMALL_OFFERS (100) for the small one
#   BENCH_SECONDS     seconds per measured step (10)
#   BENCH_CONNECTIONS wrk connections (32); BENCH_WRK_THREADS wrk threads (2)
#   BENCH_THREADS     request threads of the worker and of the bare FastCGI baseline (8)
#   BENCH_FLUSH_AT_COMMIT  innodb_flush_log_at_trx_commit during the run: 1 (default, every
#                     commit is on disk before `recorded` is answered) or 2 (the dev stack's)
#   BENCH_VAR_DIR     state directory (build/bench/var; wiped at the start of every run)
#   BENCH_KEEP=1      leave the stack running at the end (stop: VAR_DIR=... scripts/stack.sh stop)
#   BENCH_STEPS       which groups of steps run, comma-separated (default query,events,stats,sync;
#                     the bare baselines always run): query (config, categories, offers queries),
#                     events (impressions, clicks), stats (GET /admin/api/v1/stats over 366 days
#                     of rollups for 100,000 offers; bench/stats_bench.py), sync (a network sync
#                     of BENCH_SYNC_OFFERS (100000) offers from the stand-in network while the
#                     offers query is under load; bench/sync_bench.py), registration (32
#                     clients register and sign in as fast as they can while wrk measures
#                     GET /api/v1/config; bench/registration_flood.py, issue 22)
# The footprint step always runs at the end: a new one-thread worker's exec-to-first-answer time
# and VmRSS after it and after 20 sign-ins (bench/worker_footprint.py; issue 21).
set -Eeuo pipefail
umask 022

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
readonly REPO
cd "$REPO"

say() { printf 'bench: %s\n' "$*"; }
die() {
  printf 'bench: error: %s\n' "$*" >&2
  exit 1
}

is_uint() { [[ "$1" =~ ^[0-9]+$ ]]; }
need_uint() { # NAME VALUE MIN MAX
  is_uint "$2" && ((10#$2 >= $3 && 10#$2 <= $4)) || die "$1 must be an integer $3..$4, not '$2'"
}

# ---- Settings ------------------------------------------------------------------------------

OUT="$REPO/build/bench"
BUILD_DIR="${BUILD:-build}"
[[ "$BUILD_DIR" == /* ]] || BUILD_DIR="$REPO/$BUILD_DIR"
FCGI="$BUILD_DIR/placard.fcgi"
CTL="$BUILD_DIR/placardctl"

SERVER="${BENCH_SERVER:-lighttpd}"
case "$SERVER" in lighttpd | apache) ;; *) die "BENCH_SERVER must be lighttpd or apache, not '$SERVER'" ;; esac
PORT="${BENCH_PORT:-18300}"
need_uint BENCH_PORT "$PORT" 1024 65534
PORT=$((10#$PORT))
DB_PORT="${BENCH_DB_PORT:-$((PORT + 1))}"
need_uint BENCH_DB_PORT "$DB_PORT" 1024 65535
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
STEPS="${BENCH_STEPS:-query,events,stats,sync,registration}"
[[ "$STEPS" =~ ^(query|events|stats|sync|registration)(,(query|events|stats|sync|registration))*$ ]] ||
  die "BENCH_STEPS must be a comma-separated list of query, events, stats, sync, registration"
SYNC_OFFERS="${BENCH_SYNC_OFFERS:-100000}"
need_uint BENCH_SYNC_OFFERS "$SYNC_OFFERS" 1 1000000
want() { [[ ",$STEPS," == *",$1,"* ]]; }
case "$FLUSH" in 0 | 1 | 2) ;; *) die "BENCH_FLUSH_AT_COMMIT must be 0, 1 or 2" ;; esac
VAR="${BENCH_VAR_DIR:-$OUT/var}"
VAR="$(realpath -m -s -- "$VAR")"
[[ "$VAR" != "/" && "$VAR" != "$REPO" ]] || die "BENCH_VAR_DIR must be a directory of its own"

RAW="$OUT/raw"
DATA="$OUT/data"
RESULTS="$OUT/results.tsv"
META="$OUT/meta.txt"
HARNESS_LOG="$OUT/bench.log"
LUA="$REPO/bench/wrk/step.lua"
BASE_URL="http://127.0.0.1:$PORT"
MARK="$VAR/.placard-bench"
ECHO_SOCK="$VAR/run/bench-echo.sock"
ECHO_PID="$VAR/run/bench-echo.pid"
WORKER_PID="$VAR/run/placard.pid"
PLACARD_LOG="$VAR/log/placard.log"
MYCNF="$VAR/my.cnf"

# WORKERS=0: one worker process, no supervisor, so that the pid file names the process whose
# CPU time and memory the report shows (the stack's default is one supervised process).
stack() {
  env -u PLACARD_LISTEN -u PLACARD_THREADS -u PLACARD_CONFIG WORKERS=0 \
    VAR_DIR="$VAR" PORT="$PORT" DB_PORT="$DB_PORT" SERVER="$SERVER" THREADS="$THREADS" \
    BUILD="$BUILD_DIR" DEMO_DATA=0 BENCH_ECHO_SOCKET="$ECHO_SOCK" \
    bash "$REPO/scripts/stack.sh" "$@"
}

db() { mariadb --defaults-file="$MYCNF" -u root --batch --skip-column-names placard "$@"; }

# After a catalog change made directly in the database: the one way to bump the catalog version.
catalog_bump() {
  "$CTL" --config "$VAR/placard.conf" catalog bump >>"$HARNESS_LOG" 2>&1 ||
    die "placardctl catalog bump failed; see $HARNESS_LOG"
}

# ---- Processes we started: the stack (by stack.sh) and the bare FastCGI baseline -------------

read_pid() {
  local pid=""
  [[ -r "$1" ]] && read -r pid <"$1" || true
  if is_uint "$pid" && ((pid > 1)); then printf '%s' "$pid"; fi
}

alive() { # PID COMM
  [[ -n "$1" && -r "/proc/$1/comm" ]] && [[ "$(cat "/proc/$1/comm" 2>/dev/null)" == "$2" ]] &&
    ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null
}

stop_echo() {
  local pid
  pid="$(read_pid "$ECHO_PID")"
  if alive "$pid" placard.fcgi; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 100); do alive "$pid" placard.fcgi || break; sleep 0.1; done
    if alive "$pid" placard.fcgi; then kill -KILL "$pid" 2>/dev/null || true; fi
  fi
  rm -f -- "$ECHO_PID" "$ECHO_SOCK"
}

STACK_STARTED=0
CLEANED=0
cleanup() {
  ((CLEANED)) && return 0
  CLEANED=1
  if [[ "${BENCH_KEEP:-0}" == 1 && $STACK_STARTED == 1 ]]; then
    say "BENCH_KEEP=1: the stack still runs under $VAR (stop: VAR_DIR=$VAR PORT=$PORT scripts/stack.sh stop)"
    return 0
  fi
  if [[ -d "$VAR/run" ]]; then
    stack stop >>"$HARNESS_LOG" 2>&1 || printf 'bench: warning: stack.sh stop failed (see %s)\n' "$HARNESS_LOG" >&2
    stop_echo
  fi
}

on_error() {
  local status="$1" line="$2" cmd="$3"
  trap - ERR
  printf 'bench: error: harness failure (status %s) at line %s: %s\n' "$status" "$line" "$cmd" >&2
  for f in "$HARNESS_LOG" "$PLACARD_LOG" "$VAR/log/placard.out" "$VAR/log/bench-echo.out"; do
    if [[ -s "$f" ]]; then
      printf '  --- last lines of %s ---\n' "$f" >&2
      tail -n 15 -- "$f" | sed 's/^/  | /' >&2
    fi
  done
  exit 1
}
trap 'on_error $? $LINENO "$BASH_COMMAND"' ERR
trap cleanup EXIT
trap 'trap - ERR; printf "\nbench: interrupted\n" >&2; exit 130' INT TERM HUP

# ---- Preflight -----------------------------------------------------------------------------

for tool in wrk mariadb python3 curl; do
  command -v "$tool" >/dev/null || die "$tool is missing (Debian: apt-get install wrk mariadb-client python3 curl)"
done
[[ -x "$FCGI" ]] || die "$FCGI is missing; run: make"
[[ -x "$CTL" ]] || die "$CTL is missing; run: make"
mkdir -p -- "$OUT"
: >"$HARNESS_LOG"

# A fresh state directory every run, but only ever wipe one this harness made.
if [[ -e "$VAR" ]]; then
  if [[ ! -e "$MARK" ]] && [[ -n "$(ls -A -- "$VAR" 2>/dev/null)" ]]; then
    die "$VAR exists and was not made by make bench; remove it or choose another BENCH_VAR_DIR"
  fi
  if [[ -d "$VAR/run" ]]; then
    stack stop >>"$HARNESS_LOG" 2>&1 || true
    stop_echo
  fi
  rm -rf -- "$VAR"
fi
rm -rf -- "$RAW" "$DATA"
rm -f -- "$RESULTS" "$META" "$OUT/report.md" "$OUT/report.svg" "$OUT/report.json"
mkdir -p -- "$VAR/run" "$VAR/log" "$VAR/www/bench" "$RAW" "$DATA"
chmod 0755 -- "$VAR" "$VAR/run" "$VAR/log" "$VAR/www" "$VAR/www/bench"
touch -- "$MARK"

port_busy() { timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }
for p in "$PORT" "$DB_PORT"; do
  ! port_busy "$p" || die "127.0.0.1:$p is in use; choose another BENCH_PORT (18300-18399 on shared machines)"
done

# Apache's children (www-data) must reach VAR_DIR.
if [[ "$SERVER" == apache && "$(id -u)" -eq 0 ]]; then
  runuser -u www-data -- test -x "$VAR/run" ||
    die "www-data cannot reach $VAR (a parent directory is not 0755); set BENCH_VAR_DIR=/tmp/placard-bench-$PORT"
fi

meta() { printf '%s=%s\n' "$1" "$2" >>"$META"; }

BENCH_START=$SECONDS
meta started "$(date -u +%FT%TZ)"
cmdline="${MAKELEVEL:+make bench (}bash scripts/bench.sh${MAKELEVEL:+)}"
meta command "$cmdline"
meta env "$({ env | grep -E '^BENCH_' || true; } | sort | tr '\n' ' ' | sed 's/ $//')"
meta server "$SERVER"
meta port "$PORT"
meta worker_threads "$THREADS"
meta wrk "-t$WRK_THREADS -c$CONNECTIONS -d${STEP_SECONDS}s --timeout 5s --latency"
meta step_seconds "$STEP_SECONDS"
meta flush_at_commit "$FLUSH"
meta offers_small "$SMALL_OFFERS"
meta offers_big "$OFFERS"
meta nproc "$(nproc)"
meta kernel "$(uname -r)"
meta cpu "$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n 1)"
meta memory "$(awk '/^MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
meta os "$(. /etc/os-release && printf '%s' "$PRETTY_NAME")"
meta v_lighttpd "$(lighttpd -v 2>/dev/null | head -n 1 || true)"
meta v_apache "$(apache2 -v 2>/dev/null | sed -n 's/^Server version: //p' || true)"
meta v_mariadb "$(mariadbd --version 2>/dev/null | head -n 1 || true)"
meta v_wrk "$(wrk -v 2>&1 | head -n 1 | sed 's/ Copyright.*//' || true)"
meta v_placard "$(git -C "$REPO" describe --always --dirty 2>/dev/null || echo unknown)"
meta load_start "$(cut -d' ' -f1-3 /proc/loadavg)"

# ---- Stack ---------------------------------------------------------------------------------

# The bare FastCGI baseline: the same binary, adapter and thread count, a constant 1 KiB answer,
# on its own unix socket; stack.sh maps /bench/echo to it (BENCH_ECHO_SOCKET).
say "starting the bare FastCGI baseline ($THREADS threads) on $ECHO_SOCK"
# Its socket, like the worker's, is mode 0660 with the web server's group.
ECHO_GROUP="$(id -gn)"
if [[ "$SERVER" == apache && "$(id -u)" -eq 0 ]]; then ECHO_GROUP=www-data; fi
env -u PLACARD_LISTEN -u PLACARD_THREADS -u PLACARD_CONFIG PLACARD_LOG_FILE="$VAR/log/bench-echo.log" \
  setsid "$FCGI" --bench-echo --listen "unix:$ECHO_SOCK" --threads "$THREADS" \
  --socket-group "$ECHO_GROUP" \
  </dev/null >>"$VAR/log/bench-echo.out" 2>&1 &
echo $! >"$ECHO_PID"
disown $! 2>/dev/null || true
for _ in $(seq 100); do [[ -S "$ECHO_SOCK" ]] && break; sleep 0.1; done
[[ -S "$ECHO_SOCK" ]] || die "placard.fcgi --bench-echo did not create $ECHO_SOCK"

# The 1 KiB static file, served from the web server's document root.
python3 -c 'import sys; sys.stdout.write(("placard bench static file " * 60)[:1023] + "\n")' \
  >"$VAR/www/bench/static-1k.txt"
chmod 0644 -- "$VAR/www/bench/static-1k.txt"

say "starting the stack: $SERVER on 127.0.0.1:$PORT, MariaDB on 127.0.0.1:$DB_PORT, $THREADS worker threads ($VAR)"
STACK_STARTED=1
stack start >>"$HARNESS_LOG" 2>&1 || die "scripts/stack.sh start failed; see $HARNESS_LOG"
# The *-clients event steps send X-Forwarded-For from wrk on 127.0.0.1: trust it as a proxy
# (steps without the header still come from the one client 127.0.0.1). Read at start: restart.
sed -i 's/^trusted_proxies *=.*/trusted_proxies = 127.0.0.1/' "$VAR/placard.conf"
grep -q '^trusted_proxies = 127.0.0.1$' "$VAR/placard.conf" || die "could not set trusted_proxies in $VAR/placard.conf"
stack stop >>"$HARNESS_LOG" 2>&1 || die "scripts/stack.sh stop failed; see $HARNESS_LOG"
stack start >>"$HARNESS_LOG" 2>&1 || die "scripts/stack.sh start failed; see $HARNESS_LOG"
db -e "SET GLOBAL innodb_flush_log_at_trx_commit = $FLUSH"

for path in /bench/static-1k.txt /bench/echo; do
  code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$BASE_URL$path" || true)"
  [[ "$code" == 200 ]] || die "GET $path answered $code, not 200 (is /bench/echo mapped? scripts/stack.sh with BENCH_ECHO_SOCKET)"
done

# ---- Catalog -------------------------------------------------------------------------------

catalog_version() { db -e "SELECT version FROM catalog_version WHERE id = 1"; }

# wait_snapshot VERSION: waits for the worker's log line about that version; sets LIVE, BUILD_MS.
wait_snapshot() {
  local version="$1" line="" deadline=$((SECONDS + 300))
  while :; do
    line="$(grep -a "catalog: snapshot version $version with " "$PLACARD_LOG" | tail -n 1 || true)"
    [[ -z "$line" ]] || break
    ((SECONDS < deadline)) || die "the worker did not build catalog version $version within 300 s"
    sleep 0.05
  done
  LIVE="$(sed -n 's/.* with \([0-9]*\) live offers.*/\1/p' <<<"$line")"
  BUILD_MS="$(sed -n 's/.* built in \([0-9]*\) ms.*/\1/p' <<<"$line")"
}

worker_status() { # FIELD (VmRSS, VmHWM): kB
  local pid
  pid="$(read_pid "$WORKER_PID")"
  alive "$pid" placard.fcgi || die "placard.fcgi (pid ${pid:-?}) is not running"
  awk -v f="$1:" '$1 == f {print $2}' "/proc/$pid/status"
}

# load_offers LABEL N: replaces the offers, waits for the rebuilt snapshot, records its figures.
load_offers() {
  local label="$1" n="$2" t0 version
  say "loading $n offers"
  t0=$(date +%s%N)
  python3 "$REPO/bench/gen_catalog.py" offers "$n" | db
  catalog_bump
  meta "catalog_${label}_load_ms" "$((($(date +%s%N) - t0) / 1000000))"
  version="$(catalog_version)"
  wait_snapshot "$version"
  sleep 0.5 # let the old snapshot go
  meta "catalog_${label}_offers" "$n"
  meta "catalog_${label}_live" "$LIVE"
  meta "catalog_${label}_rebuild_ms" "$BUILD_MS"
  meta "catalog_${label}_rss_kb" "$(worker_status VmRSS)"
  say "  snapshot version $version: $LIVE live offers, built in $BUILD_MS ms; worker VmRSS $(worker_status VmRSS) kB"
}

python3 "$REPO/bench/gen_catalog.py" base | db
catalog_bump
wait_snapshot "$(catalog_version)"
python3 "$REPO/bench/gen_query_mix.py" --lines 2000 >"$DATA/query-mix.txt"
python3 "$REPO/bench/gen_query_mix.py" --lines 2000 --scale >"$DATA/query-scale.txt"

# ---- Measuring -----------------------------------------------------------------------------

# CPU time (clock ticks) used by the parts of the stack, sampled around every step, so that the
# report can show CPU microseconds per request for each part and how busy the machine was with
# other work (the machine is shared: other people's compilers and tests steal cores).
CLK_TCK="$(getconf CLK_TCK)"
proc_ticks() { # [+]PID...: utime+stime; a "+" before the PID adds its waited-for children too
  local total=0 p f with_children
  local -a a
  for p in "$@"; do
    with_children=0
    if [[ "$p" == +* ]]; then with_children=1; p="${p#+}"; fi
    [[ -n "$p" ]] || continue
    f="$(cat "/proc/$p/stat" 2>/dev/null)" || continue
    read -r -a a <<<"${f##*) }" # a[0] is field 3 (state): utime = a[11], stime a[12], cutime a[13], cstime a[14]
    total=$((total + a[11] + a[12]))
    if ((with_children)); then total=$((total + a[13] + a[14])); fi
  done
  printf '%s' "$total"
}
web_pids() {
  local main
  if [[ "$SERVER" == lighttpd ]]; then read_pid "$VAR/run/lighttpd.pid"; return 0; fi
  main="$(read_pid "$VAR/run/apache.pid")"
  [[ -n "$main" ]] || return 0
  printf '+%s' "$main" # exited children are in the parent's cutime
  local kid
  for kid in $(cat "/proc/$main/task/$main/children" 2>/dev/null); do printf ' %s' "$kid"; done
}
busy_ticks() { awk '$1 == "cpu" {print $2 + $3 + $4 + $7 + $8 + $9; exit}' /proc/stat; }
cpu_sample() { # prints: worker echo web db self-children busy
  # shellcheck disable=SC2046 # web_pids is a list of PIDs
  printf '%s %s %s %s %s %s' "$(proc_ticks "$(read_pid "$WORKER_PID")")" "$(proc_ticks "$(read_pid "$ECHO_PID")")" \
    "$(proc_ticks $(web_pids))" "$(proc_ticks "$(read_pid "$VAR/run/mariadb.pid")")" "$(proc_ticks +$$)" "$(busy_ticks)"
}

# step NAME LABEL PATH MODE LINES COUNT [wrk -H ...]: one wrk run; its summary goes to results.tsv.
# NAME "warmup-*" is run but not reported.
step() {
  local name="$1" label="$2" path="$3" mode="$4" lines="$5" count="$6" duration="$STEP_SECONDS"
  shift 6
  [[ "$name" != warmup-* ]] || duration=1
  say "$(printf '%-20s %s' "$name" "$label")"
  local raw="$RAW/$name.txt" json before after
  before="$(cpu_sample)"
  if ! BENCH_MODE="$mode" BENCH_LINES="$lines" BENCH_THREADS="$WRK_THREADS" BENCH_COUNT="$count" \
      timeout -k 5 $((duration + 60)) wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"${duration}s" \
      --timeout 5s --latency -s "$LUA" "$@" "$BASE_URL$path" >"$raw" 2>&1; then
    cat "$raw" >&2
    die "wrk failed in step $name"
  fi
  after="$(cpu_sample)"
  json="$(sed -n 's/^BENCHJSON //p' "$raw" | tail -n 1)"
  [[ -n "$json" ]] || { cat "$raw" >&2; die "no summary from wrk in step $name"; }
  local -a b a
  read -r -a b <<<"$before"
  read -r -a a <<<"$after"
  json="${json%\}},\"cpu_ticks\":{\"hz\":$CLK_TCK,\"worker\":$((a[0] - b[0])),\"echo\":$((a[1] - b[1])),\"web\":$((a[2] - b[2])),\"db\":$((a[3] - b[3])),\"wrk\":$((a[4] - b[4])),\"busy\":$((a[5] - b[5]))}}"
  [[ "$name" == warmup-* ]] || printf '%s\t%s\t%s\n' "$name" "$label" "$json" >>"$RESULTS"
  LAST_JSON="$json"
}

json_field() { # JSON EXPR (python expression over d)
  python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2"
}

Q=/api/v1/offers/query
# What a browser extension's fetch() sends anyway; the worker may answer compressed one day.
AE=(-H "Accept-Encoding: gzip, deflate, br")

step warmup-echo "warm-up" /bench/echo plain "" ""
step static "1 KiB static file (baseline)" /bench/static-1k.txt plain "" ""
step echo "bare FastCGI, 1 KiB (baseline)" /bench/echo plain "" ""
ECHO_RPS="$(json_field "$LAST_JSON" 'int(d["requests"] * 1e6 / d["duration_us"])')"

if want query; then
load_offers small "$SMALL_OFFERS"
step warmup-query-small "warm-up" "$Q" body "$DATA/query-mix.txt" offers "${AE[@]}"
step query-small "offers query, $SMALL_OFFERS offers" "$Q" body "$DATA/query-mix.txt" offers "${AE[@]}"
step query-scale-small "offers query, 3 per answer, $SMALL_OFFERS offers" "$Q" body "$DATA/query-scale.txt" offers "${AE[@]}"
fi

if want query || want events || want sync; then
load_offers big "$OFFERS"
fi
if want query; then
etag() { curl -s -D - -o /dev/null --max-time 5 "${AE[@]}" "$BASE_URL$1" | sed -n 's/^[Ee][Tt][Aa][Gg]:[[:space:]]*//p' | tr -d '\r'; }
step config "GET /api/v1/config" /api/v1/config plain "" "" "${AE[@]}"
step categories "GET /api/v1/categories" /api/v1/categories plain "" "" "${AE[@]}"
CAT_ETAG="$(etag /api/v1/categories)"
[[ -n "$CAT_ETAG" ]] || die "GET /api/v1/categories has no ETag"
step categories-304 "GET /api/v1/categories, If-None-Match (304)" /api/v1/categories plain "" "" \
  "${AE[@]}" -H "If-None-Match: $CAT_ETAG"
step warmup-query-big "warm-up" "$Q" body "$DATA/query-mix.txt" offers "${AE[@]}"
step query-big "offers query, $OFFERS offers" "$Q" body "$DATA/query-mix.txt" offers "${AE[@]}"
step query-scale-big "offers query, 3 per answer, $OFFERS offers" "$Q" body "$DATA/query-scale.txt" offers "${AE[@]}"
fi

if want events; then
# Tokens for live, non-demo offers with a tracking URL (the click step needs them to redirect).
db -e "SELECT o.id, MIN(oc.country_code) FROM offers o JOIN offer_countries oc ON oc.offer_id = o.id
       WHERE o.enabled AND NOT o.is_demo AND o.tracking_url IS NOT NULL
         AND (o.valid_from IS NULL OR o.valid_from <= UTC_TIMESTAMP())
         AND (o.valid_until IS NULL OR o.valid_until > UTC_TIMESTAMP() + INTERVAL 1 DAY)
       GROUP BY o.id ORDER BY RAND(7) LIMIT 5000" >"$DATA/live-offers.txt"
[[ -s "$DATA/live-offers.txt" ]] || die "no live offers to mint tokens for"
# Enough fresh tokens for a step as fast as the bare FastCGI baseline, with room to spare.
TOKENS=$((ECHO_RPS * STEP_SECONDS * 5 / 4 + 2000))
((TOKENS <= 1000000)) || TOKENS=1000000
say "minting $TOKENS impression and $TOKENS click tokens; recording 1000 impressions for the repeat step"
mint() { python3 "$REPO/bench/mint_tokens.py" --config "$VAR/placard.conf" --offers "$DATA/live-offers.txt" "$@"; }
mint --kind impression --count 1000 --out "$DATA/impressions-repeat.txt" --record "$BASE_URL"
mint --kind impression --count "$TOKENS" --out "$DATA/impressions-fresh.txt"
mint --kind click --count "$TOKENS" --out "$DATA/clicks.txt"
mint --kind impression --count "$TOKENS" --out "$DATA/impressions-fresh-clients.txt"
mint --kind click --count "$TOKENS" --out "$DATA/clicks-clients.txt"
ROWS_BEFORE="$(db -e 'SELECT COUNT(*) FROM impressions')"

step impression-fresh "impression, fresh tokens" /api/v1/events/impression impression \
  "$DATA/impressions-fresh.txt" words
RECORDED="$(json_field "$LAST_JSON" 'd["recorded"]')"
ROWS_AFTER="$(db -e 'SELECT COUNT(*) FROM impressions')"
meta impressions_recorded_answers "$RECORDED"
meta impressions_new_rows "$((ROWS_AFTER - ROWS_BEFORE))"
step impression-repeat "impression, repeated tokens" /api/v1/events/impression impression \
  "$DATA/impressions-repeat.txt" words
meta impressions_rows_after_repeat "$(db -e 'SELECT COUNT(*) FROM impressions')"
meta impressions_rows_before_repeat "$ROWS_AFTER"

CLICKS_BEFORE="$(db -e 'SELECT COUNT(*) FROM clicks')"
step click "click redirect (302)" /r/click path "$DATA/clicks.txt" ""
meta clicks_new_rows "$(($(db -e 'SELECT COUNT(*) FROM clicks') - CLICKS_BEFORE))"
# The same two steps from 65,536 clients (X-Forwarded-For): what real traffic looks like, and
# what the steps above measured before per-client limits existed (no event over a limit).
BENCH_CLIENTS=65536 step impression-fresh-clients "impression, fresh tokens, 65,536 clients" \
  /api/v1/events/impression impression "$DATA/impressions-fresh-clients.txt" words
BENCH_CLIENTS=65536 step click-clients "click redirect (302), 65,536 clients" /r/click path \
  "$DATA/clicks-clients.txt" ""
# The workers' rollup step counts recorded events every second: once it has caught up (at most
# 10 s), the rollups must count exactly the raw rows.
for _ in $(seq 1 100); do
  caught_up="$(db -e "SELECT (SELECT COALESCE(MAX(id), 0) FROM impressions) <= (SELECT last_id FROM rollup_progress WHERE name = 'impressions') AND (SELECT COALESCE(MAX(id), 0) FROM clicks) <= (SELECT last_id FROM rollup_progress WHERE name = 'clicks')")"
  [[ "$caught_up" == 1 ]] && break
  sleep 0.1
done
# Counted and ignored (over a per-client limit: the clicks step sends each offer's clicks from
# one client) together: every raw row once.
meta rollup_impressions "$(db -e "SELECT COALESCE(SUM(impressions + ignored_impressions), 0) FROM stats_daily WHERE dim = 'placement'")"
meta rollup_clicks "$(db -e "SELECT COALESCE(SUM(clicks + ignored_clicks), 0) FROM stats_daily WHERE dim = 'placement'")"
meta raw_impressions "$(db -e 'SELECT COUNT(*) FROM impressions')"
meta raw_clicks "$(db -e 'SELECT COUNT(*) FROM clicks')"
fi

# Statistics: rollups of 50 million events over 366 days and 100,000 offers (generated directly),
# then GET /admin/api/v1/stats signed in, one request at a time (bench/stats_bench.py).
if want stats; then
say "$(printf '%-20s %s' stats "GET /admin/api/v1/stats, 366 days, 100,000 offers (filling rollups first)")"
python3 "$REPO/bench/stats_bench.py" --mycnf "$MYCNF" --base-url "$BASE_URL" \
  --password-file "$VAR/admin-password" >"$RAW/stats.txt" 2>&1 || { cat "$RAW/stats.txt" >&2; die "the stats step failed"; }
meta stats_json "$(sed -n 's/^BENCHSTATS //p' "$RAW/stats.txt" | tail -n 1)"
fi

# Network sync: 100,000 offers from the stand-in network (placardctl sync, the job the admin API
# runs) while wrk keeps the offers query under load for exactly as long as the sync runs; the
# query's rate then is compared with its rate just before (query-sync-base), as a ratio.
if want sync; then
step query-sync-base "offers query, $OFFERS offers, before the sync" "$Q" body "$DATA/query-mix.txt" offers "${AE[@]}"
BASE_RPS="$(json_field "$LAST_JSON" 'd["requests"] * 1e6 / d["duration_us"]')"
say "$(printf '%-20s %s' sync "network sync of $SYNC_OFFERS offers from the stand-in, offers query under load")"
rm -f -- "$RAW/sync-ready"
python3 "$REPO/bench/sync_bench.py" --config "$VAR/placard.conf" --ctl "$CTL" --mycnf "$MYCNF" \
  --base-url "$BASE_URL" --password-file "$VAR/admin-password" --offers "$SYNC_OFFERS" \
  --ready "$RAW/sync-ready" >"$RAW/sync.txt" 2>&1 &
SYNC_PID=$!
for _ in $(seq 1 300); do [[ -e "$RAW/sync-ready" ]] || ! kill -0 "$SYNC_PID" 2>/dev/null && break; sleep 0.1; done
[[ -e "$RAW/sync-ready" ]] || { cat "$RAW/sync.txt" >&2; die "the sync step did not start"; }
before="$(cpu_sample)"
BENCH_MODE=body BENCH_LINES="$DATA/query-mix.txt" BENCH_THREADS="$WRK_THREADS" BENCH_COUNT=offers \
  wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d600s --timeout 5s --latency -s "$LUA" "${AE[@]}" \
  "$BASE_URL$Q" >"$RAW/query-during-sync.txt" 2>&1 &
WRK_PID=$!
wait "$SYNC_PID" || { cat "$RAW/sync.txt" >&2; kill -INT "$WRK_PID" 2>/dev/null; die "the sync step failed"; }
kill -INT "$WRK_PID" 2>/dev/null || true
wait "$WRK_PID" || true
after="$(cpu_sample)"
json="$(sed -n 's/^BENCHJSON //p' "$RAW/query-during-sync.txt" | tail -n 1)"
[[ -n "$json" ]] || { cat "$RAW/query-during-sync.txt" >&2; die "no summary from wrk during the sync"; }
read -r -a b <<<"$before"
read -r -a a <<<"$after"
json="${json%\}},\"cpu_ticks\":{\"hz\":$CLK_TCK,\"worker\":$((a[0] - b[0])),\"echo\":$((a[1] - b[1])),\"web\":$((a[2] - b[2])),\"db\":$((a[3] - b[3])),\"wrk\":$((a[4] - b[4])),\"busy\":$((a[5] - b[5]))}}"
printf '%s\t%s\t%s\n' query-during-sync "offers query, $OFFERS offers, during the sync" "$json" >>"$RESULTS"
SYNC_JSON="$(sed -n 's/^BENCHSYNC //p' "$RAW/sync.txt" | tail -n 1)"
[[ -n "$SYNC_JSON" ]] || { cat "$RAW/sync.txt" >&2; die "no summary from the sync step"; }
DURING_RPS="$(json_field "$json" 'd["requests"] * 1e6 / d["duration_us"]')"
RATIO="$(python3 -c "print(round($DURING_RPS / $BASE_RPS, 3))")"
meta sync_json "$SYNC_JSON"
meta sync_query_ratio "$RATIO"
say "sync: $(json_field "$SYNC_JSON" 'd["seconds"]') s for $SYNC_OFFERS offers ($(json_field "$SYNC_JSON" 'd["summary"]')); offers query during the sync at $RATIO of its rate before ($(printf '%.0f' "$DURING_RPS") vs $(printf '%.0f' "$BASE_RPS") requests/s)"
fi

registration_flood_step() {
  # Issue 22: GET /api/v1/config under wrk, without and then during a flood of registrations and
  # sign-ins from 32 clients (bench/registration_flood.py); the figure is its p99 in both.
  step config-flood-base "GET /api/v1/config, before the registration flood" /api/v1/config plain "" ""
  local base_json="$LAST_JSON" flood_json
  say "$(printf '%-20s %s' registration "32 clients register and sign in as fast as they can")"
  rm -f -- "$RAW/flood-ready"
  python3 "$REPO/bench/registration_flood.py" --base-url "$BASE_URL" --pid-file "$WORKER_PID" \
    --seconds "$((STEP_SECONDS + 2))" --ready "$RAW/flood-ready" >"$RAW/flood.txt" 2>&1 &
  local flood_pid=$!
  for _ in $(seq 1 100); do [[ -e "$RAW/flood-ready" ]] || ! kill -0 "$flood_pid" 2>/dev/null && break; sleep 0.1; done
  step config-during-flood "GET /api/v1/config, during the registration flood" /api/v1/config plain "" ""
  wait "$flood_pid" || { cat "$RAW/flood.txt" >&2; die "the registration flood failed"; }
  flood_json="$(sed -n 's/^BENCHFLOOD //p' "$RAW/flood.txt" | tail -n 1)"
  [[ -n "$flood_json" ]] || { cat "$RAW/flood.txt" >&2; die "no summary from the registration flood"; }
  meta registration_flood_json "$flood_json"
  say "registration flood: GET /api/v1/config p99 $(json_field "$LAST_JSON" 'round(d["latency_us"]["p99"] / 1000, 1)') ms during vs $(json_field "$base_json" 'round(d["latency_us"]["p99"] / 1000, 1)') ms without; worker RSS peak $(json_field "$flood_json" 'd["rss_peak_kb"] // 1024') MiB; $(json_field "$flood_json" 'd["answers"]')"
}
if want registration; then registration_flood_step; fi

step echo-end "bare FastCGI again, at the end" /bench/echo plain "" ""

# The big catalog once more, now that the worker has served load: rebuild time and memory.
if want query || want events || want sync; then
meta catalog_big_rss_after_load_kb "$(worker_status VmRSS)"
catalog_bump
wait_snapshot "$(catalog_version)"
sleep 0.5
meta catalog_big_rebuild2_ms "$BUILD_MS"
meta catalog_big_rss_after_rebuild2_kb "$(worker_status VmRSS)"
meta catalog_big_hwm_kb "$(worker_status VmHWM)"
fi
# A worker's footprint as a shared host sees it (mod_fcgid starts one for the first visitor after
# a quiet spell): exec to first answer, VmRSS after it and after 20 sign-ins (issue 21;
# bench/worker_footprint.py, a worker of its own with one thread). Always runs.
say "$(printf '%-20s %s' footprint "a new worker: start to first answer, memory after it and after 20 sign-ins")"
python3 "$REPO/bench/worker_footprint.py" --fcgi "$FCGI" --config "$VAR/placard.conf" \
  --password-file "$VAR/admin-password" >"$RAW/footprint.txt" 2>&1 ||
  { cat "$RAW/footprint.txt" >&2; die "the footprint step failed"; }
meta footprint_json "$(sed -n 's/^BENCHFOOT //p' "$RAW/footprint.txt" | tail -n 1)"

meta load_end "$(cut -d' ' -f1-3 /proc/loadavg)"
meta duration_s "$((SECONDS - BENCH_START))"

cleanup
trap - ERR
python3 "$REPO/bench/report.py" --results "$RESULTS" --meta "$META" --out "$OUT" ||
  die "bench/report.py failed"
