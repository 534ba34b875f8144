"""Placard's token format and config file, for the end-to-end tests and the benchmark (Python 3
standard library). One implementation, so the two cannot drift from each other; both must agree
with lib/tokens/token.h, which the tests check against the real worker.

Token (format version 2): base64url_nopad(payload) "." base64url_nopad(first 16 bytes of
HMAC-SHA-256(key, payload)); payload, big-endian: version 2, kind (1 impression, 2 click),
kid length + kid, 16-byte nonce, issued_at uint32, offer_id as length (1..8) + that many bytes
without a leading zero byte, country (2 bytes), placement length + placement.
"""

import base64
import hashlib
import hmac
import os
import struct

IMPRESSION, CLICK = 1, 2
VERSION = 2
MAC_BYTES = 16


def b64u(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64u_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def read_config(path):
    """A placard.conf as a dict (lines `key = value`; `#` comments)."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#") or "=" not in line:
                continue
            k, v = line.split("=", 1)
            out[k.strip()] = v.strip()
    return out


def token_keys(conf):
    """({kid: key bytes}, active kid) from a config dict's token.keys / token.active_key."""
    keys = {}
    for entry in conf.get("token.keys", "").split(","):
        entry = entry.strip()
        if ":" not in entry:
            continue
        kid, key = entry.split(":", 1)
        keys[kid.strip()] = b64u_decode(key.strip())
    return keys, conf.get("token.active_key", "")


def mint(kind, kid, key, offer_id, country, placement, issued_at, nonce=None):
    """A signed token; nonce: 16 bytes, when not given laid out as the service's own (the issue
    time as 4 big-endian bytes, then 12 random bytes: lib/tokens/token_nonce.h)."""
    return Minter(kid, key).mint(kind, offer_id, country, placement, issued_at, nonce)


class Minter:
    """Mints many tokens with one key (`make soak` writes millions): the key is set into the HMAC
    once, and each token's MAC starts from a copy of it."""

    def __init__(self, kid, key):
        self.kid_b = kid.encode("ascii")
        self.mac = hmac.new(key, digestmod=hashlib.sha256)

    def mint(self, kind, offer_id, country, placement, issued_at, nonce=None):
        if nonce is None:
            nonce = struct.pack(">I", int(issued_at)) + os.urandom(12)
        pl = placement.encode("ascii")
        payload = (bytes([VERSION, kind, len(self.kid_b)]) + self.kid_b + nonce
                   + struct.pack(">I", int(issued_at)) + short_uint(int(offer_id))
                   + country.encode("ascii") + bytes([len(pl)]) + pl)
        h = self.mac.copy()
        h.update(payload)
        return b64u(payload) + "." + b64u(h.digest()[:MAC_BYTES])


def short_uint(value):
    """Length byte, then the big-endian bytes of `value` without leading zero bytes."""
    raw = value.to_bytes(8, "big").lstrip(b"\0") or b"\0"
    return bytes([len(raw)]) + raw


def decode(token):
    """The fields of a token (the signature is not checked)."""
    payload_text, _ = token.split(".", 1)
    p = b64u_decode(payload_text)
    version, kind, kid_len = p[0], p[1], p[2]
    i = 3
    kid = p[i:i + kid_len].decode("ascii")
    i += kid_len
    nonce = p[i:i + 16]
    i += 16
    (issued_at,) = struct.unpack(">I", p[i:i + 4])
    i += 4
    id_len = p[i]
    offer_id = int.from_bytes(p[i + 1:i + 1 + id_len], "big")
    i += 1 + id_len
    country = p[i:i + 2].decode("ascii")
    i += 2
    pl_len = p[i]
    placement = p[i + 1:i + 1 + pl_len].decode("ascii")
    return {"version": version, "kind": kind, "kid": kid, "nonce": nonce, "issued_at": issued_at,
            "offer_id": offer_id, "country": country, "placement": placement}
