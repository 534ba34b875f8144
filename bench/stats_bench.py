#!/usr/bin/env python3
"""The statistics step of `make bench` (scripts/bench.sh): fills the rollups with what 50 million
events would leave, then measures GET /admin/api/v1/stats over 366 days (Python 3 stdlib).

    stats_bench.py --mycnf VAR/my.cnf --base-url http://127.0.0.1:PORT --password-file FILE \
                   [--events 50000000] [--offers 100000] [--days 366] [--requests 200]

Rollups: stats_daily rows per (day, offer) for the 366 days up to today, with a Zipf-like skew
(offer of rank r gets about K/r impressions a day, K set so the total is --events; a rank whose
share is below one event a day gets one with that probability, as a long tail does), clicks about
2 % of impressions, a weekly swing; the placement and country rows are the same events split
over 5 placements and 20 countries. stats_hourly is not filled: reports never read it.

Then it waits for the workers' rollup job to build the monthly sums of every sealed month
(stats_monthly, as it does once when a month ends) and notes how long that took. Measured,
signed in, one request at a time (a person at the admin page, not a load test): per groupBy
(day, offer), the first request (nothing cached in the worker: the whole months read from
stats_monthly, the other days from stats_daily, summed in SQL) on its own, then --requests
more; p50/p99/max in ms. The totals are checked against the rows' sums.
Prints one line: BENCHSTATS {json}.
"""

import argparse
import datetime
import http.client
import json
import subprocess
import sys
import time
import urllib.parse

PLACEMENTS = ["wide", "sidebar", "popup-main", "banner", "footer"]
COUNTRIES = ["DE", "US", "FR", "GB", "IT", "ES", "NL", "PL", "AT", "CH",
             "BE", "SE", "DK", "NO", "FI", "CZ", "PT", "IE", "CA", "AU"]


def sql(mycnf, text, timeout=3600):
    proc = subprocess.run(["mariadb", "--defaults-file=" + mycnf, "-u", "root", "placard",
                           "--batch", "--skip-column-names", "-e", text],
                          stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    if proc.returncode != 0:
        raise SystemExit("stats_bench: SQL failed: %s\n%s" % (text[:300], proc.stderr.decode()))
    return [line.split("\t") for line in proc.stdout.decode().splitlines()]


def fill(mycnf, events, offers, days):
    harmonic = sum(1.0 / r for r in range(1, offers + 1))
    k = events / (days * harmonic)
    elt = lambda names: ", ".join("'%s'" % n for n in names)  # noqa: E731
    sql(mycnf, ";\n".join([
        "DELETE FROM stats_daily",
        "SET @k = %r" % k,
        # Per (day, offer): E[impressions] = K * swing(day) / rank; FLOOR(x + u) with u uniform
        # in [0, 1) keeps the mean. u is a hash of (day, rank), not RAND(): the optimizer may
        # evaluate the expression twice (in WHERE and in SELECT), and both must agree.
        "INSERT INTO stats_daily (dim, day, item, impressions, clicks) "
        "SELECT 'offer', day, item, imp, FLOOR(imp * 0.02 + CRC32(CONCAT('c', item, day)) / 4294967296) FROM ("
        "  SELECT UTC_DATE() - INTERVAL d.seq DAY AS day, r.seq AS item, "
        "         FLOOR(@k * (1 + 0.3 * SIN(d.seq * 0.9)) / r.seq"
        "               + CRC32(CONCAT('i', d.seq, '-', r.seq)) / 4294967296) AS imp "
        "  FROM seq_0_to_%d d JOIN seq_1_to_%d r) t WHERE imp > 0" % (days - 1, offers),
        "CREATE TEMPORARY TABLE bench_buckets ENGINE=InnoDB AS "
        "SELECT day, CAST(item AS UNSIGNED) MOD 100 AS b, SUM(impressions) AS i, SUM(clicks) AS c "
        "FROM stats_daily WHERE dim = 'offer' GROUP BY day, b",
        "INSERT INTO stats_daily (dim, day, item, impressions, clicks) "
        "SELECT 'placement', day, ELT(1 + b MOD 5, %s) AS p, SUM(i), SUM(c) FROM bench_buckets "
        "GROUP BY day, p" % elt(PLACEMENTS),
        "INSERT INTO stats_daily (dim, day, item, impressions, clicks) "
        "SELECT 'country', day, ELT(1 + (b * 7) MOD 20, %s) AS cc, SUM(i), SUM(c) FROM bench_buckets "
        "GROUP BY day, cc" % elt(COUNTRIES),
        "ANALYZE TABLE stats_daily",
    ]))
    rows = sql(mycnf, "SELECT dim, COUNT(*), SUM(impressions), SUM(clicks) FROM stats_daily GROUP BY dim")
    return {r[0]: {"rows": int(r[1]), "impressions": int(r[2]), "clicks": int(r[3])} for r in rows}


def wait_for_months(mycnf, timeout=1800):
    """Waits until stats_months holds every sealed month that has rows (built from the totals its
    days hold); returns how many months that is."""
    now = time.time()
    sealed = datetime.datetime.fromtimestamp(((int(now) - 3600) // 86400 - 1) * 86400,
                                            datetime.timezone.utc).date()
    after = sealed + datetime.timedelta(days=1)
    before = datetime.date(after.year, after.month, 1)
    want = int(sql(mycnf, "SELECT COUNT(DISTINCT DATE_FORMAT(day, '%%Y-%%m')) FROM stats_daily "
                          "WHERE dim = 'placement' AND day < '%s'" % before)[0][0])
    deadline = time.time() + timeout
    while True:
        built = int(sql(mycnf, "SELECT COUNT(*) FROM stats_months m JOIN (SELECT DATE_SUB(day, "
                               "INTERVAL DAYOFMONTH(day) - 1 DAY) month, SUM(impressions) i FROM "
                               "stats_daily WHERE dim = 'placement' GROUP BY 1) d ON d.month = "
                               "m.month AND d.i = m.impressions")[0][0])
        if built >= want:
            return want
        if time.time() > deadline:
            raise SystemExit("stats_bench: %d of %d months built after %d s" % (built, want, timeout))
        time.sleep(1)


def sign_in(base, password):
    u = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    conn.request("POST", "/admin/api/v1/session",
                 json.dumps({"email": "admin@placard.local", "password": password}),
                 {"Content-Type": "application/json", "Origin": base, "X-Service-Mark": "admin"})
    r = conn.getresponse()
    r.read()
    if r.status != 200:
        raise SystemExit("stats_bench: sign-in answered %d" % r.status)
    cookie = r.getheader("Set-Cookie", "").split(";", 1)[0]
    return conn, cookie


def timed_get(conn, path, cookie):
    t0 = time.perf_counter()
    conn.request("GET", path, headers={"Cookie": cookie})
    r = conn.getresponse()
    body = r.read()
    ms = (time.perf_counter() - t0) * 1000
    if r.status != 200:
        raise SystemExit("stats_bench: GET %s answered %d: %r" % (path, r.status, body[:300]))
    return ms, json.loads(body)


def pct(sorted_ms, p):
    return sorted_ms[min(len(sorted_ms) - 1, int(round(p / 100.0 * len(sorted_ms) + 0.5)) - 1)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mycnf", required=True)
    ap.add_argument("--base-url", required=True)
    ap.add_argument("--password-file", required=True)
    ap.add_argument("--events", type=int, default=50000000)
    ap.add_argument("--offers", type=int, default=100000)
    ap.add_argument("--days", type=int, default=366)
    ap.add_argument("--requests", type=int, default=200)
    a = ap.parse_args()

    t0 = time.time()
    filled = fill(a.mycnf, a.events, a.offers, a.days)
    fill_s = time.time() - t0
    t0 = time.time()
    months = wait_for_months(a.mycnf)
    months_s = time.time() - t0
    with open(a.password_file) as f:
        password = f.read().strip()
    conn, cookie = sign_in(a.base_url, password)
    today = datetime.datetime.now(datetime.timezone.utc).date()
    frm = (today - datetime.timedelta(days=a.days - 1)).isoformat()
    out = {"fill_s": round(fill_s, 1), "months": months, "months_s": round(months_s, 1),
           "rollups": filled, "from": frm, "to": today.isoformat(),
           "groups": {}}
    for group in ("day", "offer"):
        path = "/admin/api/v1/stats?from=%s&to=%s&groupBy=%s" % (frm, today.isoformat(), group)
        first_ms, doc = timed_get(conn, path, cookie)
        expected_rows = a.days if group == "day" else 500
        if len(doc["rows"]) != expected_rows:
            raise SystemExit("stats_bench: %s: %d rows, expected %d" % (group, len(doc["rows"]), expected_rows))
        if doc["totals"]["impressions"] != filled["offer"]["impressions"]:
            raise SystemExit("stats_bench: %s: totals %r, rollups hold %r" % (group, doc["totals"], filled["offer"]))
        times = []
        for _ in range(a.requests):
            ms, _ = timed_get(conn, path, cookie)
            times.append(ms)
        times.sort()
        out["groups"][group] = {"first_ms": round(first_ms, 1), "requests": len(times),
                                "p50_ms": round(pct(times, 50), 2), "p99_ms": round(pct(times, 99), 2),
                                "max_ms": round(times[-1], 2)}
    print("BENCHSTATS " + json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
