#pragma once
#include <functional>
#include <optional>
#include <string_view>

namespace placard::http {

// A quality value (RFC 9110, 12.4.2): "0" or "1", or either with a dot and at most three digits,
// from 0 to 1 ("0.5", "1.000"); nullopt for anything else ("", "2", ".5", "0.5x", "0.1234").
std::optional<double> parse_qvalue(std::string_view text);

// Calls `each` with every entry of a comma-separated list weighted by quality values (Accept,
// Accept-Encoding): its name (the media range or coding, trimmed; parameters other than q
// ignored) and its weight: q's value, 1 without q, 0 when q is malformed (not acceptable).
void for_each_weighted(std::string_view header,
                       const std::function<void(std::string_view name, double q)>& each);

// True when an Accept header prefers text/html over application/json (browsers); false for
// API clients, "*/*" and an absent header.
bool prefers_html(std::string_view accept);

// True when an If-None-Match header value matches the entity tag (weak comparison; "*").
bool etag_matches(std::string_view if_none_match, std::string_view etag);

}  // namespace placard::http
