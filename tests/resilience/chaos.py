#!/usr/bin/env python3
"""`make chaos`: faults under load, behind lighttpd and Apache (mod_proxy_fcgi), on 127.0.0.1.

For each web server, a private stack (scripts/stack.sh: MariaDB, placard.fcgi's supervisor with
WORKERS worker processes, the web server) with the e2e fixtures, and the load client of
load_client.py (queries, impressions, clicks, config and categories; every answer logged):

1. Database: MariaDB is killed (SIGKILL by the PID in run/mariadb.pid) and, after a while,
   started again (`stack.sh db-start`). While it is down, config, categories and queries answer
   200 from the snapshot, impressions answer 503 with Retry-After and clicks 302 (the click
   journal), each within a second; no worker process dies; within 2 s of the database's return writes succeed again.
   Every impression answered `recorded` (and every click that redirected) is in its table exactly
   once, by token nonce.
2. Worker: one worker process is killed (SIGKILL) under the same load: the supervisor starts
   another, the web server keeps serving (the other process, and the socket that the supervisor
   keeps open), and no request hangs (every request gets an answer within the client's bound).
3. Counting: once the load stops, the rollups count every raw row once (counted and ignored
   apart; rollup_state.py) within ROLLUP_SETTLE_S, although each kill may have cut off a pass.

Prints a pass/fail table; --summary writes {"passed", "failed", "checks", "figures"}. The answer
logs go to build/chaos/<server>-answers.jsonl. --short is the version `make test` runs.
"""

import argparse
import os
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import common as C  # noqa: E402
import rollup_state  # noqa: E402
from load_client import LoadClient, recorded_nonces, table_counts  # noqa: E402

READS = ("config", "categories", "query")
WRITES = ("impression", "click")
EXPECTED = {"config": 200, "categories": 200, "query": 200, "impression": 200, "click": 302}
WRITE_BOUND_S = 1.0  # a write while the database is down answers 503 within this
RETURN_BOUND_S = 2.0  # writes succeed this long after the database is back
HANG_BOUND_S = 5.0  # no request takes longer than this, whatever happens
ROLLUP_SETTLE_S = 20.0  # after the load, the rollups count every raw row within this


def ok_answer(r):
    return r["status"] == EXPECTED[r["kind"]] and (r["kind"] != "impression"
                                                   or r["result"] == "recorded")


def fmt_ms(seconds):
    return "%.0f ms" % (seconds * 1000)


def kill_pid(pid, what):
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with open("/proc/%d/stat" % pid) as f:
                if f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X"):
                    return
        except OSError:
            return
        time.sleep(0.01)
    raise RuntimeError("%s (pid %d) still there 10 s after SIGKILL" % (what, pid))


def supervisor_lines(stack, word):
    try:
        with open(stack.path("log", "placard.log"), errors="replace") as f:
            return [line for line in f if "worker process" in line and word in line]
    except OSError:
        return []


def database_phase(stack, client, checks, group, p):
    workers_before = C.worker_processes(stack)
    deaths_before = len(supervisor_lines(stack, "killed")) + len(supervisor_lines(stack, "exited"))
    time.sleep(p.warm)
    db_pid = C.read_pid(stack, "mariadb.pid")
    C.log("%s: killing MariaDB (pid %s) under load" % (group, db_pid))
    t_kill = time.monotonic()
    kill_pid(db_pid, "MariaDB")
    time.sleep(p.down)
    t_restart = time.monotonic()
    stack.script("db-start", timeout=90)
    t_up = time.monotonic()
    C.log("%s: MariaDB back after %.1f s (db-start took %.1f s)" % (group, t_up - t_kill,
                                                                   t_up - t_restart))
    time.sleep(p.after)
    t_end = time.monotonic()

    down_reads = client.records_between(t_kill, t_restart, READS)
    bad = [r for r in down_reads if r["status"] != 200]
    checks.add(group, "db down: config, categories, queries 200", down_reads and not bad,
               "%d reads, %d not 200%s" % (len(down_reads), len(bad),
                                          (" (first: %s)" % (bad[0]["status"] or bad[0]["error"])) if bad else ""))
    down_writes = client.records_between(t_kill, t_restart, WRITES)
    # Impressions answer 503 (the client retries the same token: counted once); clicks on valid
    # offers redirect from the click journal (issue 25), written once when the database returns.
    not503 = [r for r in down_writes if r["kind"] == "impression" and
              (r["status"] != 503 or not (r["retry_after"] or "").isdigit())]
    not302 = [r for r in down_writes if r["kind"] == "click" and r["status"] != 302]
    lat = [r["t1"] - r["t0"] for r in down_writes]
    checks.add(group, "db down: impressions 503 + Retry-After", down_writes and not not503,
               "%d writes, %d otherwise%s" % (len(down_writes), len(not503),
                                              (" (first: %s %s)" % (not503[0]["kind"], not503[0]["status"] or not503[0]["error"])) if not503 else ""))
    checks.add(group, "db down: clicks 302 (click journal)", not not302,
               "%d clicks, %d not 302" % (len([r for r in down_writes if r["kind"] == "click"]),
                                          len(not302)))
    checks.add(group, "db down: each write within 1 s", lat and max(lat) <= WRITE_BOUND_S,
               "p50 %s, p99 %s, max %s" % (fmt_ms(C.percentile(lat, 50)), fmt_ms(C.percentile(lat, 99)),
                                           fmt_ms(max(lat) if lat else 0)))
    back = client.records_between(t_up, t_end, WRITES)
    first_ok = next((r for r in sorted(back, key=lambda r: r["t0"]) if ok_answer(r)), None)
    late = [r for r in back if r["t0"] >= t_up + RETURN_BOUND_S and not ok_answer(r)]
    checks.add(group, "db back: writes succeed within 2 s",
               first_ok is not None and first_ok["t1"] - t_up <= RETURN_BOUND_S and not late,
               "first success %s after db-start returned; %d failures after 2 s"
               % (fmt_ms(first_ok["t1"] - t_up) if first_ok else "never", len(late)))
    deaths = (len(supervisor_lines(stack, "killed")) + len(supervisor_lines(stack, "exited"))
              - deaths_before)
    workers_after = C.worker_processes(stack)
    checks.add(group, "db outage: no worker process died", workers_after == workers_before
               and len(workers_before) == p.workers and deaths == 0,
               "worker pids %s before, %s after" % (workers_before, workers_after))
    return {"db_down_s": round(t_up - t_kill, 2), "db_start_s": round(t_up - t_restart, 2),
            "down_reads": len(down_reads), "down_writes": len(down_writes),
            "down_write_p99_ms": round(C.percentile(lat, 99) * 1000, 1),
            "down_write_max_ms": round(max(lat) * 1000, 1) if lat else None,
            "first_write_after_return_ms": round((first_ok["t1"] - t_up) * 1000, 1) if first_ok else None}


def serving_processes(stack, workers):
    """The processes that answer requests: the supervisor's children, or with WORKERS=0 (no
    supervisor, the stack before `make chaos`) the one worker process itself."""
    if workers:
        return C.worker_processes(stack)
    pid = C.read_pid(stack, "placard.pid")
    return [pid] if pid and os.path.exists("/proc/%d" % pid) and C.rss_kb(pid) else []


def worker_phase(stack, client, checks, group, p):
    figures = {"kills": []}
    for round_no in range(p.worker_kills):
        time.sleep(p.warm)
        before = serving_processes(stack, p.workers)
        if len(before) < 1:
            checks.add(group, "worker killed: replaced", False, "no worker processes found")
            return figures
        victim = before[round_no % len(before)]
        C.log("%s: killing worker process %d under load" % (group, victim))
        t_kill = time.monotonic()
        kill_pid(victim, "placard.fcgi worker")
        replaced = C.H.wait_until(lambda: (lambda w: w if len(w) == len(before) and victim not in w
                                           else None)(serving_processes(stack, p.workers)),
                                  timeout=5, interval=0.02)
        t_replaced = time.monotonic()
        time.sleep(p.after)
        t_end = time.monotonic()
        during = client.records_between(t_kill - 1.0, t_end)
        failed = [r for r in during if not ok_answer(r)]
        late = [r for r in failed if r["t0"] >= t_kill + 0.5]
        checks.add(group, "worker %d killed: replaced within 2 s" % (round_no + 1),
                   replaced and t_replaced - t_kill <= 2.0,
                   "%s -> %s in %s" % (before, replaced, fmt_ms(t_replaced - t_kill)))
        checks.add(group, "worker %d killed: kept serving" % (round_no + 1),
                   len(during) > 0 and not late and len(failed) <= client.threads,
                   "%d requests, %d failed (in flight at the kill), %d failed after it%s"
                   % (len(during), len(failed), len(late),
                      (" (first: %s %s)" % (late[0]["kind"], late[0]["status"] or late[0]["error"])) if late else ""))
        figures["kills"].append({"replaced_ms": round((t_replaced - t_kill) * 1000, 1),
                                 "requests": len(during), "failed": len(failed),
                                 "failed_after_500ms": len(late)})
    return figures


def run_server(server, p, checks, figures):
    group = server
    stack = None
    client = None
    try:
        stack = C.start_stack(server, p.build, p.workers, conf=rollup_state.STACK_CONF)
        client = LoadClient(stack.port, threads=p.clients, timeout=HANG_BOUND_S + 5)
        client.start()
        t0 = time.monotonic()
        fig = {"database": database_phase(stack, client, checks, group, p)}
        fig["worker"] = worker_phase(stack, client, checks, group, p)
        client.stop()
        records = client.records_between(t0 - 10, time.monotonic() + 1)
        lat = [r["t1"] - r["t0"] for r in records]
        errors = [r for r in records if r["error"]]
        checks.add(group, "no request hangs", records and max(lat) <= HANG_BOUND_S,
                   "%d requests, max %s, %d without an HTTP answer"
                   % (len(records), fmt_ms(max(lat) if lat else 0), len(errors)))
        imps, clicks = recorded_nonces(client.records)
        counts = table_counts(stack, "impressions", imps)
        wrong = {n: c for n, c in counts.items() if c != 1}
        checks.add(group, "recorded impressions in the table once", imps and not wrong,
                   "%d answered recorded, %d not exactly once in impressions" % (len(imps), len(wrong)))
        counts = table_counts(stack, "clicks", clicks)
        wrong = {n: c for n, c in counts.items() if c != 1}
        checks.add(group, "redirected clicks in the table once", clicks and not wrong,
                   "%d redirected, %d not exactly once in clicks" % (len(clicks), len(wrong)))
        state, waited = rollup_state.settle(stack, ROLLUP_SETTLE_S)
        checks.add(group, "rollups count every raw row once after the faults", waited is not None,
                   "%s, %s after the load" % (rollup_state.describe(state), fmt_ms(waited)
                                              if waited is not None else "not within %.0f s" % ROLLUP_SETTLE_S))
        fig["rollups_settled_ms"] = round(waited * 1000, 1) if waited is not None else None
        fig["requests"] = len(records)
        fig["recorded_impressions"] = len(imps)
        fig["redirected_clicks"] = len(clicks)
        fig["max_latency_ms"] = round(max(lat) * 1000, 1) if lat else None
        figures[server] = fig
    except Exception as e:  # noqa: BLE001 - a broken run is a failed check, with the reason
        checks.add(group, "run completed", False, "%s: %s" % (type(e).__name__, e))
        if stack is not None:
            sys.stderr.write(stack.diagnostics() + "\n")
    finally:
        if client is not None:
            client.stop()
            os.makedirs(p.out, exist_ok=True)
            client.write_log(os.path.join(p.out, "%s-answers.jsonl" % server))
        if stack is not None:
            stack.stop()
            stack.cleanup(keep=checks.failed > 0 and os.environ.get("E2E_KEEP") == "1")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", action="append", choices=("lighttpd", "apache"),
                    help="web server (repeatable; default both)")
    ap.add_argument("--build", default=os.environ.get("BUILD", "build"))
    ap.add_argument("--summary", help="write {passed, failed, ...} here")
    ap.add_argument("--out", default=os.path.join(C.ROOT, "build", "chaos"))
    ap.add_argument("--short", action="store_true", help="the short version (make test)")
    ap.add_argument("--workers", type=int, default=2,
                    help="worker processes (WORKERS; 0: no supervisor, to see the checks fail)")
    ap.add_argument("--clients", type=int, default=6, help="load client threads")
    p = ap.parse_args()
    p.servers = p.server or ["lighttpd", "apache"]
    if p.short:
        p.warm, p.down, p.after, p.worker_kills = 1.0, 3.0, 2.5, 1
    else:
        p.warm, p.down, p.after, p.worker_kills = 3.0, 10.0, 6.0, 3
    C.H.with_timeout_handler()
    checks = C.Checks("make chaos%s (%s)" % (" --short" if p.short else "", ", ".join(p.servers)))
    figures = {}
    for server in p.servers:
        run_server(server, p, checks, figures)
    return checks.finish(p.summary, {"figures": figures})


if __name__ == "__main__":
    sys.exit(main())
