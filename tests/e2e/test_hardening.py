"""Issue 15's findings on response headers, proven through the web server: CORS `Vary` kept with
`Accept-Encoding` and present whatever the Origin, an unreadable `allowedClientOrigins` failing
closed, `X-Content-Type-Options: nosniff` everywhere, `Cache-Control` on JSON errors, and a CSP
with frame protection on the click's HTML refusal."""

import http.client
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness as H  # noqa: E402

ORIGIN = "chrome-extension://hardeningorigin"


def redirecting_offer():
    """An offer of the fixtures' `clicks` category whose click redirects (1305: enabled, manual,
    https tracking URL), as the query returns it."""
    for _ in range(20):
        for o in H.query_offers(category="clicks", limit=20):
            if o["id"] == "1305":
                return o
    raise AssertionError("offer 1305 not returned")


def origins_applied(expect_refusal_of):
    st, _, _ = H.http("GET", "/api/v1/config", headers={"Origin": expect_refusal_of})
    return st == 403


class HeaderTests(H.E2ETestCase):
    def answers(self):
        st, h, b = H.query(category="clicks")
        offer = redirecting_offer()
        return [
            ("config", H.http("GET", "/api/v1/config")),
            ("categories", H.http("GET", "/api/v1/categories", headers={"Accept-Encoding": "gzip"})),
            ("query", (st, h, b)),
            ("query-400", H.query(limit=0)),
            ("impression-400", H.impression("garbage")),
            ("not-found", H.http("GET", "/api/v1/nothing")),
            ("click", H.http("GET", offer["clickUrl"])),
            ("click-410-html", H.http("GET", "/r/click/1306?t=x", headers={"Accept": H.BROWSER_ACCEPT})),
            ("admin-401", H.http("GET", "/admin/api/v1/session")),
        ]

    def test_every_answer_says_nosniff(self):
        for name, (st, h, _) in self.answers():
            with self.subTest(answer=name, status=st):
                self.assertEqual(h.get("x-content-type-options"), "nosniff")

    def test_no_hsts_over_plain_http(self):
        # Browsers ignore it over plain HTTP, and the worker cannot know the host serves TLS at
        # all; tests/e2e/test_https.py proves it is sent over HTTPS.
        for name, (st, h, _) in self.answers() + [("admin-page", H.http("GET", "/admin/"))]:
            with self.subTest(answer=name, status=st):
                self.assertNotIn("strict-transport-security", h)

    def test_json_errors_are_not_cached(self):
        for name, (st, h, _) in self.answers():
            if st >= 400:
                with self.subTest(answer=name, status=st):
                    self.assertEqual(h.get("cache-control"), "no-store")

    def test_html_refusal_has_a_content_security_policy(self):
        st, h, b = H.http("GET", "/r/click/1306?t=x", headers={"Accept": H.BROWSER_ACCEPT})
        self.assertIn(st, (400, 410))
        self.assertTrue(h.get("content-type", "").startswith("text/html"))
        self.assertEqual(h.get("content-security-policy"), "default-src 'none'; frame-ancestors 'none'")
        self.assertEqual(h.get("x-frame-options"), "DENY")


class VaryTests(H.E2ETestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        H.set_setting("allowedClientOrigins", json.dumps([ORIGIN]))
        cls.ready = bool(H.wait_until(lambda: origins_applied("chrome-extension://other"), timeout=5))
        H.settle()

    @classmethod
    def tearDownClass(cls):
        H.set_setting("allowedClientOrigins", "[]")
        H.wait_until(lambda: not origins_applied("chrome-extension://other"), timeout=5)
        H.settle()

    def setUp(self):
        self.assertTrue(self.ready, "allowedClientOrigins not applied within 5 s")

    def test_vary_keeps_accept_encoding_and_adds_origin(self):
        for path in ("/api/v1/config", "/api/v1/categories"):
            for headers in ({"Origin": ORIGIN}, {}, {"Origin": ORIGIN, "Accept-Encoding": "gzip"}):
                with self.subTest(path=path, headers=headers):
                    st, h, _ = H.http("GET", path, headers=headers)
                    self.assertEqual(st, 200)
                    vary = H.header_tokens(h.get("vary"))
                    self.assertIn("accept-encoding", vary)
                    self.assertIn("origin", vary)

    def test_answers_without_a_listed_origin_vary_by_origin(self):
        for name, (st, h, _) in (("query", H.query(category="electronics")),
                                 ("refused", H.http("GET", "/api/v1/config",
                                                    headers={"Origin": "chrome-extension://other"}))):
            with self.subTest(answer=name):
                self.assertIn(st, (200, 403))
                self.assertIn("origin", H.header_tokens(h.get("vary")))


class UnreadableOriginListTests(H.E2ETestCase):
    def test_an_unreadable_list_refuses_every_origin(self):
        self.addCleanup(lambda: (H.set_setting("allowedClientOrigins", "[]"),
                                 H.wait_until(lambda: not origins_applied("https://any.example"), timeout=5),
                                 H.settle()))
        for bad in ("not json", '{"a": 1}', '["chrome-extension://x", 5]'):
            with self.subTest(value=bad):
                H.set_setting("allowedClientOrigins", bad)
                self.assertTrue(H.wait_until(lambda: origins_applied("https://any.example"), timeout=5),
                                "an unreadable allowedClientOrigins must fail closed")
                resp = H.http("GET", "/api/v1/config", headers={"Origin": "chrome-extension://x"})
                self.assertError(resp, 403, "origin_not_allowed", H.NO_FIELD)
                # without an Origin (not a browser page) the API still answers
                self.assertEqual(H.http("GET", "/api/v1/config")[0], 200)
                H.set_setting("allowedClientOrigins", "[]")
                H.wait_until(lambda: not origins_applied("https://any.example"), timeout=5)


class WebServerTests(H.E2ETestCase):
    def access_log(self):
        st = H.current()
        return st.path("log", "lighttpd-access.log" if st.server == "lighttpd" else "apache-access.log")

    def test_access_log_has_no_tokens_and_is_private(self):
        offer = redirecting_offer()
        token = H.token_from_click_url(offer["clickUrl"])
        self.assertEqual(H.http("GET", offer["clickUrl"])[0], 302)
        path = self.access_log()

        def logged():
            with open(path) as f:
                return "/r/click/%s" % offer["id"] in f.read()
        self.assertTrue(H.wait_until(logged, timeout=5), "the click is not in %s" % path)
        with open(path) as f:
            text = f.read()
        self.assertNotIn(token, text)
        self.assertNotIn("?t=", text)
        self.assertEqual(os.stat(path).st_mode & 0o777, 0o640)

    def test_the_web_server_caps_bodies_near_the_workers_limit(self):
        # A chunked body (no Content-Length for the worker to judge first): the web server
        # counts what arrives and refuses past its cap of 32 KiB, before the worker reads it.
        chunk = b"x" * 4096
        body = [b'{"impressionToken": "'] + [chunk] * 10 + [b'"}']
        conn = http.client.HTTPConnection("127.0.0.1", H.current().port, timeout=H.HTTP_TIMEOUT)
        try:
            conn.request("POST", H.prefixed("/api/v1/events/impression"), body=iter(body),
                         headers={"Content-Type": "application/json"}, encode_chunked=True)
            resp = conn.getresponse()
            resp.read()
            if H.current().server == "lighttpd":
                self.assertEqual(resp.status, 413)
            else:
                # Apache's mod_proxy_fcgi streams a long chunked body without a length; the
                # worker, unable to size it, refuses it (400 invalid_json) without storing it.
                self.assertIn(resp.status, (400, 413))
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused and closed while the body was still being sent: refused all the same
        finally:
            conn.close()
        with open(H.current().path("log", "placard.log")) as f:
            tail = f.read().splitlines()[-20:]
        self.assertFalse(any("events/impression" in line and "status=200" in line for line in tail), tail)
        # Between 16 and 32 KiB the worker answers with the contract's JSON.
        self.assertError(H.post_json("/api/v1/events/impression",
                                     json.dumps({"impressionToken": "x" * 20000})),
                         413, "body_too_large", H.NO_FIELD)


class ListenTests(H.E2ETestCase):
    """Issue 15, finding 10: the worker refuses to listen on every interface."""

    def run_worker(self, listen):
        import subprocess
        st = H.current()
        return subprocess.run([os.path.join(H.ROOT, st.build, "placard.fcgi"), "--config",
                               st.path("placard.conf"), "--listen", listen, "--threads", "1"],
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=20,
                              env={k: v for k, v in os.environ.items() if not k.startswith("PLACARD_")})

    def test_wildcard_addresses_are_refused(self):
        for listen in (":%d", "*:%d", "0.0.0.0:%d", "example.com:%d"):
            port = H.free_port()
            with self.subTest(listen=listen):
                proc = self.run_worker(listen % port)
                self.assertNotEqual(proc.returncode, 0)
                self.assertIn(b"listen:", proc.stderr)
                self.assertTrue(H._bindable(port), "the refused worker left port %d bound" % port)
