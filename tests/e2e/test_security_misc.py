"""Issue 22 (security, second round), items 2, 8 and 10 through the real stack:

- one valid token replayed as HEAD, as a prefetch or by a crawler writes one ignored_events row
  per reason (not one per request), with the answers unchanged; an ignored click is answered
  from the catalog snapshot, not from a read of the offer on the event writer;
- the worker processes run with a core-file limit of 0;
- a network sync past network.max_sync_offers or network.max_sync_bytes fails with a sentence
  and leaves the catalog unchanged (a stack of its own and the stand-in networks)."""

import json
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness as H  # noqa: E402
from admin_client import AdminClient  # noqa: E402
from test_network_adapters import StandIn  # noqa: E402

OFFER = 1000  # manual, enabled, DE; redirects to its tracking URL without a sub-id
OFFER_URL = "https://shop.example/phones?ref=placard"
CHROME = ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
          "Chrome/131.0.0.0 Safari/537.36")
BOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
REPEAT = 6


def ignored_rows(after_id, kind, reason, offer=OFFER):
    return int(H.db("SELECT COUNT(*) FROM ignored_events WHERE id > %d AND kind = '%s' AND "
                    "reason = '%s' AND offer_id = %d" % (after_id, kind, reason, offer))[0][0])


def last_ignored_id():
    return int(H.db("SELECT COALESCE(MAX(id), 0) FROM ignored_events")[0][0])


class IgnoredEventsOnceTests(H.E2ETestCase):
    def click(self, tok, method="GET", headers=None):
        hdrs = {"User-Agent": CHROME}
        hdrs.update(headers or {})
        return H.http(method, "/r/click/%d?t=%s" % (OFFER, tok), headers=hdrs)

    def test_a_replayed_click_writes_one_ignored_row_per_reason(self):
        tok = H.mint_token(H.CLICK, OFFER)
        start = last_ignored_id()
        variants = [("bot", "GET", {"User-Agent": BOT}),
                    ("prefetch", "GET", {"Sec-Purpose": "prefetch"}),
                    ("head", "HEAD", {})]
        for reason, method, headers in variants:
            with self.subTest(reason=reason):
                for _ in range(REPEAT):
                    st, h, _ = self.click(tok, method, headers)
                    self.assertEqual(st, 302)
                    self.assertEqual(h.get("location"), OFFER_URL)
                    self.assertEqual(h.get("cache-control"), "no-store")
                self.assertEqual(ignored_rows(start, "click", reason), 1)
        # The token is still the real click's: counted once.
        st, h, _ = self.click(tok)
        self.assertEqual((st, h.get("location")), (302, OFFER_URL))
        self.assertEqual(H.rows_for_nonce("clicks", H.decode_token(tok)["nonce"]), 1)

    def test_b_a_replayed_impression_writes_one_ignored_row_per_reason(self):
        tok = H.mint_token(H.IMPRESSION, OFFER)
        start = last_ignored_id()
        for reason, headers in [("bot", {"User-Agent": BOT}),
                                ("prefetch", {"Sec-Purpose": "prefetch", "User-Agent": CHROME})]:
            with self.subTest(reason=reason):
                for _ in range(REPEAT):
                    st, _, body = H.impression(tok, headers)
                    self.assertEqual(st, 200)
                    self.assertEqual(json.loads(body), {"status": "recorded"})
                self.assertEqual(ignored_rows(start, "impression", reason), 1)

    def test_c_an_ignored_click_is_answered_from_the_snapshot(self):
        # The offer disabled in the database without a catalog bump: the snapshot still has it
        # enabled. A counted click reads the database (410); an ignored one is judged from the
        # snapshot (302), without reading the offer on the event writer.
        H.db("UPDATE offers SET enabled = 0 WHERE id = %d" % OFFER)
        try:
            st, h, _ = self.click(H.mint_token(H.CLICK, OFFER), "HEAD")
            self.assertEqual((st, h.get("location")), (302, OFFER_URL))
            st, _, _ = self.click(H.mint_token(H.CLICK, OFFER), "GET", {"User-Agent": BOT})
            self.assertEqual(st, 302)
            st, _, _ = self.click(H.mint_token(H.CLICK, OFFER))
            self.assertEqual(st, 410)
        finally:
            H.db("UPDATE offers SET enabled = 1 WHERE id = %d" % OFFER)
        # Once the catalog changes, the snapshot says so too.
        H.db("UPDATE offers SET enabled = 0 WHERE id = %d" % OFFER)
        try:
            H.bump()
            H.settle()
            st, _, _ = self.click(H.mint_token(H.CLICK, OFFER), "HEAD")
            self.assertEqual(st, 410)
        finally:
            H.db("UPDATE offers SET enabled = 1 WHERE id = %d" % OFFER)
            H.bump()
            H.settle()


class CoreDumpTests(H.E2ETestCase):
    def test_worker_processes_have_no_core_limit(self):
        with open(H.current().path("run", "placard.pid")) as f:
            pid = f.read().strip()
        children = subprocess.run(["pgrep", "-P", pid], capture_output=True, text=True,
                                  timeout=10).stdout.split()
        for p in [pid] + children:
            with self.subTest(pid=p):
                with open("/proc/%s/limits" % p) as f:
                    line = [l for l in f if l.startswith("Max core file size")][0]
                self.assertEqual(line.split()[4:6], ["0", "0"], line)


ADMITAD = {"clientId": "cap-client", "clientSecret": "cap-secret", "websiteId": "4242"}


class SyncCapTests(unittest.TestCase):
    """A stack of its own whose config points the networks at the stand-in (7 Admitad coupons,
    pages of 2), restarted with each pair of caps."""

    @classmethod
    def setUpClass(cls):
        cls.previous = H._current
        server = cls.previous.server if cls.previous else os.environ.get("SERVER", "lighttpd")
        cls.standin = StandIn()
        cls.stack = H.Stack(server)
        H.set_stack(cls.stack)
        try:
            cls.stack.start()
            H.load_fixtures(cls.stack)
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        try:
            cls.stack.stop()
            cls.stack.cleanup()
        finally:
            cls.standin.stop()
            H.set_stack(cls.previous)

    def configure(self, max_offers, max_bytes):
        path = self.stack.path("placard.conf")
        with open(path) as f:
            lines = [l for l in f.read().splitlines() if not l.startswith("network.")]
        lines += ["network.admitad.api_base = " + self.standin.base,
                  "network.awin.api_base = " + self.standin.base,
                  "network.timeout_seconds = 3",
                  "network.page_size = 2",
                  "network.max_sync_offers = %d" % max_offers,
                  "network.max_sync_bytes = %d" % max_bytes]
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        self.stack.restart()
        self.standin.control(reset=True, admitad_client_id=ADMITAD["clientId"],
                             admitad_client_secret=ADMITAD["clientSecret"])
        admin = AdminClient.signed_in(stack=self.stack)
        st, _, doc = admin.request("PUT", "/network/credentials/admitad", ADMITAD)
        self.assertEqual(st, 204, doc)
        return admin

    def sync(self, admin):
        st, _, doc = admin.request("POST", "/network/sync", {"network": "admitad"})
        self.assertEqual(st, 202, doc)
        seen = []

        def done():
            seen.append(admin.request("GET", "/network/sync/" + doc["id"])[2])
            return seen[-1]["status"] != "running"
        self.assertTrue(H.wait_until(done, timeout=60, interval=0.2), seen[-1:])
        return seen[-1]

    def imported(self):
        return int(H.db("SELECT COUNT(*) FROM offers WHERE network = 'admitad' AND "
                        "external_id NOT LIKE 'ext-%'")[0][0])

    def version(self):
        return int(H.db("SELECT version FROM catalog_version WHERE id = 1")[0][0])

    def test_1_past_the_offer_cap_the_run_fails_and_nothing_changes(self):
        admin = self.configure(max_offers=5, max_bytes=256 * 1024 * 1024)
        version = self.version()
        run = self.sync(admin)
        self.assertEqual(run["status"], "failed", run)
        self.assertIn("more than 5 offers", run["error"])
        self.assertIn("network.max_sync_offers", run["error"])
        self.assertEqual((self.imported(), self.version()), (0, version))

    def test_2_past_the_byte_cap_the_run_fails_and_nothing_changes(self):
        admin = self.configure(max_offers=200000, max_bytes=4096)
        version = self.version()
        run = self.sync(admin)
        self.assertEqual(run["status"], "failed", run)
        self.assertIn("passed 4096 bytes", run["error"])
        self.assertIn("network.max_sync_bytes", run["error"])
        self.assertEqual((self.imported(), self.version()), (0, version))

    def test_3_within_the_caps_the_run_succeeds(self):
        admin = self.configure(max_offers=7, max_bytes=1024 * 1024)
        run = self.sync(admin)
        self.assertEqual(run["status"], "succeeded", run)
        self.assertEqual(self.imported(), 7)


if __name__ == "__main__":
    unittest.main()
