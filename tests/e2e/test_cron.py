"""Background work from cron (shared hosting: mod_fcgid reaps idle workers between visits): with
`background_jobs = cron` the workers count nothing themselves, and `placardctl rollup`,
`placardctl retention run` and `placardctl sync --due`, run with no worker process alive, do the
work; the admin API's GET /background (and the dashboard) says when each last ran and by whom."""

import datetime
import json
import os
import subprocess
import time

try:
    from . import harness as H
    from .admin_client import AdminClient
    from .test_admin_stats import LIMITS_OFF, by_key, day_text, stats_path, today
except ImportError:  # run as a script from tests/e2e
    import harness as H
    from admin_client import AdminClient
    from test_admin_stats import LIMITS_OFF, by_key, day_text, stats_path, today


def pending_raw_events():
    """Raw impressions and clicks above the rollup watermark (not counted yet)."""
    rows = H.db("SELECT (SELECT COUNT(*) FROM impressions WHERE id > "
                "(SELECT last_id FROM rollup_progress WHERE name = 'impressions')), "
                "(SELECT COUNT(*) FROM clicks WHERE id > "
                "(SELECT last_id FROM rollup_progress WHERE name = 'clicks'))")
    return int(rows[0][0]), int(rows[0][1])


class CronBackgroundTests(H.StackTestCase):
    """A stack of its own whose config says background_jobs = cron (StackTestCase restores the
    run's shared stack afterwards)."""

    CONF = {"background_jobs": "cron"}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.admin = AdminClient.signed_in(stack=cls.stack)
        cls.admin.ok("PATCH", "/settings", LIMITS_OFF)

    def ctl(self, *args):
        cmd = [os.path.join(H.ROOT, self.stack.build, "placardctl"), "--config",
               self.stack.path("placard.conf")]
        env = {k: v for k, v in os.environ.items() if k != "PLACARD_CONFIG"}
        proc = subprocess.run(cmd + list(args), capture_output=True, timeout=300, env=env)
        return proc.returncode, proc.stdout.decode(), proc.stderr.decode()

    def background(self):
        return {j["job"]: j for j in self.admin.ok("GET", "/background")["jobs"]}

    def stop_workers(self):
        """Stops the worker processes only (the supervisor and its children), as mod_fcgid's
        reaping does; the database and the web server stay."""
        pid = int(open(self.stack.path("run", "placard.pid")).read().strip())
        os.kill(pid, 15)
        self.assertTrue(H.wait_until(lambda: not os.path.exists("/proc/%d" % pid), timeout=20),
                        "the worker supervisor did not stop")
        out = subprocess.run(["pgrep", "-f", self.stack.path("placard.conf")],
                             capture_output=True).stdout.decode().split()
        self.assertEqual(out, [], "worker processes still alive")

    def test_statistics_from_cron_equal_the_events_sent(self):
        d = day_text(today())
        before = by_key(self.admin.ok("GET", stats_path(d, d, "offer")))
        # A reused stack's earlier workers may have recorded a run before this stack's start;
        # from here on only placardctl runs anything.
        H.db("DELETE FROM background_runs")
        self.assertEqual({j: r["lastRunAt"] for j, r in self.background().items()},
                         {"rollup": None, "retention": None, "sync": None})
        offers = H.query_offers(limit=6)
        self.assertGreaterEqual(len(offers), 3)
        sent = {}
        for o in offers[:3]:
            for _ in range(2):  # a fresh token each time: each counts
                fresh = next(x for x in H.query_offers(limit=6) if x["id"] == o["id"])
                st, _, body = H.impression(fresh["impressionToken"])
                self.assertEqual((st, json.loads(body)["status"]), (200, "recorded"))
                sent[o["id"]] = sent.get(o["id"], 0) + 1
        clicked = next(o for o in offers if "clickUrl" in o)
        st, _, _ = H.http("GET", clicked["clickUrl"])
        self.assertEqual(st, 302)
        # The workers are alive but count nothing: the cron line does.
        time.sleep(2.5)
        self.assertEqual(pending_raw_events(), (6, 1))
        self.stop_workers()
        rc, out, err = self.ctl("rollup")
        self.assertEqual(rc, 0, out + err)
        self.assertIn("counted 6 impressions, 1 clicks", out)
        self.assertEqual(pending_raw_events(), (0, 0))
        rc, out, err = self.ctl("retention", "run")
        self.assertEqual(rc, 0, out + err)
        rc, out, err = self.ctl("sync", "--due")
        self.assertEqual(rc, 0, out + err)
        self.assertIn("scheduled syncs are off", out)
        # A second rollup finds nothing new and is still safe to run.
        rc, out, err = self.ctl("rollup")
        self.assertEqual((rc, out.strip()), (0, "counted 0 impressions, 0 clicks, 0 ignored events"))
        self.stack.restart()
        after = by_key(self.admin.ok("GET", stats_path(d, d, "offer")))
        expected = {k: (n, 1 if k == clicked["id"] else 0) for k, n in sent.items()}
        if clicked["id"] not in expected:
            expected[clicked["id"]] = (0, 1)
        got = {k: (after[k][0] - before.get(k, (0, 0))[0], after[k][1] - before.get(k, (0, 0))[1])
               for k in after if after[k] != before.get(k)}
        self.assertEqual(got, expected)
        runs = self.background()
        self.assertEqual(runs["rollup"]["runner"], "placardctl")
        self.assertTrue(runs["rollup"]["ok"])
        self.assertEqual(runs["retention"]["runner"], "placardctl")
        self.assertIsNone(runs["sync"]["lastRunAt"])  # the schedule is off: nothing checked
        # With a schedule, --due checks it (no network has credentials: none is due).
        self.admin.ok("PATCH", "/settings", {"networkSyncIntervalMinutes": 60})
        rc, out, err = self.ctl("sync", "--due")
        self.assertEqual((rc, out.strip()), (0, "0 syncs ran"), err)
        runs = self.background()
        self.assertEqual((runs["sync"]["runner"], runs["sync"]["ok"]), ("placardctl", True))

    def test_cron_commands_refuse_bad_usage(self):
        rc, _, err = self.ctl("rollup", "--max-seconds", "0")
        self.assertEqual(rc, 2)
        self.assertIn("--max-seconds", err)
        rc, _, err = self.ctl("sync", "--due", "--network", "awin")
        self.assertEqual(rc, 2)
        self.assertIn("exclude", err)

    def test_background_needs_a_session(self):
        st, _, body = H.http("GET", "/admin/api/v1/background")
        self.assertEqual(st, 401)
        self.assertEqual(json.loads(body)["error"]["code"], "not_signed_in")


class WorkerBackgroundTests(H.E2ETestCase):
    """On the run's shared stack (background_jobs = workers, the default): the workers' own
    rollup step reports its runs."""

    def test_the_dashboard_sees_the_workers_rollups(self):
        admin = AdminClient.signed_in()

        def rollup():
            return {j["job"]: j for j in admin.ok("GET", "/background")["jobs"]}["rollup"]

        self.assertTrue(H.wait_until(lambda: rollup()["lastRunAt"] is not None, timeout=10),
                        "no rollup run recorded by the workers within 10 s")
        run = rollup()
        self.assertEqual((run["runner"], run["ok"]), ("worker", True))
        ran_at = datetime.datetime.strptime(run["lastRunAt"], "%Y-%m-%dT%H:%M:%SZ")
        age = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None) - ran_at
        self.assertLess(abs(age.total_seconds()), 120)


if __name__ == "__main__":
    import unittest
    unittest.main()
