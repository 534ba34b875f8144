#pragma once
#include <string_view>

namespace placard::util {

// s without leading and trailing characters of `chars` (by default spaces and tabs, HTTP's
// optional whitespace).
constexpr std::string_view trim(std::string_view s, std::string_view chars = " \t") {
  const auto first = s.find_first_not_of(chars);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(chars) - first + 1);
}

}  // namespace placard::util
