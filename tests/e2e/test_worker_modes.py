#!/usr/bin/env python3
"""The worker's two other ways to run, each against a real stack (and, in the same run, the
operator CLI: test_placardctl):
- spawned by Apache mod_fcgid with its listening socket on fd 0 (SERVER=apache-fcgid);
- plain CGI, one request per process, reading the CGI environment and standard input.

    python3 tests/e2e/test_worker_modes.py --summary /tmp/modes.json
"""

import argparse
import concurrent.futures
import json
import os
import signal
import socket
import subprocess
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness as H  # noqa: E402
import fcgi_client  # noqa: E402 (tools/, on the path through the harness)
import proc_info  # noqa: E402 (tools/, on the path through the harness)
import test_placardctl  # noqa: E402

QUERY = {"country": "DE", "placement": "popup-main", "extensionVersion": "1.4.2", "limit": 3}


worker_pids = proc_info.pids_of_exe


class FcgidSpawnedTests(H.StackTestCase):
    """Apache starts the worker itself; nothing else listens for it."""

    SERVER = "apache-fcgid"

    def test_config_and_categories_answer(self):
        status, headers, body = H.http("GET", "/api/v1/config")
        self.assertEqual(status, 200)
        self.assertEqual(headers.get("content-type"), H.JSON_CT)
        self.assertEqual(json.loads(body)["countries"], H.SELECTED_COUNTRIES)
        status, _, body = H.http("GET", "/api/v1/categories")
        self.assertEqual(status, 200)
        self.assertIn("categories", json.loads(body))

    def test_query_then_impression_recorded_once(self):
        offers = H.query_offers(**{k: v for k, v in QUERY.items() if k != "placement"})
        self.assertTrue(offers)
        token = offers[0]["impressionToken"]
        for expected in ("recorded", "duplicate"):
            status, _, body = H.impression(token)
            self.assertEqual(status, 200)
            self.assertEqual(json.loads(body), {"status": expected})

    def test_worker_runs_on_the_socket_apache_gave_it(self):
        H.http("GET", "/api/v1/config")  # make sure one was spawned
        self.assertFalse(os.path.exists(self.stack.path("run", "placard.pid")),
                         "the stack must not start a worker of its own under mod_fcgid")
        # stack.sh gives Apache a www-data-readable copy of the binary under $VAR/fcgid.
        pids = worker_pids(self.stack.path("fcgid", "placard.fcgi"))
        on_fd0 = [p for p in pids if os.readlink("/proc/%d/fd/0" % p).startswith("socket:")]
        self.assertTrue(on_fd0, "no placard.fcgi with a socket on fd 0 (pids %r)" % pids)

    def test_the_copy_of_the_config_for_www_data_has_no_migration_credentials(self):
        # stack.sh makes it with `placardctl config set` on a copy of placard.conf: no listen
        # (the socket is on fd 0), one thread, its own log; placard-admin.conf is never copied.
        with open(self.stack.path("fcgid", "placard.conf")) as f:
            copy = dict(line.split("=", 1) for line in f.read().splitlines()
                        if "=" in line and not line.startswith("#"))
        copy = {k.strip(): v.strip() for k, v in copy.items()}
        self.assertEqual(copy["listen"], "")
        self.assertEqual(copy["threads"], "1")
        self.assertEqual(copy["log_file"], self.stack.path("fcgid", "placard.log"))
        self.assertEqual(copy["token.keys"], self.stack.config()["token.keys"])
        self.assertFalse([k for k in copy if k.startswith("db.admin")])
        self.assertEqual(sorted(os.listdir(self.stack.path("fcgid"))),
                         ["placard.conf", "placard.fcgi", "placard.log"])
        self.assertEqual(os.stat(self.stack.path("fcgid", "placard.conf")).st_mode & 0o777, 0o600)


def fastcgi_send(sock, method, uri, body=b"", declared=None):
    """Sends one FastCGI request (responder role), as a web server would: parameters, then the
    body and the empty end-of-input record. `declared` overrides CONTENT_LENGTH."""
    env = [("REQUEST_METHOD", method), ("REQUEST_URI", uri), ("QUERY_STRING", ""),
           ("SERVER_PROTOCOL", "HTTP/1.1"), ("REMOTE_ADDR", "127.0.0.1")]
    if body or declared is not None:
        env += [("CONTENT_TYPE", "application/json"),
                ("CONTENT_LENGTH", str(len(body) if declared is None else declared))]
    fcgi_client.send(sock, env, body)


# Reads until the worker closes its side; returns the bytes written to FCGI_STDOUT.
fastcgi_read = fcgi_client.read_stdout


def fastcgi_get(port, uri, timeout=10):
    """One FastCGI GET over TCP; returns the CGI response bytes."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        fastcgi_send(sock, "GET", uri)
        return fastcgi_read(sock)


class CgiModeTests(H.StackTestCase):
    """No web server: the test plays the CGI gateway."""

    @classmethod
    def prepare_stack(cls):
        # The same config without `listen`: with nothing to listen on, CGI is chosen.
        with open(cls.stack.path("placard.conf")) as f:
            lines = [l for l in f if not l.startswith("listen")]
        cls.config = cls.stack.path("placard-cgi.conf")
        with open(os.open(cls.config, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
            f.writelines(lines)

    def cgi(self, method, uri, body=b"", content_type=None, gateway=True):
        env = {"PATH": "/usr/bin:/bin", "PLACARD_CONFIG": self.config, "REQUEST_METHOD": method,
               "REQUEST_URI": uri, "QUERY_STRING": uri.partition("?")[2],
               "REMOTE_ADDR": "127.0.0.1", "SERVER_PROTOCOL": "HTTP/1.1"}
        if gateway:
            env["GATEWAY_INTERFACE"] = "CGI/1.1"
        if body:
            env["CONTENT_LENGTH"] = str(len(body))
        if content_type:
            env["CONTENT_TYPE"] = content_type
        env.update(H.sanitizer_env())
        proc = subprocess.run([os.path.join(H.ROOT, self.stack.build, "placard.fcgi")],
                              input=body, env=env, capture_output=True, timeout=30)
        return proc

    @staticmethod
    def parse(stdout):
        head, _, body = stdout.partition(b"\r\n\r\n")
        lines = head.decode().split("\r\n")
        headers = dict(l.split(": ", 1) for l in lines[1:])
        return lines[0], {k.lower(): v for k, v in headers.items()}, body

    def test_get_config(self):
        proc = self.cgi("GET", "/api/v1/config")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        status, headers, body = self.parse(proc.stdout)
        self.assertEqual(status, "Status: 200 OK")
        self.assertEqual(headers["content-type"], H.JSON_CT)
        self.assertEqual(int(headers["content-length"]), len(body))
        self.assertEqual(json.loads(body)["countries"], H.SELECTED_COUNTRIES)

    def test_post_query_reads_standard_input(self):
        proc = self.cgi("POST", "/api/v1/offers/query", json.dumps(QUERY).encode(),
                        "application/json")
        status, _, body = self.parse(proc.stdout)
        self.assertEqual(status, "Status: 200 OK", body)
        offers = json.loads(body)["offers"]
        self.assertTrue(offers)
        self.assertLessEqual(len(offers), QUERY["limit"])

    def test_errors_use_the_envelope(self):
        proc = self.cgi("POST", "/api/v1/offers/query", b"{nope", "application/json")
        status, _, body = self.parse(proc.stdout)
        self.assertEqual(status, "Status: 400 Bad Request")
        self.assertEqual(json.loads(body)["error"]["code"], "invalid_json")

    def test_tcp_listener_with_thread_count_and_sigterm(self):
        port = H.free_port()
        worker = subprocess.Popen(
            [os.path.join(H.ROOT, self.stack.build, "placard.fcgi"), "--config", self.config,
             "--listen", "127.0.0.1:%d" % port, "--threads", "5"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            self.assertTrue(H.wait_until(lambda: _connectable(port), timeout=10),
                            "the worker did not listen on 127.0.0.1:%d" % port)
            def threads():
                return proc_info.threads(worker.pid)
            # main + 40 intake threads (8 per handler, at least 32; the 5 handlers have no
            # threads of their own since issue 24) + the turns' watch + catalog refresher + event
            # writer + signal watcher + rollup step + retention job + network sync schedule (a
            # sync started through the admin API adds one more while it runs) + one password-hash
            # thread (password_hash.concurrency, issue 22) + the click journal's replay job (the
            # stack's config names a journal.dir, issue 25) + the heap trimmer (issue 24); the
            # socket listens before they all start.
            expected = 1 + 40 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1
            # make test SANITIZE=thread: ThreadSanitizer's runtime runs one thread of its own.
            with open("/proc/%d/maps" % worker.pid) as maps:
                expected += 1 if any("libtsan" in line for line in maps) else 0
            H.wait_until(lambda: threads() == expected, timeout=5)
            self.assertEqual(threads(), expected)
            status, headers, body = self.parse(fastcgi_get(port, "/api/v1/config"))
            self.assertEqual(status, "Status: 200 OK")
            self.assertEqual(json.loads(body)["countries"], H.SELECTED_COUNTRIES)
            started = time.monotonic()
            worker.send_signal(signal.SIGTERM)
            self.assertEqual(worker.wait(timeout=5), 0)
            self.assertLess(time.monotonic() - started, 1.0)
        finally:
            if worker.poll() is None:
                worker.kill()
                worker.wait()

    def test_unix_socket_connection_closed_without_waiting_for_the_server(self):
        """On a unix socket, once every byte of input is read and the answer written, the worker
        closes at once instead of libfcgi's lingering close (which waits up to 2 s for the web
        server to close first). With one request thread, a server that keeps a finished
        connection open must not hold up the next request; input left unread (an early 413)
        still gets the lingering close and a whole answer."""
        path = self.stack.path("run", "fastclose.sock")
        worker = subprocess.Popen(
            [os.path.join(H.ROOT, self.stack.build, "placard.fcgi"), "--config", self.config,
             "--listen", "unix:" + path, "--threads", "1"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

        def connect():
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(10)
            sock.connect(path)
            return sock

        try:
            self.assertTrue(H.wait_until(lambda: _listening(path), timeout=10),
                            "the worker did not listen on " + path)
            query = json.dumps(QUERY).encode()
            for method, uri, body in (("GET", "/api/v1/config", b""),
                                      ("POST", "/api/v1/offers/query", query)):
                held = connect()  # answered, then kept open, as a slow web server might
                try:
                    fastcgi_send(held, method, uri, body)
                    status, _, _ = self.parse(fastcgi_read(held))
                    self.assertEqual(status, "Status: 200 OK")
                    started = time.monotonic()
                    with connect() as sock:
                        fastcgi_send(sock, "GET", "/api/v1/config")
                        status, _, _ = self.parse(fastcgi_read(sock))
                    self.assertEqual(status, "Status: 200 OK")
                    self.assertLess(time.monotonic() - started, 1.0,
                                    "the only request thread still waited on the finished %s "
                                    "%s connection" % (method, uri))
                finally:
                    held.close()
            # A body refused before it was read: the answer still arrives whole.
            big = b"x" * (64 * 1024)
            with connect() as sock:
                fastcgi_send(sock, "POST", "/api/v1/offers/query", big)
                status, _, body = self.parse(fastcgi_read(sock))
            self.assertEqual(status, "Status: 413 Payload Too Large")
            self.assertEqual(json.loads(body)["error"]["code"], "body_too_large")
        finally:
            worker.terminate()
            worker.wait(timeout=10)

    def test_connection_the_web_server_would_keep_is_closed_and_the_log_says_why(self):
        """FCGI_KEEP_CONN (Apache's enablereuse=on) is not honoured: the answer comes whole and
        the connection closes right after it, also after a body that came late (whose reads
        were bounded by the body's deadline), and the worker's log says once, not per request,
        that the web server should stop asking (docs/operations.md, "Apache: no enablereuse")."""
        log_path = self.stack.path("log", "keepconn.log")
        config = self.stack.path("placard-keepconn.conf")
        with open(self.config) as f:
            lines = [l for l in f if not l.startswith("log_file")]
        with open(os.open(config, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
            f.writelines(lines + ["log_file = %s\n" % log_path])
        path = self.stack.path("run", "keepconn.sock")
        worker = subprocess.Popen(
            [os.path.join(H.ROOT, self.stack.build, "placard.fcgi"), "--config", config,
             "--listen", "unix:" + path, "--threads", "1"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        query = json.dumps(QUERY).encode()
        post = [("REQUEST_METHOD", "POST"), ("REQUEST_URI", "/api/v1/offers/query"),
                ("QUERY_STRING", ""), ("SERVER_PROTOCOL", "HTTP/1.1"),
                ("REMOTE_ADDR", "127.0.0.1"), ("CONTENT_TYPE", "application/json"),
                ("CONTENT_LENGTH", str(len(query)))]
        get = [("REQUEST_METHOD", "GET"), ("REQUEST_URI", "/api/v1/config"),
               ("QUERY_STRING", ""), ("SERVER_PROTOCOL", "HTTP/1.1"),
               ("REMOTE_ADDR", "127.0.0.1")]

        def kept_request(env, body, late):
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(10)
                sock.connect(path)
                sock.sendall(fcgi_client.head_bytes(env, fcgi_client.KEEP_CONN))
                if late:
                    time.sleep(0.3)  # the worker waits for the body with its deadline set
                sock.sendall(fcgi_client.body_bytes(body))
                status, _, answer = self.parse(fcgi_client.read_answer(sock))
                sock.settimeout(2)
                try:
                    rest = sock.recv(1)
                except socket.timeout:
                    self.fail("the worker kept the connection open after its answer")
                self.assertEqual(rest, b"", "bytes after the end of the answer")
                return status, answer

        try:
            self.assertTrue(H.wait_until(lambda: _listening(path), timeout=10),
                            "the worker did not listen on " + path)
            for env, body, late in ((post, query, True), (get, b"", False), (post, query, False)):
                status, answer = kept_request(env, body, late)
                self.assertEqual(status, "Status: 200 OK")
                self.assertIsInstance(json.loads(answer), dict)
            with open(log_path) as f:
                told = [l for l in f if "FCGI_KEEP_CONN" in l]
            self.assertEqual(len(told), 1, told)
            self.assertIn("enablereuse", told[0])
        finally:
            worker.terminate()
            worker.wait(timeout=10)

    def test_refuses_to_start_with_nothing_to_serve(self):
        proc = self.cgi("GET", "/api/v1/config", gateway=False)
        self.assertEqual(proc.returncode, 2)
        self.assertIn(b"nothing to listen on", proc.stderr)
        self.assertEqual(proc.stdout, b"")

    def test_bench_echo_answers_a_constant_body(self):
        # The benchmark baseline (--bench-echo): no config, no database, the same adapter, a
        # constant body of about 1 KiB.
        path = self.stack.path("run", "echo.sock")
        worker = subprocess.Popen(
            [os.path.join(H.ROOT, self.stack.build, "placard.fcgi"), "--bench-echo",
             "--listen", "unix:" + path, "--threads", "2"],
            env={"PATH": "/usr/bin:/bin", **H.sanitizer_env()}, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE)
        try:
            self.assertTrue(H.wait_until(lambda: _listening(path), timeout=10),
                            "the echo worker did not listen on " + path)
            for _ in range(2):
                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                    sock.settimeout(10)
                    sock.connect(path)
                    fastcgi_send(sock, "GET", "/anything")
                    status, headers, body = self.parse(fastcgi_read(sock))
                self.assertEqual(status, "Status: 200 OK")
                self.assertEqual(json.loads(body), {"echo": "x" * (1024 - 12)})
                self.assertTrue(headers.get("x-request-id"))
        finally:
            worker.terminate()
            self.assertEqual(worker.wait(timeout=10), 0)

    def test_the_socket_path_always_takes_connections(self):
        # The socket is made under a name of its own and renamed onto the path once it listens
        # (fcgi-app/listen_socket.cpp): a worker that fails to start leaves the path as it was,
        # still the running worker's, and no file of its own; one that starts replaces it with a
        # socket that answers at once.
        path = self.stack.path("run", "atomic.sock")
        binary = os.path.join(H.ROOT, self.stack.build, "placard.fcgi")

        def echo(*extra):
            return subprocess.Popen([binary, "--bench-echo", "--listen", "unix:" + path,
                                     "--threads", "2"] + list(extra),
                                    env={"PATH": "/usr/bin:/bin", **H.sanitizer_env()}, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

        def answers():
            return self.parse(_fastcgi_answer(path, "/anything"))[0]

        before = set(os.listdir(os.path.dirname(path)))
        first = echo()
        try:
            self.assertTrue(H.wait_until(lambda: _listening(path), timeout=10))
            inode = os.stat(path).st_ino
            # Fails after its bind: no such group. Before, it had unlinked the running worker's
            # socket and left its own at the path, bound and refusing every connection.
            failed = echo("--socket-group", "no-such-group-placard")
            _, err = failed.communicate(timeout=20)
            self.assertNotEqual(failed.returncode, 0)
            self.assertIn(b"no group named", err)
            self.assertEqual(os.stat(path).st_ino, inode, "the running worker's socket was replaced")
            self.assertEqual(answers(), "Status: 200 OK")
            self.assertEqual(set(os.listdir(os.path.dirname(path))), before | {"atomic.sock"})
            # A second worker that starts takes the path over; the path answers throughout.
            second = echo()
            try:
                seen = []
                deadline = time.monotonic() + 10
                while time.monotonic() < deadline and os.stat(path).st_ino == inode:
                    seen.append(answers())
                self.assertNotEqual(os.stat(path).st_ino, inode, "the second worker never took the path")
                seen.append(answers())
                self.assertEqual(set(seen), {"Status: 200 OK"})
                self.assertEqual(set(os.listdir(os.path.dirname(path))), before | {"atomic.sock"})
            finally:
                second.terminate()
                second.wait(timeout=10)
        finally:
            first.terminate()
            first.wait(timeout=10)
            if os.path.lexists(path):
                os.unlink(path)

    def test_a_replaced_worker_leaves_the_new_socket_when_it_stops(self):
        # A worker removes its socket file when it stops, but only its own: one started later on
        # the same path took the path over, and stopping the first must not cut the second off.
        # The first is a supervisor (--processes 1: the file is the supervisor's), the second a
        # single process (its own file).
        path = self.stack.path("run", "handover.sock")
        binary = os.path.join(H.ROOT, self.stack.build, "placard.fcgi")

        def worker(*extra):
            return subprocess.Popen([binary, "--config", self.config, "--listen", "unix:" + path,
                                     "--threads", "2"] + list(extra),
                                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)

        def config_status():
            return self.parse(_fastcgi_answer(path, "/api/v1/config"))[0]

        first = worker("--processes", "1")
        second = None
        try:
            self.assertTrue(H.wait_until(lambda: _listening(path), timeout=20))
            inode = os.stat(path).st_ino
            second = worker()
            self.assertTrue(H.wait_until(lambda: os.stat(path).st_ino != inode and _listening(path),
                                         timeout=20), "the second worker never took the path")
            taken = os.stat(path).st_ino
            first.terminate()
            self.assertEqual(first.wait(timeout=20), 0)
            self.assertTrue(os.path.exists(path), "the first worker removed the second's socket")
            self.assertEqual(os.stat(path).st_ino, taken)
            self.assertEqual(config_status(), "Status: 200 OK")
            second.terminate()
            self.assertEqual(second.wait(timeout=20), 0)
            self.assertFalse(os.path.lexists(path), "the second worker left its own socket file")
        finally:
            for w in (first, second):
                if w is not None and w.poll() is None:
                    w.kill()
                    w.wait()
            if os.path.lexists(path):
                os.unlink(path)

    def test_numeric_flags_are_read_whole(self):
        # --threads, --processes and PLACARD_THREADS are numbers and nothing else, in range:
        # "8x" is refused (std::stoi read it as 8), as are 0, 257 and an empty value.
        binary = os.path.join(H.ROOT, self.stack.build, "placard.fcgi")
        env = {"PATH": "/usr/bin:/bin", "PLACARD_CONFIG": self.config, **H.sanitizer_env()}
        cases = [(["--threads", "8x"], {}, b"--threads must be a number from 1 to 256"),
                 (["--threads", "0"], {}, b"--threads must be a number from 1 to 256"),
                 (["--processes", "65"], {}, b"--processes must be a number from 1 to 64"),
                 (["--processes", ""], {}, b"--processes must be a number from 1 to 64"),
                 (["--listen", "127.0.0.1:%d" % H.free_port()], {"PLACARD_THREADS": "257"},
                  b"PLACARD_THREADS must be a number from 1 to 256"),
                 (["--bogus"], {}, b"unknown argument --bogus")]
        for args, extra, message in cases:
            with self.subTest(args=args, env=extra):
                proc = subprocess.run([binary] + args, env=dict(env, **extra),
                                      stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
                self.assertEqual(proc.returncode, 1, proc.stderr)
                self.assertIn(message, proc.stderr)
        for flag, out in (("--version", b"placard.fcgi "), ("--help", b"--bench-echo")):
            proc = subprocess.run([binary, flag], env=env, capture_output=True, timeout=30)
            self.assertEqual(proc.returncode, 0)
            self.assertIn(out, proc.stdout)


class PortableEventInsertTests(H.StackTestCase):
    """db.event_insert = transaction: the writer path for servers without INSERT ... RETURNING
    (MySQL 8), run here against MariaDB: the same answers and the same counting."""

    @classmethod
    def prepare_stack(cls):
        path = cls.stack.path("placard.conf")
        with open(path) as f:
            text = f.read()
        assert "db.event_insert = auto\n" in text, "placardctl init wrote no db.event_insert"
        with open(path, "w") as f:
            f.write(text.replace("db.event_insert = auto\n", "db.event_insert = transaction\n"))
        cls.stack.restart()

    def fresh_token(self):
        offers = H.query_offers(**{k: v for k, v in QUERY.items() if k != "placement"})
        return offers[0]["impressionToken"]

    def test_recorded_then_duplicate(self):
        token = self.fresh_token()
        answers = [json.loads(H.impression(token)[2])["status"] for _ in range(3)]
        self.assertEqual(answers, ["recorded", "duplicate", "duplicate"])
        with open(self.stack.path("log", "placard.log")) as f:
            log = f.read()
        self.assertIn("events: batched inserts in transactions of single-row inserts", log)
        self.assertNotIn("RETURNING", log)

    def test_concurrent_retries_count_once(self):
        token = self.fresh_token()
        nonce = H.decode_token(token)["nonce"]
        with concurrent.futures.ThreadPoolExecutor(32) as pool:
            results = list(pool.map(lambda _: H.impression(token), range(32)))
        statuses = [json.loads(body)["status"] for st, _, body in results if st == 200]
        self.assertEqual(len(statuses), 32)
        self.assertEqual(statuses.count("recorded"), 1)
        self.assertEqual(H.rows_for_nonce("impressions", nonce), 1)


def _fastcgi_answer(path, uri):
    """One GET through a new connection to the unix socket at path: the raw answer."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(10)
        sock.connect(path)
        fastcgi_send(sock, "GET", uri)
        return fastcgi_read(sock)


def _listening(path):
    """The unix socket takes connections: its file exists from bind(), connections are taken
    from listen() on, a moment later (seen refused in between under the sanitizers)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(path)
            return True
        except OSError:
            return False


def _connectable(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--summary", required=True)
    parser.add_argument("--build", default=os.environ.get("BUILD", "build"))
    args = parser.parse_args()
    os.environ["BUILD"] = args.build
    suite = unittest.TestSuite()
    for case in (FcgidSpawnedTests, CgiModeTests, PortableEventInsertTests,
                 test_placardctl.PlacardctlTests):
        suite.addTests(unittest.defaultTestLoader.loadTestsFromTestCase(case))
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    failed = len(result.failures) + len(result.errors)
    # A class whose setUpClass failed counts one error and runs none of its tests.
    passed = max(0, result.testsRun - failed - len(result.skipped))
    failed += len(H.stop_spare())  # the spare stack's sanitizer reports, if any
    with open(args.summary, "w") as f:
        json.dump({"passed": passed, "failed": failed}, f)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
