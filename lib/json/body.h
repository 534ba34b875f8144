#pragma once
#include <cstddef>

#include "lib/http/request.h"
#include "lib/json/rapidjson.h"

namespace placard::json {

inline constexpr std::size_t kMaxBodyBytes = std::size_t{16} * 1024;

// The body rules of contract section 0, in order: Content-Type application/json (415),
// at most 16 KiB, checked before reading (413), valid JSON object (400 invalid_json).
// Throws http::ApiError; fills doc with the parsed object.
void parse_object_body(http::Request& request, rapidjson::Document& doc);

bool is_json_content_type(std::string_view content_type);

}  // namespace placard::json
