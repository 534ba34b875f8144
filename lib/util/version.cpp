#include "lib/util/version.h"

namespace placard::util {

std::string Version::to_string() const {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

std::optional<Version> parse_version(std::string_view text) {
  int parts[3] = {0, 0, 0};
  std::size_t i = 0;
  for (int p = 0; p < 3; ++p) {
    if (p > 0) {
      if (i >= text.size() || text[i] != '.') return std::nullopt;
      ++i;
    }
    std::size_t digits = 0;
    int value = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      if (++digits > 5) return std::nullopt;
      value = value * 10 + (text[i] - '0');
      ++i;
    }
    if (digits == 0) return std::nullopt;
    parts[p] = value;
  }
  if (i != text.size()) return std::nullopt;
  return Version{parts[0], parts[1], parts[2]};
}

}  // namespace placard::util
