#include "lib/http/header.h"

#include <algorithm>

namespace placard::http {

namespace {
char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}
}  // namespace

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                            [](char x, char y) { return lower(x) == lower(y); });
}

std::string_view find_header(const Headers& headers, std::string_view lower_name) {
  for (const auto& h : headers) {
    if (h.name == lower_name) return h.value;
  }
  return {};
}

bool has_header(const Headers& headers, std::string_view lower_name) {
  return std::any_of(headers.begin(), headers.end(),
                     [&](const Header& h) { return h.name == lower_name; });
}

}  // namespace placard::http
