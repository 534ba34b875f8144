"""placardctl against a real stack: every command answers --help, refuses bad input clearly,
and does its job (migrate is idempotent, accounts are created and approved, init never
overwrites by accident, check reaches the database)."""

import grp
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness as H  # noqa: E402
from admin_client import AdminClient, new_approved_account  # noqa: E402


def newest_migration():
    """The number of the newest sql/NNNN_*.sql file: the schema version after migrate."""
    return max(int(n[:4]) for n in os.listdir(os.path.join(H.ROOT, "sql"))
               if n[:4].isdigit() and n.endswith(".sql"))


COMMANDS = ["init", "migrate", "demo-data", "account", "check", "catalog", "grant", "retention",
            "setup", "config", "journal"]


class PlacardctlTests(H.StackTestCase):
    FIXTURES = False

    def ctl(self, *args, stdin=b"", config=True):
        cmd = [os.path.join(H.ROOT, self.stack.build, "placardctl")]
        if config:
            cmd += ["--config", self.stack.path("placard.conf")]
        env = {k: v for k, v in os.environ.items() if k != "PLACARD_CONFIG"}
        proc = subprocess.run(cmd + list(args), input=stdin, capture_output=True, timeout=120,
                              env=env)
        return proc.returncode, proc.stdout.decode(), proc.stderr.decode()

    def test_every_command_has_help(self):
        for command in COMMANDS:
            rc, out, err = self.ctl(command, "--help")
            self.assertEqual(rc, 0, "%s --help: %s" % (command, err))
            self.assertIn("placardctl " + command, out)
        rc, out, _ = self.ctl("--help")
        self.assertEqual(rc, 0)
        for command in COMMANDS:
            self.assertIn(command, out)

    def test_unknown_command_and_option_are_usage_errors(self):
        rc, _, err = self.ctl("frobnicate")
        self.assertEqual(rc, 2)
        self.assertIn("unknown command frobnicate", err)
        rc, _, err = self.ctl("migrate", "--frob")
        self.assertEqual(rc, 2)
        self.assertIn("unknown option --frob", err)

    def test_check_reports_schema_and_catalog_versions(self):
        rc, out, err = self.ctl("check")
        self.assertEqual(rc, 0, err)
        self.assertIn("database: reachable, schema version %d, catalog version " % newest_migration(), out)
        self.assertNotIn(self.stack.config()["db.password"], out + err)

    def test_missing_config_is_a_clear_error(self):
        rc, _, err = self.ctl("--config", "/nonexistent/placard.conf", "check", config=False)
        self.assertEqual(rc, 1)
        self.assertIn("cannot read config file /nonexistent/placard.conf", err)

    def test_migrate_twice_changes_nothing(self):
        before = H.db("SELECT COUNT(*) FROM schema_migrations")
        rc, out, err = self.ctl("migrate")
        self.assertEqual(rc, 0, err)
        self.assertIn("schema is up to date", out)
        self.assertEqual(H.db("SELECT COUNT(*) FROM schema_migrations"), before)

    def sql_copy(self):
        """A copy of the repository's sql directory, removed after the test."""
        directory = tempfile.mkdtemp(prefix="placard-e2e-sql-")
        self.addCleanup(shutil.rmtree, directory, True)
        copy = os.path.join(directory, "sql")
        shutil.copytree(os.path.join(H.ROOT, "sql"), copy)
        return copy

    def test_applied_migrations_carry_the_checksum_of_their_file(self):
        rows = H.db("SELECT version, name, checksum FROM schema_migrations ORDER BY version")
        files = sorted(n for n in os.listdir(os.path.join(H.ROOT, "sql"))
                       if n[:4].isdigit() and n.endswith(".sql"))
        self.assertEqual([r[:2] for r in rows], [[str(int(n[:4])), n] for n in files])
        for _, name, checksum in rows:
            with open(os.path.join(H.ROOT, "sql", name), "rb") as f:
                self.assertEqual(checksum, hashlib.sha256(f.read()).hexdigest(), name)

    def test_rows_from_before_checksums_are_filled_once(self):
        expected = H.db("SELECT checksum FROM schema_migrations WHERE version = 1")
        self.addCleanup(H.db, "UPDATE schema_migrations SET checksum = '%s' WHERE version = 1"
                        % expected[0][0])
        H.db("UPDATE schema_migrations SET checksum = NULL WHERE version = 1")
        # The file as it is at that first run becomes the reference, whatever it holds.
        sql = self.sql_copy()
        with open(os.path.join(sql, "0001_initial.sql"), "ab") as f:
            f.write(b"\n-- edited before checksums existed\n")
        with open(os.path.join(sql, "0001_initial.sql"), "rb") as f:
            edited = hashlib.sha256(f.read()).hexdigest()
        rc, out, err = self.ctl("migrate", "--sql-dir", sql)
        self.assertEqual(rc, 0, err)
        self.assertIn("schema is up to date", out)
        self.assertEqual(H.db("SELECT checksum FROM schema_migrations WHERE version = 1"), [[edited]])
        # Once: from now on the original file is the changed one.
        rc, _, err = self.ctl("migrate")
        self.assertEqual(rc, 1)
        self.assertIn("0001_initial.sql was changed after it was applied", err)

    def test_migrate_refuses_a_changed_or_missing_applied_file(self):
        before = H.db("SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version")
        sql = self.sql_copy()
        # A new migration waits behind the refusal: nothing at all may be applied.
        with open(os.path.join(sql, "0099_never.sql"), "w") as f:
            f.write("CREATE TABLE e2e_never_applied (x INT);\n")
        with open(os.path.join(sql, "0002_admin.sql"), "ab") as f:
            f.write(b"-- an edit after the fact\n")
        rc, out, err = self.ctl("migrate", "--sql-dir", sql)
        self.assertEqual(rc, 1, out)
        self.assertIn("refusing to migrate, nothing applied", err)
        self.assertIn("0002_admin.sql was changed after it was applied", err)
        self.assertNotIn("0001_initial.sql", err)
        self.assertNotIn("applying", out)
        self.assertEqual(H.db("SHOW TABLES LIKE 'e2e_never_applied'"), [])
        self.assertEqual(H.db("SELECT version, name, checksum, applied_at FROM schema_migrations "
                              "ORDER BY version"), before)

        os.remove(os.path.join(sql, "0002_admin.sql"))
        rc, _, err = self.ctl("migrate", "--sql-dir", sql)
        self.assertEqual(rc, 1)
        self.assertIn("the applied migration 0002_admin.sql is missing", err)
        self.assertEqual(H.db("SHOW TABLES LIKE 'e2e_never_applied'"), [])

        rc, out, err = self.ctl("check")
        self.assertEqual(rc, 0, err)
        self.assertIn("schema version %d," % newest_migration(), out)
        rc, out, err = self.ctl("migrate")
        self.assertEqual(rc, 0, err)
        self.assertIn("schema is up to date", out)

    def runtime_sql(self, sql):
        """Runs sql as the worker's database user (db.user of the stack's placard.conf)."""
        conf = self.stack.config()
        return subprocess.run(
            ["mariadb", "--socket", self.stack.path("mysql.sock"), "-u", conf["db.user"],
             "-p" + conf["db.password"], "placard", "--batch", "--skip-column-names", "-e", sql],
            stdin=subprocess.DEVNULL, capture_output=True, timeout=30)

    def test_runtime_user_may_add_audit_rows_but_never_change_or_delete_them(self):
        target = "e2e:grant-%d" % os.getpid()
        self.addCleanup(H.db, "DELETE FROM audit_log WHERE target = '%s'" % target)
        proc = self.runtime_sql("INSERT INTO audit_log (account_id, action, target) "
                                "VALUES (NULL, 'e2e.check', '%s')" % target)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(H.db("SELECT action FROM audit_log WHERE target = '%s'" % target),
                         [["e2e.check"]])
        for sql, command in (
                ("UPDATE audit_log SET action = 'e2e.changed' WHERE target = '%s'" % target, "UPDATE"),
                ("DELETE FROM audit_log WHERE target = '%s'" % target, "DELETE"),
                ("DELETE FROM audit_log", "DELETE"),
                ("UPDATE schema_migrations SET name = name", "UPDATE"),
                ("INSERT INTO schema_migrations (version, name) VALUES (9999, 'x')", "INSERT"),
                ("DROP TABLE IF EXISTS e2e_runtime_made", "DROP"),
                ("CREATE TABLE e2e_runtime_made (x INT)", "CREATE"),
                ("ALTER TABLE offers ADD COLUMN e2e_made INT", "ALTER"),
                ("DROP TABLE sessions", "DROP"),
                # Issue 22, item 13: only what the worker's statements need.
                ("DELETE FROM settings WHERE 1 = 0", "DELETE"),
                ("DELETE FROM countries WHERE 1 = 0", "DELETE"),
                ("INSERT INTO countries (code, name) VALUES ('QQ', 'e2e')", "INSERT"),
                ("DELETE FROM catalog_version WHERE 1 = 0", "DELETE"),
                ("INSERT INTO rollup_progress (name, last_id) VALUES ('e2e', 0)", "INSERT"),
                ("DELETE FROM sync_runs WHERE 1 = 0", "DELETE"),
                ("DELETE FROM network_categories WHERE 1 = 0", "DELETE"),
                ("UPDATE ignored_events SET reason = reason", "UPDATE"),
                ("UPDATE rollup_spans SET n = n", "UPDATE")):
            proc = self.runtime_sql(sql)
            self.assertNotEqual(proc.returncode, 0, sql)
            self.assertIn("%s command denied" % command, proc.stderr.decode(), sql)
        self.assertEqual(H.db("SELECT action FROM audit_log WHERE target = '%s'" % target),
                         [["e2e.check"]])
        n_files = len([n for n in os.listdir(os.path.join(H.ROOT, "sql"))
                       if n[:4].isdigit() and n.endswith(".sql")])
        self.assertEqual(H.db("SELECT COUNT(*) FROM schema_migrations"), [[str(n_files)]])
        # What the worker needs still works: reading and writing its other tables.
        proc = self.runtime_sql("SELECT COUNT(*) FROM schema_migrations; "
                                "UPDATE settings SET value = value WHERE name = 'available'; "
                                "DELETE FROM sessions WHERE 1 = 0")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        # Per-table grants only: nothing database-wide is left.
        grants = self.runtime_sql("SHOW GRANTS").stdout.decode()
        self.assertNotIn("ON `placard`.*", grants)
        self.assertIn("GRANT SELECT, INSERT ON `placard`.`audit_log`", grants)
        self.assertIn("GRANT SELECT ON `placard`.`schema_migrations`", grants)
        self.assertIn("GRANT SELECT, UPDATE ON `placard`.`catalog_version`", grants)
        self.assertIn("GRANT SELECT, INSERT, UPDATE ON `placard`.`settings`", grants)
        self.assertIn("GRANT SELECT, INSERT, DELETE ON `placard`.`ignored_events`", grants)
        self.assertIn("GRANT SELECT, INSERT, DELETE ON `placard`.`rollup_spans`", grants)

    def setup_files(self):
        """A fresh directory for setup's two config files, and the stack's runtime password."""
        directory = tempfile.mkdtemp(prefix="placard-e2e-setup-")
        self.addCleanup(shutil.rmtree, directory, True)
        conf = self.stack.config()
        pwfile = os.path.join(directory, "db-password")
        with open(pwfile, "w") as f:
            f.write(conf["db.password"] + "\n")
        return directory, conf, pwfile

    def setup(self, directory, *args):
        cmd = [os.path.join(H.ROOT, self.stack.build, "placardctl"),
               "--config", os.path.join(directory, "placard.conf"),
               "--admin-config", os.path.join(directory, "placard-admin.conf"), "setup",
               "--db-socket", self.stack.path("mysql.sock"), "--listen",
               "unix:" + os.path.join(directory, "placard.sock"),
               "--config-group", grp.getgrgid(os.getgid()).gr_name] + list(args)
        proc = subprocess.run(cmd, capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
        return proc.returncode, proc.stdout.decode(), proc.stderr.decode()

    def test_setup_single_user_is_idempotent_and_writes_a_group_readable_config(self):
        directory, conf, pwfile = self.setup_files()
        # The one account a host gives: all privileges on its database, no others.
        user, password = "e2e_single_%d" % os.getpid(), "pw-%d-single" % os.getpid()
        H.db("CREATE USER '%s'@'localhost' IDENTIFIED BY '%s'; "
             "GRANT ALL PRIVILEGES ON placard.* TO '%s'@'localhost'" % (user, password, user))
        self.addCleanup(H.db, "DROP USER IF EXISTS '%s'@'localhost'" % user)
        with open(pwfile, "w") as f:
            f.write(password + "\n")
        args = ("--single-user", "--db-user", user, "--db-password-file", pwfile)
        rc, out, err = self.setup(directory, *args)
        self.assertEqual(rc, 0, out + err)
        self.assertIn("config: wrote", out)
        self.assertIn("schema: up to date", out)
        self.assertNotIn("grants:", out)  # one user: nothing granted
        self.assertNotIn(password, out + err)
        path = os.path.join(directory, "placard.conf")
        self.assertEqual(os.stat(path).st_mode & 0o777, 0o640)
        self.assertEqual(os.stat(path).st_gid, os.getgid())
        self.assertEqual(os.stat(os.path.join(directory, "placard-admin.conf")).st_mode & 0o777, 0o600)
        with open(path) as f:
            first = f.read()
        rc, out, err = self.setup(directory, *args)
        self.assertEqual(rc, 0, out + err)
        self.assertIn("exists, kept", out)
        with open(path) as f:
            self.assertEqual(f.read(), first)  # the secrets stay
        rc, out, err = self.ctl("--config", path, "check", config=False)
        self.assertEqual(rc, 0, err)

    def test_setup_exit_codes(self):
        directory, conf, pwfile = self.setup_files()
        with open(pwfile, "w") as f:
            f.write("not-the-password\n")
        rc, _, err = self.setup(directory, "--single-user", "--db-user", conf["db.user"],
                                "--db-password-file", pwfile)
        self.assertEqual(rc, 3, err)
        self.assertIn("cannot connect to the database as %s" % conf["db.user"], err)
        rc, _, err = self.setup(tempfile.mkdtemp(dir=directory), "--single-user")
        self.assertEqual(rc, 2, err)
        self.assertIn("--single-user needs --db-user and --db-password-file", err)
        other = tempfile.mkdtemp(dir=directory)
        rc, _, err = self.setup(other, "--single-user", "--db-user", conf["db.user"],
                                "--db-password-file", pwfile, "--config-group", "no-such-group-x")
        self.assertEqual(rc, 6, err)
        self.assertIn("no group 'no-such-group-x'", err)

    def test_config_get_set_list(self):
        directory = tempfile.mkdtemp(prefix="placard-e2e-config-")
        self.addCleanup(shutil.rmtree, directory, True)
        path = os.path.join(directory, "placard.conf")
        shutil.copy(self.stack.path("placard.conf"), path)
        os.chmod(path, 0o640)
        rc, out, err = self.ctl("--config", path, "config", "get", "threads", config=False)
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.strip(), self.stack.config()["threads"])
        rc, out, err = self.ctl("--config", path, "config", "set", "trusted_proxies",
                                "10.0.0.0/8, ::1", config=False)
        self.assertEqual(rc, 0, err)
        self.assertEqual(os.stat(path).st_mode & 0o777, 0o640)  # owner and mode kept
        rc, out, err = self.ctl("--config", path, "config", "get", "trusted_proxies", config=False)
        self.assertEqual(out.strip(), "10.0.0.0/8, ::1")
        with open(path) as f:
            before = f.read()
        for key, value in (("threads", "0"), ("trusted_proxies", "nonsense"), ("no.key", "1"),
                           ("network.awin.api_base", "http://example.com")):
            rc, out, err = self.ctl("--config", path, "config", "set", key, value, config=False)
            self.assertEqual(rc, 2, (key, out, err))
        with open(path) as f:
            self.assertEqual(f.read(), before)  # nothing half written
        # Several keys in one step, validated together: none is written when one is bad.
        rc, out, err = self.ctl("--config", path, "config", "set", "threads", "3", "listen", "",
                                "no.key", "1", config=False)
        self.assertEqual(rc, 2, err)
        with open(path) as f:
            self.assertEqual(f.read(), before)
        rc, out, err = self.ctl("--config", path, "config", "set", "threads", "3", "listen", "",
                                config=False)
        self.assertEqual(rc, 0, err)
        self.assertIn("threads, listen set in", out)
        rc, out, err = self.ctl("--config", path, "config", "get", "threads", config=False)
        self.assertEqual(out.strip(), "3")
        rc, out, err = self.ctl("--config", path, "config", "set", "threads", "3", "listen",
                                config=False)
        self.assertEqual(rc, 2, err)  # a key without its value
        rc, out, err = self.ctl("--config", path, "config", "list", config=False)
        self.assertEqual(rc, 0, err)
        self.assertIn("token.keys = <secret>", out)
        self.assertNotIn(self.stack.config()["token.keys"], out)
        # The worker's own reading of the file agrees.
        rc, out, err = self.ctl("--config", path, "check", config=False)
        self.assertEqual(rc, 0, err)

    def test_config_set_db_host_list(self):
        # db.host may list several nodes (issue 25); a bad entry is refused naming the key, and
        # nothing is written.
        directory = tempfile.mkdtemp(prefix="placard-e2e-config-")
        self.addCleanup(shutil.rmtree, directory, True)
        path = os.path.join(directory, "placard.conf")
        shutil.copy(self.stack.path("placard.conf"), path)
        rc, out, err = self.ctl("--config", path, "config", "set", "db.host", "g1 , g2:3307,[::1]:3308",
                                config=False)
        self.assertEqual(rc, 0, err)
        rc, out, err = self.ctl("--config", path, "config", "get", "db.host", config=False)
        self.assertEqual(out.strip(), "g1 , g2:3307,[::1]:3308")  # as written (as trusted_proxies)
        with open(path) as f:
            before = f.read()
        for value in ("g1,,g2", "g1:70000", "g1 g2", ",".join("n%d" % i for i in range(9)), "g1,g1"):
            rc, out, err = self.ctl("--config", path, "config", "set", "db.host", value, config=False)
            self.assertEqual(rc, 2, (value, out, err))
            self.assertIn("db.host: ", err)
        with open(path) as f:
            self.assertEqual(f.read(), before)

    def test_grant_is_idempotent(self):
        rc, out, err = self.ctl("grant", "--print")
        self.assertEqual(rc, 0, err)
        self.assertIn("grants already as they should be", out)
        self.assertNotIn("GRANT", out)
        # Never aimed at the account placardctl itself connects as.
        admin = H.placard_tokens.read_config(self.stack.path("placard-admin.conf"))
        rc, _, err = self.ctl("grant", "--user", admin["db.admin_user"])
        self.assertEqual(rc, 2)
        self.assertIn("refusing to restrict it", err)

    def test_account_create_and_approve(self):
        email = "ops-%d@example.com" % os.getpid()
        rc, _, err = self.ctl("account", "create", "--email", email, stdin=b"short\n")
        self.assertEqual(rc, 2)
        self.assertIn("at least 12 characters", err)
        self.assertEqual(H.db("SELECT COUNT(*) FROM accounts WHERE email='%s'" % email), [["0"]])

        rc, out, err = self.ctl("account", "create", "--email", email,
                                stdin=b"a long enough password\n")
        self.assertEqual(rc, 0, err)
        self.assertIn("pending approval", out)
        row = H.db("SELECT status, password_hash FROM accounts WHERE email='%s'" % email)
        self.assertEqual(row[0][0], "pending")
        self.assertTrue(row[0][1].startswith("scrypt$17$8$1$"))
        self.assertNotIn("a long enough password", row[0][1])

        rc, _, err = self.ctl("account", "create", "--email", email, stdin=b"another long password\n")
        self.assertEqual(rc, 1)
        self.assertIn("exists", err)

        account_id = H.db("SELECT id FROM accounts WHERE email='%s'" % email)[0][0]
        rc, out, err = self.ctl("account", "approve", "--email", email)
        self.assertEqual(rc, 0, err)
        self.assertIn("account %s (%s) approved" % (account_id, email), out)
        self.assertEqual(H.db("SELECT status FROM accounts WHERE email='%s'" % email), [["approved"]])
        audit = H.db("SELECT account_id IS NULL, action, before_json, after_json FROM audit_log "
                     "WHERE target='account:%s' ORDER BY id" % account_id)
        self.assertEqual([row[:2] for row in audit], [["1", "account.create"], ["1", "account.approve"]])
        self.assertEqual(audit[0][2], "NULL")
        self.assertEqual(json.loads(audit[0][3]), {"id": account_id, "email": email, "status": "pending"})
        self.assertEqual(json.loads(audit[1][2]), {"id": account_id, "email": email, "status": "pending"})
        self.assertEqual(json.loads(audit[1][3]), {"id": account_id, "email": email, "status": "approved"})

        # Approving again changes nothing and writes no audit row.
        rc, out, err = self.ctl("account", "approve", "--email", email)
        self.assertEqual(rc, 0, err)
        self.assertIn("was already approved", out)
        self.assertEqual(H.db("SELECT COUNT(*) FROM audit_log WHERE target='account:%s'" % account_id),
                         [["2"]])

        rc, _, err = self.ctl("account", "approve", "--email", "nobody-%d@example.com" % os.getpid())
        self.assertEqual(rc, 1)
        self.assertIn("no account with that email", err)

        rc, _, err = self.ctl("account", "create", "--email", "not-an-email", stdin=b"x" * 20)
        self.assertEqual(rc, 2)
        self.assertIn("--email is not an email address", err)

    def test_account_revoke_ends_the_admin_session_at_once(self):
        admin = AdminClient.signed_in()
        email, password, account_id = new_approved_account(admin, "revoke")
        user = AdminClient.signed_in(email, password)
        st, _, doc = user.get("/session")
        self.assertEqual(st, 200, doc)
        self.assertEqual(doc["account"]["id"], account_id)
        self.assertEqual(H.db("SELECT COUNT(*) FROM sessions WHERE account_id=%s" % account_id), [["1"]])
        last_audit = int(H.db("SELECT COALESCE(MAX(id), 0) FROM audit_log")[0][0])

        rc, out, err = self.ctl("account", "revoke", "--email", email)
        self.assertEqual(rc, 0, err)
        self.assertIn("account %s (%s) revoked" % (account_id, email), out)

        st, _, doc = user.get("/session")
        self.assertEqual(st, 401, doc)
        self.assertEqual(doc["error"]["code"], "not_signed_in")
        self.assertEqual(H.db("SELECT status, revoked_at IS NOT NULL FROM accounts WHERE id=%s" % account_id),
                         [["revoked", "1"]])
        self.assertEqual(H.db("SELECT COUNT(*) FROM sessions WHERE account_id=%s" % account_id), [["0"]])
        rows = H.db("SELECT account_id IS NULL, action, before_json, after_json FROM audit_log "
                    "WHERE id > %d ORDER BY id" % last_audit)
        self.assertEqual([row[:2] for row in rows], [["1", "account.revoke"]])
        self.assertEqual(H.db("SELECT target FROM audit_log WHERE id > %d" % last_audit),
                         [["account:%s" % account_id]])
        self.assertEqual(json.loads(rows[0][2]), {"id": account_id, "email": email, "status": "approved"})
        self.assertEqual(json.loads(rows[0][3]), {"id": account_id, "email": email, "status": "revoked"})
        for row in rows:
            self.assertNotIn("scrypt", row[2] + row[3])
        # The first administrator is untouched.
        st, _, _ = admin.get("/session")
        self.assertEqual(st, 200)
        # Signing in again is refused; revoking again changes nothing.
        st, _, doc = AdminClient().sign_in(email, password)
        self.assertEqual((st, doc["error"]["code"]), (403, "account_not_approved"))
        rc, out, err = self.ctl("account", "revoke", "--email", email)
        self.assertEqual(rc, 0, err)
        self.assertIn("was already revoked", out)
        rc, _, err = self.ctl("account", "revoke", "--email", "nobody-%d@example.com" % os.getpid())
        self.assertEqual(rc, 1)
        self.assertIn("no account with that email", err)

    def test_init_writes_private_config_and_never_overwrites_by_accident(self):
        directory = tempfile.mkdtemp(prefix="placard-e2e-init-")
        self.addCleanup(shutil.rmtree, directory, True)
        path = os.path.join(directory, "placard.conf")
        rc, _, err = self.ctl("--config", path, "init", "--listen", "unix:/tmp/x.sock", config=False)
        self.assertEqual(rc, 0, err)
        self.assertEqual(os.stat(path).st_mode & 0o777, 0o600)
        with open(path) as f:
            first = f.read()
        self.assertRegex(first, r"token\.keys = k\d{8}:[A-Za-z0-9_-]{43}\n")
        rc, _, err = self.ctl("--config", path, "init", config=False)
        self.assertEqual(rc, 1)
        self.assertIn("exists", err)
        with open(path) as f:
            self.assertEqual(f.read(), first)
        rc, _, err = self.ctl("--config", path, "init", "--force", config=False)
        self.assertEqual(rc, 0, err)
        with open(path) as f:
            self.assertNotEqual(f.read(), first, "--force must write fresh secrets")

    # -- Issue 15, finding 9: the migration credentials live apart from the worker's config.
    def test_the_workers_config_holds_no_migration_credentials(self):
        conf = self.stack.config()
        self.assertFalse([k for k in conf if k.startswith("db.admin")], conf.keys())
        admin_path = self.stack.path("placard-admin.conf")
        self.assertEqual(os.stat(admin_path).st_mode & 0o777, 0o600)
        admin = H.placard_tokens.read_config(admin_path)
        self.assertEqual(sorted(admin), ["db.admin_password", "db.admin_user"])
        self.assertTrue(admin["db.admin_user"])
        self.assertNotEqual(admin["db.admin_user"], conf["db.user"])
        # placardctl finds them beside the config, and still migrates with them.
        rc, out, err = self.ctl("migrate")
        self.assertEqual(rc, 0, err)
        self.assertNotIn("warning", err)

    def test_the_worker_refuses_a_config_with_migration_credentials(self):
        directory = tempfile.mkdtemp(prefix="placard-e2e-admincreds-")
        self.addCleanup(shutil.rmtree, directory, True)
        path = os.path.join(directory, "placard.conf")
        with open(self.stack.path("placard.conf")) as f:
            text = f.read()
        text = "\n".join(line for line in text.splitlines() if not line.startswith("listen"))
        with open(path, "w") as f:
            f.write(text + "\nlisten = unix:%s/w.sock\ndb.admin_user = root\n" % directory)
        proc = subprocess.run([os.path.join(H.ROOT, self.stack.build, "placard.fcgi"), "--config",
                               path, "--threads", "1"], stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=30,
                              env={k: v for k, v in os.environ.items() if not k.startswith("PLACARD_")})
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn(b"migration credentials", proc.stderr)
        self.assertFalse(os.path.exists(os.path.join(directory, "w.sock")))

    def test_setup_moves_the_migration_credentials_of_an_old_config_to_their_own_file(self):
        # A config from before placard-admin.conf (stack.sh var dirs of that time included).
        directory = tempfile.mkdtemp(prefix="placard-e2e-old-")
        self.addCleanup(shutil.rmtree, directory, True)
        path, admin = os.path.join(directory, "placard.conf"), os.path.join(directory, "placard-admin.conf")
        with open(self.stack.path("placard.conf")) as f:
            worker = f.read()
        with open(path, "w") as f:
            f.write(worker + "db.admin_user = root\ndb.admin_password =\n")
        os.chmod(path, 0o640)
        cmd = [os.path.join(H.ROOT, self.stack.build, "placardctl"), "--config", path,
               "--admin-config", admin, "setup"]
        proc = subprocess.run(cmd, capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
        out = proc.stdout.decode()
        self.assertEqual(proc.returncode, 0, out + proc.stderr.decode())
        self.assertIn("moved the migration credentials from %s to %s" % (path, admin), out)
        with open(path) as f:
            self.assertEqual(f.read(), worker)  # every other line as it was
        self.assertEqual(os.stat(path).st_mode & 0o777, 0o640)
        self.assertEqual(os.stat(admin).st_mode & 0o777, 0o600)
        with open(admin) as f:
            self.assertIn("db.admin_user = root\n", f.read())
        proc = subprocess.run(cmd, capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
        self.assertEqual(proc.returncode, 0, proc.stderr.decode())
        self.assertNotIn(b"migration credentials", proc.stdout)
        # Both files there and the lines back in the worker's: they leave it, the admin file stays.
        with open(path, "a") as f:
            f.write("db.admin_user = someone_else\n")
        with open(admin) as f:
            kept = f.read()
        proc = subprocess.run(cmd, capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
        self.assertEqual(proc.returncode, 0, proc.stderr.decode())
        self.assertIn(b"removed the migration credentials", proc.stdout)
        with open(path) as f:
            self.assertEqual(f.read(), worker)
        with open(admin) as f:
            self.assertEqual(f.read(), kept)

    def init_dir(self):
        directory = tempfile.mkdtemp(prefix="placard-e2e-init-")
        self.addCleanup(shutil.rmtree, directory, True)
        return directory, os.path.join(directory, "placard.conf"), os.path.join(directory, "placard-admin.conf")

    def test_init_writes_the_migration_credentials_to_their_own_file(self):
        directory, path, admin_path = self.init_dir()
        pw = os.path.join(directory, "admin-pw")
        with open(pw, "w") as f:
            f.write("s3cret-admin-pw\n")
        rc, out, err = self.ctl("--config", path, "init", "--db-user", "placard_app",
                                "--db-admin-user", "placard_admin", "--db-admin-password-file", pw,
                                config=False)
        self.assertEqual(rc, 0, err)
        with open(path) as f:
            worker = f.read()
        self.assertNotIn("db.admin", worker)
        self.assertNotIn("s3cret-admin-pw", worker)
        self.assertEqual(os.stat(admin_path).st_mode & 0o777, 0o600)
        self.assertEqual(H.placard_tokens.read_config(admin_path),
                         {"db.admin_user": "placard_admin", "db.admin_password": "s3cret-admin-pw"})

    # -- Issue 15, finding 11: init creates its files 0600, never through a symlink, atomically.
    def test_init_force_replaces_a_symlink_without_following_it(self):
        directory, path, admin_path = self.init_dir()
        victim = os.path.join(directory, "victim")
        with open(victim, "w") as f:
            f.write("precious\n")
        os.chmod(victim, 0o644)
        os.symlink(victim, path)
        os.symlink(victim, admin_path)
        rc, _, err = self.ctl("--config", path, "init", config=False)
        self.assertEqual(rc, 1)
        self.assertIn("exists", err)
        rc, _, err = self.ctl("--config", path, "init", "--force", config=False)
        self.assertEqual(rc, 0, err)
        with open(victim) as f:
            self.assertEqual(f.read(), "precious\n")
        self.assertEqual(os.stat(victim).st_mode & 0o777, 0o644)
        for p in (path, admin_path):
            self.assertFalse(os.path.islink(p), p)
            self.assertEqual(os.lstat(p).st_mode & 0o777, 0o600, p)
        self.assertEqual(sorted(os.listdir(directory)), ["placard-admin.conf", "placard.conf", "victim"])

    def test_init_files_are_private_from_creation_and_replaced_in_one_step(self):
        directory, path, _ = self.init_dir()
        with open(path, "w") as f:
            f.write("old = 1\n")
        os.chmod(path, 0o644)
        old_inode = os.stat(path).st_ino
        reader = open(path)
        self.addCleanup(reader.close)
        trace = os.path.join(directory, "strace.out")
        cmd = ["strace", "-f", "-qq", "-e", "trace=open,openat,creat,rename,renameat,renameat2,chmod,fchmod",
               "-o", trace, os.path.join(H.ROOT, self.stack.build, "placardctl"), "--config", path,
               "init", "--force"]
        # LeakSanitizer stops the process's threads the way a debugger does, which it cannot do
        # under strace: a sanitizer build runs this one command with leak checks off.
        env = dict(os.environ)
        env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS"), "detect_leaks=0"]))
        proc = subprocess.run(cmd, capture_output=True, timeout=60, env=env,
                              preexec_fn=lambda: os.umask(0))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(trace) as f:
            calls = [line for line in f.read().splitlines() if directory in line]
        created = [c for c in calls if "O_CREAT" in c]
        self.assertTrue(created, calls)
        for c in created:
            # New files only (never an existing path or a symlink), mode 0600 from the start.
            self.assertIn("O_EXCL", c)
            self.assertIn("0600", c)
            self.assertNotRegex(c, r'"%s"' % path, "opened the target itself: %s" % c)
        renames = [c for c in calls if c.split("(")[0].split()[-1].startswith("rename")]
        self.assertTrue(any('"%s"' % path in c for c in renames), calls)
        self.assertNotEqual(os.stat(path).st_ino, old_inode)
        self.assertEqual(os.stat(path).st_mode & 0o777, 0o600)
        self.assertEqual(reader.read(), "old = 1\n")  # the old file was never truncated
        self.assertEqual(sorted(os.listdir(directory)),
                         ["placard-admin.conf", "placard.conf", "strace.out"])

    def test_catalog_bump_increments_the_version(self):
        before = int(H.db("SELECT version FROM catalog_version WHERE id=1")[0][0])
        rc, _, err = self.ctl("catalog", "bump")
        self.assertEqual(rc, 0, err)
        self.assertEqual(int(H.db("SELECT version FROM catalog_version WHERE id=1")[0][0]), before + 1)
