#include "lib/admin/settings_rules.h"

#include "lib/catalog/client_origins.h"
#include "lib/json/writer.h"
#include "lib/util/parse_int.h"

namespace placard::admin {

namespace {

constexpr std::size_t kMaxOriginChars = 300;

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}
bool alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool digit(char c) {
  return c >= '0' && c <= '9';
}

bool valid_scheme(std::string_view s) {
  if (s.empty() || !alpha(s[0])) return false;
  for (const char c : s) {
    if (!alpha(c) && !digit(c) && c != '+' && c != '-' && c != '.') return false;
  }
  return true;
}

// A DNS-style name (labels of letters, digits and '-', not starting or ending with '-'), an IPv4
// address fits it too; or an IPv6 address in brackets.
bool valid_host(std::string_view h) {
  if (h.empty() || h.size() > 253) return false;
  if (h.front() == '[') {
    if (h.size() < 4 || h.back() != ']') return false;
    for (const char c : h.substr(1, h.size() - 2)) {
      if (!digit(c) && !(lower(c) >= 'a' && lower(c) <= 'f') && c != ':' && c != '.') {
        return false;
      }
    }
    return true;
  }
  std::size_t start = 0;
  while (true) {
    const auto dot = h.find('.', start);
    const auto label = h.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-') {
      return false;
    }
    for (const char c : label) {
      if (!alpha(c) && !digit(c) && c != '-') return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

}  // namespace

std::optional<std::string> normalize_client_origin(std::string_view text) {
  if (text.size() > kMaxOriginChars) return std::nullopt;
  const auto sep = text.find("://");
  if (sep == std::string_view::npos) return std::nullopt;
  const std::string_view scheme = text.substr(0, sep);
  std::string_view rest = text.substr(sep + 3);
  if (!valid_scheme(scheme)) return std::nullopt;
  if (rest == "*") {
    // The only wildcard: every Firefox extension (its UUID is random per installation).
    std::string out;
    for (const char c : scheme) out.push_back(lower(c));
    out += "://*";
    if (out == catalog::kAnyFirefoxExtension) return out;
    return std::nullopt;
  }
  // The port: after the last ':' that follows the host (an IPv6 host has colons inside brackets).
  std::string_view host = rest;
  std::optional<std::string_view> port;
  const auto close = rest.rfind(']');
  const auto colon = rest.rfind(':');
  if (colon != std::string_view::npos && (close == std::string_view::npos || colon > close)) {
    host = rest.substr(0, colon);
    port = rest.substr(colon + 1);
  }
  if (!valid_host(host)) return std::nullopt;
  std::string out;
  for (const char c : scheme) out.push_back(lower(c));
  out += "://";
  for (const char c : host) out.push_back(lower(c));
  if (port) {
    const auto parsed = util::parse_canonical_in<int>(*port, 1, 65535);
    if (!parsed) return std::nullopt;
    const int n = *parsed;
    const bool default_port =
        (n == 80 && out.starts_with("http://")) || (n == 443 && out.starts_with("https://"));
    if (!default_port) out += ":" + std::string(*port);
  }
  return out;
}

std::int64_t token_ttl_days(std::int64_t token_ttl_seconds) {
  constexpr std::int64_t kDay = 86400;
  return (token_ttl_seconds + kDay - 1) / kDay;
}

std::string settings_json(const catalog::Settings& s) {
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  w.StartObject();
  for (const auto& row : catalog::stored_settings_table()) {
    w.Key(row.name.data(), static_cast<rapidjson::SizeType>(row.name.size()));
    const std::string text = row.get(s);
    const auto size = static_cast<rapidjson::SizeType>(text.size());
    switch (row.type) {
      case catalog::StoredType::boolean:
        w.Bool(text == "true");
        break;
      case catalog::StoredType::integer:
        w.RawValue(text.data(), size, rapidjson::kNumberType);
        break;
      case catalog::StoredType::origins:
        w.RawValue(text.data(), size, rapidjson::kArrayType);
        break;
      case catalog::StoredType::version:
        w.String(text);
        break;
      case catalog::StoredType::text:
        if (text.empty()) {
          w.Null();
        } else {
          w.String(text);
        }
        break;
    }
  }
  w.EndObject();
  return json::to_string(buf);
}

}  // namespace placard::admin
