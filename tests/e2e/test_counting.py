"""Issue 15, "honest counting", through the real stack: prefetches, HEAD requests and known
crawlers are answered like any other request but not counted; per-client limits keep repeated
events of one client out of the counts (same answers); the statistics show counted and ignored
events by reason; the client address comes from X-Forwarded-For only behind a trusted proxy; no
raw client address is stored anywhere.

Clients are told apart by their source address (the test binds 127.x.y.z, all loopback): each
test run picks its own 127.<r>.0.0/16, so earlier events on a kept stack do not count against it.
The module trusts one proxy, 127.0.0.9, by adding `trusted_proxies` to the stack's placard.conf
and restarting the stack (restored and restarted again at the end)."""

import json
import random
import subprocess
import time
import unittest

import harness as H
from admin_client import AdminClient

TRUSTED_PROXY = "127.0.0.9"
CONF_LINE = "trusted_proxies = %s\n" % TRUSTED_PROXY
OFFER = 1000  # manual, enabled, DE; redirects to its tracking URL without a sub-id
OFFER_URL = "https://shop.example/phones?ref=placard"
OTHER_OFFER = 1003
CHROME = ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
          "Chrome/131.0.0.0 Safari/537.36")
BOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
REASONS = ("prefetch", "head", "bot", "rate_limited")
RUN = random.randint(1, 250)  # this run's 127.RUN.0.0/16
_next_client = [10]


def new_client():
    """A source address no earlier test of this run used."""
    _next_client[0] += 1
    n = _next_client[0]
    return "127.%d.%d.%d" % (RUN, n // 250, 1 + n % 250)


def new_forwarded():
    """A public-looking client address (benchmarking range 198.18.0.0/15) no earlier test used."""
    _next_client[0] += 1
    n = _next_client[0]
    return "198.18.%d.%d" % (RUN, 1 + n % 250)


def request_from(source, method, path, body=None, headers=None):
    """One request from the source address `source`: (status, {lower-case header: value}, body)."""
    return H.http_request(H.current().port, method, H.prefixed(path), body, headers, source=source, record=False)


def impression_from(source, token, headers=None):
    hdrs = {"Content-Type": "application/json", "User-Agent": CHROME}
    hdrs.update(headers or {})
    return request_from(source, "POST", "/api/v1/events/impression",
                        json.dumps({"impressionToken": token}), hdrs)


def click_from(source, offer, token, method="GET", headers=None):
    hdrs = {"User-Agent": CHROME}
    hdrs.update(headers or {})
    return request_from(source, method, "/r/click/%d?t=%s" % (offer, token), None, hdrs)


def token(kind, offer=OFFER):
    return H.mint_token(kind, offer, country="DE", placement="wide")


def nonce_of(tok):
    return H.decode_token(tok)["nonce"]


def today():
    return time.strftime("%Y-%m-%d", time.gmtime())


def rolled_up():
    rows = H.db("SELECT (SELECT COALESCE(MAX(id), 0) FROM impressions) <= "
                "(SELECT last_id FROM rollup_progress WHERE name = 'impressions') AND "
                "(SELECT COALESCE(MAX(id), 0) FROM clicks) <= "
                "(SELECT last_id FROM rollup_progress WHERE name = 'clicks') AND "
                "(SELECT COALESCE(MAX(id), 0) FROM ignored_events) <= "
                "(SELECT last_id FROM rollup_progress WHERE name = 'ignored_events')")
    return rows == [["1"]]


def set_trusted_proxies(present):
    path = H.var_path("placard.conf")
    with open(path, encoding="utf-8") as f:
        lines = [line for line in f if not line.startswith("trusted_proxies")]
    if present:
        lines.append(CONF_LINE)
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(lines)
    H.current().restart()
    H.settle()


class CountingTests(H.E2ETestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        set_trusted_proxies(True)
        cls.admin = AdminClient.signed_in()

    @classmethod
    def tearDownClass(cls):
        set_trusted_proxies(False)
        super().tearDownClass()

    # -- statistics
    def figures(self):
        """Today's figures of OFFER and of OTHER_OFFER, and the totals' ignored by reason, once
        everything recorded so far is rolled up."""
        self.assertTrue(H.wait_until(rolled_up, timeout=10, interval=0.1),
                        "the rollup step did not count the events within 10 s")
        d = today()
        doc = self.admin.ok("GET", "/stats?from=%s&to=%s&groupBy=offer" % (d, d))
        rows = {r["key"]: r for r in doc["rows"]}
        out = {}
        for offer in (OFFER, OTHER_OFFER):
            r = rows.get(str(offer), {})
            out[offer] = (r.get("impressions", 0), r.get("clicks", 0),
                          r.get("ignoredImpressions", 0), r.get("ignoredClicks", 0))
        ignored = doc["totals"]["ignored"]
        self.assertEqual(set(ignored), {"impressions", "clicks"})
        for kind in ("impressions", "clicks"):
            self.assertEqual(list(ignored[kind]), list(REASONS))
            out[kind] = tuple(ignored[kind][r] for r in REASONS)
        return out

    def assertCounted(self, before, offer=OFFER, impressions=0, clicks=0, ignored_impressions=None,
                      ignored_clicks=None):
        """The statistics moved by exactly this much since `before` (ignored_* by reason:
        {"bot": 1, ...}); the figures must hold after two more rollup passes too."""
        ii = ignored_impressions or {}
        ic = ignored_clicks or {}
        expected = {offer: (impressions, clicks, sum(ii.values()), sum(ic.values())),
                    "impressions": tuple(ii.get(r, 0) for r in REASONS),
                    "clicks": tuple(ic.get(r, 0) for r in REASONS)}

        def moved():
            after = self.figures()
            return {k: tuple(a - b for a, b in zip(after[k], before[k])) for k in expected}

        got = H.wait_until(lambda: (lambda m: m if m == expected else None)(moved()), timeout=10,
                           interval=0.2)
        if not got:
            self.assertEqual(moved(), expected)
        time.sleep(2.5)  # nothing more arrives later
        self.assertEqual(moved(), expected)

    # -- tests
    def test_prefetch_head_and_crawlers_are_answered_the_same_but_not_counted(self):
        client = new_client()
        before = self.figures()
        # Impressions: a real one, then prefetches and a crawler, each with a fresh token.
        real = impression_from(client, token(H.IMPRESSION))
        self.assertEqual((real[0], json.loads(real[2])), (200, {"status": "recorded"}))
        prefetched = token(H.IMPRESSION)
        ignored_tokens = [prefetched]
        for tok, headers in ((prefetched, {"Sec-Purpose": "prefetch"}),
                             (token(H.IMPRESSION), {"Purpose": "prefetch"}),
                             (token(H.IMPRESSION), {"User-Agent": BOT})):
            if tok is not prefetched:
                ignored_tokens.append(tok)
            st, h, body = impression_from(client, tok, headers)
            self.assertEqual((st, json.loads(body)), (200, {"status": "recorded"}), headers)
            self.assertEqual(h["content-type"], real[1]["content-type"])
        for tok in ignored_tokens:
            self.assertEqual(H.rows_for_nonce("impressions", nonce_of(tok)), 0)
        # The prefetched token stays usable: the real view counts.
        st, _, body = impression_from(client, prefetched)
        self.assertEqual((st, json.loads(body)), (200, {"status": "recorded"}))
        self.assertEqual(H.rows_for_nonce("impressions", nonce_of(prefetched)), 1)

        # Clicks: a real one; HEAD, a prefetch and a crawler redirect the same.
        st, h, _ = click_from(client, OFFER, token(H.CLICK))
        self.assertEqual((st, h["location"]), (302, OFFER_URL))
        expected = {k: h[k] for k in ("location", "cache-control", "referrer-policy")}
        head_token = token(H.CLICK)
        for method, tok, headers in (("HEAD", head_token, {}),
                                     ("GET", token(H.CLICK), {"Sec-Purpose": "prefetch;prerender"}),
                                     ("GET", token(H.CLICK), {"User-Agent": BOT})):
            st, h, body = click_from(new_client(), OFFER, tok, method, headers)
            self.assertEqual(st, 302, (method, headers))
            self.assertEqual({k: h.get(k) for k in expected}, expected, (method, headers))
            self.assertEqual(body, b"")
            self.assertEqual(H.rows_for_nonce("clicks", nonce_of(tok)), 0)
        # HEAD records no click: the same token still counts by GET afterwards.
        st, _, _ = click_from(new_client(), OFFER, head_token)
        self.assertEqual(st, 302)
        self.assertEqual(H.rows_for_nonce("clicks", nonce_of(head_token)), 1)

        self.assertCounted(before, impressions=2, clicks=2,
                           ignored_impressions={"prefetch": 2, "bot": 1},
                           ignored_clicks={"head": 1, "prefetch": 1, "bot": 1})

    def test_second_click_within_a_minute_redirects_but_is_not_counted(self):
        client = new_client()
        before = self.figures()
        first, second = token(H.CLICK), token(H.CLICK)
        answers = [click_from(client, OFFER, t) for t in (first, second)]
        for st, h, _ in answers:
            self.assertEqual((st, h["location"], h["cache-control"]), (302, OFFER_URL, "no-store"))
        # A retry of the second token: redirects, no new row (deduplication as before).
        st, _, _ = click_from(client, OFFER, second)
        self.assertEqual(st, 302)
        self.assertEqual(H.rows_for_nonce("clicks", nonce_of(first)), 1)
        self.assertEqual(H.rows_for_nonce("clicks", nonce_of(second)), 1)
        # Another offer is another limit.
        st, _, _ = click_from(client, OTHER_OFFER, token(H.CLICK, OTHER_OFFER))
        self.assertEqual(st, 302)
        self.assertCounted(before, clicks=1, ignored_clicks={"rate_limited": 1})
        marks = H.db("SELECT HEX(token_nonce), COALESCE(ignored, '-') FROM clicks WHERE "
                     "token_nonce IN (UNHEX('%s'), UNHEX('%s'))"
                     % (nonce_of(first).hex(), nonce_of(second).hex()))
        self.assertEqual(sorted(marks), sorted([[nonce_of(first).hex().upper(), "-"],
                                                [nonce_of(second).hex().upper(), "rate_limited"]]))
        other = self.figures()[OTHER_OFFER]
        self.assertGreaterEqual(other[1], before[OTHER_OFFER][1] + 1)

    def test_sixth_impression_within_five_minutes_is_not_counted(self):
        client = new_client()
        before = self.figures()
        tokens = [token(H.IMPRESSION) for _ in range(6)]
        for t in tokens:
            st, _, body = impression_from(client, t)
            self.assertEqual((st, json.loads(body)), (200, {"status": "recorded"}))
        st, _, body = impression_from(client, tokens[5])  # a retry: a duplicate, as always
        self.assertEqual((st, json.loads(body)), (200, {"status": "duplicate"}))
        self.assertCounted(before, impressions=5, ignored_impressions={"rate_limited": 1})
        self.assertEqual(H.db("SELECT ignored FROM impressions WHERE token_nonce = UNHEX('%s')"
                              % nonce_of(tokens[5]).hex()), [["rate_limited"]])

    def test_limits_hold_against_events_counted_in_an_earlier_pass(self):
        # The history path: the first click and four impressions are counted (their rollup pass
        # is over) before the next ones arrive, so those are judged against counted rows only.
        client = new_client()
        before = self.figures()
        st, _, _ = click_from(client, OFFER, token(H.CLICK))
        self.assertEqual(st, 302)
        for _ in range(4):
            st, _, _ = impression_from(client, token(H.IMPRESSION))
            self.assertEqual(st, 200)
        self.assertCounted(before, clicks=1, impressions=4)
        middle = self.figures()
        second = token(H.CLICK)
        self.assertEqual(click_from(client, OFFER, second)[0], 302)
        late = [token(H.IMPRESSION) for _ in range(2)]
        for t in late:
            self.assertEqual(impression_from(client, t)[0], 200)
        self.assertCounted(middle, impressions=1, ignored_impressions={"rate_limited": 1},
                           ignored_clicks={"rate_limited": 1})
        self.assertEqual(H.db("SELECT ignored FROM clicks WHERE token_nonce = UNHEX('%s')"
                              % nonce_of(second).hex()), [["rate_limited"]])
        self.assertEqual(H.db("SELECT COALESCE(ignored, '-') FROM impressions WHERE token_nonce "
                              "IN (UNHEX('%s'), UNHEX('%s')) ORDER BY id"
                              % (nonce_of(late[0]).hex(), nonce_of(late[1]).hex())),
                         [["-"], ["rate_limited"]])

    def test_different_clients_are_counted_separately(self):
        before = self.figures()
        for _ in range(3):
            st, _, _ = click_from(new_client(), OFFER, token(H.CLICK))
            self.assertEqual(st, 302)
        self.assertCounted(before, clicks=3)

    def test_forwarded_for_only_from_the_trusted_proxy(self):
        before = self.figures()
        # From an untrusted peer, X-Forwarded-For is ignored: one client, the 2nd click limited.
        peer = new_client()
        for _ in range(2):
            st, _, _ = click_from(peer, OFFER, token(H.CLICK),
                                  headers={"X-Forwarded-For": new_forwarded()})
            self.assertEqual(st, 302)
        # From the trusted proxy, it names the client: two clients, both counted; the same
        # client again (behind another trusted hop) is limited.
        a, b = new_forwarded(), new_forwarded()
        for forwarded in (a, "%s, %s" % (new_forwarded(), b), "%s, %s" % (a, TRUSTED_PROXY)):
            st, _, _ = click_from(TRUSTED_PROXY, OFFER, token(H.CLICK),
                                  headers={"X-Forwarded-For": forwarded})
            self.assertEqual(st, 302)
        self.assertCounted(before, clicks=3, ignored_clicks={"rate_limited": 2})

    def test_limits_are_settings_with_ranges(self):
        doc = self.admin.ok("GET", "/settings")
        self.assertEqual({k: doc[k] for k in ("clickLimitPerMinute", "clickLimitPer10Minutes",
                                              "clickLimitPerHour", "impressionLimitPer5Minutes")},
                         {"clickLimitPerMinute": 1, "clickLimitPer10Minutes": 3,
                          "clickLimitPerHour": 10, "impressionLimitPer5Minutes": 5})
        stored = H.db("SELECT name, value FROM settings WHERE name LIKE '%Limit%' ORDER BY name")
        for body, field in (({"clickLimitPerMinute": -1}, "clickLimitPerMinute"),
                            ({"clickLimitPerHour": 10001}, "clickLimitPerHour"),
                            ({"clickLimitPer10Minutes": "3"}, "clickLimitPer10Minutes"),
                            ({"impressionLimitPer5Minutes": 2.5}, "impressionLimitPer5Minutes")):
            st, _, err = self.admin.patch("/settings", body)
            self.assertEqual(st, 400, body)
            self.assertEqual((err["error"]["code"], err["error"].get("field")),
                             ("invalid_field", field))
        self.assertEqual(H.db("SELECT name, value FROM settings WHERE name LIKE '%Limit%' "
                              "ORDER BY name"), stored)
        # Two impressions per 5 minutes: the third is not counted.
        self.addCleanup(self.admin.ok, "PATCH", "/settings", {"impressionLimitPer5Minutes": 5})
        doc = self.admin.ok("PATCH", "/settings", {"impressionLimitPer5Minutes": 2})
        self.assertEqual(doc["impressionLimitPer5Minutes"], 2)
        H.settle()
        time.sleep(0.5)  # the rollup step reads the limit from the rebuilt snapshot
        client = new_client()
        before = self.figures()
        for _ in range(3):
            st, _, _ = impression_from(client, token(H.IMPRESSION))
            self.assertEqual(st, 200)
        self.assertCounted(before, impressions=2, ignored_impressions={"rate_limited": 1})

    # -- the state of a client and offer over a limit (issue 24, sql/0015_limit_state.sql)
    def pair_state(self, nonce):
        """(counted, window_ms) kept for the client and offer of the impression `nonce`, or None."""
        rows = H.db("SELECT s.counted, s.window_ms FROM rate_limit_state s JOIN impressions r ON "
                    "s.client_hash = r.client_hash AND s.offer_id = r.offer_id WHERE s.kind = "
                    "'impression' AND r.token_nonce = UNHEX('%s')" % nonce.hex())
        return tuple(rows[0]) if rows else None

    def counted_times(self, nonce):
        """The counted impressions of the same client and offer as `nonce`, as the state keeps them."""
        rows = H.db("SELECT TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', h.recorded_at) DIV 1000 "
                    "FROM impressions h JOIN impressions r ON h.client_hash = r.client_hash AND "
                    "h.offer_id = r.offer_id WHERE r.token_nonce = UNHEX('%s') AND h.ignored IS NULL "
                    "ORDER BY 1" % nonce.hex())
        return ",".join(r[0] for r in rows)

    def send_impressions(self, client, n):
        tokens = [token(H.IMPRESSION) for _ in range(n)]
        for t in tokens:
            st, _, body = impression_from(client, t)
            self.assertEqual((st, json.loads(body)), (200, {"status": "recorded"}))
        return tokens

    def test_a_pair_over_a_limit_is_judged_by_its_kept_counted_times(self):
        client = new_client()
        before = self.figures()
        first = nonce_of(self.send_impressions(client, 4)[0])
        self.assertCounted(before, impressions=4)
        self.assertIsNone(self.pair_state(first))  # never over a limit: its history is the raw rows
        middle = self.figures()
        self.send_impressions(client, 8)  # the 5th is counted, the other 7 are over the limit
        self.assertCounted(middle, impressions=1, ignored_impressions={"rate_limited": 7})
        self.assertEqual(self.pair_state(first), (self.counted_times(first), "300000"))
        # The kept times are the pair's history, not the raw rows: with them cleared, the next
        # impression is counted although five counted rows are within five minutes.
        H.db("UPDATE rate_limit_state s JOIN impressions r ON s.client_hash = r.client_hash AND "
             "s.offer_id = r.offer_id SET s.counted = '' WHERE s.kind = 'impression' AND "
             "r.token_nonce = UNHEX('%s')" % first.hex())
        late = self.figures()
        last = nonce_of(self.send_impressions(client, 1)[0])
        self.assertCounted(late, impressions=1)
        at = H.db("SELECT TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', recorded_at) DIV 1000 "
                  "FROM impressions WHERE token_nonce = UNHEX('%s')" % last.hex())[0][0]
        self.assertEqual(self.pair_state(first), (at, "300000"))

    def test_kept_state_idle_for_two_hours_or_kept_for_a_shorter_window_is_dropped(self):
        # Three made-up pairs: idle three hours (beyond every window: dropped), kept for a
        # one-second window where five minutes are asked (dropped), idle one hour (kept).
        hashes = ["%032x" % random.getrandbits(128) for _ in range(3)]
        self.addCleanup(H.db, "DELETE FROM rate_limit_state WHERE client_hash IN (%s)"
                        % ", ".join("UNHEX('%s')" % h for h in hashes))
        for h, window, idle in zip(hashes, (300000, 1000, 300000), ("3 HOUR", "1 MINUTE", "1 HOUR")):
            H.db("INSERT INTO rate_limit_state (kind, client_hash, offer_id, counted, window_ms, "
                 "last_at) VALUES ('impression', UNHEX('%s'), %d, '', %d, UTC_TIMESTAMP(3) - "
                 "INTERVAL %s)" % (h, OFFER, window, idle))
        before = self.figures()
        self.send_impressions(new_client(), 1)  # a pass that judges impressions
        self.assertCounted(before, impressions=1)
        left = H.db("SELECT LOWER(HEX(client_hash)) FROM rate_limit_state WHERE client_hash IN (%s)"
                    % ", ".join("UNHEX('%s')" % h for h in hashes))
        self.assertEqual(left, [[hashes[2]]])

    def test_a_limit_turned_off_drops_the_kept_state_and_on_again_judges_from_the_raw_rows(self):
        client = new_client()
        before = self.figures()
        first = nonce_of(self.send_impressions(client, 7)[0])
        self.assertCounted(before, impressions=5, ignored_impressions={"rate_limited": 2})
        self.assertIsNotNone(self.pair_state(first))
        self.addCleanup(self.admin.ok, "PATCH", "/settings", {"impressionLimitPer5Minutes": 5})
        self.admin.ok("PATCH", "/settings", {"impressionLimitPer5Minutes": 0})
        H.settle()
        time.sleep(0.5)  # the rollup step reads the limit from the rebuilt snapshot
        off = self.figures()
        self.send_impressions(client, 1)  # no limit: counted (the 6th within five minutes)
        self.assertCounted(off, impressions=1)
        self.assertEqual(H.db("SELECT COUNT(*) FROM rate_limit_state WHERE kind = 'impression'"),
                         [["0"]])
        self.admin.ok("PATCH", "/settings", {"impressionLimitPer5Minutes": 5})
        H.settle()
        time.sleep(0.5)
        on = self.figures()
        self.send_impressions(client, 1)  # six counted within five minutes, read from the raw rows
        self.assertCounted(on, ignored_impressions={"rate_limited": 1})
        self.assertEqual(self.pair_state(first), (self.counted_times(first), "300000"))
        self.assertEqual(len(self.counted_times(first).split(",")), 6)

    def test_passes_that_mark_any_number_of_rows_prepare_few_statements(self):
        """Each rollup pass marks the rows of a pair over its limit with one UPDATE ... WHERE id
        IN (...). Made for exactly the rows of the pass, every new count left one more prepared
        statement in the worker and on the server for the worker's life (a ten-minute `make soak`
        grew each worker by ~12 MiB; docs/hardening.md). Made for a power of two of rows
        (lib/db/statement_shapes.h), passes that mark 3 to 19 rows prepare at most five more. The
        server's general log, on for the test, names every statement prepared meanwhile."""
        client = new_client()
        first = nonce_of(self.send_impressions(client, 6)[0])  # the 6th is over the limit
        self.assertTrue(H.wait_until(rolled_up, timeout=10, interval=0.1))
        H.db("TRUNCATE mysql.general_log")
        H.db("SET GLOBAL log_output = 'TABLE', general_log = 1")
        self.addCleanup(H.db, "TRUNCATE mysql.general_log")
        self.addCleanup(H.db, "SET GLOBAL general_log = 0")
        sizes = (3, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, 17, 18, 19)
        for n in sizes:
            for t in [token(H.IMPRESSION) for _ in range(n)]:
                self.assertEqual(impression_from(client, t)[0], 200)
            self.assertTrue(H.wait_until(rolled_up, timeout=10, interval=0.05))
        H.db("SET GLOBAL general_log = 0")
        shapes = H.db("SELECT LENGTH(argument) - LENGTH(REPLACE(argument, '?', '')) FROM "
                      "mysql.general_log WHERE command_type = 'Prepare' AND argument LIKE "
                      "'UPDATE impressions SET ignored%' ORDER BY 1")
        # Every row after the 5th marked, none of the five counted ones (the repeated last id of
        # a padded statement marks nothing twice, nor anything else).
        self.assertEqual(H.db("SELECT SUM(i.ignored = 'rate_limited'), SUM(i.ignored IS NULL) FROM "
                              "impressions i JOIN impressions f ON i.client_hash = f.client_hash AND "
                              "i.offer_id = f.offer_id WHERE f.token_nonce = UNHEX('%s')" % first.hex()),
                         [[str(1 + sum(sizes)), "5"]])
        # 2, 4, 8, 16, 32 at most (a burst split over two passes); one per count would be 14.
        self.assertLessEqual(len(shapes), 5, "marks prepared for %s ids after passes marking %s rows"
                             % ([int(r[0]) for r in shapes], sizes))

    def test_zz_no_raw_client_address_in_any_table(self):
        # Runs last in this class (by name): every address used above.
        used = ["127.%d.%d.%d" % (RUN, n // 250, 1 + n % 250) for n in range(11, _next_client[0] + 1)]
        used += ["198.18.%d.%d" % (RUN, 1 + n % 250) for n in range(11, _next_client[0] + 1)]
        self.assertGreater(len(used), 10)
        out = subprocess.run(
            ["mariadb-dump", "--defaults-file=%s" % H.var_path("my.cnf"), "-u", "root",
             "--skip-extended-insert", "--hex-blob", "placard"],
            stdin=subprocess.DEVNULL, capture_output=True, timeout=120, check=True).stdout
        dump = out.decode("utf-8", "replace")
        self.assertIn("INSERT INTO `clicks`", dump)
        for address in used:
            self.assertNotIn("'%s'" % address, dump)
            self.assertNotIn(address + "'", dump)
            self.assertNotIn(address.encode().hex().upper(), dump)  # nor as a hex blob


if __name__ == "__main__":
    unittest.main()
