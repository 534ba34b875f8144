"""The Galera topology of `make cluster-test`: three MariaDB Galera nodes (Debian's galera-4), two
web hosts writing to different nodes, haproxy. Same rules as topology.py (it reuses it): the
addresses 10.253.25.0/24 only inside the namespaces this test creates, nothing in the root
namespace, everything removed at the end.

    ns <p>-lb        bridge br0 10.253.25.1/24, haproxy on 127.0.0.1:<port>; the test joins it
    ns <p>-g1..g3    10.253.25.21-23: MariaDB with wsrep (port 3306; group 4567, IST 4568, SST
                     SST 4444), g1 bootstrapped with --wsrep-new-cluster, g2 and g3 joining it
    ns <p>-h1        10.253.25.11: lighttpd + placard.fcgi, db.host = g1,g3 (g3 when g1 is down)
    ns <p>-h2        10.253.25.12: the same, db.host = g2 (no other node: its journal when g2 is)
"""

import os
import signal
import time

import topology as T
from topology import run

GALERA_IPS = {"g1": T.NET + "21", "g2": T.NET + "22", "g3": T.NET + "23"}
HOST_NODE = {"h1": "g1", "h2": "g2"}
# Another node a host's db.host lists after its own (node_fallback.py); h2 has none.
HOST_FALLBACK = {"h1": "g3"}
PROVIDER = "/usr/lib/galera/libgalera_smm.so"
# A killed node is evicted within a few seconds (the defaults wait up to 15 s), so the
# survivors' writes pause briefly instead of for the default timeouts.
PROVIDER_OPTIONS = ("gcache.size=32M;evs.keepalive_period=PT0.5S;evs.suspect_timeout=PT2S;"
                    "evs.inactive_check_period=PT0.5S;evs.inactive_timeout=PT3S;"
                    "evs.install_timeout=PT3S")


class GaleraTopology(T.Topology):
    def __init__(self, build, workers=2, threads=8):
        super().__init__(build, workers, threads)
        self.node_cnf = {}
        self.node_proc = {}
        self.db_sock = os.path.join(self.dir, "g1", "mysql.sock")

    def make_network(self):
        self.sweep_stale()
        lb = self.ns("lb")
        names = ["lb"] + sorted(GALERA_IPS) + sorted(T.HOST_IPS)
        for name in names:
            run("ip", "netns", "add", self.ns(name))
            self.namespaces.append(self.ns(name))
            run("ip", "-n", self.ns(name), "link", "set", "lo", "up")
        run("ip", "-n", lb, "link", "add", "br0", "type", "bridge")
        run("ip", "-n", lb, "addr", "add", T.LB_IP + "/24", "dev", "br0")
        run("ip", "-n", lb, "link", "set", "br0", "up")
        for name, ip in sorted(list(GALERA_IPS.items()) + list(T.HOST_IPS.items())):
            run("ip", "-n", lb, "link", "add", "v-" + name, "type", "veth", "peer", "name", "eth0")
            run("ip", "-n", lb, "link", "set", "eth0", "netns", self.ns(name))
            run("ip", "-n", lb, "link", "set", "v-" + name, "master", "br0", "up")
            run("ip", "-n", self.ns(name), "addr", "add", ip + "/24", "dev", "eth0")
            run("ip", "-n", self.ns(name), "link", "set", "eth0", "up")

    def start_node(self, name, bootstrap=False):
        """A Galera node in namespace `name`: the data directory made without wsrep, then the
        server started with it (the first with --wsrep-new-cluster; the others join by SST)."""
        d, ip = self.path(name), GALERA_IPS[name]
        os.makedirs(os.path.join(d, "tmp"))
        sock = os.path.join(d, "mysql.sock")
        cnf = os.path.join(d, "my.cnf")
        base = ("[mysqld]\ndatadir=%s/data\nsocket=%s\npid-file=%s/mariadb.pid\nbind-address=%s\n"
                "port=%d\nlog-error=%s/mariadb.err\ntmpdir=%s/tmp\ncharacter-set-server=utf8mb4\n"
                "collation-server=utf8mb4_unicode_ci\ndefault-time-zone=+00:00\nskip-name-resolve\n"
                "innodb_buffer_pool_size=64M\ninnodb_flush_log_at_trx_commit=2\n"
                "performance_schema=OFF\nmax_connections=256\nbinlog_format=ROW\n"
                "default_storage_engine=InnoDB\ninnodb_autoinc_lock_mode=2\n"
                % (d, sock, d, ip, T.DB_PORT, d, d))
        client = "[client]\nsocket=%s\ndefault-character-set=utf8mb4\n" % sock
        with open(cnf, "w") as f:
            f.write(base + client)
        if bootstrap:
            run("mariadb-install-db", "--defaults-file=" + cnf, "--user=root",
                "--auth-root-authentication-method=socket", "--skip-test-db", timeout=120)
        else:
            # A joiner starts empty and gets g1's data by SST (mariabackup: it runs as root and
            # asks the donor over its unix socket, socket authentication).
            os.makedirs(os.path.join(d, "data"))
        wsrep = ("wsrep_on=ON\nwsrep_provider=%s\nwsrep_cluster_name=plc25\n"
                 "wsrep_cluster_address=gcomm://%s\nwsrep_node_address=%s\nwsrep_node_name=%s\n"
                 "wsrep_sst_method=mariabackup\nwsrep_sst_receive_address=%s:4444\n"
                 "wsrep_provider_options=\"%s;gmcast.listen_addr=tcp://%s:4567;ist.recv_addr=%s:4568\"\n"
                 % (PROVIDER, ",".join(sorted(GALERA_IPS.values())), ip, name, ip, PROVIDER_OPTIONS,
                    ip, ip))
        with open(cnf, "w") as f:
            f.write(base + wsrep + client)
        argv = ["mariadbd", "--defaults-file=" + cnf, "--user=root"]
        if bootstrap:
            argv.append("--wsrep-new-cluster")
        p = self.spawn("mariadb " + name, name, argv, os.path.join(d, "mariadbd.out"))
        self.node_cnf[name], self.node_proc[name] = cnf, p
        self.wait_for("Galera node " + name, lambda: self.synced(name), timeout=90, proc=p)
        if bootstrap:
            self.mycnf = cnf
        return cnf

    def status(self, name, variable):
        p = run("mariadb", "--defaults-file=" + self.node_cnf[name], "-u", "root", "--batch",
                "--skip-column-names", "--connect-timeout=2", "-e",
                "SHOW GLOBAL STATUS LIKE '%s'" % variable, check=False, timeout=10)
        parts = p.stdout.decode().split()
        return parts[1] if p.returncode == 0 and len(parts) > 1 else None

    def synced(self, name):
        return (self.status(name, "wsrep_ready") == "ON"
                and self.status(name, "wsrep_local_state_comment") == "Synced")

    def start_cluster(self):
        self.start_node("g1", bootstrap=True)
        for name in ("g2", "g3"):
            self.start_node(name)
        self.wait_for("cluster of 3", lambda: self.status("g1", "wsrep_cluster_size") == "3",
                      timeout=30)

    def kill_node(self, name):
        p = self.node_proc[name]
        p.send_signal(signal.SIGKILL)  # ip netns exec execs mariadbd: this is the server's pid
        p.wait(10)

    def restart_node(self, name):
        """A killed node started again on its data directory: it rejoins (state transfer)."""
        argv = ["mariadbd", "--defaults-file=" + self.node_cnf[name], "--user=root"]
        p = self.spawn("mariadb " + name, name, argv, self.path(name, "mariadbd.out"))
        self.node_proc[name] = p
        self.wait_for("Galera node %s back" % name, lambda: self.synced(name), timeout=90, proc=p)

    def sql(self, statement, database="placard", cnf=None):
        """topology.py's sql(), but a node that answers 1047 (WSREP has not yet prepared node
        for application use: it is between views, e.g. while a joiner's state transfer settles,
        and refused the statement before running it) is asked again, for up to 15 s."""
        deadline = time.monotonic() + 15
        while True:
            try:
                return super().sql(statement, database=database, cnf=cnf)
            except RuntimeError as e:
                if "ERROR 1047" not in str(e) or time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def node_sql(self, name, statement, database="placard"):
        return self.sql(statement, database=database, cnf=self.node_cnf[name])

    def host_conf(self, name):
        """topology.py's host config, with db.host = the host's own Galera node (then its
        fallback node, if it has one)."""
        conf = super().host_conf(name)
        with open(conf) as f:
            text = f.read()
        nodes = [GALERA_IPS[HOST_NODE[name]]] + ([GALERA_IPS[HOST_FALLBACK[name]]]
                                                 if name in HOST_FALLBACK else [])
        text = text.replace("db.host = %s\n" % T.DB_IP, "db.host = %s\n" % ",".join(nodes))
        with open(conf, "w") as f:
            f.write(text)
        return conf
