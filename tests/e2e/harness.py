"""End-to-end harness: one real stack (private MariaDB, placard.fcgi, lighttpd or Apache) per run,
real HTTP on 127.0.0.1, helpers for SQL, tokens, fixtures and assertions.

Python 3 standard library only. The stack is driven through `scripts/stack.sh`:

    VAR_DIR=<fresh dir> PORT=<free port> SERVER=lighttpd|apache BUILD=build DEMO_DATA=0 \
        bash scripts/stack.sh start|stop|db-stop|db-start

`run.py` starts one stack per server and stops it at the end. A test module run on its own
(`python3 -m unittest tests.e2e.test_offers`) starts one lazily and stops it at exit.

Environment knobs: SERVER (default lighttpd), BUILD (default build), E2E_PORTS ("lo-hi": pick
the port from that range instead of letting the kernel choose), E2E_KEEP=1 (keep VAR_DIR).
"""

import atexit
import contextlib
import gzip
import http.client as httpclient
import json
import os
import re
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import placard_tokens  # noqa: E402
HTTP_TIMEOUT = 15.0

JSON_CT = "application/json; charset=utf-8"

# Sanitizer reports in the worker's output or log files fail the run.
SANITIZER_PATTERNS = (
    "ERROR: AddressSanitizer",
    "ERROR: LeakSanitizer",
    "WARNING: ThreadSanitizer",
    "runtime error:",
    "SUMMARY: UndefinedBehaviorSanitizer",
)


def log(msg):
    sys.stderr.write("[e2e] %s\n" % msg)
    sys.stderr.flush()


# --------------------------------------------------------------------------------------------
# Stack lifecycle


def _db_port(port):
    """scripts/stack.sh puts MariaDB's TCP port at PORT+20000 (or PORT-20000 above 65535)."""
    return port + 20000 if port + 20000 <= 65535 else port - 20000


def _bindable(port):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port():
    """A free TCP port on 127.0.0.1 (whose MariaDB companion port is free too): from E2E_PORTS
    (lo-hi) when set, else chosen by the kernel."""
    rng = os.environ.get("E2E_PORTS", "").strip()
    if rng:
        lo, hi = (int(x) for x in rng.split("-"))
        start = lo + secrets.randbelow(hi - lo + 1)
        for i in range(hi - lo + 1):
            port = lo + (start - lo + i) % (hi - lo + 1)
            if _bindable(port) and _bindable(_db_port(port)):
                return port
        raise RuntimeError("no free port in E2E_PORTS=%s" % rng)
    for _ in range(50):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if _bindable(_db_port(port)):
            return port
    raise RuntimeError("no free port pair found")


class StackError(Exception):
    pass


# Set by run.py: the run's options (argparse namespace; None when a module runs on its own) and
# the variables its --stack-env adds to scripts/stack.sh's environment, for every stack of the run.
run_options = None
STACK_ENV = {}

# placard.conf keys every test stack gets (scripts/stack.sh CONF_SET): the suite registers many
# accounts from 127.0.0.1, far more than the production registration limits allow (issue 22);
# the tests of those limits start a stack of their own with tighter ones.
TEST_CONF = {
    "registration.per_client_per_hour": "100000",
    "registration.per_hour": "100000",
    "registration.max_pending": "100000",
}


# The base path every stack of this run is mounted under (run.py --base-path; "" = the root).
# Stack.http() prefixes every path with it; raw connections use prefixed().
BASE_PATH = os.environ.get("E2E_BASE_PATH", "")


def prefixed(path):
    """`path` of the contract (/api/v1/...) as the current stack serves it (under its base)."""
    return (_current.base_path if _current is not None else BASE_PATH) + path


class Stack:
    def __init__(self, server="lighttpd", build=None, tls=False, conf=None, base_path=None):
        self.conf = dict(TEST_CONF, **(conf or {}))
        self.server = server
        self.tls = tls  # Apache serves HTTPS with a certificate made under VAR_DIR/tls
        self.base_path = BASE_PATH if base_path is None else base_path
        self.extra_env = {}  # more variables for scripts/stack.sh (e.g. PUBLIC_ORIGIN)
        self.build = build or os.environ.get("BUILD") or "build"
        self.var = None
        self.port = None
        self.started = False
        self.sanitizer_reports = []
        self.fixtures_loaded = False
        self._script_log = None
        self._stopped = False

    # -- environment for scripts/stack.sh
    def env(self):
        env = dict(os.environ)
        env.update(
            VAR_DIR=self.var,
            PORT=str(self.port),
            SERVER=self.server,
            BUILD=self.build,
            DEMO_DATA="0",
            TLS="1" if self.tls else "0",
            CONF_SET=" ".join("%s=%s" % kv for kv in sorted(self.conf.items())),
            BASE_PATH=self.base_path,
        )
        env.update(STACK_ENV)
        env.update(self.extra_env)
        # Sanitizer builds: also write reports to files under the stack's log dir, so they are
        # found even when the web server swallows the worker's standard error.
        if "san" in os.path.basename(self.build.rstrip("/")) or os.environ.get("ASAN_OPTIONS"):
            logdir = os.path.join(self.var, "log")
            tsan = "suppressions=%s" % os.path.join(ROOT, "tests", "tsan.supp")
            for name, opts in (("ASAN_OPTIONS", "halt_on_error=1:print_stacktrace=1"),
                               ("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1"),
                               ("TSAN_OPTIONS", tsan)):
                cur = env.get(name) or opts
                if "log_path=" not in cur:
                    cur += ":log_path=%s/%s" % (logdir, name.split("_")[0].lower())
                env[name] = cur
        return env

    def script(self, action, timeout):
        """Run `bash scripts/stack.sh <action>`; output goes to a file (daemons may inherit it)."""
        with open(self._script_log, "ab") as out:
            out.write(("\n===== stack.sh %s (%s)\n" % (action, time.strftime("%H:%M:%S"))).encode())
            out.flush()
            try:
                proc = subprocess.run(
                    ["bash", "scripts/stack.sh", action],
                    cwd=ROOT, env=self.env(), stdin=subprocess.DEVNULL,
                    stdout=out, stderr=out, timeout=timeout)
            except subprocess.TimeoutExpired:
                raise StackError("stack.sh %s timed out after %ss" % (action, timeout))
        if proc.returncode != 0:
            raise StackError("stack.sh %s exited %d:\n%s" % (action, proc.returncode,
                                                           self.script_output(tail=60)))

    def script_output(self, tail=60):
        try:
            with open(self._script_log, "rb") as f:
                lines = f.read().decode("utf-8", "replace").splitlines()
        except OSError:
            return ""
        return "\n".join(lines[-tail:])

    def start(self):
        self.var = tempfile.mkdtemp(prefix="placard-e2e-", dir="/tmp")
        os.chmod(self.var, 0o755)
        fd, self._script_log = tempfile.mkstemp(prefix="placard-e2e-", suffix=".stack.log", dir="/tmp")
        os.close(fd)
        self.port = free_port()
        log("starting %s stack on 127.0.0.1:%d, VAR_DIR=%s, BUILD=%s"
            % (self.server, self.port, self.var, self.build))
        self.started = True  # from here on, stop() must run
        self.script("start", timeout=180)
        if not wait_until(lambda: self._answers(), timeout=60, interval=0.2):
            raise StackError("stack started but GET /api/v1/config did not answer within 60 s\n"
                             + self.diagnostics())
        self._keep_fresh()

    # -- a fresh database on the running MariaDB (reset), instead of a new data directory
    def _keep_fresh(self):
        """The database and placard.conf as the first start left them (schema, seeds, the first
        administrator; no fixtures), kept under VAR_DIR/fresh/ for reset()."""
        fresh = self.path("fresh")
        os.makedirs(fresh, exist_ok=True)
        with open(os.path.join(fresh, "placard.sql"), "wb") as out:
            proc = subprocess.run(["mariadb-dump", "--defaults-file=%s" % self.path("my.cnf"), "-u", "root",
                                   "--single-transaction", "--skip-comments", "placard"],
                                  stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.PIPE, timeout=120)
        if proc.returncode != 0:
            raise StackError("mariadb-dump of the fresh database failed: %s" % proc.stderr.decode("utf-8", "replace"))
        shutil.copyfile(self.path("placard.conf"), os.path.join(fresh, "placard.conf"))

    def reset(self, server=None, tls=None, conf=None):
        """The stack as new, at the cost of a restart: the database dropped and loaded again as the
        first start left it (on the same MariaDB and data directory), placard.conf as first
        written, then stopped and started again, behind `server` and with `tls` when given."""
        with open(self.path("fresh", "placard.sql"), "rb") as f:
            dump = f.read()
        self.db_root(b"DROP DATABASE placard; CREATE DATABASE placard CHARACTER SET utf8mb4 "
                     b"COLLATE utf8mb4_unicode_ci; USE placard;\n" + dump)
        shutil.copyfile(self.path("fresh", "placard.conf"), self.path("placard.conf"))
        self.fixtures_loaded = False
        self.script("stop", timeout=90)
        if conf is not None:  # placard.conf keys of this start on (added to TEST_CONF)
            self.conf = dict(TEST_CONF, **conf)
        self.server = server or self.server
        self.tls = self.tls if tls is None else tls
        self.script("start", timeout=180)
        if not wait_until(lambda: self._answers(), timeout=60, interval=0.2):
            raise StackError("stack did not answer after reset\n" + self.diagnostics())

    def db_root(self, script, timeout=120):
        """SQL (bytes) as MariaDB's root, no database chosen."""
        proc = subprocess.run(["mariadb", "--defaults-file=%s" % self.path("my.cnf"), "-u", "root",
                               "--default-character-set=utf8mb4"],
                              input=script, capture_output=True, timeout=timeout)
        if proc.returncode != 0:
            raise StackError("SQL failed (%d): %s" % (proc.returncode, proc.stderr.decode("utf-8", "replace")))

    def _answers(self):
        try:
            st, _, _ = self.http("GET", "/api/v1/config", timeout=3)
            return st < 500
        except OSError:
            return False

    def restart(self):
        """`stack.sh stop` then `start` on the same VAR_DIR (database and fixtures are kept), e.g.
        after the worker was stopped; waits until it answers."""
        self.script("stop", timeout=90)
        self.script("start", timeout=180)
        if not wait_until(lambda: self._answers(), timeout=60, interval=0.2):
            raise StackError("stack did not answer after restart\n" + self.diagnostics())

    def stop(self):
        if not self.started or self._stopped:
            return
        self._stopped = True
        try:
            self.script("stop", timeout=90)
        except StackError as e:
            log("stop failed: %s" % e)
        self.sanitizer_reports = self.scan_sanitizer()
        for path, excerpt in self.sanitizer_reports:
            sys.stdout.write("\n===== sanitizer report in %s\n%s\n" % (path, excerpt))
        sys.stdout.flush()

    def cleanup(self, keep=False):
        if keep or os.environ.get("E2E_KEEP") == "1":
            log("keeping VAR_DIR %s (stack.sh output: %s)" % (self.var, self._script_log))
            return
        if self.var:
            shutil.rmtree(self.var, ignore_errors=True)
        if self._script_log:
            with contextlib.suppress(OSError):
                os.unlink(self._script_log)

    def scan_sanitizer(self):
        found = []
        logdir = os.path.join(self.var or "/nonexistent", "log")
        if not os.path.isdir(logdir):
            return found
        for name in sorted(os.listdir(logdir)):
            path = os.path.join(logdir, name)
            if not os.path.isfile(path):
                continue
            try:
                with open(path, "rb") as f:
                    text = f.read().decode("utf-8", "replace")
            except OSError:
                continue
            for pat in SANITIZER_PATTERNS:
                i = text.find(pat)
                if i >= 0:
                    start = text.rfind("\n", 0, max(0, i - 2000)) + 1
                    found.append((path, text[start:i + 6000]))
                    break
        return found

    def tail(self, name, n=40):
        path = os.path.join(self.var, "log", name)
        try:
            with open(path, "rb") as f:
                lines = f.read().decode("utf-8", "replace").splitlines()
        except OSError:
            return "(no %s)" % path
        return "\n".join(lines[-n:])

    def diagnostics(self):
        parts = ["--- stack.sh output:\n" + self.script_output(40)]
        logdir = os.path.join(self.var or "/nonexistent", "log")
        if os.path.isdir(logdir):
            for name in sorted(os.listdir(logdir)):
                parts.append("--- %s (tail):\n%s" % (name, self.tail(name, 25)))
        return "\n".join(parts)

    # -- files of the running stack
    def path(self, *parts):
        return os.path.join(self.var, *parts)

    def config(self):
        """`$VAR/placard.conf` as a dict (lines `key = value`; `#` comments)."""
        return placard_tokens.read_config(self.path("placard.conf"))

    # -- HTTP
    def http(self, method, path, body=None, headers=None, timeout=HTTP_TIMEOUT):
        """A request to `path` of the contract, under the stack's base path."""
        ca = self.path("tls/cert.pem") if self.tls else None
        return http_request(self.port, method, self.base_path + path, body, headers, timeout, ca)

    @property
    def origin(self):
        return "%s://127.0.0.1:%d" % ("https" if self.tls else "http", self.port)

    # -- SQL
    def db(self, sql, timeout=30):
        proc = subprocess.run(
            ["mariadb", "--defaults-file=%s" % self.path("my.cnf"), "-u", "root", "placard",
             "--default-character-set=utf8mb4", "--batch", "--skip-column-names", "-e", sql],
            stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
        if proc.returncode != 0:
            raise RuntimeError("SQL failed (%d): %s\n%s" % (proc.returncode, sql[:500],
                                                           proc.stderr.decode("utf-8", "replace")))
        text = proc.stdout.decode("utf-8", "replace")
        return [line.split("\t") for line in text.splitlines()]


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


def http_request(port, method, path, body=None, headers=None, timeout=HTTP_TIMEOUT, ca=None):
    """One request on a fresh connection. Returns (status, {lower-case header: value}, body bytes).
    With `ca` (a certificate file), over HTTPS, verifying the server against that certificate.

    Repeated headers are joined with ", ". If the server answers and closes before the whole
    body was sent (e.g. an early 413), the answer is still read."""
    if isinstance(body, str):
        body = body.encode("utf-8")
    if ca:
        ctx = ssl.create_default_context(cafile=ca)
        conn = httpclient.HTTPSConnection("127.0.0.1", port, timeout=timeout, context=ctx)
    else:
        conn = httpclient.HTTPConnection("127.0.0.1", port, timeout=timeout)
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


# --------------------------------------------------------------------------------------------
# What a browser sends when it follows a link (the click answers HTML to it).
BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


# The current stack (module level, so tests can call harness.http(...) etc.)

_current = None
_current_lock = threading.RLock()
_owned = False  # started lazily by ensure_stack (stop at exit)


def set_stack(stack):
    global _current
    _current = stack


def current():
    return ensure_stack()


def ensure_stack():
    """The stack of this run; starts one (and its fixtures) if the tests run without run.py."""
    global _current, _owned
    with _current_lock:
        if _current is None:
            st = Stack(os.environ.get("SERVER", "lighttpd"))
            _current = st
            _owned = True
            atexit.register(_stop_owned)
            if threading.current_thread() is threading.main_thread():
                # SIGTERM: exit normally so that atexit stops the stack.
                signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
            st.start()
            load_fixtures(st)
        return _current


def _stop_owned():
    if _owned and _current is not None:
        _current.stop()
        _current.cleanup()


def http(method, path, body=None, headers=None, timeout=HTTP_TIMEOUT):
    return current().http(method, path, body, headers, timeout)


def db(sql):
    return current().db(sql)


def bump():
    current().db("UPDATE catalog_version SET version=version+1 WHERE id=1")


def config():
    return current().config()


def var_path(*parts):
    return current().path(*parts)


def get_json(path, headers=None):
    st, h, b = http("GET", path, headers=headers)
    return st, h, b


def post_json(path, obj, headers=None):
    hdrs = {"Content-Type": "application/json"}
    hdrs.update(headers or {})
    body = obj if isinstance(obj, (bytes, str)) else json.dumps(obj)
    return http("POST", path, body, hdrs)


# --------------------------------------------------------------------------------------------
# Offer queries

MISSING = object()
BASE_QUERY = {"country": "DE", "placement": "wide", "extensionVersion": "1.4.2"}


def query_body(**fields):
    body = dict(BASE_QUERY)
    for k, v in fields.items():
        if v is MISSING:
            body.pop(k, None)
        else:
            body[k] = v
    return body


def query(headers=None, **fields):
    return post_json("/api/v1/offers/query", query_body(**fields), headers)


def query_offers(**fields):
    """Offers of a successful query (asserts 200)."""
    st, h, b = query(**fields)
    if st != 200:
        raise AssertionError("query %r answered %d: %r" % (fields, st, b[:300]))
    return json.loads(b)["offers"]


def impression(token, headers=None):
    return post_json("/api/v1/events/impression", {"impressionToken": token}, headers)


# --------------------------------------------------------------------------------------------
# Tokens (format: see lib/tokens/token.h and the brief)

b64u = placard_tokens.b64u
b64u_decode = placard_tokens.b64u_decode
decode_token = placard_tokens.decode
IMPRESSION, CLICK = placard_tokens.IMPRESSION, placard_tokens.CLICK


def token_keys():
    """({kid: key bytes}, active kid) from placard.conf."""
    return placard_tokens.token_keys(config())


def mint_token(kind, offer_id, country="DE", placement="wide", issued_at=None, kid=None,
               key=None, nonce=None):
    keys, active = token_keys()
    kid = active if kid is None else kid
    key = keys[kid] if key is None else key
    issued_at = int(time.time()) if issued_at is None else int(issued_at)
    return placard_tokens.mint(kind, kid, key, offer_id, country, placement, issued_at, nonce)


def token_from_click_url(url):
    m = re.fullmatch(r"/r/click/(\d+)\?t=([A-Za-z0-9_.~-]+)", url)
    if not m:
        raise AssertionError("clickUrl not of the form /r/click/<id>?t=<token>: %r" % url)
    return m.group(2)


def rows_for_nonce(table, nonce):
    rows = db("SELECT COUNT(*) FROM %s WHERE token_nonce = UNHEX('%s')" % (table, nonce.hex()))
    return int(rows[0][0])


# --------------------------------------------------------------------------------------------
# Settings

DEFAULT_SETTINGS = {
    "available": "true",
    "refreshIntervalSeconds": "900",
    "minExtensionVersion": "1.0.0",
    "allowedClientOrigins": "[]",
    "tokenTtlSeconds": "86400",
    "publicOrigin": "",
}


def sql_str(value):
    if value is None:
        return "NULL"
    return "'" + str(value).replace("\\", "\\\\").replace("'", "''") + "'"


def set_setting(name, value, do_bump=True):
    db("INSERT INTO settings (name, value) VALUES (%s, %s) ON DUPLICATE KEY UPDATE value=VALUES(value), "
       "updated_at=UTC_TIMESTAMP()" % (sql_str(name), sql_str(value)))
    if do_bump:
        bump()


def fetch_config():
    st, h, b = http("GET", "/api/v1/config")
    if st != 200:
        return None
    return json.loads(b)


def wait_config(pred, timeout=5.0):
    return wait_until(lambda: (lambda c: c is not None and pred(c))(fetch_config()), timeout)


def settle():
    """After a change became visible on one request, give every worker time to catch up."""
    time.sleep(0.6)


# --------------------------------------------------------------------------------------------
# Fixtures: the suite's own catalog (ids >= 1000), loaded once per stack.

COUNTRIES = [("US", "United States", 1), ("DE", "Germany", 1), ("FR", "France", 1),
             ("GB", "United Kingdom", 0), ("IT", "Italy", 0)]
SELECTED_COUNTRIES = ["DE", "FR", "US"]

# id, name, max_offers, enabled
PLACEMENTS = [(1000, "sidebar", 3, 1), (1001, "popup-main", 6, 1), (1002, "banner-off", 5, 0),
              (1003, "wide", 20, 1)]
CONFIG_PLACEMENTS = [{"name": "popup-main", "maxOffers": 6}, {"name": "sidebar", "maxOffers": 3},
                     {"name": "wide", "maxOffers": 20}]

FASHION_NAME = 'Mode & Stil \u2013 \u00c4pfel "quoted" <b>'

# id, path, parent id, name, icon, display order, enabled
CATEGORIES = [
    (1000, "electronics", None, "Electronics", "plug", 10, 1),
    (1001, "electronics.phones", 1000, "Phones", "phone", 20, 1),
    (1002, "electronics.audio", 1000, "Audio", "headphones", 10, 1),
    (1003, "electronics.audio.headphones", 1002, "Headphones", "headset", 5, 1),
    (1004, "electronics.audio.headphones.wireless", 1003, "Wireless", "wifi", 0, 1),
    (1005, "electronics.tv", 1000, "TV", "tv", 15, 0),
    (1006, "electronics.tv.oled", 1005, "OLED", "oled", 1, 1),
    (1007, "electronics.cameras", 1000, "Cameras", "camera", 20, 1),
    (1008, "fashion", None, FASHION_NAME, "shirt", 5, 1),
    (1009, "books", None, "Books", "book", 10, 1),
    (1010, "garden", None, "Garden", "leaf", 1, 0),
    (1011, "garden.tools", 1010, "Tools", "wrench", 1, 1),
    (1012, "toggle", None, "Toggle", "switch", 60, 1),
    (1013, "toggle.child", 1012, "Toggle child", "dot", 1, 1),
    (1014, "rotation", None, "Rotation", "refresh", 70, 1),
    (1015, "rotation.equal", 1014, "Equal", "equals", 1, 1),
    (1016, "bulk", None, "Bulk", "boxes", 80, 1),
    (1017, "clicks", None, "Clicks", "cursor", 90, 1),
    (1018, "timing", None, "Timing", "clock", 95, 1),
    (1019, "empty", None, "Empty", "", 100, 1),
]
CAT_ID = {c[1]: c[0] for c in CATEGORIES}

NOW = "UTC_TIMESTAMP()"


def _offer(id, category, priority=0, network="manual", title=None, description=None, merchant=None,
           image=None, coupon=None, enabled=1, demo=0, tracking="default", valid_from=None,
           valid_until=None, countries=("DE",)):
    if tracking == "default":
        tracking = None if demo else "https://merchant.example/o/%d" % id
    return dict(id=id, category=category, priority=priority, network=network,
                title=title or "Offer %d" % id, description=description, merchant=merchant,
                image=image, coupon=coupon, enabled=enabled, demo=demo, tracking=tracking,
                valid_from=valid_from, valid_until=valid_until, countries=countries)


OFFERS = [
    # electronics subtree (DE unless said otherwise); priorities distinct => order is exact
    _offer(1000, "electronics.phones", 10, tracking="https://shop.example/phones?ref=placard",
           countries=("DE", "FR")),
    _offer(1001, "electronics.audio.headphones", 8, network="admitad", title="Headphones 20% off",
           description="Over-ear, noise cancelling", merchant="Acme Audio",
           image="https://cdn.example/1001.png", coupon="ACME20",
           tracking="https://ad.admitad.example/g/1001abc/", valid_until="'2030-12-31 23:59:59'"),
    _offer(1002, "electronics.audio.headphones.wireless", 7, network="awin",
           tracking="https://www.awin1.example/cread.php?awinmid=7&awinaffid=9"),
    _offer(1003, "electronics.cameras", 6, countries=("DE", "US")),
    _offer(1004, "electronics.audio", 5, demo=1, title="Demo audio offer"),
    _offer(1005, "electronics", 9, enabled=0),
    _offer(1006, "electronics", 9, valid_until=NOW + " - INTERVAL 1 DAY"),
    _offer(1007, "electronics", 9, valid_from=NOW + " + INTERVAL 10 DAY"),
    _offer(1008, "electronics.tv", 9),
    _offer(1009, "electronics.tv.oled", 9),
    _offer(1010, "electronics", 4, countries=("FR",)),
    _offer(1011, "electronics", 3, valid_from=NOW + " - INTERVAL 1 DAY",
           valid_until=NOW + " + INTERVAL 30 DAY"),
    _offer(1012, "electronics", 2, valid_from=NOW + " - INTERVAL 1 HOUR"),
    _offer(1014, "books", 1),
    _offer(1015, "books", 0, countries=("FR",)),
    _offer(1016, "garden.tools", 50, countries=("FR",)),
    # rotation
    _offer(1100, "rotation", 9),
    _offer(1101, "rotation.equal", 5),
    _offer(1102, "rotation.equal", 5),
    _offer(1103, "rotation.equal", 5),
    _offer(1104, "rotation.equal", 5),
    _offer(1105, "rotation", 1),
]
# bulk: 25 offers, priorities 0..9 with ties
OFFERS += [_offer(1200 + i, "bulk", (i * 7) % 10) for i in range(25)]
# clicks and impressions
OFFERS += [
    _offer(1300, "clicks", tracking="https://merchant.example/landing?a=1&b=2"),
    _offer(1301, "clicks", network="admitad", tracking="https://ad.admitad.example/g/1301/"),
    _offer(1302, "clicks", network="admitad",
           tracking="https://ad.admitad.example/g/1302/?ulp=https%3A%2F%2Fm.example%2F"),
    _offer(1303, "clicks", network="awin",
           tracking="https://www.awin1.example/cread.php?awinmid=1&awinaffid=2"),
    _offer(1304, "clicks", network="awin", tracking="https://awin.example/c/1304"),
    _offer(1305, "clicks", tracking="https://merchant.example/1305"),
    _offer(1306, "clicks", tracking="https://merchant.example/1306",
           valid_until=NOW + " - INTERVAL 1 HOUR"),
    _offer(1307, "clicks", demo=1, title="Demo click offer"),
    _offer(1308, "clicks", tracking="javascript:alert(1)"),
    _offer(1309, "clicks", tracking="http://merchant.example/plain"),
    _offer(1310, "clicks", tracking="https://merchant.example/1310"),
    _offer(1311, "clicks", tracking="https://merchant.example/1311"),
]
OFFER = {o["id"]: o for o in OFFERS}


def fixture_sql():
    stmts = [
        "SET FOREIGN_KEY_CHECKS=0",
        "DELETE FROM offer_countries",
        "DELETE FROM offers",
        "DELETE FROM categories",
        "DELETE FROM placements",
        "SET FOREIGN_KEY_CHECKS=1",
        "UPDATE countries SET selected=0",
    ]
    for code, name, sel in COUNTRIES:
        stmts.append("INSERT INTO countries (code, name, selected) VALUES (%s, %s, %d) "
                     "ON DUPLICATE KEY UPDATE selected=VALUES(selected)" % (sql_str(code), sql_str(name), sel))
    for pid, name, mx, en in PLACEMENTS:
        stmts.append("INSERT INTO placements (id, name, max_offers, enabled) VALUES (%d, %s, %d, %d)"
                     % (pid, sql_str(name), mx, en))
    for cid, path, parent, name, icon, order, en in CATEGORIES:
        stmts.append("INSERT INTO categories (id, path, parent_id, name, icon, display_order, enabled) "
                     "VALUES (%d, %s, %s, %s, %s, %d, %d)"
                     % (cid, sql_str(path), "NULL" if parent is None else parent, sql_str(name),
                        sql_str(icon), order, en))
    for o in OFFERS:
        stmts.append(offer_insert_sql(o))
    for name, value in DEFAULT_SETTINGS.items():
        stmts.append("INSERT INTO settings (name, value) VALUES (%s, %s) ON DUPLICATE KEY UPDATE "
                     "value=VALUES(value)" % (sql_str(name), sql_str(value)))
    stmts.append("UPDATE catalog_version SET version=version+1 WHERE id=1")
    return ";\n".join(stmts) + ";"


def offer_insert_sql(o):
    sql = ("INSERT INTO offers (id, network, external_id, title, description, merchant, image_url, "
           "coupon_code, category_id, priority, enabled, is_demo, tracking_url, valid_from, valid_until) "
           "VALUES (%d, %s, %s, %s, %s, %s, %s, %s, %d, %d, %d, %d, %s, %s, %s)"
           % (o["id"], sql_str(o["network"]),
              "NULL" if o["network"] == "manual" else sql_str("ext-%d" % o["id"]),
              sql_str(o["title"]), sql_str(o["description"]), sql_str(o["merchant"]),
              sql_str(o["image"]), sql_str(o["coupon"]), CAT_ID[o["category"]], o["priority"],
              o["enabled"], o["demo"], sql_str(o["tracking"]), o["valid_from"] or "NULL",
              o["valid_until"] or "NULL"))
    for c in o["countries"]:
        sql += ";\nINSERT INTO offer_countries (offer_id, country_code) VALUES (%d, %s)" % (o["id"], sql_str(c))
    return sql


ELECTRONICS_DE = ["1000", "1001", "1002", "1003", "1004", "1011", "1012"]


def fixtures_visible():
    c = fetch_config()
    if not c or c.get("placements") != CONFIG_PLACEMENTS or c.get("countries") != SELECTED_COUNTRIES:
        return False
    st, _, b = query(category="electronics")
    return st == 200 and [o["id"] for o in json.loads(b)["offers"]] == ELECTRONICS_DE


# A stack started for a test class and no longer used by one, kept for the next class that needs
# a fresh stack (stopped at exit, or by stop_spare()).
_spare = None
_spares_stopped_at_exit = []


class Borrowed:
    """A fresh stack for a test class: the stack that runs already (the run's, or a spare one)
    reset to a fresh database on its MariaDB (Stack.reset), or a new one when none runs. give_back()
    returns the run's stack to what it was (server, TLS, a fresh database with the fixtures when it
    had them) or keeps a new one as the spare."""

    def __init__(self, server="lighttpd", tls=False, conf=None):
        global _spare
        self.host = None
        self.was = None  # (server, TLS, fixtures) of the run's stack, to give it back as it was
        for st in (_spare, _current):
            if st is not None and st.started and not st._stopped:
                self.host = st
                break
        if self.host is None:
            self.stack = Stack(server, tls=tls, conf=conf)
            try:
                self.stack.start()
            except BaseException:
                self.stack.stop()
                self.stack.cleanup()
                raise
            return
        if self.host is _spare:
            _spare = None
        else:
            self.was = (self.host.server, self.host.tls, self.host.fixtures_loaded,
                        {k: v for k, v in self.host.conf.items() if TEST_CONF.get(k) != v})
        self.stack = self.host
        self.stack.reset(server, tls, conf or {})

    def give_back(self):
        global _spare
        if self.was is None:
            if self.stack.started and not self.stack._stopped:
                if not _spares_stopped_at_exit:
                    atexit.register(stop_spare)
                    _spares_stopped_at_exit.append(True)
                _spare = self.stack
            return
        server, tls, fixtures, conf = self.was
        self.stack.reset(server, tls, conf)
        if fixtures:
            load_fixtures(self.stack)


def stop_spare():
    """Stops the spare stack; returns its sanitizer reports."""
    global _spare
    st, _spare = _spare, None
    if st is None:
        return []
    st.stop()
    st.cleanup()
    return st.sanitizer_reports


class StackTestCase(unittest.TestCase):
    """A test class with a fresh stack (Borrowed: the running stack reset to a fresh database, or a
    new one): SERVER picks the web server, FIXTURES whether the suite's fixtures are loaded, and
    prepare_stack() may change the stack before that."""

    SERVER = "lighttpd"
    FIXTURES = True
    TLS = False
    CONF = None  # placard.conf keys of this stack (added to TEST_CONF)

    @classmethod
    def setUpClass(cls):
        cls.borrowed = Borrowed(cls.SERVER, tls=cls.TLS, conf=cls.CONF)
        cls.stack = cls.borrowed.stack
        set_stack(cls.stack)
        cls.prepare_stack()
        if cls.FIXTURES:
            load_fixtures(cls.stack)

    @classmethod
    def prepare_stack(cls):
        pass

    @classmethod
    def tearDownClass(cls):
        cls.borrowed.give_back()


def load_fixtures(stack=None):
    st = stack or current()
    st.db(fixture_sql())
    st.fixtures_loaded = True
    if not wait_until(fixtures_visible, timeout=15, interval=0.1):
        # Not fatal here: tests will fail with their own messages.
        log("fixtures not visible through the API after 15 s")
        return False
    settle()
    return True


# --------------------------------------------------------------------------------------------
# Assertions

NO_FIELD = None  # the error must not carry `field`
ANY_FIELD = object()  # do not check `field`

LEAK_PATTERNS = [
    re.compile(p, re.I) for p in (
        r"\bselect\b.+\bfrom\b", r"\binsert\s+into\b", r"\bupdate\s+\w+\s+set\b", r"\bsqlstate\b",
        r"\bmysql", r"\bmariadb", r"\bsyntax\b.*\bsql\b", r"/work/", r"/tmp/", r"/usr/", r"/home/",
        r"\.cpp\b", r"\.h:\d+", r"std::", r"what\(\)", r"terminate called", r"Traceback",
        r"stack trace", r"\bat 0x[0-9a-f]+", r"token\.keys", r"\bpassword\b",
    )
]


class E2ETestCase(unittest.TestCase):
    maxDiff = 4000

    @classmethod
    def setUpClass(cls):
        ensure_stack()

    def assertJsonResponse(self, resp, status=200):
        st, h, b = resp
        self.assertEqual(st, status, "status; body=%r" % b[:400])
        self.assertEqual(h.get("content-type"), JSON_CT, "Content-Type")
        self.assertTrue(h.get("x-request-id", "").strip(), "X-Request-Id missing: %r" % h)
        try:
            return json.loads(b.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            self.fail("body is not JSON (%s): %r" % (e, b[:400]))

    def assertError(self, resp, status, code, field=ANY_FIELD):
        doc = self.assertJsonResponse(resp, status)
        self.assertIsInstance(doc, dict)
        self.assertEqual(list(doc.keys()), ["error"], "envelope: %r" % doc)
        err = doc["error"]
        self.assertIsInstance(err, dict)
        self.assertTrue(set(err) <= {"code", "message", "field"}, "error keys: %r" % err)
        self.assertEqual(err.get("code"), code, "error code; body=%r" % doc)
        self.assertIsInstance(err.get("message"), str)
        self.assertTrue(err["message"].strip(), "empty message")
        if field is NO_FIELD:
            self.assertNotIn("field", err, "error should not name a field: %r" % err)
        elif field is not ANY_FIELD:
            self.assertEqual(err.get("field"), field, "error field; body=%r" % doc)
        self.assertNoLeak(resp[2])
        return err

    def assertNoLeak(self, body):
        text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
        for pat in LEAK_PATTERNS:
            self.assertIsNone(pat.search(text), "response leaks internals (%s): %r" % (pat.pattern, text[:400]))


def header_tokens(value):
    return [t.strip().lower() for t in (value or "").split(",") if t.strip()]


def with_timeout_handler():
    """Make SIGTERM raise KeyboardInterrupt (so `finally` blocks stop the stack)."""
    def handler(signum, frame):
        raise KeyboardInterrupt("signal %d" % signum)
    signal.signal(signal.SIGTERM, handler)
