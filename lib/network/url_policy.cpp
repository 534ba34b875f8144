#include "lib/network/url_policy.h"

#include <cctype>

#include "lib/http/header.h"
#include "lib/util/parse_int.h"

namespace placard::network {

namespace {

std::string_view after_scheme(std::string_view url) {
  if (http::starts_with_ci(url, "https://")) return url.substr(8);
  if (http::starts_with_ci(url, "http://")) return url.substr(7);
  return {};
}

bool all_digits(std::string_view s) {
  if (s.empty() || s.size() > 3) return false;
  for (const char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

std::string url_host(std::string_view url) {
  std::string_view rest = after_scheme(url);
  if (rest.empty()) return {};
  const auto end = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, end);
  if (authority.find('@') != std::string_view::npos) return {};
  std::string_view host;
  if (!authority.empty() && authority.front() == '[') {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) return {};
    host = authority.substr(1, close - 1);
    const auto tail = authority.substr(close + 1);
    if (!tail.empty() && tail.front() != ':') return {};
  } else {
    host = authority.substr(0, authority.find(':'));
  }
  std::string out;
  for (const char c : host)
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return out;
}

bool is_loopback_host(std::string_view host) {
  if (host == "localhost" || host == "::1") return true;
  // 127.a.b.c in dotted decimal, each part 0..255
  if (host.substr(0, 4) != "127.") return false;
  std::string_view rest = host.substr(4);
  for (int i = 0; i < 3; ++i) {
    const auto dot = rest.find('.');
    const std::string_view part = i < 2 ? rest.substr(0, dot) : rest;
    if (!all_digits(part) || !util::parse_int_in<int>(part, 0, 255)) return false;
    if (i < 2) {
      if (dot == std::string_view::npos) return false;
      rest = rest.substr(dot + 1);
    }
  }
  return true;
}

bool allowed_url(std::string_view url) {
  for (const char c : url) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7F) return false;
  }
  const std::string host = url_host(url);
  if (host.empty()) return false;
  if (http::starts_with_ci(url, "https://")) return true;
  return http::starts_with_ci(url, "http://") && is_loopback_host(host);
}

bool offer_url_allowed(std::string_view url) {
  for (const char c : url) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u == 0x7F || c == '\\') return false;
  }
  return !url_host(url).empty();  // http(s) only, an authority without '@'
}

bool valid_api_base(std::string_view url) {
  return allowed_url(url) && url.find_first_of("?#") == std::string_view::npos;
}

std::string normalize_api_base(std::string_view url) {
  while (!url.empty() && url.back() == '/') url.remove_suffix(1);
  return std::string(url);
}

}  // namespace placard::network
