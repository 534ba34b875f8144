# shellcheck shell=bash
# Group "events": impressions and clicks with fresh tokens, from one client and from 65,536,
# and the checks that every `recorded` answer was committed and counted exactly once.

# Live, non-demo offers with a tracking URL (the click step needs them to redirect), for tokens.
live_offers_side() {
  db -e "SELECT o.id, MIN(oc.country_code) FROM offers o JOIN offer_countries oc ON oc.offer_id = o.id
         WHERE o.enabled AND NOT o.is_demo AND o.tracking_url IS NOT NULL
           AND (o.valid_from IS NULL OR o.valid_from <= UTC_TIMESTAMP())
           AND (o.valid_until IS NULL OR o.valid_until > UTC_TIMESTAMP() + INTERVAL 1 DAY)
         GROUP BY o.id ORDER BY RAND(7) LIMIT 5000" >"$DATA/live-offers.txt"
  [[ -s "$DATA/live-offers.txt" ]] || die "no live offers to mint tokens for"
}

# Tokens per event step: enough for a step as fast as the bare baseline, at most a million.
step_tokens() {
  local tokens=$((BARE_RPS * STEP_SECONDS * 5 / 4 + 2000))
  echo $((tokens <= 1000000 ? tokens : 1000000))
}

# Tokens for the live offers, signed with the current side's keys (bench/mint_tokens.py's options).
mint() { python3 "$REPO/bench/mint_tokens.py" --config "$VAR/placard.conf" --offers "$DATA/live-offers.txt" "$@"; }

mint_side_tokens() {
  live_offers_side
  local tokens
  tokens="$(step_tokens)"
  say "[${SIDE_NAME[$SIDE]}] minting $tokens tokens per event step; recording 1000 impressions for the repeat step"
  mint --kind impression --count 1000 --out "$DATA/impressions-repeat.txt" --record "$BASE_URL"
  mint --kind impression --count "$tokens" --out "$DATA/impressions-fresh.txt"
  mint --kind click --count "$tokens" --out "$DATA/clicks.txt"
  mint --kind impression --count "$tokens" --out "$DATA/impressions-fresh-clients.txt"
  mint --kind click --count "$tokens" --out "$DATA/clicks-clients.txt"
}

# Up to 30 s until the disk under the state directory writes less than 1 MiB in a second: after
# the event steps MariaDB flushes dirty pages for a while, and an fdatasync measured during that
# flushing waits behind it (the durable baseline read 0.58x bare right after the event steps of
# a two-stack run, 0.64-0.79x on a quiet disk).
disk_sectors_written() { awk -v d="$1" '$3 == d {print $10}' /proc/diskstats; }
wait_disk_quiet() {
  local dev
  dev="$(basename "$(df --output=source "$VAR" | tail -n 1)")"
  if wait_quiet $((1048576 / 512)) disk_sectors_written "$dev"; then
    say "disk $dev quiet after $QUIET_AFTER s"
  else
    say "disk $dev still writing after 30 s; measuring anyway"
  fi
}

# The durable baseline (bench/bare/ with --journal): the impression step's own POSTs, each body
# fdatasync'd with its group before the answer. What answering only once an event is on disk
# costs on this machine, nothing of ours; the report sets the event steps beside it. Run by
# scripts/bench.sh after every group, on a quiet disk, so that it precedes no measured step.
durable_baseline() {
  wait_disk_quiet
  use_side 0
  step bare-durable "durable baseline: bare program, each body fdatasync'd (group commit)" /bench/durable \
    impression "@DATA@/impressions-fresh.txt" words
}

group_events() {
  ensure_big_catalog
  for_sides mint_side_tokens
  local rows_before rows_after clicks_before
  rows_before="$(db -e 'SELECT COUNT(*) FROM impressions')"
  measure impression-fresh "impression, fresh tokens" /api/v1/events/impression impression \
    "@DATA@/impressions-fresh.txt" words
  rows_after="$(db -e 'SELECT COUNT(*) FROM impressions')"
  meta impressions_recorded_answers "$(json_field "$LAST_JSON" 'd["recorded"]')"
  meta impressions_new_rows "$((rows_after - rows_before))"
  measure impression-repeat "impression, repeated tokens" /api/v1/events/impression impression \
    "@DATA@/impressions-repeat.txt" words
  meta impressions_rows_after_repeat "$(db -e 'SELECT COUNT(*) FROM impressions')"
  meta impressions_rows_before_repeat "$rows_after"

  clicks_before="$(db -e 'SELECT COUNT(*) FROM clicks')"
  measure click "click redirect (302)" /r/click path "@DATA@/clicks.txt" ""
  meta clicks_new_rows "$(($(db -e 'SELECT COUNT(*) FROM clicks') - clicks_before))"
  # The same two steps from 65,536 clients (X-Forwarded-For): what real traffic looks like (no
  # event over a per-client limit).
  rows_before="$(db -e 'SELECT COUNT(*) FROM impressions')"
  BENCH_CLIENTS=65536 measure impression-fresh-clients "impression, fresh tokens, 65,536 clients" \
    /api/v1/events/impression impression "@DATA@/impressions-fresh-clients.txt" words
  meta impressions_clients_recorded_answers "$(json_field "$LAST_JSON" 'd["recorded"]')"
  meta impressions_clients_new_rows "$(($(db -e 'SELECT COUNT(*) FROM impressions') - rows_before))"
  BENCH_CLIENTS=65536 measure click-clients "click redirect (302), 65,536 clients" /r/click path \
    "@DATA@/clicks-clients.txt" ""
  # The workers' rollup step counts recorded events every second: once it has caught up (at most
  # 10 s), the rollups must count exactly the raw rows.
  local caught_up
  for _ in $(seq 1 100); do
    caught_up="$(db -e "SELECT (SELECT COALESCE(MAX(id), 0) FROM impressions) <= (SELECT last_id FROM rollup_progress WHERE name = 'impressions') AND (SELECT COALESCE(MAX(id), 0) FROM clicks) <= (SELECT last_id FROM rollup_progress WHERE name = 'clicks')")"
    [[ "$caught_up" == 1 ]] && break
    sleep 0.1
  done
  # Counted and ignored (over a per-client limit) together: every raw row once.
  meta rollup_impressions "$(db -e "SELECT COALESCE(SUM(impressions + ignored_impressions), 0) FROM stats_daily WHERE dim = 'placement'")"
  meta rollup_clicks "$(db -e "SELECT COALESCE(SUM(clicks + ignored_clicks), 0) FROM stats_daily WHERE dim = 'placement'")"
  meta raw_impressions "$(db -e 'SELECT COUNT(*) FROM impressions')"
  meta raw_clicks "$(db -e 'SELECT COUNT(*) FROM clicks')"
}
