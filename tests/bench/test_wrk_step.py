#!/usr/bin/env python3
"""bench/wrk/step.lua, the wrk script of every `make bench` step: its threads start sending
together. wrk prepares its threads one after the other (each init() reads the step's lines) and
starts its clock after the last; before step.lua waited for the last thread, thread 0 sent while
the others still read their lines, and what it answered then counted over a duration that did not
include it: with the event steps' token files, a few per cent more req/s than the plain steps.
And scripts/bench/measure.sh's `step` takes wrk's CPU before the start off the step's figures.

Spoken to by a small HTTP server of this test's own on 127.0.0.1, which notes when each of wrk's
two threads sent its first request (line i of BENCH_LINES goes to thread i mod 2). Run:
python3 tests/bench/test_wrk_step.py [--summary FILE] (FILE gets {"passed": N, "failed": M}, as
scripts/run-tests.sh's suites write)."""

import http.server
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import unittest_summary  # noqa: E402 (tests/bench/, beside this file)

LUA = os.path.join(ROOT, "bench", "wrk", "step.lua")
LINES = 400000  # each thread reads them all and formats half: ~0.3 s or more of init a thread
TOKEN = re.compile(rb'"impressionToken":"t(\d+)x')


class FirstRequests(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.lock = threading.Lock()
        self.first = {}  # wrk thread (line number mod 2) -> monotonic time of its first request
        self.requests = 0

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # wrk closing its connections
            super().handle_error(request, client_address)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # the answer at once
        super().setup()

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        now = time.monotonic()
        m = TOKEN.search(body)
        with self.server.lock:
            self.server.requests += 1
            if m:
                self.server.first.setdefault(int(m.group(1)) % 2, now)
        answer = b'{"recorded":true}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


@unittest.skipUnless(shutil.which("wrk"), "wrk is not installed (make deps-test)")
class StepScriptTests(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.lines = os.path.join(self.dir.name, "tokens.txt")
        with open(self.lines, "w") as f:
            for i in range(LINES):
                f.write("t%d%s\n" % (i, "x" * 80))
        self.server = FirstRequests()
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.addCleanup(self.server.server_close)
        self.addCleanup(self.server.shutdown)

    def wrk(self, mark):
        """wrk through the script (impression mode, two threads) against the server: the process."""
        env = dict(os.environ, BENCH_MODE="impression", BENCH_LINES=self.lines, BENCH_THREADS="2",
                   BENCH_COUNT="words", BENCH_START_MARK=mark)
        url = "http://127.0.0.1:%d/api/v1/events/impression" % self.server.server_address[1]
        return subprocess.run(["wrk", "-t2", "-c4", "-d1s", "--timeout", "5s", "-s", LUA, url],
                              capture_output=True, timeout=120, env=env)

    def run_wrk(self, mark):
        p = self.wrk(mark)
        out = p.stdout.decode("utf-8", "replace")
        m = re.search(r"^BENCHJSON (.*)$", out, re.M)
        self.assertEqual(p.returncode, 0, out + p.stderr.decode("utf-8", "replace"))
        self.assertIsNotNone(m, out)
        return json.loads(m.group(1))

    def test_no_thread_sends_before_the_last_one_has_read_its_lines(self):
        mark = os.path.join(self.dir.name, "start")
        summary = self.run_wrk(mark)
        self.assertEqual(set(self.server.first), {0, 1}, "both threads sent")
        lead = self.server.first[1] - self.server.first[0]
        # What a head start would be: the last thread's init, half of both inits' CPU.
        init_s = summary.get("init_cpu_us", 0) / 2 / 1e6
        self.assertLess(lead, 0.05, "thread 0 sent %.3f s before thread 1" % lead)
        self.assertGreater(init_s, 0.1, "the lines are too few for a head start to show")
        self.assertGreater(summary["recorded"], 0)
        self.assertFalse(os.path.exists(mark), "the start mark is removed at the end")

    def test_a_step_leaves_wrks_reading_out_of_its_cpu_figures(self):
        """`step` (scripts/bench/measure.sh) as make bench runs it: wrk's CPU before the start
        (init_cpu_us) is taken off the step's wrk ticks, since it is not spent while the step is
        measured (and off the machine's busy ticks, not checked here: other work moves those).
        The step's whole CPU is the test's own children's: wrk's ticks must be at most that less
        most of init_cpu_us (without the subtraction they are about all of it)."""
        results = os.path.join(self.dir.name, "results.tsv")
        script = (
            'set -euo pipefail; source scripts/bench/common.sh; source scripts/bench/measure.sh; '
            'step impression-fresh "one client" /api/v1/events/impression impression "$1" words')
        env = dict(os.environ, TMPDIR=self.dir.name, RAW=self.dir.name, RESULTS=results,
                   STEP_SECONDS="1", WRK_THREADS="2", CONNECTIONS="4", LUA=LUA, SERVER="lighttpd",
                   BASE_URL="http://127.0.0.1:%d" % self.server.server_address[1],
                   VAR=self.dir.name, DATA=self.dir.name, WORKER_PID="", ECHO_PID="", BARE_PID="",
                   DURABLE_PID="", SIDE="0", COMPARE="")
        before = os.times()
        p = subprocess.run(["bash", "-c", script, "step", self.lines], cwd=ROOT, env=env,
                           capture_output=True, timeout=120)
        after = os.times()
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        children_s = (after.children_user - before.children_user
                      + after.children_system - before.children_system)
        with open(results) as f:
            name, _, summary = f.read().rstrip("\n").split("\t")
        self.assertEqual(name, "impression-fresh")
        summary = json.loads(summary)
        ticks = summary["cpu_ticks"]
        init_s = summary["init_cpu_us"] / 1e6
        wrk_s = ticks["wrk"] / ticks["hz"]
        self.assertGreater(init_s, 0.2, "the lines are too few for the subtraction to show")
        self.assertGreaterEqual(ticks["wrk"], 0)
        self.assertLessEqual(wrk_s, children_s - 0.75 * init_s,
                             "wrk %.2f s of the step's %.2f s CPU, %.2f s of it before the start"
                             % (wrk_s, children_s, init_s))
        self.assertGreater(wrk_s, 0.0, "wrk's CPU while it sent is still counted")

    def test_a_start_mark_left_behind_is_refused_not_taken_as_the_start(self):
        mark = os.path.join(self.dir.name, "stale")
        open(mark, "w").close()
        p = self.wrk(mark)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn(b"start mark", p.stdout + p.stderr)
        self.assertEqual(self.server.requests, 0)


if __name__ == "__main__":
    sys.exit(unittest_summary.run())
