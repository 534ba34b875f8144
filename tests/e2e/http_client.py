"""The e2e suite's HTTP client: one request on a fresh connection to 127.0.0.1 (plain or HTTPS),
the traffic log for the OpenAPI check, and polling (wait_until). Python 3 standard library only."""

import gzip
import http.client as httpclient
import json
import os
import ssl
import threading
import time

HTTP_TIMEOUT = 15.0

JSON_CT = "application/json; charset=utf-8"

# What a browser sends when it follows a link (the click answers HTML to it).
BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

_TRAFFIC_LOCK = threading.Lock()


def _record_traffic(method, path, status, hdrs, data):
    """With PLACARD_TRAFFIC_LOG set, one JSON line per answer, for tests/openapi/validate_traffic.mjs
    (the answers checked against docs/openapi.yaml)."""
    log_path = os.environ.get("PLACARD_TRAFFIC_LOG")
    if not log_path:
        return
    body = ""
    if hdrs.get("content-type", "").startswith("application/json") and data:
        try:
            raw = gzip.decompress(data) if hdrs.get("content-encoding") == "gzip" else data
            body = raw.decode("utf-8", "replace")
        except (OSError, EOFError):
            body = "(a gzip body that does not decompress)"
    line = json.dumps({"m": method, "p": path, "s": status, "h": hdrs, "b": body})
    with _TRAFFIC_LOCK, open(log_path, "a") as f:
        f.write(line + "\n")


def http_request(port, method, path, body=None, headers=None, timeout=HTTP_TIMEOUT, ca=None, source=None,
                 record=True):
    """One request on a fresh connection. Returns (status, {lower-case header: value}, body bytes).
    With `ca` (a certificate file), over HTTPS, verifying the server against that certificate;
    with `source`, from that local address (e.g. 127.0.0.2); `record=False` keeps the answer out
    of the traffic log (answers that did not come from the stack's web server alone).

    Repeated headers are joined with ", ". If the server answers and closes before the whole
    body was sent (e.g. an early 413), the answer is still read."""
    if isinstance(body, str):
        body = body.encode("utf-8")
    bind = (source, 0) if source else None
    if ca:
        ctx = ssl.create_default_context(cafile=ca)
        conn = httpclient.HTTPSConnection("127.0.0.1", port, timeout=timeout, context=ctx, source_address=bind)
    else:
        conn = httpclient.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=bind)
    try:
        try:
            conn.request(method, path, body=body, headers=dict(headers or {}))
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server may have answered already; try to read it
        resp = conn.getresponse()
        data = resp.read()
        hdrs = {}
        for k, v in resp.getheaders():
            k = k.lower()
            hdrs[k] = (hdrs[k] + ", " + v) if k in hdrs else v
        if record:
            _record_traffic(method, path, resp.status, hdrs, data)
        return resp.status, hdrs, data
    finally:
        conn.close()


def wait_until(fn, timeout=5.0, interval=0.05):
    """Calls fn until it returns something truthy or `timeout` seconds passed; returns the last
    result (falsy on timeout). Exceptions from fn count as falsy."""
    deadline = time.monotonic() + timeout
    result = None
    while True:
        try:
            result = fn()
        except Exception:  # noqa: BLE001 - a probe that throws is just "not yet"
            result = None
        if result:
            return result
        if time.monotonic() >= deadline:
            return result
        time.sleep(interval)


def header_tokens(value):
    return [t.strip().lower() for t in (value or "").split(",") if t.strip()]


def settle():
    """After a change became visible on one request, give every worker time to catch up."""
    time.sleep(0.6)
