#!/usr/bin/env python3
"""`make soak`: the public API's mix at 80% of the capacity measured at the start of the same run,
for SOAK_SECONDS (600), behind lighttpd (or --server apache), on 127.0.0.1.

1. A private stack with the e2e fixtures (WORKERS worker processes under the supervisor).
2. A request mix (config 10%, categories 10%, offers queries 40% over several categories,
   countries and placements, impressions 30% and clicks 10% with fresh tokens minted with the
   stack's key), one file per wrk thread (soak.lua reads its own as it sends), enough lines for
   the whole soak at its rate: every impression and click of the run is a new row, so the event
   writer, the rollups and InnoDB carry the soak's whole length (up to MAX_LINES a run; the files
   are deleted at the end).
3. Capacity: wrk at full speed on that mix for --probe seconds.
4. The soak: wrk paced at 80% of that (soak.lua's delay() hook hands out send times).
5. Figures at the start (after --warm seconds of the soak, and at least 32 s after the stack
   started, once the retention job has made its database session) and at the end (just before
   it stops):
   each worker process's VmRSS and open descriptors, the supervisor's, MariaDB's
   Threads_connected; sampled every 10 s in between for the report.

Checks: no answer outside 2xx/3xx and no connect, write or timeout error; the rate held (at least
90% of the target); worker RSS at the end within 10% + 8 MiB of the start (the allocator's arenas
and the request threads' buffers settle in the first minute; a leak of one allocation per request
is far beyond that in 10 minutes); open descriptors at the end within THREADS per process of the
start (each in-flight request holds one FastCGI connection); Threads_connected at the end at most
the start + 2 (each worker process keeps a session for its catalog poll, event writer, rollup
and retention jobs, and one per request thread that needed the database, made lazily); MariaDB's
Prepared_stmt_count at the end at most the start + PREPARED_TOLERANCE per worker process (each
session keeps what it prepared: a statement whose text changed with every count of rows left the
worker ~12 MiB larger after ten minutes, and as many statements on the server).

Counting (rollup_state.py; the stack looks at counted spans again after LATE_CHECK_S, not 60 s):
at every sample, the oldest span kept for the late look is at most LATE_CHECK_S + SPAN_SLACK_S
older than the newest (every pass that counts new rows makes a span and drops the due ones: a
look that stopped dropping would leave them to pile up for as long as the service runs; while
no new rows come, as once soak.lua starts over on its lines, no pass makes or drops one, and the
kept spans only age); and once the load stops, the rollups count every raw row once within
ROLLUP_SETTLE_S (they kept up, and nothing was counted twice or lost over the run).

Prints a pass/fail table; --summary writes the figures too.
"""

import argparse
import concurrent.futures
import glob
import json
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import common as C  # noqa: E402
import rollup_state  # noqa: E402

H = C.H
LUA = os.path.join(HERE, "soak.lua")
CLICKABLE = (1300, 1301, 1302, 1303, 1304, 1305, 1309, 1310, 1311)
QUERY_CATEGORIES = ("electronics", "electronics.audio", "books", "clicks", "bulk", "rotation", None)
QUERY_COUNTRIES = ("DE", "DE", "DE", "FR", "US")
QUERY_PLACEMENTS = ("wide", "sidebar", "popup-main")
MAX_LINES = 16_000_000  # ~1.2 GB of lines, 600 s at 25,000 requests/s; a longer run starts over
PROBE_LINES_PER_S = 40000  # above any capacity of this machine: the probe sends fresh tokens too
RSS_TOLERANCE = (0.10, 8 * 1024)  # fraction, plus kB
DB_CONN_TOLERANCE = 2
# Prepared statements the server holds, per worker process: a batch size, or a burst's, seen for
# the first time after the start may add a shape (docs/architecture.md, "Database sessions"); a
# statement made anew for every count of rows adds one almost every pass (~1 a second).
PREPARED_TOLERANCE = 32
JOBS_CONNECTED_S = 32  # the retention job's first run: 30 s after a worker process starts
SPAN_SLACK_S = 10  # a due span is dropped by the next pass that counts new rows (one a second)
SPAN_REREAD_S = 2  # a pass makes its span before it drops the due ones: a spread read in between is read again
ROLLUP_SETTLE_S = 30  # after the load, the rollups count every raw row within this


def _mix_lines():
    """The mix's lines without a token, as (x below which a line is drawn from them, lines): x is
    the draw in [0, 1), so config 10%, categories 10%, queries 40%; the rest, impressions 30%
    and clicks 10%, get fresh tokens."""
    queries = []
    for country in QUERY_COUNTRIES:
        for placement in QUERY_PLACEMENTS:
            for cat in QUERY_CATEGORIES:
                body = {"country": country, "placement": placement, "extensionVersion": "1.4.2"}
                if cat:
                    body["category"] = cat
                queries.append("query\t%s\n" % json.dumps(body, separators=(",", ":")))
    return [(0.10, ["get\t/api/v1/config\n"]), (0.20, ["get\t/api/v1/categories\n"]), (0.60, queries)]


def write_lines(path, count, seed, kid, key, now):
    """Writes `count` lines of kind<TAB>payload to `path`, every token fresh (a new nonce)."""
    rng = random.Random(seed)
    minter = H.placard_tokens.Minter(kid, key)
    mix = _mix_lines()
    out = []
    with open(path, "w") as f:
        for _ in range(count):
            x = rng.random()
            for share, lines in mix:
                if x < share:
                    out.append(rng.choice(lines))
                    break
            else:
                offer = rng.choice(CLICKABLE)
                if x < 0.90:
                    out.append("impression\t%s\n" % minter.mint(H.IMPRESSION, offer, "DE", "wide", now))
                else:
                    out.append("click\t/r/click/%d?t=%s\n" % (offer, minter.mint(H.CLICK, offer, "DE", "wide", now)))
            if len(out) >= 10000:
                f.write("".join(out))
                out = []
        f.write("".join(out))


def make_lines(prefix, count, seed, threads):
    """The mix for `threads` wrk threads: `count` lines over the files prefix.0 .. prefix.N-1
    (soak.lua: thread i reads prefix.i), written by one process per file."""
    keys, active = H.token_keys()
    now = int(time.time())
    for old in glob.glob(prefix + ".*"):
        os.unlink(old)
    per = count // threads + 1
    with concurrent.futures.ProcessPoolExecutor(max_workers=threads) as pool:
        jobs = [pool.submit(write_lines, "%s.%d" % (prefix, i), per, seed * 1000 + i, active,
                            keys[active], now) for i in range(threads)]
        for j in jobs:
            j.result()


def wrk(stack, lines, seconds, rate, p, out):
    env = dict(os.environ, SOAK_LINES=lines, SOAK_THREADS=str(p.wrk_threads), SOAK_RATE=str(int(rate)))
    cmd = ["wrk", "-t%d" % p.wrk_threads, "-c%d" % p.connections, "-d%ds" % seconds, "--timeout", "5s",
           "-s", LUA, "http://127.0.0.1:%d/" % stack.port]
    return subprocess.Popen(cmd, env=env, stdout=open(out, "w"), stderr=subprocess.STDOUT)


def summary_of(out):
    with open(out) as f:
        text = f.read()
    for line in text.splitlines():
        if line.startswith("SOAKJSON "):
            return json.loads(line[len("SOAKJSON "):])
    raise RuntimeError("no SOAKJSON line from wrk:\n" + text[-2000:])


def global_status(stack, name):
    return int(stack.db("SHOW GLOBAL STATUS LIKE '%s'" % name)[0][1])


def sample(stack):
    workers = C.worker_processes(stack)
    master = C.read_pid(stack, "placard.pid")
    figures = {"t": time.monotonic(),
               "workers": {str(w): {"rss_kb": C.rss_kb(w), "fds": C.open_fds(w)} for w in workers},
               "supervisor": {"rss_kb": C.rss_kb(master), "fds": C.open_fds(master)},
               "worker_rss_kb": sum(C.rss_kb(w) or 0 for w in workers),
               "worker_fds": sum(C.open_fds(w) or 0 for w in workers),
               "threads_connected": global_status(stack, "Threads_connected"),
               "prepared_statements": global_status(stack, "Prepared_stmt_count")}
    # Last, as it may wait: the process figures are the sample's time.
    counting = rollup_state.read(stack)
    if counting["span_spread_s"] > rollup_state.LATE_CHECK_S + SPAN_SLACK_S:
        time.sleep(SPAN_REREAD_S)
        counting = rollup_state.read(stack)
    figures.update({k: counting[k] for k in ("spans", "oldest_span_s", "span_spread_s")})
    return figures


def errors_of(s):
    bad_status = {k: v for k, v in s["statuses"].items() if not 200 <= int(k) < 400}
    e = s["errors"]
    return bad_status, e["connect"] + e["write"] + e["timeout"]


def run(p, checks):
    group = p.server
    stack = C.start_stack(p.server, p.build, p.workers, conf=rollup_state.STACK_CONF)
    # The database as docs/operations.md ("MariaDB for event load") has it for sustained event
    # load, as `make bench` runs it: with the embedded stack's 64 MiB redo log, minutes of events
    # end in commits waiting for page flushing (stalls of 50-440 ms, docs/performance.md).
    stack.db_root(b"SET GLOBAL innodb_log_file_size = 512 * 1024 * 1024")
    stack_up = time.monotonic()
    figures = {}
    try:
        os.makedirs(p.out, exist_ok=True)
        probe_lines = os.path.join(p.out, "probe-lines")
        make_lines(probe_lines, p.probe * PROBE_LINES_PER_S, 1, p.wrk_threads)
        proc = wrk(stack, probe_lines, p.probe, 0, p, os.path.join(p.out, "probe.txt"))
        proc.wait(timeout=p.probe + 60)
        probe = summary_of(os.path.join(p.out, "probe.txt"))
        capacity = probe["requests"] * 1e6 / probe["duration_us"]
        target = 0.8 * capacity
        bad, sock = errors_of(probe)
        C.log("capacity %.0f requests/s (p99 %.1f ms); soaking at %.0f/s for %d s"
              % (capacity, probe["latency_us"]["p99"] / 1000, target, p.seconds))
        checks.add(group, "capacity probe answered", not bad and not sock,
                   "%.0f requests/s over %d s, p99 %.1f ms, %s" % (capacity, p.probe,
                                                                   probe["latency_us"]["p99"] / 1000,
                                                                   bad or "no errors"))
        soak_lines = os.path.join(p.out, "soak-lines")
        t_lines = time.monotonic()
        make_lines(soak_lines, int(min(MAX_LINES, target * p.seconds * 1.05 + 1000)), 2, p.wrk_threads)
        C.log("the soak's lines written in %.1f s" % (time.monotonic() - t_lines))
        out = os.path.join(p.out, "soak.txt")
        t0 = time.monotonic()
        proc = wrk(stack, soak_lines, p.seconds, target, p, out)
        # The start figures once every lazily made database session exists: each worker
        # process's retention job connects on its first run, 30 s after the process started.
        time.sleep(max(p.warm, JOBS_CONNECTED_S - (time.monotonic() - stack_up)))
        start = sample(stack)
        samples = [start]
        end_at = t0 + p.seconds - 2
        while time.monotonic() < end_at:
            time.sleep(min(10, max(0.1, end_at - time.monotonic())))
            samples.append(sample(stack))
        end = samples[-1]
        proc.wait(timeout=p.seconds + 60)
        s = summary_of(out)
        rate = s["requests"] * 1e6 / s["duration_us"]
        bad, sock = errors_of(s)
        checks.add(group, "zero errors", not bad and not sock,
                   "%d requests, statuses %s, connect/write/timeout errors %d, read %d"
                   % (s["requests"], s["statuses"], sock, s["errors"]["read"]))
        checks.add(group, "rate held (>= 90% of target)", rate >= 0.9 * target,
                   "%.0f/s for a target of %.0f/s (80%% of %.0f), p50 %.1f ms, p99 %.1f ms"
                   % (rate, target, capacity, s["latency_us"]["p50"] / 1000, s["latency_us"]["p99"] / 1000))
        grow = start["worker_rss_kb"] * RSS_TOLERANCE[0] + RSS_TOLERANCE[1]
        max_rss = max(x["worker_rss_kb"] for x in samples)
        checks.add(group, "worker RSS flat", end["worker_rss_kb"] <= start["worker_rss_kb"] + grow
                   and len(end["workers"]) == p.workers and set(end["workers"]) == set(start["workers"]),
                   "%d -> %d kB over %d processes (limit +%d kB; max sampled %d kB)"
                   % (start["worker_rss_kb"], end["worker_rss_kb"], len(end["workers"]), grow, max_rss))
        fd_limit = p.threads * p.workers
        checks.add(group, "open descriptors flat",
                   end["worker_fds"] <= start["worker_fds"] + fd_limit,
                   "%d -> %d over the worker processes (limit +%d); supervisor %s -> %s"
                   % (start["worker_fds"], end["worker_fds"], fd_limit, start["supervisor"]["fds"],
                      end["supervisor"]["fds"]))
        checks.add(group, "MariaDB connections flat",
                   end["threads_connected"] <= start["threads_connected"] + DB_CONN_TOLERANCE,
                   "Threads_connected %d -> %d (limit +%d)" % (start["threads_connected"],
                                                              end["threads_connected"], DB_CONN_TOLERANCE))
        prepared_limit = PREPARED_TOLERANCE * p.workers
        checks.add(group, "MariaDB prepared statements flat",
                   end["prepared_statements"] <= start["prepared_statements"] + prepared_limit,
                   "Prepared_stmt_count %d -> %d (limit +%d)" % (start["prepared_statements"],
                                                                end["prepared_statements"], prepared_limit))
        widest = max(samples, key=lambda x: x["span_spread_s"])
        span_bound = rollup_state.LATE_CHECK_S + SPAN_SLACK_S
        checks.add(group, "spans kept for the late look dropped", widest["span_spread_s"] <= span_bound,
                   "kept spans at most %.1f s apart (at %.0f s; limit %d s), %d kept at most, %d at the end "
                   "(the oldest %.1f s old)" % (widest["span_spread_s"], widest["t"] - t0, span_bound,
                                                max(x["spans"] for x in samples), end["spans"],
                                                end["oldest_span_s"]))
        state, waited = rollup_state.settle(stack, ROLLUP_SETTLE_S)
        checks.add(group, "rollups count every raw row once", waited is not None,
                   "%s, %s after the load" % (rollup_state.describe(state), "%.1f s" % waited
                                              if waited is not None else "not within %d s" % ROLLUP_SETTLE_S))
        figures = {"server": p.server, "seconds": p.seconds, "capacity_rps": round(capacity),
                   "target_rps": round(target), "rate_rps": round(rate), "requests": s["requests"],
                   "statuses": s["statuses"], "errors": s["errors"], "latency_us": s["latency_us"],
                   "reused_lines": s["reused"], "start": start, "end": end,
                   "rollups_settled_s": round(waited, 2) if waited is not None else None,
                   "trend": [{"t": round(x["t"] - t0), "rss_kb": x["worker_rss_kb"], "fds": x["worker_fds"],
                              "threads_connected": x["threads_connected"], "spans": x["spans"],
                              "prepared_statements": x["prepared_statements"],
                              "span_spread_s": x["span_spread_s"]} for x in samples]}
    except Exception as e:  # noqa: BLE001 - a broken run is a failed check, with the reason
        checks.add(group, "run completed", False, "%s: %s" % (type(e).__name__, e))
        sys.stderr.write(stack.diagnostics() + "\n")
    finally:
        stack.stop()
        stack.cleanup()
        for path in glob.glob(os.path.join(p.out, "*-lines.*")):
            os.unlink(path)  # up to a gigabyte or more; make_lines writes them anew each run
    return figures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", default=os.environ.get("SOAK_SERVER", "lighttpd"),
                    choices=("lighttpd", "apache"))
    ap.add_argument("--build", default=os.environ.get("BUILD", "build"))
    ap.add_argument("--seconds", type=int, default=int(os.environ.get("SOAK_SECONDS", "600")))
    ap.add_argument("--probe", type=int, default=5, help="capacity probe seconds")
    ap.add_argument("--warm", type=float, default=None,
                    help="seconds into the soak for the start figures (default: 10%%, 5..60)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", type=int, default=8, help="request threads per worker process")
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--wrk-threads", type=int, default=2)
    ap.add_argument("--summary")
    ap.add_argument("--out", default=os.path.join(C.ROOT, "build", "soak"))
    p = ap.parse_args()
    if p.warm is None:
        p.warm = min(60.0, max(5.0, p.seconds * 0.1))
    os.environ["THREADS"] = str(p.threads)
    H.with_timeout_handler()
    checks = C.Checks("make soak (%s, %d s)" % (p.server, p.seconds))
    figures = run(p, checks)
    return checks.finish(p.summary, {"figures": figures})


if __name__ == "__main__":
    sys.exit(main())
