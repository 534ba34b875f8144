#pragma once
// Whole-string integer parsing: the one helper for "a number and nothing else".
#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace placard::util {

// The integer `text` holds in `base` (10 unless given; 8 for file modes), when it is one and
// nothing more (no sign other than a leading '-', no spaces, no trailing characters) and lies
// in [lo, hi]; nullopt otherwise (overflow included).
template <typename Int = std::int64_t>
std::optional<Int> parse_int_in(std::string_view text, Int lo, Int hi, int base = 10) {
  Int v{};
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v, base);
  if (text.empty() || ec != std::errc() || ptr != end || v < lo || v > hi) return std::nullopt;
  return v;
}

// parse_int_in, for text that must be written the one canonical way (ids in URLs, ports, hash
// parameters): digits only, no sign, no leading zero (except "0" itself).
template <typename Int = std::int64_t>
std::optional<Int> parse_canonical_in(std::string_view text, Int lo, Int hi) {
  if (text.empty() || text[0] == '-' || (text.size() > 1 && text[0] == '0')) return std::nullopt;
  return parse_int_in<Int>(text, lo, hi);
}

}  // namespace placard::util
