#!/usr/bin/env bash
# Placard's private stack: MariaDB, the FastCGI worker and a web server (lighttpd or Apache),
# all under one state directory, all bound to 127.0.0.1 or to unix sockets.
#
#   scripts/stack.sh run       start, print, stay in the foreground; Ctrl-C/SIGTERM stops it
#   scripts/stack.sh start     start in the background; returns once everything answers
#   scripts/stack.sh stop      stop what start/run started (by the PIDs in VAR_DIR/run/*.pid)
#   scripts/stack.sh status    show what runs (exit 0 when all of it runs, 3 otherwise)
#   scripts/stack.sh db-stop   stop only MariaDB (tests of a database that goes away)
#   scripts/stack.sh db-start  start only MariaDB again
#
# Environment: VAR_DIR (default <repo>/var), PORT (8080), SERVER (lighttpd | apache |
# apache-fcgid), BUILD (<repo>/build), DB_PORT (PORT+20000, or PORT-20000 above 65535),
# THREADS (8), WORKERS (1: worker processes under placard.fcgi's supervisor, which replaces
# one that dies; 0 = one process, no supervisor), DEMO_DATA (1; 0 = no demo data on first use),
# TLS (0; 1 = Apache serves HTTPS on PORT with a self-signed certificate for 127.0.0.1 made under
# VAR_DIR/tls: the HTTPS path of a deployment, e.g. the __Host- session cookie and HSTS),
# CONF_SET ("key=value ..." set in placard.conf before the worker starts),
# BASE_PATH ("" = the root; e.g. /offers: every path of Placard under it, config key base_path),
# PUBLIC_ORIGIN (default SCHEME://127.0.0.1:PORT; e.g. a TLS proxy's origin in front of the stack),
# WEB_CONF_EXTRA (a file appended to the generated web server config; make bench's baselines).
#
# This script starts and stops processes; the database, its users, placard.conf and the first
# account are placardctl's (setup, config set), as on a real install. Its parts: scripts/stack/.
set -Eeuo pipefail
umask 022
shopt -u patsub_replacement 2>/dev/null || true # "&" in a replacement is literal (render)

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
readonly REPO
readonly ADMIN_EMAIL="admin@placard.local" DB_NAME="placard" DB_USER="placard"
readonly DB_WAIT_SECONDS=30 DB_STOP_SECONDS=30 WORKER_WAIT_SECONDS=20 WORKER_STOP_SECONDS=10
readonly WEB_WAIT_SECONDS=20 WEB_STOP_SECONDS=10 LOCK_WAIT_SECONDS=120
# shellcheck source=scripts/stack/proc.sh
source "$REPO/scripts/stack/proc.sh"
# shellcheck source=scripts/stack/settings.sh
source "$REPO/scripts/stack/settings.sh"
# shellcheck source=scripts/stack/db.sh
source "$REPO/scripts/stack/db.sh"
# shellcheck source=scripts/stack/placard.sh
source "$REPO/scripts/stack/placard.sh"
# shellcheck source=scripts/stack/web.sh
source "$REPO/scripts/stack/web.sh"

usage() {
  local line n=0
  while IFS= read -r line; do
    n=$((n + 1))
    ((n >= 2)) || continue
    [[ "$line" == "#"* ]] || break
    line="${line#\#}"
    printf '%s\n' "${line# }"
  done <"${BASH_SOURCE[0]}"
}

# ---- What this invocation started, for rollback ----------------------------------------------

STARTED_DB=0 STARTED_WORKER=0 STARTED_WEB=0
DB_LAUNCH_PID="" WORKER_LAUNCH_PID="" WEB_LAUNCH_PID=""

rollback() {
  if ((STARTED_WEB)); then stop_web; rm -f -- "$STACK_ENV"; STARTED_WEB=0; fi
  if ((STARTED_WORKER)); then stop_worker; STARTED_WORKER=0; fi
  if ((STARTED_DB)); then stop_db; STARTED_DB=0; fi
}

on_error() {
  trap - ERR
  printf 'stack: error: unexpected failure (status %s) at %s line %s: %s\n' "$1" "${BASH_SOURCE[1]:-$0}" "$2" "$3" >&2
  show_logs "$SETUP_LOG"
  rollback
  exit 1
}

setup_log_header() { printf '\n==== %s stack.sh: %s\n' "$(date -u +%FT%TZ)" "$*" >>"$SETUP_LOG"; }

prepare_dirs() {
  mkdir -p -- "$VAR" "$RUN" "$LOG" "$WWW" "$TMP" "$RUN/apache"
  # Apache's children (www-data) must reach the socket and the static files.
  chmod 0755 -- "$VAR" "$RUN" "$LOG" "$WWW" "$TMP" "$RUN/apache"
  private_log "$SETUP_LOG"
  private_log "$LOG/placard.out"
}

# ---- Commands ------------------------------------------------------------------------------

stop_hint() {
  if [[ "$VAR" == "$REPO/var" ]]; then printf 'make stop'; else printf 'make stop VAR_DIR=%q' "$VAR"; fi
}

print_banner() {
  local logs="placard.log, placard.out, mariadb.err, setup.log, " db_tcp=" and $DB_TCP"
  local signin="$ADMIN_EMAIL, password in $ADMIN_PASSWORD_FILE" workers="$THREADS worker threads"
  if [[ "$SERVER" == lighttpd ]]; then logs+="lighttpd-error.log, lighttpd-access.log"; else logs+="apache-error.log, apache-access.log"; fi
  [[ -e "$ADMIN_PASSWORD_FILE" ]] || signin="$ADMIN_EMAIL (its password file $ADMIN_PASSWORD_FILE is missing)"
  [[ "$DB_TCP" != off ]] || db_tcp=" only"
  ((WORKERS == 0)) || workers="supervised worker processes: $WORKERS x $THREADS threads"
  [[ "$SERVER" != apache-fcgid ]] || workers="workers spawned by mod_fcgid, one thread each"
  cat <<EOT

Placard is running ($SERVER, $workers, MariaDB on $DB_SOCK$db_tcp)
  API:      $SCHEME://127.0.0.1:$PORT$BASE_PATH/api/v1/config
  Admin:    $SCHEME://127.0.0.1:$PORT$BASE_PATH/admin/
  Sign in:  $signin
  Logs:     $LOG/ ($logs)
EOT
  if [[ -n "$NEW_ADMIN_PASSWORD" ]]; then
    printf '  First run: the admin password is %s (shown only this once; kept in %s)\n' \
      "$NEW_ADMIN_PASSWORD" "$ADMIN_PASSWORD_FILE"
  fi
  if [[ "$1" == run ]]; then
    printf '  Stop:     press Ctrl-C (or run: %s)\n\n' "$(stop_hint)"
  else
    printf '  Stop:     %s   (or: VAR_DIR=%q scripts/stack.sh stop)\n\n' "$(stop_hint)" "$VAR"
  fi
}

# Exits when this VAR_DIR's worker or web server already runs: 0 when it is the same stack
# (same SERVER and PORT) for `start`, 1 otherwise. A MariaDB left running (db-start) is reused.
refuse_if_running() {
  local pids=() pid line
  for line in "$WORKER_PID:placard.fcgi" "$LIGHTTPD_PID:lighttpd" "$APACHE_PID:apache2"; do
    pid="$(read_pid "${line%:*}")"
    if alive "$pid" "${line##*:}"; then pids+=("${line##*:} $pid"); fi
  done
  ((${#pids[@]})) || return 0
  unlock
  local was_server was_port
  was_server="$(read_key "$STACK_ENV" SERVER)" was_port="$(read_key "$STACK_ENV" PORT)"
  if [[ "$MODE" == start && "$was_server" == "$SERVER" && "$was_port" == "$PORT" ]]; then
    say "Placard already runs under $VAR on $SCHEME://127.0.0.1:$PORT/ ($SERVER); nothing to do"
    exit 0
  fi
  printf 'stack: error: Placard already runs under %s (%s; %s on port %s); stop it first: %s\n' \
    "$VAR" "$(IFS=,; echo "${pids[*]}")" "$was_server" "$was_port" "$(stop_hint)" >&2
  exit 1
}

bring_up() {
  local bin
  for bin in "$FCGI" "$CTL"; do [[ -x "$bin" ]] || fail "$bin is missing; build it first with: make"; done
  prepare_dirs
  lock
  refuse_if_running
  port_busy "$PORT" && fail "port 127.0.0.1:$PORT is already in use by another program; choose another PORT"
  if [[ "$SERVER" == apache* ]]; then check_www_data_access; fi
  render "$REPO/scripts/stack/my.cnf.in" "$MYCNF"
  db_install_if_needed
  if ((DB_FRESH)); then retire_old_state; fi
  db_start
  configure_placard
  load_demo_data_once
  copy_static
  if [[ "$SERVER" != apache-fcgid ]]; then worker_start; fi
  web_start
  printf 'SERVER=%s\nPORT=%s\nDB_PORT=%s\nDB_TCP=%s\nTHREADS=%s\nWORKERS=%s\n' \
    "$SERVER" "$PORT" "$DB_PORT" "$DB_TCP" "$THREADS" "$WORKERS" >"$STACK_ENV"
  # From here on the pid files name every process; forget the launch PIDs (they could be
  # reused by unrelated processes once ours are gone).
  DB_LAUNCH_PID="" WORKER_LAUNCH_PID="" WEB_LAUNCH_PID=""
  unlock
}

# Everything of this stack, in order (web server, worker, database), under the stack lock.
stop_all() {
  lock
  stop_web
  stop_worker
  stop_db
  rm -f -- "$STACK_ENV"
  unlock
}

# In `run`: stop everything (in order) on a signal, or when a component dies.
shutdown_run() {
  trap '' INT TERM HUP
  trap - ERR
  printf '\n'
  say "stopping"
  stop_all
  say "stopped"
  exit "$1"
}

# A component is gone. If `stack.sh stop` (or db-stop) did it, its pid file is gone too.
check_components() {
  local line file comm logs
  for line in "$WORKER_PID:placard.fcgi:placard.out placard.log" "$LIGHTTPD_PID:lighttpd:lighttpd-error.log" \
      "$APACHE_PID:apache2:apache-error.log" "$DB_PID:mariadbd:mariadb.err"; do
    IFS=: read -r file comm logs <<<"$line"
    read -ra logs <<<"$logs"
    [[ -e "$file" ]] && ! running "$file" "$comm" || continue
    # A concurrent `stack.sh stop` holds the lock until it has removed the pid files.
    lock
    unlock
    if [[ -e "$file" ]] && ! running "$file" "$comm"; then
      printf 'stack: error: %s (pid %s) exited unexpectedly\n' "$comm" "$(read_pid "$file")" >&2
      show_logs "${logs[@]/#/$LOG/}"
      shutdown_run 1
    fi
  done
  # Everything of ours stopped from elsewhere (stack.sh stop): nothing left to watch.
  if [[ ! -e "$LIGHTTPD_PID" && ! -e "$APACHE_PID" && ! -e "$WORKER_PID" && ! -e "$DB_PID" ]]; then
    say "the stack was stopped from elsewhere"
    exit 0
  fi
}

cmd_start() {
  trap 'on_error $? $LINENO "$BASH_COMMAND"' ERR
  trap 'trap - ERR; printf "\nstack: interrupted; stopping what was started\n" >&2; rollback; exit 1' INT TERM HUP
  bring_up
  trap - ERR INT TERM HUP
  print_banner start
}

cmd_run() {
  trap 'on_error $? $LINENO "$BASH_COMMAND"' ERR
  trap 'trap - ERR; printf "\nstack: interrupted; stopping what was started\n" >&2; rollback; exit 0' INT TERM HUP
  bring_up
  trap - ERR
  trap 'shutdown_run 0' INT TERM HUP
  print_banner run
  local pause
  while :; do
    sleep 1 &
    pause=$!
    wait "$pause" || true
    check_components
  done
}

cmd_stop() {
  if [[ ! -d "$VAR" ]]; then
    say "nothing to stop ($VAR does not exist)"
    return 0
  fi
  mkdir -p -- "$RUN"
  stop_all
  say "stopped (nothing of this stack runs under $VAR)"
}

cmd_status() {
  local all=1 pid line label file comm server
  server="$(read_key "$STACK_ENV" SERVER)"
  printf 'Placard stack under %s\n' "$VAR"
  for line in "MariaDB:$DB_PID:mariadbd" "placard.fcgi:$WORKER_PID:placard.fcgi" \
      "lighttpd:$LIGHTTPD_PID:lighttpd" "Apache:$APACHE_PID:apache2"; do
    IFS=: read -r label file comm <<<"$line"
    pid="$(read_pid "$file")"
    if alive "$pid" "$comm"; then
      printf '  %-13s running (pid %s)\n' "$label" "$pid"
    else
      case "$label" in
        lighttpd | Apache) continue ;; # only the server that was started is listed
        placard.fcgi) [[ "$server" == apache-fcgid ]] && continue ;;
      esac
      printf '  %-13s not running\n' "$label"
      all=0
    fi
  done
  if [[ -n "$server" ]] && { running "$LIGHTTPD_PID" lighttpd || running "$APACHE_PID" apache2; }; then
    printf '  %-13s %s on http://127.0.0.1:%s/ (API /api/v1/config, admin /admin/)\n' "web" "$server" "$(read_key "$STACK_ENV" PORT)"
  else
    printf '  %-13s not running\n' "web server"
    all=0
  fi
  ((all)) && return 0
  return 3
}

cmd_db_stop() {
  mkdir -p -- "$RUN"
  lock
  stop_db
  unlock
}

cmd_db_start() {
  if [[ ! -f "$MYCNF" || ! -f "$DB_INSTALLED_MARK" ]]; then
    printf 'stack: error: no MariaDB set up under %s; run start first\n' "$VAR" >&2
    exit 1
  fi
  trap 'on_error $? $LINENO "$BASH_COMMAND"' ERR
  lock
  DB_PORT="$(read_key "$MYCNF" port)" # the my.cnf the last start wrote, whatever PORT is now
  db_start
  unlock
  say "MariaDB runs (pid $(read_pid "$DB_PID"))"
}

# SIGINT ignored (background jobs of non-interactive shells, `make run &` in a script): a shell
# cannot trap it, so `run` restarts once with SIGINT at its default (Ctrl-C / kill -INT work).
sigint_ignored() {
  local key value
  while read -r key value; do
    [[ "$key" != SigIgn: ]] || return $((!((0x$value & 0x2))))
  done </proc/$$/status
  return 1
}

main() {
  MODE="${1:-}"
  case "$MODE" in
    -h | --help | help) usage; return 0 ;;
    run | start | stop | status | db-stop | db-start) ;;
    *) usage >&2; return 2 ;;
  esac
  if [[ "$MODE" == run && -z "${PLACARD_STACK_SIGNALS_RESET:-}" ]] && sigint_ignored; then
    PLACARD_STACK_SIGNALS_RESET=1 exec env --default-signal=INT bash "${BASH_SOURCE[0]}" "$@"
  fi
  resolve_settings
  case "$MODE" in
    run) cmd_run ;;
    start) cmd_start ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    db-stop) cmd_db_stop ;;
    db-start) cmd_db_start ;;
  esac
}

main "$@"
