"""The chart of the `make bench` report (report.svg): each step's req/s ratio against its target
line, and the shares of the budgets (p99, snapshot rebuild, worker VmRSS)."""

import html

from report_verdicts import (BASELINES, QUERY_P99_FACTOR, REBUILD_MS, RSS_LIMIT_KB, SIZE_INDEPENDENCE, fmt_int,
                             fmt_ms, scale_pair)


def clear_of(label_x, tick_x, width=48):
    """Where a value label starting at label_x goes so that it does not cross the tick at tick_x."""
    return tick_x + 5 if label_x - 3 <= tick_x <= label_x + width else label_x


def svg_chart(steps, analysis, meta):
    by = {s["name"]: s for s in steps}
    # Panel 1: throughput as a ratio to the bare FastCGI baseline (higher is better).
    bars = []
    for s in steps:
        if s["name"] == "bare":
            continue
        bars.append((s["name"], s["label"], s["ratio"], s["target"], s["bad_status"] + s["unanswered"]))
    small, large = scale_pair(by)
    if small and large and small["rps"] > 0:
        r = large["rps"] / small["rps"]
        bars.append(("query big / small", "query at the big catalog / at the small one (same answer size)",
                     r, SIZE_INDEPENDENCE, 0))
    # Panel 2: share of a budget (lower is better; 1.0 is the limit).
    budget = []
    for name in ("query-small", "query-big"):
        if name in by:
            budget.append(("%s p99" % name, "p99 / (1.5 x bare p99): %s ms" % fmt_ms(by[name]["p99_ms"]),
                           by[name]["p99_ratio"] / QUERY_P99_FACTOR))
    rebuilds = [int(meta[k]) for k in ("catalog_big_rebuild_ms", "catalog_big_rebuild2_ms") if meta.get(k)]
    if rebuilds:
        budget.append(("rebuild", "snapshot rebuild / 1 s: %d ms" % max(rebuilds), max(rebuilds) / REBUILD_MS))
    rss = [int(meta[k]) for k in ("catalog_big_rss_kb", "catalog_big_rss_after_load_kb",
                                  "catalog_big_rss_after_rebuild2_kb") if meta.get(k)]
    if rss:
        budget.append(("VmRSS", "worker VmRSS / 64 MiB: %.1f MiB" % (max(rss) / 1024), max(rss) / RSS_LIMIT_KB))

    W, left, right = 1200, 170, 400
    plot_w = W - left - right
    bh, gap = 22, 8
    top1 = 78
    h1 = len(bars) * (bh + gap)
    top2 = top1 + h1 + 70
    h2 = len(budget) * (bh + gap)
    H = top2 + h2 + 60
    # Bars longer than the scale (the static file is usually several times the bare FastCGI
    # answer) are cut at the edge, with their value written there.
    xmax1 = min(2.0, max([1.2] + [b[2] * 1.05 for b in bars]))
    xmax2 = min(2.0, max([1.2] + [b[2] * 1.05 for b in budget]))
    green, red, grey, blue = "#2e7d32", "#c62828", "#9e9e9e", "#1565c0"
    e = html.escape
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="DejaVu Sans, Arial, sans-serif" font-size="12">' % (W, H, W, H),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="24" font-size="16" font-weight="bold">Placard make bench: %s, %s worker threads, '
           '%s offers</text>' % (12, e(meta.get("server", "?")), e(meta.get("worker_threads", "?")),
                                  e(fmt_int(int(meta.get("offers_big", "0") or 0)))),
           '<text x="12" y="42" fill="#555">%s; %s CPUs; bare FastCGI baseline %s req/s, p99 %s ms (mean of the '
           'two bare runs); wrk %s</text>' % (e(meta.get("started", "")), e(meta.get("nproc", "?")),
                                              fmt_int(analysis["bare_rps"]), fmt_ms(analysis["bare_p99_ms"]),
                                              e(meta.get("wrk", ""))),
           '<text x="12" y="%d" font-weight="bold">Requests/s divided by the bare FastCGI baseline\'s (higher is '
           'better). Black tick: target. Green: met; red: missed or errors; blue: baseline; grey: no '
           'target.</text>' % (top1 - 14)]

    def axis(top, height, xmax, lines):
        for v in lines:
            if v > xmax:
                continue
            x = left + plot_w * v / xmax
            out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#e0e0e0"/>' % (x, top - 4, x, top + height))
            out.append('<text x="%.1f" y="%d" text-anchor="middle" fill="#777">%.1f</text>' % (x, top + height + 14, v))

    steps_grid = [i / 10 for i in range(0, int(xmax1 * 10) + 1, 2 if xmax1 > 2 else 1)]
    axis(top1, h1, xmax1, steps_grid)
    for i, (name, label, ratio, target, errors) in enumerate(bars):
        y = top1 + i * (bh + gap)
        if target is None:
            color = red if errors else grey
        else:
            color = green if ratio >= target and not errors else red
        if name in BASELINES:
            color = red if errors else blue
        w = plot_w * min(ratio, xmax1) / xmax1
        out.append('<text x="%d" y="%d" text-anchor="end">%s</text>' % (left - 8, y + bh * 0.7, e(name)))
        out.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s</title></rect>'
                   % (left, y, w, bh, color, e(label)))
        label_x = left + w + 4
        if target is not None:
            label_x = clear_of(label_x, left + plot_w * target / xmax1)
        out.append('<text x="%.1f" y="%d" fill="#222">%.2f x%s</text>'
                   % (label_x, y + bh * 0.7, ratio, " &#8250;" if ratio > xmax1 else ""))
        if target is not None:
            tx = left + plot_w * target / xmax1
            out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black" stroke-width="2.5"/>'
                       % (tx, y - 3, tx, y + bh + 3))
        desc = label if not errors else "%s errors! %s" % (fmt_int(errors), label)
        out.append('<text x="%d" y="%d" fill="%s" font-size="11">%s</text>'
                   % (left + plot_w + 140, y + bh * 0.7, red if errors else "#555", e(desc[:48])))
    # bare = 1.0 reference
    x1 = left + plot_w * 1.0 / xmax1
    out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-dasharray="4 3"/>'
               % (x1, top1 - 4, x1, top1 + h1, blue))
    out.append('<text x="%.1f" y="%d" fill="%s" font-size="11" text-anchor="middle">bare FastCGI = 1</text>'
               % (x1, top1 + h1 + 28, blue))

    out.append('<text x="12" y="%d" font-weight="bold">Share of a budget (lower is better; black line at 1.0 '
               'is the limit)</text>' % (top2 - 14))
    axis(top2, h2, xmax2, [i / 10 for i in range(0, int(xmax2 * 10) + 1, 2 if xmax2 > 2 else 1)])
    for i, (name, label, share) in enumerate(budget):
        y = top2 + i * (bh + gap)
        w = plot_w * min(share, xmax2) / xmax2
        color = green if share <= 1.0 else red
        out.append('<text x="%d" y="%d" text-anchor="end">%s</text>' % (left - 8, y + bh * 0.7, e(name)))
        out.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>' % (left, y, w, bh, color))
        out.append('<text x="%.1f" y="%d" fill="#222">%.2f</text>'
                   % (clear_of(left + w + 4, left + plot_w / xmax2), y + bh * 0.7, share))
        tx = left + plot_w / xmax2
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black" stroke-width="2.5"/>'
                   % (tx, y - 3, tx, y + bh + 3))
        out.append('<text x="%d" y="%d" fill="#555" font-size="11">%s</text>'
                   % (left + plot_w + 140, y + bh * 0.7, e(label[:48])))
    out.append("</svg>")
    return "\n".join(out) + "\n"
