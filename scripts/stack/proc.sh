# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # variables shared with scripts/stack.sh and its other parts
# scripts/stack.sh's process handling (sourced): pid files, launching in a session of its own,
# stopping by PID (never by name), the per-VAR_DIR lock.

say() { printf 'stack: %s\n' "$*"; }
warn() { printf 'stack: warning: %s\n' "$*" >&2; }
is_uint() { [[ "$1" =~ ^[0-9]+$ ]]; }

# show_logs LOG...: the last lines of each existing, non-empty log.
show_logs() {
  local file line
  for file in "$@"; do
    [[ -s "$file" ]] || continue
    printf '  --- last lines of %s ---\n' "$file" >&2
    while IFS= read -r line; do printf '  | %s\n' "$line" >&2; done < <(tail -n 25 -- "$file")
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

# read_pid FILE: the PID stored in FILE, or nothing.
read_pid() {
  local pid=""
  if [[ -r "$1" ]]; then read -r pid <"$1" || true; fi
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

running() { alive "$(read_pid "$1")" "$2"; } # running PIDFILE COMM

# wait_gone PID SECONDS: waits until the process is gone; status 1 on timeout.
wait_gone() {
  local pid="$1" deadline=$((SECONDS + $2))
  while exists "$pid"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.1
  done
}

# stop_process LABEL PIDFILE COMM SECONDS [LAUNCHED_PID]: SIGTERM, wait, then SIGKILL. Signals
# only the PID from PIDFILE while it still has the expected name, or the PID this invocation
# launched (still exec'ing into the program when a start fails early).
stop_process() {
  local label="$1" pidfile="$2" comm="$3" timeout="$4" pid name
  pid="$(read_pid "$pidfile")"
  alive "$pid" "$comm" || pid=""
  if [[ -z "$pid" && -n "${5:-}" ]]; then
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

# regex_quote TEXT: TEXT as an extended regular expression matching itself (for pkill -f).
regex_quote() {
  local text="$1" out="" c i
  for ((i = 0; i < ${#text}; i++)); do
    c="${text:i:1}"
    case "$c" in [][\\.*^\$+?\(\){}\|]) out+="\\" ;; esac
    out+="$c"
  done
  printf '%s' "$out"
}

# stop_matching COMMAND_LINE: processes whose command line holds it (only ever this stack's own
# config file or binary copy): TERM, a second, KILL.
stop_matching() {
  local pattern
  pattern="$(regex_quote "$1")"
  pgrep -f -- "$pattern" >/dev/null 2>&1 || return 0
  pkill -TERM -f -- "$pattern" 2>/dev/null || true
  sleep 1
  pkill -KILL -f -- "$pattern" 2>/dev/null || true
  say "stopped leftover processes of $1"
}

# port_busy PORT: something accepts connections on 127.0.0.1:PORT.
port_busy() { timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

# private_log FILE: a log created (or kept) mode 0640: logs name accounts, clients and paths.
private_log() {
  if ! { (umask 027 && touch -- "$1") && chmod 0640 -- "$1"; }; then
    fail "cannot prepare the log $1"
  fi
}

# launch LOGFILE COMMAND...: a long-running program in its own session (Ctrl-C in the terminal
# reaches only this script, which then stops everything in order), stdin from /dev/null, output
# to LOGFILE, without our lock descriptor. Sets LAUNCHED_PID.
launch() {
  local logfile="$1"
  shift
  private_log "$logfile"
  setsid "$@" </dev/null >>"$logfile" 2>&1 9>&- &
  LAUNCHED_PID=$!
  disown "$LAUNCHED_PID" 2>/dev/null || true # no "Killed" job reports from this shell
}

# One stack.sh at a time per VAR_DIR (not held while `run` idles).
lock() {
  exec 9>"$VAR/.stack.lock"
  if ! flock -w "$LOCK_WAIT_SECONDS" 9; then
    printf 'stack: error: another stack.sh is busy with %s\n' "$VAR" >&2
    exit 1
  fi
}
unlock() { exec 9>&-; }

# read_key FILE KEY: the value of the first KEY=VALUE line of FILE (stack.env, my.cnf), or "".
read_key() {
  local key value
  [[ -r "$1" ]] || return 0
  while IFS='=' read -r key value; do
    if [[ "$key" == "$2" ]]; then
      printf '%s' "$value"
      return 0
    fi
  done <"$1"
}
