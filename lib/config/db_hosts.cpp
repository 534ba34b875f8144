#include "lib/config/db_hosts.h"

#include <arpa/inet.h>

#include <algorithm>
#include <stdexcept>

#include "lib/util/parse_int.h"

namespace placard::config {

namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool is_ipv6(std::string_view s) {
  if (s.empty() || s.size() >= INET6_ADDRSTRLEN) return false;
  unsigned char out[16];
  const std::string text(s);
  return inet_pton(AF_INET6, text.c_str(), out) == 1;
}

// A DNS name or an IPv4 address: dot-separated labels of letters, digits, '-' and '_' (names
// some container networks use), none empty or longer than 63, no '-' at either end.
bool is_host_name(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  std::size_t start = 0;
  while (start <= s.size()) {
    auto dot = s.find('.', start);
    if (dot == std::string_view::npos) dot = s.size();
    const auto label = s.substr(start, dot - start);
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-') {
      return false;
    }
    const bool ok = std::all_of(label.begin(), label.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             c == '-' || c == '_';
    });
    if (!ok) return false;
    start = dot + 1;
  }
  return true;
}

DbNode parse_entry(std::string_view entry, int default_port) {
  const std::string shown = "\"" + std::string(entry) + "\"";
  DbNode node;
  node.port = default_port;
  std::string_view host = entry;
  std::string_view port;
  if (!entry.empty() && entry.front() == '[') {
    const auto close = entry.find(']');
    if (close == std::string_view::npos) throw std::invalid_argument(shown + ": no closing ']'");
    host = entry.substr(1, close - 1);
    const auto rest = entry.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') throw std::invalid_argument(shown + ": expected :port after ']'");
      port = rest.substr(1);
      if (port.empty()) throw std::invalid_argument(shown + ": empty port");
    }
    if (!is_ipv6(host)) throw std::invalid_argument(shown + ": not an IPv6 address in [ ]");
  } else if (std::count(entry.begin(), entry.end(), ':') > 1) {
    if (!is_ipv6(entry)) throw std::invalid_argument(shown + ": not a host or IPv6 address");
  } else if (const auto colon = entry.find(':'); colon != std::string_view::npos) {
    host = entry.substr(0, colon);
    port = entry.substr(colon + 1);
    if (port.empty()) throw std::invalid_argument(shown + ": empty port");
  }
  if (!port.empty()) {
    const auto p = util::parse_canonical_in<int>(port, 1, 65535);
    if (!p) throw std::invalid_argument(shown + ": the port must be 1..65535");
    node.port = *p;
  }
  if (!is_ipv6(host) && !is_host_name(host)) {
    throw std::invalid_argument(shown + ": not a host name, IPv4 or IPv6 address");
  }
  node.host = host;
  return node;
}

std::vector<std::string_view> entries(std::string_view value) {
  std::vector<std::string_view> out;
  if (trimmed(value).empty()) return out;
  std::size_t start = 0;
  while (true) {
    const auto comma = value.find(',', start);
    out.push_back(
        trimmed(value.substr(start, comma == std::string_view::npos ? comma : comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

std::vector<DbNode> parse_db_hosts(std::string_view value, int default_port) {
  const auto parts = entries(value);
  if (parts.size() > kMaxDbHosts) {
    throw std::invalid_argument("at most " + std::to_string(kMaxDbHosts) +
                                " hosts, comma-separated");
  }
  std::vector<DbNode> nodes;
  for (const auto part : parts) {
    if (part.empty()) throw std::invalid_argument("an empty entry in the comma-separated list");
    if (std::count(parts.begin(), parts.end(), part) > 1) {
      throw std::invalid_argument("\"" + std::string(part) + "\" is named twice");
    }
    nodes.push_back(parse_entry(part, default_port));
  }
  return nodes;
}

std::string normalize_db_hosts(std::string_view value) {
  (void)parse_db_hosts(value, 3306);
  std::string out;
  for (const auto part : entries(value)) {
    if (!out.empty()) out += ',';
    out += part;
  }
  return out;
}

std::string tcp_url(const DbNode& node) {
  const bool v6 = node.host.find(':') != std::string::npos;
  return "tcp://" + (v6 ? "[" + node.host + "]" : node.host) + ":" + std::to_string(node.port);
}

}  // namespace placard::config
