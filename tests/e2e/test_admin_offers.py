"""Contract 6 / 6.1: the admin API's offers (list, filters, create, update, overrides on imported
offers, effect on the public API within a second) and the audit log (filters, pagination,
before/after, no secrets).

Each class signs in once and works in categories of its own (made with SQL, removed with its
offers afterwards); the fixture offer 1001 (admitad) is patched with values it already has and
restored."""

import calendar
import json
import os
import re
import secrets
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness as H  # noqa: E402
from admin_client import ADMIN_EMAIL, PREFIX, AdminClient, admin_password, new_approved_account  # noqa: E402

OFFER_KEYS = ["id", "title", "description", "merchant", "imageUrl", "category", "couponCode",
              "validUntil", "isDemo", "network", "externalId", "trackingUrl", "countries",
              "allCountries",
              "priority", "enabled", "validFrom", "createdAt", "updatedAt", "overrides"]
AUDIT_KEYS = ["id", "at", "account", "action", "resource", "before", "after"]
TIME_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
HOSTILE = "50% off_now \\ ' \" <script>alert(1)</script> & ; DROP TABLE offers; -- \u00c4"


def rfc3339(unix):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(unix))


def day(unix):
    return time.strftime("%Y-%m-%d", time.gmtime(unix))


def unix_of(text):
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


def ids_of(items):
    return [o["id"] for o in items]


class AdminCase(H.E2ETestCase):
    """Signs in once; makes its own categories (SQL): ROOT, ROOT.sub, OFF (disabled) and
    OFF.child (enabled under a disabled parent). Offers made here are removed afterwards."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.c = AdminClient.signed_in()
        tag = secrets.token_hex(3)
        cls.ROOT = "t-ao-" + tag
        cls.SUB = cls.ROOT + ".sub"
        cls.OFF = "t-ao-" + tag + "-off"
        cls.OFF_CHILD = cls.OFF + ".child"
        cls.META = cls.ROOT + ".meta"
        cls.created = []
        H.db("INSERT INTO categories (path, name, enabled) VALUES (%s, 'Admin offers', 1), "
             "(%s, 'Admin offers off', 0)" % (H.sql_str(cls.ROOT), H.sql_str(cls.OFF)))
        H.db("INSERT INTO categories (path, parent_id, name, enabled) "
             "SELECT %s, id, 'Sub', 1 FROM categories WHERE path = %s" % (H.sql_str(cls.SUB), H.sql_str(cls.ROOT)))
        H.db("INSERT INTO categories (path, parent_id, name, enabled) "
             "SELECT %s, id, 'Child', 1 FROM categories WHERE path = %s"
             % (H.sql_str(cls.OFF_CHILD), H.sql_str(cls.OFF)))
        H.db("INSERT INTO categories (path, parent_id, name, enabled) "
             "SELECT %s, id, 'Meta', 1 FROM categories WHERE path = %s" % (H.sql_str(cls.META), H.sql_str(cls.ROOT)))
        H.bump()

    @classmethod
    def tearDownClass(cls):
        paths = ", ".join(H.sql_str(p) for p in (cls.ROOT, cls.SUB, cls.META, cls.OFF, cls.OFF_CHILD))
        cats = "SELECT id FROM categories WHERE path IN (%s)" % paths
        offers = "SELECT id FROM offers WHERE category_id IN (%s)" % cats
        H.db("DELETE FROM impressions WHERE offer_id IN (%s)" % offers)
        H.db("DELETE FROM clicks WHERE offer_id IN (%s)" % offers)
        H.db("DELETE FROM offers WHERE category_id IN (%s)" % cats)
        H.db("DELETE FROM categories WHERE path IN (%s, %s, %s)"
             % (H.sql_str(cls.SUB), H.sql_str(cls.META), H.sql_str(cls.OFF_CHILD)))
        H.db("DELETE FROM categories WHERE path IN (%s, %s)" % (H.sql_str(cls.ROOT), H.sql_str(cls.OFF)))
        H.bump()
        H.settle()

    # -- helpers
    @classmethod
    def create(cls, **fields):
        body = {"title": "Default offer", "category": cls.ROOT, "countries": ["US"],
                "trackingUrl": "https://merchant.example/t/" + secrets.token_hex(3)}
        if fields.get("isDemo"):
            body.pop("trackingUrl")
        body.update(fields)
        body = {k: v for k, v in body.items() if v is not H.MISSING}
        doc = cls.c.ok("POST", "/offers", body, status=201)
        cls.created.append(doc["id"])
        return doc

    @classmethod
    def insert_imported(cls, network="awin", category=None, countries=("US",), **cols):
        ext = "t-ao-" + secrets.token_hex(4)
        H.db("INSERT INTO offers (network, external_id, title, category_id, tracking_url) "
             "SELECT %s, %s, %s, id, 'https://www.awin1.example/cread.php?x=1' FROM categories "
             "WHERE path = %s" % (H.sql_str(network), H.sql_str(ext), H.sql_str("Imported " + ext),
                                   H.sql_str(category or cls.ROOT)))
        oid = H.db("SELECT id FROM offers WHERE network=%s AND external_id=%s"
                   % (H.sql_str(network), H.sql_str(ext)))[0][0]
        for code in countries:
            H.db("INSERT INTO offer_countries (offer_id, country_code) VALUES (%s, %s)" % (oid, H.sql_str(code)))
        H.bump()
        return oid

    def get(self, path, status=200):
        st, h, doc = self.c.get(path)
        self.assertEqual(st, status, "GET %s: %r" % (path, doc))
        self.assertEqual(h.get("content-type"), H.JSON_CT)
        self.assertEqual(h.get("cache-control"), "no-store")
        return doc

    def offer(self, oid):
        return self.get("/offers/%s" % oid)

    def list(self, query):
        return self.get("/offers?" + query)

    def assertApiError(self, resp, status, code, field=H.ANY_FIELD):
        st, h, doc = resp
        self.assertEqual(st, status, "body=%r" % (doc,))
        self.assertEqual(h.get("content-type"), H.JSON_CT)
        raw = json.dumps(doc).encode()
        return self.assertError((st, h, raw), status, code, field)

    def audit_of(self, resource):
        return self.get("/audit?resource=" + resource)["items"]

    def offer_count(self):
        return int(H.db("SELECT COUNT(*) FROM offers")[0][0])


# ----------------------------------------------------------------------------------------------


class OfferWriteTests(AdminCase):

    def assertOfferShape(self, doc):
        self.assertEqual(list(doc.keys()), OFFER_KEYS)
        self.assertRegex(doc["id"], r"^[1-9]\d*$")
        self.assertRegex(doc["createdAt"], TIME_RE)
        self.assertRegex(doc["updatedAt"], TIME_RE)

    def test_create_manual_offer_exact(self):
        body = {"title": "Lamp 20% off", "description": "A lamp\nwith two lines", "merchant": "Lumen",
                "imageUrl": "https://cdn.example/lamp.png", "couponCode": "LAMP20", "category": self.SUB,
                "countries": ["US", "GB", "US", "DE"], "priority": 17, "enabled": True,
                "validFrom": "2026-01-01T00:00:00Z", "validUntil": "2031-06-30T14:00:00.750+02:00",
                "trackingUrl": "https://merchant.example/lamp?a=1&b=2"}
        before = self.offer_count()
        st, h, doc = self.c.post("/offers", body)
        self.assertEqual(st, 201, doc)
        self.created.append(doc["id"])
        self.assertEqual(h.get("content-type"), H.JSON_CT)
        self.assertEqual(h.get("location"), PREFIX + "/offers/" + doc["id"])
        self.assertOfferShape(doc)
        expected = {"id": doc["id"], "title": "Lamp 20% off", "description": "A lamp\nwith two lines",
                    "merchant": "Lumen", "imageUrl": "https://cdn.example/lamp.png", "category": self.SUB,
                    "couponCode": "LAMP20", "validUntil": "2031-06-30T12:00:00Z", "isDemo": False,
                    "network": "manual", "externalId": None,
                    "trackingUrl": "https://merchant.example/lamp?a=1&b=2", "countries": ["DE", "GB", "US"],
                    "allCountries": False, "priority": 17, "enabled": True, "validFrom": "2026-01-01T00:00:00Z",
                    "createdAt": doc["createdAt"], "updatedAt": doc["createdAt"], "overrides": []}
        self.assertEqual(doc, expected)
        self.assertLess(abs(unix_of(doc["createdAt"]) - time.time()), 120)
        self.assertEqual(self.offer(doc["id"]), expected)
        self.assertEqual(self.offer_count(), before + 1)
        row = H.db("SELECT network, external_id IS NULL, tracking_url, is_demo, valid_until FROM offers "
                   "WHERE id=%s" % doc["id"])
        self.assertEqual(row, [["manual", "1", "https://merchant.example/lamp?a=1&b=2", "0",
                                "2031-06-30 12:00:00"]])
        audit = self.audit_of("offer:" + doc["id"])
        self.assertEqual(len(audit), 1)
        self.assertEqual(audit[0]["action"], "offer.create")
        self.assertEqual(audit[0]["account"], {"id": self.c.account["id"], "email": ADMIN_EMAIL})
        self.assertIsNone(audit[0]["before"])
        self.assertEqual(audit[0]["after"], expected)

    def test_create_demonstration_offer_exact(self):
        st, h, doc = self.c.post("/offers", {"title": "Demo", "category": self.ROOT, "isDemo": True})
        self.assertEqual(st, 201, doc)
        self.created.append(doc["id"])
        self.assertEqual(h.get("location"), PREFIX + "/offers/" + doc["id"])
        self.assertOfferShape(doc)
        self.assertEqual(doc, {
            "id": doc["id"], "title": "Demo", "description": None, "merchant": None, "imageUrl": None,
            "category": self.ROOT, "couponCode": None, "validUntil": None, "isDemo": True,
            "network": "manual", "externalId": None, "trackingUrl": None, "countries": [],
            "allCountries": False, "priority": 0,
            "enabled": True, "validFrom": None, "createdAt": doc["createdAt"], "updatedAt": doc["createdAt"],
            "overrides": []})
        # null optional fields and an explicit null trackingUrl are accepted for a demonstration
        doc2 = self.create(isDemo=True, trackingUrl=None, description=None, merchant=None, imageUrl=None,
                           couponCode=None, validFrom=None, validUntil=None, countries=[])
        self.assertIsNone(doc2["trackingUrl"])
        self.assertTrue(doc2["isDemo"])

    def test_limits_accepted(self):
        doc = self.create(title="t" * 200, description="d" * 2000, merchant="m" * 200, couponCode="c" * 64,
                          imageUrl="http://cdn.example/" + "i" * 2000, priority=-1000, enabled=False,
                          trackingUrl="HTTP://Merchant.Example:8080/" + "p" * 1900)
        self.assertEqual((len(doc["title"]), len(doc["description"]), len(doc["merchant"]),
                          len(doc["couponCode"])), (200, 2000, 200, 64))
        self.assertEqual(doc["priority"], -1000)
        self.assertFalse(doc["enabled"])
        self.assertEqual(self.create(priority=1000, title="\u00c4" * 200)["priority"], 1000)

    def test_create_validation_errors(self):
        base = {"title": "Valid", "category": self.ROOT, "countries": ["US"],
                "trackingUrl": "https://merchant.example/v"}
        long_url = "https://merchant.example/" + "x" * 2030
        cases = [
            ({"title": H.MISSING}, "missing_field", "title"),
            ({"title": ""}, "invalid_field", "title"),
            ({"title": "t" * 201}, "invalid_field", "title"),
            ({"title": 5}, "invalid_field", "title"),
            ({"title": None}, "invalid_field", "title"),
            ({"description": "d" * 2001}, "invalid_field", "description"),
            ({"description": 7}, "invalid_field", "description"),
            ({"merchant": "m" * 201}, "invalid_field", "merchant"),
            ({"merchant": ["x"]}, "invalid_field", "merchant"),
            ({"imageUrl": "ftp://cdn.example/a.png"}, "invalid_field", "imageUrl"),
            ({"imageUrl": "javascript:alert(1)"}, "invalid_field", "imageUrl"),
            ({"imageUrl": "https://"}, "invalid_field", "imageUrl"),
            ({"imageUrl": "https://cdn example/a.png"}, "invalid_field", "imageUrl"),
            ({"imageUrl": "cdn.example/a.png"}, "invalid_field", "imageUrl"),
            ({"imageUrl": long_url}, "invalid_field", "imageUrl"),
            ({"couponCode": "c" * 65}, "invalid_field", "couponCode"),
            ({"category": H.MISSING}, "missing_field", "category"),
            ({"category": "Not A Path"}, "invalid_field", "category"),
            ({"category": "no-such-category-" + secrets.token_hex(3)}, "invalid_field", "category"),
            ({"category": None}, "invalid_field", "category"),
            ({"countries": "US"}, "invalid_field", "countries"),
            ({"countries": ["us"]}, "invalid_field", "countries[0]"),
            ({"countries": ["US", "ZZ"]}, "invalid_field", "countries[1]"),
            ({"countries": ["US", "DE", 5]}, "invalid_field", "countries[2]"),
            ({"priority": 1001}, "invalid_field", "priority"),
            ({"priority": -1001}, "invalid_field", "priority"),
            ({"priority": 1.5}, "invalid_field", "priority"),
            ({"priority": "3"}, "invalid_field", "priority"),
            ({"enabled": "yes"}, "invalid_field", "enabled"),
            ({"isDemo": "true"}, "invalid_field", "isDemo"),
            ({"trackingUrl": H.MISSING}, "missing_field", "trackingUrl"),
            ({"trackingUrl": None}, "invalid_field", "trackingUrl"),
            ({"trackingUrl": "ftp://merchant.example/"}, "invalid_field", "trackingUrl"),
            ({"trackingUrl": "javascript:alert(1)"}, "invalid_field", "trackingUrl"),
            ({"trackingUrl": "http://"}, "invalid_field", "trackingUrl"),
            ({"trackingUrl": "https:///path"}, "invalid_field", "trackingUrl"),
            ({"trackingUrl": "https://m.example:99999/"}, "invalid_field", "trackingUrl"),
            ({"trackingUrl": "https://m.example/a\r\nSet-Cookie: x=1"}, "invalid_field", "trackingUrl"),
            ({"trackingUrl": long_url}, "invalid_field", "trackingUrl"),
            # One URL policy with the importer: user information would send the click elsewhere.
            ({"trackingUrl": "https://shop.example@evil.example/"}, "invalid_field", "trackingUrl"),
            ({"trackingUrl": "https://user:pw@shop.example/"}, "invalid_field", "trackingUrl"),
            ({"imageUrl": "https://cdn.example@evil.example/a.png"}, "invalid_field", "imageUrl"),
            ({"isDemo": True}, "invalid_field", "trackingUrl"),
            ({"validFrom": "tomorrow"}, "invalid_field", "validFrom"),
            ({"validFrom": 1700000000}, "invalid_field", "validFrom"),
            ({"validUntil": "2026-13-01T00:00:00Z"}, "invalid_field", "validUntil"),
            ({"validFrom": "2030-01-01T00:00:00Z", "validUntil": "2029-12-31T23:59:59Z"}, "invalid_field",
             "validUntil"),
            ({"validFrom": "2030-01-01T00:00:00Z", "validUntil": "2030-01-01T00:00:00Z"}, "invalid_field",
             "validUntil"),
            ({"network": "admitad"}, "invalid_field", "network"),
            ({"externalId": "x"}, "invalid_field", "externalId"),
            ({"clickUrl": "/r/click/1"}, "invalid_field", "clickUrl"),
            ({"id": "5"}, "invalid_field", "id"),
        ]
        before = self.offer_count()
        audit_before = H.db("SELECT COUNT(*) FROM audit_log")[0][0]
        for change, code, field in cases:
            body = dict(base)
            body.update(change)
            body = {k: v for k, v in body.items() if v is not H.MISSING}
            with self.subTest(change=change):
                self.assertApiError(self.c.post("/offers", body), 400, code, field)
        self.assertApiError(self.c.post("/offers", "{not json"), 400, "invalid_json")
        self.assertApiError(self.c.post("/offers", "[1]"), 400, "invalid_json")
        self.assertApiError(self.c.request("POST", "/offers", json.dumps(base), content_type="text/plain"),
                            415, "unsupported_media_type")
        self.assertApiError(self.c.post("/offers", base, origin=None), 403, "csrf_check_failed")
        self.assertApiError(self.c.post("/offers", base, mark=None), 403, "csrf_check_failed")
        self.assertApiError(self.c.post("/offers", base, cookie=None), 401, "not_signed_in")
        self.assertEqual(self.offer_count(), before, "a refused write created an offer")
        self.assertEqual(H.db("SELECT COUNT(*) FROM audit_log")[0][0], audit_before)

    def test_patch_every_field(self):
        doc = self.create(priority=1)
        H.db("UPDATE offers SET created_at = created_at - INTERVAL 1 DAY, "
             "updated_at = updated_at - INTERVAL 1 DAY WHERE id=%s" % doc["id"])
        old = self.offer(doc["id"])
        patch = {"enabled": False, "priority": -5, "validFrom": "2026-02-01T10:00:00Z",
                 "validUntil": "2045-01-01T00:00:00Z", "category": self.SUB, "countries": ["US", "GB", "US"],
                 "isDemo": False}
        st, _, new = self.c.patch("/offers/" + doc["id"], patch)
        self.assertEqual(st, 200, new)
        expected = dict(old, enabled=False, priority=-5, validFrom="2026-02-01T10:00:00Z",
                        validUntil="2045-01-01T00:00:00Z", category=self.SUB, countries=["GB", "US"],
                        updatedAt=new["updatedAt"])
        self.assertEqual(new, expected)
        self.assertGreater(unix_of(new["updatedAt"]), unix_of(old["updatedAt"]) + 3600)
        self.assertEqual(new["createdAt"], old["createdAt"])
        self.assertEqual(self.offer(doc["id"]), expected)
        self.assertEqual(H.db("SELECT country_code FROM offer_countries WHERE offer_id=%s ORDER BY 1" % doc["id"]),
                         [["GB"], ["US"]])
        # open the window again, empty the countries
        st, _, new2 = self.c.patch("/offers/" + doc["id"], {"validFrom": None, "validUntil": None,
                                                             "countries": []})
        self.assertEqual(st, 200, new2)
        self.assertEqual((new2["validFrom"], new2["validUntil"], new2["countries"]), (None, None, []))
        self.assertEqual(new2["overrides"], [], "a manual offer has no overrides")
        audit = self.audit_of("offer:" + doc["id"])
        self.assertEqual([a["action"] for a in audit], ["offer.update", "offer.update", "offer.create"])
        self.assertEqual(audit[1]["before"], old)
        self.assertEqual(audit[1]["after"], expected)
        self.assertEqual(audit[0]["before"], expected)
        self.assertEqual(audit[0]["after"], new2)
        # an empty PATCH changes nothing and writes no audit row
        st, _, same = self.c.patch("/offers/" + doc["id"], {})
        self.assertEqual((st, same), (200, new2))
        self.assertEqual(len(self.audit_of("offer:" + doc["id"])), 3)

    def test_patch_validation_errors_change_nothing(self):
        doc = self.create(validFrom="2026-01-01T00:00:00Z", validUntil="2040-01-01T00:00:00Z")
        demo = self.create(isDemo=True)
        cases = [
            (doc, {"title": "new"}, 400, "invalid_field", "title"),
            (doc, {"trackingUrl": "https://x.example/"}, 400, "invalid_field", "trackingUrl"),
            (doc, {"enabled": 1}, 400, "invalid_field", "enabled"),
            (doc, {"priority": 2000}, 400, "invalid_field", "priority"),
            (doc, {"priority": None}, 400, "invalid_field", "priority"),
            (doc, {"validFrom": "2026-01-01"}, 400, "invalid_field", "validFrom"),
            (doc, {"validUntil": "2025-12-31T00:00:00Z"}, 400, "invalid_field", "validUntil"),
            (doc, {"validFrom": "2040-01-01T00:00:00Z"}, 400, "invalid_field", "validFrom"),
            (doc, {"validFrom": "2041-01-01T00:00:00Z", "validUntil": "2040-06-01T00:00:00Z"}, 400,
             "invalid_field", "validUntil"),
            (doc, {"category": "no-such-" + secrets.token_hex(3)}, 400, "invalid_field", "category"),
            (doc, {"category": "UPPER"}, 400, "invalid_field", "category"),
            (doc, {"countries": ["US", "XX"]}, 400, "invalid_field", "countries[1]"),
            (doc, {"countries": None}, 400, "invalid_field", "countries"),
            (doc, {"isDemo": True}, 409, "conflict", "isDemo"),
            (demo, {"isDemo": False}, 409, "conflict", "isDemo"),
            (doc, {"priority": 3, "isDemo": True}, 409, "conflict", "isDemo"),
        ]
        audit_before = H.db("SELECT COUNT(*) FROM audit_log")[0][0]
        for target, body, status, code, field in cases:
            before = self.offer(target["id"])
            with self.subTest(body=body):
                self.assertApiError(self.c.patch("/offers/" + target["id"], body), status, code, field)
                self.assertEqual(self.offer(target["id"]), before)
        self.assertEqual(H.db("SELECT COUNT(*) FROM audit_log")[0][0], audit_before)
        # demo stays demo (a no-op), real stays real
        self.assertTrue(self.c.ok("PATCH", "/offers/" + demo["id"], {"isDemo": True})["isDemo"])
        self.assertFalse(self.c.ok("PATCH", "/offers/" + doc["id"], {"isDemo": False})["isDemo"])

    def test_unknown_and_malformed_ids_404(self):
        for oid in ("999999999", "abc", "0", "01", "-1", "1.0", "99999999999999999999999"):
            with self.subTest(id=oid):
                self.assertApiError(self.c.get("/offers/" + oid), 404, "not_found")
                self.assertApiError(self.c.patch("/offers/" + oid, {"enabled": False}), 404, "not_found")
        self.assertApiError(self.c.get("/audit/999999999"), 404, "not_found")
        self.assertApiError(self.c.get("/audit/x1"), 404, "not_found")

    def test_delete_is_405_and_keeps_the_offer(self):
        doc = self.create()
        st, h, body = self.c.delete("/offers/" + doc["id"])
        self.assertApiError((st, h, body), 405, "method_not_allowed")
        self.assertEqual(set(H.header_tokens(h.get("allow"))), {"get", "head", "patch"})
        st, h, body = self.c.delete("/offers")
        self.assertApiError((st, h, body), 405, "method_not_allowed")
        self.assertEqual(set(H.header_tokens(h.get("allow"))), {"get", "head", "post"})
        self.assertEqual(self.offer(doc["id"])["id"], doc["id"])
        self.assertEqual(H.db("SELECT COUNT(*) FROM offers WHERE id=%s" % doc["id"]), [["1"]])

    def test_metacharacters_stored_and_searched_verbatim(self):
        tag = secrets.token_hex(3)
        hostile = self.create(title=HOSTILE + " " + tag, merchant="<b>M&M's</b> 100% wow",
                              description="</script><img src=x onerror=alert(1)>",
                              couponCode="'; --", imageUrl="https://cdn.example/a.png?x=1&y='2'",
                              category=self.META)
        plain = self.create(title="Plain offer " + tag, merchant="Plain WOW", category=self.META)
        got = self.offer(hostile["id"])
        self.assertEqual(got["title"], HOSTILE + " " + tag)
        self.assertEqual(got["merchant"], "<b>M&M's</b> 100% wow")
        self.assertEqual(got["description"], "</script><img src=x onerror=alert(1)>")
        self.assertEqual(got["couponCode"], "'; --")
        self.assertEqual(H.db("SELECT HEX(title) FROM offers WHERE id=%s" % hostile["id"])[0][0],
                         (HOSTILE + " " + tag).encode().hex().upper())

        def q(text):
            from urllib.parse import quote
            return ids_of(self.list("category=%s&q=%s" % (self.META, quote(text, safe="")))["items"])
        self.assertEqual(q("%"), [hostile["id"]])  # only the offer that contains a '%'
        self.assertEqual(q("_"), [hostile["id"]])
        self.assertEqual(q("\\"), [hostile["id"]])
        self.assertEqual(q("'"), [hostile["id"]])
        self.assertEqual(q("!"), [])
        self.assertEqual(q("<script>ALERT(1)</SCRIPT>"), [hostile["id"]])  # case-insensitive
        self.assertEqual(q("m&m"), [hostile["id"]])  # merchant
        self.assertEqual(q("wow"), [hostile["id"], plain["id"]])
        self.assertEqual(q("PLAIN OFFER " + tag.upper()), [plain["id"]])
        self.assertEqual(q("%" + tag), [])
        self.assertEqual(q("DROP TABLE offers; --"), [hostile["id"]])

    def test_imported_offer_patch_records_overrides(self):
        fixture = self.offer(1001)
        self.assertEqual((fixture["network"], fixture["externalId"], fixture["overrides"]),
                         ("admitad", "ext-1001", []))
        orig_updated = H.db("SELECT updated_at FROM offers WHERE id=1001")[0][0]

        def restore():
            H.db("UPDATE offers SET overrides='', priority=8, enabled=1, "
                 "valid_until='2030-12-31 23:59:59', updated_at=%s WHERE id=1001" % H.sql_str(orig_updated))
            H.bump()
        self.addCleanup(restore)
        # the fixture's own values: nothing the public API shows changes
        doc = self.c.ok("PATCH", "/offers/1001", {"priority": 8, "enabled": True})
        self.assertEqual(doc["overrides"], ["enabled", "priority"])
        doc = self.c.ok("PATCH", "/offers/1001", {"validUntil": "2030-12-31T23:59:59Z"})
        self.assertEqual(doc["overrides"], ["enabled", "priority", "validity"])
        self.assertEqual(dict(doc, overrides=[], updatedAt=None), dict(fixture, updatedAt=None))
        self.assertEqual(H.db("SELECT overrides FROM offers WHERE id=1001"), [["enabled,priority,validity"]])

        oid = self.insert_imported("awin")
        doc = self.c.ok("PATCH", "/offers/%s" % oid, {"category": self.SUB, "countries": ["US", "DE"]})
        self.assertEqual(doc["overrides"], ["category", "countries"])
        self.assertEqual((doc["network"], doc["category"], doc["countries"]), ("awin", self.SUB, ["DE", "US"]))
        doc = self.c.ok("PATCH", "/offers/%s" % oid, {"validFrom": "2026-01-01T00:00:00Z", "enabled": False})
        self.assertEqual(doc["overrides"], ["enabled", "category", "countries", "validity"])
        audit = self.audit_of("offer:%s" % oid)
        self.assertEqual(audit[0]["before"]["overrides"], ["category", "countries"])
        self.assertEqual(audit[0]["after"]["overrides"], ["enabled", "category", "countries", "validity"])
        # an imported offer with a tracking URL cannot become a demonstration
        self.assertApiError(self.c.patch("/offers/%s" % oid, {"isDemo": True}), 409, "conflict", "isDemo")


# ----------------------------------------------------------------------------------------------


class OfferListTests(AdminCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        past = rfc3339(time.time() - 3600)
        cls.A = cls.create(title="Alpha lamp", merchant="Lumen")["id"]
        cls.B = cls.create(title="Beta chair", merchant="ALPHA seats", category=cls.SUB, countries=["US", "DE"])["id"]
        cls.C = cls.create(title="Gamma disabled", enabled=False)["id"]
        cls.D = cls.create(title="Delta demo", isDemo=True, countries=["US"])["id"]
        cls.E = cls.create(title="Eps off", category=cls.OFF)["id"]
        cls.F = cls.create(title="Zeta off child", category=cls.OFF_CHILD)["id"]
        cls.G = cls.create(title="Eta unselected", countries=["GB"])["id"]
        cls.Hx = cls.create(title="Theta expired", validUntil=past)["id"]
        cls.I = cls.create(title="Iota future", validFrom="2045-01-01T00:00:00Z")["id"]
        cls.J = cls.insert_imported("awin")
        cls.K = cls.create(title="Kappa nowhere", countries=[])["id"]
        cls.L = cls.create(title="Lambda started", validFrom=past, validUntil="2045-01-01T00:00:00Z")["id"]
        cls.root_ids = [cls.A, cls.B, cls.C, cls.D, cls.G, cls.Hx, cls.I, cls.J, cls.K, cls.L]

    def ids(self, query):
        doc = self.list(query)
        self.assertEqual(doc["total"], len(doc["items"]), "one page expected")
        return ids_of(doc["items"])

    def sorted_ids(self, *ids):
        return sorted(ids, key=int)

    def test_envelope_and_shape(self):
        doc = self.list("category=" + self.ROOT)
        self.assertEqual(list(doc.keys()), ["items", "total", "limit", "offset"])
        self.assertEqual((doc["total"], doc["limit"], doc["offset"]), (len(self.root_ids), 50, 0))
        self.assertEqual(ids_of(doc["items"]), self.sorted_ids(*self.root_ids))
        for item in doc["items"]:
            self.assertEqual(list(item.keys()), OFFER_KEYS)
            self.assertEqual(item, self.offer(item["id"]))
        # unfiltered: ordered by id, the fixtures included
        everything = self.list("limit=200")
        self.assertGreaterEqual(everything["total"], len(H.OFFERS) + 12)
        got = ids_of(everything["items"])
        self.assertEqual(got, sorted(got, key=int))

    def test_category_subtree(self):
        self.assertEqual(self.ids("category=" + self.SUB), [self.B])
        self.assertEqual(self.ids("category=" + self.OFF), [self.E, self.F])
        self.assertEqual(self.ids("category=" + self.OFF_CHILD), [self.F])
        self.assertEqual(self.ids("category=electronics.audio"), ["1001", "1002", "1004"])
        self.assertEqual(self.ids("category=no-such-" + secrets.token_hex(2)), [])

    def test_filters(self):
        r = "category=%s&" % self.ROOT
        self.assertEqual(self.ids(r + "q=alpha"), [self.A, self.B])
        self.assertEqual(self.ids(r + "q=LUMEN"), [self.A])
        self.assertEqual(self.ids(r + "q="), self.sorted_ids(*self.root_ids))
        self.assertEqual(self.ids(r + "country=GB"), [self.G])
        self.assertEqual(self.ids(r + "country=DE"), [self.B])
        self.assertEqual(self.ids(r + "country=IT"), [])
        self.assertEqual(self.ids(r + "network=awin"), [self.J])
        self.assertEqual(self.ids(r + "network=admitad"), [])
        self.assertEqual(self.ids(r + "network=manual"),
                         self.sorted_ids(*[i for i in self.root_ids if i != self.J]))
        self.assertEqual(self.ids(r + "enabled=false"), [self.C])
        self.assertEqual(self.ids(r + "isDemo=true"), [self.D])
        self.assertEqual(self.ids(r + "isDemo=false&enabled=true&country=US&q=a"),
                         self.sorted_ids(self.A, self.B, self.Hx, self.I, self.J, self.L))
        self.assertEqual(self.ids("network=admitad&category=electronics"), ["1001"])
        self.assertEqual(self.ids("country=FR&category=books"), ["1015"])

    def test_served(self):
        self.assertEqual(self.ids("category=%s&served=true" % self.ROOT),
                         self.sorted_ids(self.A, self.B, self.D, self.J, self.L))
        self.assertEqual(self.ids("category=%s&served=false" % self.ROOT),
                         self.sorted_ids(self.C, self.G, self.Hx, self.I, self.K))
        self.assertEqual(self.ids("category=%s&served=true" % self.OFF), [])
        self.assertEqual(self.ids("category=%s&served=false" % self.OFF), [self.E, self.F])
        # the fixtures: exactly what the public query serves for electronics in DE (and more)
        served = self.ids("category=electronics&served=true&country=DE")
        self.assertEqual(served, H.ELECTRONICS_DE)
        self.assertEqual(self.ids("category=electronics&served=false"),
                         ["1005", "1006", "1007", "1008", "1009"])
        # what served=true lists for the category is what the public query returns
        expected = self.sorted_ids(self.A, self.B, self.D, self.J, self.L)

        def public():
            return sorted(ids_of(H.query_offers(category=self.ROOT, country="US", limit=20)), key=int)
        H.wait_until(lambda: public() == expected, timeout=1.5)
        self.assertEqual(public(), expected)

    def test_pagination(self):
        all_ids = self.sorted_ids(*self.root_ids)
        doc = self.list("category=%s&limit=3&offset=2" % self.ROOT)
        self.assertEqual((doc["total"], doc["limit"], doc["offset"]), (len(all_ids), 3, 2))
        self.assertEqual(ids_of(doc["items"]), all_ids[2:5])
        doc = self.list("category=%s&limit=200&offset=9" % self.ROOT)
        self.assertEqual(ids_of(doc["items"]), all_ids[9:])
        doc = self.list("category=%s&offset=100" % self.ROOT)
        self.assertEqual((doc["items"], doc["total"]), ([], len(all_ids)))
        pages = []
        for off in range(0, len(all_ids), 4):
            pages += ids_of(self.list("category=%s&limit=4&offset=%d" % (self.ROOT, off))["items"])
        self.assertEqual(pages, all_ids)

    def test_bad_parameters(self):
        cases = [("limit=0", "limit"), ("limit=201", "limit"), ("limit=-1", "limit"), ("limit=x", "limit"),
                 ("limit=1.5", "limit"), ("offset=-1", "offset"), ("offset=x", "offset"),
                 ("foo=1", "foo"), ("category=Bad!", "category"), ("category=", "category"),
                 ("country=us", "country"), ("country=DEU", "country"), ("network=cj", "network"),
                 ("enabled=yes", "enabled"), ("isDemo=1", "isDemo"), ("served=maybe", "served"),
                 ("q=" + "x" * 201, "q"), ("limit=5&limit=6", "limit")]
        for query, field in cases:
            with self.subTest(query=query):
                self.assertApiError(self.c.get("/offers?" + query), 400, "invalid_field", field)
        self.assertApiError(self.c.get("/offers/%s?x=1" % self.A), 400, "invalid_field", "x")
        self.assertEqual(self.list("q=" + "x" * 200)["items"], [])

    def test_not_signed_in(self):
        for path in ("/offers", "/offers/%s" % self.A, "/audit", "/audit/1"):
            with self.subTest(path=path):
                self.assertApiError(self.c.get(path, cookie=None), 401, "not_signed_in")


# ----------------------------------------------------------------------------------------------


class OfferPublicEffectTests(AdminCase):
    """Admin writes reach the public API within a second (catalog version bump)."""

    def served_ids(self):
        return ids_of(H.query_offers(category=self.ROOT, country="US", limit=20))

    def wait_served(self, pred, timeout=1.5):
        return H.wait_until(lambda: pred(self.served_ids()), timeout=timeout, interval=0.05)

    def public_record(self, oid):
        """The offer's record in the public query (every worker has it within the timeout)."""
        def find():
            for o in H.query_offers(category=self.ROOT, country="US", limit=20):
                if o["id"] == oid:
                    return o
            return None
        rec = H.wait_until(find, timeout=1.5, interval=0.05)
        self.assertIsNotNone(rec, "offer %s not in the public query" % oid)
        return rec

    def test_created_offer_served_with_its_fields(self):
        doc = self.create(title="Served <now>", description="desc", merchant="M", couponCode="C1",
                          imageUrl="https://cdn.example/s.png", validUntil="2044-02-29T12:00:00Z",
                          category=self.SUB)
        self.assertTrue(self.wait_served(lambda ids: doc["id"] in ids), "created offer not served in 1.5 s")
        rec = self.public_record(doc["id"])
        self.assertEqual({k: rec[k] for k in OFFER_KEYS[:9]}, {k: doc[k] for k in OFFER_KEYS[:9]})
        self.assertIn("clickUrl", rec)
        self.assertIn("impressionToken", rec)

    def test_disabled_offer_gone_and_click_410(self):
        doc = self.create()
        self.assertTrue(self.wait_served(lambda ids: doc["id"] in ids), "offer not served")
        url = self.public_record(doc["id"])["clickUrl"]
        st, h, _ = H.http("GET", url)
        self.assertEqual(st, 302)
        self.assertEqual(h.get("location"), doc["trackingUrl"])
        self.c.ok("PATCH", "/offers/" + doc["id"], {"enabled": False})
        self.assertTrue(self.wait_served(lambda ids: doc["id"] not in ids), "disabled offer still served")
        resp = H.http("GET", url)
        self.assertNotIn("location", resp[1])
        self.assertError(resp, 410, "offer_unavailable")
        self.assertEqual(self.ids_served_flag(doc["id"]), False)
        # enabled again: served again
        self.c.ok("PATCH", "/offers/" + doc["id"], {"enabled": True})
        self.assertTrue(self.wait_served(lambda ids: doc["id"] in ids), "re-enabled offer not served")

    def ids_served_flag(self, oid):
        served = ids_of(self.list("category=%s&served=true" % self.ROOT)["items"])
        return oid in served

    def test_expired_through_valid_until_gone_and_click_410(self):
        doc = self.create(validFrom=rfc3339(time.time() - 7200))
        self.assertTrue(self.wait_served(lambda ids: doc["id"] in ids), "offer not served")
        url = self.public_record(doc["id"])["clickUrl"]
        self.c.ok("PATCH", "/offers/" + doc["id"], {"validUntil": rfc3339(time.time() - 60)})
        self.assertTrue(self.wait_served(lambda ids: doc["id"] not in ids), "expired offer still served")
        resp = H.http("GET", url)
        self.assertNotIn("location", resp[1])
        self.assertError(resp, 410, "offer_unavailable")

    def test_future_window_not_served(self):
        future = self.create(validFrom="2045-01-01T00:00:00Z")
        marker = self.create()
        self.assertTrue(self.wait_served(lambda ids: marker["id"] in ids), "marker not served")
        self.assertNotIn(future["id"], self.served_ids())
        self.assertFalse(self.ids_served_flag(future["id"]))

    def test_demonstration_offer_served_without_click_url(self):
        doc = self.create(isDemo=True, title="Demo served")
        self.assertTrue(self.wait_served(lambda ids: doc["id"] in ids), "demo offer not served")
        rec = self.public_record(doc["id"])
        self.assertIs(rec["isDemo"], True)
        self.assertNotIn("clickUrl", rec)
        self.assertTrue(rec["impressionToken"])

    def test_priority_raised_comes_first(self):
        docs = [self.create(priority=1) for _ in range(3)]
        mine = {d["id"] for d in docs}
        self.assertTrue(self.wait_served(lambda ids: mine <= set(ids)), "offers not served")
        target = docs[1]["id"]
        self.c.ok("PATCH", "/offers/" + target, {"priority": 900})
        self.assertTrue(self.wait_served(lambda ids: ids and ids[0] == target), "raised offer not first")
        H.settle()  # every worker has the new snapshot
        for _ in range(5):
            self.assertEqual(self.served_ids()[0], target)

    def test_category_and_countries_change_what_is_served(self):
        doc = self.create(countries=["US"])
        self.assertTrue(self.wait_served(lambda ids: doc["id"] in ids), "offer not served")
        self.c.ok("PATCH", "/offers/" + doc["id"], {"countries": ["GB"]})
        self.assertTrue(self.wait_served(lambda ids: doc["id"] not in ids), "offer still served in US")
        self.c.ok("PATCH", "/offers/" + doc["id"], {"countries": ["US"], "category": self.OFF_CHILD})
        time.sleep(0.6)
        self.assertNotIn(doc["id"], self.served_ids())
        self.c.ok("PATCH", "/offers/" + doc["id"], {"category": self.SUB})
        self.assertTrue(self.wait_served(lambda ids: doc["id"] in ids), "offer not served again")


# ----------------------------------------------------------------------------------------------


class AuditTests(AdminCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.email2, cls.pw2, cls.id2 = new_approved_account(cls.c, "auditor")
        cls.c2 = AdminClient.signed_in(cls.email2, cls.pw2)
        cls.offer = cls.create(title="Audited")
        cls.c.ok("PATCH", "/offers/" + cls.offer["id"], {"priority": 2})
        cls.c.ok("PATCH", "/offers/" + cls.offer["id"], {"enabled": False})
        cls.res = "offer:" + cls.offer["id"]
        doc = cls.c2.ok("POST", "/offers", {"title": "By the second", "category": cls.ROOT, "isDemo": True},
                        status=201)
        cls.created.append(doc["id"])
        cls.offer2 = doc

    def page(self, query):
        doc = self.get("/audit?" + query)
        self.assertEqual(list(doc.keys()), ["items", "total", "limit", "offset"])
        for e in doc["items"]:
            self.assertEqual(list(e.keys()), AUDIT_KEYS)
            self.assertRegex(e["id"], r"^[1-9]\d*$")
            self.assertRegex(e["at"], TIME_RE)
        return doc

    def test_entries_newest_first_with_before_and_after(self):
        doc = self.page("resource=" + self.res)
        self.assertEqual(doc["total"], 3)
        items = doc["items"]
        self.assertEqual([e["action"] for e in items], ["offer.update", "offer.update", "offer.create"])
        self.assertEqual([e["resource"] for e in items], [self.res] * 3)
        ids = [int(e["id"]) for e in items]
        self.assertEqual(ids, sorted(ids, reverse=True))
        self.assertGreaterEqual(items[0]["at"], items[2]["at"])
        admin = {"id": self.c.account["id"], "email": ADMIN_EMAIL}
        self.assertEqual([e["account"] for e in items], [admin] * 3)
        create, upd1, upd2 = items[2], items[1], items[0]
        self.assertIsNone(create["before"])
        self.assertEqual(create["after"], self.offer)
        self.assertIsInstance(upd1["before"], dict)
        self.assertEqual(upd1["before"], create["after"])
        self.assertEqual((upd1["before"]["priority"], upd1["after"]["priority"]), (0, 2))
        self.assertEqual(upd2["before"], upd1["after"])
        self.assertEqual((upd2["before"]["enabled"], upd2["after"]["enabled"]), (True, False))
        self.assertEqual(upd2["after"], self.get("/offers/" + self.offer["id"]))
        # one entry by id is the same as in the list
        self.assertEqual(self.get("/audit/" + upd1["id"]), upd1)

    def test_pagination(self):
        full = self.page("resource=%s" % self.res)["items"]
        doc = self.page("resource=%s&limit=1&offset=1" % self.res)
        self.assertEqual((doc["total"], doc["limit"], doc["offset"]), (3, 1, 1))
        self.assertEqual(doc["items"], [full[1]])
        self.assertEqual(self.page("resource=%s&offset=3" % self.res)["items"], [])
        latest = self.page("limit=5")
        self.assertEqual(latest["limit"], 5)
        self.assertEqual(len(latest["items"]), 5)
        ids = [int(e["id"]) for e in latest["items"]]
        self.assertEqual(ids, sorted(ids, reverse=True))
        for q, field in [("limit=0", "limit"), ("limit=201", "limit"), ("limit=-1", "limit"),
                         ("limit=x", "limit"), ("offset=-1", "offset"), ("user=1", "user")]:
            with self.subTest(query=q):
                self.assertApiError(self.c.get("/audit?" + q), 400, "invalid_field", field)

    def test_account_filter(self):
        doc = self.page("account=%s" % self.id2)
        self.assertTrue(doc["items"])
        for e in doc["items"]:
            self.assertEqual(e["account"], {"id": self.id2, "email": self.email2})
        actions = {(e["action"], e["resource"]) for e in doc["items"]}
        self.assertIn(("offer.create", "offer:" + self.offer2["id"]), actions)
        self.assertIn(("session.sign_in", "account:" + self.id2), actions)
        self.assertEqual(self.page("account=%s&resource=%s" % (self.id2, self.res))["total"], 0)
        self.assertEqual(self.page("account=%s&resource=%s" % (self.c.account["id"], self.res))["total"], 3)
        self.assertEqual(self.page("account=999999999")["total"], 0)
        for bad in ("x", "0", "-1", ""):
            with self.subTest(account=bad):
                self.assertApiError(self.c.get("/audit?account=" + bad), 400, "invalid_field", "account")

    def test_resource_and_action_filters(self):
        doc = self.page("resource=offer&limit=200")
        self.assertGreaterEqual(doc["total"], 4)
        for e in doc["items"]:
            self.assertTrue(e["resource"].startswith("offer:"), e["resource"])
        self.assertEqual(self.page("resource=offer:%s" % self.offer2["id"])["total"], 1)
        self.assertEqual(self.page("resource=offe")["total"], 0)
        self.assertEqual(self.page("resource=offer%3A")["total"], 0)
        self.assertEqual(self.page("resource=%25")["total"], 0)  # '%' is no wildcard
        upd = self.page("resource=%s&action=offer.update" % self.res)
        self.assertEqual([e["action"] for e in upd["items"]], ["offer.update", "offer.update"])
        self.assertEqual(self.page("resource=%s&action=offer.delete" % self.res)["total"], 0)
        account = self.page("resource=account&account=%s" % self.id2)
        self.assertTrue(all(e["resource"] == "account:" + self.id2 for e in account["items"]))
        self.assertApiError(self.c.get("/audit?resource="), 400, "invalid_field", "resource")

    def test_time_range(self):
        now = time.time()
        r = "resource=%s&" % self.res
        self.assertEqual(self.page(r + "from=" + day(now))["total"], 3)
        self.assertEqual(self.page(r + "to=" + day(now))["total"], 3)
        self.assertEqual(self.page(r + "from=%s&to=%s" % (day(now), day(now)))["total"], 3)
        self.assertEqual(self.page(r + "to=" + day(now - 86400))["total"], 0)
        self.assertEqual(self.page(r + "from=" + day(now + 86400))["total"], 0)
        self.assertEqual(self.page(r + "from=" + rfc3339(now - 3600))["total"], 3)
        self.assertEqual(self.page(r + "to=" + rfc3339(now + 3600))["total"], 3)
        self.assertEqual(self.page(r + "to=2000-01-01T00:00:00Z")["total"], 0)
        self.assertEqual(self.page(r + "from=" + rfc3339(now + 3600))["total"], 0)
        # both bounds inclusive, to the second
        at = self.page(r)["items"][2]["at"]
        self.assertEqual(self.page(r + "from=%s&to=%s&action=offer.create" % (at, at))["total"], 1)
        for q, field in [("from=yesterday", "from"), ("from=2026-13-45", "from"), ("to=2026-02-30", "to"),
                         ("to=12:00", "to"), ("from=2026-01-02&to=2026-01-01", "to"),
                         ("from=2026-01-01T00:00:01Z&to=2026-01-01T00:00:00Z", "to")]:
            with self.subTest(query=q):
                self.assertApiError(self.c.get("/audit?" + q), 400, "invalid_field", field)

    def test_sign_in_rows_never_hold_the_password(self):
        wrong = "wrong-" + secrets.token_hex(8)
        c3 = AdminClient()
        st, _, _ = c3.sign_in(self.email2, wrong)
        self.assertEqual(st, 401)
        AdminClient.signed_in(self.email2, self.pw2)
        doc = self.page("account=%s&resource=account:%s&limit=200" % (self.id2, self.id2))
        actions = [e["action"] for e in doc["items"]]
        self.assertIn("session.sign_in", actions)
        self.assertIn("session.sign_in_failed", actions)
        text = json.dumps(doc)
        for secret in (self.pw2, wrong):
            self.assertNotIn(secret, text)
            rows = H.db("SELECT COUNT(*) FROM audit_log WHERE INSTR(CONCAT(IFNULL(before_json, ''), "
                        "IFNULL(after_json, ''), action, target), %s) > 0" % H.sql_str(secret))
            self.assertEqual(rows, [["0"]], "an audit row holds a password")
        self.assertNotIn(admin_password(), text)
        for e in doc["items"]:
            for side in ("before", "after"):
                if e[side] is not None:
                    self.assertIsInstance(e[side], dict)
                    self.assertNotIn("password", json.dumps(e[side]).lower())
                    self.assertNotIn("passwordHash", e[side])


if __name__ == "__main__":
    unittest.main()
