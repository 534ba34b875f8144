# shellcheck shell=bash
# make bench: small helpers shared by every part (sourced by scripts/bench.sh).

say() { printf 'bench: %s\n' "$*"; }
die() {
  printf 'bench: error: %s\n' "$*" >&2
  exit 1
}

is_uint() { [[ "$1" =~ ^[0-9]+$ ]]; }
need_uint() { # NAME VALUE MIN MAX
  is_uint "$2" && ((10#$2 >= $3 && 10#$2 <= $4)) || die "$1 must be an integer $3..$4, not '$2'"
}

read_pid() {
  local pid=""
  [[ -r "$1" ]] && read -r pid <"$1" || true
  if is_uint "$pid" && ((pid > 1)); then printf '%s' "$pid"; fi
}

alive() { # PID COMM
  [[ -n "$1" && -r "/proc/$1/comm" ]] && [[ "$(cat "/proc/$1/comm" 2>/dev/null)" == "$2" ]] &&
    ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null
}

# wait_quiet LIMIT SAMPLER [ARG...]: up to 30 s, until the counter SAMPLER prints grows by less
# than LIMIT over one second (a counter that cannot be read counts as quiet). QUIET_AFTER is the
# seconds it waited; returns 1 when still busy after 30 s.
QUIET_AFTER=0
wait_quiet() {
  local limit="$1" before after
  shift
  # shellcheck disable=SC2034 # QUIET_AFTER is read by the callers
  for QUIET_AFTER in $(seq 1 30); do
    before="$("$@")"
    sleep 1
    after="$("$@")"
    if [[ -z "$before" || -z "$after" ]] || ((after - before < limit)); then return 0; fi
  done
  return 1
}

# stop_pidfile PIDFILE COMM [SOCKET]: stops the process we started (by its PID file), then
# removes the PID file and its socket.
stop_pidfile() {
  local pid
  pid="$(read_pid "$1")"
  if alive "$pid" "$2"; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 100); do alive "$pid" "$2" || break; sleep 0.1; done
    if alive "$pid" "$2"; then kill -KILL "$pid" 2>/dev/null || true; fi
  fi
  rm -f -- "$1" ${3:+"$3"}
}

# meta KEY VALUE: one line of the current side's meta file (read by bench/report.py).
meta() { printf '%s=%s\n' "$1" "$2" >>"$META"; }

json_field() { # JSON EXPR (python expression over d)
  python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2"
}
