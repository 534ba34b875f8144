"""Issue 15, finding 1: slow request bodies must not hold the worker's request threads.

Apache's mod_proxy_fcgi streams a body to the worker as the client sends it (lighttpd buffers
it whole first), so clients trickling bodies used to occupy every request thread. Here 3x the
worker's threads trickle a byte every half second while config and the offers query must keep
answering within a second; and a body that never completes gets the worker's 408, which the
test reads by speaking FastCGI to the worker's socket itself (the web servers may answer first
with their own timeouts)."""

import json
import os
import socket
import struct
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness as H  # noqa: E402
import fcgi_client  # noqa: E402 (tools/, on the path through the harness)

TRICKLE_INTERVAL = 0.5  # seconds between two bytes of a slow body
PROBE_SECONDS = 4.0  # how long config and query are probed while the bodies trickle
ANSWER_WITHIN = 1.0
JSON = {"Content-Type": "application/json"}


def stack_threads():
    """The worker's request threads in this stack (stack.sh's THREADS, recorded at start)."""
    with open(H.current().path("run", "stack.env")) as f:
        for line in f:
            if line.startswith("THREADS="):
                return int(line.split("=", 1)[1])
    return 8


class Tricklers:
    """`count` raw HTTP connections that POST a body one byte every TRICKLE_INTERVAL; stopped
    (sockets closed) by stop(), whatever state they are in."""

    def __init__(self, port, count, path, body_length=400):
        self.socks = []
        self.stopped = threading.Event()
        head = ("POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                "Content-Length: %d\r\nConnection: close\r\n\r\n" % (H.prefixed(path), body_length)).encode()
        for _ in range(count):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(head + b"{")
            self.socks.append(s)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stopped.wait(TRICKLE_INTERVAL):
            for s in self.socks:
                try:
                    s.send(b" ")
                except OSError:
                    pass  # answered and closed (a timeout): fine, the others keep going

    def stop(self):
        self.stopped.set()
        self.thread.join(timeout=5)
        for s in self.socks:
            s.close()


def timed(fn):
    start = time.monotonic()
    result = fn()
    return result, time.monotonic() - start


class SlowBodyTests(H.E2ETestCase):
    def probe(self, tricklers_path):
        threads = stack_threads()
        count = 3 * threads
        tricklers = Tricklers(H.current().port, count, tricklers_path)
        self.addCleanup(tricklers.stop)
        time.sleep(1.5)  # every slow request has reached the worker by now
        query = json.dumps(H.query_body(category="electronics"))
        deadline = time.monotonic() + PROBE_SECONDS
        probes = 0
        while time.monotonic() < deadline:
            for name, call in (
                    ("config", lambda: H.http("GET", "/api/v1/config", timeout=ANSWER_WITHIN + 1)),
                    ("query", lambda: H.http("POST", "/api/v1/offers/query", query, JSON,
                                             timeout=ANSWER_WITHIN + 1))):
                try:
                    (st, _, body), took = timed(call)
                except OSError as e:
                    self.fail("%s gave no answer while %d bodies trickled: %s" % (name, count, e))
                self.assertEqual(st, 200, "%s while %d bodies trickled: %r" % (name, count, body[:200]))
                self.assertLess(took, ANSWER_WITHIN,
                                "%s took %.2f s while %d bodies trickled" % (name, took, count))
                probes += 1
            time.sleep(0.2)
        self.assertGreaterEqual(probes, 6)

    def test_config_and_query_answer_while_impression_bodies_trickle(self):
        self.probe("/api/v1/events/impression")

    def test_config_and_query_answer_while_query_bodies_trickle(self):
        self.probe("/api/v1/offers/query")


# ---- FastCGI, spoken straight to the worker's socket --------------------------------------

BEGIN_REQUEST, END_REQUEST, PARAMS, STDIN, STDOUT = 1, 3, 4, 5, 6


record, name_value = fcgi_client.record, fcgi_client.name_value


def fcgi_request_head(path, body_length):
    params = {
        "REQUEST_METHOD": "POST", "REQUEST_URI": path, "SCRIPT_NAME": path, "QUERY_STRING": "",
        "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(body_length),
        "REMOTE_ADDR": "127.0.0.1", "SERVER_PROTOCOL": "HTTP/1.1", "HTTP_HOST": "127.0.0.1",
    }
    content = b"".join(name_value(k.encode(), v.encode()) for k, v in params.items())
    return (record(BEGIN_REQUEST, struct.pack(">HB5x", 1, 0)) + record(PARAMS, content)
            + record(PARAMS, b""))


def read_stdout(sock, timeout):
    """Everything the worker writes on FCGI_STDOUT until its END_REQUEST (or it closes)."""
    sock.settimeout(timeout)
    data, out = b"", b""
    while True:
        while len(data) >= 8:
            _, kind, _, clen, plen, _ = struct.unpack(">BBHHBB", data[:8])
            if len(data) < 8 + clen + plen:
                break
            if kind == STDOUT:
                out += data[8:8 + clen]
            data = data[8 + clen + plen:]
            if kind == END_REQUEST:
                return out
        chunk = sock.recv(65536)
        if not chunk:
            return out
        data += chunk


class WorkerBodyTimeoutTests(H.E2ETestCase):
    def test_a_body_that_never_completes_gets_408_and_frees_the_thread(self):
        path = H.current().path("run", "placard.sock")
        if not os.path.exists(path):
            self.skipTest("no worker socket in this stack (mod_fcgid spawns its own)")
        socks = []
        self.addCleanup(lambda: [s.close() for s in socks])
        for _ in range(3 * stack_threads()):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            s.sendall(fcgi_request_head(H.prefixed("/api/v1/events/impression"), 100)
                      + record(STDIN, b"{"))
            socks.append(s)
        # The worker still answers others at once while those bodies are missing.
        (st, _, _), took = timed(lambda: H.http("GET", "/api/v1/config", timeout=3))
        self.assertEqual(st, 200)
        self.assertLess(took, ANSWER_WITHIN)
        start = time.monotonic()
        out = read_stdout(socks[0], timeout=15)
        waited = time.monotonic() - start
        head, _, body = out.partition(b"\r\n\r\n")
        self.assertTrue(head.startswith(b"Status: 408"), out[:300])
        self.assertIn(b"Content-Type: application/json; charset=utf-8", head)
        self.assertError((408, {"content-type": H.JSON_CT, "x-request-id": "x"}, body),
                         408, "request_timeout", H.NO_FIELD)
        self.assertLess(waited, 12, "the 408 came after %.1f s" % waited)
