# shellcheck shell=bash
# Group "registration" (issue 22): GET /api/v1/config under wrk, without and then during a flood
# of registrations and sign-ins from 32 clients (bench/registration_flood.py); the figure is its
# p99 in both, and the worker's peak RSS. The working tree only.

group_registration() {
  use_side 0
  step config-flood-base "GET /api/v1/config, before the registration flood" /api/v1/config plain "" ""
  local base_json="$LAST_JSON" flood_json flood_pid
  say "$(printf '%-20s %s' registration "32 clients register and sign in as fast as they can")"
  rm -f -- "$RAW/flood-ready"
  python3 "$REPO/bench/registration_flood.py" --base-url "$BASE_URL" --pid-file "$WORKER_PID" \
    --seconds "$((STEP_SECONDS + 2))" --ready "$RAW/flood-ready" >"$RAW/flood.txt" 2>&1 &
  flood_pid=$!
  for _ in $(seq 1 100); do [[ -e "$RAW/flood-ready" ]] || ! kill -0 "$flood_pid" 2>/dev/null && break; sleep 0.1; done
  step config-during-flood "GET /api/v1/config, during the registration flood" /api/v1/config plain "" ""
  wait "$flood_pid" || { cat "$RAW/flood.txt" >&2; die "the registration flood failed"; }
  flood_json="$(sed -n 's/^BENCHFLOOD //p' "$RAW/flood.txt" | tail -n 1)"
  [[ -n "$flood_json" ]] || { cat "$RAW/flood.txt" >&2; die "no summary from the registration flood"; }
  meta registration_flood_json "$flood_json"
  say "registration flood: GET /api/v1/config p99 $(json_field "$LAST_JSON" 'round(d["latency_us"]["p99"] / 1000, 1)') ms during vs $(json_field "$base_json" 'round(d["latency_us"]["p99"] / 1000, 1)') ms without; worker RSS peak $(json_field "$flood_json" 'd["rss_peak_kb"] // 1024') MiB; $(json_field "$flood_json" 'd["answers"]')"
}
