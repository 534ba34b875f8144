"""A load client for `make chaos`: threads sending the public API's traffic (config, categories,
offers queries, impressions, clicks) to 127.0.0.1 and logging every answer.

Each thread queries offers of the fixture category `clicks`, keeps the fresh impression tokens
and click links of the answer, and spends each of them once. Every answer becomes one record:

    {"kind", "t0", "t1" (time.monotonic()), "status", "retry_after", "result" (an impression's
     "status" field), "nonce" (hex of the token's nonce, for impressions and clicks), "error"}

`error` is set when no HTTP answer came (connection refused or reset, timeout). Python standard
library only; a fresh connection per request, like a browser extension's fetch() after a pause.
"""

import http.client as httpclient
import json
import os
import random
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "e2e"))
import harness as H  # noqa: E402

# Fixture offers (tests/e2e/catalog.py) that are live, clickable and redirect to a safe URL.
CLICKABLE = {1300, 1301, 1302, 1303, 1304, 1305, 1309, 1310, 1311}
QUERY = json.dumps(H.query_body(category="clicks")).encode()
JSON_HEADERS = {"Content-Type": "application/json"}
# kind -> weight: what one extension does (a query, then impressions for what it shows, and now
# and then a click), plus the configuration and category reads of a start-up.
MIX = (("config", 1), ("categories", 1), ("query", 3), ("impression", 4), ("click", 1))


def nonce_hex(token):
    return H.decode_token(token)["nonce"].hex()


class LoadClient:
    def __init__(self, port, threads=6, timeout=10.0, seed=1, mix=MIX):
        self.port = port
        self.threads = threads
        self.timeout = timeout
        self.mix = mix
        self.records = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._workers = []
        self._seed = seed

    # -- running
    def start(self):
        self._stop.clear()
        for i in range(self.threads):
            t = threading.Thread(target=self._run, args=(random.Random(self._seed * 1000 + i),),
                                 daemon=True)
            t.start()
            self._workers.append(t)

    def stop(self):
        self._stop.set()
        for t in self._workers:
            t.join(self.timeout + 5)
        self._workers = []

    def records_between(self, t_from, t_to, kinds=None):
        """Answers to requests started in [t_from, t_to)."""
        with self._lock:
            recs = list(self.records)
        return [r for r in recs if t_from <= r["t0"] < t_to and (kinds is None or r["kind"] in kinds)]

    def write_log(self, path):
        with self._lock, open(path, "w") as f:
            for r in self.records:
                f.write(json.dumps(r, sort_keys=True) + "\n")

    # -- one thread
    def _run(self, rng):
        kinds = [k for k, w in self.mix for _ in range(w)]
        impressions, clicks = [], []
        while not self._stop.is_set():
            kind = rng.choice(kinds)
            if kind == "impression" and not impressions or kind == "click" and not clicks:
                kind = "query"
            if kind == "config":
                self._request(kind, "GET", "/api/v1/config")
            elif kind == "categories":
                self._request(kind, "GET", "/api/v1/categories")
            elif kind == "query":
                rec, body = self._request(kind, "POST", "/api/v1/offers/query", QUERY, JSON_HEADERS)
                if rec["status"] == 200:
                    for offer in json.loads(body)["offers"]:
                        impressions.append(offer["impressionToken"])
                        if int(offer["id"]) in CLICKABLE and "clickUrl" in offer:
                            clicks.append(offer["clickUrl"])
                    del impressions[:-50], clicks[:-50]
            elif kind == "impression":
                token = impressions.pop(rng.randrange(len(impressions)))
                rec, body = self._request(kind, "POST", "/api/v1/events/impression",
                                          json.dumps({"impressionToken": token}).encode(),
                                          JSON_HEADERS, nonce=nonce_hex(token))
                if rec["status"] == 200:
                    rec["result"] = json.loads(body).get("status")
            else:
                url = clicks.pop(rng.randrange(len(clicks)))
                self._request(kind, "GET", url, nonce=nonce_hex(H.token_from_click_url(url)))

    def _request(self, kind, method, path, body=None, headers=None, nonce=None):
        rec = {"kind": kind, "t0": time.monotonic(), "t1": None, "status": None,
               "retry_after": None, "result": None, "nonce": nonce, "error": None}
        data = b""
        conn = httpclient.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            resp = conn.getresponse()
            data = resp.read()
            rec["status"] = resp.status
            rec["retry_after"] = resp.getheader("Retry-After")
        except (OSError, httpclient.HTTPException) as e:
            rec["error"] = "%s: %s" % (type(e).__name__, e)
        finally:
            conn.close()
            rec["t1"] = time.monotonic()
        with self._lock:
            self.records.append(rec)
        return rec, data


def recorded_nonces(records):
    """Nonces of impressions answered 200 {"status": "recorded"}, in order, and of clicks
    answered 302 (a click is recorded when it redirects)."""
    imps = [r["nonce"] for r in records if r["kind"] == "impression" and r["status"] == 200
            and r["result"] == "recorded"]
    clicks = [r["nonce"] for r in records if r["kind"] == "click" and r["status"] == 302]
    return imps, clicks


def table_counts(stack, table, nonces):
    """{nonce hex: rows in `table` with that token nonce} for the given nonces."""
    counts = {n: 0 for n in nonces}
    chunk = 500
    items = list(counts)
    for i in range(0, len(items), chunk):
        part = items[i:i + chunk]
        rows = stack.db("SELECT LOWER(HEX(token_nonce)), COUNT(*) FROM %s WHERE token_nonce IN (%s) "
                        "GROUP BY token_nonce" % (table, ",".join("UNHEX('%s')" % n for n in part)))
        for n, c in rows:
            counts[n] = int(c)
    return counts
