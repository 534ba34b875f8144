"""How every cluster script is bounded and ends (cluster.py, galera.py, scaling.py): a time limit
and the signals that stop it, a failed run recorded with the tail of the logs that say why, and
the topology removed whatever happened."""

import signal

import common as C  # tests/resilience, on the path the scripts set


def bound(name, seconds):
    """SIGTERM, SIGINT, SIGHUP and, after `seconds`, SIGALRM end the run with SystemExit (so the
    clean-up in the caller's finally still runs)."""
    def on_signal(signum, frame):
        why = "time limit reached" if signum == signal.SIGALRM else "signal %d" % signum
        raise SystemExit("%s: %s" % (name, why))
    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGALRM):
        signal.signal(s, on_signal)
    signal.alarm(seconds)


def record_failure(checks, topo, exc, logs):
    """The run's failure as a check, and the last 15 lines of each of `logs` (paths under the
    topology's directory) in the output."""
    checks.add("run", "the run completed", False, ("%s: %s" % (type(exc).__name__, exc))[:500])
    for name in logs:
        try:
            with open(topo.path(name), errors="replace") as f:
                C.log("--- %s\n%s" % (name, "".join(f.readlines()[-15:])))
        except OSError:
            pass


def clean_up(topo, keep):
    """No signal interrupts the clean-up; every process stopped, the namespaces deleted."""
    signal.alarm(0)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    topo.cleanup(keep_dir=keep)
    C.log("cleaned up: processes stopped, namespaces deleted%s"
          % (", kept " + topo.dir if keep else ", directory removed"))
