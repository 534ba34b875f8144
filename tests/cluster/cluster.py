#!/usr/bin/env python3
"""`make cluster-test`: two web hosts over one MariaDB primary behind haproxy, on this machine.

The topology (tests/cluster/topology.py): network namespaces made by this test, addresses in
10.253.25.0/24 used only inside them (no default route, no forwarding, no NAT), two hosts each
running lighttpd + placard.fcgi from build/, one MariaDB primary with the schema (placardctl
init/migrate/grant/account create), haproxy balancing round-robin across the hosts. Checks, through
haproxy and directly to each host:

- haproxy spreads requests over both hosts;
- a session made on one host is valid on the other;
- a revoked account is refused on every host within a second;
- an impression token retried on the other host answers `duplicate` and is one row;
- an admin change (an offer disabled, then enabled) is visible on every host within a second;
- catalog snapshots are read on the replica; with its replication stopped the hosts fall back
  to the primary within db.read_max_lag_seconds, and return to it once restarted
  (replica_reads.py);
- the rollup (the workers' step, one runner at a time across hosts; and `placardctl rollup`
  started on both hosts at once) counts the events of both hosts exactly once in stats_daily;
  while the primary's rollup lock is held elsewhere, neither host's runner runs;
- `placardctl retention run` on both hosts: none runs while the test holds placard.retention,
  then both at once delete the old rows once (retention_runs.py);
- load (bounded): offers queries/s through haproxy to both hosts vs to one host, one run;
- a GTID replica of the primary has caught up after all of it.

Prints a pass/fail table; --summary writes {"passed", "failed", "checks", "figures"}. Everything
it made is removed at the end, on an error, and on SIGTERM/SIGINT.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time
from http import client as httpclient

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "resilience"))
import topology as T  # noqa: E402
from topology import H  # noqa: E402
import common as C  # noqa: E402
import run_end  # noqa: E402
import admin_client as A  # noqa: E402
import cluster_chaos  # noqa: E402
import replica_reads as R  # noqa: E402
import retention_runs as RR  # noqa: E402

VISIBLE_BOUND_S = 1.0


class Target:
    """What the e2e helpers call "the stack", for one address: haproxy or a host."""

    def __init__(self, topo, name, host, port):
        self.topo, self.name, self.host, self.port = topo, name, host, port
        self.tls = False

    @property
    def origin(self):
        # The service's public origin (public_origin: the balancer's), whichever host is asked.
        return self.topo.public_origin

    def http(self, method, path, body=None, headers=None, timeout=10):
        if isinstance(body, str):
            body = body.encode("utf-8")
        conn = httpclient.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            conn.request(method, path, body=body, headers=dict(headers or {}))
            resp = conn.getresponse()
            data = resp.read()
            return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data
        finally:
            conn.close()

    def path(self, *parts):
        return self.topo.path(*parts)

    def db(self, sql, timeout=30):
        return self.topo.sql(sql)

    def config(self):
        return H.placard_tokens.read_config(self.topo.ctl_conf)


within = T.within  # galera.py, node_fallback.py and replica_reads.py use it as CL.within


def offer_ids(target, category="electronics"):
    st, _, b = target.http("POST", "/api/v1/offers/query", json.dumps(H.query_body(category=category)),
                           {"Content-Type": "application/json"})
    return [o["id"] for o in json.loads(b)["offers"]] if st == 200 else None


def fmt(s):
    return "none within %.1f s" % VISIBLE_BOUND_S if s is None else "%.0f ms" % (s * 1000)


def check_spread(topo, lb, checks):
    before = topo.answered()
    codes = [lb.http("GET", "/api/v1/config")[0] for _ in range(20)]
    after = topo.answered()
    got = {n: after.get(n, 0) - before.get(n, 0) for n in T.HOST_IPS}
    checks.add("balance", "haproxy round-robin reaches both hosts", codes == [200] * 20
               and min(got.values()) >= 8, "20 requests, 2xx per host (haproxy stats): %s" % got)


def check_sessions(topo, h1, h2, lb, checks):
    admin = A.AdminClient.signed_in(stack=h1)
    email, pw, acc_id = A.new_approved_account(admin, prefix="cluster")
    user = A.AdminClient(h2)
    st, _, _ = user.sign_in(email, pw)
    t0 = time.monotonic()
    # Within the bound, not at once: on Galera, another node applies the session's commit a
    # moment after it is certified (docs/scaling.md, "Writes on any node, reads on the same node").
    seen = T.within_each(t0, VISIBLE_BOUND_S, (h1, h2, lb),
                         lambda t: A.AdminClient(t).get("/session", cookie=user.cookie)[0] == 200)
    checks.add("sessions", "a session made on h2 is valid on h1, h2 and through haproxy within 1 s",
               st == 200 and all(v is not None for v in seen.values()),
               "sign-in %d, GET /session 200: %s" % (st, ", ".join("%s %s" % (k, fmt(v)) for k, v in seen.items())))
    admin.ok("POST", "/accounts/%s/revoke" % acc_id)
    t0 = time.monotonic()  # every host timed from the answer to the change
    refused = T.within_each(t0, VISIBLE_BOUND_S, (h1, h2, lb),
                            lambda t: A.AdminClient(t).get("/session", cookie=user.cookie)[0] == 401)
    checks.add("sessions", "an account revoked on h1 is refused on every host within 1 s",
               all(v is not None for v in refused.values()),
               ", ".join("%s %s" % (k, fmt(v)) for k, v in refused.items()))
    again = A.AdminClient(h2).sign_in(email, pw)[0]
    checks.add("sessions", "the revoked account cannot sign in on the other host", again in (401, 403),
               "sign-in on h2 answered %d" % again)
    return admin


def check_impression_dedup(topo, h1, h2, checks):
    st, _, b = h1.http("POST", "/api/v1/offers/query", json.dumps(H.query_body(category="electronics")),
                       {"Content-Type": "application/json"})
    token = json.loads(b)["offers"][0]["impressionToken"]
    answers = []
    for t in (h1, h2, h1):
        s, _, body = t.http("POST", "/api/v1/events/impression", json.dumps({"impressionToken": token}),
                            {"Content-Type": "application/json"})
        answers.append((t.name, s, json.loads(body).get("status") if s == 200 else body[:80]))
    nonce = H.decode_token(token)["nonce"]
    rows = (int(topo.sql("SELECT COUNT(*) FROM impressions WHERE token_nonce = UNHEX('%s')"
                         % nonce.hex())[0][0]))
    ok = [a[2] for a in answers] == ["recorded", "duplicate", "duplicate"] and rows == 1
    checks.add("impressions", "a token retried on the other host is duplicate, one row", ok,
               "answers %s, rows %d" % (answers, rows))


def check_admin_change(topo, h1, h2, admin_h1, checks):
    admin = A.AdminClient.signed_in(stack=h2)
    admin.ok("PATCH", "/offers/1001", {"enabled": False})
    t0 = time.monotonic()
    gone = T.within_each(t0, VISIBLE_BOUND_S, (h1, h2), lambda t: "1001" not in (offer_ids(t) or ["1001"]))
    admin_h1.ok("PATCH", "/offers/1001", {"enabled": True})
    t0 = time.monotonic()
    back = T.within_each(t0, VISIBLE_BOUND_S, (h2, h1), lambda t: "1001" in (offer_ids(t) or []))
    checks.add("admin", "an offer disabled on h2 is gone on both hosts within 1 s",
               all(v is not None for v in gone.values()),
               ", ".join("%s %s" % (k, fmt(v)) for k, v in gone.items()))
    checks.add("admin", "enabled again on h1: back on both hosts within 1 s",
               all(v is not None for v in back.values()),
               ", ".join("%s %s" % (k, fmt(v)) for k, v in back.items()))


def counted(topo):
    """(counted raw impressions, their sum in stats_daily, rollup progress reached every row)."""
    raw = int(topo.sql("SELECT COUNT(*) FROM impressions WHERE ignored IS NULL")[0][0])
    rolled = topo.sql("SELECT COALESCE(SUM(impressions), 0) FROM stats_daily WHERE dim = 'placement'")
    done = topo.sql("SELECT (SELECT last_id FROM rollup_progress WHERE name = 'impressions') >= "
                    "(SELECT COALESCE(MAX(id), 0) FROM impressions)")
    return raw, int(rolled[0][0]), done[0][0] == "1"


def check_rollup(topo, h1, h2, lb, checks):
    recorded = 0
    for i in range(30):
        t = (h1, h2, lb)[i % 3]
        st, _, b = t.http("POST", "/api/v1/offers/query", json.dumps(H.query_body(category="books")),
                          {"Content-Type": "application/json"})
        for o in json.loads(b)["offers"][:2] if st == 200 else []:
            s, _, body = t.http("POST", "/api/v1/events/impression",
                                json.dumps({"impressionToken": o["impressionToken"]}),
                                {"Content-Type": "application/json"})
            recorded += s == 200 and json.loads(body).get("status") == "recorded"
    # placardctl rollup on both hosts at once, while the four workers run their own step.
    ctl = [os.path.join(topo.build, "placardctl"), "--config", topo.ctl_conf, "--admin-config",
           topo.admin_conf, "rollup", "--max-seconds", "20"]
    procs = [subprocess.Popen(["ip", "netns", "exec", topo.ns(n)] + ctl, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE) for n in T.HOST_IPS]
    codes = [p.wait(60) for p in procs]
    waited = within(10, lambda: (lambda r: r[0] == r[1] and r[2])(counted(topo)), interval=0.2)
    raw, rolled, done = counted(topo)
    # Honest counting (docs/honest-counting.md) leaves repeats of one client uncounted: all of
    # this test's requests come from one address, so most of the 30 are `ignored` rows.
    checks.add("rollup", "events of both hosts counted exactly once in stats_daily",
               recorded > 0 and waited is not None and raw == rolled and done,
               "%d recorded now, %d counted raw rows, %d in stats_daily, progress past every row: "
               "%s" % (recorded, raw, rolled, done))
    checks.add("rollup", "placardctl rollup on two hosts at once: each counted or found the other at it",
               all(c in (0, 3) for c in codes), "exit codes %s" % codes)
    # The lock is the primary's: while a session elsewhere (here: the db namespace's socket)
    # holds placard.rollup, a runner on either host finds it taken (exit 3); released, it runs.
    holder = subprocess.Popen(["mariadb", "--defaults-file=" + topo.mycnf, "-u", "root", "--batch",
                               "--skip-column-names", "-e",
                               "SELECT GET_LOCK('placard.rollup', 5); SELECT SLEEP(4)"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        held = within(3, lambda: topo.sql(
            "SELECT IS_USED_LOCK('placard.rollup') = (SELECT ID FROM information_schema.PROCESSLIST "
            "WHERE INFO LIKE 'SELECT SLEEP(4)%' LIMIT 1)")[0][0] == "1")
        taken = {n: subprocess.run(["ip", "netns", "exec", topo.ns(n)] + ctl, capture_output=True,
                                   timeout=60).returncode for n in T.HOST_IPS}
    finally:
        # Its server-side session would hold the lock until SLEEP ends: ended there too.
        for row in topo.sql("SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE "
                            "'SELECT SLEEP(4)%' AND ID <> CONNECTION_ID()"):
            topo.sql("KILL %d" % int(row[0]))
        holder.kill()
        holder.wait(10)
    after = []  # the workers' own step takes the lock every second: retry a few times
    t_end = time.monotonic() + 5
    while time.monotonic() < t_end and (not after or after[-1] == 3):
        after.append(subprocess.run(["ip", "netns", "exec", topo.ns("h1")] + ctl, capture_output=True,
                                    timeout=60).returncode)
        time.sleep(0.1 if after[-1] == 3 else 0)
    checks.add("rollup", "while the primary's rollup lock is held elsewhere, no host runs; then h1 does",
               held is not None and set(taken.values()) == {3} and after[-1] == 0,
               "held by the test's session: %s, exit codes while held %s, after release %s"
               % (held is not None, taken, after))


def check_replica(topo, checks, figures):
    """The replica has replayed everything the primary wrote (GTID positions equal, the same
    row counts), within 10 s of the last write."""
    caught = within(10, topo.replica_current, interval=0.1)
    p, r = topo.gtid_positions()
    counts = "SELECT (SELECT COUNT(*) FROM impressions), (SELECT COUNT(*) FROM stats_daily), " \
             "(SELECT COUNT(*) FROM accounts), (SELECT COUNT(*) FROM offers)"
    cp, cr = topo.sql(counts)[0], topo.sql(counts, cnf=topo.replica_cnf)[0]
    status = topo.sql("SHOW SLAVE STATUS", database="mysql", cnf=topo.replica_cnf)
    figures["replica"] = {"caught_up_s": caught, "primary_gtid": p, "replica_gtid": r}
    checks.add("replica", "GTID replica caught up with the primary within 10 s, same rows",
               caught is not None and cp == cr and bool(status),
               "caught up in %s; GTID %s / %s; impressions, stats_daily, accounts, offers %s / %s"
               % ("-" if caught is None else "%.0f ms" % (caught * 1000), p, r, cp, cr))


WRK_LUA = """wrk.method = "POST"
wrk.body = '%s'
wrk.headers["Content-Type"] = "application/json"
"""


def wrk(url, lua, seconds, conns):
    p = subprocess.run(["wrk", "-t2", "-c%d" % conns, "-d%ds" % seconds, "--timeout", "5s", "-s", lua,
                        url], capture_output=True, timeout=seconds + 30)
    out = p.stdout.decode("utf-8", "replace")
    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return (float(rps.group(1)) if rps else 0.0), (int(bad.group(1)) if bad else 0), out


def load_step(topo, lb, checks, seconds, figures):
    lua = topo.path("query.lua")
    with open(lua, "w") as f:
        f.write(WRK_LUA % json.dumps(H.query_body(category="electronics")))
    runs = {}
    direct = "http://%s:%d/api/v1/offers/query" % (T.HOST_IPS["h1"], topo.port)
    via_lb = "http://127.0.0.1:%d/api/v1/offers/query" % topo.lb_port
    # One host through haproxy (h2 disabled on haproxy's admin socket) separates haproxy's own
    # cost from what the second host adds.
    for name, url, disabled in (("one host (h1 direct)", direct, None),
                                ("one host (haproxy, h2 disabled)", via_lb, "h2"),
                                ("two hosts (haproxy)", via_lb, None)):
        if disabled:
            topo.haproxy_command("disable server hosts/" + disabled)
        load0 = os.getloadavg()[0]
        before = topo.answered()
        try:
            rps, bad, out = wrk(url, lua, seconds, 32)
        finally:
            if disabled:
                topo.haproxy_command("enable server hosts/" + disabled)
        after = topo.answered()
        via = {n: after.get(n, 0) - before.get(n, 0) for n in T.HOST_IPS}
        runs[name] = {"rps": rps, "non2xx": bad, "loadavg_before": load0, "via_haproxy_per_host": via}
        C.log("%s: %.0f req/s, %d non-2xx (load %.2f), haproxy per host %s" % (name, rps, bad, load0, via))
    one, two = runs["one host (h1 direct)"]["rps"], runs["two hosts (haproxy)"]["rps"]
    one_lb = runs["one host (haproxy, h2 disabled)"]["rps"]
    factor = two / one if one else 0.0
    factor_lb = two / one_lb if one_lb else 0.0
    figures["load"] = {"seconds": seconds, "connections": 32, "runs": runs, "factor": factor,
                       "factor_behind_haproxy": factor_lb, "cores": os.cpu_count()}
    split = runs["two hosts (haproxy)"]["via_haproxy_per_host"]
    checks.add("load", "offers queries answered through haproxy (both hosts) and to one host",
               one > 0 and two > 0 and all(r["non2xx"] == 0 for r in runs.values())
               and min(split.values()) >= 0.25 * sum(split.values()) > 0
               and runs["one host (haproxy, h2 disabled)"]["via_haproxy_per_host"]["h2"] == 0,
               "one host %.0f/s direct, %.0f/s via haproxy; two hosts via haproxy %.0f/s (per host %s); "
               "factor %.2f vs direct, %.2f behind haproxy (%d cores, everything on this machine, "
               "load average %.1f)" % (one, one_lb, two, split, factor, factor_lb, os.cpu_count(),
                                       os.getloadavg()[0]))


def all_but_chaos(topo, h1, h2, lb, checks, figures, load_seconds):
    check_spread(topo, lb, checks)
    admin = check_sessions(topo, h1, h2, lb, checks)
    check_impression_dedup(topo, h1, h2, checks)
    check_admin_change(topo, h1, h2, admin, checks)
    R.check_replica_reads(topo, admin, (h1, h2), checks, figures, within, offer_ids, fmt)
    check_rollup(topo, h1, h2, lb, checks)
    RR.check_primary(topo, checks, list(T.HOST_IPS))
    load_step(topo, lb, checks, load_seconds, figures)
    check_replica(topo, checks, figures)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--summary")
    ap.add_argument("--load-seconds", type=int, default=8)
    ap.add_argument("--timeout", type=int, default=420, help="bound on the whole run")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory (logs)")
    ap.add_argument("--only", choices=("chaos",), help="chaos: the topology, then cluster_chaos only "
                    "(make chaos)")
    a = ap.parse_args()
    if os.geteuid() != 0:
        print("cluster-test: needs root (ip netns)", file=sys.stderr)
        return 2
    a.load_seconds = max(1, min(a.load_seconds, 10))

    run_end.bound("cluster-test", a.timeout)

    checks = C.Checks("make cluster-test: 2 web hosts, 1 MariaDB primary, haproxy")
    figures = {}
    topo = T.Topology(a.build)
    try:
        C.log("namespaces %s-{lb,db,h1,h2}, 10.253.25.0/24, dir %s" % (topo.prefix, topo.dir))
        topo.make_network()
        topo.enter_lb()
        topo.start_db()
        topo.start_replica()
        topo.init_database()
        # The hosts start once the replica has replayed the placard user's grants: a worker whose
        # first snapshot read is refused there (error 1044) skips the replica for 10 s, which
        # CI of 4186915 saw overlap the replica-reads check.
        topo.wait_for("replica: the grants replayed", topo.replica_current, timeout=30)
        topo.extra_conf = R.host_conf_keys()  # catalog snapshots from the replica
        for name in T.HOST_IPS:
            topo.start_host(name)
        topo.start_haproxy()
        h1 = Target(topo, "h1", T.HOST_IPS["h1"], topo.port)
        h2 = Target(topo, "h2", T.HOST_IPS["h2"], topo.port)
        lb = Target(topo, "haproxy", "127.0.0.1", topo.lb_port)
        H.set_stack(h1)
        topo.sql(H.fixture_sql())
        for t in (h1, h2, lb):
            topo.wait_for("fixtures on " + t.name,
                          lambda t=t: offer_ids(t) == H.ELECTRONICS_DE, timeout=30)
        topo.wait_for("haproxy: both hosts UP", lambda: set(topo.answered("status").values()) == {"UP"},
                      timeout=30)
        if a.only != "chaos":
            all_but_chaos(topo, h1, h2, lb, checks, figures, a.load_seconds)
        cluster_chaos.run(topo, checks, figures)  # last: it kills the primary and cuts h2 off
    except BaseException as e:  # noqa: B902 - a failure of any kind still cleans up
        run_end.record_failure(checks, topo, e, ("h1/log/placard.log", "h2/log/placard.log", "db/mariadb.err", "haproxy.log"))
    finally:
        run_end.clean_up(topo, a.keep)
    return checks.finish(a.summary, {"figures": figures})


if __name__ == "__main__":
    sys.exit(main())
