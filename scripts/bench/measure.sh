# shellcheck shell=bash
# make bench: one measured step (sourced). `measure` runs a step on every side, alternating
# which side goes first from one step to the next, and with BENCH_COMPARE prints the ratio.

# CPU time (clock ticks) used by the parts of the current side's stack, sampled around every
# step, so that the report can show CPU microseconds per request for each part and how busy the
# machine was with other work (the machine is shared: other people's compilers steal cores).
CLK_TCK="$(getconf CLK_TCK)"
proc_ticks() { # [+]PID...: utime+stime; a "+" before the PID adds its waited-for children too
  local total=0 p f with_children
  local -a a
  for p in "$@"; do
    with_children=0
    if [[ "$p" == +* ]]; then with_children=1; p="${p#+}"; fi
    [[ -n "$p" ]] || continue
    f="$(cat "/proc/$p/stat" 2>/dev/null)" || continue
    read -r -a a <<<"${f##*) }" # a[0] is field 3 (state): utime = a[11], stime a[12], cutime a[13], cstime a[14]
    total=$((total + a[11] + a[12]))
    if ((with_children)); then total=$((total + a[13] + a[14])); fi
  done
  printf '%s' "$total"
}
web_pids() {
  local main
  if [[ "$SERVER" == lighttpd ]]; then read_pid "$VAR/run/lighttpd.pid"; return 0; fi
  main="$(read_pid "$VAR/run/apache.pid")"
  [[ -n "$main" ]] || return 0
  printf '+%s' "$main" # exited children are in the parent's cutime
  local kid
  for kid in $(cat "/proc/$main/task/$main/children" 2>/dev/null); do printf ' %s' "$kid"; done
}
busy_ticks() { awk '$1 == "cpu" {print $2 + $3 + $4 + $7 + $8 + $9; exit}' /proc/stat; }
cpu_sample() { # prints: worker echo web db self-children busy bare (either bare program: one runs at a time)
  # shellcheck disable=SC2046 # web_pids is a list of PIDs
  printf '%s %s %s %s %s %s %s' "$(proc_ticks "$(read_pid "$WORKER_PID")")" "$(proc_ticks "$(read_pid "$ECHO_PID")")" \
    "$(proc_ticks $(web_pids))" "$(proc_ticks "$(read_pid "$VAR/run/mariadb.pid")")" "$(proc_ticks +$$)" \
    "$(busy_ticks)" "$(proc_ticks "$(read_pid "$BARE_PID")" "$(read_pid "$DURABLE_PID")")"
}
# cpu_json BEFORE AFTER INIT_US: the cpu_ticks object of a step's summary. INIT_US is wrk's CPU
# before its threads started (reading the step's lines: bench/wrk/step.lua, "One start"), taken
# off wrk's and the machine's figures: it is not spent while the step is measured.
cpu_json() {
  local -a b a
  local init=$((${3:-0} * CLK_TCK / 1000000))
  read -r -a b <<<"$1"
  read -r -a a <<<"$2"
  printf '"cpu_ticks":{"hz":%s,"worker":%s,"echo":%s,"web":%s,"db":%s,"wrk":%s,"busy":%s,"bare":%s}' "$CLK_TCK" \
    $((a[0] - b[0])) $((a[1] - b[1])) $((a[2] - b[2])) $((a[3] - b[3])) $((a[4] - b[4] - init)) \
    $((a[5] - b[5] - init)) $((a[6] - b[6]))
}

# step NAME LABEL PATH MODE LINES COUNT [wrk -H ...]: one wrk run on the current side; its
# summary goes to the side's results.tsv. NAME "warmup-*" is run for 1 s and not reported.
# LINES may contain @DATA@: the side's data directory (its tokens are signed with its keys).
step() {
  local name="$1" label="$2" path="$3" mode="$4" lines="${5//@DATA@/$DATA}" count="$6" duration="$STEP_SECONDS"
  shift 6
  [[ "$name" != warmup-* ]] || duration=1
  say "$(printf '%-20s %s' "$name" "$label")${COMPARE:+ [${SIDE_NAME[$SIDE]}]}"
  local raw="$RAW/$name${SIDE_SUFFIX:-}.txt" json before after
  before="$(cpu_sample)"
  if ! BENCH_MODE="$mode" BENCH_LINES="$lines" BENCH_THREADS="$WRK_THREADS" BENCH_COUNT="$count" \
    timeout -k 5 $((duration + 60)) wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"${duration}s" \
    --timeout 5s --latency -s "$LUA" "$@" "$BASE_URL$path" >"$raw" 2>&1; then
    cat "$raw" >&2
    die "wrk failed in step $name"
  fi
  after="$(cpu_sample)"
  json="$(sed -n 's/^BENCHJSON //p' "$raw" | tail -n 1)"
  [[ -n "$json" ]] || { cat "$raw" >&2; die "no summary from wrk in step $name"; }
  json="${json%\}},$(cpu_json "$before" "$after" "$(json_field "$json" 'd.get("init_cpu_us", 0)')"),\"load\":\"$(cut -d' ' -f1 /proc/loadavg)\"}"
  [[ "$name" == warmup-* ]] || printf '%s\t%s\t%s\n' "$name" "$label" "$json" >>"$RESULTS"
  LAST_JSON="$json"
}

# quiet_stacks: up to 30 s until every side's MariaDB and worker together use less than 4 % of a
# core each over a second. An event step leaves work behind it (the rollup pass of its last
# second's events, their marks, InnoDB's purge and flushing); measured without this wait, the
# next step paid for it, and with BENCH_COMPARE the side measured second in a step paid for the
# first side's: a step's order is fixed by its place in the run, and the click steps, measured
# second for this tree, read 0.88-0.96x with equal CPU per click on both sides (docs/performance.md,
# "One more event run").
quiet_stacks() {
  local pids=() i
  for ((i = 0; i < $(n_sides); i++)); do
    pids+=("$(read_pid "${SIDE_VAR[$i]}/run/mariadb.pid")" "$(read_pid "${SIDE_VAR[$i]}/run/placard.pid")")
  done
  if wait_quiet $((4 * CLK_TCK * $(n_sides) / 100)) proc_ticks "${pids[@]}"; then
    ((QUIET_AFTER == 1)) || say "  stacks quiet after $QUIET_AFTER s"
  else
    say "  stacks still busy after 30 s; measuring anyway"
  fi
}

# measure NAME LABEL PATH MODE LINES COUNT [wrk -H ...]: the step on every side, each once the
# stacks are quiet (quiet_stacks). Leaves LAST_JSON as side 0's summary.
MEASURED=0
measure() {
  local n i order json0="" json1=""
  n="$(n_sides)"
  if ((n == 1)); then
    use_side 0
    [[ "$1" == warmup-* ]] || quiet_stacks
    step "$@"
    return 0
  fi
  order=(0 1)
  ((MEASURED % 2 == 0)) || order=(1 0)
  MEASURED=$((MEASURED + 1))
  for i in "${order[@]}"; do
    use_side "$i"
    SIDE_SUFFIX=""
    ((i == 0)) || SIDE_SUFFIX=-compare
    [[ "$1" == warmup-* ]] || quiet_stacks
    step "$@"
    if ((i == 0)); then json0="$LAST_JSON"; else json1="$LAST_JSON"; fi
  done
  SIDE_SUFFIX=""
  use_side 0
  LAST_JSON="$json0"
  [[ "$1" != warmup-* ]] || return 0
  compare_line "$1" "$json0" "$json1"
}

# The ratio of one step between the two sides, printed at once and kept for the report.
compare_line() { # NAME JSON_THIS JSON_COMPARE
  local line
  line="$(python3 - "$@" <<'PY'
import json, sys
name, a, b = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
def rps(d): return d["requests"] * 1e6 / d["duration_us"] if d["duration_us"] else 0.0
def app(d):
    c = d["cpu_ticks"]
    t = c["bare"] if name.startswith("bare") else c["echo"] if name.startswith("echo") else c["worker"]
    return t / c["hz"] * 1e6 / d["requests"] if d["requests"] else 0.0
def db(d):  # each side's own MariaDB
    c = d["cpu_ticks"]
    return c["db"] / c["hz"] * 1e6 / d["requests"] if d["requests"] else 0.0
ra, rb = rps(a), rps(b)
print("%s\t%.0f\t%.0f\t%.3f\t%.0f\t%.0f\t%.0f\t%.0f" % (name, ra, rb, ra / rb if rb else 0.0, app(a), app(b),
                                                  db(a), db(b)))
PY
)"
  printf '%s\n' "$line" >>"$OUT/compare.tsv"
  local -a f
  IFS=$'\t' read -r -a f <<<"$line"
  say "$(printf '  %-18s this %s req/s, %s %s req/s: ratio %s (app us/req %s vs %s, db %s vs %s)' "${f[0]}" \
    "${f[1]}" "$COMPARE" "${f[2]}" "${f[3]}" "${f[4]}" "${f[5]}" "${f[6]}" "${f[7]}")"
}
