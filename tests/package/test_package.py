#!/usr/bin/env python3
"""The Debian package, installed as docs/operations.md says, in a fresh Debian 12 root.

Builds the .deb (dpkg-buildpackage -us -uc, lintian without errors) from a copy of the source,
and a newer one (version bumped, one test-only migration more). Then, for Apache and for
lighttpd, in a copy of a debootstrap'd minbase root (cached under build/pkgtest/ per day):
installs the .deb with the web server and MariaDB from Debian, follows the recipe (placardctl
setup, a2enconf / lighty-enable-mod), starts MariaDB (no TCP: the chroot shares the host's
loopback), the worker as the unit's ExecStart says (as its User, Group and
SupplementaryGroups) and the web server on a free 127.0.0.1 port, and checks the public API, an
admin sign-in and the admin page through it; then installs the newer .deb over it: the migration
applied by the upgrade, the data and the session kept, the service back after a restart.
No systemd runs here: nothing is started by the packages (policy-rc.d in the root).

    python3 tests/package/test_package.py [--servers apache,lighttpd] [--summary FILE]
Every process it starts is stopped and every mount undone on any exit.
"""

import argparse
import datetime
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORK = os.path.join(ROOT, "build", "pkgtest")
EMAIL = "you@example.com"  # as in docs/operations.md
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"  # root's on Debian

checks = []          # (name, ok, detail)
processes = []       # Popen objects to stop
mounts = []          # mount points to undo (last first)


def log(msg):
    print("package: " + msg, flush=True)


def check(name, ok, detail=""):
    checks.append((name, bool(ok), detail))
    log("%s %s%s" % ("PASS" if ok else "FAIL", name, (": " + detail) if detail and not ok else ""))
    return bool(ok)


def run(cmd, timeout=900, check_rc=True, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    if check_rc and proc.returncode != 0:
        raise RuntimeError("%s failed (%d):\n%s\n%s" % (
            " ".join(cmd), proc.returncode, proc.stdout[-3000:], proc.stderr[-3000:]))
    return proc


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def mirror():
    """The Debian mirror this machine's apt uses (never a name written here)."""
    with open("/etc/apt/sources.list.d/debian.sources") as f:
        for line in f:
            if line.startswith("URIs:"):
                return line.split()[1]
    raise RuntimeError("no URIs: in /etc/apt/sources.list.d/debian.sources")


# ---- the packages -------------------------------------------------------------------------

def copy_source(dest):
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    files = run(["git", "-C", ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard"]
                ).stdout.split("\0")
    for rel in files:
        if not rel or rel.startswith(("node_modules/", "build/")) or not os.path.isfile(
                os.path.join(ROOT, rel)):
            continue
        os.makedirs(os.path.join(dest, os.path.dirname(rel)), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, rel), os.path.join(dest, rel))
    shutil.copytree(os.path.join(ROOT, "node_modules", "uplot"),
                    os.path.join(dest, "node_modules", "uplot"))


def build_deb(src):
    """dpkg-buildpackage -us -uc in src; the .deb's path."""
    proc = run(["dpkg-buildpackage", "-us", "-uc"], cwd=src, timeout=3000, check_rc=False)
    with open(src + ".build.log", "w") as f:
        f.write(proc.stdout + proc.stderr)
    if proc.returncode != 0:
        raise RuntimeError("dpkg-buildpackage failed, see %s.build.log" % src)
    parent = os.path.dirname(src)
    debs = sorted(n for n in os.listdir(parent)
                  if n.startswith("placard_") and n.endswith("_amd64.deb"))
    return [os.path.join(parent, n) for n in debs]


def newest_migration(sql_dir):
    return max(int(n[:4]) for n in os.listdir(sql_dir) if n[:4].isdigit() and n.endswith(".sql"))


def make_v2(v2_src):
    """The newer build's source: this tree's, one migration more, version 0.9.1."""
    copy_source(v2_src)
    number = newest_migration(os.path.join(v2_src, "sql")) + 1
    with open(os.path.join(v2_src, "sql", "%04d_package_test.sql" % number), "w") as f:
        f.write("-- Only in the package test's newer build.\n"
                "CREATE TABLE IF NOT EXISTS package_test_marker (id INT PRIMARY KEY);\n"
                "INSERT IGNORE INTO package_test_marker VALUES (1);\n")
    path = os.path.join(v2_src, "debian", "changelog")
    with open(path) as f:
        old = f.read()
    with open(path, "w") as f:
        f.write("placard (0.9.1) bookworm; urgency=medium\n\n  * Package test: one migration more."
                "\n\n -- Placard maintainers <placard-maintainers@example.org>  %s\n\n" %
                time.strftime("%a, %d %b %Y %H:%M:%S +0000", time.gmtime()) + old)
    with open(os.path.join(v2_src, "VERSION"), "w") as f:
        f.write("0.9.1\n")
    return number


# ---- the root -----------------------------------------------------------------------------

def base_root():
    """A debootstrap'd minbase bookworm, made once a day (kept under build/pkgtest/)."""
    base = os.path.join(WORK, "base-" + datetime.datetime.utcnow().strftime("%Y%m%d"))
    if not os.path.isdir(base):
        log("debootstrap --variant=minbase bookworm (cached as %s)" % base)
        shutil.rmtree(base + ".tmp", ignore_errors=True)
        run(["debootstrap", "--variant=minbase", "bookworm", base + ".tmp", mirror()], timeout=900)
        os.rename(base + ".tmp", base)
    return base


def mount(*args):
    target = args[-1]
    run(["mount"] + list(args))
    mounts.append(target)


def unmount_all():
    while mounts:
        subprocess.run(["umount", "-l", mounts.pop()], capture_output=True)


def stop_all():
    while processes:
        p = processes.pop()
        if p.poll() is None:
            p.terminate()
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(5)


KEEP = []  # --keep: the roots stay under build/pkgtest/ for a look afterwards


def discard(root):
    """The root's copy (about 1 GB) goes once nothing is mounted in it."""
    if not KEEP and not mounts:
        shutil.rmtree(root.dir, ignore_errors=True)


class Root:
    def __init__(self, name, policy=True):
        self.dir = os.path.join(WORK, "root-" + name)
        subprocess.run(["umount", "-R", "-l", self.dir + "/proc"], capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)
        run(["cp", "-a", base_root(), self.dir], timeout=600)
        mount("-t", "proc", "proc", self.dir + "/proc")
        archives = os.path.join(WORK, "apt-archives")
        os.makedirs(os.path.join(archives, "partial"), exist_ok=True)
        mount("--bind", archives, self.dir + "/var/cache/apt/archives")
        shutil.copy("/etc/resolv.conf", self.dir + "/etc/resolv.conf")
        if policy:  # nothing started by package scripts (no systemd here either)
            with open(self.dir + "/usr/sbin/policy-rc.d", "w") as f:
                f.write("#!/bin/sh\nexit 101\n")
            os.chmod(self.dir + "/usr/sbin/policy-rc.d", 0o755)
        self.pids = []

    def sh(self, script, timeout=900, check_rc=True, stdin=None):
        env = {"PATH": PATH, "DEBIAN_FRONTEND": "noninteractive",
               "LANG": "C.UTF-8", "HOME": "/root"}
        return run(["chroot", self.dir, "/bin/sh", "-ec", script], timeout=timeout,
                   check_rc=check_rc, env=env, input=stdin)

    def put(self, path):
        shutil.copy(path, self.dir + "/tmp/")
        return "/tmp/" + os.path.basename(path)

    def start(self, argv, userspec=None, groups=None, name="proc"):
        cmd = ["chroot"]
        if userspec:
            cmd += ["--userspec=" + userspec]
        if groups:
            cmd += ["--groups=" + groups]
        out = open(os.path.join(WORK, name + ".out"), "ab")
        p = subprocess.Popen(cmd + [self.dir] + argv, stdout=out, stderr=subprocess.STDOUT,
                             env={"PATH": PATH, "LANG": "C.UTF-8"},
                             start_new_session=True)
        processes.append(p)
        return p

    def stop(self, p):
        if p.poll() is None:
            p.terminate()
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
        if p in processes:
            processes.remove(p)


def wait_for(pred, seconds, what):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if pred():
            return True
        time.sleep(0.3)
    raise RuntimeError("timed out waiting for " + what)


# ---- HTTP ---------------------------------------------------------------------------------

def http(port, method, path, body=None, headers=None):
    req = urllib.request.Request("http://127.0.0.1:%d%s" % (port, path), method=method,
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers=headers or {})
    if body is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=15) as r:
            return r.status, dict((k.lower(), v) for k, v in r.headers.items()), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict((k.lower(), v) for k, v in e.headers.items()), e.read()


def sign_in(port, password):
    st, h, raw = http(port, "POST", "/admin/api/v1/session", {"email": EMAIL, "password": password},
                      {"Origin": "http://127.0.0.1:%d" % port, "X-Service-Mark": "admin"})
    m = re.match(r"((?:__Host-)?placard_session=[^;]*)", h.get("set-cookie", ""))
    return st, (m.group(1) if m else None)


def smoke(server, port, password, cookie=None):
    """The public API, a sign-in and the admin page through the web server; the new cookie."""
    st, _, raw = http(port, "GET", "/api/v1/config")
    check("%s: GET /api/v1/config" % server, st == 200 and b"placements" in raw, "%s %r" % (st, raw[:200]))
    st, _, raw = http(port, "GET", "/api/v1/categories")
    check("%s: GET /api/v1/categories" % server, st == 200, "%s %r" % (st, raw[:200]))
    st, h, raw = http(port, "GET", "/admin/")
    check("%s: admin page" % server, st == 200 and b"<html" in raw.lower()
          and "frame-ancestors 'none'" in h.get("content-security-policy", ""), "%s %r" % (st, h))
    st, _, raw = http(port, "GET", "/admin/vendor/uPlot.esm.js")
    check("%s: admin page's chart library" % server, st == 200 and len(raw) > 10000, str(st))
    if cookie:
        st, _, raw = http(port, "GET", "/admin/api/v1/session", headers={"Cookie": cookie})
        check("%s: the session from before the upgrade still valid" % server, st == 200,
              "%s %r" % (st, raw[:200]))
    st, new_cookie = sign_in(port, password)
    check("%s: admin sign-in" % server, st == 200 and new_cookie, str(st))
    return new_cookie


# ---- one web server -----------------------------------------------------------------------

def exec_start(root, unit_path):
    """The worker's command line, user and groups, and its runtime directory (the path under
    /run and its mode), as the unit says."""
    unit = {}
    with open(root.dir + unit_path) as f:
        for line in f:
            if "=" in line and not line.startswith("#"):
                k, v = line.rstrip("\n").split("=", 1)
                unit[k] = v
    return unit["ExecStart"].split(), unit["User"], unit["Group"], unit.get(
        "SupplementaryGroups", ""), "/run/" + unit["RuntimeDirectory"], unit.get("RuntimeDirectoryMode", "0755")


def verify_unit(root, server, unit_path):
    """systemd-analyze verify on the shipped unit (systemd does not run here; its program path
    pointed into the root)."""
    tmp = os.path.join(WORK, "unit-check")
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    with open(root.dir + unit_path) as f:
        text = f.read()
    with open(os.path.join(tmp, "placard.service"), "w") as f:
        f.write(re.sub(r"^ExecStart=/", "ExecStart=" + root.dir + "/", text, flags=re.M))
    proc = run(["systemd-analyze", "verify", os.path.join(tmp, "placard.service")], check_rc=False)
    check("%s: systemd-analyze verify of the unit" % server,
          proc.returncode == 0 and "placard.service" not in proc.stderr, proc.stderr)


def start_worker(root, unit_path="/lib/systemd/system/placard.service"):
    argv, user, group, groups, rundir, mode = exec_start(root, unit_path)
    # RuntimeDirectory= (placard): systemd makes /run/placard at every start.
    root.sh("install -d -m %s -o %s -g %s %s" % (mode, user, group, rundir))
    p = root.start(argv, userspec="%s:%s" % (user, group), groups=groups or None, name="worker")
    wait_for(lambda: os.path.exists(root.dir + "/run/placard/placard.sock") or p.poll() is not None,
             30, "the worker's socket")
    if p.poll() is not None:
        raise RuntimeError("the worker exited (see build/pkgtest/worker.out)")
    return p


def start_mariadb(root):
    root.sh("install -d -m 0755 -o mysql -g mysql /run/mysqld")
    p = root.start(["/usr/sbin/mariadbd", "--user=mysql", "--skip-networking",
                    "--socket=/run/mysqld/mysqld.sock"], name="mariadb")
    wait_for(lambda: root.sh("mariadb-admin ping", check_rc=False).returncode == 0
             or p.poll() is not None, 60, "MariaDB")
    return p


def configure_web(root, server, port):
    if server == "apache":
        # Test-only: Apache on a free loopback port instead of *:80.
        root.sh("sed -i 's/^Listen 80$/Listen 127.0.0.1:%d/; /Listen 443/d' /etc/apache2/ports.conf;"
                "sed -i 's/<VirtualHost \\*:80>/<VirtualHost *:%d>/' "
                "/etc/apache2/sites-available/000-default.conf" % (port, port))
        return None
    # Test-only: lighttpd on a free loopback port, no [::] socket (use-ipv6.pl) beside it.
    root.sh("sed -i -e 's/^server.port *=.*/server.port = %d\\nserver.bind = \"127.0.0.1\"/' "
            "-e '/use-ipv6.pl/d' /etc/lighttpd/lighttpd.conf" % port)
    return None


def start_web(root, server, port):
    if server == "apache":
        root.sh("apache2ctl configtest")
        root.sh("apache2ctl start")
        p = None
    else:
        root.sh("lighttpd -tt -f /etc/lighttpd/lighttpd.conf")
        p = root.start(["/usr/sbin/lighttpd", "-D", "-f", "/etc/lighttpd/lighttpd.conf"],
                       name="lighttpd")
    wait_for(lambda: http_up(port), 30, server)
    return p


def stop_web(root, server, p, port):
    if server == "apache":
        root.sh("apache2ctl stop", check_rc=False)
        wait_for(lambda: not http_up(port), 30, "Apache to stop")
    elif p:
        root.stop(p)


def http_up(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


DOC = os.path.join(ROOT, "docs", "operations.md")


def doc_block(heading, index=0):
    """The lines of the index-th ```sh block under "## heading" in docs/operations.md, without
    comments: the commands the recipes run word for word."""
    with open(DOC) as f:
        text = f.read()
    start = text.index("\n## " + heading)
    end = text.find("\n## ", start + 4)
    section = text[start:end if end > 0 else len(text)]
    blocks = re.findall(r"```sh\n(.*?)\n\s*```", section, re.S)
    lines = []
    for raw in blocks[index].splitlines():
        line = re.sub(r"\s+#.*$", "", raw).strip()
        if line:
            lines.append(line)
    return lines


def own_origin(lines, port):
    """The recipe's example origin (https://example.com) as this test's web server answers."""
    return [line.replace("https://example.com", "http://127.0.0.1:%d" % port) for line in lines]


def follow(root, lines, deb=None, src=None, after_install=None):
    """Runs a recipe's lines in the root. What needs systemd (systemctl) is left out (the test
    starts the processes as the unit says); `make ...` runs on this machine, `make install` into
    the root (DESTDIR); `apt install` non-interactively; consecutive other lines as one script.
    Returns what `placardctl setup` printed."""
    setup_out, script = "", []

    def flush():
        if script:
            root.sh("\n".join(script), timeout=600)
            del script[:]
    for line in lines:
        line = re.sub(r"\s*&&\s*systemctl .*$", "", line)
        if line.startswith("systemctl"):
            continue
        if line.startswith("make"):
            m = re.match(r"make install PREFIX=(\S+)$", line)
            if m:
                run(["make", "-s", "install", "BUILD=build/deb", "CXX=ccache g++",
                     "PREFIX=" + m.group(1), "DESTDIR=" + root.dir], cwd=src, timeout=1200)
            continue
        if line.startswith("apt install"):
            flush()
            if deb:
                line = re.sub(r"\./placard_\S+\.deb", root.put(deb), line)
            root.sh(line.replace("apt install", "apt-get install -y -q --no-install-recommends"),
                    timeout=1500)
            if after_install:
                after_install()
            continue
        if line.startswith("placardctl setup"):
            flush()
            setup_out = root.sh(line).stdout
            continue
        script.append(line)
    flush()
    return setup_out


def recipe(server, deb1, deb2, v2_migration):
    port = free_port()
    root = Root(server)
    web = None
    try:
        web_pkg = "apache2" if server == "apache" else "lighttpd"
        log("%s: installing the package with %s and MariaDB" % (server, web_pkg))
        root.sh("apt-get update -qq")
        state = {}

        def installed():
            st = os.stat(root.dir + "/etc/placard")
            check("%s: install made /etc/placard root:placard 0750 and no config" % server,
                  oct(st.st_mode & 0o777) == "0o750" and not os.path.exists(
                      root.dir + "/etc/placard/placard.conf"))
            state["db"] = start_mariadb(root)  # what systemd does after apt install
        if server == "apache":
            lines = doc_block("The Debian package beside Apache sites", 1)
        else:
            lines = doc_block("lighttpd")
        lines = own_origin(lines, port)
        out = follow(root, lines, deb=deb1, after_install=installed)
        db = state["db"]
        m = re.search(r"admin password \(shown once[^:]*\): (\S+)", out)
        check("%s: placardctl setup created the first admin" % server, m, out)
        password = m.group(1)
        again = root.sh([n for n in lines if n.startswith("placardctl setup")][0])
        check("%s: placardctl setup again changes nothing" % server,
              "exists, kept" in again.stdout and "password unchanged" in again.stdout
              and "grants: already right" in again.stdout, again.stdout)
        st = os.stat(root.dir + "/etc/placard/placard.conf")
        grp = root.sh("stat -c %U:%G /etc/placard/placard.conf").stdout.strip()
        check("%s: config 0640 root:placard" % server,
              oct(st.st_mode & 0o777) == "0o640" and grp == "root:placard", grp)
        configure_web(root, server, port)
        verify_unit(root, server, "/lib/systemd/system/placard.service")
        worker = start_worker(root)
        web = start_web(root, server, port)
        cookie = smoke(server, port, password)

        # The upgrade recipe: back up, install the newer package (its postinst migrates), restart.
        root.sh("mariadb-dump --single-transaction --routines placard > /root/placard-before.sql")
        out = root.sh("apt-get install -y -q --no-install-recommends %s" % root.put(deb2),
                      timeout=600).stdout
        check("%s: the upgrade applied the new migration" % server,
              "%04d_package_test.sql" % v2_migration in out, out[-1500:])
        root.stop(worker)
        worker = start_worker(root)
        chk = root.sh("placardctl check").stdout
        check("%s: schema version after the upgrade" % server,
              "schema version %d" % v2_migration in chk, chk)
        row = root.sh("mariadb -N -e 'SELECT id FROM placard.package_test_marker'").stdout.strip()
        check("%s: the new migration's row" % server, row == "1", row)
        cookie = smoke(server, port, password, cookie)

        # docs/operations.md "Keys": a new token key added and made active.
        follow(root, ["cd /root"] + doc_block("Keys"))
        keys = root.sh("placardctl config get token.keys").stdout.strip()
        active = root.sh("placardctl config get token.active_key").stdout.strip()
        check("%s: key rotation: two keys, the new one active" % server,
              keys.count(":") == 2 and keys.split(",")[1].startswith(active + ":"), active)
        root.stop(worker)
        worker = start_worker(root)
        smoke(server, port, password, cookie)

        # docs/operations.md "Back up and restore": dump and config, then a lost database and
        # runtime user brought back (a dump holds neither the user nor its grants).
        follow(root, ["cd /root"] + doc_block("Back up and restore", 0))
        root.stop(worker)
        root.sh("mariadb -e \"DROP DATABASE placard; DROP USER 'placard'@'localhost'\"")
        follow(root, ["cd /root"] + doc_block("Back up and restore", 1))
        check("%s: restored: placardctl check" % server,
              "schema version %d" % v2_migration in root.sh("placardctl check").stdout)
        worker = start_worker(root)
        smoke(server, port, password, cookie)
        stop_web(root, server, web, port)
        web = None
        root.stop(worker)
        root.stop(db)

        # Remove keeps the config; purge removes config, state and logs.
        root.sh("apt-get remove -y -q placard")
        check("%s: remove keeps /etc/placard/placard.conf" % server,
              os.path.exists(root.dir + "/etc/placard/placard.conf"))
        root.sh("apt-get purge -y -q placard")
        check("%s: purge removes /etc/placard, /var/lib/placard, /var/log/placard" % server,
              not any(os.path.exists(root.dir + d) for d in
                      ("/etc/placard", "/var/lib/placard", "/var/log/placard")))
        # Unconfigured, an upgrade touches no database (MariaDB is stopped now).
        root.sh("apt-get install -y -q --no-install-recommends %s" % root.put(deb1))
        out = root.sh("apt-get install -y -q --no-install-recommends %s" % root.put(deb2)).stdout
        check("%s: an unconfigured upgrade runs no migration" % server,
              "applying" not in out and "placardctl migrate" not in out, out[-1500:])
    finally:
        if web is not None or server == "apache":
            try:
                stop_web(root, server, web, port)
            except Exception:  # noqa: BLE001 -- cleaning up after a failure
                pass
        stop_all()
        unmount_all()
        discard(root)


def manual(src):
    """docs/operations.md "Manual install from `make install`", with Apache, in a fresh root."""
    server = "manual"
    port = free_port()
    root = Root(server)
    try:
        root.sh("apt-get update -qq")
        state = {}
        out = follow(root, own_origin(doc_block("Manual install from `make install`"), port), src=src,
                     after_install=lambda: state.update(db=start_mariadb(root)))
        m = re.search(r"admin password \(shown once[^:]*\): (\S+)", out)
        check("manual: placardctl setup created the first admin", m, out)
        grp = root.sh("stat -c %a:%U:%G /etc/placard/placard.conf").stdout.strip()
        check("manual: config 0640 root:placard", grp == "640:root:placard", grp)
        configure_web(root, "apache", port)
        verify_unit(root, server, "/etc/systemd/system/placard.service")
        worker = start_worker(root, "/etc/systemd/system/placard.service")
        start_web(root, "apache", port)
        smoke(server, port, m.group(1))
        stop_web(root, "apache", None, port)
        root.stop(worker)
        out = run(["make", "-s", "uninstall", "BUILD=build/deb", "PREFIX=/usr/local",
                   "DESTDIR=" + root.dir], cwd=src).stdout
        check("manual: make uninstall removes the programs and share/placard, keeps the config",
              not os.path.exists(root.dir + "/usr/local/sbin/placardctl")
              and not os.path.exists(root.dir + "/usr/local/share/placard")
              and os.path.exists(root.dir + "/etc/placard/placard.conf"), out)
        root.stop(state["db"])
    finally:
        try:
            root.sh("apache2ctl stop", check_rc=False)
        except Exception:  # noqa: BLE001 -- cleaning up after a failure
            pass
        stop_all()
        unmount_all()
        discard(root)


def deps_groups():
    """scripts/deps.sh in a fresh root: build brings no server, run brings them disabled at boot."""
    root = Root("deps", policy=False)  # deps.sh brings its own
    try:
        shutil.copy(os.path.join(ROOT, "scripts", "deps.sh"), root.dir + "/root/deps.sh")
        root.sh("bash /root/deps.sh build", timeout=1500)
        servers = ("mariadb-server", "lighttpd", "apache2", "chromium")
        installed = root.sh("dpkg-query -W -f '${Package} ${db:Status-Abbrev}\\n' %s || true"
                            % " ".join(servers)).stdout
        check("deps build: no server or browser installed", " ii" not in installed, installed)
        # Test-only: an npm on the PATH, so that deps.sh skips Debian's (hundreds of node-*
        # packages, minutes) — the servers and their boot links are what is checked here.
        root.sh("printf '#!/bin/sh\\nexit 0\\n' > /usr/bin/npm && chmod 755 /usr/bin/npm")
        # Two at once, as `make -j` starts the groups' installs side by side: the second waits
        # for the first (one apt-get at a time) and then finds nothing missing. Without that
        # lock one of them failed on apt's own lock on a fresh machine.
        both = root.sh("bash /root/deps.sh run > /tmp/deps-a.log 2>&1 & a=$!; "
                       "bash /root/deps.sh run > /tmp/deps-b.log 2>&1 & b=$!; "
                       "ra=0; rb=0; wait $a || ra=$?; wait $b || rb=$?; echo $ra $rb; "
                       "cat /tmp/deps-a.log /tmp/deps-b.log | grep -i 'lock' || true",
                       timeout=1500)
        check("deps run twice at once: both succeed", both.stdout.split()[:2] == ["0", "0"],
              both.stdout[-2000:])
        wants = root.dir + "/etc/systemd/system/multi-user.target.wants"
        enabled = sorted(os.listdir(wants)) if os.path.isdir(wants) else []
        started = root.sh("ls /etc/rc2.d 2>/dev/null || true").stdout.split()
        names = ("apache2", "lighttpd", "mariadb", "mysql")
        check("deps run: the servers it installed are not enabled at boot",
              not any(n.startswith(names) for n in enabled)
              and not any(n.startswith("S") and n[3:] in names for n in started),
              "%s %s" % (enabled, started))
        check("deps run: its temporary policy-rc.d removed",
              not os.path.exists(root.dir + "/usr/sbin/policy-rc.d"))
        check("deps run: nothing left running", not root.sh(
            "ls /run/mysqld/mysqld.pid /run/lighttpd.pid /run/apache2/apache2.pid 2>/dev/null || true"
        ).stdout.strip())
    finally:
        stop_all()
        unmount_all()
        discard(root)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--servers", default="apache,lighttpd,manual")
    ap.add_argument("--no-deps", action="store_true", help="skip the scripts/deps.sh check")
    ap.add_argument("--keep", action="store_true", help="keep the roots under build/pkgtest/")
    ap.add_argument("--summary")
    ap.add_argument("--build", help="ignored (the .deb builds its own tree)")
    args = ap.parse_args()
    if args.keep:
        KEEP.append(True)
    if os.geteuid() != 0:
        sys.exit("package test: needs root (debootstrap, chroot, mount)")
    # What is installed into the fresh roots is a release build: `make test SANITIZE=...` passes
    # SANITIZE to every make below through MAKEFLAGS, and a sanitizer build needs libasan, which a
    # fresh Debian root does not have (placardctl failed to load there).
    for name in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "SANITIZE"):
        os.environ.pop(name, None)
    os.makedirs(WORK, exist_ok=True)

    def on_signal(signum, _frame):
        stop_all()
        unmount_all()
        sys.exit(128 + signum)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        v1 = os.path.join(WORK, "v1", "src")
        v2 = os.path.join(WORK, "v2", "src")
        for d in (os.path.dirname(v1), os.path.dirname(v2)):
            shutil.rmtree(d, ignore_errors=True)
        copy_source(v1)
        log("dpkg-buildpackage -us -uc (0.9.0)")
        debs = build_deb(v1)
        check("dpkg-buildpackage built the .deb", debs, str(debs))
        lint = run(["lintian", "--tag-display-limit", "0", debs[0]], check_rc=False, timeout=600)
        errors = [line for line in lint.stdout.splitlines() if line.startswith("E:")]
        check("lintian: no errors", not errors, "\n".join(errors))
        deb1 = debs[0]
        migration = make_v2(v2)
        log("dpkg-buildpackage -us -uc (0.9.1, migration %04d)" % migration)
        deb2 = build_deb(v2)[0]
        base_root()
        if not args.no_deps:
            try:
                deps_groups()
            except Exception as e:  # noqa: BLE001
                check("deps: ran to the end", False, str(e)[-3000:])
        for server in args.servers.split(","):
            try:
                if server == "manual":
                    manual(v1)
                else:
                    recipe(server, deb1, deb2, migration)
            except Exception as e:  # noqa: BLE001 -- one failed check, then the next server
                check("%s: recipe ran to the end" % server, False, str(e)[-3000:])
    except Exception as e:  # noqa: BLE001
        check("package built", False, str(e)[-3000:])
    finally:
        stop_all()
        unmount_all()
    passed = sum(1 for c in checks if c[1])
    failed = len(checks) - passed
    if args.summary:
        with open(args.summary, "w") as f:
            json.dump({"passed": passed, "failed": failed}, f)
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
