"""galera.py's node kill, the clicks (issue 25: no click lost, no user stranded): clicks on valid
offers are sent to both hosts under the kill's load, never retried elsewhere (a person's browser
follows a link once). Each must answer 302; each is then one row on the surviving nodes (h1's,
and h2's answered before the kill), or waits in h2's click journal: h2's own node g2 stays down,
so its workers' replay (each second) cannot write them, and `placardctl journal status` on h2
counts them.
"""

import re
import subprocess

from topology import H


def click(target, url):
    """(status, nonce hex) of one click link: 302 is the only right answer for a valid offer."""
    nonce = H.decode_token(H.token_from_click_url(url))["nonce"].hex().upper()
    try:
        return target.http("GET", url, timeout=15)[0], nonce
    except OSError:
        return 0, nonce


def check(topo, checks, figures, clicks, kill, journal_status):
    """Every click 302; each one a row on g1 and g3 (h1's; h2's before the kill) or a record in
    h2's click journal (h2's after: its node stays down, so its workers cannot replay them)."""
    bad = [c for c in clicks if c[2] != 302]
    ok = {c[0] for c in clicks if c[2] == 302}
    rows = {}
    for node in ("g1", "g3"):
        got = topo.node_sql(node, "SELECT HEX(token_nonce), COUNT(*) FROM clicks GROUP BY token_nonce")
        rows[node] = {h: int(n) for h, n in got if h in ok}
    status = subprocess.run(journal_status, capture_output=True, timeout=30)
    m = re.search(r"(\d+) clicks waiting", status.stdout.decode("utf-8", "replace"))
    journal = int(m.group(1)) if m else -1
    h1 = [c for c in clicks if c[1] == "h1"]
    # kill: (before the SIGKILL was sent, after the server was reaped); a click of h2 answered in
    # between may be either a row or a journal record.
    h2_before = [c for c in clicks if c[1] == "h2" and c[4] < kill[0]]
    h2_after = [c for c in clicks if c[1] == "h2" and c[3] > kill[1]]
    in_flight = len(clicks) - len(h1) - len(h2_before) - len(h2_after)
    written = [c for c in h1 + h2_before if all(rows[n].get(c[0]) == 1 for n in rows)]
    figures["node_kill"]["clicks"] = {"answers": len(clicks), "302": len(ok), "h2_after_kill": len(h2_after),
                                      "rows": {n: len(r) for n, r in rows.items()}, "h2_journal": journal}
    checks.add("node kill", "no click on a valid offer answered with an error (h2's node killed)",
               len(clicks) > 10 and not bad and len(h2_after) > 0,
               "%d clicks (%d via h2 after the kill), %d not 302 %s"
               % (len(clicks), len(h2_after), len(bad), [(c[2], c[1], c[5].split("?")[0]) for c in bad][:5]))
    checks.add("node kill", "each click 302 is one row on g1 and g3 or waits in h2's journal",
               m is not None and len(written) == len(h1) + len(h2_before)
               and all(v == 1 for r in rows.values() for v in r.values())
               and all(len(ok) <= len(r) + journal <= len(ok) + in_flight for r in rows.values()),
               "%d clicks 302; rows (g1, g3) %s; %d of %d answered before the kill (or by h1) are a "
               "row; h2's journal: %d waiting (%d clicks via h2 after the kill, %d in flight at it)"
               % (len(ok), [len(r) for r in rows.values()], len(written), len(h1) + len(h2_before),
                  journal, len(h2_after), in_flight))
