# shellcheck shell=bash
# make bench: the stacks under test (sourced). Side 0 is the working tree; with BENCH_COMPARE,
# side 1 is that commit, built under build/compare/<sha>, with a stack of its own (its own
# scripts/stack.sh, MariaDB, web server and worker on BENCH_PORT+2). use_side N points the
# harness's variables at one side; every other part works on "the current side".
# shellcheck disable=SC2034 # the variables are read by the other parts

SIDE_NAME=(this)
SIDE_REPO=("$REPO")
SIDE_BUILD=("$BUILD_DIR")
SIDE_VAR=("$VAR0")
SIDE_PORT=("$BENCH_PORT0")
SIDE_DB_PORT=("$BENCH_DB_PORT0")

add_compare_side() { # REPO BUILD LABEL
  SIDE_NAME+=("$3")
  SIDE_REPO+=("$1")
  SIDE_BUILD+=("$2")
  SIDE_VAR+=("$VAR0-compare")
  SIDE_PORT+=($((BENCH_PORT0 + 2)))
  SIDE_DB_PORT+=($((BENCH_PORT0 + 3)))
}

use_side() {
  SIDE="$1"
  SREPO="${SIDE_REPO[$1]}"
  FCGI="${SIDE_BUILD[$1]}/placard.fcgi"
  CTL="${SIDE_BUILD[$1]}/placardctl"
  VAR="${SIDE_VAR[$1]}"
  PORT="${SIDE_PORT[$1]}"
  DB_PORT="${SIDE_DB_PORT[$1]}"
  BASE_URL="http://127.0.0.1:$PORT"
  MARK="$VAR/.placard-bench"
  ECHO_SOCK="$VAR/run/bench-echo.sock"
  ECHO_PID="$VAR/run/bench-echo.pid"
  BARE_SOCK="$VAR/run/bench-bare.sock"
  BARE_PID="$VAR/run/bench-bare.pid"
  DURABLE_SOCK="$VAR/run/bench-bare-durable.sock"
  DURABLE_PID="$VAR/run/bench-bare-durable.pid"
  DURABLE_JOURNAL="$VAR/run/bench-bare-durable.journal"
  WORKER_PID="$VAR/run/placard.pid"
  PLACARD_LOG="$VAR/log/placard.log"
  MYCNF="$VAR/my.cnf"
  local suffix=""
  (($1 == 0)) || suffix="-compare"
  DATA="$OUT/data$suffix"
  RESULTS="$OUT/results$suffix.tsv"
  META="$OUT/meta$suffix.txt"
}

n_sides() { printf '%s' "${#SIDE_NAME[@]}"; }

# for_sides CMD ARGS...: runs CMD on every side in turn.
for_sides() {
  local i
  for ((i = 0; i < ${#SIDE_NAME[@]}; i++)); do
    use_side "$i"
    "$@"
  done
  use_side 0
}

# WORKERS=0: one worker process, no supervisor, so that the pid file names the process whose
# CPU time and memory the report shows (the stack's default is one supervised process).
# /bench/echo and /bench/bare map to the baselines' sockets: WEB_CONF_EXTRA (bench_web_conf's
# file) for this tree's stack.sh; BENCH_ECHO_SOCKET and BENCH_BARE_SOCKET for the stack.sh of a
# BENCH_COMPARE commit from before WEB_CONF_EXTRA, which wrote those lines itself.
stack() {
  local bare=""
  ((SIDE != 0)) || bare="$BARE_SOCK"
  env -u PLACARD_LISTEN -u PLACARD_THREADS -u PLACARD_CONFIG WORKERS=0 \
    VAR_DIR="$VAR" PORT="$PORT" DB_PORT="$DB_PORT" SERVER="$SERVER" THREADS="$THREADS" \
    BUILD="${SIDE_BUILD[$SIDE]}" DEMO_DATA=0 BENCH_ECHO_SOCKET="$ECHO_SOCK" BENCH_BARE_SOCKET="$bare" \
    WEB_CONF_EXTRA="$VAR/bench-web.conf" bash "$SREPO/scripts/stack.sh" "$@"
}

# bench_web_conf: the lines stack.sh appends to the web server's config (WEB_CONF_EXTRA).
bench_web_conf() {
  local path sock
  {
    # Not /bench/bare-durable: lighttpd's fastcgi.server matches a path by its prefix, so
    # "/bench/bare" would take it.
    printf '\n# make bench only (scripts/bench/sides.sh): the bare FastCGI baselines\n'
    for path in /bench/echo /bench/bare /bench/durable; do
      sock="$ECHO_SOCK"
      if [[ "$path" != /bench/echo ]]; then
        ((SIDE == 0)) || continue
        sock="$BARE_SOCK"
        [[ "$path" != /bench/durable ]] || sock="$DURABLE_SOCK"
      fi
      case "$SERVER" in
        lighttpd) printf 'fastcgi.server += ( "%s" => (( "socket" => "%s", "check-local" => "disable" )) )\n' "$path" "$sock" ;;
        apache) printf '<Location "%s">\n    Require all granted\n    SetHandler "proxy:unix:%s|fcgi://localhost/"\n</Location>\n' "$path" "$sock" ;;
      esac
    done
  } >"$VAR/bench-web.conf"
}

db() { mariadb --defaults-file="$MYCNF" -u root --batch --skip-column-names placard "$@"; }

# After a catalog change made directly in the database: placardctl's bump, the one way to bump
# the catalog version (a commit from before that command bumps in SQL, as it did then).
catalog_bump() {
  if ! "$CTL" --config "$VAR/placard.conf" catalog bump >>"$HARNESS_LOG" 2>&1; then
    ((SIDE != 0)) || die "placardctl catalog bump failed; see $HARNESS_LOG"
    db -e "UPDATE catalog_version SET version = version + 1, changed_at = UTC_TIMESTAMP(3) WHERE id = 1"
  fi
}

STACK_STARTED=0
CLEANED=0
stop_side() {
  if [[ -d "$VAR/run" ]]; then
    stack stop >>"$HARNESS_LOG" 2>&1 || printf 'bench: warning: stack.sh stop failed (see %s)\n' "$HARNESS_LOG" >&2
    stop_pidfile "$ECHO_PID" placard.fcgi "$ECHO_SOCK"
    stop_pidfile "$BARE_PID" bench-bare-fcgi "$BARE_SOCK"
    stop_pidfile "$DURABLE_PID" bench-bare-fcgi "$DURABLE_SOCK"
    rm -f -- "$DURABLE_JOURNAL"
  fi
}
cleanup() {
  ((CLEANED)) && return 0
  CLEANED=1
  if [[ "${BENCH_KEEP:-0}" == 1 && $STACK_STARTED == 1 ]]; then
    say "BENCH_KEEP=1: the stack still runs under ${SIDE_VAR[*]} (stop: VAR_DIR=<dir> PORT=<port> scripts/stack.sh stop; kill \$(cat <dir>/run/bench-*.pid))"
    return 0
  fi
  for_sides stop_side
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
