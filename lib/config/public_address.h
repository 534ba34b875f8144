#pragma once
#include <string>
#include <string_view>

namespace placard::config {

// Where the service is reached from outside (config keys `public_origin` and `base_path`).

// An empty string when `origin` is exactly scheme://host[:port] (scheme http or https; host a DNS
// name, an IPv4 address or a bracketed IPv6 address; port 1..65535; nothing else: no path, no
// trailing slash, no user info, no query); otherwise what is wrong with it.
std::string check_public_origin(std::string_view origin);
// The origin in the form browsers send in an Origin header: scheme and host lower-case, a default
// port (80 for http, 443 for https) left out.
std::string normalize_public_origin(std::string_view origin);

// An empty string when `base` is empty (the service at the origin's root) or a path such as
// "/offers" or "/tools/offers": starts with '/', no trailing '/', segments of letters, digits,
// '-', '_', '.' and '~', none empty, "." or ".."; at most 200 characters. Otherwise what is
// wrong with it.
std::string check_base_path(std::string_view base);

// The path of a request relative to the base: "" base → the path itself; a path equal to the
// base, or under it ("/offers/api/v1/config"), → the rest ("" or "/api/v1/config"); a path
// outside the base (including "/offersX/...") → false.
bool strip_base_path(std::string_view base, std::string_view path, std::string_view& rest);

}  // namespace placard::config
