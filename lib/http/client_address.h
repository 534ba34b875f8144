#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/http/request.h"

namespace placard::http {

// An IPv4 or IPv6 address as 16 bytes (IPv4 as ::ffff:a.b.c.d, so both forms of one IPv4
// address are equal).
using IpBytes = std::array<unsigned char, 16>;

// The address in `text` ("192.0.2.1", "2001:db8::1", "[2001:db8::1]"; an IPv4 address may carry
// ":port", a bracketed IPv6 one "]:port"); nullopt for anything else.
std::optional<IpBytes> parse_ip(std::string_view text);
// The canonical text of an address: dotted IPv4 for IPv4 (also when it came IPv4-mapped),
// RFC 5952 IPv6 otherwise.
std::string ip_text(const IpBytes& ip);

// The reverse proxies whose X-Forwarded-For is believed (config key `trusted_proxies`): a list of
// addresses and CIDR ranges, e.g. "127.0.0.1, ::1, 10.0.0.0/8". Empty: none.
class TrustedProxies {
 public:
  TrustedProxies() = default;
  // Comma- or space-separated entries; throws std::invalid_argument naming a bad entry.
  static TrustedProxies parse(std::string_view list);

  bool contains(const IpBytes& ip) const;
  bool empty() const { return nets_.empty(); }

 private:
  struct Net {
    IpBytes base{};
    int prefix = 128;  // bits, over the 16-byte form
  };
  std::vector<Net> nets_;
};

// The client's address as canonical text: the web server's peer (REMOTE_ADDR) unless that peer is
// a trusted proxy; then X-Forwarded-For read right to left, skipping trusted hops, up to the first
// address that is not trusted (or the leftmost, when every hop is trusted). A malformed entry
// stops the walk at the hop that forwarded it. An unparsable REMOTE_ADDR is returned as it is.
std::string client_address(const Request& request, const TrustedProxies& trusted);

// What per-client keys are made of (sign-in throttle, registration limits, counting limits): an
// IPv4 address as it is, an IPv6 address reduced to its /64 ("2001:db8:1:2::/64": one
// subscriber's network is one client, not 2^64 of them); anything unparsable as it is.
std::string client_key_text(std::string_view address);

}  // namespace placard::http
