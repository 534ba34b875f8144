#!/usr/bin/env python3
"""Runs a GoogleTest binary for scripts/run-tests.sh and writes {"passed": N, "failed": M} to
--summary: tests that ran and passed or failed (skipped ones count neither); a binary that
crashed before its report, or failed with no test failing (e.g. a sanitizer abort), counts one
failure.

    python3 tools/run_gtest.py build/unit_tests --summary FILE [gtest flags...]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def counts(report, rc):
    try:
        with open(report) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return 0, 1
    passed = failed = 0
    for suite in doc.get("testsuites", []):
        for t in suite.get("testsuite", []):
            if t.get("status") == "NOTRUN" or t.get("result") in ("SKIPPED", "SUPPRESSED"):
                continue
            if t.get("failures"):
                failed += 1
            else:
                passed += 1
    if rc != 0 and failed == 0:
        failed = 1
    return passed, failed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("--summary", required=True)
    args, rest = ap.parse_known_args()
    if not os.access(args.binary, os.X_OK):
        print("missing %s" % args.binary)
        passed, failed, rc = 0, 1, 127
    else:
        with tempfile.TemporaryDirectory() as tmp:
            report = os.path.join(tmp, "report.json")
            rc = subprocess.call([args.binary, "--gtest_output=json:" + report] + rest)
            passed, failed = counts(report, rc)
    os.makedirs(os.path.dirname(os.path.abspath(args.summary)), exist_ok=True)
    with open(args.summary, "w") as f:
        json.dump({"passed": passed, "failed": failed}, f)
        f.write("\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
