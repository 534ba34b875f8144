"""Issue 15, finding 3: only the web server may speak FastCGI to the worker. Whoever connects to
the worker's socket can claim any `HTTPS`, `REMOTE_ADDR` or `Host`, so the socket belongs to the
worker's user with the web server's group, mode 0660 (under mod_fcgid, its sockets sit in a
directory only Apache's user may enter), and another local user is refused."""

import grp
import os
import pwd
import stat
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness as H  # noqa: E402

OTHER_USER = "placard-e2e-other"

CONNECT = ("import socket, sys\n"
           "s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n"
           "try:\n"
           "    s.connect(sys.argv[1])\n"
           "except PermissionError:\n"
           "    sys.exit(13)\n"
           "sys.exit(0)\n")


def other_user():
    """A local user that is neither the worker's nor the web server's (created when missing)."""
    try:
        pwd.getpwnam(OTHER_USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                        "--user-group", OTHER_USER], check=True, capture_output=True, timeout=30)
    return OTHER_USER


# The system's Python: the one running the tests may live where other users cannot reach.
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


def connect_as(user, path):
    """Exit status of a connect() to the unix socket `path` as `user`: 0 connected, 13 refused."""
    proc = subprocess.run(["runuser", "-u", user, "--", PYTHON, "-c", CONNECT, path],
                          capture_output=True, timeout=30)
    if proc.returncode not in (0, 13):
        raise AssertionError("connect as %s failed otherwise (%d): %r" % (user, proc.returncode, proc.stderr))
    return proc.returncode


def web_server_group():
    st = H.current()
    if st.server.startswith("apache") and os.getuid() == 0:
        return "www-data"
    return grp.getgrgid(os.getgid()).gr_name


class SocketAccessTests(H.E2ETestCase):
    def setUp(self):
        if os.getuid() != 0:
            self.skipTest("needs root to create and switch to another local user")

    def worker_socket(self):
        path = H.current().path("run", "placard.sock")
        if H.current().server == "apache-fcgid":
            self.skipTest("mod_fcgid makes its own sockets (see the fcgid directory test)")
        return path

    def test_the_socket_is_the_workers_with_the_web_servers_group_mode_0660(self):
        path = self.worker_socket()
        st = os.lstat(path)
        self.assertTrue(stat.S_ISSOCK(st.st_mode))
        self.assertEqual(stat.S_IMODE(st.st_mode), 0o660, oct(st.st_mode))
        with open(H.current().path("run", "placard.pid")) as f:
            worker_pid = int(f.read().strip())
        self.assertEqual(st.st_uid, os.stat("/proc/%d" % worker_pid).st_uid)
        self.assertEqual(grp.getgrgid(st.st_gid).gr_name, web_server_group())

    def test_another_local_user_cannot_connect(self):
        path = self.worker_socket()
        self.assertEqual(connect_as(other_user(), path), 13)
        if web_server_group() == "www-data":
            self.assertEqual(connect_as("www-data", path), 0)  # Apache's children still can
        self.assertEqual(H.http("GET", "/api/v1/config")[0], 200)

    def test_mod_fcgid_sockets_sit_where_only_apache_goes(self):
        if H.current().server != "apache-fcgid":
            self.skipTest("only under mod_fcgid")
        directory = H.current().path("run", "fcgid")
        self.assertEqual(H.http("GET", "/api/v1/config")[0], 200)  # a worker (and socket) exists
        st = os.stat(directory)
        self.assertEqual(stat.S_IMODE(st.st_mode), 0o700)
        self.assertEqual(pwd.getpwuid(st.st_uid).pw_name, "www-data")
        user = other_user()
        listing = subprocess.run(["runuser", "-u", user, "--", "ls", directory],
                                 capture_output=True, timeout=30)
        self.assertNotEqual(listing.returncode, 0)
        for name in os.listdir(directory):
            full = os.path.join(directory, name)
            if stat.S_ISSOCK(os.lstat(full).st_mode):
                self.assertNotEqual(connect_as(user, full), 0, full)
