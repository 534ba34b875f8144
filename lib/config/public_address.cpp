#include "lib/config/public_address.h"

#include "lib/http/client_address.h"
#include "lib/util/parse_int.h"

namespace placard::config {

namespace {

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = lower(c);
  return out;
}

// A DNS name: labels of letters, digits and '-' (not at either end), 1..63 each, 253 in all.
bool valid_dns_name(std::string_view host) {
  if (host.empty() || host.size() > 253) return false;
  std::size_t start = 0;
  while (start <= host.size()) {
    auto dot = host.find('.', start);
    if (dot == std::string_view::npos) dot = host.size();
    const auto label = host.substr(start, dot - start);
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-') {
      return false;
    }
    for (char c : label) {
      if (!is_alnum(c) && c != '-') return false;
    }
    start = dot + 1;
  }
  return true;
}

struct OriginParts {
  std::string_view scheme;
  std::string_view host;  // brackets kept for IPv6
  std::string_view port;  // empty when absent
};

std::string split_origin(std::string_view origin, OriginParts& out) {
  const auto sep = origin.find("://");
  if (sep == std::string_view::npos) return "expected scheme://host[:port]";
  out.scheme = origin.substr(0, sep);
  const std::string scheme = lowered(out.scheme);
  if (scheme != "http" && scheme != "https") return "the scheme must be http or https";
  std::string_view rest = origin.substr(sep + 3);
  if (rest.find_first_of("/?#@\\ ") != std::string_view::npos) {
    return "only scheme://host[:port]: no path (not even a trailing '/'), query, fragment or user";
  }
  if (!rest.empty() && rest.front() == '[') {
    const auto close = rest.find(']');
    if (close == std::string_view::npos) return "an IPv6 host needs its closing ']'";
    out.host = rest.substr(0, close + 1);
    rest = rest.substr(close + 1);
    if (!rest.empty() && rest.front() != ':') return "unexpected text after the IPv6 host";
    out.port = rest.empty() ? rest : rest.substr(1);
    if (!http::parse_ip(out.host)) return "not an IPv6 address: " + std::string(out.host);
    if (!rest.empty() && out.port.empty()) return "an empty port";
    return {};
  }
  const auto colon = rest.find(':');
  out.host = rest.substr(0, colon);
  if (colon != std::string_view::npos) {
    out.port = rest.substr(colon + 1);
    if (out.port.empty()) return "an empty port";
  }
  if (!valid_dns_name(out.host)) return "not a host name or IPv4 address: " + std::string(out.host);
  return {};
}

}  // namespace

std::string check_public_origin(std::string_view origin) {
  OriginParts parts;
  std::string error = split_origin(origin, parts);
  if (error.empty() && !parts.port.empty()) {
    if (!util::parse_int_in<int>(parts.port, 1, 65535)) {
      error = "the port must be 1..65535";
    }
  }
  return error.empty() ? error
                       : "expected scheme://host[:port], e.g. https://example.com: " + error;
}

std::string normalize_public_origin(std::string_view origin) {
  OriginParts parts;
  if (!split_origin(origin, parts).empty()) return std::string(origin);
  const std::string scheme = lowered(parts.scheme);
  std::string out = scheme + "://" + lowered(parts.host);
  const bool default_port =
      (scheme == "http" && parts.port == "80") || (scheme == "https" && parts.port == "443");
  if (!parts.port.empty() && !default_port) out += ":" + std::string(parts.port);
  return out;
}

std::string check_base_path(std::string_view base) {
  if (base.empty()) return {};
  if (base.size() > 200) return "at most 200 characters";
  if (base.front() != '/') return "must start with '/' (e.g. /offers), or be empty for the root";
  if (base.back() == '/') return "no trailing '/' (e.g. /offers, not /offers/)";
  std::size_t start = 1;
  while (start <= base.size()) {
    auto slash = base.find('/', start);
    if (slash == std::string_view::npos) slash = base.size();
    const auto segment = base.substr(start, slash - start);
    if (segment.empty()) return "no empty segment ('//')";
    if (segment == "." || segment == "..") return "no '.' or '..' segment";
    for (char c : segment) {
      if (!is_alnum(c) && c != '-' && c != '_' && c != '.' && c != '~') {
        return "only letters, digits, '-', '_', '.' and '~' between the '/'";
      }
    }
    start = slash + 1;
  }
  return {};
}

bool strip_base_path(std::string_view base, std::string_view path, std::string_view& rest) {
  if (base.empty()) {
    rest = path;
    return true;
  }
  if (path.size() < base.size() || path.substr(0, base.size()) != base) return false;
  if (path.size() > base.size() && path[base.size()] != '/') return false;
  rest = path.substr(base.size());
  return true;
}

}  // namespace placard::config
