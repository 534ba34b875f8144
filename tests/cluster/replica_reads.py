"""`make cluster-test`, replica reads (db.read_*): catalog snapshots load from the GTID replica
while it is current; with its SQL thread stopped and a change on the primary, every host falls
back to the primary within db.read_max_lag_seconds (the change becomes visible); replica started
again, the snapshots come from it again. The same with the replica unreachable (its link down)
and back.

Where each snapshot was read is not guessed: both servers' general logs (log_output=TABLE, on
only during this step) are counted for the snapshot's own statement (the offers query of
lib/db/catalog_loader.cpp), per server, after each change. Each host's GET /metrics says the
same (placard_catalog_replica_lag_seconds, placard_catalog_from_replica) at each step.
"""

import time

import topology as T

MAX_LAG_S = 1  # db.read_max_lag_seconds in the hosts' config (cluster.py)
OFFER = "1002"
SNAPSHOT_SQL = "%FROM offers o WHERE o.enabled = 1%"
LOADS = len(T.HOST_IPS) * 2  # every worker process of every host loads once per change


def host_conf_keys():
    return {"db.read_host": T.REPLICA_IP, "db.read_port": str(T.DB_PORT),
            "db.read_max_lag_seconds": str(MAX_LAG_S), **T.METRICS_CONF}


def _gauges(topo):
    """{host: (replica lag seconds or None when absent, from replica or None)} from each host's
    GET /metrics (one worker process's: each polls and loads on its own, both saw the change)."""
    out = {}
    for name in T.HOST_IPS:
        samples = topo.metrics(name)
        out[name] = (samples.get(("placard_catalog_replica_lag_seconds", ())),
                     samples.get(("placard_catalog_from_replica", ())))
    return out


def _gauges_text(gauges):
    return ", ".join("%s lag %s from replica %s" % (k, "absent" if lag is None else "%.2f s" % lag,
                                                    "absent" if fr is None else "%g" % fr)
                     for k, (lag, fr) in gauges.items())


def _logs(topo, on):
    for cnf in (topo.mycnf, topo.replica_cnf):
        topo.sql("SET GLOBAL log_output = 'TABLE'; SET GLOBAL general_log = %d" % (1 if on else 0),
                 database="mysql", cnf=cnf)


def _truncate(topo):
    for cnf in (topo.mycnf, topo.replica_cnf):
        topo.sql("TRUNCATE TABLE mysql.general_log", database="mysql", cnf=cnf)


def _loads(topo):
    """{"primary": n, "replica": n}: snapshot statements in each server's general log."""
    q = ("SELECT COUNT(*) FROM mysql.general_log WHERE command_type IN ('Query', 'Execute') AND "
         "argument LIKE '%s' AND argument NOT LIKE '%%general_log%%'" % SNAPSHOT_SQL)
    return {"primary": int(topo.sql(q, database="mysql")[0][0]),
            "replica": int(topo.sql(q, database="mysql", cnf=topo.replica_cnf)[0][0])}


def _choices(topo):
    """The hosts' last log lines on where their snapshots come from (with their times: a host
    logs a change of source only), for a failed check's detail."""
    out = []
    for name in T.HOST_IPS:
        with open(topo.path(name, "log", "placard.log"), "rb") as f:
            lines = f.read().decode("utf-8", "replace").splitlines()
        where = [line for line in lines if " catalog: " in line and "snapshot version" not in line]
        out += ["%s %s %s" % (name, line.split(" ", 1)[0][11:19], line.split(" catalog: ", 1)[1])
                for line in where[-4:]]
    return "; ".join(out) or "nothing logged"


def _change(topo, admin, enabled, hosts, offer_ids, bound):
    """The offer switched through the admin API; seconds until every host shows it (or None),
    and the snapshot loads per server."""
    _truncate(topo)
    t0 = time.monotonic()
    admin.ok("PATCH", "/offers/%s" % OFFER, {"enabled": enabled})
    seen = T.within_each(t0, bound, hosts, lambda t: (OFFER in (offer_ids(t) or [])) == enabled)
    time.sleep(0.6)  # a poll or two more: every worker process has loaded its snapshot
    return seen, _loads(topo)


def _replication(topo):
    """The replica's threads and last errors (SHOW SLAVE STATUS), for a failed check's detail."""
    p = T.run("mariadb", "--defaults-file=" + topo.replica_cnf, "-u", "root", "mysql", "--batch",
              "-e", "SHOW SLAVE STATUS\\G", check=False)
    keep = ("Slave_IO_Running", "Slave_SQL_Running", "Seconds_Behind_Master", "Last_IO_Error",
            "Last_SQL_Error")
    fields = {}
    for line in p.stdout.decode("utf-8", "replace").splitlines():
        key, _, value = line.strip().partition(": ")
        if key in keep:
            fields[key] = value
    return ", ".join("%s %s" % (k, fields.get(k) or "-") for k in keep)


def _served_by_replica(topo, current, seen, loads, fmt):
    """(ok, detail) for a change meant to be served from the replica: `current` is the seconds
    until the replica had caught up before it (None: it had not within the bound)."""
    ok = (current is not None and all(v is not None for v in seen.values())
          and loads["replica"] >= LOADS and loads["primary"] == 0)
    detail = ("replica current in %s; visible %s; snapshot loads per server %s (%d worker processes)"
              % (fmt(current), ", ".join("%s %s" % (k, fmt(v)) for k, v in seen.items()), loads, LOADS))
    return ok, detail if ok else "%s; hosts: %s; replication: %s" % (detail, _choices(topo),
                                                                      _replication(topo))


def check_replica_reads(topo, admin, hosts, checks, figures, within, offer_ids, fmt):
    _logs(topo, True)
    try:
        # The replica current first: a replica behind is rightly passed over, and the check is
        # of a change made while it is current (one whose read failed in the last 10 s is passed
        # over too; a failed check's detail then shows the error the hosts logged).
        current = within(10, topo.replica_current)
        seen, loads = _change(topo, admin, False, hosts, offer_ids, 1.0)
        gauges = {"replica": _gauges(topo)}
        checks.add("replica reads", "a change is served from snapshots read on the replica",
                   *_served_by_replica(topo, current, seen, loads, fmt))
        topo.sql("STOP SLAVE", database="mysql", cnf=topo.replica_cnf)
        bound = MAX_LAG_S + 1.0  # the lag bound, plus a poll interval and a load
        fallback, stopped = _change(topo, admin, True, hosts, offer_ids, bound)
        gauges["stopped"] = _gauges(topo)
        replica_has = topo.sql("SELECT enabled FROM offers WHERE id = %s" % OFFER,
                               cnf=topo.replica_cnf)[0][0]
        lags = [v for v in fallback.values() if v is not None]
        ok = (len(lags) == len(hosts) and min(lags) >= MAX_LAG_S * 0.8
              and stopped["primary"] >= LOADS and stopped["replica"] == 0 and replica_has == "0")
        checks.add("replica reads", "replica stopped: the hosts read the primary within the lag bound",
                   ok, "visible %s (bound %d s + 1 s; the replica still has it disabled); snapshot "
                   "loads %s%s" % (", ".join("%s %.0f ms" % (k, v * 1000) if v is not None else
                                             "%s none" % k for k, v in fallback.items()), MAX_LAG_S,
                                   stopped, "" if ok else "; hosts: %s" % _choices(topo)))
        topo.sql("START SLAVE", database="mysql", cnf=topo.replica_cnf)
        caught = within(10, topo.replica_current)
        seen, back = _change(topo, admin, False, hosts, offer_ids, 1.0)
        gauges["restarted"] = _gauges(topo)
        checks.add("replica reads", "replica started again: snapshots come from it again",
                   *_served_by_replica(topo, caught, seen, back, fmt))
        # The replica unreachable (its link down: connections hang, nothing refuses them): a
        # load waits at most its 5 s read timeout and a 2 s connect, then the primary serves.
        run_ip = ["ip", "-n", topo.ns("db2"), "link", "set", "eth0"]
        T.run(*(run_ip + ["down"]))
        try:
            down, down_loads = _change(topo, admin, True, hosts, offer_ids, 9.0)
            gauges["unreachable"] = _gauges(topo)
        finally:
            T.run(*(run_ip + ["up"]))
        checks.add("replica reads", "replica unreachable (link down): the hosts read the primary",
                   all(v is not None for v in down.values()) and down_loads["primary"] >= LOADS
                   and down_loads["replica"] == 0,
                   "visible %s (bound 9 s: 5 s read timeout + 2 s connect + a poll); snapshot loads %s"
                   % (", ".join("%s %s" % (k, fmt(v)) for k, v in down.items()), down_loads))
        time.sleep(10.5)  # a failed replica is skipped for 10 s (lib/db/catalog_source.cpp)
        current = within(10, topo.replica_current)
        up, up_loads = _change(topo, admin, False, hosts, offer_ids, 1.0)
        gauges["link up"] = _gauges(topo)
        checks.add("replica reads", "link up again: snapshots come from the replica again",
                   *_served_by_replica(topo, current, up, up_loads, fmt))
        # What an operator's Prometheus sees at each step: current and read (lag 0, from the
        # replica 1); stopped, behind since the change, past the bound (lag at least ~1 s, from
        # the replica 0); unreachable, no answer (lag absent, from the replica 0).
        want = {"replica": lambda lag, fr: lag == 0 and fr == 1,
                "stopped": lambda lag, fr: lag is not None and lag >= MAX_LAG_S * 0.8 and fr == 0,
                "restarted": lambda lag, fr: lag == 0 and fr == 1,
                "unreachable": lambda lag, fr: lag is None and fr == 0,
                "link up": lambda lag, fr: lag == 0 and fr == 1}
        checks.add("replica reads", "each host's /metrics: replica lag and source at each step",
                   all(want[step](*g) for step, per_host in gauges.items() for g in per_host.values()),
                   "; ".join("%s: %s" % (step, _gauges_text(per_host)) for step, per_host in gauges.items()))
        figures["replica_reads"] = {"replica": loads, "stopped": stopped, "restarted": back,
                                    "fallback_visible_s": fallback, "unreachable": down_loads,
                                    "unreachable_visible_s": down, "link_up": up_loads}
        _change(topo, admin, True, hosts, offer_ids, 1.0)  # the fixtures as they were
    finally:
        _logs(topo, False)
