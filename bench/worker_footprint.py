#!/usr/bin/env python3
"""A worker process's start time and memory, as a shared host sees them (mod_fcgid starts a
process for the first visitor after every quiet spell, often inside a per-account memory limit):

- start: from the exec of placard.fcgi (one thread, its own listening socket) to its first
  answer to GET /api/v1/config over FastCGI;
- VmRSS and VmHWM (peak) after that first answer, and after N sign-ins one after another
  (POST /admin/api/v1/session: one scrypt hash each, 128 MiB while it runs).

Prints one line `BENCHFOOT {json}` (make bench's footprint step; scripts/bench.sh).

    python3 bench/worker_footprint.py --fcgi build/placard.fcgi --config VAR/placard.conf \
        --password-file VAR/admin-password [--email admin@placard.local] [--sign-ins 20]
"""

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
import fcgi_client  # noqa: E402
import proc_info  # noqa: E402


def fastcgi(port, method, uri, headers=None, body=b"", timeout=30):
    """One FastCGI request (responder role); returns (status, body bytes)."""
    env = {"REQUEST_METHOD": method, "REQUEST_URI": uri, "SCRIPT_NAME": "", "QUERY_STRING": "",
           "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "127.0.0.1",
           "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "80", "GATEWAY_INTERFACE": "CGI/1.1"}
    if body:
        env.update(CONTENT_TYPE="application/json", CONTENT_LENGTH=str(len(body)))
    for name, value in (headers or {}).items():
        env["HTTP_" + name.upper().replace("-", "_")] = value
    return fcgi_client.cgi_status(fcgi_client.request(port, env, body, timeout))


def status_kb(pid, field):
    value = proc_info.status_kb(pid, field)
    if value is None:
        raise RuntimeError("no %s for pid %d" % (field, pid))
    return value


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fcgi", required=True)
    parser.add_argument("--config", required=True)
    parser.add_argument("--password-file", required=True)
    parser.add_argument("--email", default="admin@placard.local")
    parser.add_argument("--sign-ins", type=int, default=20)
    args = parser.parse_args()
    with open(args.password_file) as f:
        password = f.read().strip()
    origin = "http://127.0.0.1"
    with open(args.config) as f:
        lines = [line for line in f if not line.startswith("listen")]
    for line in lines:
        key, _, value = line.partition("=")
        if key.strip() == "public_origin" and value.strip():
            origin = value.strip()
    tmp = tempfile.mkdtemp(prefix="placard-footprint-")
    conf = os.path.join(tmp, "placard.conf")
    with open(os.open(conf, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as f:
        f.writelines(lines)
    port = free_port()
    started = time.monotonic()
    worker = subprocess.Popen([args.fcgi, "--config", conf, "--listen", "127.0.0.1:%d" % port,
                               "--threads", "1"], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        first = None
        while first is None and time.monotonic() - started < 60:
            if worker.poll() is not None:
                raise RuntimeError("placard.fcgi exited %d: %s" % (
                    worker.returncode, worker.stderr.read().decode(errors="replace")[-2000:]))
            try:
                status, _ = fastcgi(port, "GET", "/api/v1/config", timeout=10)
                if status == 200:
                    first = time.monotonic() - started
            except OSError:
                time.sleep(0.005)
        if first is None:
            raise RuntimeError("no answer to GET /api/v1/config within 60 s")
        result = {"start_ms": round(first * 1000, 1),
                  "rss_start_kb": status_kb(worker.pid, "VmRSS"),
                  "hwm_start_kb": status_kb(worker.pid, "VmHWM"), "sign_ins": args.sign_ins}
        body = json.dumps({"email": args.email, "password": password}).encode()
        headers = {"Origin": origin, "X-Service-Mark": "admin"}
        t0 = time.monotonic()
        for _ in range(args.sign_ins):
            status, payload = fastcgi(port, "POST", "/admin/api/v1/session", headers, body)
            if status != 200:
                raise RuntimeError("sign-in answered %d: %r" % (status, payload[:300]))
        result.update(sign_in_ms=round((time.monotonic() - t0) * 1000 / max(1, args.sign_ins), 1),
                      rss_after_sign_ins_kb=status_kb(worker.pid, "VmRSS"),
                      hwm_after_sign_ins_kb=status_kb(worker.pid, "VmHWM"))
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=10)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
        os.unlink(conf)
        os.rmdir(tmp)
    print("BENCHFOOT " + json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
