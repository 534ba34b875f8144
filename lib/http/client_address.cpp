#include "lib/http/client_address.h"

#include <arpa/inet.h>

#include <stdexcept>

#include "lib/util/parse_int.h"
#include "lib/util/trim.h"

namespace placard::http {

namespace {

constexpr std::size_t kMaxAddressChars = 64;

// inet_pton of `text` (at most `max` characters) into `out`.
template <typename Addr>
bool pton(int family, std::string_view text, std::size_t max, Addr& out) {
  if (text.empty() || text.size() > max) return false;
  std::array<char, 48> buf{};
  text.copy(buf.data(), text.size());
  return inet_pton(family, buf.data(), &out) == 1;
}

std::optional<IpBytes> parse_v4(std::string_view text) {
  in_addr v4{};
  if (!pton(AF_INET, text, 15, v4)) return std::nullopt;
  IpBytes out{};
  out[10] = 0xff;
  out[11] = 0xff;
  const auto* b = reinterpret_cast<const unsigned char*>(&v4.s_addr);  // network order
  for (int i = 0; i < 4; ++i) out[12 + i] = b[i];
  return out;
}

std::optional<IpBytes> parse_v6(std::string_view text) {
  in6_addr v6{};
  if (!pton(AF_INET6, text, 45, v6)) return std::nullopt;
  IpBytes out{};
  for (int i = 0; i < 16; ++i) out[i] = v6.s6_addr[i];
  return out;
}

bool is_v4_mapped(const IpBytes& ip) {
  for (int i = 0; i < 10; ++i) {
    if (ip[i] != 0) return false;
  }
  return ip[10] == 0xff && ip[11] == 0xff;
}

bool port_text(std::string_view p) {
  return p.size() <= 5 && util::parse_int_in<int>(p, 0, 65535).has_value();
}

bool in_net(const IpBytes& ip, const IpBytes& base, int prefix) {
  int bits = prefix;
  for (std::size_t i = 0; i < ip.size() && bits > 0; ++i, bits -= 8) {
    const unsigned mask = bits >= 8 ? 0xffU : (0xffU << (8 - bits)) & 0xffU;
    if ((ip[i] & mask) != (base[i] & mask)) return false;
  }
  return true;
}

}  // namespace

std::optional<IpBytes> parse_ip(std::string_view text) {
  if (text.size() > kMaxAddressChars) return std::nullopt;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    const auto rest = text.substr(close + 1);
    if (!rest.empty() && (rest.front() != ':' || !port_text(rest.substr(1)))) return std::nullopt;
    return parse_v6(text.substr(1, close - 1));
  }
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) return parse_v4(text);
  if (text.find(':', colon + 1) == std::string_view::npos) {  // one colon: IPv4 and a port
    if (!port_text(text.substr(colon + 1))) return std::nullopt;
    return parse_v4(text.substr(0, colon));
  }
  return parse_v6(text);
}

std::string ip_text(const IpBytes& ip) {
  char buf[INET6_ADDRSTRLEN];
  if (is_v4_mapped(ip)) {
    in_addr v4{};
    auto* b = reinterpret_cast<unsigned char*>(&v4.s_addr);
    for (int i = 0; i < 4; ++i) b[i] = ip[12 + i];
    return inet_ntop(AF_INET, &v4, buf, sizeof buf) != nullptr ? std::string(buf) : std::string();
  }
  in6_addr v6{};
  for (int i = 0; i < 16; ++i) v6.s6_addr[i] = ip[i];
  return inet_ntop(AF_INET6, &v6, buf, sizeof buf) != nullptr ? std::string(buf) : std::string();
}

TrustedProxies TrustedProxies::parse(std::string_view list) {
  TrustedProxies out;
  std::size_t start = 0;
  while (start <= list.size()) {
    auto end = list.find_first_of(", \t", start);
    if (end == std::string_view::npos) end = list.size();
    const auto entry = list.substr(start, end - start);
    start = end + 1;
    if (entry.empty()) continue;
    const auto slash = entry.find('/');
    const auto addr = entry.substr(0, slash);
    // A bare address or address/prefix; no ports, no brackets.
    const bool v4 = addr.find(':') == std::string_view::npos;
    const auto ip = v4 ? parse_v4(addr) : parse_v6(addr);
    if (!ip) throw std::invalid_argument("not an IP address or CIDR range: " + std::string(entry));
    int prefix = 128;
    if (slash != std::string_view::npos) {
      const auto p = entry.substr(slash + 1);
      const auto n = util::parse_int_in<int>(p, 0, v4 ? 32 : 128);
      if (!n) throw std::invalid_argument("bad prefix length in " + std::string(entry));
      prefix = v4 ? 96 + *n : *n;
    }
    out.nets_.push_back({*ip, prefix});
  }
  return out;
}

bool TrustedProxies::contains(const IpBytes& ip) const {
  for (const auto& net : nets_) {
    if (in_net(ip, net.base, net.prefix)) return true;
  }
  return false;
}

std::string client_address(const Request& request, const TrustedProxies& trusted) {
  auto peer = parse_ip(request.remote_addr);
  if (!peer) return request.remote_addr;
  if (trusted.empty() || !trusted.contains(*peer)) return ip_text(*peer);
  // Every X-Forwarded-For header the web server passed on (CGI joins repeats with ", ").
  const std::string_view forwarded = request.header("x-forwarded-for");
  IpBytes current = *peer;
  std::size_t end = forwarded.size();
  while (end > 0) {
    const auto comma = forwarded.rfind(',', end - 1);
    const std::size_t begin = comma == std::string_view::npos ? 0 : comma + 1;
    const auto entry = util::trim(forwarded.substr(begin, end - begin));
    end = comma == std::string_view::npos ? 0 : comma;
    if (entry.empty()) continue;
    const auto hop = parse_ip(entry);
    if (!hop) break;  // garbage: believe the trusted hop that forwarded it
    current = *hop;
    if (!trusted.contains(current)) break;
  }
  return ip_text(current);
}

std::string client_key_text(std::string_view address) {
  auto ip = parse_ip(address);
  if (!ip) return std::string(address);
  if (is_v4_mapped(*ip)) return ip_text(*ip);
  for (std::size_t i = 8; i < ip->size(); ++i) (*ip)[i] = 0;
  return ip_text(*ip) + "/64";
}

}  // namespace placard::http
