"""Contract section 8, the sync: POST /admin/api/v1/network/sync runs the import against the
stand-in networks (tests/network_standin/standin.py on 127.0.0.1) through the real stack, on a
fresh stack (the run's, reset: harness.Borrowed) whose config points network.*.api_base at the stand-in (small pages, a short
timeout, the schedule checked every second). The tests run in order (test_1_..., test_2_...):
each builds on the catalog the previous one left."""

import json
import os
import secrets
import signal
import subprocess
import sys
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness as H  # noqa: E402
from admin_client import AdminClient  # noqa: E402
from test_network_adapters import StandIn  # noqa: E402

# Distinctive credentials: their plaintext must be found nowhere (database, logs, answers).
ADMITAD_SECRET = "Adm-secret-" + secrets.token_hex(8)
ADMITAD_CLIENT = "adm-client-" + secrets.token_hex(6)
AWIN_TOKEN = "Awin-token-" + secrets.token_hex(8)
ADMITAD = {"clientId": ADMITAD_CLIENT, "clientSecret": ADMITAD_SECRET, "websiteId": "4242"}
AWIN = {"publisherId": "98765", "apiToken": AWIN_TOKEN}
SECRETS = (ADMITAD_SECRET, ADMITAD_CLIENT, AWIN_TOKEN)
PAGE_SIZE = 2
TIMEOUT = 3
RUN_FIELDS = {"id", "network", "status", "startedAt", "finishedAt", "pagesDone", "pagesTotal",
              "created", "updated", "disabled", "skipped", "error"}
MAPPED = "empty"  # a fixture category that holds no offers: the query shows only imported ones


def admitad_offers():
    """The admitad offers the stand-in's coupons became: {external id: row}."""
    rows = H.db("SELECT o.external_id, o.id, o.title, o.enabled, o.priority, o.category_id, "
                "o.overrides, o.all_countries, o.coupon_code, o.tracking_url, o.image_url, "
                "(SELECT GROUP_CONCAT(country_code ORDER BY country_code) FROM offer_countries "
                "WHERE offer_id = o.id), o.updated_at "
                "FROM offers o WHERE o.network = 'admitad' AND o.external_id NOT LIKE 'ext-%'")
    keys = ("externalId", "id", "title", "enabled", "priority", "category", "overrides",
            "allCountries", "coupon", "tracking", "image", "countries", "updatedAt")
    return {r[0]: dict(zip(keys, [None if v == "NULL" else v for v in r])) for r in rows}


def catalog_version():
    return int(H.db("SELECT version FROM catalog_version WHERE id = 1")[0][0])


def served_titles(category=MAPPED, country="DE"):
    return sorted(o["title"] for o in H.query_offers(category=category, country=country))


class NetworkSyncTests(H.StackTestCase):
    """A fresh stack (the run's, reset; behind the run's web server) whose config points the
    networks at the stand-in; StackTestCase restores the run's stack afterwards."""

    maxDiff = 6000

    @classmethod
    def setUpClass(cls):
        cls.SERVER = H._current.server if H._current else os.environ.get("SERVER", "lighttpd")
        cls.standin = StandIn()
        try:
            super().setUpClass()
            cls.admin = AdminClient.signed_in(stack=cls.stack)
        except BaseException:
            cls.tearDownClass()
            raise
        cls.answers = []  # every admin answer of the module, searched for secrets at the end

    @classmethod
    def prepare_stack(cls):
        path = cls.stack.path("placard.conf")
        with open(path) as f:
            lines = [l for l in f.read().splitlines() if not l.startswith("network.")]
        lines += ["network.admitad.api_base = " + cls.standin.base,
                  "network.awin.api_base = " + cls.standin.base,
                  "network.timeout_seconds = %d" % TIMEOUT,
                  "network.page_size = %d" % PAGE_SIZE,
                  "network.schedule_check_seconds = 1"]
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        cls.stack.restart()

    @classmethod
    def tearDownClass(cls):
        try:
            if "borrowed" in vars(cls):  # else StackTestCase.setUpClass failed and cleaned up
                super().tearDownClass()
        finally:
            cls.standin.stop()

    def setUp(self):
        self.standin.control(reset=True, admitad_client_id=ADMITAD_CLIENT,
                             admitad_client_secret=ADMITAD_SECRET, awin_api_token=AWIN_TOKEN)

    # -- helpers
    def call(self, method, path, body=None):
        st, h, doc = self.admin.request(method, path, body)
        self.answers.append(json.dumps(doc) if not isinstance(doc, bytes) else
                            doc.decode("utf-8", "replace"))
        return st, h, doc

    def set_credentials(self, network, creds):
        st, _, doc = self.call("PUT", "/network/credentials/" + network, creds)
        self.assertEqual(st, 204, doc)

    def start(self, network="admitad", status=202):
        st, h, doc = self.call("POST", "/network/sync", {"network": network})
        self.assertEqual(st, status, doc)
        if status == 202:
            self.assertEqual(set(doc), RUN_FIELDS)
            self.assertEqual(doc["network"], network)
            self.assertEqual(doc["status"], "running")
            self.assertIsNone(doc["finishedAt"])
            self.assertEqual(h.get("location"), "/admin/api/v1/network/sync/" + doc["id"])
        return doc

    def wait_done(self, run_id, timeout=60):
        seen = []

        def done():
            st, _, doc = self.call("GET", "/network/sync/" + run_id)
            self.assertEqual(st, 200, doc)
            seen.append(doc)
            return doc["status"] != "running"
        self.assertTrue(H.wait_until(done, timeout=timeout, interval=0.1),
                        "sync %s still running after %ss: %r" % (run_id, timeout, seen[-1:]))
        return seen[-1]

    def sync(self, network="admitad"):
        return self.wait_done(self.start(network)["id"])

    def map_category(self, external_id, path):
        st, _, doc = self.call("PUT", "/network/category-map/admitad/" + external_id,
                               {"category": path})
        self.assertEqual(st, 200, doc)

    def assertFailedCleanly(self, run, sentence_part):
        self.assertEqual(run["status"], "failed", run)
        self.assertIsNotNone(run["finishedAt"])
        self.assertIn(sentence_part, run["error"])
        for bad in SECRETS + ("{", "<html", "upstream failure", "Traceback", "SQL"):
            self.assertNotIn(bad, run["error"])
        self.assertEqual((run["created"], run["updated"], run["disabled"]), (0, 0, 0))

    # -- the tests, in order
    def test_1_full_sync_imports_every_offer_and_serves_the_mapped_ones(self):
        st, _, doc = self.call("POST", "/network/sync", {"network": "admitad"})
        self.assertEqual((st, doc["error"]["code"]), (422, "network_not_configured"), doc)
        st, _, doc = self.call("POST", "/network/sync", {"network": "nowhere"})
        self.assertEqual((st, doc["error"]["code"], doc["error"].get("field")),
                         (400, "invalid_field", "network"), doc)
        st, _, doc = self.call("POST", "/network/sync", {})
        self.assertEqual((st, doc["error"]["code"], doc["error"].get("field")),
                         (400, "missing_field", "network"), doc)
        self.assertEqual(H.db("SELECT COUNT(*) FROM sync_runs")[0][0], "0")
        self.set_credentials("admitad", ADMITAD)
        version = catalog_version()

        run = self.sync()
        self.assertEqual(run["status"], "succeeded", run)
        self.assertIsNone(run["error"])
        # 7 coupons in pages of 2; the suite's 3 enabled admitad fixture offers are gone upstream.
        self.assertEqual((run["pagesDone"], run["pagesTotal"]), (4, 4))
        self.assertEqual((run["created"], run["updated"], run["disabled"], run["skipped"]),
                         (7, 0, 3, 0))
        self.assertEqual(catalog_version(), version + 1)  # bumped once
        offers = admitad_offers()
        self.assertEqual(sorted(offers), ["1001", "1002", "1003", "1004", "1005", "1006", "1007"])
        self.assertEqual({o["title"] for o in offers.values()},
                         {"Coupon %d" % i for i in range(1, 8)})
        self.assertEqual(offers["1001"]["coupon"], None)  # "action": placeholder is no code
        self.assertEqual(offers["1002"]["coupon"], "CODE2")
        self.assertEqual(offers["1002"]["countries"], "DE,FR")
        self.assertEqual(offers["1001"]["image"], "https://cdn.admitad.example/c/1.png")
        self.assertEqual({o["category"] for o in offers.values()}, {None})  # nothing mapped yet
        self.assertEqual(H.db("SELECT enabled FROM offers WHERE external_id IN "
                              "('ext-1001', 'ext-1301', 'ext-1302')"), [["0"]] * 3)
        cats = H.db("SELECT external_id, name, category_id FROM network_categories "
                    "WHERE network = 'admitad' ORDER BY external_id")
        self.assertEqual(cats, [["62", "Electronics", "NULL"], ["7", "Audio", "NULL"]])

        # Unmapped: imported, listed with category null, not served.
        st, _, page = self.call("GET", "/offers?network=admitad&served=false&limit=200")
        self.assertEqual(st, 200, page)
        unmapped = [o for o in page["items"] if o["externalId"] in offers]
        self.assertEqual(len(unmapped), 7)
        self.assertEqual({o["category"] for o in unmapped}, {None})
        self.assertEqual({o["allCountries"] for o in unmapped}, {False})
        st, _, page = self.call("GET", "/offers?network=admitad&served=true")
        self.assertEqual(page["total"], 0, page)
        self.assertEqual(served_titles(), [])

        # Mapping the network category serves them (within a second).
        self.map_category("62", MAPPED)
        self.assertTrue(H.wait_until(lambda: len(served_titles()) == 7, timeout=3),
                        (served_titles(), H.db("SELECT id, category_id, enabled, valid_from, "
                                               "valid_until FROM offers WHERE network = 'admitad'")))
        self.assertEqual(served_titles(), sorted("Coupon %d" % i for i in range(1, 8)))
        self.assertEqual(served_titles(country="FR"), ["Coupon 2", "Coupon 7"])
        st, _, page = self.call("GET", "/offers?network=admitad&served=true&country=FR")
        self.assertEqual(sorted(o["externalId"] for o in page["items"]), ["1002", "1007"])

        st, _, doc = self.call("GET", "/network")
        last = [n for n in doc["networks"] if n["network"] == "admitad"][0]["lastSync"]
        self.assertEqual(last, run)
        st, _, lst = self.call("GET", "/network/syncs")
        self.assertEqual((st, lst["total"], lst["items"]), (200, 1, [run]), lst)
        audit = H.db("SELECT action, target, after_json FROM audit_log "
                     "WHERE action LIKE 'network.sync%' ORDER BY id")
        self.assertEqual([a[:2] for a in audit], [["network.sync.start", "network:admitad"],
                                                  ["network.sync", "network:admitad"]])
        self.assertEqual(json.loads(audit[1][2]), {"syncRun": run["id"], "created": 7,
                                                   "updated": 0, "disabled": 3, "skipped": 0})

    def test_2_second_sync_updates_disables_removals_and_keeps_overrides(self):
        offers = admitad_offers()
        c3, c4 = offers["1003"]["id"], offers["1004"]["id"]
        st, _, doc = self.call("PATCH", "/offers/%s" % c3, {"enabled": False, "priority": 77})
        self.assertEqual(st, 200, doc)
        st, _, doc = self.call("PATCH", "/offers/%s" % c4, {"countries": ["US"], "category": "books"})
        self.assertEqual(st, 200, doc)
        self.standin.control(generation=1)  # coupon 1 gone, coupon 2 renamed
        version = catalog_version()

        run = self.sync()
        self.assertEqual(run["status"], "succeeded", run)
        self.assertEqual((run["created"], run["updated"], run["disabled"], run["skipped"]),
                         (0, 6, 1, 0))
        self.assertEqual(catalog_version(), version + 1)
        after = admitad_offers()
        self.assertEqual(after["1001"]["enabled"], "0")
        self.assertEqual(after["1002"]["title"], "Coupon 2 (gen 1)")
        self.assertEqual((after["1003"]["enabled"], after["1003"]["priority"]), ("0", "77"))
        self.assertEqual(after["1003"]["overrides"], "enabled,priority")
        self.assertEqual(after["1004"]["countries"], "US")
        self.assertEqual(after["1004"]["overrides"], "category,countries")
        st, _, doc = self.call("GET", "/offers/%s" % c4)
        self.assertEqual((doc["category"], doc["countries"], doc["overrides"]),
                         ("books", ["US"], ["category", "countries"]))
        self.assertTrue(H.wait_until(
            lambda: served_titles() == ["Coupon 2 (gen 1)", "Coupon 5", "Coupon 6", "Coupon 7"],
            timeout=3), served_titles())
        self.assertIn("Coupon 4", [o["title"] for o in H.query_offers(category="books",
                                                                      country="US")])

    def test_3_two_syncs_started_at_once_one_runs_the_other_is_409(self):
        self.standin.control(generation=1, slow_on_page={"page": 2, "seconds": 1.5})
        answers = []

        def go():
            c = AdminClient(stack=self.stack)
            c.cookie = self.admin.cookie
            answers.append(c.request("POST", "/network/sync", {"network": "admitad"}))
        threads = [threading.Thread(target=go) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.answers.extend(json.dumps(a[2]) for a in answers)
        self.assertEqual(sorted(a[0] for a in answers), [202, 409], answers)
        conflict = [a for a in answers if a[0] == 409][0][2]
        self.assertEqual(conflict["error"]["code"], "conflict")
        # Also while it runs: awin too (one sync of any network at a time).
        self.set_credentials("awin", AWIN)
        st, _, doc = self.call("POST", "/network/sync", {"network": "awin"})
        self.assertEqual((st, doc["error"]["code"]), (409, "conflict"), doc)
        started = [a for a in answers if a[0] == 202][0][2]
        run = self.wait_done(started["id"])
        self.assertEqual(run["status"], "succeeded", run)
        self.assertEqual(H.db("SELECT COUNT(*) FROM sync_runs WHERE status = 'running'"), [["0"]])

    def test_4_a_failure_at_any_page_leaves_the_catalog_unchanged(self):
        self.standin.control(generation=1)
        before = admitad_offers()
        served = served_titles()
        cases = [
            ({"malformed_on_page": 2}, "could not be read"),
            ({"slow_on_page": {"page": 3, "seconds": TIMEOUT + 2}}, "Admitad could not be reached"),
            ({"fail_on_page": {"page": 3, "status": 500}}, "Admitad answered HTTP 500"),
            ({"fail_on_page": {"page": 1, "status": 502}}, "Admitad answered HTTP 502"),
        ]
        for control, sentence in cases:
            with self.subTest(control=control):
                self.setUp()
                self.standin.control(generation=2, **control)  # success would rename coupon 2
                version = catalog_version()
                run = self.sync()
                self.assertFailedCleanly(run, sentence)
                self.assertEqual(catalog_version(), version)
                self.assertEqual(admitad_offers(), before)
                self.assertEqual(served_titles(), served)
        with self.subTest("bad credentials"):
            self.setUp()
            self.standin.control(generation=2, admitad_client_secret="another-secret")
            run = self.sync()
            self.assertFailedCleanly(run, "Admitad refused the credentials")
            self.assertEqual(admitad_offers(), before)
        st, _, doc = self.call("GET", "/network/syncs?limit=2")
        self.assertEqual([r["status"] for r in doc["items"]], ["failed", "failed"])
        self.assertEqual(doc["limit"], 2)

    def test_5_a_worker_killed_mid_run_leaves_the_catalog_and_the_next_sync_starts_cleanly(self):
        self.standin.control(generation=2, slow_on_page={"page": 2, "seconds": TIMEOUT - 0.5})
        before = admitad_offers()
        run = self.start()
        self.assertTrue(H.wait_until(
            lambda: self.call("GET", "/network/sync/" + run["id"])[2]["pagesDone"] >= 1,
            timeout=10))
        with open(self.stack.path("run", "placard.pid")) as f:
            pid = int(f.read().strip())
        # The pid file names the supervisor when the stack runs worker processes under one
        # (WORKERS > 0): kill the worker process itself, which runs the sync, not its supervisor
        # (whose children then stop gracefully and record the run as failed).
        children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True,
                                  timeout=10).stdout.split()
        for victim in children or [str(pid)]:
            os.kill(int(victim), signal.SIGKILL)
        self.stack.restart()
        self.admin = AdminClient.signed_in(stack=self.stack)
        type(self).admin = self.admin
        st, _, doc = self.call("GET", "/network/sync/" + run["id"])
        self.assertEqual(doc["status"], "running")  # nobody could say otherwise yet
        self.assertEqual(admitad_offers(), before)

        self.standin.control(slow_on_page=None)
        run2 = self.sync()
        self.assertEqual(run2["status"], "succeeded", run2)
        st, _, old = self.call("GET", "/network/sync/" + run["id"])
        self.assertEqual(old["status"], "failed")
        self.assertIn("interrupted", old["error"])
        self.assertEqual(admitad_offers()["1002"]["title"], "Coupon 2 (gen 2)")

    def test_6_click_on_an_imported_offer_redirects_with_the_sub_id(self):
        offers = {o["title"]: o for o in H.query_offers(category=MAPPED)}
        o = offers["Coupon 5"]
        st, h, _ = H.http("GET", o["clickUrl"])
        self.assertEqual(st, 302)
        nonce = H.decode_token(H.token_from_click_url(o["clickUrl"]))["nonce"].hex()
        tracking = admitad_offers()["1005"]["tracking"]
        self.assertIn("?", tracking)  # the network's link already has a query
        self.assertEqual(h["location"], tracking + "&subid=" + nonce)
        self.assertLessEqual(len(nonce), 50)  # Admitad's subid limit

    def test_7_awin_all_countries_and_clickref(self):
        self.set_credentials("awin", AWIN)
        run = self.sync("awin")
        self.assertEqual(run["status"], "succeeded", run)
        # 5 joined promotions (2 not joined never asked for); the suite's 3 enabled awin fixtures
        # are gone upstream.
        self.assertEqual((run["created"], run["disabled"]), (5, 3))
        rows = H.db("SELECT external_id, all_countries, (SELECT GROUP_CONCAT(country_code ORDER BY "
                    "country_code) FROM offer_countries WHERE offer_id = o.id) FROM offers o "
                    "WHERE network = 'awin' AND external_id NOT LIKE 'ext-%' ORDER BY external_id")
        self.assertEqual(rows, [["501", "1", "NULL"], ["502", "0", "AT,DE"], ["503", "1", "NULL"],
                                ["504", "0", "AT,DE"], ["505", "1", "NULL"]])
        st, _, cats = self.call("GET", "/network/category-map?network=awin")
        for c in cats["items"]:
            self.call("PUT", "/network/category-map/awin/" + c["externalCategoryId"],
                      {"category": "timing"})
        # Every selected country (DE, FR, US): regions.all offers are in FR and US too.
        self.assertTrue(H.wait_until(lambda: sorted(o["title"] for o in H.query_offers(
            category="timing", country="US")) == ["Promotion 1", "Promotion 3", "Promotion 5"],
            timeout=3), (H.query_offers(category="timing", country="US"), cats,
                         H.db("SELECT id, category_id, enabled, all_countries, valid_from, "
                              "valid_until FROM offers WHERE network = 'awin'")))
        st, _, page = self.call("GET", "/offers?network=awin&served=true&country=US")
        self.assertEqual(sorted(o["externalId"] for o in page["items"]), ["501", "503", "505"])
        self.assertEqual({o["allCountries"] for o in page["items"]}, {True})
        st, _, page = self.call("GET", "/offers?network=awin&served=true&country=GB")
        self.assertEqual(page["total"], 0)  # GB is not selected
        o = [x for x in H.query_offers(category="timing", country="US")
             if x["title"] == "Promotion 1"][0]
        st, h, _ = H.http("GET", o["clickUrl"])
        nonce = H.decode_token(H.token_from_click_url(o["clickUrl"]))["nonce"].hex()
        self.assertEqual(st, 302)
        self.assertTrue(h["location"].endswith("&clickref=" + nonce), h["location"])
        self.assertTrue(h["location"].startswith("https://www.awin1.example/cread.php?awinmid="))

    def test_8_placardctl_sync_runs_the_same_job(self):
        self.standin.control(generation=3)
        env = dict(os.environ, PLACARD_CONFIG=self.stack.path("placard.conf"))
        ctl = os.path.join(H.ROOT, self.stack.build, "placardctl")
        p = subprocess.run([ctl, "sync", "--network", "admitad"], capture_output=True, text=True,
                           env=env, timeout=60)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertRegex(p.stdout, r"page 3 of 3 \(\d+ ms\)")  # 6 coupons from generation 1 on
        self.assertRegex(p.stdout, r"succeeded: 0 created, 6 updated, 0 disabled, 0 skipped")
        self.assertEqual(admitad_offers()["1002"]["title"], "Coupon 2 (gen 3)")
        self.standin.control(malformed_on_page=1)
        p = subprocess.run([ctl, "sync", "--network", "admitad"], capture_output=True, text=True,
                           env=env, timeout=60)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("failed: Admitad sent coupons that could not be read", p.stdout)
        for s in SECRETS:
            self.assertNotIn(s, p.stdout + p.stderr)

    def test_9_scheduled_sync_and_no_plaintext_anywhere(self):
        runs = int(H.db("SELECT COUNT(*) FROM sync_runs")[0][0])
        st, _, doc = self.call("PATCH", "/settings", {"networkSyncIntervalMinutes": 1})
        self.assertEqual(st, 200, doc)
        try:
            # The last runs are older than a minute only after a while: wait for the schedule.
            self.assertTrue(H.wait_until(
                lambda: int(H.db("SELECT COUNT(*) FROM sync_runs WHERE status <> 'running'")[0][0])
                >= runs + 2, timeout=90, interval=1), "no scheduled run within 90 s")
        finally:
            self.call("PATCH", "/settings", {"networkSyncIntervalMinutes": 0})
        rows = H.db("SELECT network, status FROM sync_runs ORDER BY id DESC LIMIT 2")
        self.assertEqual(sorted(r[0] for r in rows), ["admitad", "awin"])
        self.assertEqual({r[1] for r in rows}, {"succeeded"})

        # As root through the stack's my.cnf: the worker's user has per-table grants only (no
        # LOCK TABLES), and the migration user's file is not the worker's config.
        args = ["mariadb-dump", "--defaults-file=%s" % self.stack.path("my.cnf"), "-u", "root",
                "--skip-extended-insert"]
        cfg = H.config()
        dump = subprocess.run(args + [cfg["db.name"]], capture_output=True, timeout=60)
        self.assertEqual(dump.returncode, 0, dump.stderr[-500:])
        dumped = dump.stdout.decode("utf-8", "replace")
        self.assertIn("INSERT INTO `sync_runs`", dumped)
        texts = {"mysqldump": dumped, "admin answers": "\n".join(self.answers)}
        for root, _, files in os.walk(self.stack.var):
            for name in files:
                path = os.path.join(root, name)
                if name.endswith((".log", ".out", ".err")) or "log" in root:
                    with open(path, "rb") as f:
                        texts[path] = f.read().decode("utf-8", "replace")
        self.assertGreater(len(texts), 3)
        for where, text in texts.items():
            for s in SECRETS:
                self.assertNotIn(s, text, "%s holds a credential in clear" % where)


if __name__ == "__main__":
    unittest.main()
