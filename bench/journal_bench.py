#!/usr/bin/env python3
"""What the click journal costs, and what journaling impressions would (issue 25): on a private
stack (scripts/stack.sh through tests/e2e/harness.py, lighttpd, the e2e fixtures), wrk runs of
`--seconds` each against one click link and one impression request:

  1. clicks, database up (the normal path: one batched INSERT IGNORE);
  2. clicks, database down: each one appended to the journal and fsync'd, then 302;
  3. impressions, database down: 503 at once (what impressions answer: the client retries);
  4. impressions, database up (for scale: what a journal would have to take during an outage).

Prints requests/s, latency and the journal's bytes per click. Bounded: 4 x seconds of load plus
the stack's start and stop.

    python3 bench/journal_bench.py [--seconds 5] [--connections 16] [--build build]
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
import harness as H  # noqa: E402


def wrk(url, seconds, conns, lua=None):
    cmd = ["wrk", "-t2", "-c%d" % conns, "-d%ds" % seconds, "--latency", "--timeout", "5s"]
    if lua:
        cmd += ["-s", lua]
    out = subprocess.run(cmd + [url], capture_output=True, timeout=seconds + 30).stdout.decode()
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = re.search(r"50%\s+([\d.]+\w+)", out).group(1)
    p99 = re.search(r"99%\s+([\d.]+\w+)", out).group(1)
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    total = int(re.search(r"(\d+) requests in", out).group(1))
    return {"rps": rps, "p50": p50, "p99": p99, "requests": total,
            "non_2xx_3xx": int(bad.group(1)) if bad else 0}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--build", default=os.environ.get("BUILD", "build"))
    a = ap.parse_args()
    a.seconds = max(1, min(a.seconds, 30))
    stack = H.Stack("lighttpd", build=a.build)
    H.set_stack(stack)
    results = {}
    try:
        stack.start()
        H.load_fixtures(stack)
        base = "http://127.0.0.1:%d" % stack.port
        click = "%s/r/click/1300?t=%s" % (base, H.mint_token(H.CLICK, 1300))
        token = H.query_offers(category="clicks")[0]["impressionToken"]
        lua = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
        lua.write('wrk.method = "POST"\nwrk.body = \'%s\'\nwrk.headers["Content-Type"] = '
                  '"application/json"\n' % json.dumps({"impressionToken": token}))
        lua.close()
        impression = base + "/api/v1/events/impression"
        results["clicks, database up"] = wrk(click, a.seconds, a.connections)
        results["impressions, database up"] = wrk(impression, a.seconds, a.connections, lua.name)
        stack.script("db-stop", timeout=60)
        try:
            results["clicks, database down (journal, fsync each)"] = wrk(click, a.seconds, a.connections)
            files = glob.glob(stack.path("journal", "clicks-*.jnl"))
            size = sum(os.path.getsize(f) for f in files)
            n = results["clicks, database down (journal, fsync each)"]["requests"]
            results["journal"] = {"bytes": size, "bytes_per_click": round(size / n, 1) if n else None,
                                  "files": len(files)}
            results["impressions, database down (503)"] = wrk(impression, a.seconds, a.connections,
                                                              lua.name)
        finally:
            stack.script("db-start", timeout=90)
        os.unlink(lua.name)
    finally:
        stack.stop()
        stack.cleanup()
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
