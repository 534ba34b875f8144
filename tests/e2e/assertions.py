"""The e2e tests' base class and assertions: JSON answers, the contract's error envelope, no
internals leaked."""

import json
import re
import unittest

from fixtures import ensure_stack
from http_client import JSON_CT

NO_FIELD = None  # the error must not carry `field`
ANY_FIELD = object()  # do not check `field`

LEAK_PATTERNS = [
    re.compile(p, re.I) for p in (
        r"\bselect\b.+\bfrom\b", r"\binsert\s+into\b", r"\bupdate\s+\w+\s+set\b", r"\bsqlstate\b",
        r"\bmysql", r"\bmariadb", r"\bsyntax\b.*\bsql\b", r"/work/", r"/tmp/", r"/usr/", r"/home/",
        r"\.cpp\b", r"\.h:\d+", r"std::", r"what\(\)", r"terminate called", r"Traceback",
        r"stack trace", r"\bat 0x[0-9a-f]+", r"token\.keys", r"\bpassword\b",
    )
]


class E2ETestCase(unittest.TestCase):
    maxDiff = 4000

    @classmethod
    def setUpClass(cls):
        ensure_stack()

    def assertJsonResponse(self, resp, status=200):
        st, h, b = resp
        self.assertEqual(st, status, "status; body=%r" % b[:400])
        self.assertEqual(h.get("content-type"), JSON_CT, "Content-Type")
        self.assertTrue(h.get("x-request-id", "").strip(), "X-Request-Id missing: %r" % h)
        try:
            return json.loads(b.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            self.fail("body is not JSON (%s): %r" % (e, b[:400]))

    def assertError(self, resp, status, code, field=ANY_FIELD):
        doc = self.assertJsonResponse(resp, status)
        self.assertIsInstance(doc, dict)
        self.assertEqual(list(doc.keys()), ["error"], "envelope: %r" % doc)
        err = doc["error"]
        self.assertIsInstance(err, dict)
        self.assertTrue(set(err) <= {"code", "message", "field"}, "error keys: %r" % err)
        self.assertEqual(err.get("code"), code, "error code; body=%r" % doc)
        self.assertIsInstance(err.get("message"), str)
        self.assertTrue(err["message"].strip(), "empty message")
        if field is NO_FIELD:
            self.assertNotIn("field", err, "error should not name a field: %r" % err)
        elif field is not ANY_FIELD:
            self.assertEqual(err.get("field"), field, "error field; body=%r" % doc)
        self.assertNoLeak(resp[2])
        return err

    def assertNoLeak(self, body):
        text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
        for pat in LEAK_PATTERNS:
            self.assertIsNone(pat.search(text), "response leaks internals (%s): %r" % (pat.pattern, text[:400]))
