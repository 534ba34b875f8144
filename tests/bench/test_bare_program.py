#!/usr/bin/env python3
"""The bench's bare libfcgi program (bench/bare/bare_fcgi.cpp), the baseline every ratio of `make
bench` is taken against: it answers a FastCGI request with its ~1 KiB body, and SIGTERM or SIGINT
end it at once, with every thread waiting in accept() (libfcgi's own SIGTERM handler only marked
a shutdown, and the bench waited 10 s before it sent SIGKILL). With --journal FILE (the durable
baseline of the event steps) it answers a POST only once its body is a line of FILE, every body
once, also from many requests at a time; 503 once the file cannot be written. Spoken to straight
on its unix socket.

Run: python3 tests/bench/test_bare_program.py [--summary FILE] (BUILD: the build directory,
build unless set; FILE gets {"passed": N, "failed": M}, as scripts/run-tests.sh's suites write)."""

import concurrent.futures
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tools"))
import fcgi_client  # noqa: E402
import unittest_summary  # noqa: E402 (tests/bench/, beside this file)

PROGRAM = os.path.join(ROOT, os.environ.get("BUILD", "build"), "bench-bare-fcgi")
THREADS = 8


class BareProgramTests(unittest.TestCase):
    EXTRA = ()  # arguments after SOCKET_PATH THREADS

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.sock = os.path.join(self.dir.name, "bare.sock")
        self.journal = os.path.join(self.dir.name, "journal.log")
        self.start([a.replace("@JOURNAL@", self.journal) for a in self.EXTRA])
        self.addCleanup(self.reap)

    def start(self, extra):
        """The program on self.sock (none may run there), once its socket file exists."""
        if os.path.exists(self.sock):
            os.unlink(self.sock)
        self.proc = subprocess.Popen([PROGRAM, self.sock, str(THREADS)] + extra, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 5
        while not os.path.exists(self.sock):
            self.assertIsNone(self.proc.poll(), "the program ended before it listened")
            self.assertLess(time.monotonic(), deadline, "no socket after 5 s")
            time.sleep(0.02)

    def reap(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()

    def connect(self, s):
        # The socket file appears at bind(), a moment before listen(): refused until then.
        deadline = time.monotonic() + 2
        while True:
            try:
                return s.connect(self.sock)
            except ConnectionRefusedError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    def answer(self, body=None):
        params = {"REQUEST_METHOD": "GET", "REQUEST_URI": "/bench/bare", "SCRIPT_NAME": "/bench/bare",
                  "QUERY_STRING": ""}
        if body is not None:
            params.update(REQUEST_METHOD="POST", CONTENT_TYPE="application/json", CONTENT_LENGTH=str(len(body)))
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(5)
            self.connect(s)
            fcgi_client.send(s, params, body or b"")
            return fcgi_client.cgi_status(fcgi_client.read_stdout(s))

    def assertEndsAtOnce(self, sig):
        self.proc.send_signal(sig)
        try:
            rc = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.fail("still running 2 s after signal %d" % sig)
        self.assertEqual(rc, 0)

    def test_answers_the_echo_workers_body(self):
        # The same JSON as placard.fcgi --bench-echo (fcgi-app/bench_echo.cpp), 1,023 bytes.
        for _ in range(3):
            status, body = self.answer()
            self.assertEqual(status, 200)
            self.assertEqual(json.loads(body), {"echo": "x" * 1012})

    def test_sigterm_ends_it_while_every_thread_waits(self):
        self.answer()  # every thread has been through accept() at least once, or waits in it
        self.assertEndsAtOnce(signal.SIGTERM)

    def test_sigint_ends_it_too(self):
        self.assertEndsAtOnce(signal.SIGINT)


class DurableBaselineTests(BareProgramTests):
    """bare_fcgi --journal FILE: the same program, and a POST answered only once it is written."""
    EXTRA = ("--journal", "@JOURNAL@")

    def lines(self):
        with open(self.journal, "rb") as f:
            return f.read().split(b"\n")[:-1]

    def test_a_post_is_in_the_journal_before_its_answer(self):
        for i in range(3):
            body = b'{"impressionToken":"t%d"}' % i
            status, answer = self.answer(body)
            self.assertEqual(status, 200)
            self.assertEqual(json.loads(answer), {"recorded": True})
            self.assertEqual(self.lines()[-1], body, "answered before the body was in the journal")
        self.assertEqual(len(self.lines()), 3)

    def test_many_at_a_time_each_body_once(self):
        bodies = [b'{"impressionToken":"c%03d"}' % i for i in range(200)]
        with concurrent.futures.ThreadPoolExecutor(32) as pool:
            answers = list(pool.map(self.answer, bodies))
        self.assertEqual([a[0] for a in answers], [200] * len(bodies))
        self.assertEqual(sorted(self.lines()), sorted(bodies))

    def test_a_get_still_answers_the_1_kib_body(self):
        status, body = self.answer()
        self.assertEqual(status, 200)
        self.assertEqual(json.loads(body), {"echo": "x" * 1012})
        self.assertFalse(os.path.getsize(self.journal), "a GET wrote to the journal")

    def test_a_journal_it_cannot_write_answers_503(self):
        if not os.path.exists("/dev/full"):
            self.skipTest("no /dev/full")
        self.reap()
        self.start(["--journal", "/dev/full"])
        status, _ = self.answer(b'{"impressionToken":"full"}')
        self.assertEqual(status, 503)

    def test_a_journal_it_cannot_open_stops_it_at_start(self):
        run = subprocess.run([PROGRAM, self.sock + "2", "1", "--journal", os.path.join(self.dir.name, "no", "x")],
                             stdin=subprocess.DEVNULL, capture_output=True, timeout=5)
        self.assertEqual(run.returncode, 1)
        self.assertIn(b"--journal", run.stderr)

    def test_bad_arguments_are_refused(self):
        for extra in (["--journal"], ["g1", "g2"], ["--nope"]):
            run = subprocess.run([PROGRAM, self.sock + "2", "1"] + extra, stdin=subprocess.DEVNULL,
                                 capture_output=True, timeout=5)
            self.assertEqual(run.returncode, 2, extra)
            self.assertIn(b"usage", run.stderr)


if __name__ == "__main__":
    sys.exit(unittest_summary.run())
