"""A row that appears below the rollup's progress on another Galera node than the pass's, inside a
span the pass counted past (galera.py): what a write set replicated while the cluster evicts a
node looks like to the rollup (docs/scaling.md). The pass keeps which ids it counted
(rollup_spans) and looks at the span again LATE_CHECK_S later (rollup.late_check_seconds on both
hosts): the row is counted then, once, and every node's statistics show it (lib/jobs/late_rows.h).

A row with an explicit id far above the others is written on g1 and counted; then a row with an
id inside the gap it left is written on g2, below every node's rollup_progress.
"""

import secrets

import topology as T  # on the path the cluster scripts set
import cluster as CL

LATE_CHECK_S = 3
CONF = {"rollup.late_check_seconds": str(LATE_CHECK_S)}
NODES = ("g1", "g2", "g3")


def insert(topo, node, row_id, offer, tag):
    topo.node_sql(node, "INSERT INTO impressions (id, token_nonce, offer_id, placement, country, "
                        "issued_at) VALUES (%d, UNHEX(MD5('%s-%d')), %d, 'wide', 'DE', UTC_TIMESTAMP())"
                  % (row_id, tag, row_id, offer))


def counted_for(topo, node, offer):
    return int(topo.node_sql(node, "SELECT COALESCE(SUM(impressions), 0) FROM stats_daily WHERE "
                                   "dim = 'offer' AND item = '%d'" % offer)[0][0])


def progress(topo, node):
    return int(topo.node_sql(node, "SELECT last_id FROM rollup_progress WHERE name = 'impressions'")[0][0])


def seconds(s):
    return "not within the bound" if s is None else "%.1f s" % s


def check(topo, checks):
    tag = secrets.token_hex(6)
    early, late = 960000 + secrets.randbelow(5000), 965000 + secrets.randbelow(5000)
    # Above every row and above the progress (rows deleted by retention leave it above MAX(id)).
    top = max(int(topo.node_sql("g1", "SELECT COALESCE(MAX(id), 0) FROM impressions")[0][0]),
              progress(topo, "g1"))
    insert(topo, "g1", top + 30, early, tag)
    first = T.within(15, lambda: all(progress(topo, n) >= top + 30 for n in NODES), interval=0.1)
    taken = {int(r[0]) for r in topo.node_sql("g2", "SELECT id FROM impressions WHERE id > %d" % top)}
    gap = next(i for i in range(top + 1, top + 30) if i not in taken)
    insert(topo, "g2", gap, late, tag)
    below = all(progress(topo, n) > gap for n in NODES)
    seen = T.within(LATE_CHECK_S + 15, lambda: all(counted_for(topo, n, late) == 1 for n in NODES),
                    interval=0.2)
    # Once: the spans looked at are deleted, later passes add nothing.
    gone = T.within(LATE_CHECK_S + 15, lambda: topo.node_sql(
        "g1", "SELECT COUNT(*) FROM rollup_spans WHERE name = 'impressions' AND hi <= %d" % (top + 30))
        [0][0] == "0", interval=0.2)
    each = {n: (counted_for(topo, n, early), counted_for(topo, n, late)) for n in NODES}
    raw, rolled, done = CL.counted(topo)
    checks.add("late rows", "a row written on g2 below every node's rollup progress, into a span the "
               "pass counted past, is counted once, on every node, after rollup.late_check_seconds (%d s)"
               % LATE_CHECK_S,
               first is not None and below and seen is not None and gone is not None
               and all(v == (1, 1) for v in each.values()) and raw == rolled and done,
               "early row counted in %s; late row (id %d) below the progress: %s, counted on every "
               "node after %s, spans looked at and deleted: %s; (early, late) per node %s; counted raw "
               "rows %d, in stats_daily %d, progress past every row: %s"
               % (seconds(first), gap, below, seconds(seen), gone is not None, each, raw, rolled, done))
