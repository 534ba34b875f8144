"""The BENCH_COMPARE part of the bench report: each step of the working tree against the same
step of another commit, measured in the same run with the two alternating (scripts/bench/
measure.sh writes compare.tsv: step, req/s here, req/s there, ratio, app CPU us/req here and
there, MariaDB CPU us/req here and there: each side has its own database)."""

# Steps on which the working tree must be at least as fast as the commit it is compared with
# (issue 24: no query step slower than before the regression).
AT_LEAST_AS_FAST = ("query-small", "query-scale-small", "query-big", "query-scale-big")


def read(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                name, *numbers = line.rstrip("\n").split("\t")
                rows.append((name, *(float(n) for n in numbers)))
    return rows


def table(path, label):
    """(head, rows, checks) for the report; checks as in report.py: (what, value, target, ok)."""
    head = ["step", "req/s here", "req/s %s" % label, "ratio", "app us/req here", "app us/req %s" % label,
            "db us/req here", "db us/req %s" % label]
    rows, checks = [], []
    for name, here, there, ratio, app_here, app_there, db_here, db_there in read(path):
        rows.append([name, "{:,.0f}".format(here), "{:,.0f}".format(there), "%.3f" % ratio,
                     "%.0f" % app_here, "%.0f" % app_there, "%.0f" % db_here, "%.0f" % db_there])
        if name in AT_LEAST_AS_FAST:
            checks.append(("%s: req/s vs %s, same run" % (name, label), "%.3f x" % ratio, ">= 1.00 x",
                           ratio >= 1.0))
    return head, rows, checks
