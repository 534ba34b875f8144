"""What `make chaos`, `make soak` and `make scan` share: a private stack per web server (the e2e
harness's, with the suite's fixtures), the pass/fail table, the summary file, process figures."""

import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "e2e"))
import harness as H  # noqa: E402
import proc_info  # noqa: E402 (tools/, on the path through the harness)

ROOT = H.ROOT


def log(msg):
    sys.stderr.write("[%s] %s\n" % (time.strftime("%H:%M:%S"), msg))
    sys.stderr.flush()


class Checks:
    """Named checks with a verdict and the figures behind it; printed as one table."""

    def __init__(self, title):
        self.title = title
        self.rows = []  # (group, name, ok, detail)

    def add(self, group, name, ok, detail=""):
        self.rows.append((group, name, bool(ok), detail))
        log("%s %s / %s: %s" % ("PASS" if ok else "FAIL", group, name, detail))
        return ok

    @property
    def passed(self):
        return sum(1 for r in self.rows if r[2])

    @property
    def failed(self):
        return sum(1 for r in self.rows if not r[2])

    def table(self):
        w_group = max([len(r[0]) for r in self.rows] + [5])
        w_name = max([len(r[1]) for r in self.rows] + [5])
        lines = ["==== %s" % self.title,
                 "%-*s  %-*s  %-4s  %s" % (w_group, "group", w_name, "check", "", "figures"),
                 "%s  %s  %s  %s" % ("-" * w_group, "-" * w_name, "-" * 4, "-" * 40)]
        for group, name, ok, detail in self.rows:
            lines.append("%-*s  %-*s  %-4s  %s" % (w_group, group, w_name, name,
                                                  "PASS" if ok else "FAIL", detail))
        lines.append("%d passed, %d failed" % (self.passed, self.failed))
        return "\n".join(lines)

    def finish(self, summary_path, extra=None):
        print(self.table())
        sys.stdout.flush()
        if summary_path:
            doc = {"passed": self.passed, "failed": self.failed,
                   "checks": [{"group": g, "check": n, "ok": ok, "detail": d}
                              for g, n, ok, d in self.rows]}
            doc.update(extra or {})
            os.makedirs(os.path.dirname(os.path.abspath(summary_path)), exist_ok=True)
            with open(summary_path, "w") as f:
                json.dump(doc, f, indent=1)
        return 0 if self.failed == 0 else 1


def start_stack(server, build, workers=2, tls=False, conf=None):
    """A fresh private stack with the e2e fixtures (harness.Stack: VAR_DIR under /tmp, free port;
    `tls`: Apache serves HTTPS with a certificate made for the stack; `conf`: placard.conf keys
    beside the harness's)."""
    os.environ["WORKERS"] = str(workers)
    stack = H.Stack(server, build, tls=tls, conf=conf)
    H.set_stack(stack)
    stack.start()
    if not H.load_fixtures(stack):
        raise H.StackError("the fixtures did not become visible through the API")
    return stack


def read_pid(stack, name):
    try:
        with open(stack.path("run", name)) as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def worker_processes(stack):
    """PIDs of placard.fcgi's worker processes: the supervisor's children (WORKERS > 0)."""
    master = read_pid(stack, "placard.pid")
    if master is None:
        return []
    try:
        with open("/proc/%d/task/%d/children" % (master, master)) as f:
            return sorted(int(p) for p in f.read().split())
    except OSError:
        return []


rss_kb = proc_info.rss_kb


def open_fds(pid):
    try:
        return len(os.listdir("/proc/%d/fd" % pid))
    except OSError:
        return None


def percentile(values, p):
    if not values:
        return 0.0
    values = sorted(values)
    k = min(len(values) - 1, max(0, int(round(p / 100.0 * (len(values) - 1)))))
    return values[k]
