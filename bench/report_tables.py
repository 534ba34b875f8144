"""The tables of the `make bench` report (head, rows), as Markdown or as text: the steps, the
catalog snapshot and worker memory, CPU per request, the statistics step."""

from report_inputs import stats_of
from report_verdicts import BARE, BARE_PROGRAM, fmt_int, fmt_ms


def stats_table(meta):
    d = stats_of(meta)
    head = ["groupBy", "first request ms (nothing cached)", "requests", "p50 ms", "p99 ms", "max ms"]
    rows = [[g, fmt_ms(v["first_ms"]), fmt_int(v["requests"]), fmt_ms(v["p50_ms"]), fmt_ms(v["p99_ms"]),
             fmt_ms(v["max_ms"])] for g, v in sorted(d.get("groups", {}).items())]
    return d, head, rows


def step_notes(s):
    notes = []
    if s["offers_per_answer"] is not None:
        notes.append("%.1f offers/answer" % s["offers_per_answer"])
    if s["name"].startswith("impression") or s["name"] == "bare-durable":
        notes.append("%s recorded, %s duplicate" % (fmt_int(s["recorded"]), fmt_int(s["duplicate"])))
    if s["reused"] and s["name"].startswith(("impression-fresh", "click")):
        notes.append("%s requests re-sent a line (ran out)" % fmt_int(s["reused"]))
    if s["unanswered"]:
        notes.append("%s requests without an answer" % fmt_int(s["unanswered"]))
    if s["read_errors"]:
        notes.append("%s connections closed by the server (wrk read errors)" % fmt_int(s["read_errors"]))
    odd = {k: v for k, v in s["status"].items() if k < 200 or k >= 400}
    if odd:
        notes.append("statuses " + ", ".join("%d: %s" % (k, fmt_int(v)) for k, v in sorted(odd.items())))
    return "; ".join(notes)


def main_table(steps):
    head = ["step", "what", "req/s", "p50 ms", "p99 ms", "errors", "x bare", "target", "result", "B/answer", "notes"]
    rows = []
    for s in steps:
        rows.append([
            s["name"], s["label"], fmt_int(s["rps"]), fmt_ms(s["p50_ms"]), fmt_ms(s["p99_ms"]),
            fmt_int(s["errors"]), "%.2f" % s["ratio"],
            ">= %.2f" % s["target"] if s["target"] is not None else "",
            s["verdict"], fmt_int(s["bytes_per_answer"]), step_notes(s),
        ])
    return head, rows


def catalog_table(meta):
    head = ["catalog", "offers", "live in snapshot", "load (SQL) ms", "rebuild ms", "worker VmRSS MiB"]
    rows = []
    for label in ("small", "big"):
        if not meta.get("catalog_%s_offers" % label):
            continue
        rss = "%.1f" % (int(meta["catalog_%s_rss_kb" % label]) / 1024)
        rebuild = meta.get("catalog_%s_rebuild_ms" % label, "")
        if label == "big":
            extra = []
            if meta.get("catalog_big_rss_after_load_kb"):
                extra.append("%.1f after the load steps" % (int(meta["catalog_big_rss_after_load_kb"]) / 1024))
            if meta.get("catalog_big_rss_after_rebuild2_kb"):
                extra.append("%.1f after a second rebuild" % (int(meta["catalog_big_rss_after_rebuild2_kb"]) / 1024))
            if meta.get("catalog_big_hwm_kb"):
                extra.append("peak (VmHWM) %.1f" % (int(meta["catalog_big_hwm_kb"]) / 1024))
            if extra:
                rss += " (" + "; ".join(extra) + ")"
            if meta.get("catalog_big_rebuild2_ms"):
                rebuild += " (again: %s)" % meta["catalog_big_rebuild2_ms"]
        rows.append([label, fmt_int(int(meta["catalog_%s_offers" % label])), fmt_int(int(meta["catalog_%s_live" % label])),
                     meta.get("catalog_%s_load_ms" % label, ""), rebuild, rss])
    return head, rows


def cpu_table(steps, meta):
    """CPU microseconds per request for each part of the stack, and how busy the machine was."""
    ncpu = int(meta.get("nproc", "0") or 0) or 1
    head = ["step", "app us/req", "web us/req", "db us/req", "wrk us/req", "all us/req", "x bare (CPU)",
            "machine busy", "other work (cores)", "load avg"]
    rows = []
    # The bare baseline's CPU per request (mean of both runs), for a CPU-based ratio: when the
    # cores are saturated, req/s is about cores / CPU per request, and this ratio moves less with
    # other people's load than the req/s ratio does. Informational; the verdicts use req/s.
    bare_all = []
    for s in steps:
        c = s.get("cpu_ticks")
        if c and s["requests"] and s["name"] in BARE:
            bare_all.append((c.get("bare", 0) + c["echo"] + c["web"] + c["db"] + c["wrk"] + c["worker"]) /
                            float(c["hz"]) * 1e6 / s["requests"])
    bare_cpu = sum(bare_all) / len(bare_all) if bare_all else 0.0
    for s in steps:
        c = s.get("cpu_ticks")
        if not c or not s["requests"]:
            continue
        hz = float(c["hz"])
        app = (c.get("bare", 0) if s["name"] in BARE_PROGRAM else c["echo"] if s["name"].startswith("echo")
               else 0 if s["name"] == "static" else c["worker"])
        per = lambda ticks: ticks / hz * 1e6 / s["requests"]  # noqa: E731
        ours = c.get("bare", 0) + c["worker"] + c["echo"] + c["web"] + c["db"] + c["wrk"]
        other = max(0.0, (c["busy"] - ours) / hz / s["seconds"])
        s["cpu_us"] = {"app": per(app), "web": per(c["web"]), "db": per(c["db"]), "wrk": per(c["wrk"]),
                       "all": per(ours), "busy": c["busy"] / hz / s["seconds"] / ncpu, "other_cores": other}
        rows.append([s["name"], "%.0f" % per(app) if s["name"] != "static" else "-", "%.0f" % per(c["web"]),
                     "%.0f" % per(c["db"]), "%.0f" % per(c["wrk"]), "%.0f" % per(ours),
                     "%.2f" % (bare_cpu / per(ours)) if ours and bare_cpu else "-",
                     "%.0f%%" % (100.0 * c["busy"] / hz / s["seconds"] / ncpu), "%.2f" % other,
                     s.get("load") or "-"])
    return head, rows


def md_table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |")
    return "\n".join(out)


def text_table(head, rows, skip=()):
    cols = [i for i in range(len(head)) if head[i] not in skip]
    widths = [max(len(str(head[i])), *(len(str(r[i])) for r in rows)) if rows else len(head[i]) for i in cols]
    lines = ["  ".join(str(head[i]).ljust(w) for i, w in zip(cols, widths))]
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        lines.append("  ".join(str(r[i]).ljust(w) for i, w in zip(cols, widths)).rstrip())
    return "\n".join(lines)
