"""galera.py's fallback node (issue 25: a host whose own Galera node is down goes to another).

h1's db.host lists its own node g1 first and g3 second (galera_topology.HOST_FALLBACK); h2's
names g2 only (the node kill of galera.py keeps proving the journal path there). Under a bounded
load of impressions and clicks through h1, g1 is SIGKILLed:

- every impression answers 200 `recorded` and every click 302, none refused (no 503); an
  impression in flight at the kill may answer `duplicate` (g1 committed it, the answer was lost,
  the retry on g3 finds its row);
- no click went through h1's click journal: none waiting (`placardctl journal status` on h1,
  which reads the same list) and no replay in h1's log;
- each answer is a row on g3 (committed on another node), exactly one per nonce;
- the bound: every answer after the kill came within BOUND_S of the later of its request and
  the moment the survivors evicted g1 (their writes pause until then, whoever writes): the dead
  node costs h1 no connect timeout per request;
- g1 restarted (it rejoins by state transfer): the same nonces are one row each on g1 too, and
  the rollup counts every impression once (raw rows = the sum in stats_daily).

Then (check_partition) g1 is cut off from g2 and g3 by blackhole routes while h1 still reaches
it: g1 leaves the primary component, takes connections and answers 1047 to every statement.
h1's sessions skip it (a skip is not ended by a connection that succeeds) and go on with g3:
from a second after the survivors' new view, every impression `recorded` and every click 302
(before that, an impression may answer 503 while g3 too installs its view, or `duplicate`), each one row on g3;
healed, g1 rejoins with each of them once.
"""

import re
import subprocess
import threading
import time

import cluster as CL
import galera_topology as G
import topology as T
from topology import H, run
import kill_clicks as KC

BOUND_S = 2.0
AFTER_S = 2.0  # the load goes on at least this long past the eviction
# The rollup's lease (lib/jobs/rollup_step.cpp): a pass that held it on g1 at the kill leaves it
# to expire, and no host counts until then (docs/scaling.md).
ROLLUP_LEASE = "SELECT node, TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(3), expires_at) / 1e6 FROM job_leases " \
               "WHERE name = 'placard.rollup'"
NODE_ID = "SELECT MD5(CONCAT_WS(':', @@hostname, @@port, @@datadir))"
JOURNAL_LOG = re.compile(r"click journal: (replayed|replay waits|full|cannot create)")


def journal_lines(topo):
    try:
        with open(topo.path("h1", "log", "placard.log"), errors="replace") as f:
            return sum(1 for line in f if JOURNAL_LOG.search(line))
    except OSError:
        return -1


def rows(topo, node, table, nonces):
    got = topo.node_sql(node, "SELECT HEX(token_nonce), COUNT(*) FROM %s GROUP BY token_nonce" % table)
    return {h: int(n) for h, n in got if h in nonces}


def load(h1, seconds, impressions, send, disrupt):
    """3 threads through h1 for `seconds` (a query, its click link, its impressions, again), and
    at least AFTER_S past disrupt()'s return (a slow eviction must not end the load before the
    writes resume); disrupt() called a third of the way in; its result, and the answers
    [(kind, nonce, status, state, t0, t1)]."""
    answers = []
    lock = threading.Lock()
    start = time.monotonic()
    # No end until disrupt() has returned: an eviction slower than the rest of `seconds` must
    # not end the load before the writes resume (CI of 6a0d259: 4.4 s, every thread done at 6 s).
    stop = [float("inf")]

    def worker():
        while time.monotonic() < stop[0]:
            links = []
            t0 = time.monotonic()
            try:
                tokens = impressions(h1, "clicks", links=links)
            except (OSError, ValueError) as e:
                with lock:
                    answers.append(("query", "", 0, str(e)[:60], t0, time.monotonic()))
                continue
            for url in links:
                t0 = time.monotonic()
                s, nonce = KC.click(h1, url)
                with lock:
                    answers.append(("click", nonce, s, None, t0, time.monotonic()))
            for tok in tokens:
                t0 = time.monotonic()
                s, state = send(h1, tok)
                with lock:
                    answers.append(("impression", H.decode_token(tok)["nonce"].hex().upper(), s,
                                    state, t0, time.monotonic()))

    threads = [threading.Thread(target=worker) for _ in range(3)]
    for t in threads:
        t.start()
    time.sleep(seconds / 3.0)
    result = disrupt()
    stop[0] = max(start + seconds, time.monotonic() + AFTER_S)
    for t in threads:
        t.join(seconds + 60)
    return result, answers


def right(a):
    return (a[0] == "impression" and a[2] == 200 and a[3] == "recorded") or (a[0] == "click" and a[2] == 302)


def check(topo, h1, checks, figures, seconds, impressions, send, ctl_on):
    """impressions(target, category, links=[]) -> tokens; send(target, token) -> (status, state);
    ctl_on(topo, host, *args) -> placardctl's argv on that host."""
    journal_before = journal_lines(topo)
    g1_node = topo.node_sql("g1", NODE_ID)[0][0]

    def kill():
        sent = time.monotonic()  # SIGKILL sent; kill_node returns once the process is reaped
        topo.kill_node("g1")
        killed = time.monotonic()
        return sent, killed, CL.within(15, lambda: topo.status("g3", "wsrep_cluster_size") == "2",
                                       interval=0.05)
    (sent, killed, evicted), answers = load(h1, seconds, impressions, send, kill)
    evicted_at = killed + (evicted if evicted is not None else 15)
    lease = topo.node_sql("g3", ROLLUP_LEASE)
    # Seconds the counting waits for a lease g1's holder left (0: it held none at the kill).
    lease_wait = max(0.0, float(lease[0][1])) if lease and lease[0][0] == g1_node else 0.0
    lease_ends = time.monotonic() + lease_wait

    # An impression in flight at the kill whose commit g1 made but could not acknowledge: the
    # retry on g3 finds its row (replicated) and answers `duplicate`: still one row, and 200. In
    # flight: sent before g1 was gone, answered after the SIGKILL went out (the retry can finish
    # while g1's process is still being reaped: seen in a fresh-clone run).
    bad = [a for a in answers if not right(a) and not (a[0] == "impression" and a[2] == 200
                                                        and a[3] == "duplicate"
                                                        and a[4] <= killed and a[5] >= sent)]
    after = [a for a in answers if a[5] > killed]
    late = [a for a in after if a[5] - max(a[4], evicted_at) > BOUND_S]
    slowest = max((a[5] - max(a[4], evicted_at) for a in after), default=0.0)
    imps = {a[1] for a in answers if a[0] == "impression" and a[2] == 200}
    clicks = {a[1] for a in answers if a[0] == "click" and a[2] == 302}
    status = subprocess.run(ctl_on(topo, "h1", "journal", "status"), capture_output=True, timeout=30)
    out = status.stdout.decode("utf-8", "replace")
    m = re.search(r"(\d+) clicks waiting", out)
    waiting = int(m.group(1)) if m else -1
    journal_after = journal_lines(topo)
    on_g3 = (rows(topo, "g3", "impressions", imps), rows(topo, "g3", "clicks", clicks))
    figures["fallback"] = {"seconds": seconds, "answers": len(answers), "after_kill": len(after),
                           "eviction_s": evicted, "slowest_after_eviction_s": round(slowest, 3),
                           "impressions": len(imps), "clicks": len(clicks), "journal_waiting": waiting}
    checks.add("fallback", "g1 SIGKILLed: h1 (db.host g1,g3) answers every impression `recorded` (or "
               "`duplicate`, in flight at the kill, its row there) and every click 302",
               len(answers) > 10 and len(after) > 10 and not bad and evicted is not None,
               "%d answers (%d after the kill; g1 evicted after %s), %d not right %s"
               % (len(answers), len(after), CL.fmt(evicted), len(bad), [a[:4] for a in bad][:5]))
    checks.add("fallback", "answers after the kill within %.0f s of the eviction (or of their request)"
               % BOUND_S, after and not late,
               "slowest %.2f s past max(request, eviction); %d over %s"
               % (slowest, len(late), [round(a[5] - max(a[4], evicted_at), 2) for a in late][:5]))
    checks.add("fallback", "no click went through h1's journal; each answer is one row on g3",
               waiting == 0 and journal_after == journal_before >= 0
               and len(on_g3[0]) == len(imps) and len(on_g3[1]) == len(clicks)
               and all(v == 1 for r in on_g3 for v in r.values()),
               "journal: %d waiting, journal log lines %d -> %d; rows on g3: %d of %d impressions, %d of "
               "%d clicks, none twice: %s" % (waiting, journal_before, journal_after, len(on_g3[0]),
                                              len(imps), len(on_g3[1]), len(clicks),
                                              all(v == 1 for r in on_g3 for v in r.values())))

    t0 = time.monotonic()
    topo.restart_node("g1")
    size = CL.within(60, lambda: topo.status("g3", "wsrep_cluster_size") == "3", interval=0.2)
    figures["fallback"]["g1_rejoin_s"] = round(time.monotonic() - t0, 1)
    on_g1 = (rows(topo, "g1", "impressions", imps), rows(topo, "g1", "clicks", clicks))
    budget = max(20.0, lease_ends - time.monotonic() + 20.0)
    waited = CL.within(budget, lambda: (lambda r: r[0] == r[1] and r[2])(CL.counted(topo)), interval=0.2)
    raw, rolled, done = CL.counted(topo)
    figures["fallback"]["rollup_lease_left_by_g1_s"] = round(lease_wait, 1)
    checks.add("fallback", "g1 back: each of those answers one row on g1 too, counted once (within 20 s, "
               "after the rollup lease g1's holder left, if any)",
               size is not None and len(on_g1[0]) == len(imps) and len(on_g1[1]) == len(clicks)
               and all(v == 1 for r in on_g1 for v in r.values()) and waited is not None,
               "cluster of 3 again: %s; rows on g1: %d of %d impressions, %d of %d clicks; %d counted "
               "raw rows, %d in stats_daily, progress past every row: %s (waited %s of %.0f s; a "
               "rollup lease left on g1 for %.1f s)"
               % (size is not None, len(on_g1[0]), len(imps), len(on_g1[1]), len(clicks), raw, rolled,
                  done, "%.1f s" % waited if waited is not None else "not caught up", budget, lease_wait))


def h1_connections(topo, node):
    return [int(r[0]) for r in topo.node_sql(node, "SELECT ID FROM information_schema.PROCESSLIST "
                                                   "WHERE HOST LIKE '%s:%%'" % T.HOST_IPS["h1"])]


def routes(topo, action):
    """g1 cut off from g2 and g3 (blackhole routes both ways; h1 still reaches g1), or healed."""
    for a, b in (("g1", "g2"), ("g1", "g3")):
        for here, there in ((a, b), (b, a)):
            run("ip", "-n", topo.ns(here), "route", action, "blackhole", G.GALERA_IPS[there] + "/32")


def check_partition(topo, h1, checks, figures, seconds, impressions, send):
    """g1 cut off from the other nodes while h1 still reaches it: g1 leaves the primary component
    and answers 1047 on the connections h1 holds; h1 skips it and goes on with g3."""
    # h1's connections back on g1, its first node: those on g2 and g3 (left from the kill) ended.
    for node in ("g2", "g3"):
        for cid in h1_connections(topo, node):
            try:
                topo.node_sql(node, "KILL %d" % cid)
            except RuntimeError:
                pass  # ended meanwhile
    for tok in impressions(h1, "clicks") * 3:
        send(h1, tok)
    CL.within(10, lambda: not h1_connections(topo, "g3") and h1_connections(topo, "g1"), interval=0.2)
    before = {n: len(h1_connections(topo, n)) for n in ("g1", "g3")}

    def cut():
        routes(topo, "add")
        t = time.monotonic()
        out = CL.within(15, lambda: topo.status("g1", "wsrep_cluster_status") not in ("Primary", None),
                        interval=0.05)
        # Seconds from the cut, as `out`: this poll starts only once g1 was seen out, so its own
        # count alone put the survivors' new view (and `settled` below) that much too early.
        evicted = CL.within(15, lambda: topo.status("g3", "wsrep_cluster_size") == "2", interval=0.05)
        return t, out, (time.monotonic() - t if evicted is not None else None)
    try:
        (cut_at, out, evicted), answers = load(h1, seconds, impressions, send, cut)
    finally:
        routes(topo, "del")
    settled = cut_at + max(out if out is not None else 15, evicted if evicted is not None else 15)
    # While the survivors install their new view they too are briefly outside a primary
    # component: an impression in flight then may answer 503 (the client retries; a click goes to
    # the journal and still answers 302), or `duplicate` (replicated before g1 was cut off, its
    # answer lost: the retry finds its row). From a second after that, everything is right.
    bad = [a for a in answers if not right(a)]
    transition = [a for a in bad if a[0] == "impression" and a[4] < settled + 1.0
                  and (a[2] == 503 or (a[2] == 200 and a[3] == "duplicate"))]
    after = [a for a in answers if a[5] > cut_at]
    steady = [a for a in answers if a[4] >= settled + 1.0]
    late = [a for a in after if a[5] - max(a[4], settled) > BOUND_S]
    imps = {a[1] for a in answers if a[0] == "impression" and a[2] == 200}
    clicks = {a[1] for a in answers if a[0] == "click" and a[2] == 302}
    # Journaled clicks are replayed by h1's workers (each second, through the same node list).
    CL.within(15, lambda: len(rows(topo, "g3", "clicks", clicks)) == len(clicks), interval=0.5)
    on_g3 = (rows(topo, "g3", "impressions", imps), rows(topo, "g3", "clicks", clicks))
    figures["partition"] = {"seconds": seconds, "h1_connections_before": before, "answers": len(answers),
                            "after_cut": len(after), "after_view_change_1s": len(steady),
                            "g1_out_s": out, "evicted_s": evicted, "503_or_duplicate_at_the_view_change": len(transition),
                            "slowest_after_settled_s": round(max((a[5] - max(a[4], settled) for a in after),
                                                                 default=0.0), 3)}
    checks.add("fallback", "g1 cut off from g2 and g3 (h1 still reaches it, it answers 1047): from 1 s after "
               "the new view, h1 answers every impression `recorded` (before: 503 or `duplicate` at most), "
               "every click 302",
               before["g1"] > 0 and before["g3"] == 0 and out is not None and evicted is not None
               and len(steady) > 20 and len(bad) == len(transition) and not late
               and all(len(r) == len(s) and all(v == 1 for v in r.values())
                       for r, s in zip(on_g3, (imps, clicks))),
               "h1's connections before the cut %s; g1 out of the primary component after %s, evicted "
               "(g3's view of 2) after %s from the cut; %d answers (%d after the cut, %d from 1 s after the view change), %d not right "
               "%s (%d impressions 503 or duplicate at the view "
               "change), %d later than %.0f s past max(request, both); rows on g3: %d of %d impressions, "
               "%d of %d clicks" % (before, CL.fmt(out), CL.fmt(evicted), len(answers), len(after), len(steady),
                                    len(bad),
                                    [a[:4] for a in bad if a not in transition][:5], len(transition), len(late),
                                    BOUND_S, len(on_g3[0]), len(imps), len(on_g3[1]), len(clicks)))
    size = CL.within(60, lambda: topo.status("g3", "wsrep_cluster_size") == "3" and topo.synced("g1"),
                     interval=0.2)
    on_g1 = (rows(topo, "g1", "impressions", imps), rows(topo, "g1", "clicks", clicks)) if size else ({}, {})
    checks.add("fallback", "healed: g1 back in the cluster with each of those answers once",
               size is not None and all(len(r) == len(s) and all(v == 1 for v in r.values())
                                        for r, s in zip(on_g1, (imps, clicks))),
               "cluster of 3 with g1 synced: %s; rows on g1: %d of %d impressions, %d of %d clicks"
               % (CL.fmt(size), len(on_g1[0]), len(imps), len(on_g1[1]), len(clicks)))
