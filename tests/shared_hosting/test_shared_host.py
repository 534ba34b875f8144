#!/usr/bin/env python3
"""The shared-host test (issue 21): Placard installed the way a customer of a shared host installs
it, and used through Apache as a browser would.

- A user account made here (useradd, home under /home); the unpacked bundle in ~/public_html,
  every file owned by that user and not group- or world-writable, with the bundle's own .htaccess.
- Apache (Debian's apache2: mod_fcgid, mod_userdir, mod_rewrite, mod_headers) started by this test
  as root with its own config on a free 127.0.0.1 port, User www-data, Debian's suEXEC
  (/usr/lib/apache2/suexec, docroot /var/www, userdir suffix public_html). The user's directory
  allows only `AllowOverride FileInfo Options`.
- A MariaDB of its own (TCP 127.0.0.1) with ONE database user that owns one database (ALL on that
  database, no GRANT OPTION, no second user): `placardctl init` writes the config with it,
  `placardctl migrate` runs as it, and so does the worker.

Two installs, one database:
- site root: a name-based virtual host (Host: root.placard.test) whose site root is the user's
  public_html, the bundle unpacked as public_html/placard/ and root.htaccess's lines in
  public_html/.htaccess. Debian's suEXEC only runs programs under /var/www or a user's
  public_html reached as /~user/, so the vhost maps its URLs onto /~user/ with one server-config
  rewrite [PT] (a host whose suEXEC docroot is /home would use DocumentRoot and SuexecUserGroup
  instead; the customer's side, public_html and its .htaccess files, is the same).
- subfolder: the bundle unpacked as public_html/offers/, reached as /~user/offers/ on the default
  host (its base path /~user/offers). Its .htaccess routing and refusals are checked always; the
  contract smoke, sign-in and admin page there need the `base_path` and `public_origin` config
  keys (placardctl init --base-path/--public-origin): skipped, with the reason, while the
  programs lack them. With both (init --help names --base-path), --public-origin is also given
  to the site-root install.

Checked: the public contract smoke (config, categories, query, impression recorded then
duplicate, click 302), admin sign-in, the admin page and its JS/CSS with their headers; the worker
runs as the user (/proc/PID/status); after mod_fcgid reaps the idle worker the next request is
answered within seconds; bin/, lib/, sql/ and the config files are refused, never served.

    python3 tests/shared_hosting/test_shared_host.py --summary /tmp/sh.json [--bundle FILE]

Needs root. Everything it made (processes, the user and its home, the temporary directory) is
removed at the end, also on failure, SIGTERM or its own time limit (--seconds, default 600).
"""

import argparse
import contextlib
import glob
import json
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))

import harness as H  # noqa: E402
import proc_info  # noqa: E402 (tools/, on the path through the harness)

SUEXEC = "/usr/lib/apache2/suexec"
MODULES = "/usr/lib/apache2/modules"
ROOT_HOST = "root.placard.test"
ADMIN_EMAIL = "owner@shared.test"
DB_NAME = "placard_site"
SUBFOLDER = "offers"
ENV = None  # the SharedHost of this run


def log(msg):
    sys.stderr.write("[shared-host] %s\n" % msg)
    sys.stderr.flush()


class Deadline(KeyboardInterrupt):
    """The time limit or SIGTERM: like ^C, it stops unittest's runner instead of failing one test."""


def run(cmd, timeout=120, check=True, **kw):
    if "input" not in kw:
        kw["stdin"] = subprocess.DEVNULL
    proc = subprocess.run(cmd, capture_output=True, timeout=timeout, **kw)
    if check and proc.returncode != 0:
        raise RuntimeError("%s exited %d:\n%s%s" % (" ".join(cmd), proc.returncode,
                                                   proc.stdout.decode(errors="replace"),
                                                   proc.stderr.decode(errors="replace")))
    return proc


proc_status = proc_info.status  # {field: value} of /proc/PID/status, {} when it is gone


def pids_of_uid(uid):
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            uids = proc_status(int(entry)).get("Uid", "").split()
            if uids and int(uids[0]) == uid:
                pids.append(int(entry))
    return pids


def cmdline(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return f.read().split(b"\0")
    except OSError:
        return []


class SharedHost:
    """The user, the database, the two installs and Apache; stop() undoes all of it."""

    def __init__(self, bundle):
        self.bundle = os.path.abspath(bundle)
        self.tmp = None
        self.user = None
        self.uid = None
        self.home = None
        self.db_proc = None
        self.apache = None
        self.port = None
        self.db_port = None
        self.has_base_path = False
        self.admin_password = "pw-" + secrets.token_hex(12)

    # -- paths
    @property
    def public_html(self):
        return os.path.join(self.home, "public_html")

    def install(self, name):
        return os.path.join(self.public_html, name)

    # -- set up
    def start(self):
        self.tmp = tempfile.mkdtemp(prefix="placard-sh-", dir="/tmp")
        os.chmod(self.tmp, 0o755)
        self.port = H.free_port()
        self.db_port = H.free_port()
        self.make_user()
        self.start_db()
        self.unpack()
        self.configure()
        self.start_apache()

    def cron(self, line, timeout=300):
        """A crontab line's command as cron runs it: /bin/sh -c, cron's few variables, in HOME."""
        env = ["env", "-i", "HOME=" + self.home, "LOGNAME=" + self.user, "SHELL=/bin/sh",
               "PATH=/usr/bin:/bin"]
        return run(["runuser", "-u", self.user, "--"] + env + ["/bin/sh", "-c", line],
                   cwd=self.home, timeout=timeout, check=False)

    def pending_raw_events(self):
        """Raw impressions and clicks above the rollup watermark (not counted yet)."""
        row = self.user_sql("SELECT (SELECT COUNT(*) FROM impressions WHERE id > (SELECT last_id "
                            "FROM rollup_progress WHERE name = 'impressions')), (SELECT COUNT(*) "
                            "FROM clicks WHERE id > (SELECT last_id FROM rollup_progress WHERE "
                            "name = 'clicks'))")[0]
        return int(row[0]), int(row[1])

    def as_user(self, cmd, cwd, stdin=None, timeout=120):
        env = ["env", "-i", "HOME=" + self.home, "PATH=/usr/bin:/bin", "LANG=C"]
        kw = {} if stdin is None else {"input": stdin}
        return run(["runuser", "-u", self.user, "--"] + env + cmd, cwd=cwd, timeout=timeout, **kw)

    def make_user(self):
        name = "plsh" + secrets.token_hex(4)
        run(["useradd", "--create-home", "--home-dir", "/home/" + name, "--shell", "/bin/sh",
             "--user-group", name])
        self.user = name  # from here on, stop() removes it
        pw = pwd.getpwnam(name)
        self.uid, self.gid, self.home = pw.pw_uid, pw.pw_gid, pw.pw_dir
        os.chmod(self.home, 0o711)  # Apache may pass through, not list
        self.as_user(["mkdir", "-m", "0755", "public_html"], cwd=self.home)
        log("user %s (uid %d), home %s" % (name, self.uid, self.home))

    def start_db(self):
        data = os.path.join(self.tmp, "mariadb")
        os.mkdir(data)
        self.db_sock = os.path.join(self.tmp, "mariadb.sock")
        self.mycnf = os.path.join(self.tmp, "my.cnf")
        with open(self.mycnf, "w") as f:
            f.write("[mysqld]\ndatadir=%s\nsocket=%s\npid-file=%s/mariadb.pid\n"
                    "bind-address=127.0.0.1\nport=%d\nlog-error=%s/mariadb.err\n"
                    "character-set-server=utf8mb4\ncollation-server=utf8mb4_unicode_ci\n"
                    "default-time-zone=+00:00\nskip-name-resolve\ninnodb_buffer_pool_size=64M\n"
                    "performance_schema=OFF\n[client]\nsocket=%s\n"
                    % (data, self.db_sock, self.tmp, self.db_port, self.tmp, self.db_sock))
        run(["mariadb-install-db", "--defaults-file=" + self.mycnf, "--user=root",
             "--auth-root-authentication-method=socket", "--skip-test-db"], timeout=180)
        self.db_proc = subprocess.Popen(
            ["mariadbd", "--defaults-file=" + self.mycnf, "--user=root"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        ok = H.wait_until(lambda: run(["mariadb-admin", "--defaults-file=" + self.mycnf,
                                       "-u", "root", "--connect-timeout=2", "ping"],
                                      check=False).returncode == 0, timeout=60, interval=0.3)
        if not ok:
            raise RuntimeError("MariaDB did not answer within 60 s:\n" + self.tail("mariadb.err"))
        # The host's one database user: everything on one database, nothing else.
        self.db_user = self.user + "_db"
        self.db_password = secrets.token_hex(16)
        self.root_sql("CREATE DATABASE %s CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;"
                      "CREATE USER '%s'@'127.0.0.1' IDENTIFIED BY '%s';"
                      "GRANT ALL PRIVILEGES ON %s.* TO '%s'@'127.0.0.1';"
                      % (DB_NAME, self.db_user, self.db_password, DB_NAME, self.db_user))

    def root_sql(self, sql, database=None):
        cmd = ["mariadb", "--defaults-file=" + self.mycnf, "-u", "root", "--batch",
               "--skip-column-names", "-e", sql]
        if database:
            cmd.insert(3, database)
        out = run(cmd, timeout=60).stdout.decode()
        return [line.split("\t") for line in out.splitlines()]

    def user_sql(self, sql):
        """SQL as the host's database user, over TCP, as the worker connects."""
        out = run(["mariadb", "--no-defaults", "-h", "127.0.0.1", "-P", str(self.db_port),
                   "-u", self.db_user, "-p" + self.db_password, DB_NAME,
                   "--default-character-set=utf8mb4", "--batch", "--skip-column-names",
                   "-e", sql], timeout=60).stdout.decode()
        return [line.split("\t") for line in out.splitlines()]

    def unpack(self):
        """As the user: the bundle unpacked twice (site root's placard/, the subfolder)."""
        copy = os.path.join(self.home, os.path.basename(self.bundle))
        shutil.copy(self.bundle, copy)
        os.chown(copy, self.uid, self.gid)
        self.as_user(["tar", "-xzf", copy], cwd=self.public_html)
        top = os.path.basename(self.bundle)[:-len(".tar.gz")]
        self.as_user(["cp", "-R", top, SUBFOLDER], cwd=self.public_html)
        self.as_user(["mv", top, "placard"], cwd=self.public_html)
        os.unlink(copy)
        # The site root's .htaccess: the lines the bundle ships for Placard at the root.
        self.as_user(["cp", "placard/root.htaccess", ".htaccess"], cwd=self.public_html)

    def configure(self):
        """placardctl setup --single-user as the user (the one DB user: migrate, the config, the
        first admin) for the site root's install; the subfolder's install shares the database
        (placardctl init). Then the e2e suite's catalog."""
        placard = self.install("placard")
        help_text = self.as_user(["./placardctl", "init", "--help"], cwd=placard).stdout.decode()
        self.has_base_path = "--base-path" in help_text
        pwfile = os.path.join(self.home, ".dbpass")
        fd = os.open(pwfile, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(self.db_password)
        os.chown(pwfile, self.uid, self.gid)
        common = ["--threads", "1", "--db-host", "127.0.0.1", "--db-port", str(self.db_port),
                  "--db-name", DB_NAME, "--db-user", self.db_user, "--db-password-file", pwfile]
        try:
            for name, origin, base in (
                    ("placard", "http://%s:%d" % (ROOT_HOST, self.port), ""),
                    (SUBFOLDER, "http://127.0.0.1:%d" % self.port,
                     "/~%s/%s" % (self.user, SUBFOLDER))):
                extra = []
                if self.has_base_path:
                    extra = ["--public-origin", origin] + (["--base-path", base] if base else [])
                if name == "placard":
                    self.as_user(["./placardctl", "setup", "--single-user",
                                  "--listen", "", "--log-file", "",
                                  "--admin-email", ADMIN_EMAIL, "--admin-password-stdin"]
                                 + common + extra, cwd=self.install(name), timeout=300,
                                 stdin=(self.admin_password + "\n").encode())
                else:
                    self.as_user(["./placardctl", "init"] + common + extra, cwd=self.install(name))
        finally:
            os.unlink(pwfile)
        # Between visits mod_fcgid ends the workers: the background work is cron's (the guide).
        for name in ("placard", SUBFOLDER):
            self.as_user(["./placardctl", "config", "set", "background_jobs", "cron"],
                         cwd=self.install(name))
        # The e2e suite's catalog, loaded as the database user.
        self.user_sql(H.fixture_sql())

    def start_apache(self):
        conf = os.path.join(self.tmp, "apache.conf")
        run_dir = os.path.join(self.tmp, "run")
        ipc = os.path.join(self.tmp, "fcgid")
        www = os.path.join(self.tmp, "www")
        for d in (run_dir, ipc, www):
            os.mkdir(d)
        shutil.chown(ipc, "www-data", "www-data")
        os.chmod(ipc, 0o700)
        with open(os.path.join(HERE, "apache-shared.conf.in")) as f:
            text = f.read()
        for key, value in (("@TMP@", self.tmp), ("@PORT@", str(self.port)),
                           ("@USER@", self.user), ("@ROOT_HOST@", ROOT_HOST),
                           ("@MODULES@", MODULES)):
            text = text.replace(key, value)
        with open(conf, "w") as f:
            f.write(text)
        run(["apache2", "-t", "-f", conf])
        self.error_log = os.path.join(self.tmp, "apache-error.log")
        self.apache = subprocess.Popen(["apache2", "-f", conf, "-DFOREGROUND"],
                                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                       stderr=open(os.path.join(self.tmp, "apache.out"), "wb"),
                                       start_new_session=True)

        def answers():
            try:
                H.http_request(self.port, "GET", "/", timeout=2)
                return True
            except OSError:
                return False
        if not H.wait_until(answers, timeout=30, interval=0.2):
            raise RuntimeError("Apache did not answer within 30 s:\n" + self.tail("apache-error.log"))
        log("Apache on 127.0.0.1:%d (config %s)" % (self.port, conf))

    # -- inspection
    def tail(self, name, n=40):
        try:
            with open(os.path.join(self.tmp, name), "rb") as f:
                return "\n".join(f.read().decode("utf-8", "replace").splitlines()[-n:])
        except OSError:
            return "(no %s)" % name

    def suexec_log(self, n=15):
        try:
            with open("/var/log/apache2/suexec.log", "rb") as f:
                lines = f.read().decode("utf-8", "replace").splitlines()
        except OSError:
            return "(no suexec log)"
        return "\n".join([l for l in lines if self.user in l][-n:])

    def diagnostics(self):
        return ("--- apache error log:\n%s\n--- suexec.log (this user):\n%s"
                % (self.tail("apache-error.log", 30), self.suexec_log()))

    def workers(self):
        """Pids of placard.fcgi workers of this user's installs (run through the bundle's loader)."""
        found = []
        for pid in pids_of_uid(self.uid):
            args = cmdline(pid)
            if any(a.endswith(b"/bin/placard.fcgi") for a in args):
                found.append(pid)
        return found

    def all_workers(self):
        """Every process whose command line names one of the installs' bin/placard.fcgi."""
        needle = self.public_html.encode()
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                args = cmdline(int(entry))
                if any(a.startswith(needle) and a.endswith(b"/bin/placard.fcgi") for a in args):
                    found.append(int(entry))
        return found

    # -- tear down (every step, whatever failed before)
    def stop(self):
        if self.apache is not None:
            self._end(self.apache, "Apache")
            # suEXEC clears the worker's environment, so no sanitizer option reaches it: on a
            # sanitizer build a report goes to its standard error, which mod_fcgid logs here
            # (the suite's scan judges the copy).
            H.keep_sanitizer_report(self.error_log, "shared-host")
        if self.uid is not None:
            for pid in pids_of_uid(self.uid):  # only the test user's own processes
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
        if self.db_proc is not None:
            self._end(self.db_proc, "MariaDB")
        if self.user is not None:
            proc = run(["userdel", "--remove", self.user], check=False)
            if proc.returncode not in (0, 12):  # 12: home removed with a note about the mail spool
                log("userdel %s: %s" % (self.user, proc.stderr.decode(errors="replace")))
            if os.path.isdir("/home/" + self.user):
                shutil.rmtree("/home/" + self.user, ignore_errors=True)
        if self.tmp and os.environ.get("SHARED_HOST_KEEP") != "1":
            shutil.rmtree(self.tmp, ignore_errors=True)
        elif self.tmp:
            log("kept %s" % self.tmp)

    @staticmethod
    def _end(proc, what):
        """SIGTERM to the process group it leads (started with a session of its own), then
        SIGKILL after 20 s."""
        if proc.poll() is None:
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                log("%s did not stop within 20 s: SIGKILL" % what)
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=10)


# --------------------------------------------------------------------------------------------
# Tests


class Site:
    """One install as the browser sees it: Host header, origin and URL base."""

    def __init__(self, host, base):
        self.host, self.base = host, base

    @property
    def origin(self):
        return "http://%s:%d" % (self.host, ENV.port)

    def http(self, method, path, body=None, headers=None, timeout=15):
        hdrs = {"Host": "%s:%d" % (self.host, ENV.port)}
        hdrs.update(headers or {})
        if body is not None and not isinstance(body, (bytes, str)):
            body = json.dumps(body)
            hdrs.setdefault("Content-Type", "application/json")
        return H.http_request(ENV.port, method, self.base + path, body, hdrs, timeout)


class InstallTests:
    """The checks every install must pass (mixed into one TestCase per install)."""

    site = None

    def setUp(self):
        self.assertIsNotNone(ENV, "the shared host was not set up")

    def json_ok(self, method, path, body=None, headers=None, status=200):
        st, h, raw = self.site.http(method, path, body, headers)
        self.assertEqual(st, status, "%s %s%s: %r\n%s" % (method, self.site.base, path, raw[:300],
                                                         ENV.diagnostics()))
        self.assertEqual(h.get("content-type"), H.JSON_CT)
        return json.loads(raw)

    def test_public_contract_smoke(self):
        config = self.json_ok("GET", "/api/v1/config")
        self.assertEqual(config["countries"], H.SELECTED_COUNTRIES)
        self.assertIn("categories", self.json_ok("GET", "/api/v1/categories"))
        offers = self.json_ok("POST", "/api/v1/offers/query", H.query_body(category="electronics"))
        self.assertEqual([o["id"] for o in offers["offers"]], H.ELECTRONICS_DE)
        token = offers["offers"][0]["impressionToken"]
        for expected in ("recorded", "duplicate"):
            doc = self.json_ok("POST", "/api/v1/events/impression", {"impressionToken": token})
            self.assertEqual(doc, {"status": expected})
        click = offers["offers"][0]["clickUrl"]
        self.assertTrue(click.startswith("/r/click/"), click)
        st, h, _ = self.site.http("GET", click)
        self.assertEqual(st, 302, ENV.diagnostics())
        self.assertEqual(h.get("location"), H.OFFER[int(offers["offers"][0]["id"])]["tracking"])

    def test_oversized_body_is_refused_by_placard(self):
        """Apache's default FcgidMaxRequestLen (128 KiB) lets Placard answer its own 413."""
        st, h, raw = self.site.http("POST", "/api/v1/offers/query", b"x" * (64 * 1024),
                                    {"Content-Type": "application/json"})
        self.assertEqual(st, 413, raw[:300])
        self.assertEqual(json.loads(raw)["error"]["code"], "body_too_large")

    def test_admin_sign_in(self):
        headers = {"Origin": self.site.origin, "X-Service-Mark": "admin"}
        st, h, raw = self.site.http("POST", "/admin/api/v1/session",
                                    {"email": ADMIN_EMAIL, "password": ENV.admin_password}, headers)
        self.assertEqual(st, 200, "%r\n%s" % (raw[:300], ENV.diagnostics()))
        cookie = h.get("set-cookie", "").split(";", 1)[0]
        self.assertIn("placard_session=", cookie)
        doc = self.json_ok("GET", "/admin/api/v1/session", headers={"Cookie": cookie})
        self.assertEqual(doc["account"]["email"], ADMIN_EMAIL)
        # A write from another origin is refused.
        st, _, _ = self.site.http("POST", "/admin/api/v1/session",
                                  {"email": ADMIN_EMAIL, "password": ENV.admin_password},
                                  {"Origin": "http://evil.example", "X-Service-Mark": "admin"})
        self.assertEqual(st, 403)

    def test_admin_page_and_assets_with_headers(self):
        for path, ctype in (("/admin/", "text/html"), ("/admin/js/app.js", "javascript"),
                            ("/admin/js/api.js", "javascript"), ("/admin/admin.css", "text/css"),
                            ("/admin/vendor/uPlot.esm.js", "javascript")):
            st, h, body = self.site.http("GET", path)
            self.assertEqual(st, 200, "%s: %r" % (path, body[:200]))
            self.assertIn(ctype, h.get("content-type", ""), path)
            self.assertIn("frame-ancestors 'none'", h.get("content-security-policy", ""), path)
            self.assertEqual(h.get("x-content-type-options"), "nosniff", path)
            self.assertEqual(h.get("x-frame-options"), "DENY", path)
            self.assertEqual(h.get("referrer-policy"), "same-origin", path)
        st, _, body = self.site.http("GET", "/admin/")
        self.assertIn(b'src="js/app.js"', body)


class FilesTests:
    """The bundle's own files, refused by its .htaccess (mixed into a TestCase per install)."""

    def test_program_files_are_never_served(self):
        install = ENV.install(self.install_dir)
        libc = os.path.basename(sorted(glob.glob(os.path.join(install, "lib", "libc.so*")))[0])
        sql = os.path.basename(sorted(glob.glob(os.path.join(install, "sql", "*.sql")))[0])
        with open(os.path.join(install, "placard.conf"), "rb") as f:
            secret = [l for l in f.read().splitlines() if l.startswith(b"db.password")][0]
        for path in ("/bin/placard.fcgi", "/bin/placardctl", "/bin/", "/lib/" + libc,
                     "/lib/ld-linux-x86-64.so.2", "/lib/mariadb/", "/sql/" + sql, "/sql/",
                     "/placard.conf", "/placard-admin.conf", "/placardctl", "/root.htaccess",
                     "/.htaccess", "/admin/.htaccess", "/README.txt"):
            st, _, body = self.site.http("GET", self.files + path)
            self.assertIn(st, (403, 404), path)
            self.assertNotIn(b"\x7fELF", body, path)
            self.assertNotIn(secret.split(b"=", 1)[1].strip(), body, path)
            self.assertNotIn(b"CREATE TABLE", body, path)


class SiteRootTests(InstallTests, FilesTests, unittest.TestCase):
    """public_html is the site root; Placard in public_html/placard/ answers at / (root.htaccess)."""

    install_dir = "placard"
    files = "/placard"  # the bundle's own files, seen from the site root

    @classmethod
    def setUpClass(cls):
        cls.site = Site(ROOT_HOST, "")

    def test_worker_runs_as_the_user_and_comes_back_after_being_reaped(self):
        self.json_ok("GET", "/api/v1/config")
        workers = ENV.all_workers()
        self.assertTrue(workers, "no placard.fcgi process after a request\n" + ENV.diagnostics())
        for pid in workers:
            status = proc_status(pid)
            uids = [int(x) for x in status.get("Uid", "-1").split()]
            gids = [int(x) for x in status.get("Gid", "-1").split()]
            self.assertEqual(uids, [ENV.uid] * 4, "worker %d: Uid %s" % (pid, status.get("Uid")))
            self.assertEqual(gids, [ENV.gid] * 4, "worker %d: Gid %s" % (pid, status.get("Gid")))
        # FcgidIdleTimeout 3, FcgidIdleScanInterval 1, FcgidMinProcessesPerClass 0: reaped.
        gone = H.wait_until(lambda: not ENV.all_workers(), timeout=30, interval=0.25)
        self.assertTrue(gone, "mod_fcgid did not end the idle worker within 30 s (pids %r)"
                        % ENV.all_workers())
        started = time.monotonic()
        self.json_ok("GET", "/api/v1/config")
        offers = self.json_ok("POST", "/api/v1/offers/query", H.query_body(category="electronics"))
        self.assertTrue(offers["offers"])
        elapsed = time.monotonic() - started
        self.assertLess(elapsed, 5.0, "first answers after the reap took %.1f s" % elapsed)
        fresh = ENV.all_workers()
        self.assertTrue(fresh, "answered, yet no worker was spawned")
        status = proc_status(fresh[0])
        log("after the reap: config and a query answered in %.2f s; the new worker's VmRSS %s, "
            "VmHWM %s" % (elapsed, status.get("VmRSS", "?").strip(), status.get("VmHWM", "?").strip()))
        # A worker start pays no password hash (scrypt: 128 MiB): its peak stays small.
        self.assertLess(int(status["VmHWM"].split()[0]), 64 * 1024, status["VmHWM"])

    def test_cron_lines_count_with_no_worker_alive(self):
        """background_jobs = cron: the workers count nothing; the guide's crontab lines, run as
        cron runs them while no worker process is alive, do."""
        offers = self.json_ok("POST", "/api/v1/offers/query", H.query_body(category="electronics"))
        for offer in offers["offers"][:3]:
            doc = self.json_ok("POST", "/api/v1/events/impression",
                               {"impressionToken": offer["impressionToken"]})
            self.assertEqual(doc, {"status": "recorded"})
        st, _, _ = self.site.http("GET", offers["offers"][0]["clickUrl"])
        self.assertEqual(st, 302)
        self.assertTrue(H.wait_until(lambda: not ENV.all_workers(), timeout=30, interval=0.25),
                        "the idle worker was not reaped within 30 s")
        impressions, clicks = ENV.pending_raw_events()
        self.assertGreaterEqual((impressions, clicks), (3, 1))
        proc = ENV.cron("$HOME/public_html/placard/placardctl rollup")
        out = proc.stdout.decode()
        self.assertEqual(proc.returncode, 0, out + proc.stderr.decode())
        self.assertIn("counted %d impressions, %d clicks" % (impressions, clicks), out)
        self.assertEqual(ENV.pending_raw_events(), (0, 0))
        # The daily statistics (by offer) hold every raw event: counted or counted as ignored.
        counted = ENV.user_sql(
            "SELECT SUM(impressions), SUM(ignored_impressions), SUM(clicks), SUM(ignored_clicks) "
            "FROM stats_daily WHERE dim = 'offer'")[0]
        raw = ENV.user_sql(
            "SELECT (SELECT COUNT(*) FROM impressions WHERE ignored IS NULL), (SELECT COUNT(*) "
            "FROM impressions WHERE ignored IS NOT NULL), (SELECT COUNT(*) FROM clicks WHERE "
            "ignored IS NULL), (SELECT COUNT(*) FROM clicks WHERE ignored IS NOT NULL)")[0]
        self.assertEqual(counted, raw)
        for line in ("$HOME/public_html/placard/placardctl retention run",
                     "$HOME/public_html/placard/placardctl sync --due"):
            proc = ENV.cron(line)
            self.assertEqual(proc.returncode, 0, line + proc.stderr.decode())
        self.assertEqual(ENV.all_workers(), [], "a cron command left or started a worker")

    def test_upgrade_as_the_guide_says(self):
        """docs/shared-hosting.md's upgrade: unpack beside, copy the config, migrate and check from
        the new folder, swap the folders while the old worker may still run; the next requests are
        answered by a worker started from the new folder."""
        self.json_ok("GET", "/api/v1/config")  # a worker of the current folder is alive
        copy = os.path.join(ENV.home, os.path.basename(ENV.bundle))
        shutil.copy(ENV.bundle, copy)
        os.chown(copy, ENV.uid, ENV.gid)
        top = os.path.basename(ENV.bundle)[:-len(".tar.gz")]
        try:
            ENV.as_user(["tar", "-xzf", copy], cwd=ENV.public_html)
        finally:
            os.unlink(copy)
        ENV.as_user(["cp", "-p", "placard/placard.conf", "placard/placard-admin.conf", top + "/"],
                    cwd=ENV.public_html)
        out = ENV.as_user(["./placardctl", "migrate"], cwd=os.path.join(ENV.public_html, top))
        self.assertIn(b"schema is up to date", out.stdout)
        out = ENV.as_user(["./placardctl", "check"], cwd=os.path.join(ENV.public_html, top))
        self.assertIn(b"database: reachable", out.stdout)
        ENV.as_user(["sh", "-c", "mv placard placard.old && mv %s placard" % top],
                    cwd=ENV.public_html)
        try:
            self.json_ok("GET", "/api/v1/config")
            new_dir = ENV.install("placard")
            cwds = []
            for pid in ENV.all_workers():
                with contextlib.suppress(OSError):
                    cwds.append(os.readlink("/proc/%d/cwd" % pid))
            self.assertIn(new_dir, cwds, "no worker runs from the new folder")
            st, _, _ = self.site.http("GET", "/placard.old/placard.conf")
            self.assertIn(st, (403, 404))
        finally:
            ENV.as_user(["rm", "-rf", "placard.old"], cwd=ENV.public_html)

    def test_the_sites_other_pages_still_work(self):
        with open(os.path.join(ENV.public_html, "hello.html"), "w") as f:
            f.write("<p>the customer's own page</p>\n")
        os.chown(os.path.join(ENV.public_html, "hello.html"), ENV.uid, ENV.gid)
        st, _, body = self.site.http("GET", "/hello.html")
        self.assertEqual(st, 200)
        self.assertIn(b"customer's own page", body)

    def test_single_database_user(self):
        grants = [row[0] for row in ENV.root_sql("SHOW GRANTS FOR '%s'@'127.0.0.1'" % ENV.db_user)]
        self.assertTrue(any("ON `%s`.*" % DB_NAME in g for g in grants), grants)
        self.assertFalse(any("GRANT OPTION" in g for g in grants), grants)
        users = ENV.root_sql("SELECT CONCAT(user, '@', host) FROM mysql.user WHERE user NOT IN "
                             "('root', 'mysql', 'mariadb.sys', 'PUBLIC', '')")
        self.assertEqual([u[0] for u in users], ["%s@127.0.0.1" % ENV.db_user])
        # The worker uses it: the impressions above were written through it.
        self.assertGreater(int(ENV.user_sql("SELECT COUNT(*) FROM impressions")[0][0]), 0)
        with open(os.path.join(ENV.install("placard"), "placard.conf")) as f:
            self.assertIn("db.user = %s\n" % ENV.db_user, f.read())

    def test_files_obey_suexec(self):
        for top, dirs, files in os.walk(ENV.public_html):
            for name in dirs + files:
                st = os.lstat(os.path.join(top, name))
                self.assertEqual(st.st_uid, ENV.uid, os.path.join(top, name))
                self.assertFalse(st.st_mode & 0o022, "%s is group/world-writable"
                                 % os.path.join(top, name))
        for name in ("placard.conf", "placard-admin.conf"):
            mode = os.stat(os.path.join(ENV.install("placard"), name)).st_mode & 0o777
            self.assertEqual(mode, 0o600, name)


class SubfolderFilesTests(FilesTests, unittest.TestCase):
    """public_html/offers/ as /~user/offers/: what its .htaccess does with or without base_path."""

    install_dir = SUBFOLDER
    files = ""

    @classmethod
    def setUpClass(cls):
        cls.site = Site("127.0.0.1", "/~%s/%s" % (ENV.user, SUBFOLDER) if ENV else "")

    def test_worker_paths_reach_placard(self):
        """api/, r/, admin/api/ and healthz go to the worker (its answers carry X-Request-Id),
        admin/api/ too although admin/ has an .htaccess of its own."""
        for path in ("/api/v1/config", "/r/click/1000?t=x", "/admin/api/v1/session", "/healthz"):
            st, h, body = self.site.http("GET", path)
            self.assertIn("x-request-id", h, "%s answered %d by Apache, not Placard: %r\n%s"
                          % (path, st, body[:200], ENV.diagnostics()))


class SubfolderTests(InstallTests, unittest.TestCase):
    """Placard in public_html/offers/, reached as /~user/offers/: its base path."""

    install_dir = SUBFOLDER
    files = ""

    @classmethod
    def setUpClass(cls):
        if ENV is not None and not ENV.has_base_path:
            raise unittest.SkipTest("waiting for the base_path config key (placardctl init "
                                    "--base-path): the worker routes by REQUEST_URI, which under "
                                    "/~user/offers/ carries the base")
        cls.site = Site("127.0.0.1", "/~%s/%s" % (ENV.user, SUBFOLDER) if ENV else "")

    def test_outside_the_base_is_not_placard(self):
        st, _, _ = self.site.http("GET", "/../api/v1/config")
        self.assertIn(st, (400, 403, 404))


# --------------------------------------------------------------------------------------------


def find_bundle(build):
    found = sorted(glob.glob(os.path.join(ROOT, build, "placard-*-linux-x86_64.tar.gz")))
    if not found:
        raise SystemExit("no bundle in %s (run: make bundle)" % build)
    return found[-1]


def preflight():
    missing = [p for p in ("/usr/sbin/apache2", SUEXEC, MODULES + "/mod_fcgid.so",
                           MODULES + "/mod_userdir.so", MODULES + "/mod_suexec.so",
                           "/usr/sbin/mariadbd", "/usr/sbin/useradd", "/usr/sbin/runuser")
               if not os.path.exists(p)]
    if os.geteuid() != 0:
        missing.append("root (the test makes a user and runs Apache as root for suEXEC)")
    return missing


def main():
    global ENV
    parser = argparse.ArgumentParser()
    parser.add_argument("--summary", required=True)
    parser.add_argument("--build", default=os.environ.get("BUILD", "build"))
    parser.add_argument("--bundle", help="the bundle (default: BUILD/placard-*-linux-x86_64.tar.gz)")
    parser.add_argument("--seconds", type=int, default=600, help="time limit of the whole run")
    parser.add_argument("-k", dest="pattern", help="only tests whose name contains this")
    args = parser.parse_args()

    def write_summary(passed, failed):
        with open(args.summary, "w") as f:
            json.dump({"passed": passed, "failed": failed}, f)

    write_summary(0, 1)  # until the end says otherwise
    missing = preflight()
    if missing:
        log("cannot run: missing %s (scripts/deps.sh installs the packages)" % ", ".join(missing))
        return 1

    def on_signal(signum, frame):
        raise Deadline("signal %d" % signum)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGALRM, on_signal)
    signal.alarm(args.seconds)

    host = SharedHost(args.bundle or find_bundle(args.build))
    try:
        try:
            host.start()
        except (Exception, Deadline) as e:  # noqa: B902
            log("set-up failed: %s\n%s" % (e, host.diagnostics() if host.tmp else ""))
            return 1
        ENV = host
        suite = unittest.TestSuite()
        for case in (SiteRootTests, SubfolderFilesTests, SubfolderTests):
            tests = unittest.defaultTestLoader.loadTestsFromTestCase(case)
            if args.pattern:
                tests = [t for t in tests if args.pattern in t.id()]
            suite.addTests(tests)
        result = unittest.TextTestRunner(verbosity=2).run(suite)
        failed = len(result.failures) + len(result.errors)
        # A class skipped in setUpClass is one entry for the class, and none of its tests ran.
        skipped = len(result.skipped)
        passed = result.testsRun - failed - len(
            [t for t, _ in result.skipped if isinstance(t, unittest.TestCase)])
        write_summary(passed, failed)
        log("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
        return 0 if failed == 0 else 1
    except Deadline as e:
        log("stopped: %s" % e)
        return 1
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        host.stop()


if __name__ == "__main__":
    sys.exit(main())
