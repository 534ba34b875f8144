#!/usr/bin/env bash
# clang-tidy over C++ translation units, with a cache keyed by content (scripts/lint.sh calls it).
#   scripts/lint-tidy.sh fast FILE.cpp...     the checks of .clang-tidy without clang-analyzer-*
#   scripts/lint-tidy.sh analyze FILE.cpp...  every check of .clang-tidy, the static analyzer too
#
# A TU found clean leaves a stamp build/lint-cache/<mode>/<key>, where key = sha256 of the TU's
# name, its preprocessed text (clang++ -E -C: every header it includes, ours and the system's,
# comments kept for NOLINT), .clang-tidy, the mode and clang-tidy's version. A TU whose key has
# a stamp is not checked again; a TU with findings leaves no stamp (checked, and its findings
# shown, every time). Deleting build/lint-cache forces a full run. Runs $(nproc) clang-tidy processes at once (LINT_JOBS).
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-}"
shift || true
case "$mode" in
  fast) checks='-clang-analyzer-*' ;;
  analyze) checks='' ;;
  *) echo "usage: scripts/lint-tidy.sh fast|analyze FILE.cpp..." >&2; exit 2 ;;
esac
(($#)) || { echo "lint-tidy: no translation unit given, nothing to do"; exit 0; }

CACHE="build/lint-cache/$mode"
mkdir -p "$CACHE"
FLAGS=(-std=c++20 -I. -x c++)
salt="$(clang-tidy --version | tr -d '\n'; printf '|%s|%s|' "$mode" "$checks"; cat .clang-tidy)"
TALLY="$(mktemp -d)"
trap 'rm -rf "$TALLY"' EXIT
export CACHE checks salt TALLY

tidy_one() {  # FILE: exit 0 when clean (from the cache or checked now)
  local file="$1" key out
  key="$( { printf '%s\n%s\n' "$salt" "$file"; clang++ -E -P -C "${@:2}" "$file" 2>/dev/null; } \
    | sha256sum | cut -c1-64)"
  if [[ -e "$CACHE/$key" ]]; then
    mktemp "$TALLY/cached.XXXXXX" >/dev/null
    return 0
  fi
  if out="$(clang-tidy --quiet ${checks:+--checks="$checks"} "$file" -- "${@:2}" 2>/dev/null)"; then
    : >"$CACHE/$key"
    mktemp "$TALLY/clean.XXXXXX" >/dev/null
    return 0
  fi
  printf '%s\n%s: clang-tidy (%s) found problems\n' "$out" "$file" "${checks:-all checks}"
  mktemp "$TALLY/found.XXXXXX" >/dev/null
  return 1
}
export -f tidy_one

rc=0
# shellcheck disable=SC2016 # $0 and $@ expand in the child bash, as intended
printf '%s\n' "$@" | xargs -P "${LINT_JOBS:-$(nproc)}" -I{} bash -c 'tidy_one "$0" "$@"' {} "${FLAGS[@]}" || rc=1
n() { find "$TALLY" -name "$1.*" | wc -l; }
echo "lint-tidy ($mode): $# translation units: $(n cached) clean in the cache, $(n clean) checked clean now, $(n found) with findings"
exit $rc
