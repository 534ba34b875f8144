"""The e2e tests' calls on the current stack (fixtures.current): HTTP on the contract's paths, SQL,
offer queries and events, tokens minted with the stack's keys, settings."""

import json
import re
import time

from catalog import BASE_QUERY, sql_str
from fixtures import current
from http_client import HTTP_TIMEOUT, wait_until
from stack_driver import placard_tokens  # tools/placard_tokens.py


def http(method, path, body=None, headers=None, timeout=HTTP_TIMEOUT):
    return current().http(method, path, body, headers, timeout)


def db(sql):
    return current().db(sql)


def bump():
    current().db("UPDATE catalog_version SET version=version+1 WHERE id=1")


def config():
    return current().config()


def var_path(*parts):
    return current().path(*parts)


def get_json(path, headers=None):
    st, h, b = http("GET", path, headers=headers)
    return st, h, b


def post_json(path, obj, headers=None):
    hdrs = {"Content-Type": "application/json"}
    hdrs.update(headers or {})
    body = obj if isinstance(obj, (bytes, str)) else json.dumps(obj)
    return http("POST", path, body, hdrs)


# --------------------------------------------------------------------------------------------
# Offer queries

MISSING = object()


def query_body(**fields):
    body = dict(BASE_QUERY)
    for k, v in fields.items():
        if v is MISSING:
            body.pop(k, None)
        else:
            body[k] = v
    return body


def query(headers=None, **fields):
    return post_json("/api/v1/offers/query", query_body(**fields), headers)


def query_offers(**fields):
    """Offers of a successful query (asserts 200)."""
    st, h, b = query(**fields)
    if st != 200:
        raise AssertionError("query %r answered %d: %r" % (fields, st, b[:300]))
    return json.loads(b)["offers"]


def impression(token, headers=None):
    return post_json("/api/v1/events/impression", {"impressionToken": token}, headers)


# --------------------------------------------------------------------------------------------
# Tokens (format: see lib/tokens/token.h and the brief)

b64u = placard_tokens.b64u
b64u_decode = placard_tokens.b64u_decode
decode_token = placard_tokens.decode
IMPRESSION, CLICK = placard_tokens.IMPRESSION, placard_tokens.CLICK


def token_keys():
    """({kid: key bytes}, active kid) from placard.conf."""
    return placard_tokens.token_keys(config())


def mint_token(kind, offer_id, country="DE", placement="wide", issued_at=None, kid=None,
               key=None, nonce=None):
    keys, active = token_keys()
    kid = active if kid is None else kid
    key = keys[kid] if key is None else key
    issued_at = int(time.time()) if issued_at is None else int(issued_at)
    return placard_tokens.mint(kind, kid, key, offer_id, country, placement, issued_at, nonce)


def token_from_click_url(url):
    m = re.fullmatch(r"/r/click/(\d+)\?t=([A-Za-z0-9_.~-]+)", url)
    if not m:
        raise AssertionError("clickUrl not of the form /r/click/<id>?t=<token>: %r" % url)
    return m.group(2)


def rows_for_nonce(table, nonce):
    rows = db("SELECT COUNT(*) FROM %s WHERE token_nonce = UNHEX('%s')" % (table, nonce.hex()))
    return int(rows[0][0])


# --------------------------------------------------------------------------------------------
# Settings

def set_setting(name, value, do_bump=True):
    db("INSERT INTO settings (name, value) VALUES (%s, %s) ON DUPLICATE KEY UPDATE value=VALUES(value), "
       "updated_at=UTC_TIMESTAMP()" % (sql_str(name), sql_str(value)))
    if do_bump:
        bump()


def fetch_config():
    st, h, b = http("GET", "/api/v1/config")
    if st != 200:
        return None
    return json.loads(b)


def wait_config(pred, timeout=5.0):
    return wait_until(lambda: (lambda c: c is not None and pred(c))(fetch_config()), timeout)
