#!/usr/bin/env python3
"""The registration-flood step of `make bench` (scripts/bench.sh, issue 22): --clients clients,
each from an address of its own (127.0.5.N on the loopback interface), register accounts and
sign in as fast as they can for --seconds (a third each: a registration with a fresh e-mail, a
wrong password for an existing account, the right password of a pending account, which costs a
full password hash), while bench.sh measures the public API with wrk. Python 3 stdlib only.

    registration_flood.py --base-url http://127.0.0.1:PORT --pid-file VAR/run/placard.pid
                          [--seconds 10] [--clients 32] [--ready FILE]

Prints one line: BENCHFLOOD {json} (requests, answers by status and code, the worker's resident
memory before and at its peak, KiB)."""

import argparse
import http.client
import json
import os
import secrets
import sys
import threading
import time
from urllib.parse import urlsplit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
import proc_info  # noqa: E402


def post(base, source_ip, path, doc):
    u = urlsplit(base)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=15, source_address=(source_ip, 0))
    try:
        conn.request("POST", "/admin/api/v1" + path, body=json.dumps(doc),
                     headers={"Content-Type": "application/json", "Origin": base,
                              "X-Service-Mark": "admin"})
        r = conn.getresponse()
        raw = r.read()
        try:
            code = json.loads(raw).get("error", {}).get("code", "") if raw else ""
        except ValueError:
            code = "?"
        return "%d %s" % (r.status, code)
    finally:
        conn.close()


def rss_kib(pid_file):
    """VmRSS of the process in pid_file and its children."""
    with open(pid_file) as f:
        return proc_info.tree_rss_kb(int(f.read().strip()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base-url", required=True)
    ap.add_argument("--pid-file", required=True)
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--ready")
    a = ap.parse_args()
    if not 1 <= a.clients <= 250 or not 0 < a.seconds <= 600:
        raise SystemExit("registration_flood: --clients 1..250, --seconds up to 600")
    tag = secrets.token_hex(3)
    pending = ("flood-pending-%s@bench.test" % tag, "pw-" + secrets.token_hex(8))
    known = ("flood-known-%s@bench.test" % tag, "pw-" + secrets.token_hex(8))
    for i, (email, pw) in enumerate((pending, known)):
        st = post(a.base_url, "127.0.6.%d" % (i + 1), "/accounts", {"email": email, "password": pw})
        if not st.startswith("201"):
            raise SystemExit("registration_flood: registering %s answered %s" % (email, st))

    answers = {}
    lock = threading.Lock()
    stop = threading.Event()
    rss_before = rss_kib(a.pid_file)
    peak = [rss_before]

    def client(n):
        ip = "127.0.5.%d" % (n + 1)
        deadline = time.monotonic() + a.seconds
        k = 0
        while time.monotonic() < deadline:
            try:
                if k % 3 == 0:
                    st = post(a.base_url, ip, "/accounts",
                              {"email": "flood-%s-%d-%d@bench.test" % (tag, n, k),
                               "password": "pw-" + secrets.token_hex(8)})
                elif k % 3 == 1:
                    st = post(a.base_url, ip, "/session", {"email": known[0], "password": "wrong %d" % k})
                else:
                    st = post(a.base_url, ip, "/session", {"email": pending[0], "password": pending[1]})
            except OSError as e:
                st = "error %s" % type(e).__name__
            with lock:
                answers[st] = answers.get(st, 0) + 1
            k += 1

    def sample():
        while not stop.is_set():
            peak[0] = max(peak[0], rss_kib(a.pid_file))
            stop.wait(0.2)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(a.clients)]
    sampler = threading.Thread(target=sample)
    if a.ready:
        with open(a.ready, "w") as f:
            f.write("ready\n")
    started = time.monotonic()
    for t in threads + [sampler]:
        t.start()
    for t in threads:
        t.join(a.seconds + 60)
    stop.set()
    sampler.join(5)
    print("BENCHFLOOD " + json.dumps({
        "clients": a.clients, "seconds": round(time.monotonic() - started, 1),
        "requests": sum(answers.values()), "answers": answers,
        "rss_before_kb": rss_before, "rss_peak_kb": peak[0]}, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
