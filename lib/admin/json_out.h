#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/http/response.h"
#include "lib/json/writer.h"

namespace placard::admin {

// JSON pieces shared by the admin resources (contract 6.1).
void write_time(json::Writer& w, std::optional<std::int64_t> unix_seconds);  // RFC 3339 or null
void write_id(json::Writer& w, std::uint64_t id);                            // ids are strings
void write_string_or_null(json::Writer& w, const std::optional<std::string>& s);

// {"items": [<item>...], "total", "limit", "offset"}; items are JSON texts.
std::string list_json(const std::vector<std::string>& items, std::uint64_t total, int limit,
                      std::uint64_t offset);

http::Response ok(std::string json_body);
// 201 with Location: /admin/api/v1<location_suffix>.
http::Response created(std::string json_body, const std::string& location_suffix);
http::Response no_content();

// Percent-encodes a path segment for a Location header (unreserved characters kept).
std::string encode_segment(std::string_view segment);

}  // namespace placard::admin
