"""Placard under a base path beside another site (issue 20; contract section 0): run by
`python3 tests/e2e/run.py --server lighttpd|apache --base-path /offers`, where the whole suite
already passes under /offers/. These are the checks only a base path has: the static site at
the origin's root keeps serving, nothing of Placard answers outside the base (neither through
the web server nor from the worker itself), the session cookie's Path is the base, clickUrl stays
relative to the base, and the admin page, served under the base, calls its API there.

Skipped when the run has no base path."""

import os
import re
import socket
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness as H  # noqa: E402
import test_slow_bodies as FCGI  # noqa: E402
from admin_client import AdminClient  # noqa: E402

SITE_MARK = b"<p>the other site, served at the root</p>"


def raw(method, path, headers=None):
    """A request to exactly `path` (no base prepended)."""
    st = H.current()
    ca = st.path("tls/cert.pem") if st.tls else None
    return H.http_request(st.port, method, path, None, headers, H.HTTP_TIMEOUT, ca)


class BasePathTests(H.E2ETestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.base = H.current().base_path
        if not cls.base:
            raise unittest.SkipTest("this run has no base path (run.py --base-path /offers)")
        # The existing site: a page at the root of the web server's document root.
        with open(H.var_path("www", "index.html"), "wb") as f:
            f.write(b"<!DOCTYPE html><title>site</title>" + SITE_MARK)

    def test_the_site_at_the_root_keeps_serving(self):
        for path in ("/", "/index.html"):
            st, h, body = raw("GET", path)
            self.assertEqual(st, 200, path)
            self.assertIn(SITE_MARK, body, path)
            self.assertTrue(h.get("content-type", "").startswith("text/html"), h)

    def test_nothing_of_placard_answers_outside_the_base(self):
        for path in ("/api/v1/config", "/healthz", "/admin/", "/admin/api/v1/session",
                     "/r/click/1000?t=x", self.base + "x/api/v1/config"):
            st, _, body = raw("GET", path)
            self.assertEqual(st, 404, path)
            self.assertNotIn(b"refreshIntervalSeconds", body, path)
        st, _, _ = raw("POST", "/api/v1/offers/query", {"Content-Type": "application/json"})
        self.assertEqual(st, 404)
        # Under the base, the same paths answer.
        self.assertEqual(raw("GET", self.base + "/api/v1/config")[0], 200)
        self.assertEqual(raw("GET", self.base + "/healthz")[0], 200)

    def test_the_worker_itself_refuses_paths_outside_the_base(self):
        sock_path = H.var_path("run", "placard.sock")
        if not os.path.exists(sock_path):
            self.skipTest("no worker socket in this stack (mod_fcgid spawns its own)")
        for path, expected in (("/api/v1/events/impression", b"Status: 404"),
                               (self.base + "/api/v1/events/impression", b"Status: 400")):
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.connect(sock_path)
                body = b'{"impressionToken": "x"}'
                s.sendall(FCGI.fcgi_request_head(path, len(body)) + FCGI.record(FCGI.STDIN, body)
                          + FCGI.record(FCGI.STDIN, b""))
                out = FCGI.read_stdout(s, timeout=10)
            self.assertTrue(out.startswith(expected), (path, out[:200]))

    def test_session_cookie_carries_the_base_as_its_path(self):
        c = AdminClient()
        st, h, _ = c.sign_in()
        self.assertEqual(st, 200)
        cookie = h["set-cookie"]
        self.assertIn("; Path=%s;" % self.base, cookie)
        self.assertNotIn("Path=/;", cookie)
        if H.current().tls:
            # __Host- needs Path=/: under a base path the cookie is __Secure- and Secure.
            self.assertTrue(cookie.startswith("__Secure-placard_session="), cookie)
            self.assertIn("; Secure", cookie)
        else:
            self.assertTrue(cookie.startswith("placard_session="), cookie)
        # Signing out clears the same cookie (same name and Path).
        st, h, _ = c.delete("/session")
        self.assertEqual(st, 204)
        self.assertIn("; Path=%s;" % self.base, h["set-cookie"])
        self.assertIn("Max-Age=0", h["set-cookie"])

    def test_click_url_stays_relative_to_the_base(self):
        offers = H.query_offers(country="DE", placement="sidebar")
        self.assertTrue(offers)
        url = offers[0]["clickUrl"]
        self.assertTrue(url.startswith("/r/click/"), url)
        self.assertNotIn(self.base, url)
        # A client joins base address and path: the base's click endpoint redirects.
        st, h, _ = raw("GET", self.base + url)
        self.assertEqual(st, 302, h)

    def test_admin_page_is_served_under_the_base_with_its_headers(self):
        st, h, body = raw("GET", self.base + "/admin/")
        self.assertEqual(st, 200)
        self.assertIn(b"Placard admin", body)
        self.assertIn("frame-ancestors 'none'", h.get("content-security-policy", ""))
        self.assertEqual(h.get("x-frame-options"), "DENY")
        # The base's root sends people to the admin page.
        st, h, _ = raw("GET", self.base + "/")
        self.assertEqual(st, 302)
        self.assertTrue(h["location"].endswith(self.base + "/admin/"), h["location"])

    def test_admin_page_calls_its_api_under_the_base(self):
        """A real browser loads the page; on start it asks GET <api>/session. The web server's
        access log must show that request under the base, and none at /admin/api/."""
        stack = H.current()
        if stack.tls:
            self.skipTest("the browser check runs over plain HTTP")
        access = H.var_path("log", "%s-access.log" % ("lighttpd" if stack.server == "lighttpd"
                                                      else "apache"))
        before = os.path.getsize(access)
        url = "http://127.0.0.1:%d%s/admin/" % (stack.port, self.base)
        with tempfile.TemporaryDirectory(prefix="placard-chromium-") as profile:
            subprocess.run(
                ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                 "--user-data-dir=" + profile, "--virtual-time-budget=5000", "--dump-dom", url],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                timeout=60, check=False)

        def api_lines():
            with open(access, "rb") as f:
                f.seek(before)
                return [line for line in f.read().decode("utf-8", "replace").splitlines()
                        if "/api/v1/session" in line]
        lines = H.wait_until(api_lines, timeout=5)
        self.assertTrue(lines, "the page made no GET .../admin/api/v1/session")
        for line in lines:
            self.assertRegex(line, r'"GET %s/admin/api/v1/session HTTP' % re.escape(self.base))


if __name__ == "__main__":
    unittest.main()
