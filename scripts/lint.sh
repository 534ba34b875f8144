#!/usr/bin/env bash
# Every linter of the project, over the whole tree or over what changed:
#   scripts/lint.sh              all files (make lint, make test): clang-format; clang-tidy's fast
#                                checks (.clang-tidy without clang-analyzer-*); shellcheck on the
#                                shell, and no SQL, sed or grep in scripts/stack.sh and its parts;
#                                flake8 (Debian's python3-flake8, .flake8) on tests/, tools/,
#                                bench/; oxlint (npm, .oxlintrc.json) on admin-static/ and
#                                tests/browser/; prettier (npm, .prettierrc.json) on admin-static/
#   scripts/lint.sh --changed    the same, only files changed since `git merge-base HEAD main`,
#                                committed or not (make check)
#   scripts/lint.sh --analyze    clang-tidy with every check of .clang-tidy, the static analyzer
#                                included, over every translation unit (make analyze)
#   scripts/lint.sh FILE...      clang-format and the fast clang-tidy checks of these C++ files
#   --summary FILE               also write {"passed": N, "failed": M}, one count per tool run
# clang-tidy keeps a cache keyed by content (scripts/lint-tidy.sh, build/lint-cache/). Exit 1 when
# any tool found something.
set -uo pipefail
cd "$(dirname "$0")/.." || exit

CXX_DIRS=(lib fcgi-app placardctl tests/unit tests/fuzz tests/fakes tests/network_probe bench/micro)
scope=all
summary=""
given=()
while (($#)); do
  case "$1" in
    --changed) scope=changed; shift ;;
    --analyze) scope=analyze; shift ;;
    --summary) summary="$2"; shift 2 ;;
    -h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) given+=("$1"); shift ;;
  esac
done

# Every tracked or new (not ignored) file of the tree, or only those changed since the merge base.
files_in_scope() {
  if [[ $scope == changed ]]; then
    local base
    base="$(git merge-base HEAD main 2>/dev/null || git merge-base HEAD origin/main 2>/dev/null || git rev-parse HEAD)"
    { git diff --name-only --diff-filter=d "$base"; git ls-files --others --exclude-standard; } | sort -u
  else
    { git ls-files; git ls-files --others --exclude-standard; } | sort -u
  fi | while read -r f; do [[ -f "$f" ]] && printf '%s\n' "$f"; done
}
mapfile -t tree < <(files_in_scope)
pick() { printf '%s\n' "${tree[@]}" | grep -E "$1" || true; }  # ERE over the paths in scope

dirs_re="^($(IFS='|'; echo "${CXX_DIRS[*]}"))/"
if ((${#given[@]})); then
  cxx=("${given[@]}")
else
  mapfile -t cxx < <(pick "$dirs_re.*\.(cpp|h)$")
fi
mapfile -t tus < <(printf '%s\n' "${cxx[@]}" | grep '\.cpp$' || true)
if [[ $scope == changed ]]; then
  # A changed header: the translation units that include it are checked too.
  for h in $(printf '%s\n' "${cxx[@]}" | grep '\.h$' || true); do
    mapfile -t -O "${#tus[@]}" tus < <(git grep -l -F "\"$h\"" -- "${CXX_DIRS[@]}" | grep '\.cpp$' || true)
  done
  mapfile -t tus < <(printf '%s\n' "${tus[@]}" | sort -u | grep . || true)
fi

passed=0
failed=0
check() {  # NAME COMMAND...: one count
  local name="$1"
  shift
  if "$@"; then
    passed=$((passed + 1))
  else
    echo "lint: $name found problems"
    failed=$((failed + 1))
  fi
}
have() { command -v "$1" >/dev/null 2>&1 || { echo "lint: $1 is missing (make deps installs it)"; return 1; }; }

run_format() { echo "lint: clang-format on ${#cxx[@]} files"; clang-format --dry-run -Werror "${cxx[@]}"; }
run_shellcheck() {
  echo "lint: shellcheck on ${#sh[@]} files"
  have shellcheck && shellcheck -x -S warning "${sh[@]}"
}
run_flake8() {
  echo "lint: flake8 on ${#py[@]} files"
  # Debian's flake8 is a module of Debian's python3 (a python3 earlier in PATH may lack it).
  /usr/bin/python3 -m flake8 --version >/dev/null 2>&1 || { echo "lint: python3-flake8 is missing (make deps installs it)"; return 1; }
  /usr/bin/python3 -m flake8 "${py[@]}"
}
node_bin() { [[ -x node_modules/.bin/$1 ]] || { echo "lint: node_modules/.bin/$1 is missing (make node-deps installs it)"; return 1; }; }
run_oxlint() {
  echo "lint: oxlint on ${#js[@]} files"
  node_bin oxlint && node_modules/.bin/oxlint -c .oxlintrc.json --deny-warnings "${js[@]}"
}
run_prettier() {  # files in .prettierignore are skipped
  echo "lint: prettier --check on ${#web[@]} files"
  node_bin prettier && node_modules/.bin/prettier --check --log-level warn "${web[@]}"
}

# scripts/stack.sh and its parts start and stop processes; the database, its users and the
# config files are placardctl's, as on a real install (issue 20): no SQL client and no SQL, no
# sed, grep or awk (on the config or on messages). Comment lines are not looked at.
run_stack_scope() {
  echo "lint: stack.sh's scope on ${#stack[@]} files"
  local found
  found="$(grep -nHE '(^|[[:space:];|&(`])(sed|grep|awk|mysql|mariadb)([[:space:]]|$)|\<(SELECT|INSERT|UPDATE|DELETE|GRANT|REVOKE|ALTER|DROP|CREATE[[:space:]]+(USER|DATABASE|TABLE))\>' \
    "${stack[@]}" | grep -vE '^[^:]+:[0-9]+:[[:space:]]*#')"
  [[ -n "$found" ]] || return 0
  printf '%s\n' "$found"
  echo "lint: stack.sh starts and stops processes only: use placardctl (setup, config set) for the above"
  return 1
}

if [[ $scope == analyze ]]; then
  mapfile -t tus < <(pick "$dirs_re.*\.cpp$")
  check clang-tidy-analyze bash scripts/lint-tidy.sh analyze "${tus[@]}"
else
  ((${#cxx[@]} == 0)) || check clang-format run_format
  ((${#tus[@]} == 0)) || check clang-tidy bash scripts/lint-tidy.sh fast "${tus[@]}"
  if ((${#given[@]} == 0)); then
    mapfile -t sh < <(pick '(\.sh$|^\.ci/run$)')
    mapfile -t py < <(pick '^(tests|tools|bench)/.*\.py$')
    mapfile -t js < <(pick '^(admin-static/.*\.js|tests/browser/.*\.mjs)$')
    mapfile -t web < <(pick '^admin-static/.*\.(js|css|html)$')
    mapfile -t stack < <(pick '^scripts/stack(\.sh|/.*)$')
    ((${#sh[@]} == 0)) || check shellcheck run_shellcheck
    ((${#stack[@]} == 0)) || check stack-scope run_stack_scope
    ((${#py[@]} == 0)) || check flake8 run_flake8
    ((${#js[@]} == 0)) || check oxlint run_oxlint
    ((${#web[@]} == 0)) || check prettier run_prettier
  fi
fi

if [[ -n $summary ]]; then
  mkdir -p "$(dirname "$summary")"
  printf '{"passed": %d, "failed": %d}\n' "$passed" "$failed" >"$summary"
fi
if ((passed + failed == 0)); then
  echo "lint: nothing in scope to check"
elif ((failed == 0)); then
  echo "lint: clean ($passed tools)"
fi
((failed == 0))
