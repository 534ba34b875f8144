"""`make chaos` across hosts (issue 25), run by `make cluster-test` after its other checks: the
load client of tests/resilience/load_client.py (offers queries, impressions, clicks on valid
offers; every answer logged) against haproxy, bounded in time, while

  (a) the MariaDB primary is killed (SIGKILL) and started again: impressions answer 503 (the
      client retries the same token later; nothing is counted that was not answered), clicks
      keep redirecting (each host's click journal) and are written once when it returns;
  (b) one web host (h2) is cut off (`ip link set v-h2 down`: its veth on the balancer's bridge)
      and restored: haproxy redispatches to h1, then takes h2 back.

After each: every impression answered `recorded` and every click answered 302 is exactly one row
(by token nonce), no row counted twice, no nonce written that was answered with an error (but for
requests in flight at the very moment of the fault, counted apart), and no click on a valid offer
answered with an error (again but for those in flight when the link went down: their answer is
lost on the cut wire; they are written at most once, from h2's journal if need be).
"""

import os
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "resilience"))
import topology as T  # noqa: E402
import common as C  # noqa: E402
from load_client import LoadClient  # noqa: E402

MIX = (("query", 2), ("impression", 3), ("click", 3))
REPLAY_BOUND_S = 20.0


def ok(r):
    if r["kind"] == "click":
        return r["status"] == 302
    if r["kind"] == "impression":
        return r["status"] == 200 and r["result"] == "recorded"
    return r["status"] == 200


def rows_by_nonce(topo, table, nonces):
    counts = {}
    items = sorted(set(nonces))
    for i in range(0, len(items), 400):
        part = items[i:i + 400]
        for n, c in topo.sql("SELECT LOWER(HEX(token_nonce)), COUNT(*) FROM %s WHERE token_nonce IN (%s) "
                             "GROUP BY token_nonce" % (table, ",".join("UNHEX('%s')" % x for x in part))):
            counts[n] = int(c)
    return counts


def kill_primary(topo):
    with open(topo.path("db", "mariadb.pid")) as f:
        pid = int(f.read().strip())
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while os.path.exists("/proc/%d" % pid) and time.monotonic() < deadline:
        try:
            with open("/proc/%d/stat" % pid) as f:
                if f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X"):
                    break
        except OSError:
            break
        time.sleep(0.02)
    return pid


def start_primary(topo):
    cnf = topo.mycnf
    p = topo.spawn("mariadb db (restarted)", "db", ["mariadbd", "--defaults-file=" + cnf, "--user=root"],
                   topo.path("db", "mariadbd.out"))
    topo.wait_for("MariaDB primary restarted",
                  lambda: T.run("mariadb-admin", "--defaults-file=" + cnf, "-u", "root",
                                "--connect-timeout=2", "ping", check=False).returncode == 0,
                  timeout=60, proc=p)


def judge(topo, client, checks, group, t_from, t_to, t_fault, in_flight_ok):
    """The checks of one phase over the requests started in [t_from, t_to)."""
    recs = client.records_between(t_from, t_to)
    in_flight = [r for r in recs if r["t0"] <= t_fault <= (r["t1"] or t_fault)]
    clicks = [r for r in recs if r["kind"] == "click"]
    imps = [r for r in recs if r["kind"] == "impression"]
    ok_clicks = [r["nonce"] for r in clicks if ok(r)]
    ok_imps = [r["nonce"] for r in imps if ok(r)]
    bad_clicks = [r for r in clicks if not ok(r) and not (in_flight_ok and r in in_flight)]
    checks.add(group, "no click on a valid offer answered with an error", clicks and not bad_clicks,
               "%d clicks, %d not 302%s; %d requests in flight at the fault" %
               (len(clicks), len(bad_clicks),
                " (first: %s)" % (bad_clicks[0]["status"] or bad_clicks[0]["error"]) if bad_clicks else "",
                len(in_flight)))
    # The journals are replayed within a second or two of the database answering again.
    waited = C.H.wait_until(lambda: len(rows_by_nonce(topo, "clicks", ok_clicks)) == len(set(ok_clicks)),
                            timeout=REPLAY_BOUND_S, interval=0.25)
    crow = rows_by_nonce(topo, "clicks", [r["nonce"] for r in clicks])
    irow = rows_by_nonce(topo, "impressions", [r["nonce"] for r in imps])
    twice = [n for n, c in list(crow.items()) + list(irow.items()) if c != 1]
    missing = [n for n in ok_clicks if crow.get(n) != 1] + [n for n in ok_imps if irow.get(n) != 1]
    # Written although answered with an error: only a request in flight at the fault may be.
    extra = [r for r in clicks + imps if not ok(r) and (crow if r["kind"] == "click" else irow).get(r["nonce"])
             and r not in in_flight]
    extra_in_flight = [r for r in clicks + imps if not ok(r) and r in in_flight
                       and (crow if r["kind"] == "click" else irow).get(r["nonce"])]
    checks.add(group, "recorded events equal the successful answers, none counted twice",
               ok_clicks and ok_imps and waited and not twice and not missing and not extra,
               "%d clicks 302, %d impressions recorded; %d of them not exactly one row, %d nonces "
               "with more than one row, %d written but answered with an error (+%d in flight at the "
               "fault)" % (len(ok_clicks), len(ok_imps), len(missing), len(twice), len(extra),
                           len(extra_in_flight)))
    return {"requests": len(recs), "clicks": len(clicks), "clicks_302": len(ok_clicks),
            "impressions": len(imps), "impressions_recorded": len(ok_imps),
            "impressions_503": len([r for r in imps if r["status"] == 503]),
            "in_flight_at_fault": len(in_flight), "written_in_flight_but_error": len(extra_in_flight)}


def primary_phase(topo, client, checks, figures, down_s=4.0, after_s=4.0):
    group = "chaos: primary killed"
    t0 = time.monotonic()
    time.sleep(1.5)
    t_kill = time.monotonic()
    pid = kill_primary(topo)
    C.log("chaos: MariaDB primary (pid %d) killed under load" % pid)
    time.sleep(down_s)
    t_restart = time.monotonic()
    start_primary(topo)
    t_up = time.monotonic()
    C.log("chaos: primary back after %.1f s" % (t_up - t_kill))
    time.sleep(after_s)
    t_end = time.monotonic()
    down = client.records_between(t_kill, t_up)
    down_clicks = [r for r in down if r["kind"] == "click"]
    down_imps = [r for r in down if r["kind"] == "impression"]
    # Impressions: judged from a second after the kill to the restart (one in flight at the kill
    # may still have been answered by its commit; one at the restart, by the new server).
    checks.add(group, "while it is down: clicks 302 from the journal, impressions 503 + Retry-After",
               down_clicks and all(r["status"] == 302 for r in down_clicks)
               and all(r["status"] == 503 and (r["retry_after"] or "").isdigit()
                       for r in down_imps if t_kill + 1.0 < r["t0"] and r["t1"] < t_restart),
               "%d clicks (%d 302), %d impressions (%d 503)"
               % (len(down_clicks), len([r for r in down_clicks if r["status"] == 302]), len(down_imps),
                  len([r for r in down_imps if r["status"] == 503])))
    fig = judge(topo, client, checks, group, t0, t_end, t_kill, in_flight_ok=False)
    fig["down_s"] = round(t_up - t_kill, 2)
    fig["clicks_while_down"] = len(down_clicks)
    figures["chaos_primary"] = fig


def link_phase(topo, client, checks, figures, down_s=10.0):
    group = "chaos: h2 cut off"
    t0 = time.monotonic()
    time.sleep(1.5)
    lb = topo.ns("lb")
    t_cut = time.monotonic()
    T.run("ip", "-n", lb, "link", "set", "v-h2", "down")
    C.log("chaos: h2's link down")
    try:
        time.sleep(down_s)
        status_down = topo.answered("status").get("h2")
    finally:
        T.run("ip", "-n", lb, "link", "set", "v-h2", "up")
    t_up = time.monotonic()
    C.log("chaos: h2's link up again")
    back = C.H.wait_until(lambda: topo.answered("status").get("h2") == "UP", timeout=20, interval=0.25)
    t_back = time.monotonic()
    time.sleep(2.0)
    t_end = time.monotonic()
    # Its checks (inter 2 s, fall 3, timeout 3 s) may not have marked it DOWN yet after 10 s;
    # failing they must be ("UP 1/3": going down). Meanwhile redispatch serves its share on h1.
    checks.add(group, "haproxy saw h2 fail while cut off, UP again after", status_down != "UP" and back,
               "h2 %s while cut off; UP again %.1f s after the link came back"
               % (status_down, t_back - t_up) if back else "h2 not UP within 20 s")
    fig = judge(topo, client, checks, group, t0, t_end, t_cut, in_flight_ok=True)
    fig["cut_s"] = round(t_up - t_cut, 2)
    fig["h2_back_s"] = round(t_back - t_up, 2)
    figures["chaos_link"] = fig


def run(topo, checks, figures):
    """Both phases under one load client; the client is stopped whatever happens."""
    client = LoadClient(topo.lb_port, threads=4, timeout=15.0, seed=25, mix=MIX)
    client.start()
    try:
        primary_phase(topo, client, checks, figures)
        link_phase(topo, client, checks, figures)
    finally:
        client.stop()
        try:
            client.write_log(topo.path("chaos-answers.jsonl"))
        except OSError:
            pass
