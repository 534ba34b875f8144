#pragma once
// Whole-string integer parsing: the one helper for "a number and nothing else".
#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace placard::util {

// The decimal integer `text` holds, when it is one and nothing more (no sign other than a
// leading '-', no spaces, no trailing characters) and lies in [lo, hi]; nullopt otherwise.
template <typename Int = std::int64_t>
std::optional<Int> parse_int_in(std::string_view text, Int lo, Int hi) {
  Int v{};
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end || v < lo || v > hi) return std::nullopt;
  return v;
}

}  // namespace placard::util
