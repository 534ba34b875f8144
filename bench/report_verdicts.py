"""The verdicts of the `make bench` report: each step against the bare FastCGI baseline of the same
run and the targets of issues 6, 12, 21, 22 and 24, as checks (what, value text, target text, ok)."""

import json

from report_inputs import stats_of


# Throughput targets, as a ratio to the bare libfcgi program (bench/bare/) of the same run
# (issue 24; issue 6 had them against our own pool's echo, which hid the pool's own cost).
RPS_TARGETS = {
    "config": 0.95,
    "categories": 0.95,
    "categories-304": 0.95,
    "query-small": 0.95,
    "query-big": 0.85,
    "impression-fresh": 0.6,
    "impression-fresh-clients": 0.6,
    "impression-repeat": 0.4,
    "click": 0.5,
    "click-clients": 0.5,
}
QUERY_P99_FACTOR = 1.5      # every step's p99 <= 1.5 x bare p99, except:
# Steps not held to the p99 rule, and why (the report prints the reason with the step's p99).
P99_EXEMPT = {
    "query-during-sync": "it measures the offers query while a 100,000-offer network sync writes the catalog and "
                         "the worker rebuilds its snapshot, not the query path; it has its own targets (the sync's "
                         "seconds, the query ratio during the sync)",
}
SIZE_INDEPENDENCE = 0.9     # query at the big catalog >= 0.9 x query at the small one
# Issue 24, group "scale": impressions on a raw table past the buffer pool keep >= 0.8 x the rate
# of the same step on the bench's young table, and need at most 0.1 page reads from disk each.
SCALE_RATIO = 0.8
SCALE_READS_PER_EVENT = 0.1
REBUILD_MS = 1000           # snapshot rebuild of 100,000 offers
RSS_LIMIT_KB = 64 * 1024    # worker VmRSS at 100,000 offers
# Baselines are measured, not judged. bare-durable (the bare program with --journal: each POST's body
# fdatasync'd before its answer) is the event steps' durable baseline: report_durable.py.
BASELINES = ("static", "bare", "bare-end", "bare-durable")
BARE = ("bare", "bare-end")
BARE_PROGRAM = BARE + ("bare-durable",)  # the steps whose app is bench/bare/ (its CPU column)
# The bare program at the start and again at the end: ratios divide by their mean, which is only a
# baseline while the two agree. Past this drift (the slower over the faster) the run's machine
# changed under it (other work started, heat, frequency): the report says so as a failed check.
BARE_DRIFT_MIN = 0.85
STATS_P99_MS = 100          # GET /admin/api/v1/stats, 366 days, 100,000 offers (issue 12)
FOOT_START_MS = 500         # a new worker's first answer (issue 21: mod_fcgid starts one per quiet spell)
FOOT_RSS_MIB = 32           # its VmRSS after the first answer and after 20 sign-ins
FOOT_PEAK_MIB = 192         # its peak: one scrypt hash (128 MiB) at a time, none at start


# The public API's p99 during the registration flood, at most this many times its p99 without.
# Under wrk's saturating load the public requests share the worker with the flood's (cheap) 503
# answers, so some rise is expected; before issue 22 they waited behind hashes (timeouts).
FLOOD_P99_FACTOR = 10.0


def fmt_int(x):
    return "{:,}".format(int(round(x)))


def fmt_ms(x):
    return "%.2f" % x if x < 10 else "%.1f" % x


def verdict(ok):
    return "PASS" if ok else "FAIL"


def scale_pair(by):
    """The two steps that compare catalog sizes: the equal-answer-size mix when it ran (the
    realistic mix returns fewer offers per answer from a tiny catalog), else the realistic one."""
    for small, large in (("query-scale-small", "query-scale-big"), ("query-small", "query-big")):
        if small in by and large in by:
            return by[small], by[large]
    return None, None


def analyse(steps, meta):
    by = {s["name"]: s for s in steps}
    if "bare" not in by:
        raise SystemExit("report: no bare FastCGI baseline (step bare) in the results")
    bares = [by[n] for n in BARE if n in by]
    bare_rps = sum(s["rps"] for s in bares) / len(bares)
    bare_p99 = sum(s["p99_ms"] for s in bares) / len(bares)
    checks = []  # (what, value text, target text, ok)
    if len(bares) == 2 and max(bares[0]["rps"], bares[1]["rps"]) > 0:
        low, high = sorted((bares[0]["rps"], bares[1]["rps"]))
        checks.append(("bare baseline steady: bare-end vs bare req/s (else every x bare is suspect)",
                       "%.2f x (%s / %s)" % (low / high, fmt_int(bares[1]["rps"]), fmt_int(bares[0]["rps"])),
                       ">= %.2f x" % BARE_DRIFT_MIN, low / high >= BARE_DRIFT_MIN))
    p99_exempt = []  # P99_EXEMPT steps that ran: what the report says instead of a check

    for s in steps:
        s["ratio"] = s["rps"] / bare_rps if bare_rps else 0.0
        s["p99_ratio"] = s["p99_ms"] / bare_p99 if bare_p99 else 0.0
        t = RPS_TARGETS.get(s["name"])
        s["target"] = t
        parts = []
        if t is not None:
            ok = s["ratio"] >= t
            checks.append(("%s: req/s vs bare" % s["name"], "%.3f x" % s["ratio"], ">= %.2f x" % t, ok))
            parts.append(ok)
        if s["name"] in P99_EXEMPT:
            p99_exempt.append("%s: p99 %s ms (%.3f x bare), not judged by the p99 <= %.1f x bare rule: %s" % (
                s["name"], fmt_ms(s["p99_ms"]), s["p99_ratio"], QUERY_P99_FACTOR, P99_EXEMPT[s["name"]]))
        elif s["name"] not in BASELINES:
            ok = s["p99_ratio"] <= QUERY_P99_FACTOR
            checks.append(("%s: p99 vs bare p99" % s["name"], "%.3f x (%s ms)" % (s["p99_ratio"], fmt_ms(s["p99_ms"])),
                           "<= %.1f x" % QUERY_P99_FACTOR, ok))
            parts.append(ok)
        ok = s["bad_status"] == 0 and s["unanswered"] == 0
        parts.append(ok)
        s["verdict"] = "-" if s["name"] in BASELINES and ok else verdict(all(parts))
        if not ok and s["verdict"] == "-":
            s["verdict"] = "FAIL"

    small, large = scale_pair(by)
    if small and large and small["rps"] > 0:
        r = large["rps"] / small["rps"]
        checks.append(("query at %s offers vs at %s offers (%s)" % (fmt_int(int(meta.get("offers_big", 0))),
                                                                   fmt_int(int(meta.get("offers_small", 0))),
                                                                   large["name"].replace("-big", "")),
                       "%.3f x" % r, ">= %.2f x" % SIZE_INDEPENDENCE, r >= SIZE_INDEPENDENCE))
    big = int(meta.get("offers_big", "0") or 0)
    note = "" if big == 100000 else " (target is for 100,000)"
    rebuilds = [int(meta[k]) for k in ("catalog_big_rebuild_ms", "catalog_big_rebuild2_ms") if meta.get(k)]
    if rebuilds:
        worst = max(rebuilds)
        checks.append(("snapshot rebuild at %s offers%s" % (fmt_int(big), note),
                       "%d ms" % worst, "<= %d ms" % REBUILD_MS, worst <= REBUILD_MS))
    rss = [int(meta[k]) for k in ("catalog_big_rss_kb", "catalog_big_rss_after_load_kb",
                                  "catalog_big_rss_after_rebuild2_kb") if meta.get(k)]
    if rss:
        worst = max(rss)
        checks.append(("worker VmRSS at %s offers%s" % (fmt_int(big), note),
                       "%.1f MiB" % (worst / 1024), "<= %d MiB" % (RSS_LIMIT_KB // 1024), worst <= RSS_LIMIT_KB))
    bad = sum(s["bad_status"] for s in steps)
    checks.append(("non-2xx/3xx answers, all steps", fmt_int(bad), "0", bad == 0))
    lost = sum(s["unanswered"] for s in steps)
    reads = sum(s["read_errors"] for s in steps)
    checks.append(("requests without an answer (connect/write errors, 5 s timeouts), all steps",
                   fmt_int(lost) + ("; besides, %s connections closed by the server between answers (wrk "
                                    "read errors)" % fmt_int(reads) if reads else ""), "0", lost == 0))
    stats = stats_of(meta)
    for group, g in sorted(stats.get("groups", {}).items()):
        checks.append(("stats over %s days grouped by %s: p99 of %d requests (issue 12)" % (
            stats.get("days", 366), group, g["requests"]), "%s ms" % fmt_ms(g["p99_ms"]),
            "<= %d ms" % STATS_P99_MS, g["p99_ms"] <= STATS_P99_MS))
    if meta.get("footprint_json"):  # issue 21: a worker as mod_fcgid starts it on a shared host
        fp = json.loads(meta["footprint_json"])
        for label, value, limit, unit in (
                ("new worker (one thread): exec to its first answer", fp["start_ms"], FOOT_START_MS, "ms"),
                ("new worker: VmRSS after its first answer", fp["rss_start_kb"] / 1024, FOOT_RSS_MIB, "MiB"),
                ("new worker: VmRSS after %d sign-ins" % fp["sign_ins"], fp["rss_after_sign_ins_kb"] / 1024,
                 FOOT_RSS_MIB, "MiB"),
                ("new worker: peak (VmHWM) after %d sign-ins, one 128 MiB hash at a time" % fp["sign_ins"],
                 fp["hwm_after_sign_ins_kb"] / 1024, FOOT_PEAK_MIB, "MiB")):
            checks.append((label, "%.1f %s" % (value, unit), "<= %d %s" % (limit, unit), value <= limit))
    if meta.get("rollup_impressions"):
        same = (meta["rollup_impressions"] == meta.get("raw_impressions")
                and meta.get("rollup_clicks") == meta.get("raw_clicks"))
        checks.append(("rollups count exactly the raw rows (impressions, clicks)",
                       "%s / %s vs %s / %s rows" % (meta["rollup_impressions"], meta.get("rollup_clicks"),
                                                    meta.get("raw_impressions"), meta.get("raw_clicks")),
                       "equal", same))
    if "impression-scale" in by and meta.get("scale_new_rows"):  # issue 24, group "scale"
        rows = int(meta["scale_new_rows"])
        per = int(meta.get("scale_page_reads", 0)) / rows if rows else 0.0
        checks.append(("impression-scale: pages read from disk per recorded event, %s rows of history" %
                       fmt_int(int(meta.get("scale_rows", 0))), "%.3f (%s reads, %s rows)" % (
                           per, fmt_int(int(meta.get("scale_page_reads", 0))), fmt_int(rows)),
                       "<= %.1f" % SCALE_READS_PER_EVENT, rows > 0 and per <= SCALE_READS_PER_EVENT))
        if "impression-fresh-clients" in by and by["impression-fresh-clients"]["rps"] > 0:
            r = by["impression-scale"]["rps"] / by["impression-fresh-clients"]["rps"]
            checks.append(("impression-scale vs impression-fresh-clients (the young table) req/s", "%.3f x" % r,
                           ">= %.1f x" % SCALE_RATIO, r >= SCALE_RATIO))
    if "config-flood-base" in by and "config-during-flood" in by:  # issue 22, registration step
        base, flood = by["config-flood-base"], by["config-during-flood"]
        f = flood["p99_ms"] / base["p99_ms"] if base["p99_ms"] else 0.0
        fl = json.loads(meta.get("registration_flood_json") or "{}")
        checks.append(("GET /api/v1/config p99 during the registration flood (32 clients, %s requests; "
                       "worker RSS peak %.0f MiB) vs without" % (fmt_int(fl.get("requests", 0)),
                                                                 fl.get("rss_peak_kb", 0) / 1024),
                       "%.2f x (%s ms vs %s ms)" % (f, fmt_ms(flood["p99_ms"]), fmt_ms(base["p99_ms"])),
                       "<= %.1f x" % FLOOD_P99_FACTOR, f <= FLOOD_P99_FACTOR))
    return {"bare_rps": bare_rps, "bare_p99_ms": bare_p99, "checks": checks, "p99_exempt": p99_exempt}


def checks_lines(checks):
    return ["%s  %s: %s (target %s)" % (verdict(ok), what, value, target) for what, value, target, ok in checks]
