"""The event steps against the durable baseline of the same run (step `bare-durable`: the bare
libfcgi program answering the impression step's POSTs only once each body is in a file,
fdatasync'd in groups). Not a verdict: issue 24's targets are against the bare program's 1 KiB
answer; this table says how much of the event steps' distance to it is the durability itself
(docs/performance.md, "The durable baseline")."""

from report_verdicts import fmt_int, fmt_ms

DURABLE = "bare-durable"
EVENT_STEPS = ("impression-fresh", "impression-fresh-clients", "impression-repeat", "click", "click-clients",
               "impression-scale")


def durable_table(steps):
    """(head, rows, summary line) or ([], [], "") when the durable baseline did not run."""
    by = {s["name"]: s for s in steps}
    base = by.get(DURABLE)
    if base is None or base["rps"] <= 0 or base["p99_ms"] <= 0:
        return [], [], ""
    if base["recorded"] < base["requests"]:
        # Answers without "recorded" were not the durable program's: no baseline to set beside.
        return [], [], ("durable baseline INVALID: %s of its %s answers said recorded (was /bench/durable "
                        "mapped to the program with --journal?)" % (fmt_int(base["recorded"]), fmt_int(base["requests"])))
    head = ["step", "req/s", "x bare", "x durable", "p99 ms", "p99 x durable"]
    rows = []
    for name in EVENT_STEPS:
        s = by.get(name)
        if s is None:
            continue
        rows.append([name, fmt_int(s["rps"]), "%.2f" % s["ratio"], "%.2f" % (s["rps"] / base["rps"]),
                     fmt_ms(s["p99_ms"]), "%.2f" % (s["p99_ms"] / base["p99_ms"])])
    summary = ("durable baseline: %s req/s (%.2f x bare), p99 %s ms (%.2f x bare's); %s answers said recorded" % (
        fmt_int(base["rps"]), base["ratio"], fmt_ms(base["p99_ms"]), base["p99_ratio"], fmt_int(base["recorded"])))
    return head, rows, summary
