#pragma once
#include <string>
#include <string_view>

namespace placard::db {

// LIKE patterns with '!' as the escape character (`LIKE ? ESCAPE '!'`): the metacharacters
// % and _ and the escape itself match only themselves, whatever the server's sql_mode.
inline constexpr char kLikeEscape = '!';

std::string like_escape(std::string_view text);
// Matches any text that contains `text`.
inline std::string like_contains(std::string_view text) {
  return "%" + like_escape(text) + "%";
}
// Matches any text that starts with `text`.
inline std::string like_prefix(std::string_view text) {
  return like_escape(text) + "%";
}

}  // namespace placard::db
