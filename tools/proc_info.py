"""What Linux's /proc says about a process, for the tests and benchmarks: its status fields
(VmRSS, VmHWM, Threads, Uid), its parent, its children, the processes of one executable.
Python 3 standard library only. A process that is gone reads as empty (None, {}, [])."""

import os


def status(pid):
    """{field: value text} of /proc/PID/status, {} when the process is gone."""
    try:
        with open("/proc/%d/status" % pid) as f:
            return dict(line.rstrip("\n").split(":\t", 1) for line in f if ":\t" in line)
    except OSError:
        return {}


def status_kb(pid, field):
    """A number field of /proc/PID/status (VmRSS, VmHWM: KiB; Threads: a count); None when the
    process is gone."""
    value = status(pid).get(field)
    return int(value.split()[0]) if value else None


def rss_kb(pid):
    return status_kb(pid, "VmRSS")


def threads(pid):
    return status_kb(pid, "Threads")


def ppid(pid):
    """The parent's pid (from /proc/PID/stat), None when the process is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def pids():
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def children(pid):
    """The pids whose parent is `pid`."""
    return [p for p in pids() if ppid(p) == pid]


def tree_rss_kb(top):
    """VmRSS of `top` and its children (a supervisor and its workers), KiB."""
    return sum(rss_kb(p) or 0 for p in [top] + children(top))


def pids_of_exe(exe):
    """Pids of the running processes of that executable."""
    exe = os.path.realpath(exe)
    found = []
    for pid in pids():
        try:
            if os.path.realpath("/proc/%d/exe" % pid) == exe:
                found.append(pid)
        except OSError:
            continue
    return found
