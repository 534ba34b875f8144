"""Behind a TLS-terminating reverse proxy (issue 20; issue 22 item 6): haproxy from Debian, with
a self-signed certificate made here, in front of the plain-HTTP stack. It connects to the web
server from 127.0.0.2, the only address in the stack's `trusted_proxies`, and says
`X-Forwarded-Proto: https`; the stack's public_origin is the proxy's https origin.

Proven: sign-in through the proxy works and its cookie is Secure (with the prefix the path
allows); the worker believes the proxy's https (HSTS on its answers); the same forwarded
headers sent straight to the web server from 127.0.0.1 (not trusted) are ignored."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from http import client as httpclient

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness as H  # noqa: E402
from admin_client import admin_password  # noqa: E402

PROXY_SOURCE = "127.0.0.2"
HSTS = "max-age=31536000"


def haproxy_config(port, backend_port, pem):
    return """global
    maxconn 256
defaults
    mode http
    timeout connect 5s
    timeout client 30s
    timeout server 30s
frontend tls
    bind 127.0.0.1:%d ssl crt %s
    http-request set-header X-Forwarded-Proto https
    option forwardfor
    default_backend stack
backend stack
    server web 127.0.0.1:%d source %s
""" % (port, pem, backend_port, PROXY_SOURCE)


class ProxyTests(H.E2ETestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        if not shutil.which("haproxy"):
            raise unittest.SkipTest("haproxy is not installed (scripts/deps.sh installs it for make test)")
        stack = H.current()
        if stack.tls:
            raise unittest.SkipTest("the proxy terminates TLS in front of a plain-HTTP stack")
        cls.dir = tempfile.mkdtemp(prefix="placard-proxy-", dir="/tmp")
        cls.proc = None
        cls.stack = stack
        try:
            cls.cert = os.path.join(cls.dir, "cert.pem")
            key = os.path.join(cls.dir, "key.pem")
            subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                            "ec_paramgen_curve:P-256", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                            "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cls.cert],
                           check=True, capture_output=True, timeout=60)
            pem = os.path.join(cls.dir, "haproxy.pem")
            with open(pem, "wb") as out:
                for part in (cls.cert, key):
                    with open(part, "rb") as f:
                        out.write(f.read())
            cls.port = H.free_port()
            conf = os.path.join(cls.dir, "haproxy.cfg")
            with open(conf, "w") as f:
                f.write(haproxy_config(cls.port, stack.port, pem))
            cls.origin = "https://127.0.0.1:%d" % cls.port
            cls.configure(trusted=PROXY_SOURCE, origin=cls.origin)
            cls.proc = subprocess.Popen(["haproxy", "-db", "-f", conf], stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if not H.wait_until(lambda: cls.via_proxy("GET", "/api/v1/config")[0] == 200, timeout=20):
                raise AssertionError("haproxy did not answer within 20 s")
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        try:
            if getattr(cls, "proc", None) is not None:
                cls.proc.terminate()
                try:
                    cls.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    cls.proc.kill()
                    cls.proc.wait()
            cls.configure(trusted=None, origin=None)
        finally:
            shutil.rmtree(getattr(cls, "dir", "/nonexistent"), ignore_errors=True)
            super().tearDownClass()

    @classmethod
    def configure(cls, trusted, origin):
        """The stack's trusted_proxies and public_origin (None: back to the stack's own)."""
        path = H.var_path("placard.conf")
        with open(path, encoding="utf-8") as f:
            lines = [line for line in f if not line.startswith("trusted_proxies")]
        if trusted:
            lines.append("trusted_proxies = %s\n" % trusted)
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(lines)
        if origin:
            cls.stack.extra_env["PUBLIC_ORIGIN"] = origin
        else:
            cls.stack.extra_env.pop("PUBLIC_ORIGIN", None)
        cls.stack.restart()
        H.settle()

    @classmethod
    def via_proxy(cls, method, path, body=None, headers=None):
        """A request over HTTPS to haproxy, which passes it on to the stack's web server."""
        return H.http_request(cls.port, method, H.prefixed(path), body, headers, ca=cls.cert, record=False)

    def sign_in(self, send, origin):
        body = '{"email": "admin@placard.local", "password": "%s"}' % admin_password()
        return send("POST", "/admin/api/v1/session", body,
                    {"Content-Type": "application/json", "Origin": origin, "X-Service-Mark": "admin"})

    def test_sign_in_through_the_proxy_gives_a_secure_cookie(self):
        st, h, body = self.sign_in(self.via_proxy, self.origin)
        self.assertEqual(st, 200, body[:300])
        cookie = h["set-cookie"]
        prefix = "__Secure-" if H.current().base_path else "__Host-"
        self.assertTrue(cookie.startswith(prefix + "placard_session="), cookie)
        self.assertIn("; Secure", cookie)
        self.assertIn("; Path=%s;" % (H.current().base_path or "/"), cookie)
        st, _, body = self.via_proxy("GET", "/admin/api/v1/session", headers={"Cookie": cookie.split(";")[0]})
        self.assertEqual(st, 200, body[:300])

    def test_the_trusted_proxys_https_is_believed(self):
        st, h, _ = self.via_proxy("GET", "/api/v1/config")
        self.assertEqual(st, 200)
        self.assertEqual(h.get("strict-transport-security"), HSTS)

    def test_forwarded_headers_from_an_untrusted_source_are_ignored(self):
        for forged in ({"X-Forwarded-Proto": "https"}, {"Forwarded": "for=192.0.2.1;proto=https"}):
            st, h, _ = H.http("GET", "/api/v1/config", headers=forged)
            self.assertEqual(st, 200)
            self.assertNotIn("strict-transport-security", h, forged)
        # From the trusted address itself, the same header is believed (the control).
        conn = httpclient.HTTPConnection("127.0.0.1", H.current().port, timeout=H.HTTP_TIMEOUT,
                                         source_address=(PROXY_SOURCE, 0))
        try:
            conn.request("GET", H.prefixed("/api/v1/config"), headers={"X-Forwarded-Proto": "https"})
            resp = conn.getresponse()
            resp.read()
            self.assertEqual(resp.getheader("Strict-Transport-Security"), HSTS)
        finally:
            conn.close()

    def test_the_plain_http_origin_may_not_sign_in(self):
        # public_origin is the proxy's https origin: a page on the plain-HTTP address is refused.
        st, h, body = self.sign_in(H.http, "http://127.0.0.1:%d" % H.current().port)
        self.assertError((st, h, body), 403, "csrf_check_failed", H.NO_FIELD)


if __name__ == "__main__":
    unittest.main()
