"""Contract section 6: who may use the admin API. Sign-in, sessions (cookie, idle and absolute
expiry, sign-out), registration, approval and revocation, the same-origin rule for writes,
throttling of failed sign-ins by account and by client address, and the audit rows of it all."""

import base64
import hashlib
import http.client as httpclient
import json
import os
import re
import secrets
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness as H  # noqa: E402
from admin_client import (ADMIN_EMAIL, PREFIX, AdminClient, admin_password,  # noqa: E402
                          new_approved_account, own_origin, unique_email)

COOKIE_RE = re.compile(r"^placard_session=([A-Za-z0-9_-]{43}); (.*)$")


def request_from(source_ip, method, path, body=None, headers=None):
    """One request whose TCP connection comes from `source_ip` (any 127.x.y.z works on the
    loopback interface), so the server sees another client address."""
    conn = httpclient.HTTPConnection("127.0.0.1", H.current().port, timeout=H.HTTP_TIMEOUT,
                                     source_address=(source_ip, 0))
    try:
        if isinstance(body, (dict, list)):
            body = json.dumps(body)
        conn.request(method, H.prefixed(path), body=body, headers=dict(headers or {}))
        resp = conn.getresponse()
        raw = resp.read()
        hdrs = {k.lower(): v for k, v in resp.getheaders()}
        return resp.status, hdrs, raw
    finally:
        conn.close()


def write_headers():
    return {"Origin": own_origin(), "X-Service-Mark": "admin", "Content-Type": "application/json"}


def sign_in_from(source_ip, email, password):
    return request_from(source_ip, "POST", PREFIX + "/session",
                        {"email": email, "password": password}, write_headers())


def audit_rows(action, since_id=0):
    rows = H.db("SELECT id, IFNULL(account_id, ''), target, IFNULL(before_json, ''), "
                "IFNULL(after_json, '') FROM audit_log WHERE action = %s AND id > %d ORDER BY id"
                % (H.sql_str(action), since_id))
    return [dict(id=int(r[0]), account=r[1], resource=r[2],
                 before=json.loads(r[3]) if r[3] else None,
                 after=json.loads(r[4]) if r[4] else None) for r in rows]


def last_audit_id():
    return int(H.db("SELECT IFNULL(MAX(id), 0) FROM audit_log")[0][0])


def clear_failures():
    H.db("DELETE FROM sign_in_failures")


class AdminCase(H.E2ETestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.admin = AdminClient.signed_in()

    def assertNoLeak(self, body):
        # The admin API talks about passwords by name ("password is required"); every other
        # leak pattern still applies.
        text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
        super().assertNoLeak(re.sub(r"\bpassword\b", "pw", text))

    def assertAdminError(self, resp, status, code, field=H.ANY_FIELD):
        err = self.assertError(resp[:2] + (json.dumps(resp[2]).encode() if isinstance(resp[2], dict) else resp[2],),
                               status, code, field)
        self.assertEqual(resp[1].get("cache-control"), "no-store")
        return err


class SignInTests(AdminCase):
    def test_sign_in_answers_the_account_and_a_session_cookie(self):
        c = AdminClient()
        st, h, doc = c.sign_in()
        self.assertEqual(st, 200, doc)
        self.assertEqual(h.get("content-type"), H.JSON_CT)
        self.assertEqual(h.get("cache-control"), "no-store")
        self.assertEqual(set(doc), {"account", "expiresAt"})
        acc = doc["account"]
        self.assertEqual(set(acc), {"id", "email", "status", "createdAt", "approvedAt", "lastSignInAt"})
        self.assertEqual(acc["email"], ADMIN_EMAIL)
        self.assertEqual(acc["status"], "approved")
        self.assertIsInstance(acc["id"], str)
        for k in ("createdAt", "approvedAt", "lastSignInAt", ):
            self.assertRegex(acc[k], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
        m = COOKIE_RE.match(h["set-cookie"])
        self.assertIsNotNone(m, h["set-cookie"])
        attrs = [a.strip() for a in m.group(2).split(";")]
        self.assertIn("HttpOnly", attrs)
        self.assertIn("SameSite=Strict", attrs)
        self.assertIn("Path=%s" % (H.current().base_path or "/"), attrs)
        self.assertNotIn("Secure", attrs)  # plain HTTP here; HTTPS adds Secure and __Host-
        # 32 random bytes, stored only as their SHA-256
        raw = base64.urlsafe_b64decode(m.group(1) + "=")
        self.assertEqual(len(raw), 32)
        digest = hashlib.sha256(raw).hexdigest()
        self.assertEqual(H.db("SELECT COUNT(*) FROM sessions WHERE token_hash = UNHEX('%s')" % digest),
                         [["1"]])
        self.assertEqual(H.db("SELECT COUNT(*) FROM sessions WHERE HEX(token_hash) LIKE '%%%s%%'"
                              % raw.hex().upper()), [["0"]])
        # expiresAt: 12 hours from now at most
        exp = time.mktime(time.strptime(doc["expiresAt"], "%Y-%m-%dT%H:%M:%SZ")) - time.timezone
        self.assertLessEqual(abs(exp - (time.time() + 12 * 3600)), 120)

    def test_each_sign_in_makes_a_new_session(self):
        a = AdminClient.signed_in()
        b = AdminClient.signed_in()
        self.assertNotEqual(a.cookie, b.cookie)
        for c in (a, b):
            st, _, doc = c.get("/session")
            self.assertEqual(st, 200, doc)
            self.assertEqual(doc["account"]["email"], ADMIN_EMAIL)

    def test_wrong_password_and_unknown_email_get_the_same_answer(self):
        self.addCleanup(clear_failures)
        c = AdminClient()
        answers, times = {}, {"wrong": [], "unknown": []}
        for i in range(3):
            for kind, email in (("wrong", ADMIN_EMAIL), ("unknown", unique_email("nobody"))):
                t0 = time.monotonic()
                st, h, doc = c.request("POST", "/session", {"email": email, "password": "not the password"})
                times[kind].append(time.monotonic() - t0)
                self.assertEqual(st, 401, doc)
                self.assertNotIn("set-cookie", h)
                answers.setdefault(kind, doc)
        self.assertEqual(answers["wrong"], answers["unknown"])
        self.assertEqual(answers["wrong"]["error"]["code"], "invalid_credentials")
        # Both spend one scrypt computation: neither is quick.
        fast, slow = sorted([statistics.median(times["wrong"]), statistics.median(times["unknown"])])
        self.assertGreater(fast / slow, 0.5, times)
        clear_failures()

    def test_sign_in_field_errors(self):
        c = AdminClient()
        cases = [
            ({"password": "x" * 12}, 400, "missing_field", "email"),
            ({"email": ADMIN_EMAIL}, 400, "missing_field", "password"),
            ({"email": 5, "password": "x" * 12}, 400, "invalid_field", "email"),
            ({"email": ADMIN_EMAIL, "password": None}, 400, "invalid_field", "password"),
            ({"email": ADMIN_EMAIL, "password": "x" * 12, "remember": True}, 400, "invalid_field", "remember"),
        ]
        for body, status, code, field in cases:
            with self.subTest(body=body):
                self.assertAdminError(c.request("POST", "/session", body), status, code, field)
        self.assertAdminError(c.request("POST", "/session", "{not json"), 400, "invalid_json")
        self.assertAdminError(c.request("POST", "/session", "[]"), 400, "invalid_json")
        self.assertAdminError(c.request("POST", "/session", {"email": ADMIN_EMAIL},
                                        content_type="text/plain"), 415, "unsupported_media_type")

    def test_pending_and_revoked_accounts_cannot_sign_in(self):
        email, pw = unique_email("pending"), "pending-password-1"
        self.admin.ok("POST", "/accounts", {"email": email, "password": pw}, status=201)
        c = AdminClient()
        self.assertAdminError(c.sign_in(email, pw), 403, "account_not_approved")
        email2, pw2, id2 = new_approved_account(self.admin, "revoked")
        self.admin.ok("POST", "/accounts/%s/revoke" % id2)
        self.assertAdminError(c.sign_in(email2, pw2), 403, "account_not_approved")
        # a wrong password on a pending account is still invalid_credentials
        self.assertAdminError(c.sign_in(email, "wrong-password-x"), 401, "invalid_credentials")
        clear_failures()

    def test_an_older_hash_is_rehashed_at_sign_in(self):
        email, pw = unique_email("rehash"), "rehash-password-1"
        salt = secrets.token_bytes(16)
        old = hashlib.scrypt(pw.encode(), salt=salt, n=2 ** 14, r=8, p=1, dklen=32)
        b64 = lambda b: base64.urlsafe_b64encode(b).decode().rstrip("=")  # noqa: E731
        stored = "scrypt$14$8$1$%s$%s" % (b64(salt), b64(old))
        H.db("INSERT INTO accounts (email, password_hash, status, approved_at) VALUES (%s, %s, "
             "'approved', UTC_TIMESTAMP())" % (H.sql_str(email), H.sql_str(stored)))
        c = AdminClient()
        st, _, doc = c.sign_in(email, pw)
        self.assertEqual(st, 200, doc)
        new = H.db("SELECT password_hash FROM accounts WHERE email = %s" % H.sql_str(email))[0][0]
        self.assertTrue(new.startswith("scrypt$17$8$1$"), new)
        self.assertNotEqual(new, stored)
        c2 = AdminClient()
        self.assertEqual(c2.sign_in(email, pw)[0], 200)  # the new hash verifies


class SessionLifetimeTests(AdminCase):
    def session_digest(self, client):
        token = client.cookie.split("=", 1)[1]
        return hashlib.sha256(base64.urlsafe_b64decode(token + "=")).hexdigest()

    def test_sign_out_ends_the_session_on_the_server(self):
        c = AdminClient.signed_in()
        digest = self.session_digest(c)
        before = last_audit_id()
        st, h, body = c.delete("/session")
        self.assertEqual(st, 204)
        self.assertEqual(body, b"")
        self.assertRegex(h.get("set-cookie", ""), r"^placard_session=; .*Max-Age=0")
        self.assertEqual(H.db("SELECT COUNT(*) FROM sessions WHERE token_hash = UNHEX('%s')" % digest),
                         [["0"]])
        self.assertAdminError(c.get("/session"), 401, "not_signed_in")
        rows = audit_rows("session.sign_out", before)
        self.assertEqual(len(rows), 1)
        self.assertEqual(rows[0]["account"], c.account["id"])

    def test_idle_session_ends(self):
        c = AdminClient.signed_in()
        digest = self.session_digest(c)
        # Used 29 minutes ago: still alive (default sessionIdleMinutes 30), and the use renews it.
        H.db("UPDATE sessions SET last_seen_at = UTC_TIMESTAMP() - INTERVAL 29 MINUTE "
             "WHERE token_hash = UNHEX('%s')" % digest)
        self.assertEqual(c.get("/session")[0], 200)
        self.assertEqual(H.db("SELECT last_seen_at > UTC_TIMESTAMP() - INTERVAL 1 MINUTE FROM sessions "
                              "WHERE token_hash = UNHEX('%s')" % digest), [["1"]])
        H.db("UPDATE sessions SET last_seen_at = UTC_TIMESTAMP() - INTERVAL 31 MINUTE "
             "WHERE token_hash = UNHEX('%s')" % digest)
        self.assertAdminError(c.get("/session"), 401, "not_signed_in")

    def test_idle_timeout_follows_the_setting(self):
        self.addCleanup(lambda: (H.set_setting("sessionIdleMinutes", "30"), H.settle()))
        H.set_setting("sessionIdleMinutes", "1")
        H.settle()
        c = AdminClient.signed_in()
        digest = self.session_digest(c)
        H.db("UPDATE sessions SET last_seen_at = UTC_TIMESTAMP() - INTERVAL 50 SECOND "
             "WHERE token_hash = UNHEX('%s')" % digest)
        self.assertEqual(c.get("/session")[0], 200)
        H.db("UPDATE sessions SET last_seen_at = UTC_TIMESTAMP() - INTERVAL 70 SECOND "
             "WHERE token_hash = UNHEX('%s')" % digest)
        self.assertAdminError(c.get("/session"), 401, "not_signed_in")

    def test_absolute_lifetime_ends_a_busy_session(self):
        c = AdminClient.signed_in()
        digest = self.session_digest(c)
        lifetime = H.db("SELECT TIMESTAMPDIFF(SECOND, created_at, expires_at) FROM sessions "
                        "WHERE token_hash = UNHEX('%s')" % digest)[0][0]
        self.assertEqual(int(lifetime), 12 * 3600)
        H.db("UPDATE sessions SET expires_at = UTC_TIMESTAMP() - INTERVAL 1 SECOND, "
             "last_seen_at = UTC_TIMESTAMP() WHERE token_hash = UNHEX('%s')" % digest)
        self.assertAdminError(c.get("/session"), 401, "not_signed_in")

    def test_forged_and_malformed_cookies_are_not_signed_in(self):
        c = AdminClient()
        for cookie in ("placard_session=" + base64.urlsafe_b64encode(secrets.token_bytes(32)).decode().rstrip("="),
                       "placard_session=short", "placard_session=" + "A" * 44,
                       "placard_session=' OR 1=1 -- ", "other=1",
                       "__Host-placard_session=" + self.admin.cookie.split("=", 1)[1],
                       self.admin.cookie.replace("placard_session=", "placard_session=x")):
            with self.subTest(cookie=cookie):
                self.assertAdminError(c.get("/session", cookie=cookie), 401, "not_signed_in")
        self.assertAdminError(c.get("/accounts"), 401, "not_signed_in")
        # the real one still works
        self.assertEqual(self.admin.get("/session")[0], 200)

    def test_revocation_ends_the_sessions_at_once(self):
        email, pw, account_id = new_approved_account(self.admin, "revokee")
        other = AdminClient.signed_in(email, pw)
        other2 = AdminClient.signed_in(email, pw)
        self.assertEqual(other.get("/session")[0], 200)
        before = last_audit_id()
        doc = self.admin.ok("POST", "/accounts/%s/revoke" % account_id)
        self.assertEqual(doc["status"], "revoked")
        # Deleted by the revocation itself (before any use: a refused use deletes its session too).
        self.assertEqual(H.db("SELECT COUNT(*) FROM sessions WHERE account_id = %s" % account_id), [["0"]])
        for c in (other, other2):
            self.assertAdminError(c.get("/session"), 401, "not_signed_in")
        rows = audit_rows("account.revoke", before)
        self.assertEqual(len(rows), 1)
        self.assertEqual(rows[0]["before"]["status"], "approved")
        self.assertEqual(rows[0]["after"]["status"], "revoked")
        self.assertEqual(rows[0]["account"], self.admin.account["id"])

    def test_a_session_ends_when_its_account_is_no_longer_approved(self):
        # Issue 27: the status changed in the database without touching `sessions` (as a sign-in
        # that read the status just before a revocation leaves it): the session lookup's status
        # check alone must end the session.
        for status in ("revoked", "pending"):
            with self.subTest(status=status):
                email, pw, account_id = new_approved_account(self.admin, "demoted")
                c = AdminClient.signed_in(email, pw)
                self.assertEqual(c.get("/session")[0], 200)
                H.db("UPDATE accounts SET status = %s WHERE id = %s" % (H.sql_str(status), account_id))
                self.assertEqual(H.db("SELECT COUNT(*) FROM sessions WHERE account_id = %s" % account_id),
                                 [["1"]])
                self.assertAdminError(c.get("/session"), 401, "not_signed_in")
                self.assertAdminError(c.get("/accounts"), 401, "not_signed_in")
                # The refused session is gone: approved again, the account signs in anew.
                self.assertEqual(H.db("SELECT COUNT(*) FROM sessions WHERE account_id = %s" % account_id),
                                 [["0"]])
                H.db("UPDATE accounts SET status = 'approved' WHERE id = %s" % account_id)
                self.assertAdminError(c.get("/session"), 401, "not_signed_in")
                self.assertEqual(AdminClient.signed_in(email, pw).get("/session")[0], 200)

    def test_an_account_cannot_revoke_itself(self):
        self.assertAdminError(self.admin.post("/accounts/%s/revoke" % self.admin.account["id"]),
                              409, "conflict")
        self.assertEqual(self.admin.get("/session")[0], 200)
        self.assertEqual(H.db("SELECT status FROM accounts WHERE id = %s" % self.admin.account["id"]),
                         [["approved"]])


class SameOriginTests(AdminCase):
    """Every write needs Origin = the service's own origin and X-Service-Mark: admin; either
    missing or wrong: 403 csrf_check_failed and nothing changes."""

    BAD = [
        dict(origin=None), dict(origin="http://evil.example"), dict(origin="null"),
        dict(origin="https://127.0.0.1:%d"), dict(origin="http://127.0.0.1:1"),
        dict(mark=None), dict(mark="Admin"), dict(mark="admin, admin"), dict(mark=""),
    ]

    def variants(self):
        for v in self.BAD:
            v = dict(v)
            if isinstance(v.get("origin"), str) and "%d" in v["origin"]:
                v["origin"] = v["origin"] % self.stack_port()
            yield v

    def stack_port(self):
        return H.current().port

    def test_approval_needs_origin_and_mark(self):
        anon = AdminClient()
        doc = anon.ok("POST", "/accounts", {"email": unique_email("csrf"), "password": "p" * 12}, status=201)
        for v in self.variants():
            with self.subTest(**v):
                self.assertAdminError(self.admin.post("/accounts/%s/approve" % doc["id"], **v),
                                      403, "csrf_check_failed", H.NO_FIELD)
                self.assertEqual(H.db("SELECT status FROM accounts WHERE id = %s" % doc["id"]), [["pending"]])
        self.assertEqual(self.admin.ok("POST", "/accounts/%s/approve" % doc["id"])["status"], "approved")

    def test_registration_and_sign_in_need_origin_and_mark(self):
        anon = AdminClient()
        for v in self.variants():
            email = unique_email("csrf-reg")
            with self.subTest(**v):
                self.assertAdminError(anon.post("/accounts", {"email": email, "password": "p" * 12}, **v),
                                      403, "csrf_check_failed")
                self.assertEqual(H.db("SELECT COUNT(*) FROM accounts WHERE email = %s" % H.sql_str(email)),
                                 [["0"]])
                st, h, _ = anon.sign_in(**v)
                self.assertEqual(st, 403)
                self.assertNotIn("set-cookie", h)

    def test_sign_out_needs_origin_and_mark(self):
        c = AdminClient.signed_in()
        for v in self.variants():
            with self.subTest(**v):
                self.assertAdminError(c.delete("/session", **v), 403, "csrf_check_failed")
                self.assertEqual(c.get("/session")[0], 200)

    def test_reads_need_no_origin(self):
        st, _, doc = self.admin.get("/accounts", headers={"Origin": "http://evil.example"})
        self.assertEqual(st, 200, doc)

    def test_a_write_without_session_is_refused(self):
        anon = AdminClient()
        self.assertAdminError(anon.post("/accounts/1/approve"), 401, "not_signed_in")


class ThrottleTests(AdminCase):
    def setUp(self):
        clear_failures()
        self.addCleanup(clear_failures)

    def test_five_failures_lock_the_account_for_fifteen_minutes(self):
        email, pw, _ = new_approved_account(self.admin, "throttle")
        for _ in range(5):
            st, _, _ = sign_in_from("127.0.0.1", email, "wrong-password-123")
            self.assertEqual(st, 401)
        st, h, raw = sign_in_from("127.0.0.1", email, pw)  # the right password, too late
        self.assertError((st, h, raw), 429, "too_many_attempts")
        retry = int(h["retry-after"])
        self.assertTrue(850 <= retry <= 900, retry)
        # other accounts are not
        self.assertEqual(sign_in_from("127.0.0.1", ADMIN_EMAIL, admin_password())[0], 200)
        # the window passes: failures older than 15 minutes no longer count
        H.db("UPDATE sign_in_failures SET failed_at = failed_at - INTERVAL 16 MINUTE")
        self.assertEqual(sign_in_from("127.0.0.1", email, pw)[0], 200)
        # An address that has not failed is not locked out (issue 22: nobody can lock an
        # administrator out from elsewhere; tests/e2e/test_auth_limits.py has the details).
        for _ in range(5):
            self.assertEqual(sign_in_from("127.0.0.1", email, "wrong-password-123")[0], 401)
        self.assertEqual(sign_in_from("127.0.0.1", email, pw)[0], 429)
        self.assertEqual(sign_in_from("127.0.0.4", email, pw)[0], 200)

    def test_one_address_cannot_try_many_accounts(self):
        # 20 failures across 20 different emails from one address
        for i in range(20):
            st, _, _ = sign_in_from("127.0.0.3", unique_email("spray"), "spray-password-1")
            self.assertEqual(st, 401, i)
        st, h, raw = sign_in_from("127.0.0.3", ADMIN_EMAIL, admin_password())
        self.assertError((st, h, raw), 429, "too_many_attempts")
        self.assertGreater(int(h["retry-after"]), 0)
        # another address signs in as usual
        self.assertEqual(sign_in_from("127.0.0.5", ADMIN_EMAIL, admin_password())[0], 200)
        # the address is kept only as a keyed hash
        rows = H.db("SELECT HEX(client_hash) FROM sign_in_failures")
        self.assertEqual(len(rows), 20)
        self.assertEqual(len({r[0] for r in rows}), 1)
        for ip in ("127.0.0.3",):
            self.assertNotEqual(rows[0][0], hashlib.sha256(ip.encode()).hexdigest().upper())

    def test_failed_sign_ins_are_audited_without_the_password(self):
        before = last_audit_id()
        sign_in_from("127.0.0.1", ADMIN_EMAIL, "a-secret-guess-42")
        rows = audit_rows("session.sign_in_failed", before)
        self.assertEqual(len(rows), 1)
        dump = json.dumps(H.db("SELECT * FROM audit_log WHERE id > %d" % before))
        self.assertNotIn("a-secret-guess-42", dump)
        self.assertNotIn(admin_password(), json.dumps(H.db("SELECT * FROM audit_log")))


class RegistrationTests(AdminCase):
    def test_registration_makes_a_pending_account(self):
        email = unique_email("reg")
        before = last_audit_id()
        st, h, doc = AdminClient().post("/accounts", {"email": email, "password": "long-enough-pw"})
        self.assertEqual(st, 201, doc)
        self.assertEqual(h["location"], PREFIX + "/accounts/" + doc["id"])
        self.assertEqual(doc["status"], "pending")
        self.assertIsNone(doc["approvedAt"])
        self.assertIsNone(doc["lastSignInAt"])
        self.assertEqual(self.admin.ok("GET", "/accounts/" + doc["id"]), doc)
        rows = audit_rows("account.register", before)
        self.assertEqual(len(rows), 1)
        self.assertEqual(rows[0]["after"]["email"], email)
        self.assertNotIn("long-enough-pw", json.dumps(rows))
        stored = H.db("SELECT password_hash FROM accounts WHERE id = %s" % doc["id"])[0][0]
        self.assertTrue(stored.startswith("scrypt$17$8$1$"), stored)

    def test_registration_errors(self):
        taken = unique_email("taken")
        AdminClient().ok("POST", "/accounts", {"email": taken, "password": "p" * 12}, status=201)
        cases = [
            ({"password": "p" * 12}, 400, "missing_field", "email"),
            ({"email": unique_email()}, 400, "missing_field", "password"),
            ({"email": "not-an-email", "password": "p" * 12}, 400, "invalid_field", "email"),
            ({"email": "a b@example.test", "password": "p" * 12}, 400, "invalid_field", "email"),
            ({"email": "<img src=x>@example.test", "password": "p" * 12}, 400, "invalid_field", "email"),
            ({"email": unique_email(), "password": "p" * 11}, 400, "invalid_field", "password"),
            ({"email": unique_email(), "password": "\u00e4" * 11}, 400, "invalid_field", "password"),
            ({"email": unique_email(), "password": 123456789012}, 400, "invalid_field", "password"),
            ({"email": unique_email(), "password": "p" * 12, "status": "approved"}, 400, "invalid_field", "status"),
            ({"email": taken, "password": "p" * 12}, 409, "conflict", "email"),
            ({"email": taken.upper(), "password": "p" * 12}, 409, "conflict", "email"),
        ]
        n_before = H.db("SELECT COUNT(*) FROM accounts")
        for body, status, code, field in cases:
            with self.subTest(body=body):
                self.assertAdminError(AdminClient().post("/accounts", body), status, code, field)
        self.assertEqual(H.db("SELECT COUNT(*) FROM accounts"), n_before)
        # twelve characters, not twelve bytes
        st, _, doc = AdminClient().post("/accounts", {"email": unique_email(), "password": "\u00e4" * 12})
        self.assertEqual(st, 201, doc)


class AccountResourceTests(AdminCase):
    def test_list_pagination_and_status_filter(self):
        for _ in range(3):
            AdminClient().ok("POST", "/accounts", {"email": unique_email("list"), "password": "p" * 12}, status=201)
        total = int(H.db("SELECT COUNT(*) FROM accounts")[0][0])
        doc = self.admin.ok("GET", "/accounts?limit=2&offset=1")
        self.assertEqual(set(doc), {"items", "total", "limit", "offset"})
        self.assertEqual((doc["total"], doc["limit"], doc["offset"], len(doc["items"])), (total, 2, 1, 2))
        ids = [int(a["id"]) for a in self.admin.ok("GET", "/accounts?limit=200")["items"]]
        self.assertEqual(ids, sorted(ids))
        self.assertEqual(len(ids), total)
        pending = self.admin.ok("GET", "/accounts?status=pending&limit=200")
        want = int(H.db("SELECT COUNT(*) FROM accounts WHERE status = 'pending'")[0][0])
        self.assertEqual(pending["total"], want)
        self.assertTrue(all(a["status"] == "pending" for a in pending["items"]))
        for q, field in (("limit=0", "limit"), ("limit=201", "limit"), ("limit=x", "limit"),
                         ("offset=-1", "offset"), ("status=gone", "status"), ("sort=id", "sort"),
                         ("limit=1&limit=2", "limit")):
            with self.subTest(q=q):
                self.assertAdminError(self.admin.get("/accounts?" + q), 400, "invalid_field", field)

    def test_one_account_and_unknown_ids(self):
        doc = self.admin.ok("GET", "/accounts/" + self.admin.account["id"])
        self.assertEqual(doc["email"], ADMIN_EMAIL)
        self.assertNotIn("passwordHash", json.dumps(doc))
        for bad in ("999999999", "0", "01", "abc", "1%20", "-1", "99999999999999999999999"):
            with self.subTest(id=bad):
                self.assertAdminError(self.admin.get("/accounts/" + bad), 404, "not_found")
                self.assertAdminError(self.admin.post("/accounts/%s/approve" % bad), 404, "not_found")

    def test_approval_is_audited_with_before_and_after(self):
        doc = AdminClient().ok("POST", "/accounts", {"email": unique_email("appr"), "password": "p" * 12},
                               status=201)
        before = last_audit_id()
        after = self.admin.ok("POST", "/accounts/%s/approve" % doc["id"])
        self.assertEqual(after["status"], "approved")
        self.assertIsNotNone(after["approvedAt"])
        rows = audit_rows("account.approve", before)
        self.assertEqual(len(rows), 1)
        self.assertEqual(rows[0]["resource"], "account:" + doc["id"])
        self.assertEqual(rows[0]["before"], doc)
        self.assertEqual(rows[0]["after"], after)
        self.assertEqual(H.db("SELECT approved_by FROM accounts WHERE id = %s" % doc["id"]),
                         [[self.admin.account["id"]]])

    def test_wrong_methods_answer_405_with_allow(self):
        st, h, _ = self.admin.request("PUT", "/session", {})
        self.assertEqual(st, 405)
        self.assertEqual(set(x.strip() for x in h["allow"].split(",")), {"GET", "HEAD", "POST", "DELETE"})
        self.assertEqual(h.get("cache-control"), "no-store")
        st, h, _ = self.admin.get("/accounts/1/approve")
        self.assertEqual(st, 405)
        self.assertEqual(h["allow"], "POST")

    def test_unknown_admin_path_is_404(self):
        self.assertAdminError(self.admin.get("/nothing-here"), 404, "not_found")
