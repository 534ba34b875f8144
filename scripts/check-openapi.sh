#!/usr/bin/env bash
# docs/openapi.yaml: a maintained OpenAPI linter's recommended rules at 0 errors (Redocly CLI,
# from the lock file), and the spec's operations equal to the routes the worker registers (the
# unit test OpenApiRoutes.*, which reads the spec from the repository root); given traffic files
# (an e2e run with PLACARD_TRAFFIC_LOG=FILE writes one), every answer in them checked against the
# spec too (tests/openapi/validate_traffic.mjs: status, JSON body, declared headers).
# Usage: scripts/check-openapi.sh [TRAFFIC.jsonl...]
#        (needs `make node-deps` and $BUILD/unit_tests; BUILD=build)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
status=0

echo "openapi: redocly lint (recommended rules)"
if [[ ! -x node_modules/.bin/redocly ]]; then
  echo "openapi: node_modules/.bin/redocly missing (run: make node-deps)"
  exit 1
fi
# Errors fail; warnings are printed. NO_UPDATE_NOTIFIER: no version check over the network.
if ! NO_UPDATE_NOTIFIER=1 REDOCLY_TELEMETRY=off timeout 300 node_modules/.bin/redocly lint \
  --format=stylish docs/openapi.yaml; then
  echo "openapi: the linter found errors"
  status=1
fi

echo "openapi: spec operations == served routes"
if [[ ! -x "$BUILD/unit_tests" ]]; then
  echo "openapi: $BUILD/unit_tests missing (run: make $BUILD/unit_tests)"
  exit 1
fi
if ! timeout 120 "$BUILD/unit_tests" --gtest_filter='OpenApiRoutes.*' --gtest_brief=1; then
  echo "openapi: docs/openapi.yaml and the routes differ"
  status=1
fi

if [[ $# -gt 0 ]]; then
  echo "openapi: recorded traffic against the spec"
  if ! timeout 300 node tests/openapi/validate_traffic.mjs docs/openapi.yaml "$@"; then
    echo "openapi: answers that do not conform to docs/openapi.yaml"
    status=1
  fi
fi

[[ $status -eq 0 ]] && echo "openapi: clean"
exit $status
