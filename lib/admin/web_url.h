#pragma once
#include <string_view>

namespace placard::admin {

inline constexpr std::size_t kMaxUrlChars = 2048;

// An absolute http or https URL with a host, as the admin API stores for tracking and image
// URLs: printable ASCII only (no spaces, control characters, quotes, angle brackets or
// backslashes), the scheme in any case, `//`, no `user@` (refused: the URL would lead to the host
// after the '@'; network::offer_url_allowed is the same rule), a host of letters, digits,
// '-', '.' (or a bracketed IPv6 address), an optional port 1..65535, then any path, query and
// fragment. At most kMaxUrlChars characters.
bool is_web_url(std::string_view url);

}  // namespace placard::admin
