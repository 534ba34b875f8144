"""Issue 20 and issue 22 item 7, through the real stack: GET /healthz (200 with the version while
the database answers, 503 service_unavailable when it does not), the worker's version and its
refusal to start on an older schema (naming `placardctl migrate`), and admin writes that need a
configured public_origin (the request's own Host no longer counts: DNS rebinding)."""

import json
import os
import socket
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness as H  # noqa: E402
import fcgi_client  # noqa: E402 (tools/, on the path through the harness)
from admin_client import AdminClient, admin_password  # noqa: E402


def version_file():
    with open(os.path.join(H.ROOT, "VERSION")) as f:
        return f.read().strip()


def fcgi_binary():
    return os.path.join(H.ROOT, H.current().build, "placard.fcgi")


# One request to a worker listening on 127.0.0.1:port, any CGI parameters; the CGI answer's bytes.
fastcgi = fcgi_client.request


class Worker:
    """A second placard.fcgi on the stack's database with a changed copy of its config,
    listening on 127.0.0.1:port; stopped by its PID."""

    def __init__(self, changes):
        self.dir = tempfile.mkdtemp(prefix="placard-frontage-", dir="/tmp")
        self.port = H.free_port()
        self.log = os.path.join(self.dir, "placard.log")
        conf = H.current().config()
        conf.update({"listen": "127.0.0.1:%d" % self.port, "log_file": self.log, "threads": "2"})
        conf.update(changes)
        self.conf = os.path.join(self.dir, "placard.conf")
        with open(os.open(self.conf, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
            f.writelines("%s = %s\n" % kv for kv in conf.items() if kv[1] is not None)
        self.proc = subprocess.Popen([fcgi_binary(), "--config", self.conf],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)

    def wait_exit(self, timeout=30):
        try:
            _, err = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, ""
        return self.proc.returncode, err.decode("utf-8", "replace")

    def serving(self):
        def up():
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return True
            except OSError:
                return False
        return H.wait_until(up, timeout=20, interval=0.1)

    def log_text(self):
        try:
            with open(self.log, encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream:
                stream.close()
        subprocess.run(["rm", "-rf", "--", self.dir], check=False)


class HealthzTests(H.E2ETestCase):
    def test_healthz_answers_status_and_version_only(self):
        st, h, body = H.http("GET", "/healthz")
        self.assertEqual(st, 200, body[:300])
        self.assertEqual(h.get("content-type"), H.JSON_CT)
        self.assertEqual(h.get("cache-control"), "no-store")
        self.assertEqual(json.loads(body), {"status": "ok", "version": version_file()})

    def test_healthz_is_503_while_the_database_is_down(self):
        stack = H.current()
        stack.script("db-stop", timeout=60)
        try:
            resp = H.wait_until(lambda: (lambda r: r if r[0] == 503 else None)(H.http("GET", "/healthz")),
                                timeout=20, interval=0.25)
            self.assertTrue(resp, "GET /healthz did not answer 503 within 20 s of the database stopping")
            self.assertError(resp, 503, "service_unavailable", H.NO_FIELD)
            # The public API keeps answering from its snapshot meanwhile.
            self.assertEqual(H.http("GET", "/api/v1/config")[0], 200)
        finally:
            stack.script("db-start", timeout=90)
        self.assertTrue(H.wait_until(lambda: H.http("GET", "/healthz")[0] == 200, timeout=30, interval=0.25),
                        "GET /healthz not 200 again within 30 s of db-start")


class VersionAndSchemaTests(H.E2ETestCase):
    def test_both_programs_print_the_version(self):
        for name in ("placard.fcgi", "placardctl"):
            out = subprocess.run([os.path.join(H.ROOT, H.current().build, name), "--version"],
                                 capture_output=True, timeout=10, check=True).stdout.decode()
            self.assertEqual(out, "%s %s\n" % (name, version_file()))

    def test_the_worker_refuses_an_older_schema(self):
        newest = int(H.db("SELECT MAX(version) FROM schema_migrations")[0][0])
        db = "placard_schema_probe"
        H.db("DROP DATABASE IF EXISTS %s; CREATE DATABASE %s; "
             "CREATE TABLE %s.schema_migrations (version INT PRIMARY KEY); "
             "INSERT INTO %s.schema_migrations VALUES (1), (%d); "
             "GRANT SELECT ON %s.* TO 'placard'@'localhost'"
             % (db, db, db, db, newest - 1, db))
        self.addCleanup(lambda: H.db("DROP DATABASE IF EXISTS %s" % db))
        w = Worker({"db.name": db})
        self.addCleanup(w.stop)
        code, err = w.wait_exit()
        self.assertIsNotNone(code, "the worker kept running on an older schema")
        self.assertNotEqual(code, 0)
        self.assertIn("placardctl migrate", err)
        self.assertIn("migration %d" % (newest - 1), err)
        # The same database at the newest migration: the check lets the worker start.
        H.db("INSERT INTO %s.schema_migrations VALUES (%d)" % (db, newest))
        w2 = Worker({"db.name": db})
        self.addCleanup(w2.stop)
        self.assertTrue(w2.serving(), "the worker did not start on a current schema: %s"
                        % (w2.wait_exit(1),))


class PublicOriginTests(H.E2ETestCase):
    def sign_in_request(self, origin, host):
        return H.http("POST", "/admin/api/v1/session",
                      json.dumps({"email": "admin@placard.local", "password": admin_password()}),
                      {"Content-Type": "application/json", "Origin": origin, "Host": host,
                       "X-Service-Mark": "admin"})

    def test_the_requests_own_host_no_longer_counts(self):
        # DNS rebinding: a page of rebind.example whose name now points here sends its own origin
        # and Host. Before issue 22 item 7 that matched "the request's own scheme and Host".
        port = H.current().port
        st, h, body = self.sign_in_request("http://rebind.example:%d" % port, "rebind.example:%d" % port)
        self.assertError((st, h, body), 403, "csrf_check_failed", H.NO_FIELD)
        self.assertNotIn("set-cookie", h)
        # The configured origin (the stack writes public_origin) signs in.
        st, _, _ = AdminClient().sign_in()
        self.assertEqual(st, 200)

    def test_without_public_origin_admin_writes_are_off_and_the_log_says_so(self):
        w = Worker({"public_origin": None, "base_path": None})  # both lines left out
        self.addCleanup(w.stop)
        self.assertTrue(w.serving(), "the worker did not start: %s" % (w.wait_exit(1),))
        self.assertTrue(H.wait_until(lambda: "admin writes" in w.log_text(), timeout=10),
                        w.log_text()[-2000:])
        origin = "http://127.0.0.1:%d" % w.port
        body = json.dumps({"email": "admin@placard.local", "password": admin_password()}).encode()
        params = {"REQUEST_METHOD": "POST", "REQUEST_URI": "/admin/api/v1/session",
                  "SCRIPT_NAME": "/admin/api/v1/session", "QUERY_STRING": "",
                  "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(body)),
                  "REMOTE_ADDR": "127.0.0.1", "SERVER_PROTOCOL": "HTTP/1.1",
                  "HTTP_HOST": "127.0.0.1:%d" % w.port, "HTTP_ORIGIN": origin,
                  "HTTP_X_SERVICE_MARK": "admin"}
        out = H.wait_until(lambda: fastcgi(w.port, params, body), timeout=10)
        head, _, payload = out.partition(b"\r\n\r\n")
        self.assertTrue(head.startswith(b"Status: 403"), out[:300])
        doc = json.loads(payload)
        self.assertEqual(doc["error"]["code"], "csrf_check_failed")
        self.assertIn("public_origin", doc["error"]["message"])
        # Reads are unaffected.
        params.update(REQUEST_METHOD="GET", REQUEST_URI="/api/v1/config", SCRIPT_NAME="/api/v1/config",
                      CONTENT_LENGTH="0")
        self.assertTrue(fastcgi(w.port, params).startswith(b"Status: 200"))


if __name__ == "__main__":
    unittest.main()
