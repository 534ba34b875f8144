#!/usr/bin/env bash
# clang-format (no changes needed) and clang-tidy (no warnings) over the C++ sources.
# Usage: scripts/lint.sh [files...]   (default: every .cpp/.h under lib/, fcgi-app/, placardctl/, tests/unit/, tests/fuzz/, tests/fakes/, bench/micro/)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(find lib fcgi-app placardctl tests/unit tests/fuzz tests/fakes bench/micro -name '*.cpp' -o -name '*.h' | sort)
fi

status=0
echo "lint: clang-format on ${#files[@]} files"
if ! clang-format --dry-run -Werror "${files[@]}"; then
  echo "lint: clang-format wants changes (run: make format)"
  status=1
fi

mapfile -t sources < <(printf '%s\n' "${files[@]}" | grep '\.cpp$' || true)
echo "lint: clang-tidy on ${#sources[@]} files"
tidy_one() {
  clang-tidy --quiet "$1" -- -std=c++20 -I. -x c++ 2>/dev/null
}
export -f tidy_one
if ! printf '%s\n' "${sources[@]}" | xargs -P "$(nproc)" -I{} bash -c 'tidy_one "$1"' _ {}; then
  echo "lint: clang-tidy found problems"
  status=1
fi
[ $status -eq 0 ] && echo "lint: clean"
exit $status
