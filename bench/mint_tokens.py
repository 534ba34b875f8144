#!/usr/bin/env python3
"""Mints impression or click tokens for `make bench` with the server's own key (Python 3 stdlib).

    mint_tokens.py --config VAR/placard.conf --kind impression|click --count N \
                   --offers OFFERS_FILE --out FILE [--record http://127.0.0.1:PORT]

OFFERS_FILE: lines "offer_id country" (live, non-demo offers, from the database). Every token gets
issued_at = now and a fresh nonce laid out as the service's own (issued_at as 4 bytes, then 12
random bytes: lib/tokens/token_nonce.h; --nonce-layout random: 16 random bytes, as before issue
24). Output, one per line:
  impression: the token
  click:      the path /r/click/<offerId>?t=<token>
--record (impressions only): POST each minted token once to /api/v1/events/impression, so the
file holds tokens that are already recorded (the "repeat" step); fails unless every answer is
200 "recorded".

Token format (lib/tokens/token.h): base64url_nopad(payload) "." base64url_nopad(HMAC-SHA-256(key,
payload)); payload big-endian, version 2: version, kind (1 impression, 2 click), kid length + kid,
nonce[16], issued_at u32, offer_id (length + bytes), country[2], placement length + placement
(minted by tools/placard_tokens.py).
"""

import argparse
import http.client
import json
import os
import sys
import time
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
import placard_tokens  # noqa: E402

KINDS = {"impression": placard_tokens.IMPRESSION, "click": placard_tokens.CLICK}


def read_keys(path):
    """(active kid, key bytes) from placard.conf's token.keys / token.active_key."""
    keys, active = placard_tokens.token_keys(placard_tokens.read_config(path))
    if active not in keys:
        raise SystemExit("mint_tokens: no key for token.active_key=%r in %s" % (active, path))
    return active, keys[active]


def record(url, tokens):
    u = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port or 80, timeout=15)
    for t in tokens:
        body = json.dumps({"impressionToken": t})
        conn.request("POST", "/api/v1/events/impression", body, {"Content-Type": "application/json"})
        resp = conn.getresponse()
        data = resp.read()
        if resp.status != 200 or b'"recorded"' not in data:
            raise SystemExit("mint_tokens: recording a fresh token answered %d %r" % (resp.status, data[:200]))
    conn.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", required=True)
    ap.add_argument("--kind", choices=sorted(KINDS), required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--offers", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--placement", default="popup-main")
    ap.add_argument("--record", metavar="URL")
    ap.add_argument("--nonce-layout", choices=("time", "random"), default="time",
                    help="time: issued_at then 12 random bytes, as the service hands out since "
                         "issue 24; random: 16 random bytes, as it did before (bench/nonce_layout.py)")
    args = ap.parse_args()

    kid, key = read_keys(args.config)
    offers = []
    with open(args.offers, encoding="ascii") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2:
                offers.append((int(parts[0]), parts[1]))
    if not offers:
        raise SystemExit("mint_tokens: no offers in %s" % args.offers)
    now = int(time.time())
    out = []
    for i in range(args.count):
        offer_id, country = offers[i % len(offers)]
        nonce = os.urandom(16) if args.nonce_layout == "random" else None  # None: the service's
        t = placard_tokens.mint(KINDS[args.kind], kid, key, offer_id, country, args.placement, now,
                                nonce)
        out.append(t if args.kind == "impression" else "/r/click/%d?t=%s" % (offer_id, t))
    tmp = args.out + ".tmp"
    with open(tmp, "w", encoding="ascii") as f:
        f.write("\n".join(out) + "\n")
    os.replace(tmp, args.out)
    if args.record:
        if args.kind != "impression":
            raise SystemExit("mint_tokens: --record is for impression tokens")
        record(args.record, out)


if __name__ == "__main__":
    sys.exit(main())
