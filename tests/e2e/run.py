#!/usr/bin/env python3
"""Runs the end-to-end suite against one web server: one stack for the whole run, the normal
tests first, then the disruptive ones (database outage, SIGTERM). Prints unittest's output,
writes {"passed": N, "failed": M} to --summary, exits non-zero when anything failed.

    python3 tests/e2e/run.py --server lighttpd --summary /tmp/s.json [-k pattern ...]
    python3 tests/e2e/run.py --server apache --scope server    # only what depends on the web server

--scope server runs the classes of SERVER_DEPENDENT below (make test runs the whole suite behind
lighttpd and these behind Apache; docs/testing.md). A new option of one run (e.g. a base path):
add it in add_run_options(); the tests read it as H.run_options.<name>, and scripts/stack.sh
gets what --stack-env NAME=VALUE sets.
"""

import argparse
import json
import os
import re
import signal
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness as H  # noqa: E402
import test_admin_access  # noqa: E402
import test_admin_catalog  # noqa: E402
import test_admin_offers  # noqa: E402
import test_admin_network  # noqa: E402
import test_admin_stats  # noqa: E402
import test_bundle  # noqa: E402
import test_base_path  # noqa: E402
import test_click_journal  # noqa: E402
import test_counting  # noqa: E402
import test_cron  # noqa: E402
import test_foundation  # noqa: E402
import test_frontage  # noqa: E402
import test_hardening  # noqa: E402
import test_metrics  # noqa: E402
import test_https  # noqa: E402
import test_network_adapters  # noqa: E402
import test_network_sync  # noqa: E402
import test_offers  # noqa: E402
import test_security_misc  # noqa: E402
import test_proxy  # noqa: E402
import test_slow_bodies  # noqa: E402
import test_socket_access  # noqa: E402

MODULES = (test_foundation, test_offers, test_admin_access, test_admin_catalog, test_admin_offers,
           test_admin_stats, test_admin_network, test_network_adapters, test_network_sync,
           test_hardening, test_https, test_slow_bodies, test_socket_access, test_counting, test_cron,
           test_bundle, test_security_misc, test_base_path, test_frontage, test_proxy,
           test_click_journal, test_metrics)
LAST = (test_foundation.DatabaseOutageTests, test_foundation.ShutdownTests)

# What the web server takes part in, so what must pass behind each one: how it maps the request
# line and the path to the worker (routing, hostile paths, the request log, request bodies and
# their limits, slow and chunked bodies), the headers it passes in and out or adds (conditional
# GETs and ETags, CORS and Vary, cookies and the same-origin check, security headers, HSTS over
# HTTPS), the client address it hands on (throttling and honest counting by address,
# X-Forwarded-For) and who may reach the worker's socket. The rest (catalog, offers selection,
# admin writes, statistics, retention, the network sync and adapters, the database outage and
# SIGTERM) is the worker's and the database's behaviour, the same behind either server: it runs
# behind lighttpd only. Whole modules by name, classes as module.Class, tests as module.Class.test.
SERVER_DEPENDENT = (
    "test_foundation.ConfigTests.test_config_headers", "test_foundation.ConfigTests.test_config_etag_304",
    "test_foundation.ConfigTests.test_config_etag_in_if_none_match_list",
    "test_foundation.ConfigTests.test_config_query_string_is_not_part_of_the_path",
    "test_foundation.CategoriesTests.test_categories_etag_304",
    "test_foundation.CategoriesTests.test_gzip_representation_for_clients_that_accept_it",
    "test_foundation.RoutingTests", "test_foundation.LogTests",
    "test_foundation.BodyTests.test_body_16kib_accepted", "test_foundation.BodyTests.test_body_over_16kib_413",
    "test_foundation.BodyTests.test_body_over_16kib_413_impression", "test_foundation.BodyTests.test_body_over_1mib_413",
    "test_foundation.BodyTests.test_json_content_type_parameters_accepted",
    "test_foundation.BodyTests.test_unsupported_media_type",
    "test_offers.ClickTests.test_redirect_targets", "test_offers.ClickTests.test_head_refusal",
    "test_offers.ClickTests.test_head_records_nothing", "test_offers.ClickTests.test_html_refusals",
    "test_offers.ClickTests.test_json_refusals_unless_html_preferred",
    "test_offers.CorsListTests", "test_offers.CorsEmptyListTests", "test_offers.HostileInputTests.test_huge_strings",
    "test_admin_access.SameOriginTests", "test_admin_access.ThrottleTests.test_one_address_cannot_try_many_accounts",
    "test_counting.CountingTests.test_different_clients_are_counted_separately",
    "test_counting.CountingTests.test_forwarded_for_only_from_the_trusted_proxy",
    "test_counting.CountingTests.test_prefetch_head_and_crawlers_are_answered_the_same_but_not_counted",
    "test_hardening", "test_https", "test_slow_bodies", "test_socket_access",
    "test_metrics",  # each web server's snippet routes {base}/metrics
)


class Deadline(KeyboardInterrupt):
    pass


class TrackingResult(unittest.TextTestResult):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.started = set()
        self.failed_ids = set()
        self.skipped_ids = set()
        self.skipped_prefixes = []  # "module.Class." of classes skipped as a whole
        self.succeeded = set()
        self.holder_errors = []  # setUpClass / tearDownClass / module fixture errors

    def _note(self, test):
        if isinstance(test, unittest.TestCase):
            self.failed_ids.add(test.id())
        else:
            self.holder_errors.append(str(test))

    def startTest(self, test):
        self.started.add(test.id())
        super().startTest(test)

    def addFailure(self, test, err):
        self._note(test)
        super().addFailure(test, err)

    def addError(self, test, err):
        self._note(test)
        super().addError(test, err)

    def addSubTest(self, test, subtest, err):
        if err is not None:
            self.failed_ids.add(test.id())
        super().addSubTest(test, subtest, err)

    def addSuccess(self, test):
        self.succeeded.add(test.id())
        super().addSuccess(test)

    def addSkip(self, test, reason):
        if isinstance(test, unittest.TestCase):
            self.skipped_ids.add(test.id())
        else:  # setUpClass or setUpModule raised SkipTest: every test under it is skipped
            m = re.match(r"setUp(?:Class|Module) \((.+)\)$", str(test))
            if m:
                self.skipped_prefixes.append(m.group(1) + ".")
        super().addSkip(test, reason)

    def was_skipped(self, test_id):
        return test_id in self.skipped_ids or test_id.startswith(tuple(self.skipped_prefixes))

    def addUnexpectedSuccess(self, test):
        self.failed_ids.add(test.id())
        super().addUnexpectedSuccess(test)


def test_classes(module):
    out = []
    for obj in vars(module).values():
        if (isinstance(obj, type) and issubclass(obj, unittest.TestCase) and obj.__module__ == module.__name__
                and obj not in LAST):
            out.append(obj)
    return out


def in_scope(test_id, scope):
    if scope == "all":
        return True
    parts = test_id.split(".")
    return any(".".join(parts[:n]) in SERVER_DEPENDENT for n in range(1, len(parts) + 1))


def build_suite(patterns, scope="all"):
    loader = unittest.TestLoader()
    if patterns:
        loader.testNamePatterns = ["*%s*" % p if "*" not in p else p for p in patterns]
    suite = unittest.TestSuite()
    for cls in [c for m in MODULES for c in test_classes(m)] + list(LAST):
        tests = unittest.TestSuite(t for t in loader.loadTestsFromTestCase(cls) if in_scope(t.id(), scope))
        if tests.countTestCases():
            suite.addTests(tests)
    return suite


def all_ids(suite):
    out = []
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            out.extend(all_ids(t))
        else:
            out.append(t.id())
    return out


def add_run_options(ap):
    """Options of one run that tests or the stack read (H.run_options); add new ones here."""
    ap.add_argument("--scope", choices=("all", "server"), default="all",
                    help="all tests, or only those that depend on the web server (SERVER_DEPENDENT)")
    ap.add_argument("--stack-env", action="append", default=[], metavar="NAME=VALUE",
                    help="set NAME=VALUE in scripts/stack.sh's environment for every stack of the run")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--server", choices=("lighttpd", "apache"), default="lighttpd")
    add_run_options(ap)
    ap.add_argument("--summary", help="write {\"passed\": N, \"failed\": M} here")
    ap.add_argument("--build", default=os.environ.get("BUILD") or "build")
    ap.add_argument("--deadline", type=int, default=1200,
                    help="seconds for stack start plus tests (stopping is extra, bounded)")
    ap.add_argument("-k", dest="patterns", action="append", default=[],
                    help="only tests whose name matches (substring or glob); repeatable")
    ap.add_argument("--keep", action="store_true", help="keep VAR_DIR afterwards")
    ap.add_argument("--base-path", default="",
                    help="mount every stack under this base path (e.g. /offers; BASE_PATH of "
                         "scripts/stack.sh) and prefix every request with it")
    args = ap.parse_args()
    bad = [e for e in args.stack_env if "=" not in e]
    if bad:
        ap.error("--stack-env wants NAME=VALUE, not %s" % bad[0])
    everything = all_ids(build_suite([]))
    stale = [e for e in SERVER_DEPENDENT if not any(i == e or i.startswith(e + ".") for i in everything)]
    if stale:  # a renamed test must not leave the server-dependent run quietly
        ap.error("SERVER_DEPENDENT names what no longer exists: %s" % ", ".join(stale))
    H.run_options = args
    H.STACK_ENV.update(e.split("=", 1) for e in args.stack_env)

    H.BASE_PATH = args.base_path
    suite = build_suite(args.patterns, args.scope)
    ids = all_ids(suite)
    t_start = time.monotonic()

    def on_signal(signum, frame):
        raise KeyboardInterrupt("signal %d" % signum)

    def on_alarm(signum, frame):
        raise Deadline("deadline of %d s reached" % args.deadline)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(args.deadline)

    stack = H.Stack(args.server, args.build)
    H.set_stack(stack)
    runner = unittest.TextTestRunner(stream=sys.stdout, verbosity=2, resultclass=TrackingResult)
    result = runner._makeResult()
    problems = []
    try:
        try:
            stack.start()
            if not H.load_fixtures(stack):
                problems.append("fixtures were not visible through the API")
            result.startTestRun()
            try:
                suite(result)
            finally:
                result.stopTestRun()
        except H.StackError as e:
            problems.append("stack: %s" % e)
        except Deadline as e:
            problems.append(str(e))
        except KeyboardInterrupt as e:
            problems.append("interrupted (%s)" % (e or "Ctrl-C"))
        except Exception as e:  # noqa: BLE001 - report, then stop the stack
            problems.append("harness error: %r" % e)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        sys.stdout.flush()
        diagnostics = stack.diagnostics() if stack.var else ""
        stack.stop()

    result.printErrors()
    not_run = [i for i in ids if i not in result.started and not result.was_skipped(i)]
    ok = result.succeeded - result.failed_ids
    passed = len([i for i in ids if i in ok])
    # Failed: everything that neither passed nor was skipped (failures, errors, interrupted or
    # never run), plus class/module fixture errors.
    n_failed = len([i for i in ids if i not in ok and not result.was_skipped(i)]) + len(result.holder_errors)
    if stack.sanitizer_reports:
        problems.append("sanitizer reports in: %s" % ", ".join(p for p, _ in stack.sanitizer_reports))
        n_failed += 1
    if problems and n_failed == 0:
        n_failed = 1
    elapsed = time.monotonic() - t_start

    print("-" * 70)
    print("Ran %d of %d tests (scope %s) against %s%s in %.1fs"
          % (len(result.started), len(ids), args.scope, args.server,
             " under " + args.base_path if args.base_path else "", elapsed))
    for p in problems:
        print("PROBLEM: %s" % p)
    if not_run:
        print("not run (counted as failed): %d" % len(not_run))
    if n_failed and diagnostics:
        print("----- stack diagnostics (tails) -----")
        print(diagnostics)
    print("e2e %s: %d passed, %d failed" % (args.server, passed, n_failed))
    sys.stdout.flush()
    stack.cleanup(keep=args.keep)

    if args.summary:
        os.makedirs(os.path.dirname(os.path.abspath(args.summary)), exist_ok=True)
        with open(args.summary, "w") as f:
            json.dump({"passed": passed, "failed": n_failed}, f)
            f.write("\n")
    return 1 if n_failed else 0


if __name__ == "__main__":
    sys.exit(main())
