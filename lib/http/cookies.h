#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace placard::http {

// The value of cookie `name` in a Cookie header ("a=1; b=2"), exactly as sent (no decoding,
// surrounding double quotes removed); nullopt when absent. Names compare case-sensitively.
std::optional<std::string> cookie_value(std::string_view header, std::string_view name);

}  // namespace placard::http
