"""The tests/bench scripts' entry point: unittest.main, and with `--summary FILE` the
{"passed": N, "failed": M} line that scripts/run-tests.sh's suites write."""

import sys
import unittest


def run():
    """Runs the calling module's tests; the process's exit code (0: all passed)."""
    summary = None
    if len(sys.argv) == 3 and sys.argv[1] == "--summary":
        summary = sys.argv[2]
    result = unittest.main(module="__main__", argv=sys.argv[:1], exit=False, verbosity=2).result
    failed = len(result.failures) + len(result.errors)
    if summary:
        with open(summary, "w") as f:
            f.write('{"passed": %d, "failed": %d}\n' % (result.testsRun - failed, failed))
    return 1 if failed else 0
