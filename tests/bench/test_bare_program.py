#!/usr/bin/env python3
"""The bench's bare libfcgi program (bench/bare/bare_fcgi.cpp), the baseline every ratio of `make
bench` is taken against: it answers a FastCGI request with its ~1 KiB body, and SIGTERM or SIGINT
end it at once, with every thread waiting in accept() (libfcgi's own SIGTERM handler only marked
a shutdown, and the bench waited 10 s before it sent SIGKILL). Spoken to straight on its unix
socket.

Run: python3 tests/bench/test_bare_program.py [--summary FILE] (BUILD: the build directory,
build unless set; FILE gets {"passed": N, "failed": M}, as scripts/run-tests.sh's suites write)."""

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
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.sock = os.path.join(self.dir.name, "bare.sock")
        self.proc = subprocess.Popen([PROGRAM, self.sock, str(THREADS)], stdin=subprocess.DEVNULL)
        self.addCleanup(self.reap)
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

    def answer(self):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(5)
            self.connect(s)
            fcgi_client.send(s, {"REQUEST_METHOD": "GET", "REQUEST_URI": "/bench/bare",
                                 "SCRIPT_NAME": "/bench/bare", "QUERY_STRING": ""})
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


if __name__ == "__main__":
    sys.exit(unittest_summary.run())
