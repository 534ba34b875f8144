#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lib/http/client_address.h"
#include "lib/http/request.h"
#include "lib/store/event_store.h"
#include "lib/tokens/key_ring.h"

namespace placard::api {

// Turns a request's client address (behind trusted proxies: see http::client_address) into the
// key of the per-client limits: the UTC day (days since 1970, 2 bytes big-endian), then
// HMAC-SHA-256 of the address (an IPv6 one reduced to its /64, see http::client_key_text) under
// the day's key, truncated to 14 bytes. The day leads so that the day's events share one end of
// the raw tables' client index (`impressions_client`, `clicks_client`) instead of each needing a
// random page of it (issue 24, as for the token nonce: lib/tokens/token_nonce.h). The day's key is
// HMAC-SHA-256(secret, "placard client day key\n" YYYY-MM-DD) of the UTC date, so it changes every
// day, every host computes the same one from the config (the secret comes from the token keys), and
// nothing of the address is stored. One per request thread (it keeps the current day's key).
class ClientHasher {
 public:
  ClientHasher(const http::TrustedProxies& proxies, std::string secret);

  db::ClientHash hash(const http::Request& request, std::int64_t now);
  // The same for an address already known (canonical text, see http::client_address).
  db::ClientHash hash_address(std::string_view address, std::int64_t now);
  // The key of the UTC day that holds `now` (for tests: it changes at midnight, only then).
  std::array<unsigned char, 32> day_key(std::int64_t now);

 private:
  const http::TrustedProxies& proxies_;
  std::string secret_;
  std::int64_t day_ = -1;  // the day (days since 1970) day_key_ belongs to
  std::array<unsigned char, 32> day_key_{};
  // The day's key, prepared once (HMAC pads hashed): a hash then costs two SHA-256 blocks and no
  // OpenSSL algorithm lookup (the one-shot HMAC() fetches SHA-256 under a global lock each call).
  std::optional<tokens::KeyRing> day_ring_;
  tokens::MacWorkspace macs_;
};

}  // namespace placard::api
