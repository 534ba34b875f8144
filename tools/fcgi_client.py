"""A minimal FastCGI client (responder role, one request per connection), as a web server speaks
to placard.fcgi: for the tests and benchmarks that talk to a worker without a web server.
Python 3 standard library only."""

import socket
import struct

BEGIN_REQUEST, END_REQUEST, PARAMS, STDIN, STDOUT = 1, 3, 4, 5, 6
KEEP_CONN = 1  # FCGI_KEEP_CONN: the web server keeps the connection for its next request


def record(kind, content, request_id=1):
    """One record (version 1, no padding)."""
    return struct.pack(">BBHHBx", 1, kind, request_id, len(content), 0) + content


def _length(n):
    return bytes([n]) if n < 128 else struct.pack(">I", n | 0x80000000)


def name_value(name, value):
    """One name-value pair of the PARAMS stream (str or bytes)."""
    name = name.encode() if isinstance(name, str) else name
    value = value.encode() if isinstance(value, str) else value
    return _length(len(name)) + _length(len(value)) + name + value


def head_bytes(params, flags=0):
    """A request's beginning: begin (responder; flags KEEP_CONN or 0) and the parameters (a dict
    or (name, value) pairs)."""
    pairs = params.items() if isinstance(params, dict) else params
    content = b"".join(name_value(k, v) for k, v in pairs)
    return (record(BEGIN_REQUEST, struct.pack(">HB5x", 1, flags)) + record(PARAMS, content)
            + record(PARAMS, b""))


def body_bytes(body):
    """A request's body in records of 8 KiB and the empty end-of-input record."""
    stdin = b"".join(record(STDIN, body[i:i + 8192]) for i in range(0, len(body), 8192))
    return stdin + record(STDIN, b"")


def request_bytes(params, body=b""):
    """A whole request that does not keep the connection: head_bytes, then body_bytes."""
    return head_bytes(params) + body_bytes(body)


def send(sock, params, body=b""):
    sock.sendall(request_bytes(params, body))


def _header(data, pos):
    """(kind, content length, end of the record) of the record whose header starts at pos."""
    _, kind, _, length, padding = struct.unpack(">BBHHBx", data[pos:pos + 8])
    return kind, length, pos + 8 + length + padding


def stdout_of(data):
    """The bytes of the STDOUT records in `data` (whole records of one request's answer)."""
    out, pos = b"", 0
    while pos + 8 <= len(data):
        kind, length, end = _header(data, pos)
        if kind == STDOUT:
            out += data[pos + 8:pos + 8 + length]
        pos = end
    return out


def read_stdout(sock):
    """Reads until the worker closes its side; returns the bytes written to STDOUT (the CGI
    answer: headers, an empty line, the body)."""
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return stdout_of(data)


def read_answer(sock):
    """Reads one answer up to its end-of-request record, leaving the connection open (a kept
    connection); returns the bytes written to STDOUT. Raises EOFError when the worker closes
    its side first."""
    data, pos = b"", 0
    while True:
        while pos + 8 <= len(data):
            kind, _, end = _header(data, pos)
            if end > len(data):
                break
            pos = end
            if kind == END_REQUEST:
                return stdout_of(data[:pos])
        chunk = sock.recv(65536)
        if not chunk:
            raise EOFError("the worker closed the connection before the end of the answer")
        data += chunk


def request(port, params, body=b"", timeout=10):
    """One request to a worker listening on 127.0.0.1:port; the CGI answer's bytes."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        send(sock, params, body)
        return read_stdout(sock)


def cgi_status(answer):
    """(status, body bytes) of a CGI answer (200 when it has no Status header)."""
    head, _, payload = answer.partition(b"\r\n\r\n")
    status = 200
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"status:"):
            status = int(line.split()[1])
    return status, payload
