"""GET {base}/metrics through the web server (issue 25): the Prometheus text exposition of the
worker's registry (lib/metrics). Known requests move the counters by exactly that many, the
latency histogram counts every one of them, and the endpoint answers 404 (as if it did not exist)
without the bearer token, with a wrong one, from a source address outside metrics.allow, and
while metrics.enabled is off. The text is parsed by a small parser of the format 0.0.4 below
(Debian's promtool comes only with the whole prometheus package).

The stack's placard.conf gets the metrics keys and the worker restarts; the file is put back
(and the worker restarted) afterwards. Counting is exact because the stack runs one worker
process (stack.sh WORKERS=1): each process has its own counters."""

import http.client as httpclient
import os
import re
import secrets
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness as H  # noqa: E402

TEXT_CT = "text/plain; version=0.0.4; charset=utf-8"
NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"'
SAMPLE = re.compile(r"^(?P<name>%s)(?P<labels>\{(?:%s(?:,%s)*)?\})? (?P<value>\S+)$"
                    % (NAME, LABEL, LABEL))
VALUE = re.compile(r"^(?:[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|[+-]Inf|NaN)$")


def unescape(value):
    return re.sub(r"\\([\\\"n])", lambda m: "\n" if m.group(1) == "n" else m.group(1), value)


def parse_exposition(text):
    """{(name, ((label, value), ...)): float} and {family: type}; raises ValueError on anything
    the text format 0.0.4 does not allow (or that Prometheus would refuse: a sample before its
    family's TYPE, a family's samples split, a histogram whose buckets are not cumulative)."""
    if not text.endswith("\n"):
        raise ValueError("the exposition must end with a newline")
    samples, types, helps, seen_families = {}, {}, {}, []
    for n, line in enumerate(text.split("\n")[:-1], 1):
        if line.startswith("#"):
            parts = line.split(" ", 3)
            if len(parts) >= 3 and parts[1] in ("HELP", "TYPE"):
                if not re.fullmatch(NAME, parts[2]):
                    raise ValueError("line %d: bad metric name" % n)
                if parts[1] == "TYPE":
                    if parts[2] in types or len(parts) != 4 or parts[3] not in (
                            "counter", "gauge", "histogram", "summary", "untyped"):
                        raise ValueError("line %d: bad or repeated TYPE" % n)
                    types[parts[2]] = parts[3]
                    seen_families.append(parts[2])
                else:
                    if parts[2] in helps:
                        raise ValueError("line %d: HELP twice" % n)
                    helps[parts[2]] = parts[3] if len(parts) == 4 else ""
            continue
        if not line:
            raise ValueError("line %d: empty line" % n)
        m = SAMPLE.match(line)
        if not m:
            raise ValueError("line %d: not a sample: %r" % (n, line))
        name, value = m.group("name"), m.group("value")
        if not VALUE.match(value):
            raise ValueError("line %d: bad value %r" % (n, value))
        labels = tuple((k, unescape(v)) for k, v in re.findall(LABEL, m.group("labels") or ""))
        family = re.sub(r"_(bucket|sum|count)$", "", name) if name not in types else name
        if not seen_families or seen_families[-1] != family:
            raise ValueError("line %d: sample of %s outside its family's block" % (n, family))
        key = (name, labels)
        if key in samples:
            raise ValueError("line %d: the same series twice" % n)
        samples[key] = float(value)
    for family, kind in types.items():
        if kind == "histogram":
            check_histogram(family, samples)
    return samples, types


def check_histogram(family, samples):
    series = {}
    for (name, labels), v in samples.items():
        if name == family + "_bucket":
            rest = tuple(l for l in labels if l[0] != "le")
            le = dict(labels)["le"]
            series.setdefault(rest, []).append((float(le), v))
    for rest, buckets in series.items():
        buckets.sort()
        counts = [v for _, v in buckets]
        if buckets[-1][0] != float("inf"):
            raise ValueError("%s%r: no +Inf bucket" % (family, rest))
        if counts != sorted(counts):
            raise ValueError("%s%r: buckets are not cumulative" % (family, rest))
        if samples.get((family + "_count", rest)) != counts[-1]:
            raise ValueError("%s%r: _count differs from the +Inf bucket" % (family, rest))
        if (family + "_sum", rest) not in samples:
            raise ValueError("%s%r: no _sum" % (family, rest))


def status_class(status):
    return "%dxx" % (status // 100)


class ExpositionParserTests(unittest.TestCase):
    """The parser itself refuses what it must (else the e2e checks below could not fail)."""

    def test_refuses_malformed_text(self):
        good = "# HELP a_total A\n# TYPE a_total counter\na_total{k=\"v\\\"x\"} 1\n"
        samples, _ = parse_exposition(good)
        self.assertEqual(samples[("a_total", (("k", 'v"x'),))], 1.0)
        for bad in (good[:-1], good.replace(" 1\n", " one\n"), good.replace("k=", "k-="),
                    good + "a_total{k=\"v\\\"x\"} 2\n", "b 1\n",
                    "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\n"
                    "h_sum 1\nh_count 1\n"):
            with self.assertRaises(ValueError, msg=bad):
                parse_exposition(bad)


class MetricsTests(H.E2ETestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.stack = H.current()
        cls.conf_path = cls.stack.path("placard.conf")
        with open(cls.conf_path) as f:
            cls.original_conf = f.read()
        cls.token = secrets.token_urlsafe(24)
        cls.write_conf({"metrics.enabled": "true", "metrics.allow": "127.0.0.1, ::1",
                        "metrics.token": cls.token})

    @classmethod
    def tearDownClass(cls):
        with open(cls.conf_path, "w") as f:
            f.write(cls.original_conf)
        cls.stack.restart()

    @classmethod
    def write_conf(cls, keys):
        lines = [l for l in cls.original_conf.splitlines() if not l.startswith("metrics.")]
        lines += ["%s = %s" % kv for kv in keys.items()]
        with open(cls.conf_path, "w") as f:
            f.write("\n".join(lines) + "\n")
        cls.stack.restart()

    def get_metrics(self, token=None, source="127.0.0.1"):
        headers = {"Authorization": "Bearer " + token} if token else {}
        conn = httpclient.HTTPConnection("127.0.0.1", self.stack.port, timeout=H.HTTP_TIMEOUT,
                                         source_address=(source, 0))
        try:
            conn.request("GET", H.prefixed("/metrics"), headers=headers)
            resp = conn.getresponse()
            return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
        finally:
            conn.close()

    def scrape(self):
        st, h, body = self.get_metrics(self.token)
        self.assertEqual(st, 200, body[:300])
        self.assertEqual(h.get("content-type"), TEXT_CT)
        self.assertEqual(h.get("cache-control"), "no-store")
        samples, types = parse_exposition(body.decode("utf-8"))
        return samples, types

    @staticmethod
    def requests(samples, route, code):
        return samples.get(("placard_http_requests_total", (("route", route), ("code", code))), 0)

    @staticmethod
    def timed(samples, route):
        return samples[("placard_http_request_duration_seconds_count", (("route", route),))]

    def test_known_requests_move_the_counters_by_exactly_that(self):
        before, types = self.scrape()
        self.assertEqual(types["placard_http_requests_total"], "counter")
        self.assertEqual(types["placard_http_request_duration_seconds"], "histogram")
        seen = {}
        for _ in range(5):
            st, _, _ = H.query()
            seen[("offers_query", status_class(st))] = seen.get(("offers_query", status_class(st)), 0) + 1
        for _ in range(3):  # not JSON: 400
            st, _, _ = self.stack.http("POST", "/api/v1/offers/query", b"{",
                                       {"Content-Type": "application/json"})
            self.assertEqual(st, 400)
            seen[("offers_query", "4xx")] = seen.get(("offers_query", "4xx"), 0) + 1
        for _ in range(2):
            st, _, _ = self.stack.http("GET", "/healthz")
            seen[("healthz", status_class(st))] = seen.get(("healthz", status_class(st)), 0) + 1
        after, _ = self.scrape()
        for (route, code), n in seen.items():
            self.assertEqual(self.requests(after, route, code) - self.requests(before, route, code),
                             n, (route, code))
        self.assertEqual(self.timed(after, "offers_query") - self.timed(before, "offers_query"), 8)
        self.assertEqual(self.timed(after, "healthz") - self.timed(before, "healthz"), 2)
        # The first scrape itself, counted before its answer was complete.
        self.assertEqual(self.requests(after, "metrics", "2xx") - self.requests(before, "metrics", "2xx"), 1)
        self.assertEqual(self.timed(after, "metrics") - self.timed(before, "metrics"), 1)

    def test_gauges_are_there(self):
        samples, types = self.scrape()
        names = {name for name, _ in samples}
        for gauge in ("placard_event_writer_queued", "placard_catalog_snapshot_age_seconds",
                      "placard_catalog_fresh", "placard_worker_handler_waiters",
                      "placard_worker_handlers_idle", "placard_worker_free_turns"):
            self.assertEqual(types.get(gauge), "gauge", gauge)
            self.assertIn(gauge, names)
        self.assertGreaterEqual(samples[("placard_catalog_snapshot_age_seconds", ())], 0)
        self.assertEqual(samples[("placard_catalog_fresh", ())], 1)
        self.assertEqual(samples[("placard_event_writer_queued", ())], 0)

    def test_refused_without_the_token_with_a_wrong_one_and_from_elsewhere(self):
        before, _ = self.scrape()
        for token, source in ((None, "127.0.0.1"), ("wrong-" + self.token, "127.0.0.1"),
                              (self.token, "127.0.0.2")):
            st, h, body = self.get_metrics(token, source)
            self.assertEqual(st, 404, (token is None, source))
            self.assertEqual(h.get("content-type"), H.JSON_CT)
            self.assertIn(b'"not_found"', body)
            self.assertNotIn(b"placard_", body)
        after, _ = self.scrape()
        self.assertEqual(self.requests(after, "metrics", "4xx") - self.requests(before, "metrics", "4xx"), 3)

    def test_off_unless_enabled(self):
        self.write_conf({"metrics.token": self.token})
        try:
            st, _, body = self.get_metrics(self.token)
            self.assertEqual(st, 404)
            self.assertNotIn(b"placard_", body)
        finally:
            self.write_conf({"metrics.enabled": "true", "metrics.allow": "127.0.0.1, ::1",
                             "metrics.token": self.token})


if __name__ == "__main__":
    unittest.main()
