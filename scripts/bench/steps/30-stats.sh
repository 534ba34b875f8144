# shellcheck shell=bash
# Group "stats": rollups of 50 million events over 366 days and 100,000 offers (generated
# directly), then GET /admin/api/v1/stats signed in, one request at a time (bench/stats_bench.py).
# The working tree only (not measured on a BENCH_COMPARE side).

group_stats() {
  use_side 0
  say "$(printf '%-20s %s' stats "GET /admin/api/v1/stats, 366 days, 100,000 offers (filling rollups first)")"
  python3 "$REPO/bench/stats_bench.py" --mycnf "$MYCNF" --base-url "$BASE_URL" \
    --password-file "$VAR/admin-password" >"$RAW/stats.txt" 2>&1 || { cat "$RAW/stats.txt" >&2; die "the stats step failed"; }
  meta stats_json "$(sed -n 's/^BENCHSTATS //p' "$RAW/stats.txt" | tail -n 1)"
}
