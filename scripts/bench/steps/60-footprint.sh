# shellcheck shell=bash
# Group "footprint" (issue 21): a worker's footprint as a shared host sees it (mod_fcgid starts
# one for the first visitor after a quiet spell): exec to first answer, VmRSS after it and after
# 20 sign-ins (bench/worker_footprint.py, a worker of its own with one thread). The working tree.

group_footprint() {
  use_side 0
  say "$(printf '%-20s %s' footprint "a new worker: start to first answer, memory after it and after 20 sign-ins")"
  python3 "$REPO/bench/worker_footprint.py" --fcgi "$FCGI" --config "$VAR/placard.conf" \
    --password-file "$VAR/admin-password" >"$RAW/footprint.txt" 2>&1 ||
    { cat "$RAW/footprint.txt" >&2; die "the footprint step failed"; }
  meta footprint_json "$(sed -n 's/^BENCHFOOT //p' "$RAW/footprint.txt" | tail -n 1)"
}
