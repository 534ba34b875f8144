#pragma once

// What the impression and click handler tests share: one key ring, tokens signed with it, the
// request thread's client hasher, and the status and code of the ApiError a call throws.

#include <array>
#include <cstdint>
#include <functional>
#include <string>

#include "lib/api/client_hasher.h"
#include "lib/crypto/base64.h"
#include "lib/http/api_error.h"
#include "lib/http/client_address.h"
#include "lib/tokens/key_ring.h"
#include "lib/tokens/token.h"

namespace placard::test {

inline constexpr std::int64_t kNow = 1'800'000'000;

inline tokens::KeyRing keys() {
  return tokens::KeyRing::parse("k1:" + crypto::base64url_encode(std::string(32, 'k')), "k1");
}

inline std::string token(tokens::TokenKind kind, std::uint64_t offer, std::int64_t issued_at,
                         char nonce = 'n') {
  tokens::TokenClaims c;
  c.kind = kind;
  c.nonce.fill(static_cast<unsigned char>(nonce));
  c.issued_at = issued_at;
  c.offer_id = offer;
  c.placement = "popup-main";
  c.country = "DE";
  return tokens::sign_token(keys(), c);
}

// The request thread's client hasher (no trusted proxies).
inline api::ClientHasher& hasher() {
  static const http::TrustedProxies none;
  static api::ClientHasher h(none, "day secret");
  return h;
}

inline std::string error_code(const std::function<void()>& f) {
  try {
    f();
  } catch (const http::ApiError& e) {
    return std::to_string(e.status()) + " " + e.code();
  }
  return "no error";
}

}  // namespace placard::test
