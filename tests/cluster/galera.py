#!/usr/bin/env python3
"""`make cluster-test`, the Galera topology: two web hosts over a three-node MariaDB Galera cluster
(Debian's galera-4), h1 writing to node g1 and h2 to node g2, behind haproxy
(tests/cluster/galera_topology.py). Checks:

- a session made via node g2 (h2) is valid via g1 (h1); a revoked account is refused everywhere;
- an impression token retried on the other host (the other node) answers `duplicate`, one row;
- an admin change made on one node is visible on every host within a second;
- job leases (sql/0013_job_leases.sql): GET_LOCK held on g3 does not exclude a runner on g1
  (node-local: the caveat), a lease row written on g3 excludes runners on g1 and on g2, and
  runners started on both hosts at once count every event once; `placardctl retention run` the
  same (retention_runs.py: none runs while a lease row from g3 holds it, then both at once delete
  the old rows once); two network syncs started at
  once through h1 and h2: one runs, the other is 409 (the network stand-in in each namespace);
- a row written on g2 below every node's rollup progress, into a span a pass counted past (a
  write set replicated late looks so), is counted once on every node after
  rollup.late_check_seconds (late_rows.py);
- g2 killed (SIGKILL) under a bounded load through both hosts: h1 (on g1) keeps answering,
  every impression refused by h2 is retried on h1, and the rows on the surviving nodes equal the
  successful answers, none twice; clicks on valid offers sent to both hosts all answer 302, each
  one a row on g1 and g3 or (h2's after the kill: its node stays down) a record waiting in h2's
  click journal (`placardctl journal status`);
- before that, g1 killed under a load through h1, whose db.host lists g1 then g3: h1 goes on with
  g3 (every impression `recorded`, every click 302, none journaled, within 2 s of the eviction),
  then g1 rejoins and nothing is counted twice (node_fallback.py).

Prints a pass/fail table; --summary writes {"passed", "failed", "checks", "figures"}. Everything
it made is removed at the end, on an error, and on SIGTERM/SIGINT.
"""

import argparse
import contextlib
import json
import os
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "resilience"))
import topology as T  # noqa: E402
import galera_topology as G  # noqa: E402
import cluster as CL  # noqa: E402
from topology import H  # noqa: E402
import common as C  # noqa: E402
import run_end  # noqa: E402
import retention_runs as RR  # noqa: E402
import kill_clicks as KC  # noqa: E402
import late_rows as LR  # noqa: E402
import node_fallback as NF  # noqa: E402
from load_client import CLICKABLE  # noqa: E402

# The node kill's clicks: valid offers that stay valid. Not the Admitad ones (1301, 1302): the
# network sync of check_sync (stand-in feed, stored credentials) writes the Admitad offers, and
# one of them was seen answering 410 once in a full run (valid in the host's snapshot when
# queried, not in the database at the click: the contract's answer for an offer that ended).
STEADY = CLICKABLE - {1301, 1302}


def ctl_on(topo, host, *args):
    """placardctl in host's namespace with that host's config (its own node, the runtime user)."""
    admin = topo.path(host, "ctl-admin.conf")
    if not os.path.exists(admin):
        with open(os.open(admin, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
            f.write("# the runtime user of placard.conf\n")
    return ["ip", "netns", "exec", topo.ns(host), os.path.join(topo.build, "placardctl"), "--config",
            topo.path(host, "placard.conf"), "--admin-config", admin] + list(args)


def impressions(target, category="books", n=2, links=None):
    """n impression tokens of a query; with links (a list), one click link of a valid offer too."""
    st, _, b = target.http("POST", "/api/v1/offers/query", json.dumps(H.query_body(category=category)),
                           {"Content-Type": "application/json"}, timeout=15)
    offers = json.loads(b)["offers"] if st == 200 else []
    if links is not None:
        links += [o["clickUrl"] for o in offers if int(o["id"]) in STEADY and "clickUrl" in o][:1]
    return [o["impressionToken"] for o in offers[:n]]


def send(target, token):
    try:
        s, _, body = target.http("POST", "/api/v1/events/impression",
                                 json.dumps({"impressionToken": token}),
                                 {"Content-Type": "application/json"}, timeout=15)
        return s, (json.loads(body).get("status") if s == 200 else None)
    except OSError as e:
        return 0, str(e)


def check_leases(topo, h1, h2, checks):
    rollup = ["rollup", "--max-seconds", "20"]
    # 1. GET_LOCK is node-local: held on g3, a runner on g1 still gets its own.
    holder = subprocess.Popen(["mariadb", "--defaults-file=" + topo.node_cnf["g3"], "-u", "root",
                               "--batch", "--skip-column-names", "-e",
                               "SELECT GET_LOCK('placard.rollup', 5); SELECT SLEEP(4)"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        held = CL.within(3, lambda: topo.node_sql("g3", "SELECT IS_USED_LOCK('placard.rollup') IS NOT NULL")
                         [0][0] == "1")
        local = CL.within(5, lambda: subprocess.run(ctl_on(topo, "h1", *rollup), capture_output=True,
                                                    timeout=60).returncode == 0, interval=0.1)
    finally:
        for row in topo.node_sql("g3", "SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE "
                                 "'SELECT SLEEP(4)%' AND ID <> CONNECTION_ID()"):
            topo.node_sql("g3", "KILL %d" % int(row[0]))
        holder.kill()
        holder.wait(10)
    checks.add("leases", "GET_LOCK held on node g3 does not exclude a runner on g1 (node-local)",
               held is not None and local is not None,
               "held on g3: %s; placardctl rollup on h1 (g1) exit 0: %s" % (held is not None,
                                                                           local is not None))
    # 2. A lease row taken on g3 (a holder that is not a worker) excludes runners on g1 and g2.
    # (node: not a server's identity, as if its holder were on a node that is gone.)
    topo.node_sql("g3", "REPLACE INTO job_leases (name, holder, node, expires_at) VALUES "
                        "('placard.rollup', 'test-on-g3', MD5('elsewhere'), "
                        "UTC_TIMESTAMP(3) + INTERVAL 60 SECOND)")
    taken = {n: subprocess.run(ctl_on(topo, n, *rollup), capture_output=True, timeout=60).returncode
             for n in ("h1", "h2")}
    still = topo.node_sql("g1", "SELECT holder FROM job_leases WHERE name = 'placard.rollup'")
    topo.node_sql("g3", "DELETE FROM job_leases WHERE name = 'placard.rollup' AND holder = 'test-on-g3'")
    after = []
    t_end = time.monotonic() + 5
    while time.monotonic() < t_end and (not after or after[-1] == 3):
        after.append(subprocess.run(ctl_on(topo, "h2", *rollup), capture_output=True,
                                    timeout=60).returncode)
    checks.add("leases", "a lease taken on g3 excludes runners on g1 and g2; released, h2 (g2) runs",
               set(taken.values()) == {3} and still == [["test-on-g3"]] and after[-1] == 0,
               "exit codes while held %s (lease seen on g1: %s), after release %s"
               % (taken, still, after))
    # 3. Runners on both hosts at once, rounds of them, while events arrive through both nodes.
    recorded = 0
    codes = []
    for i in range(4):
        for t in (h1, h2):
            for tok in impressions(t):
                recorded += send(t, tok)[1] == "recorded"
        procs = [subprocess.Popen(ctl_on(topo, n, *rollup), stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL) for n in ("h1", "h2")]
        codes.append([p.wait(60) for p in procs])
    waited = CL.within(15, lambda: (lambda r: r[0] == r[1] and r[2])(CL.counted(topo)), interval=0.2)
    raw, rolled, done = CL.counted(topo)
    checks.add("leases", "rollup runners on two nodes at once: every event counted once",
               all(c in (0, 3) for r in codes for c in r) and waited is not None and raw == rolled
               and done, "exit codes per round %s; %d recorded now, %d counted raw rows, %d in "
               "stats_daily" % (codes, recorded, raw, rolled))


def check_retention(topo, checks):
    """retention_runs.py with each host's own node: a lease row written on g3 holds it."""
    @contextlib.contextmanager
    def lease_on_g3():
        topo.node_sql("g3", "REPLACE INTO job_leases (name, holder, node, expires_at) VALUES "
                            "('placard.retention', 'test-on-g3', MD5('elsewhere'), "
                            "UTC_TIMESTAMP(3) + INTERVAL 60 SECOND)")
        try:
            yield CL.within(3, lambda: all(topo.node_sql(n, "SELECT holder FROM job_leases WHERE name = "
                                                            "'placard.retention'") == [["test-on-g3"]]
                                           for n in ("g1", "g2"))) is not None
        finally:
            topo.node_sql("g3", "DELETE FROM job_leases WHERE name = 'placard.retention' AND "
                                "holder = 'test-on-g3'")
    # Reads wait for every write the cluster committed before them (wsrep_sync_wait).
    RR.check(checks, "leases", "a lease row taken on g3 holds placard.retention",
             lambda st: topo.node_sql("g1", "SET SESSION wsrep_sync_wait = 1; " + st),
             lambda h, *args: ctl_on(topo, h, *args), ["h1", "h2"], lease_on_g3)


STANDIN = os.path.join(os.path.dirname(HERE), "network_standin", "standin.py")
ADMITAD = {"clientId": "client-1", "clientSecret": "secret-1", "websiteId": "4242"}  # its defaults


def start_standins(topo):
    """The network stand-in (tests/network_standin/) in each host's namespace, on that namespace's
    own 127.0.0.1 (api_base may be http only to loopback): the same config on both hosts."""
    topo.standin_port = T.H.free_port()
    for n in T.HOST_IPS:
        os.makedirs(topo.path(n), exist_ok=True)
        topo.spawn(n + "/standin", n, [sys.executable, STANDIN, "--port", str(topo.standin_port)],
                   topo.path(n, "standin.out"))
    topo.extra_conf = {"network.admitad.api_base": "http://127.0.0.1:%d" % topo.standin_port,
                       "network.page_size": "2", "network.timeout_seconds": "5"}
    control = ("import json, sys, time, urllib.request as u\n"
               "for i in range(100):\n"
               "    try:\n"
               "        u.urlopen(u.Request('http://127.0.0.1:%d/__control', data=json.dumps("
               "{'page_delay': 0.6}).encode(), method='POST', headers={'Content-Type': "
               "'application/json'}), timeout=5).read(); sys.exit(0)\n"
               "    except OSError:\n"
               "        time.sleep(0.1)\n"
               "sys.exit(1)\n" % topo.standin_port)
    for n in T.HOST_IPS:  # every page answers after 0.6 s: a sync of 4 pages lasts > 2 s
        run = subprocess.run(["ip", "netns", "exec", topo.ns(n), sys.executable, "-c", control],
                             capture_output=True, timeout=30)
        if run.returncode != 0:
            raise RuntimeError("the stand-in in %s did not start" % n)


def check_sync(topo, h1, h2, admin, checks):
    """Two syncs started at the same moment through h1 (g1) and h2 (g2): one runs, the other is
    409 (the lease; GET_LOCK alone would let both run, one per node); while it runs, a third via
    h2 is 409 too; it finishes, and no run is left `running`."""
    admin.ok("PUT", "/network/credentials/admitad", ADMITAD, status=204)
    answers = {}
    barrier = threading.Barrier(2)

    def go(t):
        c = CL.A.AdminClient(t)
        c.cookie = admin.cookie
        barrier.wait(10)
        answers[t.name] = c.request("POST", "/network/sync", {"network": "admitad"})
    threads = [threading.Thread(target=go, args=(t,)) for t in (h1, h2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    codes = {n: a[0] for n, a in answers.items()}
    third = CL.A.AdminClient(h2)
    third.cookie = admin.cookie
    again = third.request("POST", "/network/sync", {"network": "admitad"})[0]
    started = [a[2] for a in answers.values() if a[0] == 202]
    status = None
    if len(started) == 1:
        def done():
            st, _, doc = third.request("GET", "/network/sync/" + started[0]["id"])
            return st == 200 and doc["status"] != "running" and doc
        CL.within(60, done, interval=0.2)
        status = third.request("GET", "/network/sync/" + started[0]["id"])[2].get("status")
    running = topo.node_sql("g2", "SELECT COUNT(*) FROM sync_runs WHERE status = 'running'")[0][0]
    runs = topo.node_sql("g1", "SELECT COUNT(*) FROM sync_runs")[0][0]
    checks.add("leases", "two syncs started at once via h1 (g1) and h2 (g2): one runs, one is 409",
               sorted(codes.values()) == [202, 409] and again == 409 and status == "succeeded"
               and running == "0" and runs == "1",
               "answers %s; a third while it ran: %s; the run: %s; runs recorded %s, running now %s"
               % (codes, again, status, runs, running))


def check_node_kill(topo, h1, h2, checks, figures, seconds):
    """Bounded load through both hosts; g2 (h2's node) SIGKILLed a third of the way in."""
    results = []  # (token, first host, first status, final host, final status, final state)
    clicks = []  # (nonce, host, status, t0, t1, url)
    lock = threading.Lock()
    stop = time.monotonic() + seconds
    killed_at = []

    def worker(k):
        i = 0
        while time.monotonic() < stop:
            first, other = (h1, h2) if (i + k) % 2 == 0 else (h2, h1)
            i += 1
            links = []
            try:
                tokens = impressions(first, "clicks", links=links) or impressions(other, "clicks")
            except (OSError, ValueError):
                tokens = []
            for url in links:  # a click is not retried: the person's browser follows it once
                t0 = time.monotonic()
                s, nonce = KC.click(first, url)
                with lock:
                    clicks.append((nonce, first.name, s, t0, time.monotonic(), url))
            for tok in tokens:
                s1, st1 = send(first, tok)
                s2, st2, last = s1, st1, first
                if s1 != 200:  # what a client does: the same token, to the other host
                    s2, st2 = send(other, tok)
                    last = other
                with lock:
                    results.append((tok, first.name, s1, last.name, s2, st2, time.monotonic()))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    time.sleep(seconds / 3.0)
    kill_started = time.monotonic()
    topo.kill_node("g2")
    killed_at.append(time.monotonic())
    for t in threads:
        t.join(seconds + 60)
    size = CL.within(15, lambda: topo.status("g1", "wsrep_cluster_size") == "2", interval=0.2)
    ok_tokens = [r for r in results if r[4] == 200]
    nonces = {H.decode_token(r[0])["nonce"].hex().upper() for r in ok_tokens}
    counts = {}
    for node in ("g1", "g3"):  # (rows of these tokens, distinct tokens among them)
        rows = topo.node_sql(node, "SELECT HEX(token_nonce), COUNT(*) FROM impressions "
                                   "GROUP BY token_nonce")
        mine = [int(n) for h, n in rows if h in nonces]
        counts[node] = (sum(mine), len(mine))
    after = [r for r in results if r[6] > killed_at[0]]
    h1_first = [r for r in results if r[1] == "h1"]
    h1_errors = [r for r in h1_first if r[2] != 200]
    h2_after = [r for r in after if r[1] == "h2"]
    recorded = sum(1 for r in ok_tokens if r[5] == "recorded")
    retried = sum(1 for r in results if r[2] != 200)
    figures["node_kill"] = {"seconds": seconds, "answers": len(results), "successful": len(ok_tokens),
                            "recorded": recorded, "retried_on_other_host": retried,
                            "h2_first_after_kill": len(h2_after), "rows": counts}
    checks.add("node kill", "g2 SIGKILLed: the cluster goes on with g1 and g3",
               size is not None, "cluster size 2 on g1 %s after the load" % CL.fmt(size))
    checks.add("node kill", "h1 (on surviving g1) answered every impression first sent to it",
               len(h1_first) > 10 and not h1_errors and len(after) > 10,
               "%d first sent to h1, %d not 200 %s; %d answers after the kill"
               % (len(h1_first), len(h1_errors), [r[2] for r in h1_errors][:5], len(after)))
    checks.add("node kill", "recorded events = successful answers, none twice (on g1 and g3)",
               len(ok_tokens) == len(results) and all(c == (len(ok_tokens), len(ok_tokens))
                                                      for c in counts.values()) and recorded <= len(ok_tokens),
               "%d tokens, %d answered 200 (%d recorded, the rest duplicate after a retry), %d refused "
               "first (h2 after the kill: %d) and retried on the other host; rows, distinct nonces: %s"
               % (len(results), len(ok_tokens), recorded, retried, len(h2_after), counts))
    KC.check(topo, checks, figures, clicks, (kill_started, killed_at[0]), ctl_on(topo, "h2", "journal", "status"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--summary")
    ap.add_argument("--kill-load-seconds", type=int, default=9)
    ap.add_argument("--timeout", type=int, default=420, help="bound on the whole run")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory (logs)")
    ap.add_argument("--only", choices=("kill", "fallback"), help="kill: the topology, then the node "
                    "kill only (make chaos); fallback: the topology, then h1's fallback node only")
    a = ap.parse_args()
    if os.geteuid() != 0:
        print("cluster-test (galera): needs root (ip netns)", file=sys.stderr)
        return 2

    run_end.bound("cluster-test (galera)", a.timeout)

    checks = C.Checks("make cluster-test: 2 web hosts, 3 MariaDB Galera nodes, haproxy")
    figures = {}
    topo = G.GaleraTopology(a.build)
    try:
        C.log("namespaces %s-{lb,g1,g2,g3,h1,h2}, 10.253.25.0/24, dir %s" % (topo.prefix, topo.dir))
        topo.make_network()
        topo.enter_lb()
        t0 = time.monotonic()
        topo.start_cluster()
        figures["cluster_start_s"] = time.monotonic() - t0
        C.log("Galera cluster of 3 synced in %.1f s" % figures["cluster_start_s"])
        topo.init_database()
        if a.only is None:
            start_standins(topo)
        topo.extra_conf = {**getattr(topo, "extra_conf", {}), **LR.CONF}
        for name in T.HOST_IPS:
            topo.start_host(name)
        topo.start_haproxy()
        h1 = CL.Target(topo, "h1", T.HOST_IPS["h1"], topo.port)
        h2 = CL.Target(topo, "h2", T.HOST_IPS["h2"], topo.port)
        lb = CL.Target(topo, "haproxy", "127.0.0.1", topo.lb_port)
        H.set_stack(h1)
        topo.sql(H.fixture_sql())
        for t in (h1, h2, lb):
            topo.wait_for("fixtures on " + t.name,
                          lambda t=t: CL.offer_ids(t) == H.ELECTRONICS_DE, timeout=30)
        topo.wait_for("haproxy: both hosts UP", lambda: set(topo.answered("status").values()) == {"UP"},
                      timeout=30)
        if a.only is None:
            admin = CL.check_sessions(topo, h1, h2, lb, checks)
            CL.check_impression_dedup(topo, h1, h2, checks)
            CL.check_admin_change(topo, h1, h2, admin, checks)
            check_leases(topo, h1, h2, checks)
            check_retention(topo, checks)
            check_sync(topo, h1, h2, admin, checks)
            LR.check(topo, checks)
        if a.only != "kill":
            NF.check(topo, h1, checks, figures, 6, impressions, send, ctl_on)
            NF.check_partition(topo, h1, checks, figures, 12, impressions, send)
        if a.only != "fallback":
            check_node_kill(topo, h1, h2, checks, figures, max(3, min(a.kill_load_seconds, 30)))
    except BaseException as e:  # noqa: B902 - a failure of any kind still cleans up
        run_end.record_failure(checks, topo, e, ("h1/log/placard.log", "h2/log/placard.log", "g1/mariadb.err", "g2/mariadb.err"))
    finally:
        run_end.clean_up(topo, a.keep)
    return checks.finish(a.summary, {"figures": figures})


if __name__ == "__main__":
    sys.exit(main())
