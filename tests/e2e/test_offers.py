"""Contract sections 3, 4, 5: offer query (fields, check order, selection, rotation, tokens),
impressions, click redirects, CORS and hostile input."""

import contextlib
import http.client
import json
import re
import threading
import time
import unittest

try:
    from . import harness as H
except ImportError:  # run as a script from tests/e2e
    import harness as H

from_json = json.loads
M = H.MISSING
TOKEN_RE = re.compile(r"^[A-Za-z0-9_.~-]{1,512}$")


@contextlib.contextmanager
def settings(ready, **values):
    """Set settings (and bump), wait until `ready()` is true, restore the defaults afterwards."""
    for k, v in values.items():
        H.set_setting(k, v, do_bump=False)
    H.bump()
    ok = H.wait_until(ready, timeout=5)
    H.settle()
    try:
        yield ok
    finally:
        for k in values:
            H.set_setting(k, H.DEFAULT_SETTINGS[k], do_bump=False)
        H.bump()
        H.wait_config(lambda c: c["available"] is True and c["minExtensionVersion"] == "1.0.0")
        H.settle()


def ids(offers):
    return [o["id"] for o in offers]


def offer_by_id(category, offer_id, **fields):
    for o in H.query_offers(category=category, limit=20, **fields):
        if o["id"] == str(offer_id):
            return o
    raise AssertionError("offer %s not returned for category %s" % (offer_id, category))


def click_url(offer_id):
    return offer_by_id("clicks", offer_id)["clickUrl"]


def click(url, method="GET", headers=None):
    return H.http(method, url, headers=headers)


def forge_signature(token):
    payload, sig = token.split(".")
    i = len(sig) // 2
    c = "A" if sig[i] != "A" else "B"
    return payload + "." + sig[:i] + c + sig[i + 1:]


def tamper_offer(token, new_offer_id):
    """Same signature, payload changed to name another offer."""
    payload, sig = token.split(".")
    p = bytearray(H.b64u_decode(payload))
    kid_len = p[2]
    off = 3 + kid_len + 16 + 4  # the offer id's length byte
    end = off + 1 + p[off]
    p[off:end] = H.placard_tokens.short_uint(int(new_offer_id))
    return H.b64u(bytes(p)) + "." + sig


def bad_tokens(good):
    """Malformed, truncated and forged variants of a valid token."""
    return {
        "garbage": "not-a-token",
        "dots": "a.b.c",
        "truncated_end": good[:-4],
        "truncated_start": good[6:],
        "payload_only": good.split(".")[0],
        "forged_signature": forge_signature(good),
        "tampered_offer": tamper_offer(good, 1000),
        "appended": good + "A",
        "padded": good + "==",
        "sql": "' OR 1=1 --",
        "long": "A" * 600,
        "wrong_key": H.mint_token(H.decode_token(good)["kind"], H.decode_token(good)["offer_id"],
                                  key=b"\x01" * 32),
        "unknown_kid": H.mint_token(H.decode_token(good)["kind"], H.decode_token(good)["offer_id"],
                                    kid="nosuchkid", key=b"\x02" * 32),
    }


# ---------------------------------------------------------------------------------------------
# 3. Query: fields


class QueryFieldTests(H.E2ETestCase):
    def test_missing_required_fields(self):
        for field in ("country", "placement", "extensionVersion"):
            with self.subTest(field=field):
                self.assertError(H.query(**{field: M}), 400, "missing_field", field)

    def test_missing_all_fields_names_one(self):
        st, h, b = H.post_json("/api/v1/offers/query", {})
        err = self.assertError((st, h, b), 400, "missing_field")
        self.assertIn(err.get("field"), ("country", "placement", "extensionVersion"))

    def test_invalid_fields(self):
        cases = {
            "country": ["de", "DEU", 12, None, "D", "", "\u00c4B", " DE", "D1", ["DE"], {"c": "DE"}, True],
            "placement": ["Bad Name", "", "_abc", "-abc", "a" * 65, "popup.main", "Wide", 5, None,
                          ["wide"], "wide\u0000"],
            "extensionVersion": ["1.2", "+1.2.3", " 1.2.3", "1.2.3 ", "1.2.100000", 1, 1.2, "1.2.3.4",
                                 "1.2.3-beta", "-1.2.3", "1..3", "a.b.c", "1.2.", "", "1.-2.3",
                                 "1.+2.3", "1. 2.3", None, [1, 2, 3]],
            "category": ["A..b", "a.b.c.d.e", 7, "", "a..b", ".a", "a.", "-a", "a" * 33,
                         "Electronics", "a b", "a/b", ["electronics"], "electronics\u0000"],
            "limit": [0, 21, 3.5, "6", True, -1, 10 ** 20, [5], 20.5],
        }
        for field, values in cases.items():
            for value in values:
                with self.subTest(field=field, value=value):
                    self.assertError(H.query(category="electronics", **{field: value})
                                     if field != "category" else H.query(**{field: value}),
                                     400, "invalid_field", field)

    def test_valid_forms_pass_field_checks(self):
        cases = [
            ({"placement": "a" * 64}, 422, "placement_unknown", "placement"),
            ({"placement": "x_y-9"}, 422, "placement_unknown", "placement"),
            ({"category": "a.b.c.d"}, 422, "category_not_selected", "category"),
            ({"category": "a" * 32}, 422, "category_not_selected", "category"),
            ({"category": "0-a.b-0"}, 422, "category_not_selected", "category"),
            ({"country": "GB"}, 422, "country_not_selected", "country"),
        ]
        for fields, status, code, field in cases:
            with self.subTest(fields=fields):
                self.assertError(H.query(**fields), status, code, field)
        for fields in [{"extensionVersion": "99999.99999.99999"}, {"extensionVersion": "1.0.0"},
                       {"extensionVersion": "3.0.0"},
                       {"limit": 1}, {"limit": 20}, {"category": "electronics.audio.headphones.wireless"}]:
            with self.subTest(fields=fields):
                st, _, b = H.query(**fields)
                self.assertEqual(st, 200, b[:300])

    def test_unknown_extra_fields_ignored(self):
        base = ids(H.query_offers(category="electronics"))
        st, h, b = H.query(category="electronics", futureField={"x": [1, 2, {"y": None}]}, another="z",
                           maxPrice=12.5)
        doc = self.assertJsonResponse((st, h, b))
        self.assertEqual(ids(doc["offers"]), base)


# ---------------------------------------------------------------------------------------------
# 3. Query: 426 / 503 / 422 and their order


def min_version_is(v):
    return lambda: (H.fetch_config() or {}).get("minExtensionVersion") == v


class QueryOrderTests(H.E2ETestCase):
    def test_placement_unknown(self):
        for name in ("nope", "banner-off"):
            with self.subTest(placement=name):
                self.assertError(H.query(placement=name, category="electronics"), 422,
                                 "placement_unknown", "placement")

    def test_country_not_selected(self):
        for code in ("GB", "IT", "ZZ"):
            with self.subTest(country=code):
                self.assertError(H.query(country=code, category="electronics"), 422,
                                 "country_not_selected", "country")

    def test_category_not_selected(self):
        for path in ("nope", "garden", "garden.tools", "electronics.tv", "electronics.tv.oled",
                     "electronics.nope", "electronics.audio.headphones.nope"):
            with self.subTest(category=path):
                self.assertError(H.query(category=path), 422, "category_not_selected", "category")

    def test_semantic_checks_order(self):
        self.assertError(H.query(placement="nope", country="GB", category="nope"), 422,
                         "placement_unknown", "placement")
        self.assertError(H.query(placement="banner-off", country="ZZ"), 422, "placement_unknown",
                         "placement")
        self.assertError(H.query(country="GB", category="nope"), 422, "country_not_selected", "country")

    def test_extension_outdated(self):
        with settings(min_version_is("2.0.0"), minExtensionVersion="2.0.0") as ok:
            self.assertTrue(ok, "minExtensionVersion change not visible in config within 5 s")
            for v in ("1.99999.99999", "1.10.0", "0.0.0", "1.9.9"):
                with self.subTest(version=v):
                    self.assertError(H.query(extensionVersion=v, category="electronics"), 426,
                                     "extension_outdated")
            for v in ("2.0.0", "2.0.1", "10.0.0", "2.10.0"):
                with self.subTest(version=v):
                    st, _, b = H.query(extensionVersion=v, category="electronics")
                    self.assertEqual(st, 200, b[:300])

    def test_service_unavailable(self):
        with settings(lambda: (H.fetch_config() or {}).get("available") is False, available="false") as ok:
            self.assertTrue(ok, "available=false not visible in config within 5 s")
            resp = H.query(category="electronics")
            self.assertError(resp, 503, "service_unavailable", H.NO_FIELD)
            self.assertRegex(resp[1].get("retry-after", ""), r"^\d+$", "Retry-After")

    def test_earlier_failure_wins(self):
        ready = lambda: (lambda c: c.get("available") is False and c.get("minExtensionVersion") == "2.0.0")(
            H.fetch_config() or {})
        with settings(ready, minExtensionVersion="2.0.0", available="false") as ok:
            self.assertTrue(ok, "settings not visible within 5 s")
            old = "1.0.0"
            # body beats everything
            self.assertError(H.http("POST", "/api/v1/offers/query",
                                    json.dumps(H.query_body(extensionVersion=old, placement="nope")),
                                    {"Content-Type": "text/plain"}), 415, "unsupported_media_type")
            self.assertError(H.http("POST", "/api/v1/offers/query", '{"extensionVersion": "1.0.0",',
                                    {"Content-Type": "application/json"}), 400, "invalid_json")
            # fields beat 426
            self.assertError(H.query(extensionVersion=old, limit=0), 400, "invalid_field", "limit")
            self.assertError(H.query(extensionVersion=old, country=M), 400, "missing_field", "country")
            self.assertError(H.query(extensionVersion=old, category="A..b"), 400, "invalid_field", "category")
            # 426 beats 503 and the 422s
            self.assertError(H.query(extensionVersion=old, placement="nope", country="GB",
                                     category="nope"), 426, "extension_outdated")
            # 503 beats the 422s
            self.assertError(H.query(extensionVersion="2.0.0", placement="nope", country="GB",
                                     category="nope"), 503, "service_unavailable")


# ---------------------------------------------------------------------------------------------
# 3. Query: selection


class SelectionTests(H.E2ETestCase):
    def test_response_headers(self):
        st, h, b = H.query(category="electronics")
        self.assertJsonResponse((st, h, b))
        self.assertIn("no-store", H.header_tokens(h.get("cache-control")))

    def test_envelope(self):
        doc = self.assertJsonResponse(H.query(category="electronics"))
        self.assertEqual(list(doc), ["offers"])
        self.assertIsInstance(doc["offers"], list)

    def test_electronics_exact_selection_and_order(self):
        self.assertEqual(ids(H.query_offers(category="electronics")), H.ELECTRONICS_DE)

    def test_excluded_offers(self):
        got = set(ids(H.query_offers(category="electronics")))
        for oid, why in [(1005, "disabled"), (1006, "expired"), (1007, "not yet valid"),
                         (1008, "disabled category"), (1009, "child of disabled category"),
                         (1010, "not in DE"), (1014, "other category")]:
            with self.subTest(offer=oid, why=why):
                self.assertNotIn(str(oid), got)

    def test_descendants(self):
        cases = {
            "electronics.audio": ["1001", "1002", "1004"],
            "electronics.audio.headphones": ["1001", "1002"],
            "electronics.audio.headphones.wireless": ["1002"],
            "electronics.phones": ["1000"],
        }
        for cat, want in cases.items():
            with self.subTest(category=cat):
                self.assertEqual(ids(H.query_offers(category=cat)), want)

    def test_country_availability(self):
        self.assertEqual(ids(H.query_offers(category="electronics", country="FR")), ["1000", "1010"])
        self.assertEqual(ids(H.query_offers(category="electronics", country="US")), ["1003"])

    def test_absent_category_means_every_enabled_category(self):
        # 1016 (priority 50, FR) is in garden.tools whose parent is disabled.
        self.assertEqual(ids(H.query_offers(country="FR")), ["1000", "1010", "1015"])

    def test_empty_result(self):
        doc = self.assertJsonResponse(H.query(category="empty"))
        self.assertEqual(doc, {"offers": []})

    def test_count_is_min_of_limit_and_max_offers(self):
        cases = [("wide", 20, 20), ("wide", M, 20), ("wide", 7, 7), ("wide", 1, 1), ("sidebar", M, 3),
                 ("sidebar", 10, 3), ("sidebar", 2, 2), ("popup-main", M, 6), ("popup-main", 20, 6),
                 ("popup-main", 2, 2)]
        for placement, limit, want in cases:
            with self.subTest(placement=placement, limit=limit):
                offers = H.query_offers(category="bulk", placement=placement, limit=limit)
                self.assertEqual(len(offers), want)
                self.assertEqual(len(set(ids(offers))), want, "duplicates")

    def test_priority_order_and_top_set(self):
        prio = {str(o["id"]): o["priority"] for o in H.OFFERS if o["category"] == "bulk"}
        for placement, limit in [("wide", 20), ("wide", 9), ("popup-main", M), ("sidebar", M)]:
            for _ in range(5):
                with self.subTest(placement=placement, limit=limit):
                    got = ids(H.query_offers(category="bulk", placement=placement, limit=limit))
                    self.assertEqual(len(got), len(set(got)), "duplicates")
                    ps = [prio[i] for i in got]
                    self.assertEqual(ps, sorted(ps, reverse=True), "not by priority: %r" % got)
                    rest = [p for i, p in prio.items() if i not in got]
                    self.assertGreaterEqual(min(ps), max(rest), "a higher-priority offer was left out")

    def test_priority_before_rotation(self):
        for _ in range(10):
            got = ids(H.query_offers(category="rotation"))
            self.assertEqual(len(got), 6, got)
            self.assertEqual(got[0], "1100")
            self.assertEqual(set(got[1:5]), {"1101", "1102", "1103", "1104"})
            self.assertEqual(got[5], "1105")

    def test_fair_rotation_first_place(self):
        n = 300
        equal = ["1101", "1102", "1103", "1104"]
        leads = dict.fromkeys(equal, 0)
        for _ in range(n):
            got = ids(H.query_offers(category="rotation.equal", limit=4))
            self.assertEqual(sorted(got), equal)
            leads[got[0]] += 1
        fair = n / len(equal)
        for oid, count in leads.items():
            self.assertGreaterEqual(count, 0.4 * fair, "unfair rotation: %r" % leads)

    def test_fair_rotation_with_limit_1(self):
        n = 200
        equal = ["1101", "1102", "1103", "1104"]
        seen = dict.fromkeys(equal, 0)
        for _ in range(n):
            got = ids(H.query_offers(category="rotation.equal", limit=1))
            self.assertEqual(len(got), 1)
            seen[got[0]] += 1
        for oid, count in seen.items():
            self.assertGreaterEqual(count, 0.4 * n / len(equal), "unfair rotation: %r" % seen)

    def test_validity_window_follows_the_clock(self):
        """An offer starting in ~4 s appears after it starts, one ending in ~4 s disappears, with no
        catalog bump in between."""
        cat = H.CAT_ID["timing"]

        def cleanup():
            H.db("DELETE FROM offer_countries WHERE offer_id IN (1400, 1401, 1402); "
                 "DELETE FROM offers WHERE id IN (1400, 1401, 1402)")
            H.bump()
            H.settle()
        self.addCleanup(cleanup)
        H.db(";\n".join(H.offer_insert_sql(o) for o in (
            H.offer(1400, cat, 3, title="starts soon", tracking="https://m.example/1400",
                    valid_from=H.NOW + " + INTERVAL 4 SECOND"),
            H.offer(1401, cat, 2, title="ends soon", tracking="https://m.example/1401",
                    valid_until=H.NOW + " + INTERVAL 4 SECOND"),
            H.offer(1402, cat, 1, title="sentinel", tracking="https://m.example/1402")))
             + ";\nUPDATE catalog_version SET version=version+1 WHERE id=1")
        rows = H.db("SELECT TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(6), valid_from) FROM offers WHERE id=1400")
        t_change = time.monotonic() + int(rows[0][0]) / 1e6
        visible = H.wait_until(lambda: "1402" in ids(H.query_offers(category="timing")), timeout=3)
        self.assertTrue(visible, "new offers not visible within 3 s of the bump")
        H.settle()
        got = ids(H.query_offers(category="timing"))
        if time.monotonic() < t_change - 0.2:  # else too slow to observe the state before the change
            self.assertEqual(got, ["1401", "1402"], "before the change")
        while time.monotonic() < t_change:
            time.sleep(0.05)
        after = H.wait_until(lambda: (lambda g: g if g == ["1400", "1402"] else None)(
            ids(H.query_offers(category="timing"))), timeout=2.0, interval=0.05)
        self.assertEqual(after, ["1400", "1402"], "after the window change (no bump)")

    def test_demo_and_regular_offer_shape(self):
        offers = H.query_offers(category="electronics.audio")
        by = {o["id"]: o for o in offers}
        demo = by["1004"]
        self.assertIs(demo["isDemo"], True)
        self.assertNotIn("clickUrl", demo)
        self.assertIsInstance(demo.get("impressionToken"), str)
        self.assertRegex(demo["impressionToken"], TOKEN_RE)
        for oid in ("1001", "1002"):
            o = by[oid]
            self.assertIs(o["isDemo"], False)
            self.assertIsInstance(o.get("clickUrl"), str)
            self.assertRegex(o["clickUrl"], r"^/r/click/%s\?t=[A-Za-z0-9_.~-]+$" % oid)
            self.assertIsInstance(o.get("impressionToken"), str)

    def test_offer_fields(self):
        o = offer_by_id("electronics.audio", 1001)
        want = {"id": "1001", "title": "Headphones 20% off", "description": "Over-ear, noise cancelling",
                "merchant": "Acme Audio", "imageUrl": "https://cdn.example/1001.png",
                "category": "electronics.audio.headphones", "couponCode": "ACME20",
                "validUntil": "2030-12-31T23:59:59Z", "isDemo": False}
        for k, v in want.items():
            with self.subTest(field=k):
                self.assertEqual(o.get(k), v)
        self.assertNotIn("trackingUrl", o)

    def test_ids_are_strings(self):
        for o in H.query_offers(category="bulk"):
            self.assertIsInstance(o["id"], str)
            self.assertRegex(o["id"], r"^[1-9][0-9]*$")

    def test_tokens(self):
        a = H.query_offers(category="electronics")
        b = H.query_offers(category="electronics")
        tokens_a = []
        for o in a:
            t = o["impressionToken"]
            self.assertRegex(t, TOKEN_RE)
            tokens_a.append(t)
            if "clickUrl" in o:
                ct = H.token_from_click_url(o["clickUrl"])
                self.assertRegex(ct, TOKEN_RE)
                self.assertNotEqual(ct, t, "click and impression tokens must differ")
                tokens_a.append(ct)
        self.assertEqual(len(tokens_a), len(set(tokens_a)), "tokens not unique within one answer")
        tokens_b = {o["impressionToken"] for o in b}
        self.assertFalse(tokens_b & set(tokens_a), "tokens repeat across answers")

    def test_token_names_offer_country_placement_time(self):
        now = time.time()
        for o in H.query_offers(category="electronics", country="FR", placement="popup-main"):
            c = H.decode_token(o["impressionToken"])
            self.assertEqual((c["kind"], c["offer_id"], c["country"], c["placement"]),
                             (H.IMPRESSION, int(o["id"]), "FR", "popup-main"))
            self.assertLess(abs(c["issued_at"] - now), 120)
            k = H.decode_token(H.token_from_click_url(o["clickUrl"]))
            self.assertEqual((k["kind"], k["offer_id"]), (H.CLICK, int(o["id"])))


# ---------------------------------------------------------------------------------------------
# 4. Impressions


class ImpressionTests(H.E2ETestCase):
    def fresh(self, oid=1311):
        return offer_by_id("clicks", oid)["impressionToken"]

    def test_recorded_then_duplicate(self):
        token = self.fresh()
        doc = self.assertJsonResponse(H.impression(token))
        self.assertEqual(doc, {"status": "recorded"})
        for _ in range(2):
            doc = self.assertJsonResponse(H.impression(token))
            self.assertEqual(doc, {"status": "duplicate"})
        nonce = H.decode_token(token)["nonce"]
        self.assertEqual(H.rows_for_nonce("impressions", nonce), 1)
        self.assertEqual(H.db("SELECT offer_id, placement, country FROM impressions WHERE token_nonce=UNHEX('%s')"
                              % nonce.hex()), [["1311", "wide", "DE"]])

    def test_rows_lead_with_the_time(self):
        # Issue 24: a nonce leads with its token's issue time and a client hash with the UTC day,
        # as handed out and as written, so the recent events share one end of each index
        # (impressions_token, impressions_client, clicks_token, clicks_client).
        o = offer_by_id("clicks", 1311)
        token = o["impressionToken"]
        t = H.decode_token(token)
        self.assertEqual(t["nonce"][:4], t["issued_at"].to_bytes(4, "big"))
        self.assertEqual(self.assertJsonResponse(H.impression(token)), {"status": "recorded"})
        st, _, body = click(o["clickUrl"])
        self.assertEqual(st, 302, body[:300])
        for table, at in (("impressions", "recorded_at"), ("clicks", "clicked_at")):
            rows = H.db("SELECT HEX(token_nonce), HEX(client_hash), TO_DAYS(%s) - TO_DAYS('1970-01-01') "
                        "FROM %s WHERE token_nonce = UNHEX('%s')" % (at, table, t["nonce"].hex()))
            self.assertEqual(len(rows), 1, table)
            nonce_hex, client_hex, day = rows[0]
            self.assertEqual(nonce_hex.lower(), t["nonce"].hex(), table)
            # The worker's day at the request, the database's at the insert: one midnight apart at most.
            self.assertIn(int(client_hex[:4], 16), (int(day) - 1, int(day)), table)

    def test_concurrent_same_token_counts_once(self):
        token = self.fresh()
        n = 32
        barrier = threading.Barrier(n)
        results = [None] * n
        body = json.dumps({"impressionToken": token})

        def worker(i):
            conn = http.client.HTTPConnection("127.0.0.1", H.current().port, timeout=20)
            try:
                conn.connect()
                barrier.wait(timeout=20)
                conn.request("POST", H.prefixed("/api/v1/events/impression"), body,
                             {"Content-Type": "application/json"})
                r = conn.getresponse()
                results[i] = (r.status, r.read())
            except Exception as e:  # noqa: BLE001
                results[i] = ("error", repr(e))
            finally:
                conn.close()
        threads = [threading.Thread(target=worker, args=(i,)) for i in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        statuses = [r[0] for r in results]
        self.assertEqual(statuses, [200] * n, results)
        answers = [from_json(r[1])["status"] for r in results]
        self.assertEqual(answers.count("recorded"), 1, answers)
        self.assertEqual(answers.count("duplicate"), n - 1, answers)
        self.assertEqual(H.rows_for_nonce("impressions", H.decode_token(token)["nonce"]), 1)

    def test_missing_token(self):
        self.assertError(H.post_json("/api/v1/events/impression", {}), 400, "missing_field", "impressionToken")
        self.assertError(H.post_json("/api/v1/events/impression", {"token": "x"}), 400, "missing_field",
                         "impressionToken")

    def test_invalid_tokens(self):
        for name, token in bad_tokens(self.fresh()).items():
            with self.subTest(variant=name):
                self.assertError(H.impression(token), 400, "invalid_token")

    def test_click_token_is_not_an_impression_token(self):
        token = H.token_from_click_url(click_url(1311))
        self.assertError(H.impression(token), 400, "invalid_token")
        minted = H.mint_token(H.CLICK, 1311)
        self.assertError(H.impression(minted), 400, "invalid_token")

    def test_minted_token_accepted(self):
        """Sanity check of the suite's token minting (the expiry tests depend on it)."""
        token = H.mint_token(H.IMPRESSION, 1311, issued_at=time.time() - 3600)
        doc = self.assertJsonResponse(H.impression(token))
        self.assertEqual(doc, {"status": "recorded"})

    def test_expired_token(self):
        old = time.time() - 2 * 86400
        self.assertError(H.impression(H.mint_token(H.IMPRESSION, 1311, issued_at=old)), 410, "token_expired")
        self.assertError(H.impression(H.mint_token(H.IMPRESSION, 1311, issued_at=old, key=b"\x03" * 32)),
                         400, "invalid_token")

    def test_demo_offer_impression(self):
        token = offer_by_id("electronics.audio", 1004)["impressionToken"]
        self.assertEqual(self.assertJsonResponse(H.impression(token)), {"status": "recorded"})

    def test_token_ttl_setting(self):
        def expired_at_120s():
            st, _, _ = H.impression(H.mint_token(H.IMPRESSION, 1311, issued_at=time.time() - 120))
            return st == 410

        def restore():
            H.set_setting("tokenTtlSeconds", "86400")
            H.wait_until(lambda: not expired_at_120s(), timeout=5)
            H.settle()
        self.addCleanup(restore)
        H.set_setting("tokenTtlSeconds", "60")
        self.assertTrue(H.wait_until(expired_at_120s, timeout=5), "tokenTtlSeconds=60 not applied within 5 s")
        H.settle()
        self.assertError(H.impression(H.mint_token(H.IMPRESSION, 1311, issued_at=time.time() - 120)), 410,
                         "token_expired")
        st, _, b = H.impression(H.mint_token(H.IMPRESSION, 1311, issued_at=time.time() - 10))
        self.assertEqual((st, from_json(b)), (200, {"status": "recorded"}))


# ---------------------------------------------------------------------------------------------
# 4. Clicks

SUBID = {"admitad": "subid", "awin": "clickref"}


class ClickTests(H.E2ETestCase):
    def assertRedirect(self, resp, oid):
        st, h, b = resp
        self.assertEqual(st, 302, b[:300])
        self.assertIn("no-store", H.header_tokens(h.get("cache-control")))
        self.assertEqual(h.get("referrer-policy"), "no-referrer")
        loc = h.get("location")
        self.assertTrue(loc, "no Location")
        o = H.OFFER[oid]
        url = o["tracking"]
        if o["network"] == "manual":
            self.assertEqual(loc, url)
            return None
        sep = "&" if "?" in url else "?"
        m = re.fullmatch(re.escape(url + sep + SUBID[o["network"]] + "=") + r"([A-Za-z0-9_.~-]+)", loc)
        self.assertTrue(m, "Location %r is not %r + %s%s=<click id>" % (loc, url, sep, SUBID[o["network"]]))
        return m.group(1)

    def assertRefusal(self, resp, status, code):
        self.assertNotIn("location", resp[1])
        return self.assertError(resp, status, code)

    def test_redirect_targets(self):
        urls = {o["id"]: o.get("clickUrl") for o in H.query_offers(category="clicks")}
        for oid in (1300, 1301, 1302, 1303, 1304, 1309):
            with self.subTest(offer=oid):
                self.assertIn(str(oid), urls)
                self.assertRedirect(click(urls[str(oid)]), oid)

    def test_click_ids_differ_per_token(self):
        a = self.assertRedirect(click(click_url(1301)), 1301)
        b = self.assertRedirect(click(click_url(1301)), 1301)
        self.assertNotEqual(a, b)

    def test_repeated_click_counted_once(self):
        url = click_url(1310)
        nonce = H.decode_token(H.token_from_click_url(url))["nonce"]
        self.assertRedirect(click(url), 1310)
        self.assertRedirect(click(url), 1310)
        self.assertEqual(H.rows_for_nonce("clicks", nonce), 1)
        self.assertEqual(H.db("SELECT offer_id, placement, country FROM clicks WHERE token_nonce=UNHEX('%s')"
                              % nonce.hex()), [["1310", "wide", "DE"]])

    def test_head_records_nothing(self):
        url = click_url(1310)
        nonce = H.decode_token(H.token_from_click_url(url))["nonce"]
        resp = click(url, method="HEAD")
        self.assertRedirect(resp, 1310)
        self.assertEqual(resp[2], b"")
        time.sleep(0.3)
        self.assertEqual(H.rows_for_nonce("clicks", nonce), 0, "HEAD recorded a click")
        self.assertRedirect(click(url), 1310)
        self.assertEqual(H.rows_for_nonce("clicks", nonce), 1)

    def test_head_refusal(self):
        st, h, b = click("/r/click/1306?t=" + H.mint_token(H.CLICK, 1306), method="HEAD")
        self.assertEqual(st, 410)
        self.assertEqual(b, b"")
        self.assertNotIn("location", h)

    def test_disabled_offer_410_within_1s(self):
        url = click_url(1305)
        self.assertRedirect(click(url, method="HEAD"), 1305)

        def restore():
            H.db("UPDATE offers SET enabled=1 WHERE id=1305")
            H.bump()
            H.settle()
        self.addCleanup(restore)
        H.db("UPDATE offers SET enabled=0 WHERE id=1305")  # no bump
        t0 = time.monotonic()
        resp = H.wait_until(lambda: (lambda r: r if r[0] != 302 else None)(click(url)), timeout=3, interval=0.05)
        elapsed = time.monotonic() - t0
        self.assertTrue(resp, "disabled offer still redirects 3 s later")
        self.assertRefusal(resp, 410, "offer_unavailable")
        self.assertLessEqual(elapsed, 1.0, "took %.2f s" % elapsed)

    def test_expired_offer_410(self):
        self.assertRefusal(click("/r/click/1306?t=" + H.mint_token(H.CLICK, 1306)), 410, "offer_unavailable")

    def test_offer_expiring_after_issue_410(self):
        url = click_url(1305)

        def restore():
            H.db("UPDATE offers SET valid_until=NULL WHERE id=1305")
            H.bump()
            H.settle()
        self.addCleanup(restore)
        H.db("UPDATE offers SET valid_until=UTC_TIMESTAMP() - INTERVAL 1 MINUTE WHERE id=1305")
        H.bump()
        resp = H.wait_until(lambda: (lambda r: r if r[0] != 302 else None)(click(url)), timeout=3)
        self.assertTrue(resp, "expired offer still redirects")
        self.assertRefusal(resp, 410, "offer_unavailable")

    def test_offer_not_started_yet_410_and_nothing_counted(self):
        # Issue 27: validFrom still in the future at the click's time (fixture 1007 starts in ten
        # days) answers 410 and records nothing, neither a click nor an ignored one.
        ignored_before = H.db("SELECT COUNT(*) FROM ignored_events WHERE offer_id = 1007")
        for method in ("GET", "HEAD"):
            with self.subTest(method=method):
                token = H.mint_token(H.CLICK, 1007)
                resp = click("/r/click/1007?t=" + token, method=method)
                self.assertEqual(resp[0], 410)
                self.assertNotIn("location", resp[1])
                if method == "GET":
                    self.assertRefusal(resp, 410, "offer_unavailable")
                self.assertEqual(H.rows_for_nonce("clicks", H.decode_token(token)["nonce"]), 0)
        self.assertEqual(H.db("SELECT COUNT(*) FROM clicks WHERE offer_id = 1007"), [["0"]])
        self.assertEqual(H.db("SELECT COUNT(*) FROM ignored_events WHERE offer_id = 1007"), ignored_before)

    def test_offer_moved_to_start_later_410(self):
        # A clickUrl issued while the offer was served; its start is then moved into the future.
        url = click_url(1305)
        nonce = H.decode_token(H.token_from_click_url(url))["nonce"]

        def restore():
            H.db("UPDATE offers SET valid_from=NULL WHERE id=1305")
            H.bump()
            H.settle()
        self.addCleanup(restore)
        H.db("UPDATE offers SET valid_from=UTC_TIMESTAMP() + INTERVAL 1 DAY WHERE id=1305")
        # The click reads the offer from the database: refused at once, no catalog bump needed.
        self.assertRefusal(click(url), 410, "offer_unavailable")
        self.assertEqual(H.rows_for_nonce("clicks", nonce), 0)

    def test_unknown_offer_404(self):
        self.assertRefusal(click("/r/click/999999?t=" + H.mint_token(H.CLICK, 999999)), 404, "not_found")

    def test_demo_offer_404(self):
        for oid in (1307, 1004):
            with self.subTest(offer=oid):
                self.assertRefusal(click("/r/click/%d?t=%s" % (oid, H.mint_token(H.CLICK, oid))), 404,
                                   "not_found")

    def test_missing_token_400(self):
        for url in ("/r/click/1300", "/r/click/1300?t=", "/r/click/1300?x=1"):
            with self.subTest(url=url):
                self.assertRefusal(click(url), 400, "invalid_token")

    def test_bad_tokens_400(self):
        good = H.token_from_click_url(click_url(1300))
        variants = bad_tokens(good)
        variants["impression_token"] = offer_by_id("clicks", 1300)["impressionToken"]
        for name, token in variants.items():
            with self.subTest(variant=name):
                self.assertRefusal(click("/r/click/1300?t=" + token.replace("'", "%27").replace(" ", "%20")),
                                   400, "invalid_token")

    def test_token_of_other_offer_400(self):
        token_a = H.token_from_click_url(click_url(1300))
        self.assertRefusal(click("/r/click/1301?t=" + token_a), 400, "invalid_token")
        self.assertRefusal(click("/r/click/1300?t=" + H.mint_token(H.CLICK, 1301)), 400, "invalid_token")

    def test_minted_click_token_accepted(self):
        """Sanity check of the suite's token minting."""
        self.assertRedirect(click("/r/click/1300?t=" + H.mint_token(H.CLICK, 1300)), 1300)

    def test_expired_token_410(self):
        old = time.time() - 2 * 86400
        self.assertRefusal(click("/r/click/1300?t=" + H.mint_token(H.CLICK, 1300, issued_at=old)), 410,
                           "token_expired")
        self.assertRefusal(click("/r/click/1300?t=" + H.mint_token(H.CLICK, 1300, issued_at=old,
                                                                     key=b"\x04" * 32)), 400, "invalid_token")

    def test_html_refusals(self):
        old = time.time() - 2 * 86400
        cases = [
            ("/r/click/1306?t=" + H.mint_token(H.CLICK, 1306), 410, True),
            ("/r/click/1300?t=" + H.mint_token(H.CLICK, 1300, issued_at=old), 410, True),
            ("/r/click/999999?t=" + H.mint_token(H.CLICK, 999999), 404, False),
            ("/r/click/1300", 400, False),
        ]
        for url, status, gone in cases:
            with self.subTest(url=url[:40], status=status):
                st, h, b = click(url, headers={"Accept": H.BROWSER_ACCEPT})
                self.assertEqual(st, status)
                self.assertNotIn("location", h)
                self.assertTrue(h.get("content-type", "").startswith("text/html"), h.get("content-type"))
                text = b.decode("utf-8", "replace")
                self.assertIn("<", text)
                if gone:
                    self.assertIn("no longer available", text)
                self.assertNoLeak(b)

    def test_json_refusals_unless_html_preferred(self):
        url = "/r/click/1306?t=" + H.mint_token(H.CLICK, 1306)
        for accept in (None, "application/json", "*/*", "text/html;q=0.1, application/json"):
            with self.subTest(accept=accept):
                self.assertRefusal(click(url, headers={"Accept": accept} if accept else None), 410,
                                   "offer_unavailable")

    def test_no_open_redirect(self):
        token = H.token_from_click_url(click_url(1300))
        evil = "https%3A%2F%2Fevil.example%2F"
        for extra in ("&url=" + evil, "&redirect=" + evil + "&next=" + evil, "&to=https://evil.example",
                      "&location=//evil.example", "&t=https://evil.example"):
            with self.subTest(extra=extra):
                st, h, b = click("/r/click/1300?t=" + token + extra)
                loc = h.get("location")
                self.assertNotIn("evil", loc or "")
                if st == 302:
                    self.assertEqual(loc, H.OFFER[1300]["tracking"])
                else:
                    self.assertIsNone(loc)
        for t in ("https://evil.example", "//evil.example"):
            with self.subTest(t=t):
                self.assertRefusal(click("/r/click/1300?t=" + t), 400, "invalid_token")

    def test_non_http_tracking_url_never_redirects(self):
        st, h, b = click("/r/click/1308?t=" + H.mint_token(H.CLICK, 1308))
        self.assertFalse(300 <= st < 400, "redirected: %d %r" % (st, h.get("location")))
        self.assertNotIn("location", h)
        # A refusal, not a crash: the offer cannot be redirected (410) or is treated as unknown (404).
        self.assertIn(st, (404, 410), b[:300])


# ---------------------------------------------------------------------------------------------
# 5. CORS

ORIGIN = "chrome-extension://abc"


def foreign_refused():
    st, _, _ = H.http("GET", "/api/v1/config", headers={"Origin": "chrome-extension://evil"})
    return st == 403


class CorsListTests(H.E2ETestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        H.set_setting("allowedClientOrigins", json.dumps([ORIGIN]))
        cls.ready = bool(H.wait_until(foreign_refused, timeout=5))
        H.settle()

    @classmethod
    def tearDownClass(cls):
        H.set_setting("allowedClientOrigins", "[]")
        H.wait_until(lambda: not foreign_refused(), timeout=5)
        H.settle()

    def setUp(self):
        self.assertTrue(self.ready, "allowedClientOrigins not applied within 5 s")

    def requests(self, origin):
        token = offer_by_id("clicks", 1311)["impressionToken"] if origin == ORIGIN else "x"
        hdr = {"Origin": origin}
        return [
            ("config", H.http("GET", "/api/v1/config", headers=hdr)),
            ("categories", H.http("GET", "/api/v1/categories", headers=hdr)),
            ("query", H.query(headers=hdr, category="electronics")),
            ("impression", H.impression(token, headers=hdr)),
        ]

    def test_listed_origin_allowed(self):
        for name, (st, h, b) in self.requests(ORIGIN):
            with self.subTest(endpoint=name):
                self.assertEqual(st, 200, b[:300])
                self.assertEqual(h.get("access-control-allow-origin"), ORIGIN)
                self.assertIn("origin", H.header_tokens(h.get("vary")))

    def test_other_origin_403(self):
        for origin in ("chrome-extension://evil", "chrome-extension://ab", "chrome-extension://abcd",
                       "https://abc", "null"):
            for name, resp in self.requests(origin):
                with self.subTest(origin=origin, endpoint=name):
                    self.assertError(resp, 403, "origin_not_allowed", H.NO_FIELD)
                    self.assertNotEqual(resp[1].get("access-control-allow-origin"), origin)
                    self.assertNotEqual(resp[1].get("access-control-allow-origin"), "*")

    def test_listed_origin_gets_cors_headers_on_errors(self):
        hdr = {"Origin": ORIGIN}
        for name, resp in [("query", H.query(headers=hdr, limit=0)),
                           ("impression", H.impression("garbage", headers=hdr)),
                           ("not_found", H.http("GET", "/api/v1/nope", headers=hdr))]:
            with self.subTest(endpoint=name):
                self.assertIn(resp[0], (400, 404))
                self.assertEqual(resp[1].get("access-control-allow-origin"), ORIGIN)
                self.assertIn("origin", H.header_tokens(resp[1].get("vary")))

    def test_no_origin_normal(self):
        st, h, b = H.http("GET", "/api/v1/config")
        self.assertEqual(st, 200)
        st, h, b = H.query(category="electronics")
        self.assertEqual(st, 200)

    def test_preflight(self):
        for path, method in (("/api/v1/offers/query", "POST"), ("/api/v1/events/impression", "POST"),
                             ("/api/v1/config", "GET")):
            with self.subTest(path=path):
                st, h, b = H.http("OPTIONS", path, headers={
                    "Origin": ORIGIN, "Access-Control-Request-Method": method,
                    "Access-Control-Request-Headers": "content-type"})
                self.assertEqual(st, 204, b[:300])
                self.assertEqual(b, b"")
                self.assertEqual(h.get("access-control-allow-origin"), ORIGIN)
                self.assertIn(method.lower(), H.header_tokens(h.get("access-control-allow-methods")))
                self.assertIn("content-type", H.header_tokens(h.get("access-control-allow-headers")))

    def test_preflight_from_other_origin_403(self):
        resp = H.http("OPTIONS", "/api/v1/offers/query", headers={
            "Origin": "chrome-extension://evil", "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type"})
        self.assertError(resp, 403, "origin_not_allowed", H.NO_FIELD)
        self.assertIsNone(resp[1].get("access-control-allow-origin"))


class CorsEmptyListTests(H.E2ETestCase):
    def test_any_origin_accepted_when_list_empty(self):
        rows = H.db("SELECT value FROM settings WHERE name='allowedClientOrigins'")
        self.assertEqual(rows, [["[]"]])
        for origin in ("https://random.example", "chrome-extension://whatever", "moz-extension://x"):
            with self.subTest(origin=origin):
                st, h, b = H.http("GET", "/api/v1/config", headers={"Origin": origin})
                self.assertEqual(st, 200, b[:300])
                st, h, b = H.query(headers={"Origin": origin}, category="electronics")
                self.assertEqual(st, 200, b[:300])

    def test_preflight_when_list_empty(self):
        st, h, b = H.http("OPTIONS", "/api/v1/offers/query", headers={
            "Origin": "https://random.example", "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type"})
        self.assertEqual(st, 204, b[:300])
        self.assertIn("post", H.header_tokens(h.get("access-control-allow-methods")))
        self.assertIn("content-type", H.header_tokens(h.get("access-control-allow-headers")))


# ---------------------------------------------------------------------------------------------
# Hostile input


class HostileInputTests(H.E2ETestCase):
    def test_sql_metacharacters(self):
        cases = [("placement", "' OR 1=1 --"), ("category", "' OR 1=1 --"), ("country", "D'"),
                 ("extensionVersion", "1.0.0'; DROP TABLE offers; --"), ("placement", 'wide" OR "1"="1'),
                 ("category", "electronics' OR '1'='1"), ("placement", "wide;--")]
        before = H.db("SELECT COUNT(*) FROM offers")
        for field, value in cases:
            with self.subTest(field=field, value=value):
                self.assertError(H.query(**{field: value}), 400, "invalid_field", field)
        self.assertEqual(H.db("SELECT COUNT(*) FROM offers"), before)

    def test_huge_strings(self):
        for field, value in [("placement", "a" * 15000), ("category", "a" * 15000),
                             ("category", ".".join(["a"] * 7000)), ("country", "A" * 15000),
                             ("extensionVersion", "1" * 15000)]:
            with self.subTest(field=field, size=len(value)):
                self.assertError(H.query(**{field: value}), 400, "invalid_field", field)

    def test_escaped_strings_are_decoded_before_validation(self):
        # "w\u0069de" is "wide": valid once decoded.
        body = json.dumps(H.query_body(category="electronics")).replace('"wide"', '"w\\u0069de"')
        st, _, b = H.http("POST", "/api/v1/offers/query", body, {"Content-Type": "application/json"})
        self.assertEqual(st, 200, b[:300])
        self.assertEqual(ids(from_json(b)["offers"]), H.ELECTRONICS_DE)

    def test_impression_token_wrong_type(self):
        for value in (12, None, ["x"], {"a": 1}):
            with self.subTest(value=value):
                st, h, b = H.post_json("/api/v1/events/impression", {"impressionToken": value})
                self.assertEqual(st, 400, b[:300])
                self.assertIn(from_json(b)["error"]["code"], ("invalid_field", "invalid_token", "missing_field"))


if __name__ == "__main__":
    unittest.main()
