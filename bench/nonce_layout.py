#!/usr/bin/env python3
"""Which nonce layout a running Placard hands out, asked through its own offers query.

    nonce_layout.py http://127.0.0.1:PORT QUERY_BODIES_FILE

Prints `time` when the first 4 bytes of a token's nonce are its issue time (lib/tokens/token_nonce.h,
issue 24) and `random` when they are not (the layout before it). `make bench` mints each side's
tokens in the layout that side's own query hands out (scripts/bench/steps/70-scale.sh), so that a
side compared with BENCH_COMPARE is measured with the tokens its clients would really send.
QUERY_BODIES_FILE: one JSON body per line (the bench's query mix); the first with an offer decides.
"""

import json
import os
import sys
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
import placard_tokens  # noqa: E402


def layout(token):
    t = placard_tokens.decode(token)
    return "time" if t["nonce"][:4] == t["issued_at"].to_bytes(4, "big") else "random"


def main():
    base, bodies = sys.argv[1], sys.argv[2]
    with open(bodies, encoding="utf-8") as f:
        for line in f:
            req = urllib.request.Request(base + "/api/v1/offers/query", data=line.strip().encode(),
                                         headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=10) as r:
                offers = json.load(r).get("offers") or []
            if offers:
                print(layout(offers[0]["impressionToken"]))
                return 0
    raise SystemExit("nonce_layout: no query in %s answered an offer" % bodies)


if __name__ == "__main__":
    sys.exit(main())
