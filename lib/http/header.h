#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace placard::http {

// Header names are stored lower-case; values as received.
struct Header {
  std::string name;
  std::string value;
};

using Headers = std::vector<Header>;

bool iequals(std::string_view a, std::string_view b);
// True when s begins with prefix, ASCII letters compared case-insensitively.
inline bool starts_with_ci(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

// First value of a header (name must be lower-case); empty when absent.
std::string_view find_header(const Headers& headers, std::string_view lower_name);
bool has_header(const Headers& headers, std::string_view lower_name);

}  // namespace placard::http
