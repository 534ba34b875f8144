#include "lib/db/like_pattern.h"

namespace placard::db {

std::string like_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 8);
  for (const char c : text) {
    if (c == '%' || c == '_' || c == kLikeEscape) out.push_back(kLikeEscape);
    out.push_back(c);
  }
  return out;
}

}  // namespace placard::db
