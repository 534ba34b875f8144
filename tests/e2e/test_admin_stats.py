"""Contract 6.1 "Statistics": GET /admin/api/v1/stats from the rollups the event writer keeps in
the same transaction as the raw events, its validation and CSV form; and the retention of raw
events (placardctl retention run: the pass each worker runs every retention.interval_seconds)."""

import csv
import datetime
import io
import json
import os
import secrets
import subprocess
import time
import unittest
from collections import Counter

try:
    from . import harness as H
    from .admin_client import AdminClient
except ImportError:  # run as a script from tests/e2e
    import harness as H
    from admin_client import AdminClient


def today():
    return datetime.datetime.now(datetime.timezone.utc).date()


def day_text(d):
    return d.isoformat()


def stats_path(frm, to, group=None, fmt=None, extra=""):
    p = "/stats?from=%s&to=%s" % (frm, to)
    if group is not None:
        p += "&groupBy=" + group
    if fmt is not None:
        p += "&format=" + fmt
    return p + extra


def by_key(doc):
    return {r["key"]: (r["impressions"], r["clicks"]) for r in doc["rows"]}


def diff(after, before):
    """Keys whose counts changed, with the change."""
    out = {}
    for k in set(after) | set(before):
        a = after.get(k, (0, 0))
        b = before.get(k, (0, 0))
        if a != b:
            out[k] = (a[0] - b[0], a[1] - b[1])
    return out


# Fixture offers whose click does not redirect (expired, demonstration, unsafe tracking URL).
NO_REDIRECT = {"1306", "1307", "1308"}


def ctr(impressions, clicks):
    return clicks / impressions if impressions else 0


def rolled_up(tables=("impressions", "clicks")):
    """True when the rollup step has counted every raw row of `tables` recorded so far."""
    rows = H.db("SELECT " + " AND ".join(
        "(SELECT COALESCE(MAX(id), 0) FROM %s) <= (SELECT last_id FROM rollup_progress WHERE "
        "name = '%s')" % (t, t) for t in tables))
    return rows == [["1"]]


def wait_rolled_up(test, timeout=5.0, tables=("impressions", "clicks")):
    """Events show in the statistics within 5 seconds (contract 6.1): the workers' rollup step
    counts them every second."""
    t0 = time.monotonic()
    test.assertTrue(H.wait_until(lambda: rolled_up(tables), timeout=timeout, interval=0.1),
                    "the rollup step did not count the events within %.0f s" % timeout)
    return time.monotonic() - t0


def placardctl(*args):
    """placardctl with the current stack's config: (exit status, stdout, stderr)."""
    stack = H.current()
    cmd = [os.path.join(H.ROOT, stack.build, "placardctl"), "--config", stack.path("placard.conf")]
    env = {k: v for k, v in os.environ.items() if k != "PLACARD_CONFIG"}
    proc = subprocess.run(cmd + list(args), capture_output=True, timeout=120, env=env)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


# The per-client limits (test_counting.py) would keep this module's repeated events from one
# client out of the counts: they are off while it runs.
LIMITS_OFF = {"clickLimitPerMinute": 0, "clickLimitPer10Minutes": 0, "clickLimitPerHour": 0,
              "impressionLimitPer5Minutes": 0}


class StatsTests(H.E2ETestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.admin = AdminClient.signed_in()
        cls.limits = {k: v for k, v in cls.admin.ok("GET", "/settings").items() if k in LIMITS_OFF}
        cls.admin.ok("PATCH", "/settings", LIMITS_OFF)

    @classmethod
    def tearDownClass(cls):
        cls.admin.ok("PATCH", "/settings", cls.limits)
        super().tearDownClass()

    def snapshot(self):
        wait_rolled_up(self)  # everything recorded so far is counted: a stable "before"
        d = day_text(today())
        out = {}
        for group in ("day", "offer", "placement", "country"):
            out[group] = self.admin.ok("GET", stats_path(d, d, group))
        rows = H.db("SELECT offer_id, placement, country, SUM(impressions), SUM(clicks) "
                    "FROM stats_hourly GROUP BY offer_id, placement, country")
        out["hourly"] = {(str(r[0]), r[1], r[2]): (int(r[3]), int(r[4])) for r in rows}
        return out

    def generate(self):
        """Impressions and clicks through the public API, duplicates included; the events that
        were new, as (kind, offer, placement, country)."""
        events = []
        plan = [("clicks", "sidebar", "DE"), ("electronics", "popup-main", "FR"),
                ("clicks", "wide", "DE")]
        for category, placement, country in plan:
            offers = H.query_offers(category=category, placement=placement, country=country)
            self.assertTrue(offers, "no offers for %s/%s/%s" % (category, placement, country))
            clicked = False
            for o in offers[:3]:
                st, _, b = H.impression(o["impressionToken"])
                self.assertEqual(st, 200, b)
                self.assertEqual(json.loads(b), {"status": "recorded"})
                events.append(("impression", o["id"], placement, country))
                st, _, b = H.impression(o["impressionToken"])  # the same token again
                self.assertEqual(st, 200, b)
                self.assertEqual(json.loads(b), {"status": "duplicate"})
                if not clicked and "clickUrl" in o and o["id"] not in NO_REDIRECT:
                    for _ in range(2):  # a repeated click redirects again, counts once
                        st, h, _ = H.http("GET", o["clickUrl"])
                        self.assertEqual(st, 302)
                    events.append(("click", o["id"], placement, country))
                    clicked = True
        return events

    def test_stats_count_exactly_the_new_events(self):
        before = self.snapshot()
        events = self.generate()
        after = self.snapshot()  # within 5 s (snapshot waits for the rollup step)

        impressions = Counter()
        clicks = Counter()
        for kind, offer, placement, country in events:
            for k in (("offer", offer), ("placement", placement), ("country", country),
                      ("day", day_text(today())), ("hourly", (offer, placement, country))):
                (impressions if kind == "impression" else clicks)[k] += 1
        n_imp = sum(1 for e in events if e[0] == "impression")
        n_clk = sum(1 for e in events if e[0] == "click")
        self.assertGreaterEqual(n_imp, 5)
        self.assertGreaterEqual(n_clk, 2)

        for group in ("day", "offer", "placement", "country", "hourly"):
            expected = {}
            for (g, key), n in impressions.items():
                if g == group:
                    expected[key] = (n, clicks.get((g, key), 0))
            for (g, key), n in clicks.items():
                if g == group and key not in expected:
                    expected[key] = (0, n)
            if group == "hourly":
                got = diff(after["hourly"], before["hourly"])
            else:
                got = diff(by_key(after[group]), by_key(before[group]))
            self.assertEqual(got, expected, group)
            if group != "hourly":
                t_after, t_before = after[group]["totals"], before[group]["totals"]
                self.assertEqual(t_after["impressions"] - t_before["impressions"], n_imp, group)
                self.assertEqual(t_after["clicks"] - t_before["clicks"], n_clk, group)

        doc = after["offer"]
        self.assertEqual(list(doc), ["from", "to", "groupBy", "rows", "totals"])
        self.assertEqual((doc["from"], doc["to"], doc["groupBy"]),
                         (day_text(today()), day_text(today()), "offer"))
        for row in doc["rows"]:
            self.assertEqual(set(row), {"key", "impressions", "clicks", "ctr",
                                        "ignoredImpressions", "ignoredClicks"})
            self.assertIsInstance(row["key"], str)
            self.assertAlmostEqual(row["ctr"], ctr(row["impressions"], row["clicks"]), places=12)
        order = [(-r["impressions"], r["key"]) for r in doc["rows"]]
        self.assertEqual(order, sorted(order), "by impressions, highest first, ties by key")
        t = doc["totals"]
        self.assertEqual(set(t), {"impressions", "clicks", "ctr", "ignoredImpressions",
                                  "ignoredClicks", "ignored"})
        self.assertAlmostEqual(t["ctr"], ctr(t["impressions"], t["clicks"]), places=12)
        self.assertEqual(t["impressions"], sum(r["impressions"] for r in doc["rows"]))
        self.assertEqual(t["clicks"], sum(r["clicks"] for r in doc["rows"]))

    def test_events_after_a_wide_gap_in_ids_are_counted(self):
        # Every duplicate impression (INSERT IGNORE) uses up an id, so a burst of retries leaves a
        # gap; the rollup step once looked for rows in a window of 50,000 *ids* past its
        # watermark, found none in a wider gap and never moved again (make bench found it).
        for table in ("impressions", "clicks"):
            top = int(H.db("SELECT COALESCE(MAX(id), 0) FROM %s" % table)[0][0])
            H.db("ALTER TABLE %s AUTO_INCREMENT = %d" % (table, top + 200000))
        before = self.snapshot()
        events = self.generate()
        after = self.snapshot()  # waits until the rollup step passed the new rows
        n_imp = sum(1 for e in events if e[0] == "impression")
        n_clk = sum(1 for e in events if e[0] == "click")
        t_after, t_before = after["day"]["totals"], before["day"]["totals"]
        self.assertEqual((t_after["impressions"] - t_before["impressions"],
                          t_after["clicks"] - t_before["clicks"]), (n_imp, n_clk))

    def test_day_rows_cover_every_day_with_zeros(self):
        start = today() - datetime.timedelta(days=9)
        doc = self.admin.ok("GET", stats_path(day_text(start), day_text(today()), "day"))
        self.assertEqual([r["key"] for r in doc["rows"]],
                         [day_text(start + datetime.timedelta(days=i)) for i in range(10)])
        self.assertEqual(doc["totals"]["impressions"], sum(r["impressions"] for r in doc["rows"]))
        self.assertEqual(doc["totals"]["clicks"], sum(r["clicks"] for r in doc["rows"]))
        # A range without events: ten rows of zeros (ctr 0), zero totals.
        doc = self.admin.ok("GET", stats_path("2001-03-01", "2001-03-10", "day"))
        self.assertEqual(doc["rows"], [{"key": "2001-03-%02d" % d, "impressions": 0, "clicks": 0,
                                        "ctr": 0, "ignoredImpressions": 0, "ignoredClicks": 0}
                                       for d in range(1, 11)])
        none = {"prefetch": 0, "head": 0, "bot": 0, "rate_limited": 0}
        self.assertEqual(doc["totals"], {"impressions": 0, "clicks": 0, "ctr": 0,
                                         "ignoredImpressions": 0, "ignoredClicks": 0,
                                         "ignored": {"impressions": none, "clicks": none}})
        for group in ("offer", "placement", "country"):
            doc = self.admin.ok("GET", stats_path("2001-03-01", "2001-03-10", group))
            self.assertEqual(doc["rows"], [])
        # groupBy defaults to day.
        doc = self.admin.ok("GET", stats_path("2001-03-01", "2001-03-02"))
        self.assertEqual(doc["groupBy"], "day")
        self.assertEqual(len(doc["rows"]), 2)

    def test_csv_matches_json(self):
        self.generate()
        wait_rolled_up(self)
        d = day_text(today())
        start = day_text(today() - datetime.timedelta(days=2))
        for group in ("day", "offer", "placement", "country"):
            doc = self.admin.ok("GET", stats_path(start, d, group))
            st, h, raw = self.admin.get(stats_path(start, d, group, "csv"))
            self.assertEqual(st, 200, raw)
            self.assertEqual(h.get("content-type"), "text/csv; charset=utf-8")
            self.assertEqual(h.get("content-disposition"),
                             'attachment; filename="placard-stats-%s-%s-%s.csv"' % (start, d, group))
            self.assertEqual(h.get("cache-control"), "no-store")
            text = raw.decode("utf-8")
            self.assertTrue(text.startswith("key,impressions,clicks,ctr\r\n"), text[:60])
            rows = list(csv.reader(io.StringIO(text, newline="")))
            self.assertEqual(rows[0], ["key", "impressions", "clicks", "ctr"])
            self.assertEqual(len(rows) - 1, len(doc["rows"]))
            for line, row in zip(rows[1:], doc["rows"]):
                self.assertEqual(line[:3], [row["key"], str(row["impressions"]), str(row["clicks"])])
                self.assertAlmostEqual(float(line[3]), row["ctr"], places=12)
            if group != "day":
                self.assertTrue(doc["rows"], group)

    def test_validation_errors_name_the_field(self):
        d = day_text(today())
        cases = [
            ("/stats?to=%s" % d, "missing_field", "from"),
            ("/stats?from=%s" % d, "missing_field", "to"),
            ("/stats", "missing_field", "from"),
            (stats_path("2026-13-01", d), "invalid_field", "from"),
            (stats_path("yesterday", d), "invalid_field", "from"),
            (stats_path(d, "2026-02-30"), "invalid_field", "to"),
            (stats_path("2026-01-02", "2026-01-01"), "invalid_field", "from"),
            (stats_path("2025-01-01", "2026-01-02"), "invalid_field", "to"),  # 367 days
            (stats_path("2024-12-31", "2026-01-01"), "invalid_field", "to"),  # 367 days
            (stats_path(d, d, "week"), "invalid_field", "groupBy"),
            (stats_path(d, d, "Day"), "invalid_field", "groupBy"),
            (stats_path(d, d, "day", "xml"), "invalid_field", "format"),
            (stats_path(d, d, "day", extra="&limit=10"), "invalid_field", "limit"),
            (stats_path(d, d, "day", extra="&from=%s" % d), "invalid_field", "from"),
        ]
        for path, code, field in cases:
            with self.subTest(path=path):
                st, h, raw = self.admin.get(path)
                self.assertError((st, h, raw if isinstance(raw, bytes) else
                                  json.dumps(raw).encode()), 400, code, field)
        # 366 days is the most allowed (2024 is a leap year).
        doc = self.admin.ok("GET", stats_path("2024-01-01", "2024-12-31", "day"))
        self.assertEqual(len(doc["rows"]), 366)

    def test_not_signed_in(self):
        d = day_text(today())
        for path in (stats_path(d, d, "day"), stats_path(d, d, "offer", "csv")):
            self.assertError(H.http("GET", "/admin/api/v1" + path), 401, "not_signed_in")
        anon = AdminClient()
        anon.cookie = "placard_session=" + "A" * 43
        st, _, doc = anon.get(stats_path(d, d))
        self.assertEqual(st, 401)
        self.assertEqual(doc["error"]["code"], "not_signed_in")

    def test_wrong_method(self):
        d = day_text(today())
        st, h, doc = self.admin.post(stats_path(d, d), {})
        self.assertEqual(st, 405)
        self.assertIn("GET", h.get("allow", ""))


def month_back(d, n):
    """The first day of the month n months before d's."""
    y, m = d.year, d.month - n
    while m < 1:
        y, m = y - 1, m + 12
    return datetime.date(y, m, 1)


class LateCommitTests(H.E2ETestCase):
    """An event whose transaction commits seconds after its insert (a disk stalling on fsync, a
    lock wait), while later events commit at once: the rollup step waits for it and counts it,
    once (lib/jobs/settled_span.h). A pass that read only committed rows moved past its id and
    never counted it."""

    HOLD_S = 10  # longer than the step's wait for it (RollupOptions::wait, 5 s) plus a pass

    def test_an_insert_committed_seconds_late_is_counted(self):
        wait_rolled_up(self)
        offer = 990000 + secrets.randbelow(9999)
        tag = secrets.token_hex(8)
        insert = ("INSERT INTO impressions (token_nonce, offer_id, placement, country, issued_at) "
                  "VALUES (UNHEX(MD5('%s-%%d')), %d, 'wide', 'DE', UTC_TIMESTAMP())" % (tag, offer))
        log_path = H.current().path("log", "placard.log")
        log_start = os.path.getsize(log_path)
        holder = subprocess.Popen(
            ["mariadb", "--defaults-file=%s" % H.current().path("my.cnf"), "-u", "root", "placard",
             "--batch", "--skip-column-names", "-e",
             "BEGIN; %s; SELECT SLEEP(%d); COMMIT;" % (insert % 1, self.HOLD_S)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.addCleanup(holder.wait)
        self.addCleanup(holder.kill)
        sleeping = ("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE "
                    "'SELECT SLEEP(%d)%%'" % self.HOLD_S)
        self.assertTrue(H.wait_until(lambda: H.db(sleeping)[0][0] == "1", timeout=5),
                        "the held insert did not start")
        # It commits HOLD_S after its sleep began, which was before now: watched until 1.5 s
        # before that (after its commit the step rightly moves past both at once).
        watch_until = time.monotonic() + self.HOLD_S - 1.5
        H.db(insert % 2)  # a later event, committed at once (a higher id)
        later = int(H.db("SELECT id FROM impressions WHERE token_nonce = UNHEX(MD5('%s-2'))" % tag)[0][0])
        progress = "SELECT last_id FROM rollup_progress WHERE name = 'impressions'"
        while time.monotonic() < watch_until:
            self.assertLess(int(H.db(progress)[0][0]), later,
                            "the rollup moved past an insert that had not committed")
            time.sleep(0.2)
        self.assertEqual(holder.wait(timeout=30), 0, holder.stderr.read())
        wait_rolled_up(self)
        counted = H.db("SELECT COALESCE(SUM(impressions), 0) FROM stats_daily WHERE dim = 'offer' "
                       "AND item = '%d'" % offer)
        self.assertEqual(counted, [["2"]], "both events counted, once each")
        def log_since():
            with open(log_path, "rb") as f:
                f.seek(log_start)
                return f.read().decode("utf-8", "replace")
        waited = log_since().find("has not committed for 5 s; counting waits for it")
        self.assertGreaterEqual(waited, 0, "the wait was not reported:\n" + log_since()[-3000:])
        self.assertTrue(H.wait_until(lambda: "rollups: counting again" in log_since()[waited:],
                                     timeout=5), "no report that counting goes on")


class IdleDatabaseTests(H.E2ETestCase):
    """With nothing to count, the workers' rollup and monthly passes only read: no named lock, no
    job_leases row written and deleted every second (on a primary with a binary log that was four
    transactions a second per host, idle; on Galera four write sets), also while a counted span is
    due for its look for late rows and has none (lib/jobs/late_rows.h). Then an event arrives and
    is counted within the contract's 5 s, through the lock as before."""

    # A span counted a day ago, holding what it held then (no rows: (0, 0]), due for its look.
    DUE_SPAN = ("INSERT INTO rollup_spans (name, hi, lo, n, ids, counted_at) VALUES "
                "('impressions', 0, 0, 0, '', UTC_TIMESTAMP(3) - INTERVAL 1 DAY)")

    WINDOW_S = 3.5  # three passes of every worker, two even on a busy machine
    # The general log shows a prepared statement as prepared (with ?): the passes' own statements
    # are told apart by their connection, the one that reads rollup_progress (the retention job,
    # which may run in the window, has a connection of its own).
    PASSES = ("thread_id IN (SELECT thread_id FROM mysql.general_log WHERE argument LIKE "
              "'SELECT %last_id FROM rollup_progress%')")
    LOCKS = "(argument LIKE '%GET_LOCK%' OR argument LIKE '%job_leases%')"
    WRITES = ("argument RLIKE '^[[:space:]]*(INSERT|UPDATE|DELETE|REPLACE)' AND argument RLIKE "
              "'rollup_progress|rate_limit_state|stats_'")

    def general_log(self, on):
        H.db("SET GLOBAL general_log = %d" % (1 if on else 0))

    def logged(self, where):
        return H.db("SELECT thread_id, argument FROM mysql.general_log WHERE command_type IN "
                    "('Query', 'Prepare', 'Execute') AND argument NOT LIKE '%general_log%' AND "
                    + where)

    def idle_window(self):
        """The passes' statements over WINDOW_S seconds; None when a month was built meanwhile
        (a day seals at midnight UTC: then the lock is rightly taken)."""
        months = "CHECKSUM TABLE stats_months"
        progress = H.db("SELECT name, last_id FROM rollup_progress ORDER BY name")
        before = H.db(months)
        H.db("TRUNCATE TABLE mysql.general_log")
        self.general_log(True)
        time.sleep(self.WINDOW_S)
        self.general_log(False)
        self.assertEqual(H.db("SELECT name, last_id FROM rollup_progress ORDER BY name"), progress,
                         "an event came in during the idle window: the test did not test")
        if H.db(months) != before:
            return None
        return self.logged(self.PASSES)

    def test_an_idle_pass_takes_no_lock_and_writes_nothing(self):
        # Every event of the earlier tests counted: the window starts idle.
        wait_rolled_up(self, tables=("impressions", "clicks", "ignored_events"))
        output = H.db("SELECT @@global.log_output")[0][0]
        self.addCleanup(H.db, "SET GLOBAL log_output = '%s'" % output)
        self.addCleanup(self.general_log, False)
        H.db("SET GLOBAL log_output = 'TABLE'")
        H.db(self.DUE_SPAN)
        self.addCleanup(H.db, "DELETE FROM rollup_spans WHERE name = 'impressions' AND hi = 0")
        passes = self.idle_window() or self.idle_window()
        self.assertIsNotNone(passes, "the monthly rollups changed in two windows running")
        reads = [p for p in passes if "FROM rollup_progress" in p[1]]
        self.assertGreaterEqual(len(reads), 2, "the workers' rollup passes did not run")
        self.assertTrue([p for p in passes if "FROM rollup_spans" in p[1]],
                        "the passes did not look for spans due")
        self.assertEqual(H.db("SELECT n FROM rollup_spans WHERE name = 'impressions' AND hi = 0"),
                         [["0"]], "the due span was changed or deleted without the lock")
        self.assertEqual(self.logged(self.PASSES + " AND " + self.LOCKS), [],
                         "an idle pass took a named lock or a lease")
        self.assertEqual(self.logged(self.PASSES + " AND " + self.WRITES), [],
                         "an idle pass wrote")
        # An event now: the next pass finds it, takes the lock and counts it within 5 s.
        offer = H.query_offers(limit=1)[0]
        st, _, body = H.impression(offer["impressionToken"])
        self.assertEqual((st, json.loads(body)["status"]), (200, "recorded"))
        wait_rolled_up(self)


class MonthlyRollupTests(H.E2ETestCase):
    """Reports over whole months read stats_monthly, which the rollup job builds once a month is
    sealed and rebuilds when its daily totals change (sql/0009_stats_monthly.sql)."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.admin = AdminClient.signed_in()

    def setUp(self):
        self.month = month_back(today(), 5)
        nxt = month_back(self.month, -1)
        self.last = nxt - datetime.timedelta(days=1)
        self.before = self.month - datetime.timedelta(days=1)  # the previous month's last day
        self.items = ["99%06d" % secrets.randbelow(10 ** 6) for _ in range(2)]
        self.placement = "zz-month-" + secrets.token_hex(3)
        # (day, item, impressions, clicks): three days inside the month, one on each side.
        self.rows = [(self.before, self.items[0], 500000, 100),
                     (self.month, self.items[0], 1000000, 300),
                     (self.month + datetime.timedelta(days=14), self.items[0], 2000000, 20),
                     (self.last, self.items[1], 1500000, 7),
                     (nxt, self.items[1], 600000, 1)]
        for day, item, imp, clk in self.rows:
            for dim, key in (("offer", item), ("placement", self.placement)):
                H.db("INSERT INTO stats_daily (dim, day, item, impressions, clicks) "
                     "VALUES ('%s', '%s', '%s', %d, %d) ON DUPLICATE KEY UPDATE "
                     "impressions = impressions + VALUES(impressions), clicks = clicks + VALUES(clicks)"
                     % (dim, day, key, imp, clk))
        self.addCleanup(self.clean)

    def clean(self):
        keys = ", ".join("'%s'" % k for k in self.items + [self.placement])
        for t in ("stats_daily", "stats_monthly"):
            H.db("DELETE FROM %s WHERE item IN (%s)" % (t, keys))
        H.db("DELETE FROM stats_months WHERE month = '%s'" % self.month)  # rebuilt if needed

    def month_totals(self):
        return H.db("SELECT m.impressions = d.i AND m.clicks = d.c FROM stats_months m JOIN "
                    "(SELECT SUM(impressions) i, SUM(clicks) c FROM stats_daily WHERE dim = "
                    "'placement' AND day BETWEEN '%s' AND '%s') d WHERE m.month = '%s'"
                    % (self.month, self.last, self.month)) == [["1"]]

    def expected(self, frm, to):
        out = {}
        for day, item, imp, clk in self.rows:
            if frm <= day <= to:
                a = out.get(item, (0, 0))
                out[item] = (a[0] + imp, a[1] + clk)
        return out

    def report(self, frm, to):
        doc = self.admin.ok("GET", stats_path(day_text(frm), day_text(to), "offer"))
        return {k: v for k, v in by_key(doc).items() if k in self.items}

    def test_whole_months_come_from_the_monthly_rollup_and_stay_exact(self):
        self.assertTrue(H.wait_until(self.month_totals, timeout=10),
                        "the rollup job did not build the sealed month within 10 s")
        self.assertEqual(H.db("SELECT impressions, clicks FROM stats_monthly WHERE dim = 'offer' "
                              "AND month = '%s' AND item = '%s'" % (self.month, self.items[0])),
                         [["3000000", "320"]])
        nxt = month_back(self.month, -1)
        self.assertEqual(self.report(self.before, nxt), self.expected(self.before, nxt))

        # The whole month is read from stats_monthly: a change made only there shows (each
        # request below asks a range of its own, so no cached answer hides the read).
        H.db("UPDATE stats_monthly SET impressions = impressions + 1000 WHERE dim = 'offer' AND "
             "month = '%s' AND item = '%s'" % (self.month, self.items[0]))
        frm = self.before - datetime.timedelta(days=1)
        want = self.expected(frm, nxt)
        want[self.items[0]] = (want[self.items[0]][0] + 1000, want[self.items[0]][1])
        self.assertEqual(self.report(frm, nxt), want)
        H.db("UPDATE stats_monthly SET impressions = impressions - 1000 WHERE dim = 'offer' AND "
             "month = '%s' AND item = '%s'" % (self.month, self.items[0]))

        # A range that holds only part of the month never reads it as a month.
        part_to = self.last - datetime.timedelta(days=1)
        self.assertEqual(self.report(self.before, part_to), self.expected(self.before, part_to))

        # An event counted late into the sealed month: the daily totals no longer match the
        # month's, so reports read its days until the job has rebuilt it — exact all along.
        late = self.month + datetime.timedelta(days=14)
        for dim, key in (("offer", self.items[0]), ("placement", self.placement)):
            H.db("UPDATE stats_daily SET impressions = impressions + 7, clicks = clicks + 1 WHERE "
                 "dim = '%s' AND day = '%s' AND item = '%s'" % (dim, late, key))
        self.rows.append((late, self.items[0], 7, 1))
        frm = self.before - datetime.timedelta(days=2)
        self.assertEqual(self.report(frm, nxt), self.expected(frm, nxt))
        self.assertTrue(H.wait_until(self.month_totals, timeout=10),
                        "the rollup job did not rebuild the month after a late event")
        self.assertEqual(H.db("SELECT impressions, clicks FROM stats_monthly WHERE dim = 'offer' "
                              "AND month = '%s' AND item = '%s'" % (self.month, self.items[0])),
                         [["3000007", "321"]])
        frm = self.before - datetime.timedelta(days=3)
        self.assertEqual(self.report(frm, nxt), self.expected(frm, nxt))


class RetentionTests(H.E2ETestCase):
    def insert_raw(self, table, time_column, age_sql, n):
        """n raw rows `age_sql` old, their nonces MD5(tag, i); returns the tag."""
        tag = secrets.token_hex(8)
        H.db("INSERT INTO %s (token_nonce, offer_id, placement, country, issued_at, %s) "
             "SELECT UNHEX(MD5(CONCAT('%s', seq))), 1300, 'wide', 'DE', UTC_TIMESTAMP() - %s, "
             "UTC_TIMESTAMP(3) - %s FROM seq_1_to_%d" % (table, time_column, tag, age_sql, age_sql, n))
        self.addCleanup(H.db, "DELETE FROM %s WHERE token_nonce IN (%s)" % (table, self.nonces(tag, n)))
        return (tag, n)

    @staticmethod
    def nonces(tag, n):
        return "SELECT UNHEX(MD5(CONCAT('%s', seq))) FROM seq_1_to_%d" % (tag, n)

    def count(self, table, made):
        return int(H.db("SELECT COUNT(*) FROM %s WHERE token_nonce IN (%s)"
                        % (table, self.nonces(*made)))[0][0])

    def rollup_sums(self):
        return [tuple(0 if v == "NULL" else int(v) for v in H.db(
            "SELECT COUNT(*), SUM(impressions), SUM(clicks) FROM %s" % t)[0])
            for t in ("stats_hourly", "stats_daily")]

    def test_retention_deletes_old_raw_rows_and_keeps_recent_ones_and_rollups(self):
        old_imp = self.insert_raw("impressions", "recorded_at", "INTERVAL 100 DAY", 2500)
        old_clk = self.insert_raw("clicks", "clicked_at", "INTERVAL 100 DAY", 30)
        new_imp = self.insert_raw("impressions", "recorded_at", "INTERVAL 2 DAY", 20)
        new_clk = self.insert_raw("clicks", "clicked_at", "INTERVAL 89 DAY", 5)
        wait_rolled_up(self)  # retention deletes only rows already counted
        rollups = self.rollup_sums()
        rc, out, err = placardctl("retention", "run")
        self.assertEqual(rc, 0, err)
        self.assertRegex(out, r"retention 90 days: deleted \d+ impressions and \d+ clicks")
        self.assertEqual(self.count("impressions", old_imp), 0)
        self.assertEqual(self.count("clicks", old_clk), 0)
        self.assertEqual(self.count("impressions", new_imp), 20)
        self.assertEqual(self.count("clicks", new_clk), 5)
        self.assertEqual(self.rollup_sums(), rollups)
        # Nothing left to do: a second pass deletes nothing.
        rc, out, _ = placardctl("retention", "run")
        self.assertEqual(rc, 0)
        self.assertIn("deleted 0 impressions and 0 clicks", out)

    def test_retention_never_below_the_token_time_to_live(self):
        # rawEventRetentionDays 1 with tokens living 3 days: rows 2 days old stay.
        H.set_setting("rawEventRetentionDays", "1", do_bump=False)
        H.set_setting("tokenTtlSeconds", str(3 * 86400 - 10), do_bump=False)
        self.addCleanup(H.set_setting, "tokenTtlSeconds", H.DEFAULT_SETTINGS["tokenTtlSeconds"])
        self.addCleanup(H.set_setting, "rawEventRetentionDays", "90", do_bump=False)
        two_days = self.insert_raw("impressions", "recorded_at", "INTERVAL 2 DAY", 3)
        four_days = self.insert_raw("impressions", "recorded_at", "INTERVAL 4 DAY", 3)
        wait_rolled_up(self)
        rc, out, err = placardctl("retention", "run")
        self.assertEqual(rc, 0, err)
        self.assertIn("retention 3 days", out)
        self.assertEqual(self.count("impressions", two_days), 3)
        self.assertEqual(self.count("impressions", four_days), 0)

    def test_retention_waits_for_the_rollup_step(self):
        # While the rollup step cannot run (its lock held by another connection), old raw rows
        # are not counted yet, so retention keeps them; once counted, they go.
        wait_rolled_up(self)
        holder = subprocess.Popen(
            ["mariadb", "--defaults-file=%s" % H.current().path("my.cnf"), "-u", "root", "placard",
             "--batch", "--skip-column-names", "-e",
             "SELECT GET_LOCK('placard.rollup', 10); SELECT SLEEP(8);"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(holder.wait)
        self.addCleanup(holder.kill)
        self.addCleanup(self.end_lock_holder, "placard.rollup")
        # Held by the client above (the connection sleeping), not by a worker's passing step.
        held_by_holder = ("SELECT IS_USED_LOCK('placard.rollup') IN (SELECT ID FROM "
                          "information_schema.PROCESSLIST WHERE INFO LIKE 'SELECT SLEEP(8)%')")
        self.assertTrue(H.wait_until(lambda: H.db(held_by_holder)[0][0] == "1", timeout=10),
                        "the lock was not taken")
        old = self.insert_raw("impressions", "recorded_at", "INTERVAL 100 DAY", 4)
        time.sleep(2.5)  # two rollup periods: the step skips while the lock is held elsewhere
        self.assertEqual(H.db(held_by_holder)[0][0], "1")
        self.assertFalse(rolled_up())
        rc, out, err = placardctl("retention", "run")
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.count("impressions", old), 4, "retention deleted uncounted rows")
        self.end_lock_holder("placard.rollup")
        wait_rolled_up(self)
        rc, out, err = placardctl("retention", "run")
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.count("impressions", old), 0)

    def end_lock_holder(self, name="placard.retention"):
        holder = H.db("SELECT IS_USED_LOCK('%s')" % name)[0][0]
        if holder != "NULL":
            H.db("KILL %d" % int(holder))
        self.assertTrue(H.wait_until(lambda: H.db(
            "SELECT IS_USED_LOCK('%s') IS NULL" % name)[0][0] == "1", timeout=5))

    def test_one_pass_at_a_time(self):
        # Another worker (any host) holds the lock: this pass skips, deleting nothing.
        old = self.insert_raw("impressions", "recorded_at", "INTERVAL 100 DAY", 3)
        stack = H.current()
        holder = subprocess.Popen(
            ["mariadb", "--defaults-file=%s" % stack.path("my.cnf"), "-u", "root", "placard",
             "--batch", "--skip-column-names", "-e",
             "SELECT GET_LOCK('placard.retention', 0); SELECT SLEEP(8);"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.addCleanup(holder.wait)
        self.addCleanup(holder.kill)
        self.addCleanup(self.end_lock_holder)
        held = H.wait_until(lambda: H.db(
            "SELECT IS_USED_LOCK('placard.retention') IS NOT NULL")[0][0] == "1", timeout=5)
        self.assertTrue(held, "the lock was not taken")
        rc, out, err = placardctl("retention", "run")
        # Exit 3, as rollup and sync: not done, another runner holds the lock (cron can tell).
        self.assertEqual(rc, 3, out + err)
        self.assertIn("another retention pass is running", out)
        self.assertEqual(self.count("impressions", old), 3)


class OwnStackTests(H.StackTestCase):
    """On a stack of its own whose config runs the worker's retention thread every second
    (retention.interval_seconds = 1), writes events the portable way (db.event_insert =
    transaction: single-row inserts, new rows told by the affected-row count, as on MySQL) and
    looks at counted spans again for late rows after 2 s (rollup.late_check_seconds, 60 by
    default); StackTestCase restores the run's shared stack afterwards."""

    FIXTURES = False
    LATE_CHECK_S = 2

    @classmethod
    def prepare_stack(cls):
        path = cls.stack.path("placard.conf")
        with open(path) as f:
            lines = [line for line in f.read().splitlines()
                     if not line.startswith(("retention.interval_seconds", "db.event_insert",
                                             "rollup.late_check_seconds"))]
        with open(path, "w") as f:
            f.write("\n".join(lines + ["retention.interval_seconds = 1",
                                       "db.event_insert = transaction",
                                       "rollup.late_check_seconds = %d" % cls.LATE_CHECK_S, ""]))
        cls.stack.restart()

    def test_rows_that_appear_below_the_progress_are_counted_once(self):
        """A row that becomes visible inside a span the rollup already counted past (a multi-row
        insert that took its ids, then waited on a lock before writing; on Galera a write set
        replicated late): put there by hand with an id in the span's gap, as it would appear. The
        span is looked at again LATE_CHECK_S after it was counted, and the row counted then, once
        (lib/jobs/late_rows.h)."""
        wait_rolled_up(self)
        tag = secrets.token_hex(8)
        early, late = 980000 + secrets.randbelow(9999), 970000 + secrets.randbelow(9999)
        tables = ("impressions", "clicks")
        for table in tables:  # the raw rows only: the other tests count the recent ones
            self.addCleanup(H.db, "DELETE FROM %s WHERE offer_id IN (%d, %d)" % (table, early, late))

        def insert(table, row_id, offer):
            H.db("INSERT INTO %s (id, token_nonce, offer_id, placement, country, issued_at) VALUES "
                 "(%d, UNHEX(MD5('%s-%s-%d')), %d, 'wide', 'DE', UTC_TIMESTAMP())"
                 % (table, row_id, tag, table, row_id, offer))

        def counted(offer):
            return H.db("SELECT COALESCE(SUM(impressions), 0), COALESCE(SUM(clicks), 0) FROM "
                        "stats_daily WHERE dim = 'offer' AND item = '%d'" % offer)[0]

        log_path = self.stack.path("log", "placard.log")
        log_start = os.path.getsize(log_path)
        gaps, ends = {}, {}
        for table in tables:
            # Above every row and above the progress (deleted rows leave it above MAX(id)).
            top = int(H.db("SELECT GREATEST((SELECT COALESCE(MAX(id), 0) FROM %s), (SELECT last_id "
                           "FROM rollup_progress WHERE name = '%s'))" % (table, table))[0][0])
            insert(table, top + 10, early)  # the pass counts (.., top + 10]: top + 1 .. 9 empty
            gaps[table], ends[table] = top + 5, top + 10
        wait_rolled_up(self)
        self.assertEqual(counted(early), ["1", "1"])
        for table in tables:
            insert(table, gaps[table], late)  # below rollup_progress.last_id, in a counted span
        progress = H.db("SELECT name, last_id FROM rollup_progress ORDER BY name")
        self.assertTrue(H.wait_until(lambda: counted(late) == ["1", "1"],
                                     timeout=self.LATE_CHECK_S + 8, interval=0.2),
                        "the late rows were not counted: %s\n%s"
                        % (counted(late), self.stack.tail("placard.log")))
        self.assertEqual(H.db("SELECT name, last_id FROM rollup_progress ORDER BY name"), progress,
                         "counted by a pass moving past them, not as late rows")
        with open(log_path, "rb") as f:
            f.seek(log_start)
            log = f.read().decode("utf-8", "replace")
        self.assertRegex(log, r"rollups: counted \d+ event\(s\) whose rows appeared after a pass")
        # Once: later passes (their spans looked at, then deleted) and placardctl rollup add
        # nothing more.
        spans = "SELECT COUNT(*) FROM rollup_spans WHERE " + " OR ".join(
            "(name = '%s' AND hi <= %d)" % (table, ends[table]) for table in tables)
        self.assertTrue(H.wait_until(lambda: H.db(spans)[0][0] == "0", timeout=self.LATE_CHECK_S + 8,
                                     interval=0.2), "the looked-at spans were not deleted")
        rc, out, err = placardctl("rollup")
        self.assertEqual(rc, 0, out + err)
        self.assertEqual((counted(early), counted(late)), (["1", "1"], ["1", "1"]))

    def test_transaction_flavor_counts_new_events_only(self):
        d = day_text(today())
        admin = AdminClient.signed_in(stack=self.stack)
        before = {g: by_key(admin.ok("GET", stats_path(d, d, g))) for g in ("offer", "country")}
        tokens = [H.mint_token(H.IMPRESSION, 4242, country="FR", placement="wide")
                  for _ in range(3)]
        answers = [json.loads(H.impression(t)[2])["status"] for t in tokens + tokens[:2]]
        self.assertEqual(answers, ["recorded"] * 3 + ["duplicate"] * 2)
        wait_rolled_up(self)
        log = open(self.stack.path("log", "placard.log"), encoding="utf-8", errors="replace").read()
        self.assertIn("events: batched inserts in transactions of single-row inserts", log)
        after = {g: by_key(admin.ok("GET", stats_path(d, d, g))) for g in ("offer", "country")}
        self.assertEqual(diff(after["offer"], before["offer"]), {"4242": (3, 0)})
        self.assertEqual(diff(after["country"], before["country"]), {"FR": (3, 0)})
        rows = H.db("SELECT placement, country, SUM(impressions), SUM(clicks) FROM stats_hourly "
                    "WHERE offer_id = 4242 GROUP BY placement, country")
        self.assertEqual(rows, [["wide", "FR", "3", "0"]])

    def test_the_worker_deletes_old_raw_rows_on_its_own(self):
        tag = secrets.token_hex(8)
        for table, column, age, n in (("impressions", "recorded_at", "INTERVAL 95 DAY", 1500),
                                      ("clicks", "clicked_at", "INTERVAL 95 DAY", 20),
                                      ("impressions", "recorded_at", "INTERVAL 80 DAY", 7),
                                      ("clicks", "clicked_at", "INTERVAL 1 HOUR", 3)):
            H.db("INSERT INTO %s (token_nonce, offer_id, placement, country, issued_at, %s) "
                 "SELECT UNHEX(MD5(CONCAT('%s', '%s', seq))), 7, 'wide', 'DE', UTC_TIMESTAMP() - %s, "
                 "UTC_TIMESTAMP(3) - %s FROM seq_1_to_%d" % (table, column, tag, age, age, age, n))

        def count(table, column, older):
            return int(H.db("SELECT COUNT(*) FROM %s WHERE %s %s UTC_TIMESTAMP() - INTERVAL 90 DAY"
                            % (table, column, "<" if older else ">="))[0][0])

        gone = H.wait_until(lambda: count("impressions", "recorded_at", True) == 0
                            and count("clicks", "clicked_at", True) == 0, timeout=20, interval=0.2)
        self.assertTrue(gone, "old rows still there after 20 s:\n" + self.stack.tail("placard.log"))
        self.assertEqual(count("impressions", "recorded_at", False), 7)
        self.assertEqual(count("clicks", "clicked_at", False), 3)
        log = open(self.stack.path("log", "placard.log"), encoding="utf-8", errors="replace").read()
        self.assertRegex(log, r"retention: deleted \d+ impressions and \d+ clicks older than 90 days")


if __name__ == "__main__":
    unittest.main()
