# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables are read by scripts/stack.sh and its other parts
# scripts/stack.sh's settings (sourced): its environment checked, and the paths under VAR_DIR.

# need NAME VALUE MIN MAX: VALUE is an integer in MIN..MAX; prints it without leading zeros.
need() {
  if ! is_uint "$2" || ((10#$2 < $3 || 10#$2 > $4)); then
    printf 'stack: error: %s must be %s..%s, not %q\n' "$1" "$3" "$4" "$2" >&2
    exit 1
  fi
  printf '%s' $((10#$2))
}

# one_of NAME VALUE CHOICE...: VALUE is one of the choices.
one_of() {
  local name="$1" value="$2" choice
  shift 2
  for choice in "$@"; do [[ "$value" != "$choice" ]] || return 0; done
  printf 'stack: error: %s must be one of %s, not %q\n' "$name" "$*" "$value" >&2
  exit 1
}

resolve_settings() {
  VAR="${VAR_DIR:-$REPO/var}"
  VAR="$(realpath -m -s -- "$VAR")"
  [[ "$VAR" != "/" ]] || { printf 'stack: error: VAR_DIR must not be /\n' >&2; exit 1; }
  PORT="$(need PORT "${PORT:-8080}" 1 65535)"
  if [[ -z "${DB_PORT:-}" ]]; then
    if ((PORT + 20000 <= 65535)); then DB_PORT=$((PORT + 20000)); else DB_PORT=$((PORT - 20000)); fi
  fi
  DB_PORT="$(need DB_PORT "$DB_PORT" 1 65535)"
  ((DB_PORT != PORT)) || { printf 'stack: error: DB_PORT must differ from PORT\n' >&2; exit 1; }
  DB_TCP="127.0.0.1:$DB_PORT" # "off" when MariaDB had to run on its unix socket only
  THREADS="$(need THREADS "${THREADS:-8}" 1 256)"
  # One by default: every request sees the same snapshot, as the e2e tests expect (with more,
  # each process picks up a catalog change on its own poll); make chaos and make soak run 2.
  WORKERS="$(need WORKERS "${WORKERS:-1}" 0 64)"
  SERVER="${SERVER:-lighttpd}"
  one_of SERVER "$SERVER" lighttpd apache apache-fcgid
  TLS="${TLS:-0}"
  one_of TLS "$TLS" 0 1
  # lighttpd's TLS module is a package of its own (lighttpd-mod-openssl); Apache has mod_ssl.
  if [[ "$TLS" == 1 && "$SERVER" == lighttpd ]]; then
    printf 'stack: error: TLS=1 needs SERVER=apache or apache-fcgid\n' >&2
    exit 1
  fi
  SCHEME=http
  [[ "$TLS" == 0 ]] || SCHEME=https
  # The worker validates it again (config key base_path); this keeps it safe in the templates.
  BASE_PATH="${BASE_PATH:-}"
  if [[ -n "$BASE_PATH" ]] && { [[ ! "$BASE_PATH" =~ ^(/[A-Za-z0-9._~-]+)+$ ]] || [[ "$BASE_PATH/" =~ /\.\.?/ ]]; }; then
    printf 'stack: error: BASE_PATH must be empty or like /offers (no trailing /), not %q\n' "$BASE_PATH" >&2
    exit 1
  fi
  DEMO_DATA="${DEMO_DATA:-1}"
  one_of DEMO_DATA "$DEMO_DATA" 0 1

  # BUILD is relative to the current directory (make runs in the repository), else to the repo.
  BUILD_DIR="${BUILD:-build}"
  if [[ "$BUILD_DIR" != /* ]]; then
    if [[ -d "$PWD/$BUILD_DIR" ]]; then BUILD_DIR="$PWD/$BUILD_DIR"; else BUILD_DIR="$REPO/$BUILD_DIR"; fi
  fi
  BUILD_DIR="$(realpath -m -s -- "$BUILD_DIR")"
  FCGI="$BUILD_DIR/placard.fcgi" CTL="$BUILD_DIR/placardctl"
  # MariaDB's administrative account authenticates by the OS user over the socket.
  if [[ "$(id -u)" -eq 0 ]]; then DB_ADMIN="root"; else DB_ADMIN="$(id -un)"; fi

  MYCNF="$VAR/my.cnf" CONF="$VAR/placard.conf" DATADIR="$VAR/mysql" DB_SOCK="$VAR/mysql.sock"
  # The migration credentials (db.admin_user): placardctl only; the worker never reads this file.
  ADMIN_CONF="$VAR/placard-admin.conf"
  RUN="$VAR/run" LOG="$VAR/log" WWW="$VAR/www" TMP="$VAR/tmp"
  DB_PID="$RUN/mariadb.pid" WORKER_PID="$RUN/placard.pid" WORKER_SOCK="$RUN/placard.sock"
  LIGHTTPD_PID="$RUN/lighttpd.pid" APACHE_PID="$RUN/apache.pid" STACK_ENV="$RUN/stack.env"
  SETUP_LOG="$LOG/setup.log" ADMIN_PASSWORD_FILE="$VAR/admin-password"
  DB_INSTALLED_MARK="$VAR/.mariadb-installed" FIRST_USE_MARK="$VAR/.first-use-done"
  # Unix socket paths must fit in sockaddr_un.sun_path (108 bytes with the final NUL).
  local sock
  for sock in "$WORKER_SOCK" "$DB_SOCK"; do
    if ((${#sock} > 107)); then
      printf 'stack: error: VAR_DIR is too long for a unix socket path (%s has %d bytes, at most 107); use a shorter VAR_DIR\n' \
        "$sock" "${#sock}" >&2
      exit 1
    fi
  done
}

