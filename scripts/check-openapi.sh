#!/usr/bin/env bash
# docs/openapi.yaml: a maintained OpenAPI linter's recommended rules at 0 errors (Redocly CLI,
# from the lock file), and the spec's operations equal to the routes the worker registers (the
# unit test OpenApiRoutes.*, which reads the spec from the repository root); given traffic files
# (an e2e run with PLACARD_TRAFFIC_LOG=FILE writes one), every answer in them checked against the
# spec too (tests/openapi/validate_traffic.mjs: status, JSON body, declared headers).
# Usage: scripts/check-openapi.sh [--summary FILE] [TRAFFIC.jsonl...]
#        (needs `make node-deps` and $BUILD/unit_tests; BUILD=build). --summary writes
#        {"passed": N, "failed": M}, one count per check, for scripts/run-tests.sh.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
summary=""
traffic=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --summary) summary="$2"; shift 2 ;;
    *) traffic+=("$1"); shift ;;
  esac
done
passed=0
failed=0
check() {  # NAME COMMAND...: one check, counted
  local name="$1"
  shift
  echo "openapi: $name"
  if "$@"; then
    passed=$((passed + 1))
  else
    echo "openapi: FAILED: $name"
    failed=$((failed + 1))
  fi
}

# Errors fail; warnings are printed. No update check, no telemetry: nothing leaves the machine.
check "redocly lint, recommended rules (0 errors)" \
  env NO_UPDATE_NOTIFIER=1 REDOCLY_TELEMETRY=off timeout 300 node_modules/.bin/redocly lint \
  --format=stylish docs/openapi.yaml
check "the spec's operations are the served routes (OpenApiRoutes.*)" \
  timeout 120 "$BUILD/unit_tests" --gtest_filter='OpenApiRoutes.*' --gtest_brief=1
if [[ ${#traffic[@]} -gt 0 ]]; then
  check "recorded answers conform to the spec" \
    timeout 300 node tests/openapi/validate_traffic.mjs docs/openapi.yaml "${traffic[@]}"
fi

echo "openapi: $passed passed, $failed failed"
if [[ -n "$summary" ]]; then
  printf '{"passed": %d, "failed": %d}\n' "$passed" "$failed" >"$summary"
fi
((failed == 0))
