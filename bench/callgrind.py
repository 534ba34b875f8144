#!/usr/bin/env python3
"""Instructions per request, counted by valgrind's callgrind: steady on a shared machine where
requests/s are not (issue 24). Works on a stack that `BENCH_KEEP=1 make bench` left running
(with BENCH_COMPARE, also on the other commit's stack under <var>-compare):

    bench/callgrind.py --var build/bench/var --port 18300 --fcgi build/placard.fcgi \
        --what query --lines build/bench/data/query-mix.txt

It stops the process that answers WHAT (the worker for query/config/categories/impression/click,
the echo worker for echo, the bare program for bare), starts the same binary under callgrind on
the same socket, sends WARMUP requests, zeroes the counters, sends REQUESTS more through the web
server (one after the other, or from --parallel connections at a time), dumps, and prints `instructions/request`. The background threads (catalog poll,
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
import threading
import time

PATHS = {"query": ("POST", "/api/v1/offers/query"), "config": ("GET", "/api/v1/config"),
         "categories": ("GET", "/api/v1/categories"), "echo": ("GET", "/bench/echo"),
         "bare": ("GET", "/bench/bare"), "impression": ("POST", "/api/v1/events/impression"),
         "click": ("GET", None)}


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


def send(port, method, path, lines, n, parallel=1):
    """n requests, `parallel` connections at a time; lines are used in turn (each once if there
    are enough: fresh event tokens) as bodies (POST) or paths (path None)."""
    def one(share):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = {"Accept-Encoding": "gzip", "Content-Type": "application/json"}
        for line in share:
            target = path if path is not None else line.decode()
            body = line if method == "POST" else None
            conn.request(method, target, body=body, headers=headers)
            r = conn.getresponse()
            r.read()
            if r.status >= 400:
                raise SystemExit("callgrind: %s %s answered %d" % (method, target, r.status))
        conn.close()
    items = [lines[i % len(lines)] if lines else None for i in range(n)]
    if parallel <= 1:
        one(items)
        return
    workers = [threading.Thread(target=one, args=(items[k::parallel],)) for k in range(parallel)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()


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
    ap.add_argument("--lines", help="one a line: request bodies (query), event tokens (impression; "
                    "each used once: fresh), click paths (click, as bench/mint_tokens.py writes them)")
    ap.add_argument("--parallel", type=int, default=1,
                    help="connections at a time (events: > 1 lets the event writer batch them)")
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--warmup", type=int, default=200)
    ap.add_argument("--requests", type=int, default=1000)
    ap.add_argument("--out", default="build/bench/callgrind")
    args = ap.parse_args()
    # Absolute: the worker's --listen refuses a relative unix socket path (the recipe's
    # `--var build/bench/var` left `--what echo` with no socket).
    args.var = os.path.abspath(args.var)
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
    lines = None
    if args.lines:
        with open(args.lines, encoding="utf-8") as f:
            lines = [line.strip().encode() for line in f if line.strip()]
        if args.what == "impression":
            lines = [b'{"impressionToken":"' + t + b'"}' for t in lines]
        if args.what in ("impression", "click") and len(lines) < args.warmup + args.requests:
            raise SystemExit("callgrind: %d tokens, fewer than the %d requests (fresh tokens only)" % (
                len(lines), args.warmup + args.requests))
    elif method == "POST" or path is None:
        raise SystemExit("callgrind: --what %s needs --lines" % args.what)
    send(args.port, method, path, lines, args.warmup, args.parallel)
    if lines and args.what in ("impression", "click"):
        lines = lines[args.warmup:]
    subprocess.run(["callgrind_control", "-z", str(proc.pid)], check=True, capture_output=True)
    t0 = time.monotonic()
    send(args.port, method, path, lines, args.requests, args.parallel)
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
