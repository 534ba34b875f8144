#pragma once
#include <string_view>

#include "lib/http/client_address.h"
#include "lib/http/request.h"

namespace placard::http {

// Whether the client reached us over HTTPS: the web server says so (HTTPS=on), or the web
// server's peer is a trusted proxy (`trusted_proxies`) whose last hop reports https, in
// `Forwarded: ...;proto=https` (RFC 7239, its last element) or else `X-Forwarded-Proto: https`
// (its last value). From any other peer these headers are ignored: a client could send them.
bool reached_over_https(const Request& request, const TrustedProxies& trusted);

// The proto= parameter of the last element of a Forwarded header value, lower-case ("" when
// absent or malformed).
std::string forwarded_proto(std::string_view forwarded);

}  // namespace placard::http
