#pragma once
#include <string_view>

namespace placard::http {

// True when an Accept header prefers text/html over application/json (browsers); false for
// API clients, "*/*" and an absent header.
bool prefers_html(std::string_view accept);

// True when an If-None-Match header value matches the entity tag (weak comparison; "*").
bool etag_matches(std::string_view if_none_match, std::string_view etag);

}  // namespace placard::http
