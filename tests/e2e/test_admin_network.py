"""Contract section 8, the parts built so far: GET /network, network credentials (stored with
AES-256-GCM under the config file's credentials.key, never answered, logged or audited) and the
category map (network categories seen, mapped to Placard categories; a change bumps the catalog)."""

import base64
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness as H  # noqa: E402
from admin_client import AdminClient  # noqa: E402
from test_admin_access import AdminCase, audit_rows, last_audit_id  # noqa: E402

ADMITAD = {"clientId": "cid-Ab12", "clientSecret": "S3cr3t-admitad-XYZ", "websiteId": "123456"}
AWIN = {"publisherId": "98765", "apiToken": "tok-awin-0123456789abcdef"}
SECRETS = ("S3cr3t-admitad-XYZ", "tok-awin-0123456789abcdef", "cid-Ab12")


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def credential_keys():
    spec = H.config()["credentials.key"]
    keys = {}
    for entry in spec.split(","):
        kid, key = entry.strip().split(":", 1)
        keys[kid] = b64url(key)
    return keys


def stored(network):
    rows = H.db("SELECT key_id, HEX(iv), HEX(ciphertext), HEX(tag) FROM network_credentials "
                "WHERE network = %s" % H.sql_str(network))
    if not rows:
        return None
    kid, iv, ct, tag = rows[0]
    return dict(kid=kid, iv=bytes.fromhex(iv), ct=bytes.fromhex(ct), tag=bytes.fromhex(tag))


def decrypt(row, network):
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    key = credential_keys()[row["kid"]]
    return AESGCM(key).decrypt(row["iv"], row["ct"] + row["tag"], network.encode())


def network_entry(doc, name):
    return [n for n in doc["networks"] if n["network"] == name][0]


def catalog_version():
    return int(H.db("SELECT version FROM catalog_version WHERE id = 1")[0][0])


class NetworkCase(AdminCase):
    def setUp(self):
        self.saved = H.db("SELECT network, key_id, HEX(iv), HEX(ciphertext), HEX(tag) "
                          "FROM network_credentials")
        H.db("DELETE FROM network_credentials")
        self.addCleanup(self.restore)

    def restore(self):
        H.db("DELETE FROM network_credentials")
        for net, kid, iv, ct, tag in self.saved:
            H.db("INSERT INTO network_credentials (network, key_id, iv, ciphertext, tag) VALUES "
                 "(%s, %s, UNHEX('%s'), UNHEX('%s'), UNHEX('%s'))"
                 % (H.sql_str(net), H.sql_str(kid), iv, ct, tag))

    def assertNoSecret(self, text):
        text = text if isinstance(text, str) else json.dumps(text)
        for s in SECRETS:
            self.assertNotIn(s, text)

    def assertNoSecretInLogs(self):
        logdir = os.path.join(H.current().var, "log")
        for root, _, files in os.walk(logdir):
            for name in files:
                with open(os.path.join(root, name), "rb") as f:
                    data = f.read()
                for s in SECRETS:
                    self.assertNotIn(s.encode(), data, name)


class NetworkListTests(NetworkCase):
    def test_shape_without_credentials(self):
        doc = self.admin.ok("GET", "/network")
        self.assertEqual(list(doc.keys()), ["networks"])
        self.assertEqual([n["network"] for n in doc["networks"]], ["admitad", "awin"])
        for n in doc["networks"]:
            self.assertEqual(n, {"network": n["network"], "credentialsSet": False,
                                 "credentialsUpdatedAt": None, "enabled": False, "lastSync": None})

    def test_last_sync_is_the_newest_run(self):
        H.db("INSERT INTO sync_runs (network, status, started_at, finished_at, offers_created, "
             "offers_updated, offers_disabled, message) VALUES "
             "('awin', 'succeeded', '2026-01-01 10:00:00', '2026-01-01 10:01:00', 1, 2, 3, NULL), "
             "('awin', 'failed', '2026-01-02 10:00:00', '2026-01-02 10:00:05', 0, 0, 0, "
             "'Awin refused the credentials')")
        self.addCleanup(H.db, "DELETE FROM sync_runs WHERE network = 'awin'")
        doc = self.admin.ok("GET", "/network")
        last = network_entry(doc, "awin")["lastSync"]
        self.assertEqual(set(last), {"id", "network", "status", "startedAt", "finishedAt",
                                     "pagesDone", "pagesTotal", "created", "updated", "disabled",
                                     "skipped", "error"})
        self.assertIsInstance(last["id"], str)
        self.assertEqual((last["network"], last["status"], last["startedAt"], last["finishedAt"],
                          last["error"]),
                         ("awin", "failed", "2026-01-02T10:00:00Z", "2026-01-02T10:00:05Z",
                          "Awin refused the credentials"))
        self.assertIsNone(network_entry(doc, "admitad")["lastSync"])

    def test_needs_a_session(self):
        st, _, doc = AdminClient().get("/network")
        self.assertEqual((st, doc["error"]["code"]), (401, "not_signed_in"))

    def test_unknown_query_parameter(self):
        self.assertAdminError(self.admin.get("/network?x=1"), 400, "invalid_field", "x")


class CredentialsTests(NetworkCase):
    def test_put_admitad_stores_encrypted_and_audits_without_secret(self):
        since = last_audit_id()
        st, h, body = self.admin.put("/network/credentials/admitad", ADMITAD)
        self.assertEqual((st, body), (204, b""))
        row = stored("admitad")
        self.assertEqual(len(row["iv"]), 12)
        self.assertEqual(len(row["tag"]), 16)
        self.assertIn(row["kid"], credential_keys())
        self.assertEqual(json.loads(decrypt(row, "admitad")), ADMITAD)
        for s in SECRETS:
            self.assertNotIn(s.encode(), row["ct"])
        # bound to its network: the same row read as awin's does not decrypt
        from cryptography.exceptions import InvalidTag
        with self.assertRaises(InvalidTag):
            decrypt(row, "awin")
        doc = self.admin.ok("GET", "/network")
        adm = network_entry(doc, "admitad")
        self.assertTrue(adm["credentialsSet"])
        self.assertTrue(adm["enabled"])
        self.assertRegex(adm["credentialsUpdatedAt"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
        self.assertFalse(network_entry(doc, "awin")["credentialsSet"])
        self.assertNoSecret(doc)
        rows = audit_rows("network.credentials.update", since)
        self.assertEqual(len(rows), 1)
        self.assertEqual(rows[0]["resource"], "network:admitad")
        self.assertEqual(rows[0]["account"], str(self.admin.account["id"]))
        self.assertEqual(rows[0]["before"], {"network": "admitad", "credentialsSet": False})
        self.assertEqual(rows[0]["after"], {"network": "admitad", "credentialsSet": True})
        self.assertNoSecret(H.db("SELECT * FROM audit_log WHERE id > %d" % since))
        self.assertNoSecretInLogs()

    def test_put_again_replaces_with_a_new_iv(self):
        self.admin.ok("PUT", "/network/credentials/awin", AWIN, status=204)
        first = stored("awin")
        changed = dict(AWIN, apiToken="tok-awin-second-value")
        self.admin.ok("PUT", "/network/credentials/awin", changed, status=204)
        second = stored("awin")
        self.assertNotEqual(first["iv"], second["iv"])
        self.assertEqual(json.loads(decrypt(second, "awin")), changed)
        self.assertEqual(int(H.db("SELECT COUNT(*) FROM network_credentials")[0][0]), 1)

    def test_delete(self):
        self.admin.ok("PUT", "/network/credentials/awin", AWIN, status=204)
        since = last_audit_id()
        st, _, body = self.admin.delete("/network/credentials/awin")
        self.assertEqual((st, body), (204, b""))
        self.assertIsNone(stored("awin"))
        rows = audit_rows("network.credentials.delete", since)
        self.assertEqual([(r["resource"], r["before"], r["after"]) for r in rows],
                         [("network:awin", {"network": "awin", "credentialsSet": True},
                           {"network": "awin", "credentialsSet": False})])
        self.assertAdminError(self.admin.delete("/network/credentials/awin"), 404, "not_found")
        self.assertEqual(audit_rows("network.credentials.delete", rows[0]["id"]), [])

    def test_unknown_network(self):
        self.assertAdminError(self.admin.put("/network/credentials/cj", AWIN), 404, "not_found")
        self.assertAdminError(self.admin.delete("/network/credentials/cj"), 404, "not_found")
        self.assertAdminError(self.admin.put("/network/credentials/ADMITAD", ADMITAD), 404,
                              "not_found")

    def test_validation_refuses_and_changes_nothing(self):
        since = last_audit_id()
        cases = [
            ("admitad", {"clientSecret": "x", "websiteId": "1"}, "missing_field", "clientId"),
            ("admitad", dict(ADMITAD, clientId=""), "invalid_field", "clientId"),
            ("admitad", dict(ADMITAD, clientId="x" * 513), "invalid_field", "clientId"),
            ("admitad", dict(ADMITAD, clientSecret=12), "invalid_field", "clientSecret"),
            ("admitad", dict(ADMITAD, clientSecret="S3cr3t-admitad-XYZ\n"), "invalid_field",
             "clientSecret"),
            ("admitad", dict(ADMITAD, clientSecret="S3cr3t-admitad-XYZ\u0085"), "invalid_field",
             "clientSecret"),
            ("admitad", dict(ADMITAD, websiteId="12a"), "invalid_field", "websiteId"),
            ("admitad", dict(ADMITAD, websiteId=123), "invalid_field", "websiteId"),
            ("admitad", dict(ADMITAD, apiToken="x"), "invalid_field", "apiToken"),
            ("awin", {"publisherId": "1"}, "missing_field", "apiToken"),
            ("awin", dict(AWIN, publisherId="-1"), "invalid_field", "publisherId"),
            ("awin", dict(AWIN, apiToken=None), "invalid_field", "apiToken"),
            ("awin", dict(AWIN, clientId="x"), "invalid_field", "clientId"),
        ]
        for network, body, code, field in cases:
            resp = self.admin.put("/network/credentials/" + network, body)
            err = self.assertAdminError(resp, 400, code, field)
            self.assertNoSecret(err)
        self.assertEqual(H.db("SELECT COUNT(*) FROM network_credentials"), [["0"]])
        self.assertEqual(audit_rows("network.credentials.update", since), [])
        self.assertNoSecretInLogs()

    def test_longest_value_accepted(self):
        body = dict(AWIN, apiToken="é" * 512)
        self.admin.ok("PUT", "/network/credentials/awin", body, status=204)
        self.assertEqual(json.loads(decrypt(stored("awin"), "awin")), body)

    def test_writes_need_same_origin(self):
        st, _, doc = self.admin.put("/network/credentials/awin", AWIN, mark=None)
        self.assertEqual((st, doc["error"]["code"]), (403, "csrf_check_failed"))
        st, _, doc = self.admin.delete("/network/credentials/awin", origin="https://evil.example")
        self.assertEqual((st, doc["error"]["code"]), (403, "csrf_check_failed"))
        self.assertIsNone(stored("awin"))


class CategoryMapTests(NetworkCase):
    SEEN = [("admitad", "62", "Electronics"), ("admitad", "7", "Audio & Hi-Fi"),
            ("admitad", "9", "Books"), ("awin", "adv-15", "Example Store")]

    def setUp(self):
        super().setUp()
        H.db("DELETE FROM network_categories")
        H.db("INSERT INTO network_categories (network, external_id, name) VALUES " +
             ", ".join("(%s, %s, %s)" % (H.sql_str(n), H.sql_str(e), H.sql_str(m))
                       for n, e, m in self.SEEN))
        self.addCleanup(H.db, "DELETE FROM network_categories")

    def test_list_by_network_sorted_by_name(self):
        doc = self.admin.ok("GET", "/network/category-map?network=admitad")
        self.assertEqual(doc, {"items": [
            {"network": "admitad", "externalCategoryId": "7", "name": "Audio & Hi-Fi",
             "category": None},
            {"network": "admitad", "externalCategoryId": "9", "name": "Books", "category": None},
            {"network": "admitad", "externalCategoryId": "62", "name": "Electronics",
             "category": None}], "total": 3, "limit": 50, "offset": 0})
        page = self.admin.ok("GET", "/network/category-map?network=admitad&limit=1&offset=2")
        self.assertEqual((page["total"], [i["externalCategoryId"] for i in page["items"]]),
                         (3, ["62"]))
        both = self.admin.ok("GET", "/network/category-map")
        self.assertEqual(both["total"], 4)
        self.assertEqual([i["network"] for i in both["items"]], ["admitad"] * 3 + ["awin"])

    def test_list_parameters_checked(self):
        self.assertAdminError(self.admin.get("/network/category-map?network=cj"), 400,
                              "invalid_field", "network")
        self.assertAdminError(self.admin.get("/network/category-map?limit=0"), 400,
                              "invalid_field", "limit")
        self.assertAdminError(self.admin.get("/network/category-map?x=1"), 400, "invalid_field",
                              "x")

    def test_map_and_unmap_audited_and_bumps_catalog(self):
        since = last_audit_id()
        v0 = catalog_version()
        doc = self.admin.ok("PUT", "/network/category-map/admitad/7",
                            {"category": "electronics.audio"})
        self.assertEqual(doc, {"network": "admitad", "externalCategoryId": "7",
                               "name": "Audio & Hi-Fi", "category": "electronics.audio"})
        self.assertEqual(H.db("SELECT category_id FROM network_categories WHERE network='admitad' "
                              "AND external_id='7'"), [[str(H.CAT_ID["electronics.audio"])]])
        self.assertEqual(catalog_version(), v0 + 1)
        listed = self.admin.ok("GET", "/network/category-map?network=admitad")["items"]
        self.assertEqual([i["category"] for i in listed], ["electronics.audio", None, None])
        doc = self.admin.ok("PUT", "/network/category-map/admitad/7", {"category": None})
        self.assertIsNone(doc["category"])
        self.assertEqual(catalog_version(), v0 + 2)
        rows = audit_rows("network.category_map.update", since)
        self.assertEqual([(r["resource"], r["before"]["category"], r["after"]["category"])
                          for r in rows],
                         [("network-category:admitad/7", None, "electronics.audio"),
                          ("network-category:admitad/7", "electronics.audio", None)])

    def test_refusals_change_nothing(self):
        since = last_audit_id()
        v0 = catalog_version()
        self.assertAdminError(self.admin.put("/network/category-map/admitad/7",
                                             {"category": "no.such"}), 400, "invalid_field",
                              "category")
        self.assertAdminError(self.admin.put("/network/category-map/admitad/7", {"category": 5}),
                              400, "invalid_field", "category")
        self.assertAdminError(self.admin.put("/network/category-map/admitad/7", {}), 400,
                              "missing_field", "category")
        self.assertAdminError(self.admin.put("/network/category-map/admitad/7",
                                             {"category": "books", "name": "x"}), 400,
                              "invalid_field", "name")
        self.assertAdminError(self.admin.put("/network/category-map/cj/7", {"category": "books"}),
                              404, "not_found")
        self.assertAdminError(self.admin.put("/network/category-map/admitad/8",
                                             {"category": "books"}), 404, "not_found")
        self.assertAdminError(self.admin.put("/network/category-map/awin/62",
                                             {"category": "books"}), 404, "not_found")
        self.assertEqual(H.db("SELECT COUNT(*) FROM network_categories WHERE category_id IS NOT "
                              "NULL"), [["0"]])
        self.assertEqual(audit_rows("network.category_map.update", since), [])
        self.assertEqual(catalog_version(), v0)


if __name__ == "__main__":
    import unittest
    unittest.main()
