#!/usr/bin/env python3
"""The network sync step of `make bench` (scripts/bench.sh): imports --offers Admitad coupons
from the stand-in network (tests/network_standin/standin.py on 127.0.0.1, pages of 500 as the
real API's largest `limit`, no artificial delay) with `placardctl sync`, the same job as the
admin API's, while bench.sh keeps the public offers query under load (Python 3 stdlib).

    sync_bench.py --config VAR/placard.conf --ctl build/placardctl --mycnf VAR/my.cnf \
                  --base-url http://127.0.0.1:PORT --password-file FILE [--offers 100000]
                  [--ready FILE]

Sets the Admitad credentials through the admin API, writes a copy of the config whose network.admitad.api_base is the stand-in (the running worker is not
touched), touches --ready once the stand-in answers, runs the sync, checks the rows and prints
one line (after the stand-in rendered its pages ahead): BENCHSYNC {json} (seconds, pages, the run's counts, the rows written).
"""

import argparse
import json
import os
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "tests", "e2e"))

from stats_bench import sign_in, sql  # noqa: E402
from test_network_adapters import StandIn  # noqa: E402

CREDS = {"clientId": "bench-client", "clientSecret": "bench-secret-0f3a", "websiteId": "4242"}


def admin_call(base, cookie, method, path, doc):
    req = urllib.request.Request(base + "/admin/api/v1" + path, data=json.dumps(doc).encode(),
                                 method=method,
                                 headers={"Content-Type": "application/json", "Origin": base,
                                          "X-Service-Mark": "admin", "Cookie": cookie})
    with urllib.request.urlopen(req, timeout=30) as r:
        return r.status


def run_sync(ctl, config, label):
    start = time.monotonic()
    p = subprocess.run([ctl, "--config", config, "sync", "--network", "admitad"],
                       capture_output=True, text=True, timeout=600)
    seconds = time.monotonic() - start
    if p.returncode != 0:
        raise SystemExit("sync_bench: %s sync failed (%d): %s%s"
                         % (label, p.returncode, p.stdout[-800:], p.stderr[-800:]))
    pages = [l for l in p.stdout.splitlines() if l.startswith("page ")]
    last = [l for l in p.stdout.splitlines() if l.startswith("succeeded:")][-1]
    # "page 200 of 200 (41234 ms)": the pull ends there; the rest is planning and the write.
    pulled_ms = int(pages[-1].rsplit("(", 1)[1].split()[0]) if pages else 0
    return seconds, len(pages), last, pulled_ms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", required=True)
    ap.add_argument("--ctl", required=True)
    ap.add_argument("--mycnf", required=True)
    ap.add_argument("--base-url", required=True)
    ap.add_argument("--password-file", required=True)
    ap.add_argument("--offers", type=int, default=100000)
    ap.add_argument("--ready", default="")
    args = ap.parse_args()

    standin = StandIn()
    try:
        standin.control(reset=True, admitad_count=args.offers, admitad_client_id=CREDS["clientId"],
                        admitad_client_secret=CREDS["clientSecret"])
        with open(args.password_file) as f:
            _, cookie = sign_in(args.base_url, f.read().strip())
        admin_call(args.base_url, cookie, "PUT", "/network/credentials/admitad", CREDS)
        conf = args.config + ".sync-bench"
        with open(args.config) as f:
            lines = [l for l in f.read().splitlines() if not l.startswith("network.")]
        lines += ["network.admitad.api_base = " + standin.base, "network.timeout_seconds = 60"]
        with open(os.open(conf, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
            f.write("\n".join(lines) + "\n")
        # The stand-in renders its pages ahead (a real network does that on its own machines),
        # so the sync's time is Placard's: requests, parsing, planning and the write.
        req = urllib.request.Request(standin.base + "/__control",
                                     data=json.dumps({"prerender_admitad": 500}).encode(),
                                     method="POST", headers={"Content-Type": "application/json"})
        urllib.request.urlopen(req, timeout=600).read()
        if args.ready:
            with open(args.ready, "w") as f:
                f.write("ready\n")
        seconds, pages, summary, pulled_ms = run_sync(args.ctl, conf, "first")
        rows = sql(args.mycnf, "SELECT COUNT(*), SUM(enabled) FROM offers WHERE network = 'admitad'")
        cats = sql(args.mycnf, "SELECT COUNT(*) FROM network_categories WHERE network = 'admitad'")
        out = {"offers": args.offers, "seconds": round(seconds, 2), "pages": pages,
               "pull_seconds": round(pulled_ms / 1000, 2),
               "summary": summary, "admitad_rows": int(rows[0][0]),
               "admitad_enabled": int(rows[0][1] or 0), "categories": int(cats[0][0])}
        print("BENCHSYNC " + json.dumps(out), flush=True)
        os.unlink(conf)
    finally:
        standin.stop()


if __name__ == "__main__":
    main()
