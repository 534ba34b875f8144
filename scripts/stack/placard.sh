# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # variables shared with scripts/stack.sh and its other parts
# scripts/stack.sh's Placard (sourced): everything about the database and the config files goes
# through placardctl, the same code a real install runs (docs/operations.md); this file only
# chooses the options and starts and stops the worker.

ctl() { "$CTL" --config "$CONF" --admin-config "$ADMIN_CONF" "$@"; }

# ctl_logged WHAT ARGS...: placardctl ARGS with its output in setup.log; fails with WHAT.
ctl_logged() {
  local what="$1"
  shift
  setup_log_header "placardctl $1"
  ctl "$@" </dev/null >>"$SETUP_LOG" 2>&1 || fail "$what" "$SETUP_LOG" "$LOG/placard.log"
}

# When the data directory is new but older secrets and markers are still there (someone removed
# var/mysql to start over), set them aside: they belong to the database that is gone.
retire_old_state() {
  local stamp file
  stamp="$(date -u +%Y%m%dT%H%M%SZ)"
  for file in "$CONF" "$ADMIN_CONF" "$ADMIN_PASSWORD_FILE"; do
    if [[ -e "$file" ]]; then
      mv -f -- "$file" "$file.old-$stamp"
      warn "new database: moved the old $(basename "$file") to $file.old-$stamp"
    fi
  done
  rm -f -- "$FIRST_USE_MARK"
}

# The group of the web server's user, which alone (besides the worker's user) may connect to the
# worker's socket (mode 0660): www-data for Apache's children when started as root, else the
# invoking user's group (lighttpd runs as the invoking user; so does Apache when not root).
web_group() {
  if [[ "$SERVER" == apache* && "$(id -u)" -eq 0 ]]; then printf 'www-data'; else id -gn; fi
}

# `placardctl setup`: the database, the least-privilege runtime user, placard.conf and
# placard-admin.conf (fresh secrets; an old config's db.admin_* lines moved to the latter),
# migrations, grants and the first administrator, whose password goes to ADMIN_PASSWORD_FILE
# (0600) when it creates that account. Idempotent. Then every start's settings in one
# `placardctl config set`: where this stack is reached (PORT, TLS and BASE_PATH may differ from
# the start that wrote the config), socket_mode 0660 (configs from before it was the default), the click journal in
# this stack's own var dir (never the host's /var/lib/placard)
# and CONF_SET ("key=value key=value", e.g. the registration limits the e2e tests need).
NEW_ADMIN_PASSWORD=""
configure_placard() {
  local had_password=0 pair key settings
  [[ ! -e "$ADMIN_PASSWORD_FILE" ]] || had_password=1
  ctl_logged "placardctl setup failed" setup \
    --db-socket "$DB_SOCK" --db-admin-user "$DB_ADMIN" --db-name "$DB_NAME" --db-user "$DB_USER" \
    --listen "unix:$WORKER_SOCK" --socket-group "" --threads "$THREADS" \
    --log-file "$LOG/placard.log" --sql-dir "$REPO/sql" --config-group "$(id -gn)" \
    --admin-email "$ADMIN_EMAIL" --admin-password-file "$ADMIN_PASSWORD_FILE"
  if ((!had_password)) && [[ -s "$ADMIN_PASSWORD_FILE" ]]; then
    NEW_ADMIN_PASSWORD="$(cat -- "$ADMIN_PASSWORD_FILE")"
  fi
  settings=(public_origin "${PUBLIC_ORIGIN:-$SCHEME://127.0.0.1:$PORT}" base_path "$BASE_PATH"
    socket_mode 0660 journal.dir "$VAR/journal")
  for pair in ${CONF_SET:-}; do
    key="${pair%%=*}"
    [[ "$key" =~ ^[a-z0-9_.]+$ && "$pair" == *=* ]] || fail "CONF_SET: bad entry '$pair'"
    settings+=("$key" "${pair#*=}")
  done
  ctl_logged "placardctl config set refused this start's settings (PUBLIC_ORIGIN, BASE_PATH, CONF_SET)" \
    config set "${settings[@]}"
}

load_demo_data_once() {
  [[ ! -e "$FIRST_USE_MARK" ]] || return 0
  if [[ "$DEMO_DATA" == 1 ]]; then
    say "loading demo data"
    ctl_logged "placardctl demo-data failed" demo-data
    echo "demo data loaded $(date -u +%FT%TZ)" >"$FIRST_USE_MARK"
  else
    echo "demo data skipped (DEMO_DATA=0) $(date -u +%FT%TZ)" >"$FIRST_USE_MARK"
  fi
}

# The worker on its unix socket: the worker's user and the web server's group, mode 0660.
# WORKERS > 0: the pid file names the supervisor; it keeps the socket and replaces a worker
# process that dies (make chaos kills them).
worker_start() {
  if running "$WORKER_PID" placard.fcgi; then
    fail "placard.fcgi already runs (pid $(read_pid "$WORKER_PID")); stop the stack first"
  fi
  rm -f -- "$WORKER_PID"
  if [[ -e "$WORKER_SOCK" || -L "$WORKER_SOCK" ]]; then rm -f -- "$WORKER_SOCK"; fi
  printf '==== %s stack.sh: starting %s\n' "$(date -u +%FT%TZ)" "$FCGI" >>"$LOG/placard.out"
  local processes=()
  if ((WORKERS > 0)); then processes=(--processes "$WORKERS"); fi
  launch "$LOG/placard.out" env -u PLACARD_LISTEN -u PLACARD_THREADS -u PLACARD_CONFIG \
    "$FCGI" --config "$CONF" --threads "$THREADS" --socket-group "$(web_group)" "${processes[@]}"
  local pid="$LAUNCHED_PID" deadline=$((SECONDS + WORKER_WAIT_SECONDS))
  WORKER_LAUNCH_PID="$pid"
  echo "$pid" >"$WORKER_PID"
  STARTED_WORKER=1
  until [[ -S "$WORKER_SOCK" ]]; do
    exists "$pid" || fail "placard.fcgi exited while starting" "$LOG/placard.out" "$LOG/placard.log"
    if ((SECONDS >= deadline)); then
      fail "placard.fcgi did not create $WORKER_SOCK within ${WORKER_WAIT_SECONDS}s" "$LOG/placard.out" "$LOG/placard.log"
    fi
    sleep 0.1
  done
}

stop_worker() {
  stop_process "placard.fcgi" "$WORKER_PID" placard.fcgi "$WORKER_STOP_SECONDS" "$WORKER_LAUNCH_PID"
  if [[ -S "$WORKER_SOCK" ]]; then rm -f -- "$WORKER_SOCK"; fi
}

# SERVER=apache-fcgid: Apache spawns placard.fcgi itself (mod_fcgid), as www-data, with its
# listening socket on fd 0 and one thread. It cannot read the stack's placard.conf, so it gets
# a private copy owned by www-data (placardctl config set: no `listen`, one thread, its own log
# file) and a copy of the binary (whose directory www-data may not reach). placard-admin.conf,
# with the migration credentials, is not copied: www-data never gets them.
fcgid_prepare() {
  local dir="$VAR/fcgid"
  rm -rf -- "$dir"
  mkdir -p -- "$dir"
  chmod 0755 -- "$dir"
  install -m 0600 -- "$CONF" "$dir/placard.conf"
  "$CTL" --config "$dir/placard.conf" config set listen "" threads 1 log_file "$dir/placard.log" \
    >>"$SETUP_LOG" 2>&1 || fail "placardctl config set on the mod_fcgid copy failed" "$SETUP_LOG"
  install -m 0755 -- "$FCGI" "$dir/placard.fcgi"
  touch -- "$dir/placard.log"
  # mod_fcgid creates its workers' sockets in here: only Apache's user may enter it.
  mkdir -p -- "$RUN/fcgid"
  chmod 0700 -- "$RUN/fcgid"
  if [[ "$(id -u)" -eq 0 ]]; then
    chown www-data:www-data -- "$dir/placard.conf" "$dir/placard.log" "$RUN/fcgid"
  fi
}
