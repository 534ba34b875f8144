"""The click journal (issue 25, docs/operations.md "Click journal"): while MariaDB is down, a click
on an offer that the catalog snapshot shows enabled and valid still redirects, exactly as usual,
and is kept in the host's journal (VAR_DIR/journal here); a disabled or expired offer is refused
as the contract says; when the database returns, every kept click is written exactly once (a
token clicked twice, or already counted before the outage, is still one row), and the journal's
files are removed. A worker started with a non-empty journal (the previous one stopped while the
database was down) replays it once; a torn last record is skipped and reported."""

import glob
import os
import subprocess
import time

try:
    from . import harness as H
    from .test_admin_stats import LIMITS_OFF
except ImportError:  # run as a script from tests/e2e
    import harness as H
    from test_admin_stats import LIMITS_OFF

VALID = 1300  # manual offer, https://merchant.example/landing?a=1&b=2
ADMITAD = 1301  # the click id goes into subid=
EXPIRED = 1306  # valid_until an hour ago
DISABLED = 1310  # disabled by the test before the outage


def click(token, offer, method="GET"):
    return H.http(method, "/r/click/%d?t=%s" % (offer, token))


def nonce_hex(token):
    return H.decode_token(token)["nonce"].hex()


def journal_files():
    return sorted(glob.glob(H.var_path("journal", "clicks-*.jnl")))


def rows(table, nonce, extra=""):
    return int(H.db("SELECT COUNT(*) FROM %s WHERE token_nonce = UNHEX('%s')%s"
                    % (table, nonce, extra))[0][0])


def ctl(*args):
    stack = H.current()
    proc = subprocess.run([os.path.join(H.ROOT, stack.build, "placardctl"), "--config",
                           stack.path("placard.conf")] + list(args), capture_output=True, timeout=60)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


class ClickJournalTests(H.StackTestCase):
    """A stack of its own (the database is stopped and the worker restarted)."""

    @classmethod
    def setUpClass(cls):
        cls.previous = H._current
        try:
            super().setUpClass()
        except BaseException:
            H.set_stack(cls.previous)
            raise
        for name, value in LIMITS_OFF.items():
            H.set_setting(name, str(value), do_bump=False)
        H.db("UPDATE offers SET enabled = 0 WHERE id = %d" % DISABLED)
        H.bump()
        H.settle()

    @classmethod
    def tearDownClass(cls):
        try:
            super().tearDownClass()
        finally:
            H.set_stack(cls.previous)

    def db_down(self):
        self.stack.script("db-stop", timeout=60)

    def db_up(self):
        self.stack.script("db-start", timeout=90)

    def test_clicks_redirect_while_the_database_is_down_and_count_once_after(self):
        before = H.mint_token(H.CLICK, VALID)  # counted before the outage
        st, h, _ = click(before, VALID)
        self.assertEqual(st, 302)
        normal_location = h.get("location")
        tokens = [H.mint_token(H.CLICK, VALID) for _ in range(5)]
        admitad = H.mint_token(H.CLICK, ADMITAD)
        head = H.mint_token(H.CLICK, VALID)
        twice = tokens[0]
        self.db_down()
        try:
            answers = [click(t, VALID) for t in tokens + [twice, before]]
            for st, h, body in answers:
                self.assertEqual(st, 302, body[:300])
                self.assertEqual(h.get("cache-control"), "no-store")
                self.assertEqual(h.get("referrer-policy"), "no-referrer")
                # The same target as a click with the database up.
                self.assertEqual(h.get("location"), normal_location)
            st, h, _ = click(admitad, ADMITAD)
            self.assertEqual(st, 302)
            self.assertTrue(h.get("location", "").endswith("subid=" + nonce_hex(admitad)),
                            h.get("location"))
            st, h, _ = click(head, VALID, method="HEAD")  # answered, kept as an ignored click
            self.assertEqual(st, 302)
            # Refusals stay as the contract orders them, judged by the snapshot.
            for offer in (EXPIRED, DISABLED):
                with self.subTest(offer=offer):
                    st, _, body = click(H.mint_token(H.CLICK, offer), offer)
                    self.assertEqual(st, 410, body[:300])
                    self.assertIn(b"offer_unavailable", body)
            st, _, _ = click(H.mint_token(H.CLICK, 999999), 999999)
            self.assertEqual(st, 404)
            self.assertTrue(journal_files(), "no journal file under %s" % H.var_path("journal"))
            self.assertGreater(sum(os.path.getsize(f) for f in journal_files()), 0)
        finally:
            self.db_up()
        expected = [nonce_hex(t) for t in tokens + [admitad]]
        written = H.wait_until(lambda: all(rows("clicks", n) == 1 for n in expected), timeout=20)
        self.assertTrue(written, "kept clicks not written within 20 s of the database's return")
        self.assertTrue(H.wait_until(lambda: not journal_files(), timeout=10),
                        "journal files left after the replay: %s" % journal_files())
        time.sleep(1.5)  # another replay pass, had anything been left to write twice
        for n in expected + [nonce_hex(before)]:
            self.assertEqual(rows("clicks", n), 1, n)
        self.assertEqual(rows("ignored_events", nonce_hex(head), " AND kind = 'click' AND reason = 'head'"), 1)
        self.assertEqual(rows("clicks", nonce_hex(head)), 0)
        log = open(H.var_path("log", "placard.log"), errors="replace").read()
        self.assertIn("click journal: replayed", log)
        # The statistics count them once too (the rollup step counts rows above its watermark).
        def sums():
            return (H.db("SELECT COALESCE(SUM(clicks), 0), COALESCE(SUM(ignored_clicks), 0) "
                         "FROM stats_daily WHERE dim = 'offer' AND item = '%d'" % VALID)[0],
                    H.db("SELECT COUNT(*) - COUNT(ignored), COUNT(ignored) + (SELECT COUNT(*) FROM "
                         "ignored_events WHERE kind = 'click' AND offer_id = %d) FROM clicks "
                         "WHERE offer_id = %d" % (VALID, VALID))[0])
        counted = H.wait_until(lambda: sums()[0] == sums()[1], timeout=20)
        self.assertTrue(counted, "stats_daily (clicks, ignored) %s, raw rows (counted, ignored) %s"
                        % sums())

    def test_a_worker_started_with_a_journal_replays_it_once(self):
        tokens = [H.mint_token(H.CLICK, VALID) for _ in range(3)]
        self.db_down()
        try:
            for t in tokens:
                self.assertEqual(click(t, VALID)[0], 302)
            files = journal_files()
            self.assertTrue(files)
            rc, out, err = ctl("journal", "status")
            self.assertEqual(rc, 0, err)
            self.assertIn("3 clicks waiting", out)
            self.assertIn("held by a running worker", out)
            # A record torn by a crash at the end of one file: skipped and reported, not fatal.
            with open(files[0], "ab") as f:
                f.write(b"PCJ1\x40\x00\x00\x00torn")
            self.stack.script("stop", timeout=90)  # the worker (and the stopped database's pid)
            self.assertTrue(journal_files(), "the worker's journal must outlive it")
        finally:
            self.stack.script("start", timeout=180)  # MariaDB and a new worker
        nonces = [nonce_hex(t) for t in tokens]
        self.assertTrue(H.wait_until(lambda: all(rows("clicks", n) == 1 for n in nonces), timeout=20),
                        "the journal was not replayed by the new worker")
        self.assertTrue(H.wait_until(lambda: not journal_files(), timeout=10), journal_files())
        time.sleep(1.5)
        for n in nonces:
            self.assertEqual(rows("clicks", n), 1)
        log = open(H.var_path("log", "placard.log"), errors="replace").read()
        self.assertIn("unreadable bytes", log)

    def test_placardctl_journal_replay_writes_what_no_worker_holds_once(self):
        tokens = [H.mint_token(H.CLICK, VALID) for _ in range(2)]
        self.db_down()
        try:
            for t in tokens:
                self.assertEqual(click(t, VALID)[0], 302)
            self.stack.script("stop", timeout=90)  # no worker left to replay it
            rc, out, _ = ctl("journal", "status")
            self.assertIn("2 clicks waiting", out)
            self.assertIn("no process holds it", out)
            self.db_up()
            rc, out, err = ctl("journal", "replay")
            self.assertEqual(rc, 0, err)
            self.assertIn("replayed 2 clicks", out)
            rc, out, err = ctl("journal", "replay")
            self.assertEqual((rc, "replayed 0 clicks" in out), (0, True), out + err)
            self.assertFalse(journal_files())
            for t in tokens:
                self.assertEqual(rows("clicks", nonce_hex(t)), 1)
        finally:
            self.stack.script("start", timeout=180)
