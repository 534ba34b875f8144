# shellcheck shell=bash
# make bench: preflight, the machine's description, and starting a side's stack with its
# baselines (sourced).
# shellcheck disable=SC2034 # BENCH_START and STACK_STARTED are read by bench.sh and sides.sh

preflight() {
  local tool
  for tool in wrk mariadb python3 curl; do
    command -v "$tool" >/dev/null || die "$tool is missing (Debian: apt-get install wrk mariadb-client python3 curl)"
  done
  [[ -x "$BUILD_DIR/placard.fcgi" ]] || die "$BUILD_DIR/placard.fcgi is missing; run: make"
  [[ -x "$BUILD_DIR/placardctl" ]] || die "$BUILD_DIR/placardctl is missing; run: make"
  [[ -x "$BARE" ]] || die "$BARE is missing; run: make bench (it builds bench/bare/)"
  mkdir -p -- "$OUT"
  : >"$HARNESS_LOG"
  rm -rf -- "$RAW" "$OUT"/data "$OUT"/data-compare
  rm -f -- "$OUT"/results*.tsv "$OUT"/meta*.txt "$OUT/compare.tsv" "$OUT/report.md" "$OUT/report.svg" "$OUT/report.json"
  mkdir -p -- "$RAW"
}

# A fresh state directory for the current side every run, but only ever wipe one this harness made.
fresh_state() {
  if [[ -e "$VAR" ]]; then
    if [[ ! -e "$MARK" ]] && [[ -n "$(ls -A -- "$VAR" 2>/dev/null)" ]]; then
      die "$VAR exists and was not made by make bench; remove it or choose another BENCH_VAR_DIR"
    fi
    stop_side
    rm -rf -- "$VAR"
  fi
  mkdir -p -- "$VAR/run" "$VAR/log" "$VAR/www/bench" "$DATA"
  chmod 0755 -- "$VAR" "$VAR/run" "$VAR/log" "$VAR/www" "$VAR/www/bench"
  touch -- "$MARK"
  local p
  for p in "$PORT" "$DB_PORT"; do
    ! port_busy "$p" || die "127.0.0.1:$p is in use; choose another BENCH_PORT (18300-18399 on shared machines)"
  done
  # Apache's children (www-data) must reach VAR_DIR.
  if [[ "$SERVER" == apache && "$(id -u)" -eq 0 ]]; then
    runuser -u www-data -- test -x "$VAR/run" ||
      die "www-data cannot reach $VAR (a parent directory is not 0755); set BENCH_VAR_DIR=/tmp/placard-bench-$BENCH_PORT0"
  fi
}
port_busy() { timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

describe_run() {
  BENCH_START=$SECONDS
  meta started "$(date -u +%FT%TZ)"
  local cmdline="${MAKELEVEL:+make bench (}bash scripts/bench.sh${MAKELEVEL:+)}"
  meta command "$cmdline"
  meta env "$({ env | grep -E '^BENCH_' || true; } | sort | tr '\n' ' ' | sed 's/ $//')"
  meta server "$SERVER"
  meta port "$PORT"
  meta worker_threads "$THREADS"
  meta wrk "-t$WRK_THREADS -c$CONNECTIONS -d${STEP_SECONDS}s --timeout 5s --latency"
  meta step_seconds "$STEP_SECONDS"
  meta flush_at_commit "$FLUSH"
  meta redo_mb "$REDO_MB"
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
  meta compare "$COMPARE"
  meta load_start "$(cut -d' ' -f1-3 /proc/loadavg)"
}

# Starts a FastCGI baseline in the background: PIDFILE SOCKET LOGNAME COMMAND...
start_baseline() {
  local pidfile="$1" sock="$2" logname="$3"
  shift 3
  env -u PLACARD_LISTEN -u PLACARD_THREADS -u PLACARD_CONFIG PLACARD_LOG_FILE="$VAR/log/$logname.log" \
    setsid "$@" </dev/null >>"$VAR/log/$logname.out" 2>&1 &
  echo $! >"$pidfile"
  disown $! 2>/dev/null || true
  for _ in $(seq 100); do [[ -S "$sock" ]] && break; sleep 0.1; done
  [[ -S "$sock" ]] || die "$logname did not create $sock"
}

# start_side: the current side's stack, its `--bench-echo` worker (our pool, no handler) and,
# on side 0, the bare libfcgi program and the durable baseline; /bench/echo, /bench/bare and
# /bench/durable map to them.
start_side() {
  # Their sockets, like the worker's, are mode 0660 with the web server's group.
  local group
  group="$(id -gn)"
  if [[ "$SERVER" == apache && "$(id -u)" -eq 0 ]]; then group=www-data; fi
  local durable_threads=$((CONNECTIONS > THREADS ? CONNECTIONS : THREADS))
  if ((SIDE == 0)); then
    say "[${SIDE_NAME[$SIDE]}] starting the baselines ($THREADS threads each, the durable one $durable_threads) under $VAR/run"
    start_baseline "$BARE_PID" "$BARE_SOCK" bench-bare "$BARE" "$BARE_SOCK" "$THREADS" "$group"
    # The durable baseline of the event steps: the same program, each POST's body appended to a
    # file and fdatasync'd (group commit) before its answer. One thread per wrk connection, so that
    # as many bodies can share a flush as the worker's writer can share a commit.
    rm -f -- "$DURABLE_JOURNAL"
    start_baseline "$DURABLE_PID" "$DURABLE_SOCK" bench-bare-durable "$BARE" "$DURABLE_SOCK" \
      "$durable_threads" "$group" --journal "$DURABLE_JOURNAL"
    start_baseline "$ECHO_PID" "$ECHO_SOCK" bench-echo "$FCGI" --bench-echo --listen "unix:$ECHO_SOCK" \
      --threads "$THREADS" --socket-group "$group"
  else # a commit from before --socket-group: its own default mode
    say "[${SIDE_NAME[$SIDE]}] starting the echo baseline ($THREADS threads) under $VAR/run"
    start_baseline "$ECHO_PID" "$ECHO_SOCK" bench-echo "$FCGI" --bench-echo --listen "unix:$ECHO_SOCK" \
      --threads "$THREADS"
    chmod 0666 -- "$ECHO_SOCK"
  fi
  # The 1 KiB static file, served from the web server's document root.
  python3 -c 'import sys; sys.stdout.write(("placard bench static file " * 60)[:1023] + "\n")' \
    >"$VAR/www/bench/static-1k.txt"
  chmod 0644 -- "$VAR/www/bench/static-1k.txt"

  say "[${SIDE_NAME[$SIDE]}] starting the stack: $SERVER on 127.0.0.1:$PORT, MariaDB on 127.0.0.1:$DB_PORT, $THREADS worker threads ($VAR)"
  STACK_STARTED=1
  bench_web_conf
  stack start >>"$HARNESS_LOG" 2>&1 || die "scripts/stack.sh start failed; see $HARNESS_LOG"
  # The *-clients event steps send X-Forwarded-For from wrk on 127.0.0.1: trust it as a proxy
  # (steps without the header still come from the one client 127.0.0.1). Read at start: restart.
  if grep -q '^trusted_proxies' "$VAR/placard.conf"; then
    sed -i 's/^trusted_proxies *=.*/trusted_proxies = 127.0.0.1/' "$VAR/placard.conf"
    grep -q '^trusted_proxies = 127.0.0.1$' "$VAR/placard.conf" || die "could not set trusted_proxies in $VAR/placard.conf"
    stack stop >>"$HARNESS_LOG" 2>&1 || die "scripts/stack.sh stop failed; see $HARNESS_LOG"
    stack start >>"$HARNESS_LOG" 2>&1 || die "scripts/stack.sh start failed; see $HARNESS_LOG"
  elif ((SIDE == 0)); then
    die "$VAR/placard.conf has no trusted_proxies line"
  fi
  db -e "SET GLOBAL innodb_flush_log_at_trx_commit = $FLUSH"
  # The redo log as docs/operations.md recommends for event load ("MariaDB for event load"):
  # at 64 MiB, the event steps filled it in ~7 s and every commit then waited for page flushing
  # (50-440 ms stalls; MariaDB 10.11 resizes it online).
  db -e "SET GLOBAL innodb_log_file_size = $REDO_MB * 1024 * 1024"
  local path code paths=(/bench/static-1k.txt /bench/echo)
  ((SIDE != 0)) || paths+=(/bench/bare)
  for path in "${paths[@]}"; do
    code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$BASE_URL$path" || true)"
    [[ "$code" == 200 ]] || die "GET $path answered $code, not 200 (scripts/stack.sh with WEB_CONF_EXTRA, or BENCH_ECHO_SOCKET and BENCH_BARE_SOCKET)"
  done
  if ((SIDE == 0)); then # the durable baseline, not the bare program behind a prefix that matched
    local answer
    answer="$(curl -s --max-time 5 -H 'Content-Type: application/json' --data '{"impressionToken":"check"}' \
      "$BASE_URL/bench/durable" || true)"
    [[ "$answer" == '{"recorded":true}' ]] || die "POST /bench/durable answered '${answer:0:80}', not the durable baseline's {\"recorded\":true}"
  fi
}
