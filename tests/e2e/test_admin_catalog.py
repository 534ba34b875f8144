"""Contract sections 6 and 6.1: the admin API's settings, countries, categories and placements.
Exact answers, every validation error, 404/409, audit rows with before and after, refused
writes (CSRF) that change nothing, and each change visible in the public API within a second.

Every class signs in once (a sign-in costs about half a second of scrypt). Whatever a test
changes it restores (addCleanup): other modules share the stack and its fixtures."""

import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness as H  # noqa: E402
from admin_client import PREFIX, AdminClient  # noqa: E402

# Public changes must show within one second; the probe itself needs a little slack.
VISIBLE_WITHIN = 1.5

DEFAULTS = {
    "available": True,
    "refreshIntervalSeconds": 900,
    "minExtensionVersion": "1.0.0",
    "allowedClientOrigins": [],
    "tokenTtlSeconds": 86400,
    "sessionIdleMinutes": 30,
    "rawEventRetentionDays": 90,
    "networkSyncIntervalMinutes": 0,
    "clickLimitPerMinute": 1,
    "clickLimitPer10Minutes": 3,
    "clickLimitPerHour": 10,
    "impressionLimitPer5Minutes": 5,
    "publicOrigin": None,  # set in AdminCase.setUpClass: the stack's public_origin
}
WRITABLE = [k for k in DEFAULTS if k != "publicOrigin"]
FOREIGN_ORIGIN = "https://evil.example"
EXTENSION_ORIGIN = "chrome-extension://abcdefghijklmnopabcdefghijklmnop"


def unhex(value):
    return None if value == "NULL" else json.loads(bytes.fromhex(value).decode("utf-8"))


def stored_settings():
    return {name: value for name, value in H.db("SELECT name, value FROM settings")}


def selected_countries():
    return [r[0] for r in H.db("SELECT code FROM countries WHERE selected = 1 ORDER BY code")]


def category_row(path):
    rows = H.db("SELECT path, name, icon, display_order, enabled, COALESCE(parent_id, 'NULL') "
                "FROM categories WHERE path = %s" % H.sql_str(path))
    return rows[0] if rows else None


def placement_row(name):
    rows = H.db("SELECT name, max_offers, enabled FROM placements WHERE name = %s" % H.sql_str(name))
    return rows[0] if rows else None


def public_category_paths():
    st, _, b = H.http("GET", "/api/v1/categories")
    if st != 200:
        return None
    out = []

    def walk(nodes):
        for n in nodes:
            out.append(n["path"])
            walk(n["children"])
    walk(json.loads(b)["categories"])
    return out


def query_status(**fields):
    st, h, b = H.query(**fields)
    return st, h, json.loads(b) if b else None


class AdminCase(H.E2ETestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        # GET /settings shows the origin admin writes are checked against: the config file's
        # public_origin, which the stack sets to its own origin.
        DEFAULTS["publicOrigin"] = H.current().origin
        cls.admin = AdminClient.signed_in()

    # AdminClient answers parsed JSON; the harness's assertions read the raw body.
    @staticmethod
    def _raw(resp):
        st, h, b = resp
        return (st, h, b if isinstance(b, (bytes, str)) else json.dumps(b).encode("utf-8"))

    def assertJsonResponse(self, resp, status=200):
        return super().assertJsonResponse(self._raw(resp), status)

    def assertError(self, resp, status, code, field=H.ANY_FIELD):
        return super().assertError(self._raw(resp), status, code, field)

    # -- audit rows
    def audit_mark(self):
        return int(H.db("SELECT COALESCE(MAX(id), 0) FROM audit_log")[0][0])

    def audit_since(self, mark):
        rows = H.db("SELECT COALESCE(account_id, 'NULL'), action, target, HEX(before_json), "
                    "HEX(after_json) FROM audit_log WHERE id > %d ORDER BY id" % mark)
        return [{"account": r[0], "action": r[1], "resource": r[2], "before": unhex(r[3]),
                 "after": unhex(r[4])} for r in rows]

    def assertAudited(self, mark, action, resource, before, after):
        rows = self.audit_since(mark)
        self.assertEqual(rows, [{"account": self.admin.account["id"], "action": action,
                                 "resource": resource, "before": before, "after": after}])

    def assertNothingAudited(self, mark):
        self.assertEqual(self.audit_since(mark), [])

    # -- answers
    def answer(self, resp, status=200):
        doc = self.assertJsonResponse(resp, status)
        self.assertEqual(resp[1].get("cache-control"), "no-store")
        return doc

    def assertInvalid(self, resp, field, code="invalid_field"):
        return self.assertError(resp, 400, code, field)

    def assertCsrfRefused(self, method, path, body=None):
        """The write without X-Service-Mark, with a wrong one, with a foreign Origin and without
        Origin: 403 csrf_check_failed each time, and no audit row."""
        mark = self.audit_mark()
        for kw in ({"mark": None}, {"mark": "Admin"}, {"origin": FOREIGN_ORIGIN}, {"origin": None}):
            resp = self.admin.request(method, path, body, **kw)
            self.assertError(resp, 403, "csrf_check_failed")
        self.assertNothingAudited(mark)

    def visible(self, probe):
        """Seconds until probe() held (fails after VISIBLE_WITHIN)."""
        start = time.monotonic()
        ok = H.wait_until(probe, timeout=VISIBLE_WITHIN, interval=0.05)
        elapsed = time.monotonic() - start
        self.assertTrue(ok, "not visible in the public API within %.1f s" % VISIBLE_WITHIN)
        H.log("%s: visible in the public API after %.2f s" % (self.id().split(".", 1)[1], elapsed))
        return elapsed

    # -- settings
    def patch_settings(self, values):
        return self.answer(self.admin.patch("/settings", values))

    def set_settings(self, values):
        """PATCH settings now and restore their current values at cleanup (waiting until the
        public config shows the restored state)."""
        current = self.answer(self.admin.get("/settings"))
        self.addCleanup(self.restore_settings, {k: current[k] for k in values})
        return self.patch_settings(values)

    def restore_settings(self, values):
        self.patch_settings(values)
        H.wait_config(lambda c: c["available"] == DEFAULTS["available"]
                      and c["minExtensionVersion"] == DEFAULTS["minExtensionVersion"], timeout=5)
        # Settings the config does not show (token TTL, origins): one poll and rebuild.
        time.sleep(0.5)
        H.settle()


# ---------------------------------------------------------------------------------------------
# Settings


class SettingsTests(AdminCase):
    def test_get_answers_every_setting(self):
        doc = self.answer(self.admin.get("/settings"))
        self.assertEqual(doc, DEFAULTS)
        self.assertEqual(list(doc), list(DEFAULTS))

    def test_patch_subset_answers_whole_object(self):
        mark = self.audit_mark()
        changes = {"refreshIntervalSeconds": 1200, "sessionIdleMinutes": 45,
                   "rawEventRetentionDays": 30, "networkSyncIntervalMinutes": 60}
        doc = self.set_settings(changes)
        self.visible(lambda: H.fetch_config()["refreshIntervalSeconds"] == 1200)
        expected = dict(DEFAULTS, **changes)
        self.assertEqual(doc, expected)
        self.assertEqual(self.answer(self.admin.get("/settings")), expected)
        stored = stored_settings()
        self.assertEqual({k: stored[k] for k in changes},
                         {"refreshIntervalSeconds": "1200", "sessionIdleMinutes": "45",
                          "rawEventRetentionDays": "30", "networkSyncIntervalMinutes": "60"})
        self.assertAudited(mark, "settings.update", "settings", DEFAULTS, expected)

    def test_patch_stores_the_forms_the_catalog_reads(self):
        doc = self.set_settings({
            "minExtensionVersion": "01.2.03",
            "allowedClientOrigins": ["HTTPS://A.Example:443", EXTENSION_ORIGIN, "https://a.example",
                                     "moz-extension://0b7b7a1e-1a2b-4c3d-8e9f-0123456789ab",
                                     "http://127.0.0.1:9"],
            "tokenTtlSeconds": 2592000,
        })
        origins = ["https://a.example", EXTENSION_ORIGIN,
                   "moz-extension://0b7b7a1e-1a2b-4c3d-8e9f-0123456789ab", "http://127.0.0.1:9"]
        self.assertEqual(doc["minExtensionVersion"], "1.2.3")
        self.assertEqual(doc["allowedClientOrigins"], origins)
        self.assertEqual(doc["tokenTtlSeconds"], 2592000)
        stored = stored_settings()
        self.assertEqual(stored["minExtensionVersion"], "1.2.3")
        self.assertEqual(json.loads(stored["allowedClientOrigins"]), origins)
        self.assertEqual(stored["tokenTtlSeconds"], "2592000")
        self.set_settings({"available": False})
        self.assertEqual(stored_settings()["available"], "false")

    def test_firefox_wildcard_grants_every_moz_extension_origin(self):
        firefox = "moz-extension://0b7b7a1e-1a2b-4c3d-8e9f-0123456789ab"
        doc = self.set_settings({"allowedClientOrigins": [EXTENSION_ORIGIN, "MOZ-EXTENSION://*"]})
        self.assertEqual(doc["allowedClientOrigins"], [EXTENSION_ORIGIN, "moz-extension://*"])
        self.assertEqual(json.loads(stored_settings()["allowedClientOrigins"]),
                         [EXTENSION_ORIGIN, "moz-extension://*"])

        def status(origin):
            return H.http("GET", "/api/v1/config", headers={"Origin": origin})

        self.visible(lambda: status("chrome-extension://other")[0] == 403)
        for origin in (firefox, "moz-extension://f00", EXTENSION_ORIGIN):
            with self.subTest(origin=origin):
                st, h, b = status(origin)
                self.assertEqual(st, 200, b[:300])
                self.assertEqual(h.get("access-control-allow-origin"), origin)
                st, h, b = H.query(headers={"Origin": origin}, category="electronics")
                self.assertEqual(st, 200, b[:300])
                self.assertEqual(h.get("access-control-allow-origin"), origin)
        for origin in ("moz-extension://*", "moz-extension://abc/x", "moz-extension://a.b",
                       "https://evil.example", "chrome-extension://other"):
            with self.subTest(origin=origin):
                self.assertError(status(origin), 403, "origin_not_allowed", H.NO_FIELD)

    def test_empty_patch_changes_nothing_and_is_audited(self):
        mark = self.audit_mark()
        version = H.db("SELECT version FROM catalog_version")[0][0]
        self.assertEqual(self.patch_settings({}), DEFAULTS)
        self.assertAudited(mark, "settings.update", "settings", DEFAULTS, DEFAULTS)
        self.assertEqual(H.db("SELECT version FROM catalog_version")[0][0], version,
                         "a write that changes nothing must not make workers rebuild")

    def test_validation(self):
        cases = [
            ({"available": "true"}, "available"),
            ({"available": None}, "available"),
            ({"available": 1}, "available"),
            ({"refreshIntervalSeconds": 59}, "refreshIntervalSeconds"),
            ({"refreshIntervalSeconds": 86401}, "refreshIntervalSeconds"),
            ({"refreshIntervalSeconds": 900.5}, "refreshIntervalSeconds"),
            ({"refreshIntervalSeconds": "900"}, "refreshIntervalSeconds"),
            ({"tokenTtlSeconds": 0}, "tokenTtlSeconds"),
            ({"tokenTtlSeconds": 2592001}, "tokenTtlSeconds"),
            ({"minExtensionVersion": "1.0"}, "minExtensionVersion"),
            ({"minExtensionVersion": "1.0.0-beta"}, "minExtensionVersion"),
            ({"minExtensionVersion": "100000.0.0"}, "minExtensionVersion"),
            ({"minExtensionVersion": "+1.0.0"}, "minExtensionVersion"),
            ({"minExtensionVersion": ""}, "minExtensionVersion"),
            ({"minExtensionVersion": 1}, "minExtensionVersion"),
            ({"allowedClientOrigins": "https://a.example"}, "allowedClientOrigins"),
            ({"allowedClientOrigins": None}, "allowedClientOrigins"),
            ({"allowedClientOrigins": ["https://a.example%d" % i for i in range(51)]},
             "allowedClientOrigins"),
            ({"allowedClientOrigins": [1]}, "allowedClientOrigins[0]"),
            ({"allowedClientOrigins": ["https://a.example", "https://b.example/"]},
             "allowedClientOrigins[1]"),
            ({"allowedClientOrigins": ["https://a.example/path"]}, "allowedClientOrigins[0]"),
            ({"allowedClientOrigins": ["null"]}, "allowedClientOrigins[0]"),
            ({"allowedClientOrigins": ["a.example"]}, "allowedClientOrigins[0]"),
            ({"allowedClientOrigins": ["https://a.example:99999"]}, "allowedClientOrigins[0]"),
            # moz-extension://* is the only wildcard.
            ({"allowedClientOrigins": ["moz-extension://*", "chrome-extension://*"]},
             "allowedClientOrigins[1]"),
            ({"allowedClientOrigins": ["https://*"]}, "allowedClientOrigins[0]"),
            ({"allowedClientOrigins": ["moz-extension://*.x"]}, "allowedClientOrigins[0]"),
            ({"allowedClientOrigins": ["moz-extension://*:1"]}, "allowedClientOrigins[0]"),
            ({"allowedClientOrigins": ["*"]}, "allowedClientOrigins[0]"),
            ({"sessionIdleMinutes": 0}, "sessionIdleMinutes"),
            ({"sessionIdleMinutes": 1441}, "sessionIdleMinutes"),
            ({"rawEventRetentionDays": 0}, "rawEventRetentionDays"),
            ({"rawEventRetentionDays": 3651}, "rawEventRetentionDays"),
            ({"networkSyncIntervalMinutes": -1}, "networkSyncIntervalMinutes"),
            ({"networkSyncIntervalMinutes": 10081}, "networkSyncIntervalMinutes"),
            ({"tokenTtlSeconds": 172800, "rawEventRetentionDays": 1}, "rawEventRetentionDays"),
            ({"publicOrigin": "https://offers.example"}, "publicOrigin"),
            ({"unknownSetting": 1}, "unknownSetting"),
            ({"refreshIntervalSeconds": 600, "bogus": True}, "bogus"),
        ]
        before_rows = stored_settings()
        mark = self.audit_mark()
        for body, field in cases:
            with self.subTest(body=body):
                self.assertInvalid(self.admin.patch("/settings", body), field)
        self.assertEqual(stored_settings(), before_rows)
        self.assertNothingAudited(mark)
        self.assertEqual(self.answer(self.admin.get("/settings")), DEFAULTS)

    def test_ttl_may_not_outlive_retention(self):
        self.set_settings({"rawEventRetentionDays": 2})
        mark = self.audit_mark()
        # 3 days of token life would outlive 2 days of raw events: the TTL is at fault.
        self.assertInvalid(self.admin.patch("/settings", {"tokenTtlSeconds": 3 * 86400}),
                           "tokenTtlSeconds")
        self.assertNothingAudited(mark)
        self.assertEqual(stored_settings()["tokenTtlSeconds"], "86400")
        # Exactly 2 days is fine.
        self.set_settings({"tokenTtlSeconds": 2 * 86400})

    def test_body_rules(self):
        st = self.admin.request("PATCH", "/settings", '{"available": tru', )
        self.assertError(st, 400, "invalid_json")
        self.assertError(self.admin.request("PATCH", "/settings", "[]"), 400, "invalid_json")
        self.assertError(self.admin.request("PATCH", "/settings", '{"available": false}',
                                            content_type="text/plain"), 415, "unsupported_media_type")
        self.assertEqual(stored_settings()["available"], "true")

    def test_csrf_and_sign_in(self):
        self.assertCsrfRefused("PATCH", "/settings", {"available": False})
        self.assertEqual(stored_settings()["available"], "true")
        self.assertError(self.admin.get("/settings", cookie=None), 401, "not_signed_in")
        self.assertError(self.admin.patch("/settings", {"available": False}, cookie=None), 401,
                         "not_signed_in")
        self.assertEqual(stored_settings()["available"], "true")

    def test_query_parameters_and_methods(self):
        self.assertInvalid(self.admin.get("/settings?x=1"), "x")
        st, h, _ = self.admin.request("PUT", "/settings", {"available": True})
        self.assertEqual(st, 405)
        self.assertEqual(H.header_tokens(h.get("allow")), ["get", "head", "patch"])


# ---------------------------------------------------------------------------------------------
# Countries


class CountryTests(AdminCase):
    def put_countries(self, codes, status=200):
        return self.answer(self.admin.put("/countries", {"countries": codes}), status)

    def replace_selection(self, codes):
        before = selected_countries()
        self.addCleanup(lambda: (self.put_countries(before),
                                 H.wait_config(lambda c: c["countries"] == before), H.settle()))
        return self.put_countries(codes)

    def test_list_every_iso_country(self):
        doc = self.answer(self.admin.get("/countries"))
        self.assertEqual(list(doc), ["items", "total"])
        items = doc["items"]
        self.assertEqual(len(items), 249)
        self.assertEqual(doc["total"], 249)
        codes = [c["code"] for c in items]
        self.assertEqual(codes, sorted(codes))
        self.assertEqual(len(set(codes)), 249)
        for c in items:
            self.assertEqual(sorted(c), ["code", "name", "selected"])
            self.assertRegex(c["code"], r"^[A-Z]{2}$")
            self.assertTrue(c["name"])
        by_code = {c["code"]: c for c in items}
        self.assertEqual(by_code["DE"], {"code": "DE", "name": "Germany", "selected": True})
        self.assertEqual(by_code["GB"]["selected"], False)
        self.assertEqual(by_code["CI"]["name"], "C\u00f4te d'Ivoire")
        for code in ("AX", "BQ", "SS", "ZW"):
            self.assertIn(code, by_code)
        self.assertEqual([c for c in codes if by_code[c]["selected"]], H.SELECTED_COUNTRIES)

    def test_get_one(self):
        self.assertEqual(self.answer(self.admin.get("/countries/FR")),
                         {"code": "FR", "name": "France", "selected": True})
        self.assertEqual(self.answer(self.admin.get("/countries/IT"))["selected"], False)
        for code in ("XX", "de", "DEU"):
            self.assertError(self.admin.get("/countries/" + code), 404, "not_found")
        self.assertInvalid(self.admin.get("/countries?limit=10"), "limit")

    def test_put_replaces_the_selection(self):
        mark = self.audit_mark()
        doc = self.replace_selection(["US", "GB", "DE", "GB"])
        self.assertEqual(doc, self.answer(self.admin.get("/countries")))
        self.assertEqual([c["code"] for c in doc["items"] if c["selected"]], ["DE", "GB", "US"])
        self.visible(lambda: H.fetch_config()["countries"] == ["DE", "GB", "US"])
        self.assertEqual(selected_countries(), ["DE", "GB", "US"])
        self.assertAudited(mark, "countries.replace", "countries", {"countries": ["DE", "FR", "US"]},
                           {"countries": ["DE", "GB", "US"]})
        self.assertEqual(query_status(country="GB")[0], 200)
        self.assertError(H.query(country="FR"), 422, "country_not_selected", "country")

    def test_validation(self):
        cases = [
            ({"countries": ["DE", "XX"]}, "countries[1]"),
            ({"countries": ["de"]}, "countries[0]"),
            ({"countries": ["DEU"]}, "countries[0]"),
            ({"countries": ["US", 1]}, "countries[1]"),
            ({"countries": [None]}, "countries[0]"),
            ({"countries": "DE"}, "countries"),
            ({"countries": None}, "countries"),
            ({"countries": ["DE"], "selected": True}, "selected"),
        ]
        mark = self.audit_mark()
        for body, field in cases:
            with self.subTest(body=body):
                self.assertInvalid(self.admin.put("/countries", body), field)
        self.assertInvalid(self.admin.put("/countries", {}), "countries", code="missing_field")
        self.assertEqual(selected_countries(), H.SELECTED_COUNTRIES)
        self.assertNothingAudited(mark)

    def test_csrf(self):
        self.assertCsrfRefused("PUT", "/countries", {"countries": ["IT"]})
        self.assertEqual(selected_countries(), H.SELECTED_COUNTRIES)
        self.assertError(self.admin.put("/countries", {"countries": ["IT"]}, cookie=None), 401,
                         "not_signed_in")
        self.assertEqual(selected_countries(), H.SELECTED_COUNTRIES)


# ---------------------------------------------------------------------------------------------
# Categories


def category(path, name, icon="", order=0, enabled=True, effective=True, offers=0):
    return {"path": path, "name": name, "icon": icon, "displayOrder": order, "enabled": enabled,
            "effectivelyEnabled": effective, "offerCount": offers}


class CategoryTests(AdminCase):
    def create(self, body, status=201):
        resp = self.admin.post("/categories", body)
        doc = self.answer(resp, status)
        if status == 201:
            self.addCleanup(self.admin.delete, "/categories/" + body["path"])
            self.assertEqual(resp[1].get("location"), PREFIX + "/categories/" + body["path"])
        return doc

    def test_create_read_update_delete(self):
        mark = self.audit_mark()
        doc = self.create({"path": "admcat", "name": "Admin cat", "icon": "star", "displayOrder": 7})
        self.visible(lambda: "admcat" in public_category_paths())
        created = category("admcat", "Admin cat", "star", 7)
        self.assertEqual(doc, created)
        self.assertEqual(category_row("admcat"), ["admcat", "Admin cat", "star", "7", "1", "NULL"])
        self.assertAudited(mark, "category.create", "category:admcat", None, created)

        mark = self.audit_mark()
        kid = self.create({"path": "admcat.kid", "name": "Kid \u00e9 <b>", "enabled": True})
        self.assertEqual(kid, category("admcat.kid", "Kid \u00e9 <b>"))
        parent_id = H.db("SELECT id FROM categories WHERE path = 'admcat'")[0][0]
        self.assertEqual(category_row("admcat.kid")[5], parent_id)
        self.assertAudited(mark, "category.create", "category:admcat.kid", None, kid)
        self.assertEqual(self.answer(self.admin.get("/categories/admcat.kid")), kid)

        mark = self.audit_mark()
        doc = self.answer(self.admin.patch("/categories/admcat", {"enabled": False}))
        disabled = category("admcat", "Admin cat", "star", 7, enabled=False, effective=False)
        self.assertEqual(doc, disabled)
        self.assertAudited(mark, "category.update", "category:admcat", created, disabled)
        self.assertEqual(self.answer(self.admin.get("/categories/admcat.kid")),
                         category("admcat.kid", "Kid \u00e9 <b>", effective=False))

        mark = self.audit_mark()
        doc = self.answer(self.admin.patch("/categories/admcat",
                                           {"name": "Renamed", "icon": "", "displayOrder": -3,
                                            "enabled": True}))
        renamed = category("admcat", "Renamed", "", -3)
        self.assertEqual(doc, renamed)
        self.assertEqual(category_row("admcat"), ["admcat", "Renamed", "", "-3", "1", "NULL"])
        self.assertAudited(mark, "category.update", "category:admcat", disabled, renamed)

        mark = self.audit_mark()
        self.assertError(self.admin.delete("/categories/admcat"), 409, "conflict")
        self.assertIsNotNone(category_row("admcat"))
        self.assertNothingAudited(mark)

        st, _, body = self.admin.delete("/categories/admcat.kid")
        self.assertEqual((st, body), (204, b""))
        self.assertIsNone(category_row("admcat.kid"))
        self.assertAudited(mark, "category.delete", "category:admcat.kid", kid, None)
        self.assertError(self.admin.get("/categories/admcat.kid"), 404, "not_found")

        mark = self.audit_mark()
        st, _, _ = self.admin.delete("/categories/admcat")
        self.assertEqual(st, 204)
        self.visible(lambda: "admcat" not in public_category_paths())
        self.assertAudited(mark, "category.delete", "category:admcat", renamed, None)

    def test_list(self):
        paths = [r[0] for r in H.db("SELECT path FROM categories ORDER BY path")]
        doc = self.answer(self.admin.get("/categories?limit=200"))
        self.assertEqual(list(doc), ["items", "total", "limit", "offset"])
        self.assertEqual([c["path"] for c in doc["items"]], paths)
        self.assertEqual((doc["total"], doc["limit"], doc["offset"]), (len(paths), 200, 0))
        by_path = {c["path"]: c for c in doc["items"]}
        electronics_offers = int(H.db("SELECT COUNT(*) FROM offers WHERE category_id = %d"
                                      % H.CAT_ID["electronics"])[0][0])
        self.assertEqual(by_path["electronics"],
                         category("electronics", "Electronics", "plug", 10, offers=electronics_offers))
        self.assertEqual(by_path["fashion"]["name"], H.FASHION_NAME)
        self.assertEqual((by_path["electronics.tv"]["enabled"],
                          by_path["electronics.tv"]["effectivelyEnabled"]), (False, False))
        self.assertEqual((by_path["electronics.tv.oled"]["enabled"],
                          by_path["electronics.tv.oled"]["effectivelyEnabled"]), (True, False))
        self.assertEqual(by_path["garden.tools"]["effectivelyEnabled"], False)
        self.assertEqual(by_path["electronics.audio.headphones.wireless"]["effectivelyEnabled"], True)

        page = self.answer(self.admin.get("/categories?limit=3&offset=2"))
        self.assertEqual([c["path"] for c in page["items"]], paths[2:5])
        self.assertEqual((page["total"], page["limit"], page["offset"]), (len(paths), 3, 2))
        self.assertEqual(self.answer(self.admin.get("/categories"))["limit"], 50)

        off = self.answer(self.admin.get("/categories?enabled=false"))
        disabled = [r[0] for r in H.db("SELECT path FROM categories WHERE enabled = 0 ORDER BY path")]
        self.assertEqual([c["path"] for c in off["items"]], disabled)
        self.assertEqual(off["total"], len(disabled))
        self.assertIn("garden", disabled)

        for query, field in (("limit=0", "limit"), ("limit=201", "limit"), ("offset=-1", "offset"),
                             ("limit=x", "limit"), ("enabled=yes", "enabled"), ("sort=path", "sort")):
            with self.subTest(query=query):
                self.assertInvalid(self.admin.get("/categories?" + query), field)

    def test_get_one(self):
        offers = int(H.db("SELECT COUNT(*) FROM offers WHERE category_id = %d" % H.CAT_ID["books"])[0][0])
        self.assertEqual(self.answer(self.admin.get("/categories/books")),
                         category("books", "Books", "book", 10, offers=offers))
        for path in ("nosuch", "books.nosuch", "Books", "a..b", "-x"):
            with self.subTest(path=path):
                self.assertError(self.admin.get("/categories/" + path), 404, "not_found")

    def test_create_validation(self):
        long_segment = "a" * 33
        cases = [
            ({"name": "No path"}, "path", "missing_field"),
            ({"path": 5, "name": "x"}, "path", "invalid_field"),
            ({"path": "Bad", "name": "x"}, "path", "invalid_field"),
            ({"path": "a..b", "name": "x"}, "path", "invalid_field"),
            ({"path": "books.", "name": "x"}, "path", "invalid_field"),
            ({"path": "-books", "name": "x"}, "path", "invalid_field"),
            ({"path": "books.a_b", "name": "x"}, "path", "invalid_field"),
            ({"path": long_segment, "name": "x"}, "path", "invalid_field"),
            ({"path": "electronics.audio.headphones.wireless.more", "name": "x"}, "path",
             "invalid_field"),
            ({"path": "nosuchparent.kid", "name": "x"}, "path", "invalid_field"),
            ({"path": "admnew"}, "name", "missing_field"),
            ({"path": "admnew", "name": ""}, "name", "invalid_field"),
            ({"path": "admnew", "name": "n" * 101}, "name", "invalid_field"),
            ({"path": "admnew", "name": None}, "name", "invalid_field"),
            ({"path": "admnew", "name": "x", "icon": "i" * 65}, "icon", "invalid_field"),
            ({"path": "admnew", "name": "x", "icon": 3}, "icon", "invalid_field"),
            ({"path": "admnew", "name": "x", "displayOrder": 1.5}, "displayOrder", "invalid_field"),
            ({"path": "admnew", "name": "x", "displayOrder": "1"}, "displayOrder", "invalid_field"),
            ({"path": "admnew", "name": "x", "displayOrder": 2 ** 31}, "displayOrder",
             "invalid_field"),
            ({"path": "admnew", "name": "x", "enabled": "yes"}, "enabled", "invalid_field"),
            ({"path": "admnew", "name": "x", "parent": "books"}, "parent", "invalid_field"),
            ({"path": "admnew", "name": "x", "effectivelyEnabled": True}, "effectivelyEnabled",
             "invalid_field"),
        ]
        count = H.db("SELECT COUNT(*) FROM categories")[0][0]
        mark = self.audit_mark()
        for body, field, code in cases:
            with self.subTest(body=body):
                self.assertError(self.admin.post("/categories", body), 400, code, field)
        err = self.assertError(self.admin.post("/categories", {"path": "nosuchparent.kid", "name": "x"}),
                               400, "invalid_field", "path")
        self.assertIn("nosuchparent", err["message"])
        self.assertError(self.admin.post("/categories", {"path": "books", "name": "Again"}), 409,
                         "conflict")
        self.assertError(self.admin.post("/categories", {"path": "electronics.audio", "name": "x"}),
                         409, "conflict")
        self.assertEqual(H.db("SELECT COUNT(*) FROM categories")[0][0], count)
        self.assertEqual(category_row("books")[1], "Books")
        self.assertNothingAudited(mark)
        # The longest path the rule allows: 4 segments of 32 characters.
        seg = "b" * 32
        for depth in range(1, 5):
            path = ".".join([seg] * depth)
            self.assertEqual(self.create({"path": path, "name": "Deep %d" % depth})["path"], path)

    def test_update_validation(self):
        cases = [
            ({"name": ""}, "name"),
            ({"name": None}, "name"),
            ({"icon": "i" * 65}, "icon"),
            ({"displayOrder": "1"}, "displayOrder"),
            ({"enabled": None}, "enabled"),
            ({"enabled": 0}, "enabled"),
            ({"path": "books2"}, "path"),
            ({"offerCount": 1}, "offerCount"),
            ({"name": "Fine", "colour": "red"}, "colour"),
        ]
        before = self.answer(self.admin.get("/categories/books"))
        mark = self.audit_mark()
        for body, field in cases:
            with self.subTest(body=body):
                self.assertInvalid(self.admin.patch("/categories/books", body), field)
        for path in ("nosuch", "books.nosuch", "Books"):
            self.assertError(self.admin.patch("/categories/" + path, {"name": "x"}), 404, "not_found")
            self.assertError(self.admin.delete("/categories/" + path), 404, "not_found")
        self.assertEqual(self.answer(self.admin.get("/categories/books")), before)
        self.assertNothingAudited(mark)

    def test_delete_refused_while_it_holds_offers(self):
        mark = self.audit_mark()
        err = self.assertError(self.admin.delete("/categories/books"), 409, "conflict")
        self.assertIn("offers", err["message"])
        err = self.assertError(self.admin.delete("/categories/garden"), 409, "conflict")
        self.assertIn("subcategories", err["message"])
        self.assertIsNotNone(category_row("books"))
        self.assertIsNotNone(category_row("garden"))
        self.assertNothingAudited(mark)

    def test_csrf(self):
        self.assertCsrfRefused("POST", "/categories", {"path": "admcsrf", "name": "x"})
        self.assertIsNone(category_row("admcsrf"))
        self.assertCsrfRefused("PATCH", "/categories/books", {"name": "Hacked"})
        self.assertEqual(category_row("books")[1], "Books")
        self.create({"path": "admcsrf2", "name": "Kept"})
        self.assertCsrfRefused("DELETE", "/categories/admcsrf2")
        self.assertIsNotNone(category_row("admcsrf2"))


# ---------------------------------------------------------------------------------------------
# Placements


class PlacementTests(AdminCase):
    def create(self, body, status=201):
        resp = self.admin.post("/placements", body)
        doc = self.answer(resp, status)
        self.addCleanup(self.admin.delete, "/placements/" + body["name"])
        self.assertEqual(resp[1].get("location"), PREFIX + "/placements/" + body["name"])
        return doc

    def test_create_read_update_delete(self):
        mark = self.audit_mark()
        doc = self.create({"name": "adm_slot-1", "maxOffers": 4})
        created = {"name": "adm_slot-1", "maxOffers": 4, "enabled": True}
        self.assertEqual(doc, created)
        self.assertEqual(placement_row("adm_slot-1"), ["adm_slot-1", "4", "1"])
        self.visible(lambda: {"name": "adm_slot-1", "maxOffers": 4} in H.fetch_config()["placements"])
        self.assertAudited(mark, "placement.create", "placement:adm_slot-1", None, created)
        self.assertEqual(self.answer(self.admin.get("/placements/adm_slot-1")), created)
        self.assertEqual(len(H.query_offers(placement="adm_slot-1", category="bulk", limit=20)), 4)

        mark = self.audit_mark()
        doc = self.answer(self.admin.patch("/placements/adm_slot-1", {"maxOffers": 2}))
        smaller = {"name": "adm_slot-1", "maxOffers": 2, "enabled": True}
        self.assertEqual(doc, smaller)
        self.visible(lambda: len(H.query_offers(placement="adm_slot-1", category="bulk", limit=20)) == 2)
        self.assertAudited(mark, "placement.update", "placement:adm_slot-1", created, smaller)

        mark = self.audit_mark()
        doc = self.answer(self.admin.patch("/placements/adm_slot-1", {"enabled": False}))
        off = {"name": "adm_slot-1", "maxOffers": 2, "enabled": False}
        self.assertEqual(doc, off)
        self.visible(lambda: H.query(placement="adm_slot-1")[0] == 422)
        self.assertEqual(placement_row("adm_slot-1"), ["adm_slot-1", "2", "0"])
        self.assertAudited(mark, "placement.update", "placement:adm_slot-1", smaller, off)
        self.assertError(H.query(placement="adm_slot-1"), 422, "placement_unknown", "placement")

        mark = self.audit_mark()
        st, _, body = self.admin.delete("/placements/adm_slot-1")
        self.assertEqual((st, body), (204, b""))
        self.assertIsNone(placement_row("adm_slot-1"))
        self.assertAudited(mark, "placement.delete", "placement:adm_slot-1", off, None)
        self.assertError(self.admin.get("/placements/adm_slot-1"), 404, "not_found")
        self.assertError(self.admin.delete("/placements/adm_slot-1"), 404, "not_found")

    def test_list_and_get(self):
        names = [r[0] for r in H.db("SELECT name FROM placements ORDER BY name")]
        doc = self.answer(self.admin.get("/placements"))
        self.assertEqual([p["name"] for p in doc["items"]], names)
        self.assertEqual((doc["total"], doc["limit"], doc["offset"]), (len(names), 50, 0))
        by_name = {p["name"]: p for p in doc["items"]}
        self.assertEqual(by_name["sidebar"], {"name": "sidebar", "maxOffers": 3, "enabled": True})
        self.assertEqual(by_name["banner-off"], {"name": "banner-off", "maxOffers": 5, "enabled": False})
        off = self.answer(self.admin.get("/placements?enabled=false&limit=10"))
        self.assertEqual(off["items"], [by_name["banner-off"]])
        page = self.answer(self.admin.get("/placements?limit=1&offset=1"))
        self.assertEqual(page["items"], [by_name[names[1]]])
        self.assertEqual(self.answer(self.admin.get("/placements/wide")),
                         {"name": "wide", "maxOffers": 20, "enabled": True})
        for name in ("nosuch", "Wide", "-x"):
            self.assertError(self.admin.get("/placements/" + name), 404, "not_found")
        self.assertInvalid(self.admin.get("/placements?enabled=1"), "enabled")
        self.assertInvalid(self.admin.get("/placements/wide?x=1"), "x")

    def test_create_validation(self):
        cases = [
            ({"maxOffers": 3}, "name", "missing_field"),
            ({"name": "Bad", "maxOffers": 3}, "name", "invalid_field"),
            ({"name": "", "maxOffers": 3}, "name", "invalid_field"),
            ({"name": "-x", "maxOffers": 3}, "name", "invalid_field"),
            ({"name": "a" * 65, "maxOffers": 3}, "name", "invalid_field"),
            ({"name": 7, "maxOffers": 3}, "name", "invalid_field"),
            ({"name": "admnew"}, "maxOffers", "missing_field"),
            ({"name": "admnew", "maxOffers": 0}, "maxOffers", "invalid_field"),
            ({"name": "admnew", "maxOffers": 21}, "maxOffers", "invalid_field"),
            ({"name": "admnew", "maxOffers": "3"}, "maxOffers", "invalid_field"),
            ({"name": "admnew", "maxOffers": 2.5}, "maxOffers", "invalid_field"),
            ({"name": "admnew", "maxOffers": 3, "enabled": "no"}, "enabled", "invalid_field"),
            ({"name": "admnew", "maxOffers": 3, "priority": 1}, "priority", "invalid_field"),
        ]
        count = H.db("SELECT COUNT(*) FROM placements")[0][0]
        mark = self.audit_mark()
        for body, field, code in cases:
            with self.subTest(body=body):
                self.assertError(self.admin.post("/placements", body), 400, code, field)
        self.assertError(self.admin.post("/placements", {"name": "sidebar", "maxOffers": 9}), 409,
                         "conflict")
        self.assertEqual(placement_row("sidebar"), ["sidebar", "3", "1"])
        self.assertEqual(H.db("SELECT COUNT(*) FROM placements")[0][0], count)
        self.assertNothingAudited(mark)
        self.assertEqual(self.create({"name": "a" * 64, "maxOffers": 20, "enabled": False}),
                         {"name": "a" * 64, "maxOffers": 20, "enabled": False})

    def test_update_validation(self):
        cases = [
            ({"maxOffers": 0}, "maxOffers"),
            ({"maxOffers": 21}, "maxOffers"),
            ({"maxOffers": None}, "maxOffers"),
            ({"enabled": "true"}, "enabled"),
            ({"name": "other"}, "name"),
            ({"maxOffers": 3, "extra": 1}, "extra"),
        ]
        mark = self.audit_mark()
        for body, field in cases:
            with self.subTest(body=body):
                self.assertInvalid(self.admin.patch("/placements/sidebar", body), field)
        self.assertError(self.admin.patch("/placements/nosuch", {"maxOffers": 3}), 404, "not_found")
        self.assertEqual(placement_row("sidebar"), ["sidebar", "3", "1"])
        self.assertNothingAudited(mark)

    def test_csrf(self):
        self.assertCsrfRefused("POST", "/placements", {"name": "admcsrf", "maxOffers": 3})
        self.assertIsNone(placement_row("admcsrf"))
        self.assertCsrfRefused("PATCH", "/placements/sidebar", {"maxOffers": 9})
        self.assertCsrfRefused("DELETE", "/placements/sidebar")
        self.assertEqual(placement_row("sidebar"), ["sidebar", "3", "1"])


# ---------------------------------------------------------------------------------------------
# What the public API shows after an admin change (within a second)


class PublicEffectTests(AdminCase):
    def test_disabled_parent_category_hides_its_subtree(self):
        self.admin.ok("POST", "/categories", {"path": "admpub", "name": "Pub"}, status=201)
        self.addCleanup(self.admin.delete, "/categories/admpub")
        self.admin.ok("POST", "/categories", {"path": "admpub.kid", "name": "Kid"}, status=201)
        self.addCleanup(self.admin.delete, "/categories/admpub.kid")
        self.visible(lambda: "admpub.kid" in public_category_paths())
        self.assertEqual(query_status(category="admpub.kid")[0], 200)

        self.admin.ok("PATCH", "/categories/admpub", {"enabled": False})
        self.visible(lambda: query_status(category="admpub.kid")[0] == 422)
        self.assertError(H.query(category="admpub.kid"), 422, "category_not_selected", "category")
        self.assertError(H.query(category="admpub"), 422, "category_not_selected", "category")
        paths = public_category_paths()
        self.assertNotIn("admpub", paths)
        self.assertNotIn("admpub.kid", paths)

        self.admin.ok("PATCH", "/categories/admpub", {"enabled": True})
        self.visible(lambda: query_status(category="admpub.kid")[0] == 200)

    def test_deselected_country(self):
        self.admin.ok("PUT", "/countries", {"countries": ["DE", "US"]})
        self.addCleanup(lambda: (self.admin.ok("PUT", "/countries", {"countries": H.SELECTED_COUNTRIES}),
                                 H.wait_config(lambda c: c["countries"] == H.SELECTED_COUNTRIES),
                                 H.settle()))
        self.visible(lambda: query_status(country="FR")[0] == 422)
        self.assertError(H.query(country="FR"), 422, "country_not_selected", "country")
        self.assertEqual(H.fetch_config()["countries"], ["DE", "US"])

    def test_service_switched_off(self):
        self.set_settings({"available": False})
        self.visible(lambda: query_status()[0] == 503)
        st, h, b = H.query()
        self.assertError((st, h, b), 503, "service_unavailable")
        self.assertTrue(h.get("retry-after", "").isdigit(), h)
        self.assertIs(H.fetch_config()["available"], False)
        self.patch_settings({"available": True})
        self.visible(lambda: query_status()[0] == 200)

    def test_min_extension_version_compares_numerically(self):
        self.set_settings({"minExtensionVersion": "1.10.0"})
        self.visible(lambda: query_status(extensionVersion="1.9.0")[0] == 426)
        self.assertError(H.query(extensionVersion="1.9.0"), 426, "extension_outdated")
        self.assertEqual(query_status(extensionVersion="1.10.0")[0], 200)
        self.assertEqual(query_status(extensionVersion="1.10.1")[0], 200)
        self.assertEqual(H.fetch_config()["minExtensionVersion"], "1.10.0")

    def test_allowed_client_origins(self):
        self.set_settings({"allowedClientOrigins": [EXTENSION_ORIGIN]})

        def refused():
            st, _, _ = H.http("GET", "/api/v1/config", headers={"Origin": "https://other.example"})
            return st == 403
        self.visible(refused)
        st, h, b = H.http("GET", "/api/v1/config", headers={"Origin": EXTENSION_ORIGIN})
        self.assertEqual(st, 200)
        self.assertEqual(h.get("access-control-allow-origin"), EXTENSION_ORIGIN)
        self.assertError(H.query(headers={"Origin": "https://other.example"}), 403, "origin_not_allowed")
        st, h, _ = H.query(headers={"Origin": EXTENSION_ORIGIN})
        self.assertEqual((st, h.get("access-control-allow-origin")), (200, EXTENSION_ORIGIN))
        # The admin API is not a public endpoint: its own origin still works.
        self.assertEqual(self.admin.get("/settings")[0], 200)

    def test_lowered_token_ttl_expires_older_tokens(self):
        def expired_at_120s():
            token = H.mint_token(H.IMPRESSION, 1311, issued_at=time.time() - 120)
            return H.impression(token)[0] == 410
        self.assertFalse(expired_at_120s())
        self.set_settings({"tokenTtlSeconds": 60})
        self.visible(expired_at_120s)
        self.assertError(H.impression(H.mint_token(H.IMPRESSION, 1311, issued_at=time.time() - 120)),
                         410, "token_expired")
        st, _, b = H.impression(H.mint_token(H.IMPRESSION, 1311, issued_at=time.time() - 10))
        self.assertEqual((st, json.loads(b)), (200, {"status": "recorded"}))
