#pragma once

// Signed impression and click tokens.
//
// Text form: base64url(payload) "." base64url(HMAC-SHA-256(key[kid], payload)), unpadded, so
// only [A-Za-z0-9_-] and one ".". Payload (binary, big-endian integers):
//   version u8 (=1) | kind u8 | kid length u8 | kid | nonce[16] | issued_at i64 | offer_id u64 |
//   country[2] | placement length u8 | placement
// The MAC covers the whole payload, including version and kid. The longest token (16-char kid,
// 64-byte placement) is 202 characters.
//
// verify_token checks format and signature only; expiry (TTL) and matching the offer id of the
// request are the caller's job.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "lib/tokens/key_ring.h"

namespace placard::tokens {

enum class TokenKind : std::uint8_t { impression = 1, click = 2 };

struct TokenClaims {
  TokenKind kind = TokenKind::impression;
  std::array<unsigned char, 16> nonce{};  // random, shared by the impression and click token of
                                          // one offer in one answer
  std::int64_t issued_at = 0;             // unix seconds
  std::uint64_t offer_id = 0;
  std::string placement;  // 1..64 bytes
  std::string country;    // exactly 2 bytes

  friend bool operator==(const TokenClaims&, const TokenClaims&) = default;
};

enum class VerifyStatus { ok, malformed, unknown_key, bad_signature, wrong_kind };

struct VerifyResult {
  VerifyStatus status;
  TokenClaims claims;  // filled when status is ok or wrong_kind (signature valid), else default
};

// Longest accepted token text.
inline constexpr std::size_t kMaxTokenLength = 512;

// Signs `claims` with keys.active_kid(). Throws std::invalid_argument when the claims break the
// field rules above (placement 1..64 bytes, country 2 bytes, kind impression or click).
std::string sign_token(const KeyRing& keys, const TokenClaims& claims);

// Verifies `token`. Never throws on bad input. Order: malformed (size, charset, shape, decoding,
// strict payload parse) -> unknown_key -> bad_signature (constant-time compare) -> wrong_kind.
VerifyResult verify_token(const KeyRing& keys, std::string_view token, TokenKind expected);

// 32 lowercase hex characters (used as the click id).
std::string nonce_hex(const std::array<unsigned char, 16>& nonce);

}  // namespace placard::tokens
