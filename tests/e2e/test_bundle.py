"""The portable bundle (`make bundle`, docs/shared-hosting.md) in a chroot that holds nothing but
the unpacked bundle, a static shell (busybox-static) and the CA file: the programs start through
the bundle's own loader and libraries, placardctl reaches a MariaDB over 127.0.0.1, and a real
request (the worker as CGI) is answered from the database's catalog."""

import glob
import json
import os
import secrets
import shutil
import subprocess
import tarfile
import tempfile
import time
import unittest

try:
    from . import harness as H
except ImportError:  # run as a script from tests/e2e
    import harness as H

BUSYBOX = "/bin/busybox"
CA_FILE = "/etc/ssl/certs/ca-certificates.crt"


def bundle_tarball(build):
    found = sorted(glob.glob(os.path.join(H.ROOT, build, "placard-*-linux-x86_64.tar.gz")))
    if not found:
        raise AssertionError("no bundle under %s/ (make bundle)" % build)
    return found[-1]


class BundleChrootTests(H.StackTestCase):
    """A stack of its own for its MariaDB (StackTestCase restores the run's shared stack
    afterwards)."""

    FIXTURES = True

    @classmethod
    def setUpClass(cls):
        cls.root = None
        super().setUpClass()
        try:
            cls.make_root()
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        try:
            cls.remove_root()
        finally:
            super().tearDownClass()

    @classmethod
    def make_root(cls):
        cls.root = tempfile.mkdtemp(prefix="placard-chroot-", dir="/tmp")
        os.chmod(cls.root, 0o755)
        with tarfile.open(bundle_tarball(cls.stack.build)) as tar:
            top = tar.getnames()[0].split("/")[0]
            tar.extractall(cls.root)
        os.rename(os.path.join(cls.root, top), os.path.join(cls.root, "placard"))
        os.makedirs(os.path.join(cls.root, "bin"))
        shutil.copy2(BUSYBOX, os.path.join(cls.root, "bin", "busybox"))
        for applet in ("sh", "env", "cat"):
            os.symlink("busybox", os.path.join(cls.root, "bin", applet))
        os.makedirs(os.path.join(cls.root, "etc", "ssl", "certs"))
        shutil.copy2(CA_FILE, os.path.join(cls.root, CA_FILE.lstrip("/")))
        os.makedirs(os.path.join(cls.root, "dev"))
        os.makedirs(os.path.join(cls.root, "tmp"), mode=0o1777)
        subprocess.run(["mknod", "-m", "0666", os.path.join(cls.root, "dev", "null"), "c", "1", "3"],
                       check=True)
        # The one database user of a shared host, reached over TCP (no socket in the chroot).
        cls.db_user, cls.db_password = "bundle_" + secrets.token_hex(3), secrets.token_hex(16)
        cls.stack.db("CREATE USER '%s'@'127.0.0.1' IDENTIFIED BY '%s'; "
                     "GRANT ALL ON placard.* TO '%s'@'127.0.0.1'"
                     % (cls.db_user, cls.db_password, cls.db_user, ))
        conf = {}
        with open(cls.stack.path("placard.conf")) as f:
            for line in f:
                if "=" in line and not line.lstrip().startswith("#"):
                    k, v = line.split("=", 1)
                    conf[k.strip()] = v.strip()
        conf.update({"db.socket": "", "db.host": "127.0.0.1", "db.port": str(H._db_port(cls.stack.port)),
                     "db.user": cls.db_user, "db.password": cls.db_password, "listen": "",
                     "log_file": "", "sql_dir": "", "socket_group": ""})
        path = os.path.join(cls.root, "placard", "placard.conf")
        with open(path, "w") as f:
            f.write("".join("%s = %s\n" % kv for kv in conf.items()))
        os.chmod(path, 0o600)

    @classmethod
    def remove_root(cls):
        if cls.root:
            shutil.rmtree(cls.root, ignore_errors=True)

    def chroot(self, *argv, env=None):
        if os.path.basename(os.path.normpath(self.stack.build)).startswith("san"):
            # make test SANITIZE=...: a sanitizer's runtime reads its options and the process's
            # threads from /proc, which this root leaves out on purpose, so every program fails
            # at exit there (LeakSanitizer: "Can't open /proc/N/task"). The same code runs under
            # the sanitizers in every other suite; what this class proves is the bundle's loader
            # and libraries, which the plain build's run checks.
            self.skipTest("a sanitizer build cannot run in a root without /proc")
        cmd = ["chroot", self.root, "/bin/env", "-i", "PATH=/bin"]
        cmd += ["%s=%s" % kv for kv in (env or {}).items()] + list(argv)
        proc = subprocess.run(cmd, capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
        return proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "replace")

    def test_the_root_holds_nothing_of_the_system(self):
        names = sorted(os.listdir(self.root))
        self.assertEqual(names, ["bin", "dev", "etc", "placard", "tmp"])
        self.assertFalse(os.path.exists(os.path.join(self.root, "lib")))
        self.assertFalse(os.path.exists(os.path.join(self.root, "usr")))

    def test_version_through_the_bundled_loader(self):
        rc, out, err = self.chroot("/placard/placard.fcgi", "--version")
        self.assertEqual(rc, 0, err)
        with open(os.path.join(self.root, "placard", "VERSION")) as f:
            version = f.read().strip()
        self.assertIn(version, out.decode())
        rc, out, err = self.chroot("/placard/placardctl", "--version")
        self.assertEqual(rc, 0, err)
        self.assertIn(version, out.decode())

    def test_placardctl_check_reaches_the_database(self):
        rc, out, err = self.chroot("/placard/placardctl", "check")
        self.assertEqual(rc, 0, out.decode() + err)
        # The stack's own workers take the rollup lock for a moment every second; a runner that
        # finds it taken exits 3 ("another rollup runner is at it", docs/operations.md): retried.
        deadline = time.monotonic() + 15
        while True:
            rc, out, err = self.chroot("/placard/placardctl", "rollup")
            if rc != 3 or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        self.assertEqual(rc, 0, out.decode() + err)
        self.assertIn("counted", out.decode())

    def test_a_request_answered_in_the_chroot(self):
        env = {"GATEWAY_INTERFACE": "CGI/1.1", "REQUEST_METHOD": "GET", "REQUEST_URI": H.prefixed("/api/v1/config"),
               "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1", "SERVER_NAME": "127.0.0.1",
               "SERVER_PORT": "80", "HTTP_HOST": "127.0.0.1"}
        rc, out, err = self.chroot("/placard/placard.fcgi", env=env)
        self.assertEqual(rc, 0, err)
        head, _, body = out.partition(b"\r\n\r\n")
        self.assertIn(b"Content-Type: application/json", head)
        doc = json.loads(body)
        self.assertEqual(doc["apiVersion"], 1)
        self.assertEqual(doc["countries"], json.loads(H.http("GET", "/api/v1/config")[2])["countries"])


if __name__ == "__main__":
    unittest.main()
