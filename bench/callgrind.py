#!/usr/bin/env python3
"""Instructions per request, counted by valgrind's callgrind: steady on a shared machine where
requests/s are not (issue 24). Works on a stack that `BENCH_KEEP=1 make bench` left running
(with BENCH_COMPARE, also on the other commit's stack under <var>-compare):

    bench/callgrind.py --var build/bench/var --port 18300 --fcgi build/placard.fcgi \
        --what query --lines build/bench/data/query-mix.txt

It stops the process that answers WHAT (the worker for query/config/categories, the echo worker
for echo, the bare program for bare), starts the same binary under callgrind on the same socket,
sends WARMUP requests, zeroes the counters, sends REQUESTS more one after the other through the
web server, dumps, and prints `instructions/request`. The background threads (catalog poll,
rollup job) count too: a few hundred thousand instructions a second, against tens of thousands
per request. The process stays under callgrind afterwards: stop the stack when done
(docs/performance.md, profiling recipes)."""

import argparse
import glob
import http.client
import os
import re
import signal
import subprocess
import sys
import time

PATHS = {"query": ("POST", "/api/v1/offers/query"), "config": ("GET", "/api/v1/config"),
         "categories": ("GET", "/api/v1/categories"), "echo": ("GET", "/bench/echo"),
         "bare": ("GET", "/bench/bare")}


def read_pid(path):
    try:
        with open(path) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def stop(pid):
    if pid is None:
        return
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    for _ in range(100):
        if not os.path.exists("/proc/%d" % pid):
            return
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)


def command(args, run):
    """The process to measure, as the bench starts it, and its socket."""
    group = subprocess.run(["id", "-gn"], capture_output=True, text=True).stdout.strip()
    if args.what == "bare":
        sock = os.path.join(run, "bench-bare.sock")
        return [args.bare, sock, str(args.threads), group], sock, os.path.join(run, "bench-bare.pid")
    if args.what == "echo":
        sock = os.path.join(run, "bench-echo.sock")
        cmd = [args.fcgi, "--bench-echo", "--listen", "unix:" + sock, "--threads", str(args.threads)]
        return cmd, sock, os.path.join(run, "bench-echo.pid")
    sock = os.path.join(run, "placard.sock")
    cmd = [args.fcgi, "--config", os.path.join(args.var, "placard.conf"), "--threads", str(args.threads)]
    return cmd, sock, os.path.join(run, "placard.pid")


def send(port, method, path, bodies, n):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Accept-Encoding": "gzip", "Content-Type": "application/json"}
    for i in range(n):
        body = bodies[i % len(bodies)] if bodies else None
        conn.request(method, path, body=body, headers=headers)
        r = conn.getresponse()
        r.read()
        if r.status >= 400:
            raise SystemExit("callgrind: %s %s answered %d" % (method, path, r.status))
    conn.close()


def total_ir(out_file):
    text = subprocess.run(["callgrind_annotate", "--threshold=100", out_file], capture_output=True,
                          text=True).stdout
    m = re.search(r"([\d,]+)\s+\(100\.0%\)\s+PROGRAM TOTALS", text) or re.search(r"([\d,]+)\s+PROGRAM TOTALS", text)
    if not m:
        raise SystemExit("callgrind: no totals in %s" % out_file)
    return int(m.group(1).replace(",", ""))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--var", required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--fcgi", default="build/placard.fcgi")
    ap.add_argument("--bare", default="build/bench-bare-fcgi")
    ap.add_argument("--what", choices=sorted(PATHS), required=True)
    ap.add_argument("--lines", help="request bodies, one a line (query)")
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--warmup", type=int, default=200)
    ap.add_argument("--requests", type=int, default=1000)
    ap.add_argument("--out", default="build/bench/callgrind")
    args = ap.parse_args()
    run = os.path.join(args.var, "run")
    cmd, sock, pidfile = command(args, run)
    stop(read_pid(pidfile))
    if os.path.exists(sock):
        os.unlink(sock)
    os.makedirs(args.out, exist_ok=True)
    prefix = os.path.join(os.path.abspath(args.out), "%s-%d" % (args.what, os.getpid()))
    env = dict(os.environ)
    for k in ("PLACARD_LISTEN", "PLACARD_THREADS", "PLACARD_CONFIG"):
        env.pop(k, None)
    env["PLACARD_LOG_FILE"] = os.path.join(args.var, "log", "callgrind-%s.log" % args.what)
    proc = subprocess.Popen(["valgrind", "--tool=callgrind", "--callgrind-out-file=%s.%%p" % prefix] + cmd,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(prefix + ".err", "w"),
                            env=env, start_new_session=True)
    with open(pidfile, "w") as f:
        f.write("%d\n" % proc.pid)
    for _ in range(6000):  # the first snapshot of 100,000 offers takes a minute under callgrind
        if os.path.exists(sock):
            break
        time.sleep(0.1)
    else:
        raise SystemExit("callgrind: %s did not create %s" % (cmd[0], sock))
    os.chmod(sock, 0o666)
    method, path = PATHS[args.what]
    bodies = None
    if method == "POST":
        with open(args.lines, encoding="utf-8") as f:
            bodies = [line.strip().encode() for line in f if line.strip()]
    send(args.port, method, path, bodies, args.warmup)
    subprocess.run(["callgrind_control", "-z", str(proc.pid)], check=True, capture_output=True)
    t0 = time.monotonic()
    send(args.port, method, path, bodies, args.requests)
    seconds = time.monotonic() - t0
    subprocess.run(["callgrind_control", "-d", str(proc.pid)], check=True, capture_output=True)
    dumps = sorted(glob.glob("%s.%d.*" % (prefix, proc.pid)), key=os.path.getmtime)
    if not dumps:
        raise SystemExit("callgrind: no dump under %s" % args.out)
    ir = total_ir(dumps[-1])
    print("%s: %d requests in %.1f s under callgrind: %d instructions, %.0f instructions/request (%s)" % (
        args.what, args.requests, seconds, ir, ir / args.requests, dumps[-1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
