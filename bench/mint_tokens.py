#!/usr/bin/env python3
"""Mints impression or click tokens for `make bench` with the server's own key (Python 3 stdlib).

    mint_tokens.py --config VAR/placard.conf --kind impression|click --count N \
                   --offers OFFERS_FILE --out FILE [--record http://127.0.0.1:PORT]

OFFERS_FILE: lines "offer_id country" (live, non-demo offers, from the database). Every token gets
16 fresh random nonce bytes and issued_at = now. Output, one per line:
  impression: the token
  click:      the path /r/click/<offerId>?t=<token>
--record (impressions only): POST each minted token once to /api/v1/events/impression, so the
file holds tokens that are already recorded (the "repeat" step); fails unless every answer is
200 "recorded".

Token format (lib/tokens/token.h): base64url_nopad(payload) "." base64url_nopad(HMAC-SHA-256(key,
payload)); payload big-endian: version 1, kind (1 impression, 2 click), kid length + kid, nonce[16],
issued_at int64, offer_id uint64, country[2], placement length + placement.
"""

import argparse
import base64
import hashlib
import hmac
import http.client
import json
import os
import struct
import sys
import time
import urllib.parse

KINDS = {"impression": 1, "click": 2}


def b64u(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def read_keys(path):
    """(active kid, key bytes) from placard.conf's token.keys / token.active_key."""
    conf = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#") or "=" not in line:
                continue
            k, v = line.split("=", 1)
            conf[k.strip()] = v.strip()
    active = conf.get("token.active_key", "")
    for entry in conf.get("token.keys", "").split(","):
        entry = entry.strip()
        if ":" not in entry:
            continue
        kid, key = entry.split(":", 1)
        if kid.strip() == active:
            key = key.strip()
            return active, base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))
    raise SystemExit("mint_tokens: no key for token.active_key=%r in %s" % (active, path))


def mint(kid, key, kind, offer_id, country, placement, issued_at):
    kid_b = kid.encode("ascii")
    pl = placement.encode("ascii")
    payload = (bytes([1, KINDS[kind], len(kid_b)]) + kid_b + os.urandom(16)
               + struct.pack(">qQ", issued_at, offer_id) + country.encode("ascii")
               + bytes([len(pl)]) + pl)
    return b64u(payload) + "." + b64u(hmac.new(key, payload, hashlib.sha256).digest())


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
        t = mint(kid, key, args.kind, offer_id, country, args.placement, now)
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
