"""galera.py's fallback node (issue 25: a host whose own Galera node is down goes to another).

h1's db.host lists its own node g1 first and g3 second (galera_topology.HOST_FALLBACK); h2's
names g2 only (the node kill of galera.py keeps proving the journal path there). Under a bounded
load of impressions and clicks through h1, g1 is SIGKILLed:

- every impression answers 200 `recorded` and every click 302, none refused (no 503);
- no click went through h1's click journal: none waiting (`placardctl journal status` on h1,
  which reads the same list) and no replay in h1's log;
- each answer is a row on g3 (committed on another node), exactly one per nonce;
- the bound: every answer after the kill came within BOUND_S of the later of its request and
  the moment the survivors evicted g1 (their writes pause until then, whoever writes): the dead
  node costs h1 no connect timeout per request;
- g1 restarted (it rejoins by state transfer): the same nonces are one row each on g1 too, and
  the rollup counts every impression once (raw rows = the sum in stats_daily).
"""

import re
import subprocess
import threading
import time

import cluster as CL
from topology import H
import kill_clicks as KC

BOUND_S = 2.0
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


def check(topo, h1, checks, figures, seconds, impressions, send, ctl_on):
    """impressions(target, category, links=[]) -> tokens; send(target, token) -> (status, state);
    ctl_on(topo, host, *args) -> placardctl's argv on that host."""
    answers = []  # (kind, nonce, status, state, t0, t1)
    lock = threading.Lock()
    stop = time.monotonic() + seconds
    journal_before = journal_lines(topo)

    def worker():
        while time.monotonic() < stop:
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
    topo.kill_node("g1")
    killed = time.monotonic()
    evicted = CL.within(15, lambda: topo.status("g3", "wsrep_cluster_size") == "2", interval=0.05)
    evicted_at = killed + (evicted if evicted is not None else 15)
    for t in threads:
        t.join(seconds + 60)

    bad = [a for a in answers if not ((a[0] == "impression" and a[2] == 200 and a[3] == "recorded")
                                      or (a[0] == "click" and a[2] == 302))]
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
    checks.add("fallback", "g1 SIGKILLed: h1 (db.host g1,g3) answers every impression `recorded` and "
               "every click 302", len(answers) > 10 and len(after) > 10 and not bad and evicted is not None,
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
    waited = CL.within(20, lambda: (lambda r: r[0] == r[1] and r[2])(CL.counted(topo)), interval=0.2)
    raw, rolled, done = CL.counted(topo)
    checks.add("fallback", "g1 back: each of those answers one row on g1 too, counted once",
               size is not None and len(on_g1[0]) == len(imps) and len(on_g1[1]) == len(clicks)
               and all(v == 1 for r in on_g1 for v in r.values()) and waited is not None,
               "cluster of 3 again: %s; rows on g1: %d of %d impressions, %d of %d clicks; %d counted "
               "raw rows, %d in stats_daily, progress past every row: %s"
               % (size is not None, len(on_g1[0]), len(imps), len(on_g1[1]), len(clicks), raw, rolled,
                  done))
