#!/usr/bin/env python3
"""`make cluster-bench`: requests/s of two web hosts behind haproxy against one host's, for the
offers query and for impressions, in one run (issue 25), and what each host's GET /metrics saw.

The topology of `make cluster-test` (tests/cluster/topology.py: network namespaces, addresses in
10.253.25.0/24 used only inside them, MariaDB primary, two hosts of lighttpd + placard.fcgi,
haproxy), each host with one worker process (8 threads), metrics enabled for the load
namespace's address (10.253.25.1, where this process runs) and trusted as the proxy, so that
X-Forwarded-For spreads impressions over 65,536 clients as real traffic does. Four runs of
--seconds each (at most 15: at most 60 s of load in all): query to h1 alone, query through
haproxy to both, impressions to h1 alone, impressions through haproxy to both; every impression
carries a fresh token. Prints the scaling factor of each (two hosts' req/s over one host's) and
each host's share as its own metrics counted it.

On this machine both hosts, haproxy, MariaDB and wrk share the same cores: the factor measures
the cost of the balancer and of spreading, not the capacity a second machine adds
(docs/performance.md, "Across hosts"). Everything made is removed at the end, on an error and
on SIGTERM/SIGINT; --summary writes {"passed", "failed", "checks", "figures"}."""

import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "resilience"))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "e2e"))
import topology as T  # noqa: E402
from topology import H  # noqa: E402
import common as C  # noqa: E402
import run_end  # noqa: E402
import placard_tokens  # noqa: E402  (tools/, on harness's path)

LUA = os.path.join(ROOT, "bench", "wrk", "step.lua")
CLIENTS = 65536
WRK_THREADS = 2
CONNS = 32


def scrape(topo, host):
    """{(route, code): requests} from a host's GET /metrics."""
    out = {}
    for (name, labels), v in topo.metrics(host).items():
        if name == "placard_http_requests_total":
            d = dict(labels)
            out[(d["route"], d["code"])] = v
        elif name == "placard_http_request_duration_seconds_count":
            out[(dict(labels)["route"], "timed")] = v
    return out


def wrk(url, seconds, mode, lines):
    env = dict(os.environ, BENCH_MODE=mode, BENCH_LINES=lines, BENCH_THREADS=str(WRK_THREADS),
               BENCH_CLIENTS=str(CLIENTS), BENCH_COUNT="words" if mode == "impression" else "")
    p = subprocess.run(["wrk", "-t%d" % WRK_THREADS, "-c%d" % CONNS, "-d%ds" % seconds,
                        "--timeout", "5s", "-s", LUA, url], capture_output=True,
                       timeout=seconds + 60, env=env)
    out = p.stdout.decode("utf-8", "replace")
    m = re.search(r"^BENCHJSON (.*)$", out, re.M)
    if p.returncode != 0 or not m:
        raise RuntimeError("wrk failed (%d): %s %s" % (p.returncode, out[-600:], p.stderr[-300:]))
    doc = json.loads(m.group(1))
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    return rps, doc


def mint(topo, path, count):
    keys, active = placard_tokens.token_keys(placard_tokens.read_config(topo.ctl_conf))
    now = int(time.time())
    offers = H.ELECTRONICS_DE
    with open(path, "w") as f:
        for i in range(count):
            f.write(placard_tokens.mint(placard_tokens.IMPRESSION, active, keys[active],
                                        int(offers[i % len(offers)]), "DE", "wide", now) + "\n")


def run_load(topo, checks, seconds, figures):
    query_lines = topo.path("query-lines.txt")
    with open(query_lines, "w") as f:
        f.write((json.dumps(H.query_body(category="electronics")) + "\n") * 64)
    # Fresh tokens for both impression runs: more than 20,000/s per run would be needed to reuse.
    tokens = {}
    for run in ("one", "two"):
        tokens[run] = topo.path("tokens-%s.txt" % run)
        mint(topo, tokens[run], 20000 * seconds)
    direct = "http://%s:%d" % (T.HOST_IPS["h1"], topo.port)
    via_lb = "http://127.0.0.1:%d" % topo.lb_port
    plan = (("query", "one", direct, "/api/v1/offers/query", "body", query_lines, "offers_query"),
            ("query", "two", via_lb, "/api/v1/offers/query", "body", query_lines, "offers_query"),
            ("impression", "one", direct, "/api/v1/events/impression", "impression", tokens["one"],
             "impression"),
            ("impression", "two", via_lb, "/api/v1/events/impression", "impression", tokens["two"],
             "impression"))
    results = {}
    for what, hosts, base, path, mode, lines, route in plan:
        before = {h: scrape(topo, h) for h in T.HOST_IPS}
        load0 = os.getloadavg()[0]
        rps, doc = wrk(base + path, seconds, mode, lines)
        time.sleep(0.5)  # requests wrk left in flight are answered (and counted) by now
        after = {h: scrape(topo, h) for h in T.HOST_IPS}
        per_host = {h: int(after[h].get((route, "2xx"), 0) - before[h].get((route, "2xx"), 0))
                    for h in T.HOST_IPS}
        errors = {h: int(sum(after[h].get((route, c), 0) - before[h].get((route, c), 0)
                             for c in ("4xx", "5xx"))) for h in T.HOST_IPS}
        key = "%s, %s host%s" % (what, hosts, "s" if hosts == "two" else "")
        results[key] = {"rps": rps, "answers": doc.get("counts"), "recorded": doc.get("recorded"),
                        "duplicate": doc.get("duplicate"), "reused": doc.get("reused"),
                        "metrics_2xx_per_host": per_host, "metrics_errors_per_host": errors,
                        "loadavg_before": load0}
        C.log("%s: %.0f req/s; per host (their /metrics) %s; errors %s; load %.1f"
              % (key, rps, per_host, errors, load0))
    figures["scaling"] = {"seconds_per_run": seconds, "connections": CONNS, "cores": os.cpu_count(),
                          "worker_processes_per_host": 1, "threads": topo.threads, "runs": results}
    for what in ("query", "impression"):
        one, two = results[what + ", one host"], results[what + ", two hosts"]
        factor = two["rps"] / one["rps"] if one["rps"] else 0.0
        figures["scaling"][what + "_factor"] = round(factor, 3)
        split = two["metrics_2xx_per_host"]
        clean = all(sum(r["metrics_errors_per_host"].values()) == 0 for r in (one, two))
        checks.add("scaling", "%s: two hosts through haproxy vs h1 alone" % what,
                   one["rps"] > 0 and two["rps"] > 0 and clean
                   and min(split.values()) >= 0.25 * sum(split.values()) > 0
                   and one["metrics_2xx_per_host"]["h2"] == 0,
                   "h1 alone %.0f/s, two hosts %.0f/s: factor %.2f (per host %s; %d cores shared "
                   "by both hosts, haproxy, MariaDB and wrk)"
                   % (one["rps"], two["rps"], factor, split, os.cpu_count()))
        print("scaling factor, %s: %.2f (one host %.0f req/s, two hosts %.0f req/s)"
              % (what, factor, one["rps"], two["rps"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--summary")
    ap.add_argument("--seconds", type=int, default=10, help="each of the 4 runs (at most 15)")
    ap.add_argument("--timeout", type=int, default=300, help="bound on the whole run")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory (logs)")
    a = ap.parse_args()
    if os.geteuid() != 0:
        print("cluster-bench: needs root (ip netns)", file=sys.stderr)
        return 2
    a.seconds = max(1, min(a.seconds, 15))

    run_end.bound("cluster-bench", a.timeout)

    checks = C.Checks("make cluster-bench: offers query and impressions, 2 hosts vs 1")
    figures = {}
    topo = T.Topology(a.build, workers=1)
    # GET /metrics on for the load namespace, which is trusted as the proxy (X-Forwarded-For
    # names the clients).
    topo.extra_conf = {**T.METRICS_CONF, "trusted_proxies": T.LB_IP}
    try:
        topo.make_network()
        topo.enter_lb()
        topo.start_db()
        topo.init_database()
        for name in T.HOST_IPS:
            topo.start_host(name)
        topo.start_haproxy()
        topo.sql(H.fixture_sql())
        topo.wait_for("haproxy: both hosts UP",
                      lambda: set(topo.answered("status").values()) == {"UP"}, timeout=30)
        def scraped():
            try:
                return all(scrape(topo, h) for h in T.HOST_IPS)
            except (OSError, RuntimeError):
                return False
        topo.wait_for("metrics on both hosts", scraped, timeout=30)
        run_load(topo, checks, a.seconds, figures)
    except BaseException as e:  # noqa: B902 - a failure of any kind still cleans up
        run_end.record_failure(checks, topo, e, ("h1/log/placard.log", "h2/log/placard.log", "haproxy.log"))
    finally:
        run_end.clean_up(topo, a.keep)
    return checks.finish(a.summary, {"figures": figures})


if __name__ == "__main__":
    sys.exit(main())
