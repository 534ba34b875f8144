# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # variables shared with scripts/stack.sh and its other parts
# scripts/stack.sh's MariaDB (sourced): its data directory on first use, starting and stopping
# it. Process management only: the database, its users and grants are `placardctl setup`'s.

db_ping() {
  mariadb-admin --defaults-file="$MYCNF" -u "$DB_ADMIN" --connect-timeout=2 ping >/dev/null 2>&1
}

# Creates the data directory on first use. Sets DB_FRESH=1 when it did.
db_install_if_needed() {
  DB_FRESH=0
  if [[ -f "$DB_INSTALLED_MARK" && -d "$DATADIR/mysql" ]]; then return 0; fi
  if [[ -e "$DATADIR" ]]; then
    if [[ -d "$DATADIR/$DB_NAME" ]]; then
      fail "$DATADIR holds a '$DB_NAME' database but $DB_INSTALLED_MARK is missing; not touching it (touch the marker if the data directory is sound)"
    fi
    warn "removing the unfinished MariaDB data directory $DATADIR from an earlier failed setup"
    rm -rf -- "$DATADIR"
  fi
  say "creating the MariaDB data directory $DATADIR"
  setup_log_header "mariadb-install-db"
  if ! mariadb-install-db --defaults-file="$MYCNF" --user="$(id -un)" \
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
  local opts=() attempt deadline=$((SECONDS + DB_WAIT_SECONDS))
  if [[ "$(id -u)" -eq 0 ]]; then opts=(--user=root); fi
  # DB_PORT may lie in the kernel's ephemeral port range (32768-60999 here): an outgoing
  # connection of another program, or its TIME_WAIT remains (60 s), can hold it, and MariaDB
  # exits at once. Once more after a second; then on its unix socket only, which is all the
  # stack itself uses (a MariaDB that fails for another reason fails that way too).
  DB_TCP="127.0.0.1:$DB_PORT"
  for attempt in 1 2 3; do
    launch "$LOG/mariadb.err" mariadbd --defaults-file="$MYCNF" "${opts[@]}"
    DB_LAUNCH_PID="$LAUNCHED_PID"
    STARTED_DB=1
    until db_ping; do
      if ! exists "$DB_LAUNCH_PID"; then
        ((attempt < 3)) || fail "MariaDB exited while starting" "$LOG/mariadb.err"
        if ((attempt == 1)); then
          warn "MariaDB exited while starting (127.0.0.1:$DB_PORT held by another connection?); retrying"
          sleep 1
        else
          warn "MariaDB exited again; this time on $DB_SOCK only, without TCP (set DB_PORT below 32768 to avoid this)"
          opts+=(--skip-networking)
          DB_TCP="off"
        fi
        continue 2
      fi
      ((SECONDS < deadline)) || fail "MariaDB did not answer within ${DB_WAIT_SECONDS}s on $DB_SOCK" "$LOG/mariadb.err"
      sleep 0.2
    done
    break
  done
  # The pid file is written by mariadbd itself; stop and status rely on it.
  deadline=$((SECONDS + 5))
  until [[ -n "$(read_pid "$DB_PID")" ]]; do
    ((SECONDS < deadline)) || fail "MariaDB did not write its pid file $DB_PID" "$LOG/mariadb.err"
    sleep 0.1
  done
}

stop_db() { stop_process "MariaDB" "$DB_PID" mariadbd "$DB_STOP_SECONDS" "$DB_LAUNCH_PID"; }
