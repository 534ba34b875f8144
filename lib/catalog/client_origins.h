#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace placard::catalog {

// The one wildcard entry allowedClientOrigins may hold (contract section 5): Firefox gives every
// installation of an extension its own random UUID, so no fixed list can name them. It matches
// every `moz-extension://<uuid>` origin and nothing else; no other wildcard exists.
inline constexpr std::string_view kAnyFirefoxExtension = "moz-extension://*";

// Whether a request's `Origin` is granted by the list: an exact entry, or kAnyFirefoxExtension
// for an origin `moz-extension://` followed by one label of lower-case letters, digits and '-'
// (what Firefox sends: no port, no path, no dot).
bool client_origin_allowed(const std::vector<std::string>& allowed, std::string_view origin);

}  // namespace placard::catalog
