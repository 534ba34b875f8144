#pragma once
// An integer's decimal digits appended to a string (std::to_chars: no locale, no formatted print).
#include <array>
#include <charconv>
#include <string>

namespace placard::util {

template <typename Int>
void append_decimal(std::string& out, Int value) {
  std::array<char, 24> buf{};
  const auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), value);
  out.append(buf.data(), end);
}

}  // namespace placard::util
