#!/usr/bin/env python3
"""scripts/test-lanes.sh, the machinery of `make test`: suites in a lane, the table at the end
and, under it, what failed. CI keeps only the tail of a run, so the lines just above the last
("N passed, M failed") must name each failed suite's failing checks (its first failure lines,
at most four, each cut at 400 characters), or its last line when it printed none. Runs real
suites (small Python programs) through the real script.

Run: python3 tests/tooling/test_test_lanes.py [--summary FILE]"""

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "bench"))
import unittest_summary  # noqa: E402

# A suite: prints its argv[1] lines, writes {"passed", "failed"} unless told "no-summary", and
# exits with argv[2]; the harness appends --summary FILE.
FAKE = textwrap.dedent("""\
    import json, sys, time
    lines, rc, passed, failed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    if lines == "sleep":
        time.sleep(30)
    print(lines.replace("|", "\\n"))
    if passed + failed:
        json.dump({"passed": passed, "failed": failed}, open(sys.argv[-1], "w"))
    sys.exit(rc)
""")


def run_lane(program, calls, prelude=""):
    """scripts/test-lanes.sh with one lane of `calls` (suite lines, where @PROG@ is `program`,
    written to a file for the run, and @TMP@ the run's directory) after the shell lines of
    `prelude`, in a plain build's environment: under make test SANITIZE=..., the outer suite has
    set the sanitizer options, which a case sets itself when it needs them. Gives the run's
    output (its directory written @TMP@) and its exit status."""
    with tempfile.TemporaryDirectory() as tmp:
        prog = os.path.join(tmp, "suite.py")
        with open(prog, "w") as f:
            f.write(program)
        script = textwrap.dedent("""\
            set -uo pipefail
            cd %s
            RESULTS=@TMP@/results
            mkdir -p "$RESULTS" @TMP@/reports
            RUN_STARTED=$(date +%%s)
            source scripts/test-lanes.sh
            %s
            lane_1() {
            %s
            }
            run_lanes lane_1
            print_table
        """) % (ROOT, prelude, calls)
        env = {k: v for k, v in os.environ.items() if k not in (
            "ASAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS", "PLACARD_SANITIZER_REPORTS", "SANITIZER_REPORTS")}
        run = subprocess.run(["bash", "-c", script.replace("@PROG@", prog).replace("@TMP@", tmp)],
                             capture_output=True, text=True, timeout=120, env=env)
        return run.stdout.replace(tmp, "@TMP@"), run.returncode


def tail(out):
    """The lines after the table's load line."""
    lines = out.rstrip("\n").split("\n")
    at = max(i for i, line in enumerate(lines) if line.startswith("load average at the end"))
    return lines[at + 1:]


class TestLanes(unittest.TestCase):
    def run_lane(self, suites):
        """suites: (name, seconds, lines, exit code, passed, failed); the run's output, exit."""
        return run_lane(FAKE, "\n".join("  suite %s %d python3 @PROG@ '%s' %d %d %d" % suite
                                         for suite in suites))

    def tail(self, out):
        return tail(out)

    def test_failed_checks_named_above_the_last_line(self):
        detail = "x" * 600
        out, rc = self.run_lane([
            ("good", 30, "[12:00:00] PASS group / fine: ok|1 passed, 0 failed", 0, 1, 0),
            ("flaky", 30, "[12:00:00] PASS a / first: ok|[12:00:01] FAIL fallback / the bound: slow "
                          + detail + "|[12:00:02] PASS a / third: ok|PASS fallback / the bound  FAIL", 1, 2, 1),
        ])
        self.assertEqual(rc, 1)
        tail = self.tail(out)
        self.assertEqual(tail[-1], "3 passed, 1 failed")
        self.assertEqual(tail[0], "failed in flaky:")
        self.assertTrue(tail[1].startswith("  [12:00:01] FAIL fallback / the bound: slow xxx"), tail[1])
        self.assertEqual(len(tail[1]), 2 + 400)  # cut at 400 characters, indented
        self.assertEqual(tail[2], "  PASS fallback / the bound  FAIL")
        self.assertNotIn("failed in good:", out)

    def test_every_runner_s_word_for_a_failure_at_most_four(self):
        lines = "|".join(["[  FAILED  ] Pool.Drains (3 ms)", "FAIL: test_x (m.T)", "ERROR: test_y (m.T)",
                          "not ok 3 - retries", "lint: clang-tidy found problems"])
        out, _ = self.run_lane([("mixed", 30, lines, 1, 0, 5)])
        tail = self.tail(out)
        self.assertEqual(tail[1:5], ["  [  FAILED  ] Pool.Drains (3 ms)", "  FAIL: test_x (m.T)",
                                     "  ERROR: test_y (m.T)", "  not ok 3 - retries"])
        self.assertEqual(tail[5], "0 passed, 5 failed")

    def test_no_failure_line_gives_the_last_line(self):
        out, rc = self.run_lane([("crashed", 30, "starting|Segmentation fault (core dumped)", 139, 0, 0)])
        self.assertEqual(rc, 1)
        self.assertEqual(self.tail(out), ["failed in crashed:", "  Segmentation fault (core dumped)",
                                          "0 passed, 1 failed"])

    def test_a_timeout_is_named(self):
        out, _ = self.run_lane([("stuck", 1, "sleep", 0, 0, 0)])
        self.assertEqual(self.tail(out), ["failed in stuck:", "  suite stuck: stopped after 1 s (timeout)",
                                          "0 passed, 1 failed"])

    def test_nothing_listed_when_all_passed(self):
        out, rc = self.run_lane([("good", 30, "1 passed, 0 failed", 0, 1, 0)])
        self.assertEqual(rc, 0)
        self.assertEqual(self.tail(out), ["1 passed, 0 failed"])


# A suite of a sanitizer build: prints the sanitizer options it was given, then writes argv[2]
# ("|" for newlines) where TSAN_OPTIONS's log_path says, as the runtime would (PATH.<pid>), and
# passes one check.
REPORTER = textwrap.dedent("""\
    import json, os, re, sys
    for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS", "PLACARD_SANITIZER_REPORTS"):
        print("ENV %s=%s" % (var, os.environ.get(var, "")))
    if sys.argv[1] == "report":
        path = re.search(r"log_path=([^:]+)", os.environ["TSAN_OPTIONS"]).group(1)
        with open("%s.%d" % (path, os.getpid()), "w") as f:
            f.write(sys.argv[2].replace("|", "\\n"))
    json.dump({"passed": 1, "failed": 0}, open(sys.argv[-1], "w"))
""")

RACE = "==================|WARNING: ThreadSanitizer: data race (pid=4242)|  Write of size 8 at 0x7b04 by thread T2:"


class TestSanitizerReports(unittest.TestCase):
    """A sanitizer build's reports are found wherever a suite's worker wrote them (log_path under
    SANITIZER_REPORTS/<suite>/, which run-tests.sh sets for build/san*) and fail that suite."""

    def run_lane(self, suites, prelude):
        """suites: (name, what, text) for REPORTER; prelude: shell lines before the lane."""
        return run_lane(REPORTER, "\n".join("  suite %s 30 python3 @PROG@ %s '%s'" % suite
                                             for suite in suites), prelude)

    def tail(self, out):
        return tail(out)

    def test_a_report_fails_its_suite_and_is_named(self):
        out, rc = self.run_lane([("clean", "report", "==1==WARNING: not a sanitizer report"),
                                 ("racy", "report", RACE)],
                                "SANITIZER_REPORTS=@TMP@/reports")
        self.assertEqual(rc, 1)
        tail = self.tail(out)
        self.assertEqual(tail[0], "failed in racy:")
        self.assertRegex(tail[1], r"^  PROBLEM: sanitizer report in @TMP@/results/sanitizer/racy/tsan\.\d+$")
        self.assertEqual(tail[-1], "2 passed, 1 failed")
        self.assertNotIn("failed in clean:", out)
        self.assertIn("  | WARNING: ThreadSanitizer: data race (pid=4242)", out)
        self.assertIn("  |   Write of size 8 at 0x7b04 by thread T2:", out)

    def test_each_suite_reports_to_its_own_directory(self):
        out, rc = self.run_lane([("first", "print", "-")],
                                "SANITIZER_REPORTS=@TMP@/reports\n"
                                "export ASAN_OPTIONS=halt_on_error=1 TSAN_OPTIONS=log_path=/own/tsan")
        self.assertEqual(rc, 0)
        self.assertIn("ENV ASAN_OPTIONS=halt_on_error=1:log_path=@TMP@/reports/first/asan", out)
        self.assertIn("ENV UBSAN_OPTIONS=log_path=@TMP@/reports/first/ubsan", out)
        self.assertIn("ENV TSAN_OPTIONS=log_path=/own/tsan", out)  # a harness's own path is kept
        self.assertIn("ENV PLACARD_SANITIZER_REPORTS=@TMP@/reports/first", out)

    def test_nothing_set_without_a_sanitizer_build(self):
        out, rc = self.run_lane([("plain", "print", "-")], "")
        self.assertEqual(rc, 0)
        for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS", "PLACARD_SANITIZER_REPORTS"):
            self.assertIn("ENV %s=\n" % var, out)
        self.assertEqual(self.tail(out), ["1 passed, 0 failed"])


if __name__ == "__main__":
    sys.exit(unittest_summary.run())
