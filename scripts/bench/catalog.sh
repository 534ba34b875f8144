# shellcheck shell=bash
# make bench: the generated catalog on the current side (sourced).

catalog_version() { db -e "SELECT version FROM catalog_version WHERE id = 1"; }

# wait_snapshot VERSION: waits for the worker's log line about that version; sets LIVE, BUILD_MS.
wait_snapshot() {
  local version="$1" line="" deadline=$((SECONDS + 300))
  while :; do
    line="$(grep -a "catalog: snapshot version $version with " "$PLACARD_LOG" | tail -n 1 || true)"
    [[ -z "$line" ]] || break
    ((SECONDS < deadline)) || die "the worker did not build catalog version $version within 300 s"
    sleep 0.05
  done
  LIVE="$(sed -n 's/.* with \([0-9]*\) live offers.*/\1/p' <<<"$line")"
  BUILD_MS="$(sed -n 's/.* built in \([0-9]*\) ms.*/\1/p' <<<"$line")"
}

worker_status() { # FIELD (VmRSS, VmHWM): kB
  local pid
  pid="$(read_pid "$WORKER_PID")"
  alive "$pid" placard.fcgi || die "placard.fcgi (pid ${pid:-?}) is not running"
  awk -v f="$1:" '$1 == f {print $2}' "/proc/$pid/status"
}

# The base catalog (countries, categories, placements) and the query mixes. Each side loads
# with its own commit's generator (it matches that commit's schema; both are deterministic).
load_base() {
  python3 "$SREPO/bench/gen_catalog.py" base | db
  catalog_bump
  wait_snapshot "$(catalog_version)"
  python3 "$REPO/bench/gen_query_mix.py" --lines 2000 >"$DATA/query-mix.txt"
  python3 "$REPO/bench/gen_query_mix.py" --lines 2000 --scale >"$DATA/query-scale.txt"
}

# load_offers LABEL N: replaces the offers, waits for the rebuilt snapshot, records its figures.
load_offers() {
  local label="$1" n="$2" t0 version
  say "[${SIDE_NAME[$SIDE]}] loading $n offers"
  t0=$(date +%s%N)
  python3 "$SREPO/bench/gen_catalog.py" offers "$n" | db
  catalog_bump
  meta "catalog_${label}_load_ms" "$((($(date +%s%N) - t0) / 1000000))"
  version="$(catalog_version)"
  wait_snapshot "$version"
  sleep 0.5 # let the old snapshot go
  meta "catalog_${label}_offers" "$n"
  meta "catalog_${label}_live" "$LIVE"
  meta "catalog_${label}_rebuild_ms" "$BUILD_MS"
  meta "catalog_${label}_rss_kb" "$(worker_status VmRSS)"
  say "  snapshot version $version: $LIVE live offers, built in $BUILD_MS ms; worker VmRSS $(worker_status VmRSS) kB"
}

# The big catalog, on every side, once (the groups that need it call this).
BIG_LOADED=0
ensure_big_catalog() {
  ((BIG_LOADED)) && return 0
  for_sides load_offers big "$OFFERS"
  BIG_LOADED=1
}

# The big catalog once more, now that the worker has served load: rebuild time and memory.
rebuild_again() {
  meta catalog_big_rss_after_load_kb "$(worker_status VmRSS)"
  catalog_bump
  wait_snapshot "$(catalog_version)"
  sleep 0.5
  meta catalog_big_rebuild2_ms "$BUILD_MS"
  meta catalog_big_rss_after_rebuild2_kb "$(worker_status VmRSS)"
  meta catalog_big_hwm_kb "$(worker_status VmHWM)"
}
