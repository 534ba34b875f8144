#include "lib/catalog/client_origins.h"

#include <algorithm>

namespace placard::catalog {

namespace {

constexpr std::string_view kFirefoxScheme = "moz-extension://";
constexpr std::size_t kMaxLabel = 63;

bool firefox_extension_origin(std::string_view origin) {
  if (!origin.starts_with(kFirefoxScheme)) return false;
  const std::string_view id = origin.substr(kFirefoxScheme.size());
  if (id.empty() || id.size() > kMaxLabel || id.front() == '-' || id.back() == '-') return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

}  // namespace

bool client_origin_allowed(const std::vector<std::string>& allowed, std::string_view origin) {
  for (const auto& entry : allowed) {
    // The wildcard is a pattern only: the literal Origin "moz-extension://*" is not an origin.
    if (entry == kAnyFirefoxExtension ? firefox_extension_origin(origin) : entry == origin) {
      return true;
    }
  }
  return false;
}

}  // namespace placard::catalog
