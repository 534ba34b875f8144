"""The e2e stack driver: one real stack (private MariaDB, placard.fcgi, lighttpd or Apache) on
127.0.0.1, driven through `scripts/stack.sh`:

    VAR_DIR=<fresh dir> PORT=<free port> SERVER=lighttpd|apache BUILD=build DEMO_DATA=0 \
        bash scripts/stack.sh start|stop|db-stop|db-start

and the run's current stack (set_stack; fixtures.ensure_stack starts one lazily). Python 3
standard library only.

Environment knobs: SERVER (default lighttpd), BUILD (default build), E2E_PORTS ("lo-hi": pick
the port from that range instead of letting the kernel choose), E2E_KEEP=1 (keep VAR_DIR).
"""

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

from http_client import HTTP_TIMEOUT, http_request, wait_until

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import placard_tokens  # noqa: E402


def keep_sanitizer_report(path, source):
    """Under make test on a sanitizer build (scripts/test-lanes.sh sets PLACARD_SANITIZER_REPORTS):
    a log that may hold a sanitizer report is copied where the suite's reports go; a report in it
    fails the suite, whatever the suite itself checks. For workers the sanitizer options cannot reach (mod_fcgid,
    CGI and suEXEC pass on only the variables they are told to), whose reports land in a log."""
    reports = os.environ.get("PLACARD_SANITIZER_REPORTS")
    if reports and os.path.isdir(reports):
        with contextlib.suppress(OSError):
            shutil.copyfile(path, os.path.join(reports, "%s-%s" % (source, os.path.basename(path))))


def sanitizer_env():
    """This run's sanitizer options (with make test's log_path on a sanitizer build), for a worker
    a test starts with an environment of its own: its reports go where the suite's go."""
    return {k: v for k, v in os.environ.items() if k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS")}


# Sanitizer reports in the worker's output or log files fail the run. The markers, one fixed
# string a line, are also what scripts/test-lanes.sh looks for in a suite's reports.
with open(os.path.join(ROOT, "tests", "sanitizer-report-markers.txt")) as _f:
    SANITIZER_PATTERNS = tuple(line.rstrip("\n") for line in _f if line.strip())


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
            keep_sanitizer_report(path, "stack-%s" % os.path.basename(self.var))
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


# --------------------------------------------------------------------------------------------
# The current stack of the run (module level, so tests can call harness.http(...) etc.)

_current = None
current_lock = threading.RLock()


def set_stack(stack):
    global _current
    _current = stack


def current_stack():
    """The current stack, or None when none was set or started yet."""
    return _current


def with_timeout_handler():
    """Make SIGTERM raise KeyboardInterrupt (so `finally` blocks stop the stack)."""
    def handler(signum, frame):
        raise KeyboardInterrupt("signal %d" % signum)
    signal.signal(signal.SIGTERM, handler)
