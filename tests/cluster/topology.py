"""The machinery of `make cluster-test`: network namespaces, MariaDB, two web hosts, haproxy.

Addresses: 10.253.25.0/24, used ONLY inside the network namespaces this module creates. Nothing
is added to the root namespace (no address, no route, no bridge, no forwarding, no NAT), and the
namespaces have no default route: nothing in them can reach anything outside them.

    ns <p>-lb   bridge br0 10.253.25.1/24, haproxy on 127.0.0.1:<port> (the namespace's own
                loopback); the test process itself joins this namespace (setns) after setup
    ns <p>-db   10.253.25.2: MariaDB primary (port 3306, and its unix socket for placardctl)
    ns <p>-db2  10.253.25.3: MariaDB replica (GTID replication from the primary); the hosts
                read their catalog snapshots there when cluster.py sets db.read_* (extra_conf)
    ns <p>-h1   10.253.25.11: lighttpd + placard.fcgi (supervisor, WORKERS processes)
    ns <p>-h2   10.253.25.12: the same binaries, the same config but for the socket and log

Everything is removed by Topology.cleanup(): processes (by PID, SIGTERM then SIGKILL), the
namespaces (their veths and the bridge go with them) and the temporary directory.
"""

import ctypes
import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
import harness as H  # noqa: E402
import test_metrics as M  # noqa: E402  (the exposition parser)

NET = "10.253.25."  # the private /24; see the module's docstring
LB_IP, DB_IP, REPLICA_IP = NET + "1", NET + "2", NET + "3"
HOST_IPS = {"h1": NET + "11", "h2": NET + "12"}
# The hosts' config keys for GET /metrics, asked from the balancer's namespace (where the tests run).
METRICS_CONF = {"metrics.enabled": "true", "metrics.allow": LB_IP}
DB_PORT = 3306  # inside the db namespace only
CLONE_NEWNET = 0x40000000


def log(msg):
    sys.stderr.write("[%s] %s\n" % (time.strftime("%H:%M:%S"), msg))
    sys.stderr.flush()


def within(bound, fn, interval=0.02):
    """Seconds until fn() held (polled), or None if not within `bound`."""
    t0 = time.monotonic()
    while True:
        if fn():
            return time.monotonic() - t0
        if time.monotonic() - t0 > bound:
            return None
        time.sleep(interval)


def within_each(since, bound, targets, fn):
    """{target.name: seconds from `since` (a change made then) until fn(target) held, or None if
    not within `bound` of it}: every target timed from the change, not from the end of the wait
    for the one before."""
    seen = {}
    for t in targets:
        ok = within(max(0.0, bound - (time.monotonic() - since)), lambda t=t: fn(t))
        seen[t.name] = None if ok is None else time.monotonic() - since
    return seen


def run(*cmd, check=True, timeout=60, **kw):
    p = subprocess.run(list(cmd), capture_output=True, timeout=timeout, **kw)
    if check and p.returncode != 0:
        err = p.stderr.decode("utf-8", "replace")[-2000:]
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), p.returncode, err))
    return p


class Topology:
    def __init__(self, build, workers=2, threads=8):
        self.build = os.path.abspath(build)
        self.workers, self.threads = workers, threads
        self.prefix = "plc25-%d" % os.getpid()
        self.dir = tempfile.mkdtemp(prefix="plc25-", dir="/tmp")
        os.chmod(self.dir, 0o755)
        self.namespaces = []  # created, in order
        self.procs = []  # (name, Popen)
        self.port = H.free_port()  # lighttpd's port in each host namespace (isolated)
        self.lb_port = H.free_port()  # haproxy's, on the lb namespace's loopback
        self.public_origin = "http://127.0.0.1:%d" % self.lb_port
        self.db_sock = os.path.join(self.dir, "db", "mysql.sock")

    def ns(self, name):
        return "%s-%s" % (self.prefix, name)

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    # -- network ------------------------------------------------------------------------------
    @staticmethod
    def sweep_stale():
        """Namespaces of an earlier run that was SIGKILLed (plc25-<pid>-*, that pid gone):
        removed. Processes in them died with that run's process group or are killed here."""
        out = run("ip", "netns", "list", check=False).stdout.decode()
        for line in out.splitlines():
            m = re.match(r"(plc25-(\d+)-\w+)", line)
            if m and not os.path.exists("/proc/" + m.group(2)):
                for pid in run("ip", "netns", "pids", m.group(1), check=False).stdout.split():
                    os.kill(int(pid), signal.SIGKILL)
                run("ip", "netns", "del", m.group(1), check=False)
                log("removed the stale namespace %s" % m.group(1))

    def make_network(self):
        self.sweep_stale()
        lb = self.ns("lb")
        for name in ("lb", "db", "db2", "h1", "h2"):
            run("ip", "netns", "add", self.ns(name))
            self.namespaces.append(self.ns(name))
            run("ip", "-n", self.ns(name), "link", "set", "lo", "up")
        run("ip", "-n", lb, "link", "add", "br0", "type", "bridge")
        run("ip", "-n", lb, "addr", "add", LB_IP + "/24", "dev", "br0")
        run("ip", "-n", lb, "link", "set", "br0", "up")
        for name, ip in (("db", DB_IP), ("db2", REPLICA_IP), ("h1", HOST_IPS["h1"]),
                         ("h2", HOST_IPS["h2"])):
            # The pair is created inside lb, then one end moves to the host's namespace: no
            # interface of this test ever exists in the root namespace.
            run("ip", "-n", lb, "link", "add", "v-" + name, "type", "veth", "peer", "name", "eth0")
            run("ip", "-n", lb, "link", "set", "eth0", "netns", self.ns(name))
            run("ip", "-n", lb, "link", "set", "v-" + name, "master", "br0", "up")
            run("ip", "-n", self.ns(name), "addr", "add", ip + "/24", "dev", "eth0")
            run("ip", "-n", self.ns(name), "link", "set", "eth0", "up")

    def enter_lb(self):
        """This process (and what it starts from now on) joins the lb namespace: its sockets reach
        haproxy on 127.0.0.1 and the hosts on 10.253.25.0/24, and nothing else."""
        libc = ctypes.CDLL(None, use_errno=True)
        fd = os.open("/var/run/netns/" + self.ns("lb"), os.O_RDONLY)
        try:
            if libc.setns(fd, CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), "setns into %s failed" % self.ns("lb"))
        finally:
            os.close(fd)

    # -- processes ----------------------------------------------------------------------------
    def spawn(self, name, ns, argv, logfile):
        out = open(logfile, "ab")
        p = subprocess.Popen(["ip", "netns", "exec", self.ns(ns)] + argv, stdout=out,
                             stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        out.close()
        self.procs.append((name, p))
        return p

    def wait_for(self, what, fn, timeout=30, proc=None):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if fn():
                return
            if proc is not None and proc.poll() is not None:
                raise RuntimeError("%s exited (%s) while starting" % (what, proc.returncode))
            time.sleep(0.1)
        raise RuntimeError("%s not ready within %d s" % (what, timeout))

    # -- MariaDB ------------------------------------------------------------------------------
    def start_db(self, name="db", ip=DB_IP, server_id=1):
        """A MariaDB server in namespace `name`: the primary (binary log, GTIDs) or, with
        server_id > 1, a read-only replica. Returns its my.cnf."""
        d = self.path(name)
        os.makedirs(os.path.join(d, "tmp"))
        sock = os.path.join(d, "mysql.sock")
        role = ("log_bin=%s/binlog\nbinlog_format=ROW\n" % d if server_id == 1 else
                "relay_log=%s/relay\nread_only=1\n" % d)
        cnf = os.path.join(d, "my.cnf")
        with open(cnf, "w") as f:
            f.write("[mysqld]\ndatadir=%s/data\nsocket=%s\npid-file=%s/mariadb.pid\n"
                    "bind-address=%s\nport=%d\nlog-error=%s/mariadb.err\ntmpdir=%s/tmp\n"
                    "character-set-server=utf8mb4\ncollation-server=utf8mb4_unicode_ci\n"
                    "default-time-zone=+00:00\nskip-name-resolve\ninnodb_buffer_pool_size=128M\n"
                    "innodb_flush_log_at_trx_commit=1\ninnodb_spin_wait_delay=0\n"
                    "thread_handling=pool-of-threads\nmax_connections=256\nperformance_schema=OFF\n"
                    "server_id=%d\n%s"
                    "[client]\nsocket=%s\ndefault-character-set=utf8mb4\n"
                    % (d, sock, d, ip, DB_PORT, d, d, server_id, role, sock))
        run("mariadb-install-db", "--defaults-file=" + cnf, "--user=root",
            "--auth-root-authentication-method=socket", "--skip-test-db", timeout=120)
        p = self.spawn("mariadb " + name, name, ["mariadbd", "--defaults-file=" + cnf, "--user=root"],
                       os.path.join(d, "mariadbd.out"))
        self.wait_for("MariaDB " + name, lambda: run("mariadb-admin", "--defaults-file=" + cnf, "-u", "root",
                                                     "--connect-timeout=2", "ping", check=False).returncode == 0,
                      proc=p)
        if server_id == 1:
            self.mycnf = cnf
        return cnf

    def start_replica(self):
        """MariaDB's own GTID replication: a replica in namespace db2 (10.253.25.3) that replays
        the primary's binary log from its first transaction (started before the schema exists,
        so no copy of the data is needed)."""
        password = os.urandom(12).hex()
        self.sql("CREATE USER 'repl'@'%s' IDENTIFIED BY '%s'; GRANT REPLICATION SLAVE ON *.* TO "
                 "'repl'@'%s'" % (REPLICA_IP, password, REPLICA_IP), database="mysql")
        self.replica_cnf = self.start_db("db2", REPLICA_IP, server_id=2)
        self.sql("SET GLOBAL gtid_slave_pos = ''; CHANGE MASTER TO MASTER_HOST = '%s', MASTER_PORT = %d, "
                 "MASTER_USER = 'repl', MASTER_PASSWORD = '%s', MASTER_USE_GTID = slave_pos, "
                 # A lost link is retried each second, not after the default minute.
                 "MASTER_CONNECT_RETRY = 1; START SLAVE"
                 % (DB_IP, DB_PORT, password), database="mysql", cnf=self.replica_cnf)

    def gtid_positions(self):
        """(the primary's gtid_binlog_pos, the replica's gtid_slave_pos)."""
        p = self.sql("SELECT @@gtid_binlog_pos", database="mysql")[0][0]
        r = self.sql("SELECT @@gtid_slave_pos", database="mysql", cnf=self.replica_cnf)[0][0]
        return p, r

    def replica_current(self):
        """The replica has replayed everything the primary wrote."""
        p, r = self.gtid_positions()
        return p == r

    def sql(self, statement, database="placard", cnf=None):
        p = run("mariadb", "--defaults-file=" + (cnf or self.mycnf), "-u", "root", database, "--batch",
                "--skip-column-names", "-e", statement)
        return [line.split("\t") for line in p.stdout.decode("utf-8", "replace").splitlines()]

    # -- schema and configs -------------------------------------------------------------------
    def init_database(self):
        password = os.urandom(18).hex()
        self.sql("CREATE DATABASE placard CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci; "
                 "CREATE USER 'placard'@'%s%%' IDENTIFIED BY '%s'" % (NET, password), database="mysql")
        pwfile = self.path("db-password")
        with open(os.open(pwfile, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
            f.write(password)
        # placardctl's config: the unix socket, root by socket authentication (as stack.sh).
        self.ctl_conf, self.admin_conf = self.path("ctl.conf"), self.path("ctl-admin.conf")
        run(os.path.join(self.build, "placardctl"), "init", "--config", self.ctl_conf,
            "--admin-config", self.admin_conf, "--listen", "unix:" + self.path("unused.sock"),
            "--db-socket", self.db_sock, "--db-name", "placard", "--db-user", "placard",
            "--db-password-file", pwfile, "--db-admin-user", "root",
            "--log-file", self.path("placardctl.log"), "--sql-dir", os.path.join(ROOT, "sql"))
        os.unlink(pwfile)
        self.ctl("migrate")
        self.ctl("grant", "--user", "placard", "--host", NET + "%")
        self.admin_password = os.urandom(12).hex()
        self.ctl("account", "create", "--email", "admin@placard.local", "--approve",
                 stdin=self.admin_password + "\n")
        with open(self.path("admin-password"), "w") as f:
            f.write(self.admin_password + "\n")

    def ctl(self, *args, stdin=None, check=True):
        return run(os.path.join(self.build, "placardctl"), "--config", self.ctl_conf,
                   "--admin-config", self.admin_conf, *args, check=check,
                   input=None if stdin is None else stdin.encode())

    def host_conf(self, name):
        """The same config (keys, secrets) for every host: only the listen socket, the log file
        and the database address differ from placardctl's."""
        hd = self.path(name)
        out = []
        with open(self.ctl_conf) as f:
            for line in f:
                key = line.split("=", 1)[0].strip()
                line = {"listen": "listen = unix:%s/run/placard.sock\n" % hd,
                        "log_file": "log_file = %s/log/placard.log\n" % hd,
                        "db.socket": "db.socket = \n", "db.host": "db.host = %s\n" % DB_IP,
                        "db.port": "db.port = %d\n" % DB_PORT,
                        # Every host is reached at the balancer's origin (browsers see only it).
                        "public_origin": "public_origin = %s\n" % self.public_origin,
                        # Each host's own click journal (never the machine's /var/lib/placard).
                        "journal.dir": "journal.dir = %s/journal\n" % hd}.get(key, line)
                out.append(line)
        # Keys a caller sets (e.g. replica_reads.py: db.read_*), the same on every host.
        extra = dict(getattr(self, "extra_conf", {}))
        out = ["%s = %s\n" % (k, extra.pop(k)) if k in extra else line
               for k, line in ((ln.split("=", 1)[0].strip(), ln) for ln in out)]
        out += ["%s = %s\n" % kv for kv in sorted(extra.items())]
        conf = os.path.join(hd, "placard.conf")
        with open(os.open(conf, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
            f.writelines(out)
        return conf

    def metrics(self, name):
        """{(metric, labels): value} from host `name`'s GET /metrics (one worker process's)."""
        conn = http.client.HTTPConnection(HOST_IPS[name], self.port, timeout=10)
        try:
            conn.request("GET", "/metrics")
            resp = conn.getresponse()
            body = resp.read()
        finally:
            conn.close()
        if resp.status != 200:
            raise RuntimeError("GET /metrics on %s answered %d" % (name, resp.status))
        return M.parse_exposition(body.decode("utf-8"))[0]

    # -- web hosts ----------------------------------------------------------------------------
    def start_host(self, name):
        hd = self.path(name)
        for sub in ("run", "log", "www", "tmp"):
            os.makedirs(os.path.join(hd, sub), exist_ok=True)
        conf = self.host_conf(name)
        sock = os.path.join(hd, "run", "placard.sock")
        w = self.spawn(name + "/placard.fcgi", name,
                       [os.path.join(self.build, "placard.fcgi"), "--config", conf, "--threads",
                        str(self.threads), "--socket-group", "root", "--processes", str(self.workers)],
                       os.path.join(hd, "log", "placard.out"))
        self.wait_for(name + " placard.fcgi socket", lambda: os.path.exists(sock), proc=w)
        # lighttpd-conf/placard.conf.in rendered as scripts/stack.sh renders it; bound to the
        # host's address in its namespace instead of 127.0.0.1.
        with open(os.path.join(ROOT, "lighttpd-conf", "placard.conf.in")) as f:
            text = f.read()
        for k, v in (("@VAR_DIR@", hd), ("@PORT@", str(self.port)), ("@REPO@", ROOT),
                     ("@BUILD@", self.build), ("@THREADS@", str(self.threads)), ("@BASE@", "")):
            text = text.replace(k, v)
        text = text.replace('server.bind          = "127.0.0.1"',
                            'server.bind          = "%s"' % HOST_IPS[name])
        lconf = os.path.join(hd, "lighttpd.conf")
        with open(lconf, "w") as f:
            f.write(text)
        run("lighttpd", "-tt", "-f", lconf)
        self.spawn(name + "/lighttpd", name, ["lighttpd", "-D", "-f", lconf],
                   os.path.join(hd, "log", "lighttpd.out"))

    def start_haproxy(self):
        cfg = self.path("haproxy.cfg")
        servers = "".join("    server %s %s:%d check inter 2s fall 3\n" % (n, ip, self.port)
                          for n, ip in sorted(HOST_IPS.items()))
        with open(cfg, "w") as f:
            # Health checks bounded generously (timeout check 3s, down after 3 failures): on two
            # busy cores a 1 s check took a host out of the pool under the load step.
            f.write("global\n    maxconn 4096\n    stats socket %s mode 600 level admin\n\n"
                    "defaults\n    mode http\n    timeout connect 2s\n    timeout check 3s\n"
                    # A host cut off (make chaos): a failed connect is retried on the other.
                    "    option redispatch\n    retries 2\n"
                    "    timeout client 30s\n    timeout server 30s\n\n"
                    "frontend placard\n    bind 127.0.0.1:%d\n    default_backend hosts\n\n"
                    "backend hosts\n    balance roundrobin\n    option httpchk GET /api/v1/config\n%s"
                    % (self.path("haproxy.stat"), self.lb_port, servers))
        run("haproxy", "-c", "-f", cfg)
        proc = self.spawn("haproxy", "lb", ["haproxy", "-db", "-f", cfg], self.path("haproxy.log"))
        # Its stats socket appears a moment after the start (longer on busy cores): callers may
        # ask it at once.
        self.wait_for("haproxy's stats socket", self._stats_answer, timeout=30, proc=proc)

    def _stats_answer(self):
        try:
            return bool(self.haproxy_command("show info"))
        except OSError:
            return False

    def haproxy_command(self, command):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(5)
            s.connect(self.path("haproxy.stat"))
            s.sendall(command.encode() + b"\n")
            data = b"".join(iter(lambda: s.recv(65536), b""))  # until haproxy closes
        return data.decode("utf-8", "replace")

    def answered(self, field="hrsp_2xx"):
        """{host: 2xx answers haproxy got from it so far} (its stats socket, `show stat`); another
        `field`, e.g. status: that column as text."""
        lines = self.haproxy_command("show stat").splitlines()
        head = lines[0].lstrip("# ").split(",")
        out = {}
        for line in lines[1:]:
            row = dict(zip(head, line.split(",")))
            if row.get("pxname") == "hosts" and row.get("svname") in HOST_IPS:
                v = row.get(field) or "0"
                out[row["svname"]] = int(v) if field != "status" else v
        return out

    # -- cleanup ------------------------------------------------------------------------------
    def cleanup(self, keep_dir=False):
        for name, p in reversed(self.procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 15
        for name, p in reversed(self.procs):
            try:
                p.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log("%s (pid %d) ignored SIGTERM: SIGKILL" % (name, p.pid))
                p.kill()
                p.wait(5)
        self.procs = []
        for ns in reversed(self.namespaces):
            run("ip", "netns", "del", ns, check=False)
        self.namespaces = []
        if not keep_dir:
            shutil.rmtree(self.dir, ignore_errors=True)
