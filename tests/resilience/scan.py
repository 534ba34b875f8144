#!/usr/bin/env python3
"""`make scan`: sqlmap and wapiti against a private stack on 127.0.0.1 (Apache over HTTPS by
default, as a deployment serves it; `--server lighttpd` scans plain HTTP), every public endpoint's
fields and the admin API with a signed-in session; zero findings.

sqlmap (one run per target, `--batch`, `--dbms MySQL`, level and risk below): every JSON field of
the public POST bodies and of the admin API's write bodies is marked with `*` in `--data`, every
query-string and path parameter in the URL; the admin targets carry the session cookie and the
headers the admin API's CSRF rule asks for (`Origin` of the stack, `X-Service-Mark: admin`). The
throttling of sign-ins and the CSRF rule stay on: the sign-in target is scanned last (its failed
attempts lock the client out of signing in, not out of the session the scan already holds).

wapiti (the modules that need nothing outside this machine): the admin page and the GET endpoints
with their query parameters, with the same cookie and headers.

Reports under build/scan/: sqlmap/<target>/ (sqlmap's own output and log), <target>.txt (its
console output), wapiti.json. A finding is an injection point sqlmap identifies, or anything wapiti
lists under vulnerabilities or anomalies (an answer 500 to an attack counts as one), and a
security header of the admin page or the API that differs from our policy (HEADER_POLICY, read by
this script itself). --short scans a few targets at level 1 (see docs/hardening.md for why make
test does not run it).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import common as C  # noqa: E402

H = C.H
sys.path.insert(0, os.path.join(C.ROOT, "tests", "e2e"))
from admin_client import AdminClient, admin_password  # noqa: E402

# The level and risk of the full scan. Level 3: every parameter we mark, plus the Cookie,
# User-Agent and Referer headers; risk 2: adds heavy time-based payloads (risk 3's OR payloads
# could rewrite whole tables through an UPDATE: not worth it, our writes are single-row by id).
LEVEL, RISK = 3, 2
SHORT_LEVEL, SHORT_RISK = 1, 1
# The response headers we promise (docs/hardening.md), checked by this script on the admin page
# and on answers of the API: header -> the exact value. HSTS only over HTTPS (browsers ignore it
# over plain HTTP, and the worker cannot know a plain-HTTP host serves TLS at all).
PAGE_HEADERS = {
    "content-security-policy": "default-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'none'",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "x-xss-protection": "0",
}
API_HEADERS = {"x-content-type-options": "nosniff"}
HSTS = {"strict-transport-security": "max-age=31536000"}
# wapiti 3.0.4's http_headers module still asks for `X-XSS-Protection: 1` (the advice before the
# browsers removed their XSS auditors, which could be abused to switch scripts off). We send 0, as
# OWASP now advises; its finding is not counted only when the page really says 0 (checked above).
XSS_FINDING = "X-XSS-Protection is not set"
WAPITI_MODULES = ("blindsql,sql,exec,file,xss,permanentxss,redirect,crlf,methods,htaccess,"
                  "shellshock,backup,cookieflags,csp,http_headers")


def targets(stack, cookie):
    """(name, method, url, data or None, admin?) for every scanned request."""
    base = stack.origin
    imp = H.mint_token(H.IMPRESSION, 1300)
    clk = H.mint_token(H.CLICK, 1300)
    q = {"country": "DE*", "placement": "wide*", "category": "electronics*",
         "extensionVersion": "1.4.2*", "limit": "3*"}
    a = base + "/admin/api/v1"
    t = [
        ("public-offers-query", "POST", base + "/api/v1/offers/query", json.dumps(q), False),
        ("public-impression", "POST", base + "/api/v1/events/impression",
         json.dumps({"impressionToken": imp + "*"}), False),
        ("public-click", "GET", base + "/r/click/1300*?t=%s*" % clk, None, False),
        ("public-config", "GET", base + "/api/v1/config?v=1*", None, False),
        ("public-categories", "GET", base + "/api/v1/categories?v=1*", None, False),
        ("admin-offers-list", "GET", a + "/offers?q=x*&category=electronics*&country=DE*"
         "&network=manual*&enabled=true*&limit=5*&offset=0*", None, True),
        ("admin-offer", "GET", a + "/offers/1000*", None, True),
        ("admin-offer-patch", "PATCH", a + "/offers/1014",
         json.dumps({"title": "Offer 1014*", "priority": "1*"}), True),
        ("admin-offer-create", "POST", a + "/offers",
         json.dumps({"title": "Scan*", "category": "books*", "countries": ["DE*"],
                     "trackingUrl": "https://merchant.example/scan*", "priority": "0*"}), True),
        ("admin-categories", "GET", a + "/categories/electronics.audio*", None, True),
        ("admin-category-create", "POST", a + "/categories",
         json.dumps({"path": "scan*", "name": "Scan*", "icon": "x*", "displayOrder": "1*"}), True),
        ("admin-countries", "GET", a + "/countries/DE*", None, True),
        ("admin-placements", "GET", a + "/placements/wide*", None, True),
        ("admin-settings-patch", "PATCH", a + "/settings",
         json.dumps({"refreshIntervalSeconds": "900*", "minExtensionVersion": "1.0.0*"}), True),
        ("admin-accounts", "GET", a + "/accounts?status=approved*&limit=5*", None, True),
        ("admin-audit", "GET", a + "/audit?action=offer.create*&resource=offer*&limit=5*"
         "&from=2020-01-01T00:00:00Z*", None, True),
        ("admin-stats", "GET", a + "/stats?from=2026-01-01*&to=2026-01-31*&groupBy=day*", None, True),
    ]
    # Registration and sign-in hash the password (scrypt, N = 2^17) on every request whose email is
    # well-formed, on purpose (an unknown email costs what a wrong password costs): 1-3 s each on
    # this shared machine, so these two run at level 1, risk 1, and only the email is marked (the
    # password never reaches a statement: it is hashed or verified).
    t += [("admin-register", "POST", a + "/accounts",
           json.dumps({"email": "scan*@example.test", "password": "scan-password-1"}), True),
          ("admin-sign-in", "POST", a + "/session",
           json.dumps({"email": "admin@placard.local*", "password": "wrong"}), True)]
    return t


SLOW_TARGETS = ("admin-register", "admin-sign-in")


def run_sqlmap(stack, name, method, url, data, admin, cookie, p):
    out_dir = os.path.join(p.out, "sqlmap", name)
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    level, risk = (SHORT_LEVEL, SHORT_RISK) if name in SLOW_TARGETS else (p.level, p.risk)
    cmd = ["sqlmap", "--batch", "-u", url, "--method", method, "--dbms", "MySQL",
           "--level", str(level), "--risk", str(risk), "--output-dir", out_dir,
           "--flush-session", "--disable-coloring", "--timeout", "10", "--retries", "1",
           "--time-sec", "2", "--answers", "follow=N,keep testing=Y"]
    if name == "admin-sign-in":  # a wrong password answers 401, and 429 once the client is throttled
        cmd += ["--ignore-code", "401,429"]
    headers = ["Accept: application/json"]
    if data is not None:
        cmd += ["--data", data]
        headers.append("Content-Type: application/json")
    if admin:
        headers += ["Origin: " + stack.origin, "X-Service-Mark: admin"]
        if cookie and name != "admin-sign-in":
            cmd += ["--cookie", cookie]
    cmd += ["--headers", "\n".join(headers)]
    t0 = time.monotonic()
    console = os.path.join(p.out, "%s.txt" % name)
    with open(console, "w") as f:
        f.write(" ".join(cmd) + "\n\n")
        f.flush()
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=f, stderr=subprocess.STDOUT,
                              timeout=p.target_timeout)
    with open(console, errors="replace") as f:
        text = f.read()
    found = "identified the following injection point" in text
    points = re.findall(r"^Parameter: (.+)$", text, re.M)
    tested = len(re.findall(r"testing '", text))
    broken = (proc.returncode != 0 or tested == 0) and not found  # 0 tests: sqlmap gave up
    return {"name": name, "level": level, "risk": risk, "seconds": round(time.monotonic() - t0, 1),
            "found": found,
            "points": points, "payload_tests": tested, "rc": proc.returncode, "broken": broken,
            "tail": text[-600:]}


def header_differences(stack, cookie):
    """{answer: [difference, ...]} between the headers we promise and what the stack sends."""
    promised_extra = HSTS if stack.tls else {}
    answers = {
        "admin page /admin/": (H.http("GET", "/admin/"), PAGE_HEADERS),
        "admin module /admin/js/app.js": (H.http("GET", "/admin/js/app.js"), PAGE_HEADERS),
        "GET /api/v1/config": (H.http("GET", "/api/v1/config"), API_HEADERS),
        "GET /admin/api/v1/settings": (H.http("GET", "/admin/api/v1/settings",
                                              headers={"Cookie": cookie}), API_HEADERS),
        "404 /api/v1/nothing": (H.http("GET", "/api/v1/nothing"), API_HEADERS),
    }
    out = {}
    for name, ((st, h, _), promised) in answers.items():
        diffs = ["status %d" % st] if st >= 500 else []
        for k, v in dict(promised, **promised_extra).items():
            if h.get(k) != v:
                diffs.append("%s: %r, not %r" % (k, h.get(k), v))
        if not stack.tls and "strict-transport-security" in h:
            diffs.append("HSTS over plain HTTP")
        out[name] = diffs
    return out


def run_wapiti(stack, cookie, p):
    base = stack.origin
    report = os.path.join(p.out, "wapiti.json")
    clk = H.mint_token(H.CLICK, 1300)
    starts = ["/admin/", "/api/v1/config", "/api/v1/categories", "/r/click/1300?t=" + clk,
              "/admin/api/v1/offers?q=x&category=electronics&limit=5&offset=0",
              "/admin/api/v1/stats?from=2026-01-01&to=2026-01-31&groupBy=day",
              "/admin/api/v1/audit?action=offer.create&limit=5", "/admin/api/v1/categories",
              "/admin/api/v1/settings"]
    cmd = ["wapiti", "-u", base + "/", "--scope", "domain", "-m", WAPITI_MODULES, "--no-bugreport",
           "-f", "json", "-o", report, "--flush-session", "-v", "1", "-t", "10",
           "--store-session", os.path.join(p.out, "wapiti-session"),
           "--max-scan-time", str(p.wapiti_seconds),
           "-H", "Cookie: " + cookie, "-H", "Origin: " + base, "-H", "X-Service-Mark: admin"]
    for s in starts:
        cmd += ["-s", base + s]
    t0 = time.monotonic()
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                          timeout=p.wapiti_seconds + 300)
    text = proc.stdout.decode("utf-8", "replace") + proc.stderr.decode("utf-8", "replace")
    with open(os.path.join(p.out, "wapiti.txt"), "w") as f:
        f.write(" ".join(cmd) + "\n\n" + text)
    try:
        with open(report) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        return {"broken": "no report (%s); rc %d: %s" % (e, proc.returncode, text[-600:])}
    findings, accepted = {}, []
    for section in ("vulnerabilities", "anomalies"):
        for category, items in (doc.get(section) or {}).items():
            for i in items:
                info = i.get("info", "")
                if info == XSS_FINDING and p.page_says_xss_0:
                    accepted.append("%s (wapiti 3.0.4 wants 1; the page sends 0 on purpose)" % info)
                    continue
                findings.setdefault("%s: %s" % (section, category), []).append(
                    "%s %s %s" % (i.get("method"), i.get("path"), i.get("parameter") or info))
    urls = re.search(r"Wapiti found (\d+) URLs", text)
    return {"seconds": round(time.monotonic() - t0, 1), "findings": findings, "accepted": accepted,
            "urls": int(urls.group(1)) if urls else 0, "rc": proc.returncode}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", default=os.environ.get("SCAN_SERVER", "apache"),
                    choices=("lighttpd", "apache"))
    ap.add_argument("--plain", action="store_true",
                    help="plain HTTP behind Apache too (lighttpd is always plain HTTP here)")
    ap.add_argument("--build", default=os.environ.get("BUILD", "build"))
    ap.add_argument("--short", action="store_true")
    ap.add_argument("-k", action="append", default=[], help="only targets whose name has this")
    ap.add_argument("--no-wapiti", action="store_true")
    ap.add_argument("--summary")
    ap.add_argument("--out", default=os.path.join(C.ROOT, "build", "scan"))
    p = ap.parse_args()
    p.level, p.risk = (SHORT_LEVEL, SHORT_RISK) if p.short else (LEVEL, RISK)
    p.target_timeout = 300 if p.short else 1800
    p.wapiti_seconds = 60 if p.short else 300
    for tool in ("sqlmap", "wapiti"):
        if shutil.which(tool) is None:
            sys.stderr.write("scan: %s is missing: run `make scan` (scripts/deps.sh --scan installs "
                             "sqlmap and wapiti)\n" % tool)
            return 2
    H.with_timeout_handler()
    os.makedirs(p.out, exist_ok=True)
    tls = p.server == "apache" and not p.plain
    checks = C.Checks("make scan%s (%s over %s, sqlmap level %d risk %d)" % (
        " --short" if p.short else "", p.server, "HTTPS" if tls else "HTTP", p.level, p.risk))
    figures = {"sqlmap": [], "level": p.level, "risk": p.risk, "tls": tls}
    stack = C.start_stack(p.server, p.build, tls=tls)
    try:
        admin = AdminClient.signed_in(stack=stack)
        cookie = admin.cookie
        diffs = header_differences(stack, cookie)
        for name, d in diffs.items():
            checks.add("headers", name, not d, "; ".join(d) or "as promised%s" % (
                " (HSTS included)" if tls else " (no HSTS over plain HTTP)"))
        p.page_says_xss_0 = not any("x-xss-protection" in x for x in diffs["admin page /admin/"])
        chosen = targets(stack, cookie)
        if p.k:
            chosen = [t for t in chosen if any(k in t[0] for k in p.k)]
        elif p.short:
            chosen = [t for t in chosen if t[0] in ("public-offers-query", "public-impression",
                                                     "public-click", "admin-offers-list")]
        for name, method, url, data, is_admin in chosen:
            C.log("sqlmap %s (%s %s)" % (name, method, url.split("?")[0]))
            r = run_sqlmap(stack, name, method, url, data, is_admin, cookie, p)
            figures["sqlmap"].append({k: v for k, v in r.items() if k != "tail"})
            checks.add("sqlmap", name, not r["found"] and not r["broken"],
                       "%s; level %d risk %d, %d payload tests in %.0f s%s" % (
                           ("INJECTION: %s" % r["points"]) if r["found"] else "no injection point",
                           r["level"], r["risk"], r["payload_tests"], r["seconds"],
                           (" (sqlmap failed, rc %d: %s)" % (r["rc"], r["tail"][-200:])) if r["broken"] else ""))
        # The session still works (the scan did not sign it out or lock it), and nothing leaked.
        st, _, _ = admin.get("/settings")
        checks.add("sqlmap", "session still signed in after the scan", st == 200, "GET /settings %d" % st)
        if not p.no_wapiti:
            C.log("wapiti (%d s at most)" % p.wapiti_seconds)
            w = run_wapiti(stack, cookie, p)
            figures["wapiti"] = w
            if "broken" in w:
                checks.add("wapiti", "scan ran", False, w["broken"])
            else:
                checks.add("wapiti", "no vulnerabilities or anomalies", not w["findings"] and w["urls"],
                           "%s; %d URLs and forms in %.0f s; not counted: %s"
                           % (w["findings"] or "none", w["urls"], w["seconds"],
                              "; ".join(w["accepted"]) or "nothing"))
                st, _, _ = admin.get("/settings")
                checks.add("wapiti", "session still signed in after the scan", st == 200,
                           "GET /settings %d" % st)
        figures["admin_password_file"] = bool(admin_password(stack))
    except Exception as e:  # noqa: BLE001 - a broken run is a failed check, with the reason
        checks.add("scan", "run completed", False, "%s: %s" % (type(e).__name__, e))
        sys.stderr.write(stack.diagnostics() + "\n")
    finally:
        stack.stop()
        stack.cleanup()
    return checks.finish(p.summary or os.path.join(p.out, "summary.json"), {"figures": figures})


if __name__ == "__main__":
    sys.exit(main())
