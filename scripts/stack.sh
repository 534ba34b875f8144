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
# CONF_SET ("key=value ..." set in placard.conf before the worker starts).
# BASE_PATH ("" = the root; e.g. /offers: every path of Placard under it, config key base_path),
# PUBLIC_ORIGIN (default SCHEME://127.0.0.1:PORT; e.g. a TLS proxy's origin in front of the stack).
set -Eeuo pipefail
umask 022

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
readonly REPO
readonly ADMIN_EMAIL="admin@placard.local"
readonly DB_NAME="placard"
readonly DB_USER="placard"
readonly DB_WAIT_SECONDS=30
readonly DB_STOP_SECONDS=30
readonly WORKER_WAIT_SECONDS=20
readonly WORKER_STOP_SECONDS=10
readonly WEB_WAIT_SECONDS=20
readonly WEB_STOP_SECONDS=10
readonly LOCK_WAIT_SECONDS=120

# ---- Messages ------------------------------------------------------------------------------

say() { printf 'stack: %s\n' "$*"; }
warn() { printf 'stack: warning: %s\n' "$*" >&2; }

# Prints the last lines of each existing, non-empty log file given.
show_logs() {
  local file
  for file in "$@"; do
    if [[ -s "$file" ]]; then
      printf '  --- last lines of %s ---\n' "$file" >&2
      tail -n 25 -- "$file" | sed 's/^/  | /' >&2
    fi
  done
}

# fail MESSAGE [LOG...]: explain, show the logs, stop what this invocation started, exit 1.
fail() {
  local message="$1"
  shift
  trap - ERR
  printf 'stack: error: %s\n' "$message" >&2
  show_logs "$@"
  rollback
  exit 1
}

usage() {
  sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

# ---- Settings ------------------------------------------------------------------------------

is_uint() { [[ "$1" =~ ^[0-9]+$ ]]; }

resolve_settings() {
  VAR="${VAR_DIR:-$REPO/var}"
  [[ -n "$VAR" ]] || VAR="$REPO/var"
  VAR="$(realpath -m -s -- "$VAR")"
  [[ "$VAR" != "/" ]] || { printf 'stack: error: VAR_DIR must not be /\n' >&2; exit 1; }

  PORT="${PORT:-8080}"
  if ! is_uint "$PORT" || ((10#$PORT < 1 || 10#$PORT > 65535)); then
    printf 'stack: error: PORT must be 1..65535, not %q\n' "$PORT" >&2
    exit 1
  fi
  PORT=$((10#$PORT))
  if [[ -z "${DB_PORT:-}" ]]; then
    if ((PORT + 20000 <= 65535)); then DB_PORT=$((PORT + 20000)); else DB_PORT=$((PORT - 20000)); fi
  fi
  if ! is_uint "$DB_PORT" || ((10#$DB_PORT < 1 || 10#$DB_PORT > 65535)) || ((10#$DB_PORT == PORT)); then
    printf 'stack: error: DB_PORT must be 1..65535 and differ from PORT, not %q\n' "$DB_PORT" >&2
    exit 1
  fi
  DB_PORT=$((10#$DB_PORT))
  DB_TCP="127.0.0.1:$DB_PORT" # "off" when MariaDB had to run on its unix socket only

  THREADS="${THREADS:-8}"
  if ! is_uint "$THREADS" || ((10#$THREADS < 1 || 10#$THREADS > 256)); then
    printf 'stack: error: THREADS must be 1..256, not %q\n' "$THREADS" >&2
    exit 1
  fi
  THREADS=$((10#$THREADS))

  # One by default: every request sees the same snapshot, as the e2e tests expect (with more,
  # each process picks up a catalog change on its own poll); make chaos and make soak run 2.
  WORKERS="${WORKERS:-1}"
  if ! is_uint "$WORKERS" || ((10#$WORKERS > 64)); then
    printf 'stack: error: WORKERS must be 0..64, not %q\n' "$WORKERS" >&2
    exit 1
  fi
  WORKERS=$((10#$WORKERS))

  SERVER="${SERVER:-lighttpd}"
  case "$SERVER" in
    lighttpd | apache | apache-fcgid) ;;
    *) printf 'stack: error: SERVER must be lighttpd, apache or apache-fcgid, not %q\n' "$SERVER" >&2; exit 1 ;;
  esac

  TLS="${TLS:-0}"
  case "$TLS" in
    0 | 1) ;;
    *) printf 'stack: error: TLS must be 0 or 1, not %q\n' "$TLS" >&2; exit 1 ;;
  esac
  # lighttpd's TLS module is a package of its own (lighttpd-mod-openssl); Apache has mod_ssl.
  if [[ "$TLS" == 1 && "$SERVER" == lighttpd ]]; then
    printf 'stack: error: TLS=1 needs SERVER=apache or apache-fcgid\n' >&2
    exit 1
  fi
  if [[ "$TLS" == 1 ]]; then SCHEME=https; else SCHEME=http; fi

  # The worker validates it again (config key base_path); this keeps it safe in the templates.
  BASE_PATH="${BASE_PATH:-}"
  if [[ -n "$BASE_PATH" ]] && { [[ ! "$BASE_PATH" =~ ^(/[A-Za-z0-9._~-]+)+$ ]] || [[ "$BASE_PATH/" =~ /\.\.?/ ]]; }; then
    printf 'stack: error: BASE_PATH must be empty or like /offers (no trailing /), not %q\n' "$BASE_PATH" >&2
    exit 1
  fi

  DEMO_DATA="${DEMO_DATA:-1}"
  case "$DEMO_DATA" in
    0 | 1) ;;
    *) printf 'stack: error: DEMO_DATA must be 0 or 1, not %q\n' "$DEMO_DATA" >&2; exit 1 ;;
  esac

  # BUILD is relative to the current directory (make runs in the repository), else to the repo.
  BUILD_DIR="${BUILD:-build}"
  if [[ "$BUILD_DIR" != /* ]]; then
    if [[ -d "$PWD/$BUILD_DIR" ]]; then BUILD_DIR="$PWD/$BUILD_DIR"; else BUILD_DIR="$REPO/$BUILD_DIR"; fi
  fi
  BUILD_DIR="$(realpath -m -s -- "$BUILD_DIR")"
  FCGI="$BUILD_DIR/placard.fcgi"
  CTL="$BUILD_DIR/placardctl"

  # MariaDB's administrative account authenticates by the OS user over the socket.
  if [[ "$(id -u)" -eq 0 ]]; then DB_ADMIN="root"; else DB_ADMIN="$(id -un)"; fi

  MYCNF="$VAR/my.cnf"
  CONF="$VAR/placard.conf"
  # Migration credentials (db.admin_user): placardctl only; the worker never reads this file.
  ADMIN_CONF="$VAR/placard-admin.conf"
  DATADIR="$VAR/mysql"
  DB_SOCK="$VAR/mysql.sock"
  RUN="$VAR/run"
  LOG="$VAR/log"
  WWW="$VAR/www"
  TMP="$VAR/tmp"
  DB_PID="$RUN/mariadb.pid"
  WORKER_PID="$RUN/placard.pid"
  WORKER_SOCK="$RUN/placard.sock"
  LIGHTTPD_PID="$RUN/lighttpd.pid"
  APACHE_PID="$RUN/apache.pid"
  # Unix socket paths must fit in sockaddr_un.sun_path (108 bytes with the final NUL).
  local sock
  for sock in "$WORKER_SOCK" "$DB_SOCK"; do
    if ((${#sock} > 107)); then
      printf 'stack: error: VAR_DIR is too long for a unix socket path (%s has %d bytes, at most 107); use a shorter VAR_DIR\n' \
        "$sock" "${#sock}" >&2
      exit 1
    fi
  done
  STACK_ENV="$RUN/stack.env"
  SETUP_LOG="$LOG/setup.log"
  ADMIN_PASSWORD_FILE="$VAR/admin-password"
  DB_INSTALLED_MARK="$VAR/.mariadb-installed"
  FIRST_USE_MARK="$VAR/.first-use-done"
}

# ---- Processes -----------------------------------------------------------------------------

# read_pid FILE: prints the PID stored in FILE, or nothing.
read_pid() {
  local pid=""
  if [[ -r "$1" ]]; then
    read -r pid <"$1" || true
  fi
  if is_uint "$pid" && ((pid > 1)); then printf '%s' "$pid"; fi
}

# exists PID: the process exists and is not a zombie, whatever its name (used right after a
# launch, while setsid/env are still exec'ing into the real program).
exists() {
  local stat
  [[ -n "$1" && -r "/proc/$1/stat" ]] || return 1
  stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
  stat="${stat##*) }"
  [[ "${stat:0:1}" != "Z" ]]
}

# alive PID COMM: the process exists, is not a zombie and its name is COMM (no PID reuse).
alive() {
  local name
  exists "$1" || return 1
  name="$(cat "/proc/$1/comm" 2>/dev/null)" || return 1
  [[ "$name" == "$2" ]]
}

# running PIDFILE COMM: the process named in PIDFILE runs.
running() { alive "$(read_pid "$1")" "$2"; }

# wait_gone PID SECONDS: waits until the process is gone; status 1 on timeout.
wait_gone() {
  local pid="$1" deadline=$((SECONDS + $2))
  while exists "$pid"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.1
  done
}

# stop_process LABEL PIDFILE COMM SECONDS [LAUNCHED_PID]: SIGTERM, wait, then SIGKILL.
# Only ever signals the PID from PIDFILE when that process still has the expected name, or the
# PID this very invocation launched (still exec'ing into the program when a start fails early).
stop_process() {
  local label="$1" pidfile="$2" comm="$3" timeout="$4" pid
  pid="$(read_pid "$pidfile")"
  alive "$pid" "$comm" || pid=""
  if [[ -z "$pid" && -n "${5:-}" ]]; then
    local name
    for name in "$comm" bash setsid env; do
      if alive "$5" "$name"; then pid="$5"; fi
    done
  fi
  if [[ -n "$pid" ]]; then
    kill -TERM "$pid" 2>/dev/null || true
    if ! wait_gone "$pid" "$timeout"; then
      warn "$label (pid $pid) did not stop within ${timeout}s; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      wait_gone "$pid" 5 || warn "$label (pid $pid) is still there"
    fi
    say "stopped $label (pid $pid)"
  fi
  rm -f -- "$pidfile"
}

# port_busy PORT: something accepts connections on 127.0.0.1:PORT.
port_busy() {
  timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null
}

# Launches a long-running program in its own session (Ctrl-C in the terminal reaches only this
# script, which then stops everything in order), stdin from /dev/null, output to LOGFILE,
# without our lock descriptor. Sets LAUNCHED_PID.
launch() {
  local logfile="$1"
  shift
  private_log "$logfile"
  setsid "$@" </dev/null >>"$logfile" 2>&1 9>&- &
  LAUNCHED_PID=$!
  disown "$LAUNCHED_PID" 2>/dev/null || true # no "Killed" job reports from this shell
}

# ---- What this invocation started, for rollback ----------------------------------------------

STARTED_DB=0
STARTED_WORKER=0
STARTED_WEB=0
DB_LAUNCH_PID=""
WORKER_LAUNCH_PID=""
WEB_LAUNCH_PID=""
TMP_FILES=()

# stop_leftovers: Apache children that outlived their parent (seen: one hung on a mod_fcgid
# worker that had crashed, ignored the parent's SIGTERMs and stayed when the parent exited) and
# mod_fcgid's workers. Only processes of this stack's own config file or binary copy.
stop_leftovers() {
  local target pattern
  for target in "apache2 -f $VAR/apache.conf" "$VAR/fcgid/placard.fcgi"; do
    pattern="$(printf '%s' "$target" | sed 's/[][\\.*^$+?(){}|]/\\&/g')"
    if pgrep -f -- "$pattern" >/dev/null 2>&1; then
      pkill -TERM -f -- "$pattern" 2>/dev/null || true
      sleep 1
      pkill -KILL -f -- "$pattern" 2>/dev/null || true
      say "stopped leftover processes of $target"
    fi
  done
}

stop_web() {
  stop_process "lighttpd" "$LIGHTTPD_PID" lighttpd "$WEB_STOP_SECONDS" "$WEB_LAUNCH_PID"
  stop_process "Apache" "$APACHE_PID" apache2 "$WEB_STOP_SECONDS" "$WEB_LAUNCH_PID"
  stop_leftovers
  # SERVER=apache-fcgid: the www-data-readable copy of the config goes with the server.
  rm -rf -- "$VAR/fcgid" "$RUN/fcgid"
}

stop_worker() {
  stop_process "placard.fcgi" "$WORKER_PID" placard.fcgi "$WORKER_STOP_SECONDS" "$WORKER_LAUNCH_PID"
  if [[ -S "$WORKER_SOCK" ]]; then rm -f -- "$WORKER_SOCK"; fi
}

stop_db() {
  stop_process "MariaDB" "$DB_PID" mariadbd "$DB_STOP_SECONDS" "$DB_LAUNCH_PID"
}

rollback() {
  if ((STARTED_WEB)); then stop_web; rm -f -- "$STACK_ENV"; STARTED_WEB=0; fi
  if ((STARTED_WORKER)); then stop_worker; STARTED_WORKER=0; fi
  if ((STARTED_DB)); then stop_db; STARTED_DB=0; fi
}

cleanup_tmp() {
  if ((${#TMP_FILES[@]})); then rm -f -- "${TMP_FILES[@]}"; fi
}

on_error() {
  local status="$1" line="$2" command="$3"
  trap - ERR
  printf 'stack: error: unexpected failure (status %s) at %s line %s: %s\n' \
    "$status" "${BASH_SOURCE[0]}" "$line" "$command" >&2
  show_logs "$SETUP_LOG"
  rollback
  exit 1
}

# ---- Locking: one stack.sh at a time per VAR_DIR (not held while `run` idles) ---------------

lock() {
  exec 9>"$VAR/.stack.lock"
  if ! flock -w "$LOCK_WAIT_SECONDS" 9; then
    printf 'stack: error: another stack.sh is busy with %s\n' "$VAR" >&2
    exit 1
  fi
}

unlock() { exec 9>&-; }

# ---- Files and directories ------------------------------------------------------------------

prepare_dirs() {
  mkdir -p -- "$VAR" "$RUN" "$LOG" "$WWW" "$TMP" "$RUN/apache"
  # Apache's children (www-data) must reach the socket and the static files.
  chmod 0755 -- "$VAR" "$RUN" "$LOG" "$WWW" "$TMP" "$RUN/apache"
  private_log "$LOG/setup.log"
  private_log "$LOG/placard.out"
}

# private_log FILE: a log created (or kept) mode 0640, not readable by other local users (the
# logs name accounts, client addresses and paths).
private_log() {
  if ! { (umask 027 && touch -- "$1") && chmod 0640 -- "$1"; }; then
    fail "cannot prepare the log $1"
  fi
}

# sed_escape TEXT: TEXT made safe as the replacement of s|...|...|.
sed_escape() { printf '%s' "$1" | sed -e 's/[\\|&]/\\&/g'; }

# render TEMPLATE OUTPUT: fills in @VAR_DIR@, @PORT@, @REPO@, @BUILD@, @THREADS@, @BASE@.
render() {
  local template="$1" output="$2"
  [[ -r "$template" ]] || fail "template $template is missing"
  sed -e "s|@VAR_DIR@|$(sed_escape "$VAR")|g" \
      -e "s|@PORT@|$PORT|g" \
      -e "s|@REPO@|$(sed_escape "$REPO")|g" \
      -e "s|@BUILD@|$(sed_escape "$BUILD_DIR")|g" \
      -e "s|@THREADS@|$THREADS|g" \
      -e "s|@BASE@|$BASE_PATH|g" \
      "$template" >"$output.tmp"
  mv -f -- "$output.tmp" "$output"
}


setup_log_header() { printf '\n==== %s stack.sh: %s\n' "$(date -u +%FT%TZ)" "$*" >>"$SETUP_LOG"; }

# ---- MariaDB -------------------------------------------------------------------------------

write_mycnf() {
  cat >"$MYCNF.tmp" <<EOF
# Generated by scripts/stack.sh on every start; edits are lost.
[mysqld]
datadir=$DATADIR
socket=$DB_SOCK
pid-file=$DB_PID
bind-address=127.0.0.1
port=$DB_PORT
log-error=$LOG/mariadb.err
tmpdir=$TMP
character-set-server=utf8mb4
collation-server=utf8mb4_unicode_ci
default-time-zone=+00:00
skip-name-resolve
innodb_buffer_pool_size=256M
innodb_log_file_size=64M
# Durable commits (the default, stated): a "recorded" impression is on disk when answered.
innodb_flush_log_at_trx_commit=1
# Small hosts (measured with make bench on 2 cores): InnoDB's mutex spinning burned a quarter of
# the server's CPU, and a thread per connection cost a context switch per statement; without
# the spinning and with the thread pool, impressions are ~30% faster, durability unchanged.
innodb_spin_wait_delay=0
thread_handling=pool-of-threads
max_connections=256
max_allowed_packet=16M
performance_schema=OFF
table_open_cache=400
thread_cache_size=16

[client]
socket=$DB_SOCK
default-character-set=utf8mb4
EOF
  mv -f -- "$MYCNF.tmp" "$MYCNF"
}

db_admin() { mariadb --defaults-file="$MYCNF" -u "$DB_ADMIN" --batch --skip-column-names; }

db_ping() {
  mariadb-admin --defaults-file="$MYCNF" -u "$DB_ADMIN" --connect-timeout=2 ping >/dev/null 2>&1
}

# Creates the data directory on first use. Sets DB_FRESH=1 when it did.
db_install_if_needed() {
  DB_FRESH=0
  if [[ -f "$DB_INSTALLED_MARK" && -d "$DATADIR/mysql" ]]; then
    return 0
  fi
  if [[ -e "$DATADIR" ]]; then
    if [[ -d "$DATADIR/$DB_NAME" ]]; then
      fail "$DATADIR holds a '$DB_NAME' database but $DB_INSTALLED_MARK is missing; not touching it (touch the marker if the data directory is sound)"
    fi
    warn "removing the unfinished MariaDB data directory $DATADIR from an earlier failed setup"
    rm -rf -- "$DATADIR"
  fi
  say "creating the MariaDB data directory $DATADIR"
  setup_log_header "mariadb-install-db"
  local user_opts=(--user="$(id -un)")
  if ! mariadb-install-db --defaults-file="$MYCNF" "${user_opts[@]}" \
      --auth-root-authentication-method=socket --skip-test-db >>"$SETUP_LOG" 2>&1; then
    rm -rf -- "$DATADIR"
    fail "mariadb-install-db failed" "$SETUP_LOG"
  fi
  touch "$DB_INSTALLED_MARK"
  DB_FRESH=1
}

db_start() {
  if running "$DB_PID" mariadbd; then
    if db_ping; then
      say "MariaDB already runs (pid $(read_pid "$DB_PID"))"
      return 0
    fi
    fail "MariaDB (pid $(read_pid "$DB_PID")) runs but does not answer on $DB_SOCK" "$LOG/mariadb.err"
  fi
  rm -f -- "$DB_PID"
  if port_busy "$DB_PORT"; then
    fail "port 127.0.0.1:$DB_PORT (DB_PORT) is already in use by another program; choose another DB_PORT or PORT"
  fi
  local opts=() attempt log_size
  if [[ "$(id -u)" -eq 0 ]]; then opts=(--user=root); fi
  local deadline=$((SECONDS + DB_WAIT_SECONDS))
  # DB_PORT may lie in the kernel's ephemeral port range (32768-60999 here): an outgoing
  # connection of another program, or its TIME_WAIT remains (60 s), can hold it. Retry twice;
  # then run MariaDB on its unix socket only, which is all the stack itself uses.
  DB_TCP="127.0.0.1:$DB_PORT"
  for attempt in 1 2 3; do
    log_size="$(stat -c %s "$LOG/mariadb.err" 2>/dev/null || echo 0)"
    launch "$LOG/mariadb.err" mariadbd --defaults-file="$MYCNF" "${opts[@]}"
    DB_LAUNCH_PID="$LAUNCHED_PID"
    STARTED_DB=1
    until db_ping; do
      if ! exists "$DB_LAUNCH_PID"; then
        if ((attempt < 3)) && tail -c +"$((log_size + 1))" "$LOG/mariadb.err" 2>/dev/null |
            grep -q 'Address already in use'; then
          if ((attempt == 1)); then
            warn "MariaDB could not bind 127.0.0.1:$DB_PORT (in use by another connection); retrying"
            sleep 1
          else
            warn "127.0.0.1:$DB_PORT stays busy (an outgoing connection's TIME_WAIT?); MariaDB listens on $DB_SOCK only this time (set DB_PORT below 32768 to avoid this)"
            opts+=(--skip-networking)
            DB_TCP="off"
          fi
          continue 2
        fi
        fail "MariaDB exited while starting" "$LOG/mariadb.err"
      fi
      if ((SECONDS >= deadline)); then
        fail "MariaDB did not answer within ${DB_WAIT_SECONDS}s on $DB_SOCK" "$LOG/mariadb.err"
      fi
      sleep 0.2
    done
    break
  done
  # The pid file is written by mariadbd itself; stop and status rely on it.
  local deadline2=$((SECONDS + 5))
  until [[ -n "$(read_pid "$DB_PID")" ]]; do
    ((SECONDS < deadline2)) || fail "MariaDB did not write its pid file $DB_PID" "$LOG/mariadb.err"
    sleep 0.1
  done
}

# ---- Placard configuration, schema, data, first account -------------------------------------

require_binaries() {
  local bin
  for bin in "$FCGI" "$CTL"; do
    [[ -x "$bin" ]] || fail "$bin is missing; build it first with: make"
  done
}

ctl() { "$CTL" --config "$CONF" --admin-config "$ADMIN_CONF" "$@"; }

# The group of the web server's user, which alone (besides the worker's user) may connect to
# the worker's socket (mode 0660): www-data for Apache's children when started as root, else
# the invoking user's group (lighttpd runs as the invoking user; so does Apache when not root).
web_group() {
  if [[ "$SERVER" == apache* && "$(id -u)" -eq 0 ]]; then printf 'www-data'; else id -gn; fi
}

# Configs written before the worker's socket became 0660 and the migration credentials moved
# to their own file: brought to today's layout (the worker refuses db.admin_* in its config).
upgrade_config() {
  [[ -e "$CONF" ]] || return 0
  sed -i -e 's/^socket_mode[[:space:]]*=.*/socket_mode = 0660/' -- "$CONF"
  if grep -qE '^db\.admin_(user|password)[[:space:]]*=' "$CONF"; then
    if [[ ! -e "$ADMIN_CONF" ]]; then
      (umask 077 && grep -E '^db\.admin_(user|password)[[:space:]]*=' "$CONF" >"$ADMIN_CONF.tmp")
      mv -f -- "$ADMIN_CONF.tmp" "$ADMIN_CONF"
    fi
    sed -i -E '/^db\.admin_(user|password)[[:space:]]*=/d' -- "$CONF"
    say "moved the migration credentials from $CONF to $ADMIN_CONF"
  fi
}

# CONF_SET="key=value key=value": those keys of placard.conf set (replaced or added) before the
# worker starts, e.g. the registration limits the end-to-end tests need (issue 22).
apply_conf_set() {
  local pair key
  for pair in ${CONF_SET:-}; do
    key="${pair%%=*}"
    [[ "$key" =~ ^[a-z0-9_.]+$ && "$pair" == *=* ]] || fail "CONF_SET: bad entry '$pair'"
    ctl config set "$key" "${pair#*=}" >>"$SETUP_LOG" 2>&1 || fail "CONF_SET: $key refused" "$SETUP_LOG"
  done
}

# When the data directory is new but older secrets and markers are still there (someone removed
# var/mysql to start over), set them aside: they belong to the database that is gone.
retire_old_state() {
  local stamp
  stamp="$(date -u +%Y%m%dT%H%M%SZ)"
  local file
  for file in "$CONF" "$ADMIN_CONF" "$ADMIN_PASSWORD_FILE"; do
    if [[ -e "$file" ]]; then
      mv -f -- "$file" "$file.old-$stamp"
      warn "new database: moved the old $(basename "$file") to $file.old-$stamp"
    fi
  done
  rm -f -- "$FIRST_USE_MARK"
}

# The database, the least-privilege application user, placard.conf (fresh secrets), migrations,
# per-table grants and the first administrator: `placardctl setup`, the same code a real install
# runs (docs/operations.md). Idempotent; the admin password goes to ADMIN_PASSWORD_FILE (0600)
# only when it creates that account.
NEW_ADMIN_PASSWORD=""
setup_placard() {
  local had_password=0
  [[ ! -e "$ADMIN_PASSWORD_FILE" ]] || had_password=1
  setup_log_header "placardctl setup"
  if ! "$CTL" --config "$CONF" --admin-config "$ADMIN_CONF" setup \
      --db-socket "$DB_SOCK" --db-admin-user "$DB_ADMIN" --db-name "$DB_NAME" --db-user "$DB_USER" \
      --listen "unix:$WORKER_SOCK" --socket-group "" --threads "$THREADS" \
      --log-file "$LOG/placard.log" --sql-dir "$REPO/sql" --config-group "$(id -gn)" \
      --admin-email "$ADMIN_EMAIL" --admin-password-file "$ADMIN_PASSWORD_FILE" \
      </dev/null >>"$SETUP_LOG" 2>&1; then
    fail "placardctl setup failed" "$SETUP_LOG" "$LOG/mariadb.err" "$LOG/placard.log"
  fi
  if ((!had_password)) && [[ -s "$ADMIN_PASSWORD_FILE" ]]; then
    NEW_ADMIN_PASSWORD="$(cat -- "$ADMIN_PASSWORD_FILE")"
  fi
}

# Every start: where this stack is reached (PORT, TLS and BASE_PATH may differ from the start
# that wrote the config): public_origin (admin writes need it) and base_path.
frontage_config() {
  if ! ctl config set public_origin "${PUBLIC_ORIGIN:-$SCHEME://127.0.0.1:$PORT}" >>"$SETUP_LOG" 2>&1 ||
    ! ctl config set base_path "$BASE_PATH" >>"$SETUP_LOG" 2>&1; then
    fail "placardctl config set public_origin/base_path failed" "$SETUP_LOG"
  fi
  # The click journal in this stack's own var dir, never the host's /var/lib/placard.
  ctl config set journal.dir "$VAR/journal" >>"$SETUP_LOG" 2>&1 ||
    fail "placardctl config set journal.dir failed" "$SETUP_LOG"

}

load_demo_data_once() {
  [[ ! -e "$FIRST_USE_MARK" ]] || return 0
  if [[ "$DEMO_DATA" == 1 ]]; then
    say "loading demo data"
    setup_log_header "placardctl demo-data"
    ctl demo-data >>"$SETUP_LOG" 2>&1 || fail "placardctl demo-data failed" "$SETUP_LOG" "$LOG/placard.log"
    echo "demo data loaded $(date -u +%FT%TZ)" >"$FIRST_USE_MARK"
  else
    echo "demo data skipped (DEMO_DATA=0) $(date -u +%FT%TZ)" >"$FIRST_USE_MARK"
  fi
}

# ---- Worker --------------------------------------------------------------------------------

worker_start() {
  if running "$WORKER_PID" placard.fcgi; then
    fail "placard.fcgi already runs (pid $(read_pid "$WORKER_PID")); stop the stack first"
  fi
  rm -f -- "$WORKER_PID"
  if [[ -e "$WORKER_SOCK" || -L "$WORKER_SOCK" ]]; then rm -f -- "$WORKER_SOCK"; fi
  printf '==== %s stack.sh: starting %s\n' "$(date -u +%FT%TZ)" "$FCGI" >>"$LOG/placard.out"
  # The socket: the worker's user and the web server's group, mode 0660 (socket_mode).
  # WORKERS > 0: the pid file names the supervisor; it keeps the socket and replaces a worker
  # process that dies (make chaos kills them).
  local processes=()
  if ((WORKERS > 0)); then processes=(--processes "$WORKERS"); fi
  launch "$LOG/placard.out" env -u PLACARD_LISTEN -u PLACARD_THREADS -u PLACARD_CONFIG \
    "$FCGI" --config "$CONF" --threads "$THREADS" --socket-group "$(web_group)" "${processes[@]}"
  local pid="$LAUNCHED_PID"
  WORKER_LAUNCH_PID="$pid"
  echo "$pid" >"$WORKER_PID"
  STARTED_WORKER=1
  local deadline=$((SECONDS + WORKER_WAIT_SECONDS))
  until [[ -S "$WORKER_SOCK" ]]; do
    if ! exists "$pid"; then
      fail "placard.fcgi exited while starting" "$LOG/placard.out" "$LOG/placard.log"
    fi
    if ((SECONDS >= deadline)); then
      fail "placard.fcgi did not create $WORKER_SOCK within ${WORKER_WAIT_SECONDS}s" "$LOG/placard.out" "$LOG/placard.log"
    fi
    sleep 0.1
  done
}

# ---- Static files and web servers -----------------------------------------------------------

copy_static() {
  local target="$WWW$BASE_PATH/admin"
  mkdir -p -- "$WWW$BASE_PATH"
  rm -rf -- "$target.new"
  cp -R -- "$REPO/admin-static" "$target.new"
  # The chart library, from the npm lock file's install (make runs npm ci): served from here,
  # never from another origin. Without it the page still works and says the chart is missing.
  local lib="$REPO/node_modules/uplot/dist"
  if [[ -r "$lib/uPlot.esm.js" && -r "$lib/uPlot.min.css" ]]; then
    mkdir -p -- "$target.new/vendor"
    cp -- "$lib/uPlot.esm.js" "$lib/uPlot.min.css" "$target.new/vendor/"
  else
    warn "$lib is missing (run make): the admin page's chart is not drawn"
  fi
  chmod -R u=rwX,go=rX -- "$target.new"
  rm -rf -- "$target"
  mv -- "$target.new" "$target"
}

# Apache's children run as www-data: they must be able to reach VAR_DIR.
check_www_data_access() {
  [[ "$(id -u)" -eq 0 ]] || return 0
  id www-data >/dev/null 2>&1 || fail "the user www-data does not exist (Apache runs its children as www-data)"
  if ! runuser -u www-data -- test -x "$RUN"; then
    local dir="$VAR" blocker=""
    while [[ "$dir" != "/" ]]; do
      if ! runuser -u www-data -- test -x "$dir"; then blocker="$dir"; fi
      dir="$(dirname -- "$dir")"
    done
    fail "Apache runs as www-data, which cannot reach $VAR (${blocker:-a parent directory} is not searchable by others). Use a VAR_DIR whose parents are mode 0755, e.g. VAR_DIR=/tmp/placard-var, or chmod o+x the parents."
  fi
}

# ---- make bench: the bare FastCGI baseline ----------------------------------------------------
# BENCH_ECHO_SOCKET=/absolute/path.sock (set by scripts/bench.sh only): the generated web-server
# config also maps /bench/echo to that socket, where `placard.fcgi --bench-echo` answers. Unset
# (always, outside the benchmark): the config is exactly the template's.
bench_echo_config() {
  local sock="${BENCH_ECHO_SOCKET:-}"
  [[ -n "$sock" ]] || return 0
  [[ "$sock" =~ ^/[A-Za-z0-9._/+-]+$ ]] || fail "BENCH_ECHO_SOCKET must be an absolute path of [A-Za-z0-9._/+-]"
  printf '\n# make bench only (BENCH_ECHO_SOCKET): the bare FastCGI baseline\n'
  bench_socket_config "$1" /bench/echo "$sock"
  # BENCH_BARE_SOCKET: /bench/bare, the minimal libfcgi program (bench/bare/), likewise.
  sock="${BENCH_BARE_SOCKET:-}"
  [[ -n "$sock" ]] || return 0
  [[ "$sock" =~ ^/[A-Za-z0-9._/+-]+$ ]] || fail "BENCH_BARE_SOCKET must be an absolute path of [A-Za-z0-9._/+-]"
  bench_socket_config "$1" /bench/bare "$sock"
}
bench_socket_config() { # SERVER PATH SOCKET
  case "$1" in
    lighttpd) printf 'fastcgi.server += ( "%s" => (( "socket" => "%s", "check-local" => "disable" )) )\n' "$2" "$3" ;;
    apache) printf '<Location "%s">\n    Require all granted\n    SetHandler "proxy:unix:%s|fcgi://localhost/"\n</Location>\n' "$2" "$3" ;;
  esac
}

# access_log FILE: the web server's access log, created (or kept) mode 0640 before the server
# opens it: it names client addresses and user agents, so other local users may not read it.
access_log() {
  touch -- "$1" && chmod 0640 -- "$1" || fail "cannot prepare the access log $1"
}

lighttpd_start() {
  local conf="$VAR/lighttpd.conf"
  access_log "$LOG/lighttpd-access.log"
  render "$REPO/lighttpd-conf/placard.conf.in" "$conf"
  bench_echo_config lighttpd >>"$conf"
  setup_log_header "lighttpd -tt"
  lighttpd -tt -f "$conf" >>"$SETUP_LOG" 2>&1 || fail "lighttpd rejects $conf" "$SETUP_LOG"
  launch "$LOG/lighttpd-error.log" lighttpd -D -f "$conf"
  WEB_LAUNCH_PID="$LAUNCHED_PID"
  echo "$LAUNCHED_PID" >"$LIGHTTPD_PID"
  STARTED_WEB=1
  WEB_COMM=lighttpd
  WEB_PIDFILE="$LIGHTTPD_PID"
  WEB_LOGS=("$LOG/lighttpd-error.log")
}

# TLS=1: a self-signed certificate for 127.0.0.1 (made once per VAR_DIR; the key is root's,
# Apache reads it before it drops privileges) and mod_ssl on the one listener.
tls_config() {
  [[ "$TLS" == 1 ]] || return 0
  local dir="$VAR/tls"
  if [[ ! -s "$dir/cert.pem" || ! -s "$dir/key.pem" ]]; then
    mkdir -p -- "$dir" && chmod 0700 -- "$dir"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 \
      -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
      -keyout "$dir/key.pem" -out "$dir/cert.pem" >>"$SETUP_LOG" 2>&1 ||
      fail "cannot make the TLS certificate under $dir" "$SETUP_LOG"
    chmod 0600 -- "$dir/key.pem"
    chmod 0644 -- "$dir/cert.pem"
  fi
  printf '\n# TLS=1 (the stack only): HTTPS on the one listener, a self-signed certificate\n'
  printf 'LoadModule ssl_module /usr/lib/apache2/modules/mod_ssl.so\n'
  printf 'SSLEngine on\nSSLProtocol -all +TLSv1.2 +TLSv1.3\n'
  printf 'SSLCertificateFile "%s"\nSSLCertificateKeyFile "%s"\n' "$dir/cert.pem" "$dir/key.pem"
}

apache_start() {
  local template="$1" conf="$VAR/apache.conf"
  access_log "$LOG/apache-access.log"
  render "$template" "$conf"
  if [[ "$SERVER" == apache ]]; then bench_echo_config apache >>"$conf"; fi
  tls_config >>"$conf"
  setup_log_header "apache2 -t"
  apache2 -t -f "$conf" >>"$SETUP_LOG" 2>&1 || fail "Apache rejects $conf" "$SETUP_LOG"
  rm -f -- "$RUN/apache/httpd.pid"
  launch "$LOG/apache-error.log" apache2 -f "$conf" -DFOREGROUND
  WEB_LAUNCH_PID="$LAUNCHED_PID"
  echo "$LAUNCHED_PID" >"$APACHE_PID"
  STARTED_WEB=1
  WEB_COMM=apache2
  WEB_PIDFILE="$APACHE_PID"
  WEB_LOGS=("$LOG/apache-error.log")
}

# http_status PATH: the HTTP status of GET http(s)://127.0.0.1:PORT/BASE_PATH/PATH ("000": none).
http_status() {
  local ca=()
  [[ "$SCHEME" == http ]] || ca=(--cacert "$VAR/tls/cert.pem")
  curl -s "${ca[@]}" -o /dev/null -w '%{http_code}' --max-time 3 "$SCHEME://127.0.0.1:$PORT$BASE_PATH$1" 2>/dev/null || true
}

# Waits until the static page and the application both answer through the web server.
wait_web() {
  local deadline=$((SECONDS + WEB_WAIT_SECONDS)) pid admin api
  pid="$(read_pid "$WEB_PIDFILE")"
  while :; do
    exists "$pid" || fail "$WEB_COMM exited while starting" "${WEB_LOGS[@]}"
    admin="$(http_status /admin/)"
    api="$(http_status /api/v1/config)"
    [[ "$admin" == 200 && "$api" == 200 ]] && return 0
    if ((SECONDS >= deadline)); then
      fail "no answer from $SCHEME://127.0.0.1:$PORT$BASE_PATH within ${WEB_WAIT_SECONDS}s (/admin/ gave $admin, /api/v1/config gave $api)" \
        "${WEB_LOGS[@]}" "$LOG/placard.out" "$LOG/placard.log"
    fi
    sleep 0.2
  done
}

web_start() {
  if running "$LIGHTTPD_PID" lighttpd || running "$APACHE_PID" apache2; then
    fail "a web server of this stack already runs; stop the stack first"
  fi
  rm -f -- "$LIGHTTPD_PID" "$APACHE_PID"
  if port_busy "$PORT"; then
    fail "port 127.0.0.1:$PORT is already in use by another program; choose another PORT"
  fi
  case "$SERVER" in
    lighttpd) lighttpd_start ;;
    apache) apache_start "$REPO/apache-conf/placard-proxy-fcgi.conf.in" ;;
    apache-fcgid) apache_fcgid_prepare; apache_start "$REPO/apache-conf/placard-fcgid.conf.in" ;;
  esac
  wait_web
}

# SERVER=apache-fcgid: Apache spawns placard.fcgi itself (mod_fcgid), as www-data, with its
# listening socket on fd 0 and one thread. The worker cannot read the root-only placard.conf,
# so it gets a private copy owned by www-data, and its own log file. The migration credentials
# are in placard-admin.conf, which is not copied: www-data never gets them.
apache_fcgid_prepare() {
  local dir="$VAR/fcgid"
  rm -rf -- "$dir"
  mkdir -p -- "$dir"
  chmod 0755 -- "$dir"
  # listen empty: the socket is on fd 0; one request at a time per process, so one thread.
  sed -e 's|^listen[[:space:]]*=.*|listen =|' \
      -e 's|^threads[[:space:]]*=.*|threads = 1|' \
      -e "s|^log_file[[:space:]]*=.*|log_file = $(sed_escape "$dir/placard.log")|" \
      "$CONF" >"$dir/placard.conf"
  chmod 0600 -- "$dir/placard.conf"
  # The binary may sit in a directory www-data cannot reach: run a copy.
  install -m 0755 -- "$FCGI" "$dir/placard.fcgi"
  touch -- "$dir/placard.log"
  # mod_fcgid creates its workers' sockets in here: only Apache's user may enter it.
  mkdir -p -- "$RUN/fcgid"
  chmod 0700 -- "$RUN/fcgid"
  if [[ "$(id -u)" -eq 0 ]]; then
    chown www-data:www-data -- "$dir/placard.conf" "$dir/placard.log" "$RUN/fcgid"
  fi
}

# ---- Commands ------------------------------------------------------------------------------

write_stack_env() {
  printf 'SERVER=%s\nPORT=%s\nDB_PORT=%s\nDB_TCP=%s\nTHREADS=%s\nWORKERS=%s\n' \
    "$SERVER" "$PORT" "$DB_PORT" "$DB_TCP" "$THREADS" "$WORKERS" >"$STACK_ENV"
}

# read_stack_env KEY: a value recorded by the last start.
read_stack_env() {
  [[ -r "$STACK_ENV" ]] || return 0
  sed -n "s/^$1=//p" "$STACK_ENV" | head -n 1
}

stop_hint() {
  if [[ "$VAR" == "$REPO/var" ]]; then
    printf 'make stop'
  else
    printf 'make stop VAR_DIR=%q' "$VAR"
  fi
}

print_banner() {
  local mode="$1"
  local logs="placard.log, placard.out, mariadb.err, setup.log"
  case "$SERVER" in
    lighttpd) logs="$logs, lighttpd-error.log, lighttpd-access.log" ;;
    apache*) logs="$logs, apache-error.log, apache-access.log" ;;
  esac
  local signin="$ADMIN_EMAIL, password in $ADMIN_PASSWORD_FILE"
  [[ -e "$ADMIN_PASSWORD_FILE" ]] || signin="$ADMIN_EMAIL (its password file $ADMIN_PASSWORD_FILE is missing)"
  local db_tcp=" and $DB_TCP"
  [[ "$DB_TCP" != off ]] || db_tcp=" only"
  local workers="$THREADS worker threads"
  ((WORKERS == 0)) || workers="supervised worker processes: $WORKERS x $THREADS threads"
  [[ "$SERVER" != apache-fcgid ]] || workers="workers spawned by mod_fcgid, one thread each"
  cat <<EOF

Placard is running ($SERVER, $workers, MariaDB on $DB_SOCK$db_tcp)
  API:      $SCHEME://127.0.0.1:$PORT$BASE_PATH/api/v1/config
  Admin:    $SCHEME://127.0.0.1:$PORT$BASE_PATH/admin/
  Sign in:  $signin
  Logs:     $LOG/ ($logs)
EOF
  if [[ -n "$NEW_ADMIN_PASSWORD" ]]; then
    printf '  First run: the admin password is %s (shown only this once; kept in %s)\n' \
      "$NEW_ADMIN_PASSWORD" "$ADMIN_PASSWORD_FILE"
  fi
  if [[ "$mode" == run ]]; then
    printf '  Stop:     press Ctrl-C (or run: %s)\n\n' "$(stop_hint)"
  else
    printf '  Stop:     %s   (or: VAR_DIR=%q scripts/stack.sh stop)\n\n' "$(stop_hint)" "$VAR"
  fi
}

# Exits when this VAR_DIR's worker or web server already runs: 0 when it is the same stack
# (same SERVER and PORT) for `start`, 1 otherwise. A MariaDB left running (db-start) is simply reused.
refuse_if_running() {
  local pids=() pid line
  for line in "$WORKER_PID:placard.fcgi" "$LIGHTTPD_PID:lighttpd" "$APACHE_PID:apache2"; do
    pid="$(read_pid "${line%:*}")"
    if alive "$pid" "${line##*:}"; then pids+=("${line##*:} $pid"); fi
  done
  ((${#pids[@]})) || return 0
  unlock
  if [[ "$MODE" == start && "$(read_stack_env SERVER)" == "$SERVER" && "$(read_stack_env PORT)" == "$PORT" ]]; then
    say "Placard already runs under $VAR on $SCHEME://127.0.0.1:$PORT/ ($SERVER); nothing to do"
    exit 0
  fi
  printf 'stack: error: Placard already runs under %s (%s; %s on port %s); stop it first: %s\n' \
    "$VAR" "$(IFS=,; echo "${pids[*]}")" "$(read_stack_env SERVER)" "$(read_stack_env PORT)" "$(stop_hint)" >&2
  exit 1
}

bring_up() {
  require_binaries
  prepare_dirs
  lock
  refuse_if_running
  if port_busy "$PORT"; then
    fail "port 127.0.0.1:$PORT is already in use by another program; choose another PORT"
  fi
  if [[ "$SERVER" == apache* ]]; then check_www_data_access; fi
  write_mycnf
  db_install_if_needed
  if ((DB_FRESH)); then retire_old_state; fi
  db_start
  upgrade_config
  setup_placard
  apply_conf_set
  frontage_config
  load_demo_data_once
  copy_static
  if [[ "$SERVER" != apache-fcgid ]]; then worker_start; fi
  web_start
  write_stack_env
  # From here on the pid files name every process; forget the launch PIDs (they could be
  # reused by unrelated processes once ours are gone).
  DB_LAUNCH_PID=""
  WORKER_LAUNCH_PID=""
  WEB_LAUNCH_PID=""
  unlock
}

cmd_start() {
  trap 'on_error $? $LINENO "$BASH_COMMAND"' ERR
  trap 'trap - ERR; printf "\nstack: interrupted; stopping what was started\n" >&2; rollback; exit 1' INT TERM HUP
  bring_up
  trap - ERR INT TERM HUP
  print_banner start
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
  local status="$1"
  trap '' INT TERM HUP
  trap - ERR
  printf '\n'
  say "stopping"
  stop_all
  say "stopped"
  exit "$status"
}

# A component is gone. If `stack.sh stop` (or db-stop) did it, its pid file is gone too.
check_components() {
  local file comm
  for file in "$WORKER_PID:placard.fcgi" "$LIGHTTPD_PID:lighttpd" "$APACHE_PID:apache2" "$DB_PID:mariadbd"; do
    comm="${file##*:}"
    file="${file%:*}"
    if [[ -e "$file" ]] && ! running "$file" "$comm"; then
      # A concurrent `stack.sh stop` holds the lock until it has removed the pid files.
      lock
      unlock
      if [[ -e "$file" ]] && ! running "$file" "$comm"; then
        printf 'stack: error: %s (pid %s) exited unexpectedly\n' "$comm" "$(read_pid "$file")" >&2
        case "$comm" in
          placard.fcgi) show_logs "$LOG/placard.out" "$LOG/placard.log" ;;
          lighttpd) show_logs "$LOG/lighttpd-error.log" ;;
          apache2) show_logs "$LOG/apache-error.log" ;;
          mariadbd) show_logs "$LOG/mariadb.err" ;;
        esac
        shutdown_run 1
      fi
    fi
  done
  # Everything of ours stopped from elsewhere (stack.sh stop): nothing left to watch.
  if [[ ! -e "$LIGHTTPD_PID" && ! -e "$APACHE_PID" && ! -e "$WORKER_PID" && ! -e "$DB_PID" ]]; then
    say "the stack was stopped from elsewhere"
    exit 0
  fi
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
  local all=1 pid line
  printf 'Placard stack under %s\n' "$VAR"
  for line in "MariaDB:$DB_PID:mariadbd" "placard.fcgi:$WORKER_PID:placard.fcgi" \
      "lighttpd:$LIGHTTPD_PID:lighttpd" "Apache:$APACHE_PID:apache2"; do
    local label="${line%%:*}" rest="${line#*:}"
    local file="${rest%:*}" comm="${rest##*:}"
    pid="$(read_pid "$file")"
    if alive "$pid" "$comm"; then
      printf '  %-13s running (pid %s)\n' "$label" "$pid"
    else
      case "$label" in
        lighttpd | Apache) continue ;; # only the server that was started is listed
        placard.fcgi) [[ "$(read_stack_env SERVER)" == apache-fcgid ]] && continue ;;
      esac
      printf '  %-13s not running\n' "$label"
      all=0
    fi
  done
  local port server
  port="$(read_stack_env PORT)"
  server="$(read_stack_env SERVER)"
  if [[ -n "$port" ]] && { running "$LIGHTTPD_PID" lighttpd || running "$APACHE_PID" apache2; }; then
    printf '  %-13s %s on http://127.0.0.1:%s/ (API /api/v1/config, admin /admin/)\n' "web" "$server" "$port"
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
  [[ -f "$MYCNF" && -f "$DB_INSTALLED_MARK" ]] || {
    printf 'stack: error: no MariaDB set up under %s; run start first\n' "$VAR" >&2
    exit 1
  }
  trap 'on_error $? $LINENO "$BASH_COMMAND"' ERR
  lock
  # The my.cnf the last start wrote, unchanged (its port, whatever PORT is now).
  DB_PORT="$(sed -n 's/^port=//p' "$MYCNF" | head -n 1)"
  db_start
  unlock
  say "MariaDB runs (pid $(read_pid "$DB_PID"))"
}

main() {
  local command="${1:-}"
  MODE="$command"
  case "$command" in
    -h | --help | help) usage; return 0 ;;
    run | start | stop | status | db-stop | db-start) ;;
    *) usage >&2; return 2 ;;
  esac
  # A shell cannot trap a signal that was ignored when it started, and background jobs of
  # non-interactive shells (`make run &` in a script) start with SIGINT ignored. For `run`,
  # restart once with SIGINT at its default so that Ctrl-C / kill -INT still stops the stack.
  if [[ "$command" == run && -z "${PLACARD_STACK_SIGNALS_RESET:-}" ]] &&
      (($(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/$$/status 2>/dev/null | sed 's/^/0x/' || echo 0) & 0x2)); then
    PLACARD_STACK_SIGNALS_RESET=1 exec env --default-signal=INT bash "${BASH_SOURCE[0]}" "$@"
  fi
  resolve_settings
  trap cleanup_tmp EXIT
  case "$command" in
    run) cmd_run ;;
    start) cmd_start ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    db-stop) cmd_db_stop ;;
    db-start) cmd_db_start ;;
  esac
}

main "$@"
