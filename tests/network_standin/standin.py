#!/usr/bin/env python3
"""A stand-in for the Admitad and Awin publisher APIs, for tests (Python 3 standard library only).

    python3 standin.py --port 0      # prints "PORT <n>" once listening on 127.0.0.1

Admitad: POST /token/ (Basic client_id:client_secret, grant_type=client_credentials, scope
coupons_for_website) and GET /coupons/website/{id}/?limit=&offset= (Bearer). Awin: POST
/publisher/{id}/promotions (Bearer; filters membership/status; pagination page/pageSize).
Answers follow the documented shapes and the quirks of captured real answers (see
shared/research/networks.md): Admitad dates without zone, date_end null, protocol-relative and
http: images, "action" coupons with the placeholder promocode, null discount/language, ""
description, goto_link on another host with a query; Awin offsets in dates, regions.all,
vouchers, advertisers not joined (returned unless membership is "joined").

Control, for tests: POST /__control with a JSON object merged into the settings below
({"reset": true} first restores the defaults); GET /__control/requests lists the requests seen
(method, path, query, body, authorization scheme, time); GET /__control/state the settings and
counters. Failure modes (each page number counts from 1 within the network's pulls):
  expire_token_on_page: N   Admitad: the first request for page N answers 401 error_code 0 and
                            every token issued so far stops working
  rate_limit: {"admitad": k, "awin": k}   the next k requests answer 503 error_code 4 (Admitad)
                            or 429 (Awin)
  malformed_on_page: N      that page's body is cut short (not JSON)
  slow_on_page: {"page": N, "seconds": s}   that page answers after s seconds
  page_delay: s             every page answers after s seconds (progress a person can watch)
  fail_on_page: {"page": N, "status": 500}  that page answers with that status
  max_tokens: n             after n tokens, POST /token/ answers 400 error_code 6
  prerender_admitad: limit  render every Admitad page of that size now (make bench), so pulls
                            are not slowed by the stand-in's own JSON rendering
Data: admitad_count, awin_count, awin_not_joined, generation (with
advance_generation_each_pull, every pull of a network after its first moves on a generation:
from generation 1 on, coupon 1 / promotion 1 are gone and the title of the second changes).
"""

import argparse
import base64
import copy
import json
import secrets
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

PLACEHOLDER = "НЕ НУЖЕН"

DEFAULTS = {
    "admitad_client_id": "client-1",
    "admitad_client_secret": "secret-1",
    "admitad_website_id": "4242",
    "token_ttl": 604800,
    "max_tokens": 100,
    "awin_publisher_id": "98765",
    "awin_api_token": "awin-token-1",
    "admitad_count": 7,
    "awin_count": 5,
    "awin_not_joined": 2,
    "generation": 0,
    "advance_generation_each_pull": False,
    "expire_token_on_page": None,
    "rate_limit": {},
    "malformed_on_page": None,
    "slow_on_page": None,
    "page_delay": 0,
    "fail_on_page": None,
}


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        self.settings = copy.deepcopy(DEFAULTS)
        self.tokens = set()
        self.tokens_issued = 0
        self.requests = []
        self.expired_pages_done = set()
        self.pulls = {}
        self.pages = {}  # (generation, count, offset, limit) -> a rendered Admitad page


STATE = State()


def admitad_coupon(i, gen):
    kind = i % 5
    c = {
        "id": 1000 + i,
        "name": "Coupon %d%s" % (i, " (gen %d)" % gen if i == 2 and gen else ""),
        "short_name": "C%d" % i,
        "description": "" if kind == 1 else "Description of coupon %d" % i,
        "status": "active",
        "rating": "4.%d" % (i % 10),
        "campaign": {"id": 70 + i % 3, "name": "Shop %d" % (i % 3),
                     "site_url": "https://shop%d.example/" % (i % 3)},
        "date_start": "2024-05-01T00:00:00",
        "date_end": None if kind == 0 else "2099-05-31T23:59:00",
        "regions": ["DE"] if kind != 2 else ["DE", "fr"],
        "language": None if kind == 1 else "de",
        "discount": None if kind == 1 else "%d%%" % (10 + i),
        "types": [{"id": 1, "name": "Discount"}],
        "categories": [{"id": 62, "name": "Electronics"}] if kind != 3 else
                      [{"id": 7, "name": "Audio"}, {"id": 62, "name": "Electronics"}],
        "image": ("//cdn.admitad.example/c/%d.svg" % i) if kind in (0, 2)
                 else ("http://cdn.admitad.example/c/%d.png" % i),
        "species": "action" if kind == 1 else "promocode",
        "exclusive": False,
        "is_unique": False,
        "is_personal": False,
        "promocode": PLACEHOLDER if kind == 1 else "CODE%d" % i,
        "frameset_link": "",
        "goto_link": "https://ad.track-host.example/g/%x/?i=3&erid=ER%d" % (0xabc000 + i, i),
    }
    return c


def awin_promotion(i, gen, joined=True):
    voucher = i % 2 == 0
    p = {
        "promotionId": 500 + i if joined else 900 + i,
        "type": "voucher" if voucher else "promotion",
        "advertiser": {"id": 15 + i % 2 if joined else 99, "name":
                       ("Store %d" % (i % 2)) if joined else "Not Joined Ltd",
                       "joined": joined},
        "title": "Promotion %d%s" % (i, " (gen %d)" % gen if i == 2 and gen else ""),
        "description": "Promotion %d description" % i,
        "terms": "",
        "startDate": "2024-04-09T08:48:00+00:00",
        "endDate": None if i % 3 == 0 else "2099-05-09T23:59:59+02:00",
        "url": "https://store.example/p/%d" % i,
        "urlTracking": "https://www.awin1.example/cread.php?awinmid=%d&awinaffid=98765&ued="
                       "https%%3A%%2F%%2Fstore.example%%2Fp%%2F%d" % (15 + i % 2, i),
        "dateAdded": "2024-04-01T00:00:00+00:00",
        "campaign": "",
        "regions": {"all": True} if i % 2 == 1 else
                   {"all": False, "list": [{"name": "Germany", "countryCode": "DE"},
                                           {"name": "Austria", "countryCode": "AT"}]},
    }
    if voucher:
        p["voucher"] = {"code": "VOUCHER%d" % i, "exclusive": False, "attributable": True}
    return p


def admitad_page(gen, count, offset, limit):
    """One page of coupons as JSON bytes (pre-rendered ones, see prerender_admitad, are reused)."""
    key = (gen, count, offset, limit)
    with STATE.lock:
        raw = STATE.pages.get(key)
    if raw is not None:
        return raw
    # A range, not a list: a page of a 100,000-coupon set costs only its own coupons.
    ids = range(2 if gen else 1, count + 1)
    results = [admitad_coupon(i, gen) for i in ids[offset:offset + limit]]
    doc = {"results": results, "_meta": {"count": len(ids), "limit": limit, "offset": offset}}
    return json.dumps(doc, ensure_ascii=False).encode()


def prerender_admitad(limit):
    """Renders every Admitad page of the current data set ahead (make bench: the sync is then
    timed without the stand-in's own rendering, which a real network does on its side)."""
    s = STATE.settings
    gen, count = s["generation"], s["admitad_count"]
    total = count - (1 if gen else 0)
    for offset in range(0, total, limit):
        raw = admitad_page(gen, count, offset, limit)
        with STATE.lock:
            STATE.pages[(gen, count, offset, limit)] = raw


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "NetworkStandIn/1"

    def log_message(self, fmt, *args):  # quiet
        pass

    # -- plumbing
    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def answer(self, status, doc=None, raw=None, headers=None):
        data = raw if raw is not None else json.dumps(doc, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def record(self, body):
        auth = self.headers.get("Authorization") or ""
        u = urlsplit(self.path)
        with STATE.lock:
            STATE.requests.append({"method": self.command, "path": u.path, "query": u.query,
                                   "body": body.decode("utf-8", "replace"),
                                   "auth": auth.split(" ")[0] if auth else "",
                                   "userAgent": self.headers.get("User-Agent") or "",
                                   "contentType": self.headers.get("Content-Type") or "",
                                   "at": time.time()})

    def take_rate_limit(self, network):
        with STATE.lock:
            left = STATE.settings["rate_limit"].get(network, 0)
            if left > 0:
                STATE.settings["rate_limit"][network] = left - 1
                return True
        return False

    def page_failure(self, page, raw_ok):
        """Applies the page failure modes; returns True when an answer was sent."""
        s = STATE.settings
        if s.get("page_delay"):
            time.sleep(float(s["page_delay"]))
        slow = s.get("slow_on_page")
        if slow and slow.get("page") == page:
            time.sleep(float(slow.get("seconds", 5)))
        fail = s.get("fail_on_page")
        if fail and fail.get("page") == page:
            self.answer(int(fail.get("status", 500)), raw=b"<html>upstream failure</html>")
            return True
        if s.get("malformed_on_page") == page:
            self.answer(200, raw=raw_ok[: len(raw_ok) // 2])
            return True
        return False

    # -- routes
    def do_GET(self):
        self.record(b"")
        u = urlsplit(self.path)
        if u.path == "/__control/requests":
            with STATE.lock:
                return self.answer(200, STATE.requests)
        if u.path == "/__control/state":
            with STATE.lock:
                return self.answer(200, {"settings": STATE.settings,
                                         "tokensIssued": STATE.tokens_issued})
        parts = u.path.strip("/").split("/")
        if len(parts) == 3 and parts[0] == "coupons" and parts[1] == "website" and \
                u.path.endswith("/"):
            return self.admitad_coupons(parts[2], parse_qs(u.query))
        self.answer(404, {"error": "not_found"})

    def do_POST(self):
        body = self.body()
        u = urlsplit(self.path)
        if u.path == "/__control":
            doc = json.loads(body or b"{}")
            prerender = doc.pop("prerender_admitad", None)
            with STATE.lock:
                if doc.pop("reset", False):
                    STATE.reset()
                STATE.settings.update(doc)
            if prerender:
                prerender_admitad(int(prerender))
            self.record(body)
            return self.answer(200, {"ok": True})
        self.record(body)
        if u.path == "/token/":
            return self.admitad_token(body)
        parts = u.path.strip("/").split("/")
        if len(parts) == 3 and parts[0] == "publisher" and parts[2] == "promotions":
            return self.awin_promotions(parts[1], body)
        self.answer(404, {"error": "not_found"})

    def new_pull(self, network):
        """A first page: from the second pull of a network on, the data set moves on a
        generation when asked to (caller holds the lock)."""
        if STATE.pulls.get(network, 0) > 0 and STATE.settings["advance_generation_each_pull"]:
            STATE.settings["generation"] += 1
        STATE.pulls[network] = STATE.pulls.get(network, 0) + 1

    # -- Admitad
    def admitad_token(self, body):
        s = STATE.settings
        if self.take_rate_limit("admitad"):
            return self.answer(503, {"error": "request_limit", "error_code": 4,
                                     "error_description": "Request limit exceeded"})
        auth = self.headers.get("Authorization") or ""
        form = parse_qs(body.decode())
        expected = base64.b64encode(("%s:%s" % (s["admitad_client_id"],
                                                s["admitad_client_secret"])).encode()).decode()
        if auth != "Basic " + expected or form.get("client_id") != [s["admitad_client_id"]]:
            return self.answer(401, {"error": "invalid_client",
                                     "error_description": "Client authentication failed"})
        if form.get("grant_type") != ["client_credentials"]:
            return self.answer(400, {"error": "unsupported_grant_type", "error_code": 3})
        if "coupons_for_website" not in (form.get("scope") or [""])[0].split():
            return self.answer(400, {"error": "invalid_scope", "error_code": 2})
        with STATE.lock:
            if STATE.tokens_issued >= s["max_tokens"]:
                return self.answer(400, {"error": "maximum_tokens", "error_code": 6,
                                         "error_description": "Maximum number of tokens"})
            STATE.tokens_issued += 1
            tok = secrets.token_hex(16)
            STATE.tokens.add(tok)
        self.answer(200, {"access_token": tok, "token_type": "bearer",
                          "expires_in": s["token_ttl"], "refresh_token": secrets.token_hex(8),
                          "scope": "coupons_for_website", "username": "publisher",
                          "first_name": "", "last_name": "", "language": "en", "id": 1,
                          "group": "webmaster"})

    def admitad_coupons(self, website_id, q):
        s = STATE.settings
        if self.take_rate_limit("admitad"):
            return self.answer(503, {"error": "request_limit", "error_code": 4,
                                     "error_description": "Request limit exceeded"})
        auth = self.headers.get("Authorization") or ""
        tok = auth[7:] if auth.startswith("Bearer ") else ""
        try:
            limit = int(q.get("limit", ["20"])[0])
            offset = int(q.get("offset", ["0"])[0])
        except ValueError:
            return self.answer(400, {"error": "bad_request", "error_code": 3})
        page = offset // max(limit, 1) + 1
        with STATE.lock:
            if page == 1 and tok in STATE.tokens:
                self.new_pull("admitad")
            if s.get("expire_token_on_page") == page and page not in STATE.expired_pages_done:
                STATE.expired_pages_done.add(page)
                STATE.tokens.clear()
            valid = tok in STATE.tokens
        if not valid:
            return self.answer(401, {"error": "invalid_token", "error_code": 0,
                                     "error_description": "Token expired"})
        if website_id != s["admitad_website_id"]:
            return self.answer(404, {"error": "not_found", "error_code": 3})
        raw = admitad_page(s["generation"], s["admitad_count"], offset, limit)
        if self.page_failure(page, raw):
            return
        self.answer(200, raw=raw)

    # -- Awin
    def awin_promotions(self, publisher_id, body):
        s = STATE.settings
        if self.take_rate_limit("awin"):
            return self.answer(429, {"error": "too many requests"})
        if (self.headers.get("Authorization") or "") != "Bearer " + s["awin_api_token"]:
            return self.answer(401, {"error": "unauthorized",
                                     "description": "Invalid or missing token"})
        if publisher_id != s["awin_publisher_id"]:
            return self.answer(403, {"error": "forbidden"})
        try:
            req = json.loads(body or b"{}")
            filters = req.get("filters") or {}
            pg = req.get("pagination") or {}
            page = int(pg.get("page", 1))
            size = int(pg.get("pageSize", 10))
        except (ValueError, AttributeError):
            return self.answer(400, {"error": "bad request"})
        with STATE.lock:
            if page == 1:
                self.new_pull("awin")
        gen = s["generation"]
        items = [awin_promotion(i, gen) for i in range(1, s["awin_count"] + 1)
                 if not (gen and i == 1)]
        if filters.get("membership", "all") != "joined":
            items += [awin_promotion(i, gen, joined=False)
                      for i in range(1, s["awin_not_joined"] + 1)]
        status = filters.get("status")
        if status not in (None, "active"):
            items = []  # the stand-in's promotions are all active
        chunk = items[(page - 1) * size:page * size]
        doc = {"data": chunk, "pagination": {"page": page, "pageSize": size,
                                             "total": len(items)}}
        raw = json.dumps(doc, ensure_ascii=False).encode()
        if self.page_failure(page, raw):
            return
        self.answer(200, raw=raw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=0)
    args = ap.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    print("PORT %d" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
