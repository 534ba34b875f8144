# shellcheck shell=bash
# Group "scale": the impression step again, on a raw table grown past MariaDB's buffer pool
# (issue 24). A deployment keeps `rawEventRetentionDays` (90) of raw events: millions of rows,
# and indexes larger than a small host's buffer pool. An index whose keys arrive in random order
# (a random token nonce, a client hash) then needs a random page per recorded event, read from
# disk; keys led by the time (lib/tokens/token_nonce.h, api::ClientHasher) take the recent events
# at one end of each index. The history is BENCH_SCALE_ROWS rows over 89 days with random keys,
# as a deployment has before this layout (the worst case for it: its own history would be led by
# the time too), bulk-loaded into the emptied table and marked rolled up. Each side's tokens are
# minted in the layout that side's own offers query hands out (bench/nonce_layout.py). Runs after
# the events group, whose checks have been taken by then.

scale_fill_side() {
  local first last
  live_offers_side
  first="$(db -e "SELECT GREATEST((SELECT COALESCE(MAX(id), 0) FROM impressions),
                                  (SELECT last_id FROM rollup_progress WHERE name = 'impressions')) + 1")"
  last=$((first + SCALE_ROWS - 1))
  say "[${SIDE_NAME[$SIDE]}] impressions: $SCALE_ROWS rows of history, ids $first..$last"
  # Under the rollup's named lock, so no pass counts the history before it is marked rolled up;
  # into an emptied table with unique checks off, so InnoDB builds the indexes by sorting (a
  # minute) instead of by random inserts (a quarter of an hour).
  db -e "SELECT GET_LOCK('placard.rollup', 60) INTO @locked;
         TRUNCATE impressions;
         SET unique_checks = 0, foreign_key_checks = 0;
         INSERT INTO impressions (id, token_nonce, offer_id, placement, country, issued_at,
                                  client_hash, recorded_at)
           SELECT $first + seq, RANDOM_BYTES(16), 1 + seq % 5000, 'popup-main', 'US',
                  FROM_UNIXTIME(t), RANDOM_BYTES(16), FROM_UNIXTIME(t)
           FROM (SELECT seq, UNIX_TIMESTAMP() - 89 * 86400 + FLOOR(seq * (89 * 86400 / $SCALE_ROWS)) AS t
                 FROM seq_0_to_$((SCALE_ROWS - 1))) history;
         SET unique_checks = 1, foreign_key_checks = 1;
         UPDATE rollup_progress SET last_id = $last WHERE name = 'impressions';
         DO RELEASE_LOCK('placard.rollup')" >>"$HARNESS_LOG" 2>&1 ||
    die "filling the history of impressions failed; see $HARNESS_LOG"
  local layout tokens
  tokens="$(step_tokens)"
  layout="$(python3 "$REPO/bench/nonce_layout.py" "$BASE_URL" "$DATA/query-mix.txt")" ||
    die "could not tell the nonce layout of ${SIDE_NAME[$SIDE]}"
  say "[${SIDE_NAME[$SIDE]}] minting $tokens impression tokens, nonces laid out '$layout' as its query hands them out"
  mint --kind impression --count "$tokens" --nonce-layout "$layout" --out "$DATA/impressions-scale.txt"
  scale_last[SIDE]="$last"
}

# InnoDB pages read from disk so far (Innodb_buffer_pool_reads).
page_reads() { db -e "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_reads'" | cut -f2; }

# Until the bulk load's pages are written (at most 120 s): the step measures the recorded events'
# own page reads and writes, not the load's.
scale_settle_side() {
  local dirty
  for _ in $(seq 1 240); do
    dirty="$(db -e "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'" | cut -f2)"
    ((dirty <= 2000)) && break
    sleep 0.5
  done
  say "[${SIDE_NAME[$SIDE]}] $dirty dirty pages left in the buffer pool"
  scale_reads_before[SIDE]="$(page_reads)"
}

# "new rows, page reads" of the step; then the history goes (a gigabyte and more per side).
scale_result_side() {
  scale_result[SIDE]="$(db -e "SELECT COUNT(*) FROM impressions WHERE id > ${scale_last[SIDE]}") $(($(page_reads) - scale_reads_before[SIDE]))"
  db -e "TRUNCATE impressions" >>"$HARNESS_LOG" 2>&1
}

group_scale() {
  ensure_big_catalog
  declare -ga scale_last=() scale_reads_before=() scale_result=()
  for_sides scale_fill_side
  for_sides scale_settle_side
  BENCH_CLIENTS=65536 measure impression-scale \
    "impression, fresh tokens, 65,536 clients, $SCALE_ROWS rows of history" \
    /api/v1/events/impression impression "@DATA@/impressions-scale.txt" words
  for_sides scale_result_side
  meta scale_rows "$SCALE_ROWS"
  local i rows reads suffix
  for ((i = 0; i < $(n_sides); i++)); do
    read -r rows reads <<<"${scale_result[i]}"
    suffix="$( ((i == 0)) || echo _compare)"
    meta "scale_new_rows$suffix" "$rows"
    meta "scale_page_reads$suffix" "$reads"
  done
}
