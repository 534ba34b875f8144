"""`placardctl retention run` across hosts (issue 25: one retention run at a time across hosts),
for cluster.py (the primary's named lock) and galera.py (the job_leases row decides).

N raw impressions 400 days old (ignored ones, `rate_limited`: no counted statistic changes) are
written and rolled up (retention deletes only rows the rollup has counted), then:

- while the test's own session holds the lock (cluster.py: GET_LOCK on the primary; galera.py:
  a lease row written on g3), `retention run` on every host finds it held and deletes nothing;
- released, `retention run` started on every host at once: each either ran or found the other
  at it, and exactly one pass deleted the N rows (passes at the same time would split them).

`placardctl retention run` exits 0 when it ran and 3 when another pass held the lock (as
`rollup` and `sync`), printing "another retention pass is running; nothing done"; both the exit
status and the output are checked.
"""

import contextlib
import os
import re
import subprocess
import topology as T  # on the path the cluster scripts set

ROWS = 5000  # 5 DELETE batches of 1000 with 50 ms pauses: a pass holds the lock > 200 ms
HELD = "another retention pass is running"
RAN = re.compile(r"retention (\d+) days: deleted (\d+) impressions")


def outcome(proc_stdout):
    text = proc_stdout.decode("utf-8", "replace")
    m = RAN.search(text)
    if m:
        return "ran", int(m.group(2))
    return ("held", 0) if HELD in text else ("?", text.strip()[:80])


@contextlib.contextmanager
def get_lock_held(cnf, sql, name="placard.retention"):
    """GET_LOCK(name) held by a mariadb client session of the test's own (up to 30 s); yields
    whether it was seen held by that session."""
    holder = subprocess.Popen(["mariadb", "--defaults-file=" + cnf, "-u", "root", "--batch",
                               "--skip-column-names", "-e",
                               "SELECT GET_LOCK('%s', 5); SELECT SLEEP(29)" % name],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield T.within(3, interval=0.1, fn=lambda: sql(
            "SELECT IS_USED_LOCK('%s') = (SELECT ID FROM information_schema.PROCESSLIST "
            "WHERE INFO LIKE 'SELECT SLEEP(29)%%' LIMIT 1)" % name)[0][0] == "1") is not None
    finally:
        for row in sql("SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE "
                       "'SELECT SLEEP(29)%' AND ID <> CONNECTION_ID()"):
            sql("KILL %d" % int(row[0]))
        holder.kill()
        holder.wait(10)


def check(checks, group, how_held, sql, ctl, hosts, hold):
    """sql(statement) -> rows (the database, any node); ctl(host, *args) -> placardctl's argv on
    that host; hold(): a context manager holding the job's lock or lease as the test's session."""
    tag = os.urandom(6).hex()
    mine = "FROM impressions WHERE placement = 'retention-%s'" % tag
    left = lambda: int(sql("SELECT COUNT(*) " + mine)[0][0])  # noqa: E731
    run = lambda h: subprocess.run(ctl(h, "retention", "run"), capture_output=True,  # noqa: E731
                                   timeout=60)
    with hold() as held:  # from before the rows exist: no worker's pass deletes them meanwhile
        sql("INSERT INTO impressions (token_nonce, offer_id, placement, country, issued_at, ignored, "
            "recorded_at) SELECT UNHEX(MD5(CONCAT('%s-', seq))), 1001, 'retention-%s', 'DE', "
            "UTC_TIMESTAMP() - INTERVAL 400 DAY, 'rate_limited', UTC_TIMESTAMP(3) - INTERVAL 400 DAY "
            "FROM seq_1_to_%d" % (tag, tag, ROWS))
        top = int(sql("SELECT MAX(id) " + mine)[0][0])
        rolled = T.within(20, lambda: int(sql("SELECT last_id FROM rollup_progress WHERE name = "
                                            "'impressions'")[0][0]) >= top, interval=0.2)
        while_held = {h: run(h) for h in hosts}
        kept = left()
    got = {h: (p.returncode,) + outcome(p.stdout) for h, p in while_held.items()}
    checks.add(group, "while %s, `placardctl retention run` on no host runs" % how_held,
               held and rolled is not None and kept == ROWS
               and all(g[:2] == (3, "held") for g in got.values()),
               "held: %s; %d old rows rolled up: %s; (exit, outcome, deleted) %s; rows left %d"
               % (held, ROWS, rolled is not None, got, kept))
    procs = {h: subprocess.Popen(ctl(h, "retention", "run"), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE) for h in hosts}
    at_once = {}
    for h, p in procs.items():
        out, _ = p.communicate(timeout=60)
        at_once[h] = (p.returncode,) + outcome(out)
    deleted = sorted(g[2] for g in at_once.values() if g[1] == "ran")
    gone = left()
    checks.add(group, "`placardctl retention run` on %d hosts at once: one pass deleted the old "
               "rows, the other found it held or nothing left" % len(hosts),
               all(g[:2] in ((0, "ran"), (3, "held")) for g in at_once.values())
               and deleted and deleted[-1] == ROWS and sum(deleted) == ROWS and gone == 0,
               "(exit, outcome, impressions deleted) %s; rows left %d" % (at_once, gone))


def check_primary(topo, checks, hosts):
    """cluster.py: placardctl in each host's namespace on the primary; the test holds GET_LOCK."""
    ctl = [os.path.join(topo.build, "placardctl"), "--config", topo.ctl_conf, "--admin-config",
           topo.admin_conf]
    check(checks, "retention", "the test's session holds the primary's placard.retention lock",
          topo.sql, lambda h, *args: ["ip", "netns", "exec", topo.ns(h)] + ctl + list(args), hosts,
          lambda: get_lock_held(topo.mycnf, topo.sql))
