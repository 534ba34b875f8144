#!/usr/bin/env python3
"""The report of `make bench` (Python 3 standard library only).

    report.py --results build/bench/results.tsv --meta build/bench/meta.txt --out build/bench

Reads the wrk summaries that scripts/bench.sh collected (results.tsv: step, label, JSON from
bench/wrk/step.lua) and the run's facts (meta.txt: key=value), compares each figure with the bare
FastCGI baseline of the same run and with the targets of issue 6, and writes
  report.md    the tables, the verdicts, the machine, versions and command line
  report.svg   a bar chart: each step's ratio against its target line
  report.json  the same figures, for tools
then prints the tables and verdicts. Exit status 0 whatever the verdicts (it is not a test);
non-zero only when the inputs are broken.

The parts: report_inputs.py (reading), report_verdicts.py (ratios, targets, verdicts),
report_tables.py and report_chart.py (rendering), report_compare.py (BENCH_COMPARE),
report_durable.py (the event steps against the durable baseline); this file
puts them together into the three files.
"""

import argparse
import json
import os
import sys

import report_compare
from report_durable import durable_table
from report_chart import svg_chart
from report_inputs import read_meta, read_results
from report_tables import catalog_table, cpu_table, main_table, md_table, stats_table, text_table
from report_verdicts import analyse, checks_lines, fmt_int, fmt_ms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", required=True)
    ap.add_argument("--meta", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--compare", help="compare.tsv of a BENCH_COMPARE run")
    ap.add_argument("--compare-label", default="the other commit")
    args = ap.parse_args()
    meta = read_meta(args.meta)
    steps = read_results(args.results)
    if not steps:
        raise SystemExit("report: no results in %s" % args.results)
    analysis = analyse(steps, meta)
    head, rows = main_table(steps)
    chead, crows = catalog_table(meta)
    uhead, urows = cpu_table(steps, meta)
    dhead, drows, dsummary = durable_table(steps)
    checks = analysis["checks"]
    cmp_head, cmp_rows = [], []
    if args.compare:
        cmp_head, cmp_rows, cmp_checks = report_compare.table(args.compare, args.compare_label)
        checks += cmp_checks
    passed = sum(1 for c in checks if c[3])

    imp = []
    if meta.get("impressions_recorded_answers"):
        imp.append("impression-fresh: %s `recorded` answers, %s new rows in `impressions` (rows >= answers: "
                   "every `recorded` answer was committed; a few more rows are requests wrk had in flight when "
                   "it stopped)." % (fmt_int(int(meta["impressions_recorded_answers"])),
                                     fmt_int(int(meta["impressions_new_rows"]))))
    if meta.get("impressions_rows_after_repeat"):
        before, after = int(meta["impressions_rows_before_repeat"]), int(meta["impressions_rows_after_repeat"])
        imp.append("impression-repeat: rows before %s, after %s (%s)." % (
            fmt_int(before), fmt_int(after), "nothing counted twice" if before == after else "ROWS CHANGED"))
    if meta.get("clicks_new_rows"):
        imp.append("click: %s new rows in `clicks`." % fmt_int(int(meta["clicks_new_rows"])))
    for suffix, side in (("", "this tree"), ("_compare", "the compared commit")):
        if meta.get("scale_new_rows" + suffix):
            new_rows, reads = int(meta["scale_new_rows" + suffix]), int(meta.get("scale_page_reads" + suffix, 0))
            imp.append("impression-scale (%s): %s new rows over %s rows of history, %s InnoDB pages read from "
                       "disk (%.3f per row)." % (side, fmt_int(new_rows), fmt_int(int(meta.get("scale_rows", 0))),
                                                 fmt_int(reads), reads / new_rows if new_rows else 0.0))

    machine = [
        ("CPU", "%s, %s CPUs (nproc), %s RAM" % (meta.get("cpu", "?"), meta.get("nproc", "?"), meta.get("memory", "?"))),
        ("kernel / OS", "%s / %s" % (meta.get("kernel", "?"), meta.get("os", "?"))),
        ("web server", meta.get("v_lighttpd") if meta.get("server") == "lighttpd" else meta.get("v_apache")),
        ("other versions", "lighttpd %s; Apache %s; %s; %s" % (meta.get("v_lighttpd", "?"), meta.get("v_apache", "?"),
                                                             meta.get("v_mariadb", "?"), meta.get("v_wrk", "?"))),
        ("placard", meta.get("v_placard", "?")),
        ("load average", "%s at the start, %s at the end" % (meta.get("load_start", "?"), meta.get("load_end", "?"))),
    ]
    setup = [
        ("command", meta.get("command", "")),
        ("environment", meta.get("env", "") or "(no BENCH_* variables: defaults)"),
        ("stack", "%s on 127.0.0.1:%s, placard.fcgi, its echo and the bare program with %s threads each, unix sockets, "
                  "private MariaDB with innodb_flush_log_at_trx_commit=%s and a %s MiB redo log" % (
                      meta.get("server"), meta.get("port"), meta.get("worker_threads"), meta.get("flush_at_commit"),
                      meta.get("redo_mb", "64"))),
        ("wrk", "%s, one run per step, a step's ratio is its req/s over the bare FastCGI baseline's "
                "(the bare libfcgi program, mean of `bare` and `bare-end`: %s req/s, p99 %s ms)" % (
                    meta.get("wrk"), fmt_int(analysis["bare_rps"]), fmt_ms(analysis["bare_p99_ms"]))),
        ("run time", "%s s" % meta.get("duration_s", "?")),
    ]

    md = ["# Placard benchmark report", "",
          "Started %s. Produced by `make bench` (scripts/bench.sh, bench/); method and how to read it: "
          "docs/performance.md." % meta.get("started", "?"), "",
          "![chart](report.svg)", "", "## Steps", "", md_table(head, rows), "",
          "## Catalog snapshot and worker memory", "", md_table(chead, crows), ""]
    if urows:
        md += ["## CPU per request", "",
               "CPU time each part of the stack used during the step, divided by the requests answered "
               "(app: placard.fcgi; for `bare` the bare libfcgi program, for `echo` placard.fcgi --bench-echo; "
               "10 ms clock ticks; the step's load average in the last column). "
               "*Other work* is CPU the machine spent on processes outside this benchmark, in cores: "
               "when it is high, the step competed with someone else and its req/s are low for that reason. "
               "*x bare (CPU)* is the bare baseline's CPU per request over the step's: with the cores "
               "saturated it predicts the req/s ratio and is steadier from run to run (not used for verdicts).",
               "", md_table(uhead, urows), ""]
    if drows:
        md += ["## Event steps against the durable baseline", "",
               "The `bare-durable` step is the bare program answering the impression step's own POSTs, "
               "each only once its body is in a file, fdatasync'd with every body that arrived meanwhile "
               "(group commit, bench/bare/group_commit.cpp): what answering only once an event is on disk "
               "costs on this machine, with nothing of ours. Not a verdict (issue 24's targets are against "
               "`bare`); it says how much of an event step's distance to `bare` is the durability itself. "
               + dsummary + ".", "", md_table(dhead, drows), ""]
    elif dsummary:
        md += ["## Event steps against the durable baseline", "", dsummary + ".", ""]
    if imp:
        md += ["## Event recording checks", ""] + ["- " + x for x in imp] + [""]
    sd, shead, srows = stats_table(meta)
    if srows:
        r = sd["rollups"]
        md += ["## Statistics (GET /admin/api/v1/stats)", "",
               "%s to %s (%d days), signed in, one request at a time. Rollups generated directly "
               "(%.0f s): %s offer rows holding %s impressions and %s clicks; %s placement rows, %s country "
               "rows. The workers' rollup job then built the monthly sums of %s sealed months in %.0f s "
               "(once, as each month ends). The first request reads whole months from those and the "
               "other sealed days from the daily rows, summed in SQL; later ones find the sums in "
               "the worker's cache and read only the days that can still change." % (
                   sd["from"], sd["to"], sd["days"], sd["fill_s"], fmt_int(r["offer"]["rows"]),
                   fmt_int(r["offer"]["impressions"]), fmt_int(r["offer"]["clicks"]),
                   fmt_int(r["placement"]["rows"]), fmt_int(r["country"]["rows"]),
                   sd.get("months", 0), sd.get("months_s", 0)),
               "", md_table(shead, srows), ""]
    if cmp_rows:
        md += ["## Against %s (BENCH_COMPARE), same run, steps alternating" % args.compare_label, "",
               md_table(cmp_head, cmp_rows), ""]
    md += ["## Targets (issues 6 and 24): %d of %d met" % (passed, len(checks)), ""]
    md += ["- " + line for line in checks_lines(checks)] + [""]
    md += ["- EXEMPT  " + x for x in analysis["p99_exempt"]] + ([""] if analysis["p99_exempt"] else [])
    md += ["## Machine", ""] + ["- **%s**: %s" % (k, v) for k, v in machine] + [""]
    md += ["## Setup", ""] + ["- **%s**: %s" % (k, v) for k, v in setup] + [""]
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "report.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(md))
    with open(os.path.join(args.out, "report.svg"), "w", encoding="utf-8") as f:
        f.write(svg_chart(steps, analysis, meta))
    with open(os.path.join(args.out, "report.json"), "w", encoding="utf-8") as f:
        json.dump({"meta": meta, "steps": steps, "bare_rps": analysis["bare_rps"],
                   "bare_p99_ms": analysis["bare_p99_ms"],
                   "checks": [{"what": w, "value": v, "target": t, "ok": ok} for w, v, t, ok in checks]},
                  f, indent=1, default=str)

    print()
    print(text_table(head, rows, skip=("what",)))
    print()
    print(text_table(chead, crows))
    print()
    if urows:
        print(text_table(uhead, urows))
        print()
    if dsummary:
        print(dsummary)
        if drows:
            print(text_table(dhead, drows))
        print()
    for x in imp:
        print(x)
    print()
    if srows:
        print(text_table(shead, srows))
        print()
    if cmp_rows:
        print(text_table(cmp_head, cmp_rows))
        print()
    print("Targets (issues 6 and 24): %d of %d met" % (passed, len(checks)))
    for line in checks_lines(checks):
        print("  " + line)
    for x in analysis["p99_exempt"]:
        print("  EXEMPT  " + x)
    print()
    print("Report: %s, chart: %s" % (os.path.join(args.out, "report.md"), os.path.join(args.out, "report.svg")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
