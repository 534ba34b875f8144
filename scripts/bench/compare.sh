# shellcheck shell=bash
# make bench: BENCH_COMPARE=<commit> builds that commit beside the working tree (sourced).
# A detached `git worktree` under build/compare/<sha>, built by its own Makefile (ccache keeps
# the second time short); reused by later runs. Its stack runs with its own scripts/stack.sh.

prepare_compare() {
  [[ -n "$COMPARE" ]] || return 0
  local sha dir cxx="${BENCH_COMPARE_CXX:-ccache g++}"
  sha="$(git -C "$REPO" rev-parse --verify --quiet "$COMPARE^{commit}")" ||
    die "BENCH_COMPARE: $COMPARE is not a commit of this repository"
  dir="$REPO/build/compare/$sha"
  if [[ ! -e "$dir/.git" ]]; then
    say "BENCH_COMPARE: a worktree of ${sha:0:7} under $dir"
    mkdir -p -- "$REPO/build/compare"
    git -C "$REPO" worktree prune
    git -C "$REPO" worktree add --detach --force "$dir" "$sha" >>"$HARNESS_LOG" 2>&1 ||
      die "git worktree add $dir $sha failed; see $HARNESS_LOG"
  fi
  say "BENCH_COMPARE: building ${sha:0:7} with its own Makefile (CXX=$cxx; log: $OUT/compare-build.log)"
  env -u BUILD -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -C "$dir" -j"$(nproc)" CXX="$cxx" all \
    >"$OUT/compare-build.log" 2>&1 || die "building $COMPARE failed; see $OUT/compare-build.log"
  add_compare_side "$dir" "$dir/build" "${sha:0:7}"
  COMPARE="${sha:0:7}"
}
