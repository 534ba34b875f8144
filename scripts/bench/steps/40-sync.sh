# shellcheck shell=bash
# Group "sync": 100,000 offers from the stand-in network (placardctl sync, the job the admin API
# runs) while wrk keeps the offers query under load for exactly as long as the sync runs; the
# query's rate then is compared with its rate just before (query-sync-base), as a ratio.
# The working tree only (not measured on a BENCH_COMPARE side).

group_sync() {
  ensure_big_catalog
  use_side 0
  step query-sync-base "offers query, $OFFERS offers, before the sync" "$Q" body "$DATA/query-mix.txt" offers "${AE[@]}"
  local base_rps sync_pid wrk_pid before after json sync_json during_rps ratio
  base_rps="$(json_field "$LAST_JSON" 'd["requests"] * 1e6 / d["duration_us"]')"
  say "$(printf '%-20s %s' sync "network sync of $SYNC_OFFERS offers from the stand-in, offers query under load")"
  rm -f -- "$RAW/sync-ready"
  python3 "$REPO/bench/sync_bench.py" --config "$VAR/placard.conf" --ctl "$CTL" --mycnf "$MYCNF" \
    --base-url "$BASE_URL" --password-file "$VAR/admin-password" --offers "$SYNC_OFFERS" \
    --ready "$RAW/sync-ready" >"$RAW/sync.txt" 2>&1 &
  sync_pid=$!
  for _ in $(seq 1 300); do [[ -e "$RAW/sync-ready" ]] || ! kill -0 "$sync_pid" 2>/dev/null && break; sleep 0.1; done
  [[ -e "$RAW/sync-ready" ]] || { cat "$RAW/sync.txt" >&2; die "the sync step did not start"; }
  before="$(cpu_sample)"
  BENCH_MODE=body BENCH_LINES="$DATA/query-mix.txt" BENCH_THREADS="$WRK_THREADS" BENCH_COUNT=offers \
    wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d600s --timeout 5s --latency -s "$LUA" "${AE[@]}" \
    "$BASE_URL$Q" >"$RAW/query-during-sync.txt" 2>&1 &
  wrk_pid=$!
  wait "$sync_pid" || { cat "$RAW/sync.txt" >&2; kill -INT "$wrk_pid" 2>/dev/null; die "the sync step failed"; }
  kill -INT "$wrk_pid" 2>/dev/null || true
  wait "$wrk_pid" || true
  after="$(cpu_sample)"
  json="$(sed -n 's/^BENCHJSON //p' "$RAW/query-during-sync.txt" | tail -n 1)"
  [[ -n "$json" ]] || { cat "$RAW/query-during-sync.txt" >&2; die "no summary from wrk during the sync"; }
  json="${json%\}},$(cpu_json "$before" "$after")}"
  printf '%s\t%s\t%s\n' query-during-sync "offers query, $OFFERS offers, during the sync" "$json" >>"$RESULTS"
  sync_json="$(sed -n 's/^BENCHSYNC //p' "$RAW/sync.txt" | tail -n 1)"
  [[ -n "$sync_json" ]] || { cat "$RAW/sync.txt" >&2; die "no summary from the sync step"; }
  during_rps="$(json_field "$json" 'd["requests"] * 1e6 / d["duration_us"]')"
  ratio="$(python3 -c "print(round($during_rps / $base_rps, 3))")"
  meta sync_json "$sync_json"
  meta sync_query_ratio "$ratio"
  say "sync: $(json_field "$sync_json" 'd["seconds"]') s for $SYNC_OFFERS offers ($(json_field "$sync_json" 'd["summary"]')); offers query during the sync at $ratio of its rate before ($(printf '%.0f' "$during_rps") vs $(printf '%.0f' "$base_rps") requests/s)"
}
