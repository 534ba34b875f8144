"""A signed-in client of the admin API for end-to-end tests: keeps the session cookie, sends the
same-origin `Origin` and `X-Service-Mark: admin` on writes (unless a test says otherwise), and
returns (status, headers, parsed JSON or raw bytes).

    c = AdminClient.signed_in()            # the stack's first administrator
    st, h, doc = c.get("/categories")
    st, h, doc = c.patch("/settings", {"available": False})
"""

import json
import os
import re
import secrets
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness as H  # noqa: E402

PREFIX = "/admin/api/v1"
ADMIN_EMAIL = "admin@placard.local"
DEFAULT = object()


def admin_password(stack=None):
    with open((stack or H.current()).path("admin-password")) as f:
        return f.read().strip()


def own_origin(stack=None):
    return (stack or H.current()).origin


def unique_email(prefix="user"):
    return "%s-%s@example.test" % (prefix, secrets.token_hex(4))


class AdminClient:
    def __init__(self, stack=None):
        self.stack = stack or H.current()
        self.cookie = None  # "placard_session=<token>"
        self.account = None

    # -- raw requests
    def request(self, method, path, body=None, headers=None, origin=DEFAULT, mark=DEFAULT,
                cookie=DEFAULT, content_type="application/json"):
        hdrs = {}
        write = method not in ("GET", "HEAD", "OPTIONS")
        if write:
            o = own_origin(self.stack) if origin is DEFAULT else origin
            m = "admin" if mark is DEFAULT else mark
            if o is not None:
                hdrs["Origin"] = o
            if m is not None:
                hdrs["X-Service-Mark"] = m
        c = self.cookie if cookie is DEFAULT else cookie
        if c:
            hdrs["Cookie"] = c
        if body is not None:
            if not isinstance(body, (bytes, str)):
                body = json.dumps(body)
            if content_type:
                hdrs["Content-Type"] = content_type
        hdrs.update(headers or {})
        st, h, raw = self.stack.http(method, PREFIX + path, body, hdrs)
        doc = raw
        if h.get("content-type", "").startswith("application/json") and raw:
            doc = json.loads(raw)
        return st, h, doc

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, body=None, **kw):
        return self.request("POST", path, {} if body is None else body, **kw)

    def put(self, path, body, **kw):
        return self.request("PUT", path, body, **kw)

    def patch(self, path, body, **kw):
        return self.request("PATCH", path, body, **kw)

    def delete(self, path, **kw):
        return self.request("DELETE", path, **kw)

    # -- sessions
    def sign_in(self, email=ADMIN_EMAIL, password=None, **kw):
        pw = admin_password(self.stack) if password is None else password
        st, h, doc = self.request("POST", "/session", {"email": email, "password": pw},
                                  cookie=None, **kw)
        if st == 200:
            m = re.match(r"((?:__Host-|__Secure-)?placard_session)=([^;]*)", h.get("set-cookie", ""))
            if not m:
                raise AssertionError("sign-in answered 200 without a session cookie: %r" % h)
            self.cookie = "%s=%s" % (m.group(1), m.group(2))
            self.account = doc["account"]
        return st, h, doc

    @classmethod
    def signed_in(cls, email=ADMIN_EMAIL, password=None, stack=None):
        c = cls(stack)
        st, _, doc = c.sign_in(email, password)
        if st != 200:
            raise AssertionError("sign-in as %s answered %d: %r" % (email, st, doc))
        return c

    def ok(self, method, path, body=None, status=200):
        """The parsed answer of a request that must succeed with `status`."""
        st, _, doc = self.request(method, path, body)
        if st != status:
            raise AssertionError("%s %s answered %d, expected %d: %r" % (method, path, st, status, doc))
        return doc


def new_approved_account(admin, prefix="user", password=None):
    """Registers an account through the API and approves it with `admin`; returns
    (email, password, account id)."""
    email = unique_email(prefix)
    pw = password or ("pw-" + secrets.token_hex(8))
    anon = AdminClient(admin.stack)
    doc = anon.ok("POST", "/accounts", {"email": email, "password": pw}, status=201)
    admin.ok("POST", "/accounts/%s/approve" % doc["id"])
    return email, pw, doc["id"]
