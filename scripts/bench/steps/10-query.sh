# shellcheck shell=bash
# Group "query": the offers query at the small and the big catalog, config and categories.

group_query() {
  for_sides load_offers small "$SMALL_OFFERS"
  measure warmup-query-small "warm-up" "$Q" body "@DATA@/query-mix.txt" offers "${AE[@]}"
  measure query-small "offers query, $SMALL_OFFERS offers" "$Q" body "@DATA@/query-mix.txt" offers "${AE[@]}"
  measure query-scale-small "offers query, 3 per answer, $SMALL_OFFERS offers" "$Q" body "@DATA@/query-scale.txt" offers "${AE[@]}"
  ensure_big_catalog
  measure config "GET /api/v1/config" /api/v1/config plain "" "" "${AE[@]}"
  measure categories "GET /api/v1/categories" /api/v1/categories plain "" "" "${AE[@]}"
  local etag
  etag="$(curl -s -D - -o /dev/null --max-time 5 "${AE[@]}" "$BASE_URL/api/v1/categories" |
    sed -n 's/^[Ee][Tt][Aa][Gg]:[[:space:]]*//p' | tr -d '\r')"
  [[ -n "$etag" ]] || die "GET /api/v1/categories has no ETag"
  # Both sides build the same catalog, so the same ETag (a side whose ETag differs answers 200).
  measure categories-304 "GET /api/v1/categories, If-None-Match (304)" /api/v1/categories plain "" "" \
    "${AE[@]}" -H "If-None-Match: $etag"
  measure warmup-query-big "warm-up" "$Q" body "@DATA@/query-mix.txt" offers "${AE[@]}"
  measure query-big "offers query, $OFFERS offers" "$Q" body "@DATA@/query-mix.txt" offers "${AE[@]}"
  measure query-scale-big "offers query, 3 per answer, $OFFERS offers" "$Q" body "@DATA@/query-scale.txt" offers "${AE[@]}"
}
