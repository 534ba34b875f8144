"""The HTTPS path of a deployment, through Apache with mod_ssl (the stack's TLS=1: a certificate
for 127.0.0.1 made under VAR_DIR/tls, verified by every request here): the session cookie becomes
`__Host-placard_session` with `Secure`, the service's own origin is the https one, and every
answer (worker and admin page) carries `Strict-Transport-Security`.

The stack serves TLS with Apache only (lighttpd's TLS module is a separate package), so this
module runs in the Apache run and is skipped in the lighttpd one."""

import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness as H  # noqa: E402
from admin_client import AdminClient  # noqa: E402

HSTS = "max-age=31536000"
# Under a base path (run.py --base-path) the prefix is __Secure-: __Host- requires Path=/.
COOKIE_RE = re.compile(r"^(__Host-|__Secure-)placard_session=([A-Za-z0-9_-]{43}); (.*)$")


class HttpsTests(H.StackTestCase):
    TLS = True

    @classmethod
    def setUpClass(cls):
        run_server = H._current.server if H._current else os.environ.get("SERVER", "lighttpd")
        if not run_server.startswith("apache"):
            raise unittest.SkipTest("the stack serves TLS with Apache's mod_ssl (the Apache run)")
        cls.SERVER = run_server
        try:
            super().setUpClass()
            cls.admin = AdminClient.signed_in(stack=cls.stack)
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "stack", None):  # else StackTestCase.setUpClass failed and cleaned up
            super().tearDownClass()

    def test_the_stack_really_speaks_tls_only(self):
        self.assertTrue(self.stack.origin.startswith("https://"))
        # Plain HTTP on the TLS port is not served as an answer of the API.
        st, _, body = H.http_request(self.stack.port, "GET", "/api/v1/config")
        self.assertEqual(st, 400)
        self.assertNotIn(b"refreshIntervalSeconds", body)

    def test_session_cookie_is_host_prefixed_and_secure(self):
        c = AdminClient(self.stack)
        st, h, _ = c.sign_in()
        self.assertEqual(st, 200)
        m = COOKIE_RE.match(h["set-cookie"])
        self.assertIsNotNone(m, h["set-cookie"])
        prefix = "__Secure-" if self.stack.base_path else "__Host-"
        self.assertEqual(m.group(1), prefix)
        attrs = [a.strip() for a in m.group(3).split(";")]
        for a in ("Secure", "HttpOnly", "SameSite=Strict", "Path=%s" % (self.stack.base_path or "/")):
            self.assertIn(a, attrs)
        self.assertFalse([a for a in attrs if a.lower().startswith("domain")], attrs)
        self.assertEqual(c.get("/session")[0], 200)
        # The plain-HTTP name of the same token is not a session over HTTPS (a cookie set by a
        # sibling host or over HTTP cannot stand in for the __Host- one).
        token = m.group(2)
        st, _, doc = c.get("/session", cookie="placard_session=" + token)
        self.assertEqual((st, doc["error"]["code"]), (401, "not_signed_in"))
        # Sign-out clears the __Host- cookie (same name, Secure, expired).
        st, h, _ = c.delete("/session")
        self.assertEqual(st, 204)
        self.assertTrue(h.get("set-cookie", "").startswith(prefix + "placard_session=;"), h)
        self.assertIn("Secure", h["set-cookie"])
        self.assertEqual(c.get("/session")[0], 401)

    def test_the_services_origin_is_the_https_one(self):
        body = {"refreshIntervalSeconds": 900}
        plain = "http://127.0.0.1:%d" % self.stack.port
        st, _, doc = self.admin.patch("/settings", body, origin=plain)
        self.assertEqual((st, doc["error"]["code"]), (403, "csrf_check_failed"))
        st, _, doc = self.admin.patch("/settings", body)  # Origin: https://127.0.0.1:<port>
        self.assertEqual(st, 200, doc)

    def test_every_answer_carries_hsts(self):
        offer = next(o for o in H.query_offers(category="clicks", limit=20)
                     if o["id"] == "1305")
        answers = [
            ("config", H.http("GET", "/api/v1/config")),
            ("query", H.query(category="clicks")),
            ("query-400", H.query(limit=0)),
            ("not-found", H.http("GET", "/api/v1/nothing")),
            ("click", H.http("GET", offer["clickUrl"])),
            ("click-410-html", H.http("GET", "/r/click/1306?t=x", headers={"Accept": H.BROWSER_ACCEPT})),
            ("admin-401", H.http("GET", "/admin/api/v1/session")),
            ("admin-200", self.admin.get("/settings")),
            ("admin-page", H.http("GET", "/admin/")),
            ("admin-module", H.http("GET", "/admin/js/app.js")),
        ]
        for name, (st, h, _) in answers:
            with self.subTest(answer=name, status=st):
                self.assertLess(st, 500)
                self.assertEqual(h.get("strict-transport-security"), HSTS)
        self.assertEqual(answers[4][1][0], 302)
        page = answers[8][1][1]
        self.assertEqual(page.get("x-xss-protection"), "0")
        self.assertEqual(page.get("x-frame-options"), "DENY")
