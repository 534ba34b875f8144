#include "lib/admin/web_url.h"

#include <cctype>

#include "lib/http/header.h"

namespace placard::admin {

namespace {

bool acceptable_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u <= 0x20 || u >= 0x7F) return false;
  return c != '"' && c != '<' && c != '>' && c != '\\' && c != '`' && c != '{' && c != '}' &&
         c != '|' && c != '^';
}

bool host_name(std::string_view h) {
  if (h.empty() || h.size() > 253 || h.front() == '.' || h.front() == '-') return false;
  for (const char c : h) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') return false;
  }
  return true;
}

bool ipv6_literal(std::string_view h) {
  if (h.size() < 4 || h.front() != '[' || h.back() != ']') return false;
  for (const char c : h.substr(1, h.size() - 2)) {
    if (!std::isxdigit(static_cast<unsigned char>(c)) && c != ':' && c != '.') return false;
  }
  return true;
}

bool port_number(std::string_view p) {
  if (p.empty() || p.size() > 5) return false;
  unsigned v = 0;
  for (const char c : p) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  return v >= 1 && v <= 65535;
}

}  // namespace

bool is_web_url(std::string_view url) {
  if (url.size() > kMaxUrlChars) return false;
  for (const char c : url) {
    if (!acceptable_char(c)) return false;
  }
  std::string_view rest;
  if (http::starts_with_ci(url, "https://")) {
    rest = url.substr(8);
  } else if (http::starts_with_ci(url, "http://")) {
    rest = url.substr(7);
  } else {
    return false;
  }
  std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
  if (authority.find('@') != std::string_view::npos) return false;  // user information
  std::string_view host = authority;
  if (!authority.empty() && authority.front() == '[') {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) return false;
    host = authority.substr(0, close + 1);
    const auto after = authority.substr(close + 1);
    if (!after.empty() && (after.front() != ':' || !port_number(after.substr(1)))) return false;
    return ipv6_literal(host);
  }
  if (const auto colon = authority.find(':'); colon != std::string_view::npos) {
    if (!port_number(authority.substr(colon + 1))) return false;
    host = authority.substr(0, colon);
  }
  return host_name(host);
}

}  // namespace placard::admin
