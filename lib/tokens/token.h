#pragma once

// Signed impression and click tokens.
//
// Text form: base64url(payload) "." base64url(MAC), unpadded, so only [A-Za-z0-9_-] and one ".".
// Payload (binary, big-endian integers), format version 2:
//   version u8 (=2) | kind u8 | kid length u8 | kid | nonce[16] | issued_at u32 (unix seconds) |
//   offer_id length u8 (1..8) | offer_id in that many bytes, no leading zero byte |
//   country[2] | placement length u8 | placement
// MAC: the first 16 bytes (128 bits) of HMAC-SHA-256(key[kid], payload), as RFC 2104 section 5
// allows. It covers the whole payload, including version and kid. Version 2 is the compact form:
// a typical token (9-character kid, an offer id below 65,536, 10-character placement: a 48-byte
// payload) is 87 characters, and its payload fits one SHA-256 block (at most 55 bytes), so signing
// costs two compressions instead of three. The longest token (16-char kid, 64-bit offer id,
// 64-byte placement: a 115-byte payload) is 177 characters (test_token.cpp checks both).
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
  std::array<unsigned char, 16> nonce{};  // issue time, then random (token_nonce.h); shared by
                                          // the impression and click token of one offer in one
                                          // answer
  std::int64_t issued_at = 0;             // unix seconds, 0..2^32-1
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

// Appends the token for `claims`, signed with keys.active_kid(), to `out`. Throws
// std::invalid_argument when the claims break the field rules above (placement 1..64 bytes,
// country 2 bytes, issued_at 0..2^32-1, kind impression or click).
void sign_token_append(std::string& out, const KeyRing& keys, const TokenClaims& claims,
                       MacWorkspace& workspace);
std::string sign_token(const KeyRing& keys, const TokenClaims& claims);

// Verifies `token`. Never throws on bad input. Order: malformed (size, charset, shape, decoding,
// strict payload parse) -> unknown_key -> bad_signature (constant-time compare) -> wrong_kind.
VerifyResult verify_token(const KeyRing& keys, std::string_view token, TokenKind expected,
                          MacWorkspace& workspace);
VerifyResult verify_token(const KeyRing& keys, std::string_view token, TokenKind expected);

// 32 lowercase hex characters (used as the click id).
std::string nonce_hex(const std::array<unsigned char, 16>& nonce);

}  // namespace placard::tokens
