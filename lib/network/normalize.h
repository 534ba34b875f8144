#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lib/json/rapidjson.h"

namespace placard::network {

// An image address as served: "//x" and "http://x" become "https://x"; https kept; anything
// else (data:, relative, empty) is no image.
std::optional<std::string> https_image(std::string_view url);

// A network time: RFC 3339 with a zone, or without one ("2024-05-31T23:59:00", also with a
// space for the 'T'), which is read as UTC (Admitad does not document its zone). nullopt when
// malformed.
std::optional<std::int64_t> parse_network_time(std::string_view text);

// Two ASCII letters, upper-cased; nullopt otherwise.
std::optional<std::string> country_code(std::string_view text);

// JSON helpers that never throw: a member's string (empty when absent, null or not a string),
// an id as text (integer or string), an object member or nullptr.
std::string str(const rapidjson::Value& obj, const char* name);
std::optional<std::string> id_text(const rapidjson::Value& obj, const char* name);
const rapidjson::Value* member(const rapidjson::Value& obj, const char* name);

}  // namespace placard::network
