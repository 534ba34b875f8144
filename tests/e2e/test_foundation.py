"""Contract sections 0, 1, 2: conventions, GET /api/v1/config, GET /api/v1/categories,
plus request logging, database outage and SIGTERM (the last two are disruptive: run.py runs
them last)."""

import gzip
import json
import os
import re
import secrets
import signal
import time
import unittest

try:
    from . import harness as H
except ImportError:  # run as a script from tests/e2e
    import harness as H

from_json = json.loads


def canon(doc):
    """Canonical JSON text: distinguishes 1 from true and 1 from 1.0."""
    return json.dumps(doc, sort_keys=True, ensure_ascii=False)


class JsonCase(H.E2ETestCase):
    def assertJsonEqual(self, actual, expected):
        self.assertEqual(actual, expected)
        self.assertEqual(canon(actual), canon(expected), "types differ")


# ---------------------------------------------------------------------------------------------
# 1. GET /api/v1/config

EXPECTED_CONFIG = {
    "apiVersion": 1,
    "available": True,
    "refreshIntervalSeconds": 900,
    "minExtensionVersion": "1.0.0",
    "countries": ["DE", "FR", "US"],
    "placements": H.CONFIG_PLACEMENTS,
}


class ConfigTests(JsonCase):
    def test_config_exact_shape(self):
        doc = self.assertJsonResponse(H.http("GET", "/api/v1/config"))
        self.assertJsonEqual(doc, EXPECTED_CONFIG)

    def test_config_headers(self):
        st, h, b = H.http("GET", "/api/v1/config")
        self.assertEqual(st, 200)
        self.assertEqual(h.get("content-type"), "application/json; charset=utf-8")
        self.assertTrue(h.get("x-request-id"))
        self.assertTrue(h.get("etag"), "config must carry an ETag")

    def test_config_query_string_is_not_part_of_the_path(self):
        doc = self.assertJsonResponse(H.http("GET", "/api/v1/config?x=1&y=%2F"))
        self.assertJsonEqual(doc, EXPECTED_CONFIG)

    def test_config_etag_304(self):
        st, h, b = H.http("GET", "/api/v1/config")
        self.assertEqual(st, 200)
        etag = h.get("etag")
        self.assertTrue(etag)
        st2, h2, b2 = H.http("GET", "/api/v1/config", headers={"If-None-Match": etag})
        self.assertEqual(st2, 304)
        self.assertEqual(b2, b"")
        st3, _, b3 = H.http("GET", "/api/v1/config", headers={"If-None-Match": '"not-the-etag"'})
        self.assertEqual(st3, 200)
        self.assertEqual(from_json(b3), from_json(b))

    def test_config_etag_in_if_none_match_list(self):
        st, h, _ = H.http("GET", "/api/v1/config")
        etag = h.get("etag")
        self.assertTrue(etag)
        st2, _, b2 = H.http("GET", "/api/v1/config", headers={"If-None-Match": '"other", ' + etag})
        self.assertEqual(st2, 304)
        self.assertEqual(b2, b"")

    def test_config_new_etag_after_catalog_change(self):
        st, h, _ = H.http("GET", "/api/v1/config")
        old = h.get("etag")
        self.assertTrue(old)
        self.addCleanup(self._restore_refresh)
        H.set_setting("refreshIntervalSeconds", "901")
        self.assertTrue(H.wait_config(lambda c: c["refreshIntervalSeconds"] == 901),
                        "refreshIntervalSeconds change not visible within 5 s")
        H.settle()
        st, h, b = H.http("GET", "/api/v1/config", headers={"If-None-Match": old})
        self.assertEqual(st, 200, "old ETag must not match a changed config")
        self.assertEqual(from_json(b)["refreshIntervalSeconds"], 901)
        self.assertTrue(h.get("etag"))
        self.assertNotEqual(h.get("etag"), old)

    def _restore_refresh(self):
        H.set_setting("refreshIntervalSeconds", "900")
        H.wait_config(lambda c: c["refreshIntervalSeconds"] == 900)
        H.settle()

    def test_config_available_false_when_switched_off(self):
        def restore():
            H.set_setting("available", "true")
            H.wait_config(lambda c: c["available"] is True)
            H.settle()
        self.addCleanup(restore)
        H.set_setting("available", "false")
        doc = H.wait_config(lambda c: c["available"] is False)
        self.assertTrue(doc, "available=false not visible within 5 s")
        doc = self.assertJsonResponse(H.http("GET", "/api/v1/config"))
        self.assertIs(doc["available"], False)

    def test_config_countries_follow_selection(self):
        def restore():
            H.db("UPDATE countries SET selected=0 WHERE code='IT'")
            H.bump()
            H.wait_config(lambda c: c["countries"] == ["DE", "FR", "US"])
            H.settle()
        self.addCleanup(restore)
        H.db("UPDATE countries SET selected=1 WHERE code='IT'")
        H.bump()
        self.assertTrue(H.wait_config(lambda c: c["countries"] == ["DE", "FR", "IT", "US"]),
                        "selected country IT not listed (sorted) within 5 s: %r" % H.fetch_config())

    def test_config_placements_only_enabled_sorted(self):
        def restore():
            H.db("UPDATE placements SET enabled=0 WHERE id=1002")
            H.bump()
            H.wait_config(lambda c: c["placements"] == H.CONFIG_PLACEMENTS)
            H.settle()
        self.addCleanup(restore)
        H.db("UPDATE placements SET enabled=1 WHERE id=1002")
        H.bump()
        want = [{"name": "banner-off", "maxOffers": 5}] + H.CONFIG_PLACEMENTS
        self.assertTrue(H.wait_config(lambda c: c["placements"] == want),
                        "enabled placement not listed in name order: %r" % H.fetch_config())


# ---------------------------------------------------------------------------------------------
# 2. GET /api/v1/categories


def node(path, name, icon, order, children=()):
    return {"path": path, "name": name, "icon": icon, "displayOrder": order, "children": list(children)}


EXPECTED_TREE = [
    node("fashion", H.FASHION_NAME, "shirt", 5),
    node("books", "Books", "book", 10),
    node("electronics", "Electronics", "plug", 10, [
        node("electronics.audio", "Audio", "headphones", 10, [
            node("electronics.audio.headphones", "Headphones", "headset", 5, [
                node("electronics.audio.headphones.wireless", "Wireless", "wifi", 0),
            ]),
        ]),
        node("electronics.cameras", "Cameras", "camera", 20),
        node("electronics.phones", "Phones", "phone", 20),
    ]),
    node("toggle", "Toggle", "switch", 60, [node("toggle.child", "Toggle child", "dot", 1)]),
    node("rotation", "Rotation", "refresh", 70, [node("rotation.equal", "Equal", "equals", 1)]),
    node("bulk", "Bulk", "boxes", 80),
    node("clicks", "Clicks", "cursor", 90),
    node("timing", "Timing", "clock", 95),
    node("empty", "Empty", "", 100),
]


def all_paths(nodes):
    out = []
    for n in nodes:
        out.append(n["path"])
        out.extend(all_paths(n["children"]))
    return out


def fetch_categories():
    st, _, b = H.http("GET", "/api/v1/categories")
    return from_json(b)["categories"] if st == 200 else None


class CategoriesTests(JsonCase):
    def test_gzip_representation_for_clients_that_accept_it(self):
        for path in ("/api/v1/categories", "/api/v1/config"):
            st, plain_h, plain = H.http("GET", path)
            self.assertEqual(st, 200)
            self.assertNotIn("content-encoding", plain_h)
            self.assertEqual(plain_h.get("vary"), "Accept-Encoding")
            st, gz_h, body = H.http("GET", path, headers={"Accept-Encoding": "gzip, deflate, br"})
            self.assertEqual(st, 200)
            self.assertEqual(gz_h.get("content-encoding"), "gzip")
            self.assertEqual(gz_h.get("vary"), "Accept-Encoding")
            self.assertEqual(gz_h.get("content-type"), H.JSON_CT)
            self.assertEqual(gzip.decompress(body), plain)
            # One strong ETag per representation, each revalidating only itself.
            self.assertNotEqual(gz_h["etag"], plain_h["etag"])
            st, h, body = H.http("GET", path, headers={"Accept-Encoding": "gzip",
                                                      "If-None-Match": gz_h["etag"]})
            self.assertEqual((st, body), (304, b""))
            self.assertEqual(h.get("etag"), gz_h["etag"])
            st, _, _ = H.http("GET", path, headers={"If-None-Match": gz_h["etag"]})
            self.assertEqual(st, 200)
            st, h, _ = H.http("GET", path, headers={"Accept-Encoding": "gzip;q=0, *"})
            self.assertNotIn("content-encoding", h)

    def test_categories_exact_tree(self):
        doc = self.assertJsonResponse(H.http("GET", "/api/v1/categories"))
        self.assertJsonEqual(doc, {"categories": EXPECTED_TREE})

    def test_categories_node_shape(self):
        doc = self.assertJsonResponse(H.http("GET", "/api/v1/categories"))
        self.assertEqual(list(doc.keys()), ["categories"])

        def walk(nodes, parent):
            for n in nodes:
                self.assertEqual(set(n), {"path", "name", "icon", "displayOrder", "children"}, n)
                self.assertIsInstance(n["path"], str)
                self.assertIsInstance(n["name"], str)
                self.assertIsInstance(n["icon"], str)
                self.assertIs(type(n["displayOrder"]), int)
                self.assertIsInstance(n["children"], list)
                if parent:
                    self.assertTrue(n["path"].startswith(parent + "."), (parent, n["path"]))
                    self.assertEqual(n["path"].count("."), parent.count(".") + 1)
                else:
                    self.assertNotIn(".", n["path"])
                keys = [(c["displayOrder"], c["path"]) for c in n["children"]]
                self.assertEqual(keys, sorted(keys), "children of %s not sorted" % n["path"])
                walk(n["children"], n["path"])
        walk(doc["categories"], None)
        top = [(c["displayOrder"], c["path"]) for c in doc["categories"]]
        self.assertEqual(top, sorted(top))

    def test_categories_sorting_display_order_then_path(self):
        cats = fetch_categories()
        self.assertEqual([c["path"] for c in cats],
                         ["fashion", "books", "electronics", "toggle", "rotation", "bulk", "clicks",
                          "timing", "empty"])
        elec = next(c for c in cats if c["path"] == "electronics")
        self.assertEqual([c["path"] for c in elec["children"]],
                         ["electronics.audio", "electronics.cameras", "electronics.phones"])

    def test_categories_utf8_name(self):
        st, h, b = H.http("GET", "/api/v1/categories")
        self.assertEqual(st, 200)
        fashion = next(c for c in from_json(b.decode("utf-8"))["categories"] if c["path"] == "fashion")
        self.assertEqual(fashion["name"], H.FASHION_NAME)

    def test_disabled_category_and_descendants_absent(self):
        paths = all_paths(fetch_categories())
        for p in ("garden", "garden.tools", "electronics.tv", "electronics.tv.oled"):
            self.assertNotIn(p, paths)

    def test_categories_etag_304(self):
        st, h, b = H.http("GET", "/api/v1/categories")
        self.assertEqual(st, 200)
        etag = h.get("etag")
        self.assertTrue(etag, "categories must carry an ETag")
        st2, _, b2 = H.http("GET", "/api/v1/categories", headers={"If-None-Match": etag})
        self.assertEqual(st2, 304)
        self.assertEqual(b2, b"")

    def test_catalog_change_visible_within_1s(self):
        st, h, _ = H.http("GET", "/api/v1/categories")
        old_etag = h.get("etag")

        def restore():
            H.db("UPDATE categories SET enabled=1 WHERE id=%d" % H.CAT_ID["toggle"])
            H.bump()
            H.wait_until(lambda: "toggle.child" in all_paths(fetch_categories() or []), 5)
            H.settle()
        self.addCleanup(restore)
        H.db("UPDATE categories SET enabled=0 WHERE id=%d; "
             "UPDATE catalog_version SET version=version+1 WHERE id=1" % H.CAT_ID["toggle"])
        t0 = time.monotonic()
        def toggle_gone():
            cats = fetch_categories()
            return cats is not None and "toggle" not in all_paths(cats)
        gone = H.wait_until(toggle_gone, timeout=3, interval=0.02)
        elapsed = time.monotonic() - t0
        self.assertTrue(gone, "disabled category still listed after 3 s")
        self.assertLessEqual(elapsed, 1.0, "change took %.2f s to be visible" % elapsed)
        H.settle()
        st, h, b = H.http("GET", "/api/v1/categories", headers={"If-None-Match": old_etag or '"x"'})
        self.assertEqual(st, 200)
        paths = all_paths(from_json(b)["categories"])
        self.assertNotIn("toggle", paths)
        self.assertNotIn("toggle.child", paths, "enabled child of a disabled parent is listed")
        self.assertNotEqual(h.get("etag"), old_etag)


# ---------------------------------------------------------------------------------------------
# 0. Conventions: routing, errors, bodies


class RoutingTests(H.E2ETestCase):
    def test_unknown_path_404(self):
        for method, path in [("GET", "/api/v1/nope"), ("GET", "/api/v1/configs"),
                             ("GET", "/api/v1/config/extra"), ("GET", "/api/v2/config"),
                             ("GET", "/api/v1/offers"), ("GET", "/api/v1/"),
                             ("GET", "/r/click/1300/extra"), ("GET", "/r/nope")]:
            with self.subTest(path=path):
                self.assertError(H.http(method, path), 404, "not_found", H.NO_FIELD)

    def test_unknown_path_404_for_post_with_body(self):
        self.assertError(H.post_json("/api/v1/offers/nope", H.query_body()), 404, "not_found", H.NO_FIELD)

    def test_wrong_method_405_with_allow(self):
        cases = [
            ("DELETE", "/api/v1/config", "GET"),
            ("POST", "/api/v1/config", "GET"),
            ("PUT", "/api/v1/categories", "GET"),
            ("GET", "/api/v1/offers/query", "POST"),
            ("DELETE", "/api/v1/offers/query", "POST"),
            ("GET", "/api/v1/events/impression", "POST"),
            ("POST", "/r/click/1300", "GET"),
        ]
        for method, path, allowed in cases:
            with self.subTest(method=method, path=path):
                resp = H.http(method, path)
                self.assertError(resp, 405, "method_not_allowed", H.NO_FIELD)
                allow = [t.upper() for t in H.header_tokens(resp[1].get("allow"))]
                self.assertIn(allowed, allow, "Allow: %r" % resp[1].get("allow"))
                self.assertNotIn(method, allow, "Allow: %r" % resp[1].get("allow"))

    def test_request_ids_differ(self):
        ids = set()
        for _ in range(5):
            st, h, _ = H.http("GET", "/api/v1/config")
            self.assertEqual(st, 200)
            ids.add(h.get("x-request-id"))
        self.assertEqual(len(ids), 5, ids)
        self.assertNotIn(None, ids)


def nested(depth):
    """A valid query whose document nests `depth` containers (the top-level object counts 1)."""
    inner = "1"
    for i in range(depth - 1):
        inner = ('{"a":%s}' if i % 2 else "[%s]") % inner
    body = H.query_body()
    text = json.dumps(body)
    return text[:-1] + ', "extra": ' + inner + "}"


class BodyTests(H.E2ETestCase):
    Q = "/api/v1/offers/query"

    def post(self, body, ct="application/json", path=None):
        headers = {} if ct is None else {"Content-Type": ct}
        return H.http("POST", path or self.Q, body, headers)

    def test_invalid_json(self):
        cases = [b"{", b'{"country": "DE",}', b"{'country': 'DE'}", b"", b"nul", b"{country: 1}",
                 b'{"country": "DE"} x', b'{"country": "DE"}{"a": 1}', b'{"a": 01}', b'{"a": NaN}',
                 b'{"a": "\\x"}', b'{"a": "tab\there"}']
        for body in cases:
            with self.subTest(body=body):
                self.assertError(self.post(body), 400, "invalid_json", H.NO_FIELD)

    def test_not_an_object(self):
        for body in [b"[]", json.dumps([H.query_body()]).encode(), b'"str"', b"42", b"null", b"true"]:
            with self.subTest(body=body):
                self.assertError(self.post(body), 400, "invalid_json", H.NO_FIELD)

    def test_invalid_utf8(self):
        q = json.dumps(H.query_body()).encode()
        cases = [
            b'{"country": "\xff\xfe"}',
            q[:-1] + b', "x": "\xff"}',
            q[:-1] + b', "x": "\xc0\xaf"}',  # overlong "/"
            q[:-1] + b', "x": "\xed\xa0\x80"}',  # encoded surrogate
            q[:-1] + b', "x": "\xe2\x82"}',  # truncated sequence
        ]
        for body in cases:
            with self.subTest(body=body):
                self.assertError(self.post(body), 400, "invalid_json", H.NO_FIELD)

    def test_valid_utf8_accepted(self):
        q = json.dumps(H.query_body(category="electronics"))
        body = (q[:-1] + ', "note": "\u00c4\u20ac\U0001F600"}').encode("utf-8")
        st, _, b = self.post(body)
        self.assertEqual(st, 200, b[:300])

    def test_nesting_depth_16_ok_17_rejected(self):
        st, _, b = self.post(nested(16))
        self.assertEqual(st, 200, "depth 16 must be accepted: %r" % b[:300])
        self.assertError(self.post(nested(17)), 400, "invalid_json", H.NO_FIELD)

    def test_very_deep_nesting_rejected_and_server_survives(self):
        body = '{"a":' + "[" * 7000 + "]" * 7000 + "}"
        self.assertError(self.post(body), 400, "invalid_json", H.NO_FIELD)
        body = '{"a":' + '{"a":' * 2500 + "1" + "}" * 2501
        self.assertError(self.post(body), 400, "invalid_json", H.NO_FIELD)
        self.assertEqual(H.http("GET", "/api/v1/config")[0], 200)

    def test_body_16kib_accepted(self):
        q = json.dumps(H.query_body(category="electronics"))
        pad = 16384 - len(q) - len(', "pad": ""')
        body = q[:-1] + ', "pad": "' + "x" * pad + '"}'
        self.assertEqual(len(body), 16384)
        st, _, b = self.post(body)
        self.assertEqual(st, 200, "a 16384-byte body is not over 16 KiB: %r" % b[:300])

    def test_body_over_16kib_413(self):
        q = json.dumps(H.query_body(category="electronics"))
        pad = 16385 - len(q) - len(', "pad": ""')
        body = q[:-1] + ', "pad": "' + "x" * pad + '"}'
        self.assertEqual(len(body), 16385)
        self.assertError(self.post(body), 413, "body_too_large", H.NO_FIELD)

    def test_body_over_16kib_413_impression(self):
        body = json.dumps({"impressionToken": "x" * 20000})
        self.assertError(self.post(body, path="/api/v1/events/impression"), 413, "body_too_large",
                         H.NO_FIELD)

    def test_body_over_1mib_413(self):
        body = b'{"pad": "' + b"x" * (1024 * 1024) + b'"}'
        st, h, b = self.post(body)
        self.assertEqual(st, 413)
        # The web server may answer this one itself (its own 1 MiB cap); if the answer is ours,
        # it must be the contract's.
        if h.get("content-type", "").startswith("application/json"):
            self.assertError((st, h, b), 413, "body_too_large", H.NO_FIELD)
        self.assertEqual(H.http("GET", "/api/v1/config")[0], 200)

    def test_unsupported_media_type(self):
        body = json.dumps(H.query_body())
        for ct in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                   "application/json-seq", "text/json", None]:
            with self.subTest(content_type=ct):
                self.assertError(self.post(body, ct=ct), 415, "unsupported_media_type", H.NO_FIELD)

    def test_unsupported_media_type_impression(self):
        body = json.dumps({"impressionToken": "abc"})
        self.assertError(self.post(body, ct="text/plain", path="/api/v1/events/impression"), 415,
                         "unsupported_media_type", H.NO_FIELD)

    def test_json_content_type_parameters_accepted(self):
        body = json.dumps(H.query_body(category="electronics"))
        for ct in ["application/json", "application/json; charset=utf-8", "application/json;charset=UTF-8"]:
            with self.subTest(content_type=ct):
                st, _, b = self.post(body, ct=ct)
                self.assertEqual(st, 200, b[:300])

    def test_media_type_checked_before_json(self):
        self.assertError(self.post(b"not json", ct="text/plain"), 415, "unsupported_media_type", H.NO_FIELD)

    def test_json_checked_before_fields(self):
        self.assertError(self.post(b'{"placement": 1'), 400, "invalid_json", H.NO_FIELD)

    def test_error_envelope_exact(self):
        st, h, b = H.http("GET", "/api/v1/nope")
        self.assertEqual(st, 404)
        doc = from_json(b)
        self.assertEqual(set(doc), {"error"})
        self.assertEqual(set(doc["error"]), {"code", "message"})
        st, h, b = H.query(country=H.MISSING)
        self.assertEqual(st, 400)
        doc = from_json(b)
        self.assertEqual(set(doc), {"error"})
        self.assertEqual(set(doc["error"]), {"code", "message", "field"})
        self.assertEqual(doc["error"]["code"], "missing_field")
        self.assertEqual(doc["error"]["field"], "country")


# ---------------------------------------------------------------------------------------------
# Request log


class LogTests(H.E2ETestCase):
    def log_lines_with(self, rid):
        path = H.var_path("log", "placard.log")
        try:
            with open(path, "rb") as f:
                text = f.read().decode("utf-8", "replace")
        except OSError:
            return []
        return [line for line in text.splitlines() if rid in line]

    def test_one_log_line_per_request(self):
        nope = "/api/v1/nope-" + secrets.token_hex(6)
        cases = [
            ("GET", "/api/v1/config", None, None, 200),
            ("GET", nope, None, None, 404),
            ("POST", "/api/v1/offers/query", json.dumps(H.query_body(category="electronics")),
             {"Content-Type": "application/json"}, 200),
            ("POST", "/api/v1/offers/query", "{", {"Content-Type": "application/json"}, 400),
        ]
        for method, path, body, headers, status in cases:
            with self.subTest(method=method, path=path):
                st, h, _ = H.http(method, path, body, headers)
                self.assertEqual(st, status)
                rid = h.get("x-request-id")
                self.assertTrue(rid)
                lines = H.wait_until(lambda: self.log_lines_with(rid), timeout=3)
                self.assertTrue(lines, "no log line with request id %s in placard.log; tail:\n%s"
                                % (rid, H.current().tail("placard.log", 5)))
                time.sleep(0.1)
                lines = self.log_lines_with(rid)
                self.assertEqual(len(lines), 1, lines)
                line = lines[0]
                self.assertRegex(line, r"(^|\W)%s(\W|$)" % method)
                self.assertIn(path, line)
                self.assertRegex(line, r"(^|\D)%d(\D|$)" % status)


# ---------------------------------------------------------------------------------------------
# Disruptive: database outage, then SIGTERM (run.py runs these last, in this order)


class DatabaseOutageTests(H.E2ETestCase):
    def test_database_outage(self):
        stack = H.current()
        offers = H.query_offers(category="clicks")
        tokens = [o["impressionToken"] for o in offers]
        self.assertGreaterEqual(len(tokens), 3)
        stack.script("db-stop", timeout=60)
        try:
            for _ in range(3):
                st, _, b = H.http("GET", "/api/v1/config")
                self.assertEqual(st, 200, b[:300])
                st, _, b = H.http("GET", "/api/v1/categories")
                self.assertEqual(st, 200, b[:300])
                st, _, b = H.query(category="electronics")
                self.assertEqual(st, 200, b[:300])
                self.assertEqual([o["id"] for o in from_json(b)["offers"]], H.ELECTRONICS_DE)
            resp = H.wait_until(lambda: (lambda r: r if r[0] == 503 else None)(H.impression(tokens[0])),
                                timeout=10, interval=0.2)
            self.assertTrue(resp, "impression did not answer 503 within 10 s of the database stopping")
            self.assertError(resp, 503, "service_unavailable", H.NO_FIELD)
            self.assertRegex(resp[1].get("retry-after", ""), r"^\d+$", "Retry-After")
        finally:
            stack.script("db-start", timeout=90)
        resp = H.wait_until(lambda: (lambda r: r if r[0] == 200 else None)(H.impression(tokens[1])),
                            timeout=30, interval=0.25)
        self.assertTrue(resp, "impressions do not work again within 30 s of db-start")
        self.assertEqual(from_json(resp[2]), {"status": "recorded"})
        st, _, b = H.impression(tokens[2])
        self.assertEqual((st, from_json(b)), (200, {"status": "recorded"}))


def pid_alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        return state not in ("Z", "X")
    except (OSError, IndexError):
        return False


class ShutdownTests(H.E2ETestCase):
    def test_sigterm_exits_within_1s(self):
        stack = H.current()
        token = H.query_offers(category="clicks")[0]["impressionToken"]
        st, _, b = H.impression(token)
        self.assertEqual((st, from_json(b)), (200, {"status": "recorded"}))
        with open(H.var_path("run", "placard.pid")) as f:
            pids = [int(x) for x in re.findall(r"\d+", f.read())]
        self.assertTrue(pids, "no pid in run/placard.pid")
        for pid in pids:
            self.assertTrue(pid_alive(pid), "worker %d not running" % pid)
        try:
            t0 = time.monotonic()
            for pid in pids:
                os.kill(pid, signal.SIGTERM)
            H.wait_until(lambda: not any(pid_alive(p) for p in pids), timeout=5, interval=0.02)
            elapsed = time.monotonic() - t0
            self.assertFalse(any(pid_alive(p) for p in pids), "worker still running 5 s after SIGTERM")
            self.assertLessEqual(elapsed, 1.0, "worker took %.2f s to exit after SIGTERM" % elapsed)
        finally:
            # Bring the worker back for anything that runs after this test.
            stack.restart()
        self.assertEqual(H.http("GET", "/api/v1/config")[0], 200)
        # A token recorded before the restart stays recorded.
        st, _, b = H.impression(token)
        self.assertEqual((st, from_json(b)), (200, {"status": "duplicate"}))


if __name__ == "__main__":
    unittest.main()
