"""Issue 22, item 9: a database on another host can be required to use TLS (db.ssl_ca,
db.ssl_verify). A MariaDB of the test's own on TCP 127.0.0.1, with a certificate for 127.0.0.1
made here by openssl under a CA of the test's own; `placardctl check` connects the way the worker
does (lib/db/mysql_session.cpp, the runtime user):

- with the right CA and verification on, it connects, over TLS (the user REQUIRE SSL);
- with another CA, it refuses;
- against the same server restarted without TLS, ssl_verify on refuses (no fallback to plain
  text), while the same config without the ssl keys connects;
- db.host listing several nodes (issue 25): a first node that refuses is passed over for the
  next one (over TLS, verified), in either order; that node alone does not connect.

Run: python3 tests/e2e/test_db_tls.py --build build [--summary FILE]."""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness as H  # noqa: E402

BUILD = os.environ.get("BUILD", "build")
PASSWORD = "tls-test-password-1"
KEY = "k1:" + "A" * 43  # 32 zero bytes, base64url


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)


def make_ca(d, name):
    key, crt = os.path.join(d, name + ".key"), os.path.join(d, name + ".pem")
    p = run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
             "-subj", "/CN=" + name, "-keyout", key, "-out", crt])
    assert p.returncode == 0, p.stderr
    return key, crt


def make_server_cert(d, ca_key, ca_crt):
    key, csr, crt = (os.path.join(d, n) for n in ("server.key", "server.csr", "server.pem"))
    ext = os.path.join(d, "san.ext")
    with open(ext, "w") as f:
        f.write("subjectAltName = IP:127.0.0.1\n")
    p = run(["openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
             "-keyout", key, "-out", csr])
    assert p.returncode == 0, p.stderr
    p = run(["openssl", "x509", "-req", "-in", csr, "-CA", ca_crt, "-CAkey", ca_key,
             "-CAcreateserial", "-days", "2", "-extfile", ext, "-out", crt])
    assert p.returncode == 0, p.stderr
    return key, crt


class MariaDB:
    """A private mariadbd on 127.0.0.1:<free port>, TLS on or off."""

    def __init__(self, d):
        self.d = d
        self.port = H.free_port()
        self.sock = os.path.join(d, "mysql.sock")
        self.cnf = os.path.join(d, "my.cnf")
        self.proc = None

    def write_cnf(self, tls):
        lines = ["[mysqld]", "datadir=" + os.path.join(self.d, "data"), "socket=" + self.sock,
                 "pid-file=" + os.path.join(self.d, "mariadb.pid"), "bind-address=127.0.0.1",
                 "port=%d" % self.port, "log-error=" + os.path.join(self.d, "mariadb.err"),
                 "skip-name-resolve", "innodb_buffer_pool_size=32M", "performance_schema=OFF"]
        if tls:
            lines += ["ssl_ca=" + tls[0], "ssl_cert=" + tls[1], "ssl_key=" + tls[2]]
        with open(self.cnf, "w") as f:
            f.write("\n".join(lines) + "\n[client]\nsocket=" + self.sock + "\n")

    def user_opts(self):
        return ["--user=root"] if os.geteuid() == 0 else []

    def install(self):
        self.write_cnf(None)
        p = run(["mariadb-install-db", "--defaults-file=" + self.cnf] + self.user_opts() +
                ["--auth-root-authentication-method=socket", "--skip-test-db"])
        assert p.returncode == 0, p.stdout + p.stderr

    def start(self, tls):
        self.write_cnf(tls)
        self.proc = subprocess.Popen(["mariadbd", "--defaults-file=" + self.cnf] + self.user_opts(),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 60
        while run(["mariadb-admin", "--defaults-file=" + self.cnf, "-u", "root",
                   "--connect-timeout=2", "ping"]).returncode != 0:
            if self.proc.poll() is not None or time.time() > deadline:
                raise RuntimeError("mariadbd did not start: " + self.log())
            time.sleep(0.2)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def sql(self, text):
        p = run(["mariadb", "--defaults-file=" + self.cnf, "-u", "root", "--batch",
                 "--skip-column-names", "-e", text])
        assert p.returncode == 0, p.stderr
        return p.stdout

    def log(self):
        try:
            with open(os.path.join(self.d, "mariadb.err")) as f:
                return f.read()[-2000:]
        except OSError:
            return ""


class DatabaseTlsTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.d = tempfile.mkdtemp(prefix="placard-db-tls-")
        os.chmod(cls.d, 0o755)
        ca_key, cls.ca = make_ca(cls.d, "test-ca")
        _, cls.other_ca = make_ca(cls.d, "other-ca")
        srv_key, srv_crt = make_server_cert(cls.d, ca_key, cls.ca)
        cls.tls = (cls.ca, srv_crt, srv_key)
        cls.db = MariaDB(cls.d)
        try:
            cls.db.install()
            cls.db.start(cls.tls)
            cls.db.sql(
                "CREATE DATABASE placard; "
                "CREATE TABLE placard.schema_migrations (version INT PRIMARY KEY); "
                "INSERT INTO placard.schema_migrations VALUES (1); "
                "CREATE TABLE placard.catalog_version (id INT PRIMARY KEY, version BIGINT); "
                "INSERT INTO placard.catalog_version VALUES (1, 7); "
                "CREATE USER 'placard'@'127.0.0.1' IDENTIFIED BY '%s' REQUIRE SSL; "
                "GRANT SELECT ON placard.* TO 'placard'@'127.0.0.1'" % PASSWORD)
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.db.stop()
        shutil.rmtree(cls.d, ignore_errors=True)

    def check(self, host="127.0.0.1", **ssl):
        conf = os.path.join(self.d, "placard.conf")
        lines = ["db.host = " + host, "db.port = %d" % self.db.port, "db.name = placard",
                 "db.user = placard", "db.password = " + PASSWORD, "token.keys = " + KEY,
                 "token.active_key = k1"]
        lines += ["db.%s = %s" % kv for kv in ssl.items()]
        with open(conf, "w") as f:
            f.write("\n".join(lines) + "\n")
        os.chmod(conf, 0o600)
        ctl = os.path.join(H.ROOT, BUILD, "placardctl")
        return run([ctl, "--config", conf, "check"])

    def assertRefusedByTheDatabase(self, p):
        self.assertNotEqual(p.returncode, 0, p.stdout)
        self.assertIn("token keys: ok", p.stdout)  # it got as far as connecting
        self.assertNotIn("reachable", p.stdout)
        self.assertIn("database error", p.stderr)

    def test_1_right_ca_with_verification_connects_over_tls(self):
        p = self.check(ssl_ca=self.ca, ssl_verify="true")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("database: reachable, schema version 1, catalog version 7", p.stdout)
        # The user REQUIRE SSL: without TLS the same account is refused by the server.
        self.assertRefusedByTheDatabase(self.check())

    def test_2_another_ca_is_refused(self):
        self.assertRefusedByTheDatabase(self.check(ssl_ca=self.other_ca, ssl_verify="true"))

    def test_2b_a_ca_without_verification_is_a_config_error(self):
        p = self.check(ssl_ca=self.ca)
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("set db.ssl_verify = true too", p.stderr)

    def test_3_a_server_without_tls_is_refused_when_verification_is_on(self):
        self.db.stop()
        self.db.start(None)
        try:
            self.db.sql("ALTER USER 'placard'@'127.0.0.1' REQUIRE NONE")
            p = self.check()  # the server is there and takes this user without TLS
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            for ssl in ({"ssl_verify": "true"}, {"ssl_ca": self.ca, "ssl_verify": "true"}):
                with self.subTest(ssl=ssl):
                    self.assertRefusedByTheDatabase(self.check(**ssl))
        finally:
            self.db.sql("ALTER USER 'placard'@'127.0.0.1' REQUIRE SSL")
            self.db.stop()
            self.db.start(self.tls)

    def test_4_a_node_list_goes_past_a_node_that_refuses(self):
        closed = H.free_port()  # nothing listens there: the connection is refused
        for host in ("127.0.0.1:%d, 127.0.0.1" % closed, "127.0.0.1,127.0.0.1:%d" % closed):
            with self.subTest(host=host):
                p = self.check(host=host, ssl_ca=self.ca, ssl_verify="true")
                self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
                self.assertIn("database: reachable", p.stdout)
        p = self.check(host="127.0.0.1:%d" % closed, ssl_ca=self.ca, ssl_verify="true")
        self.assertNotEqual(p.returncode, 0, p.stdout)
        self.assertNotIn("reachable", p.stdout)
        p = self.check(host="127.0.0.1,,127.0.0.1:%d" % closed)
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("db.host: ", p.stderr)


def main():
    global BUILD
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=BUILD)
    ap.add_argument("--summary")
    args = ap.parse_args()
    BUILD = args.build
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(DatabaseTlsTests)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    failed = len(result.failures) + len(result.errors)
    passed = result.testsRun - failed - len(result.skipped)
    print("db-tls: %d passed, %d failed" % (passed, failed))
    if args.summary:
        with open(args.summary, "w") as f:
            json.dump({"passed": passed, "failed": failed}, f)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
