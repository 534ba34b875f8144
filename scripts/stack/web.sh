# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # variables shared with scripts/stack.sh and its other parts
# scripts/stack.sh's web server (sourced): the admin page's files, lighttpd or Apache from the
# templates in lighttpd-conf/ and apache-conf/, TLS=1's certificate, waiting until it answers.

# render TEMPLATE OUTPUT: the template with @VAR_DIR@, @PORT@, @DB_PORT@, @REPO@, @BUILD@,
# @THREADS@ and @BASE@ filled in (BASE_PATH is validated; the paths come from realpath).
render() {
  local text name value
  [[ -r "$1" ]] || fail "template $1 is missing"
  text="$(<"$1")"
  for name in VAR_DIR PORT DB_PORT REPO BUILD THREADS BASE; do
    case "$name" in
      VAR_DIR) value="$VAR" ;; PORT) value="$PORT" ;; DB_PORT) value="$DB_PORT" ;;
      REPO) value="$REPO" ;; BUILD) value="$BUILD_DIR" ;; THREADS) value="$THREADS" ;;
      BASE) value="$BASE_PATH" ;;
    esac
    text="${text//"@$name@"/"$value"}"
  done
  printf '%s\n' "$text" >"$2.tmp"
  mv -f -- "$2.tmp" "$2"
}

# The admin page under WWW/BASE_PATH/admin, with the chart library from the npm lock file's
# install (make runs npm ci): served from here, never from another origin. Without it the page
# still works and says the chart is missing.
copy_static() {
  local target="$WWW$BASE_PATH/admin" lib="$REPO/node_modules/uplot/dist"
  mkdir -p -- "$WWW$BASE_PATH"
  rm -rf -- "$target.new"
  cp -R -- "$REPO/admin-static" "$target.new"
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
  runuser -u www-data -- test -x "$RUN" && return 0
  local dir="$VAR" blocker=""
  while [[ "$dir" != "/" ]]; do
    if ! runuser -u www-data -- test -x "$dir"; then blocker="$dir"; fi
    dir="$(dirname -- "$dir")"
  done
  fail "Apache runs as www-data, which cannot reach $VAR (${blocker:-a parent directory} is not searchable by others). Use a VAR_DIR whose parents are mode 0755, e.g. VAR_DIR=/tmp/placard-var, or chmod o+x the parents."
}

# write_web_conf TEMPLATE CONF: the rendered template, then WEB_CONF_EXTRA's file when given
# (make bench maps its baselines' sockets that way: scripts/bench/ writes that file).
write_web_conf() {
  render "$1" "$2"
  [[ -z "${WEB_CONF_EXTRA:-}" ]] || cat -- "$WEB_CONF_EXTRA" >>"$2" || fail "cannot read WEB_CONF_EXTRA $WEB_CONF_EXTRA"
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

# web_launch NAME PIDFILE COMM LOG COMMAND...: the server, in the foreground of its session.
web_launch() {
  local name="$1" pidfile="$2" comm="$3" log="$4"
  shift 4
  launch "$log" "$@"
  WEB_LAUNCH_PID="$LAUNCHED_PID"
  echo "$LAUNCHED_PID" >"$pidfile"
  STARTED_WEB=1
  WEB_NAME="$name" WEB_PIDFILE="$pidfile" WEB_COMM="$comm" WEB_LOG="$log"
}

# The access logs name client addresses and user agents: mode 0640 before the server opens them.
web_start() {
  local conf template
  if running "$LIGHTTPD_PID" lighttpd || running "$APACHE_PID" apache2; then
    fail "a web server of this stack already runs; stop the stack first"
  fi
  rm -f -- "$LIGHTTPD_PID" "$APACHE_PID"
  port_busy "$PORT" && fail "port 127.0.0.1:$PORT is already in use by another program; choose another PORT"
  setup_log_header "web server config test"
  if [[ "$SERVER" == lighttpd ]]; then
    conf="$VAR/lighttpd.conf"
    private_log "$LOG/lighttpd-access.log"
    write_web_conf "$REPO/lighttpd-conf/placard.conf.in" "$conf"
    lighttpd -tt -f "$conf" >>"$SETUP_LOG" 2>&1 || fail "lighttpd rejects $conf" "$SETUP_LOG"
    web_launch lighttpd "$LIGHTTPD_PID" lighttpd "$LOG/lighttpd-error.log" lighttpd -D -f "$conf"
  else
    conf="$VAR/apache.conf" template="$REPO/apache-conf/placard-proxy-fcgi.conf.in"
    if [[ "$SERVER" == apache-fcgid ]]; then
      fcgid_prepare
      template="$REPO/apache-conf/placard-fcgid.conf.in"
    fi
    private_log "$LOG/apache-access.log"
    write_web_conf "$template" "$conf"
    tls_config >>"$conf"
    apache2 -t -f "$conf" >>"$SETUP_LOG" 2>&1 || fail "Apache rejects $conf" "$SETUP_LOG"
    rm -f -- "$RUN/apache/httpd.pid"
    web_launch Apache "$APACHE_PID" apache2 "$LOG/apache-error.log" apache2 -f "$conf" -DFOREGROUND
  fi
  wait_web
}

# http_status PATH: the HTTP status of GET SCHEME://127.0.0.1:PORT/BASE_PATH/PATH ("000": none).
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
    exists "$pid" || fail "$WEB_NAME exited while starting" "$WEB_LOG"
    admin="$(http_status /admin/)"
    api="$(http_status /api/v1/config)"
    [[ "$admin" == 200 && "$api" == 200 ]] && return 0
    if ((SECONDS >= deadline)); then
      fail "no answer from $SCHEME://127.0.0.1:$PORT$BASE_PATH within ${WEB_WAIT_SECONDS}s (/admin/ gave $admin, /api/v1/config gave $api)" \
        "$WEB_LOG" "$LOG/placard.out" "$LOG/placard.log"
    fi
    sleep 0.2
  done
}

# Also Apache children that outlived their parent (seen: one hung on a crashed mod_fcgid
# worker, ignored the parent's SIGTERMs and stayed) and mod_fcgid's workers; then the
# www-data copy of the config (SERVER=apache-fcgid) goes with the server.
stop_web() {
  stop_process "lighttpd" "$LIGHTTPD_PID" lighttpd "$WEB_STOP_SECONDS" "$WEB_LAUNCH_PID"
  stop_process "Apache" "$APACHE_PID" apache2 "$WEB_STOP_SECONDS" "$WEB_LAUNCH_PID"
  stop_matching "apache2 -f $VAR/apache.conf"
  stop_matching "$VAR/fcgid/placard.fcgi"
  rm -rf -- "$VAR/fcgid" "$RUN/fcgid"
}
