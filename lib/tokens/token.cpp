#include "lib/tokens/token.h"

#include <openssl/crypto.h>

#include <algorithm>
#include <optional>
#include <span>
#include <stdexcept>

#include "lib/crypto/base64.h"
#include "lib/crypto/sha256.h"
#include "lib/util/big_endian.h"
#include "lib/util/byte_view.h"

namespace placard::tokens {
namespace {

constexpr std::uint8_t kVersion = 2;
constexpr std::size_t kMacSize = 16;  // HMAC-SHA-256 truncated to 128 bits
constexpr std::size_t kNonceSize = 16;
constexpr std::size_t kCountrySize = 2;
constexpr std::size_t kMaxPlacement = 64;
constexpr std::size_t kMaxOfferIdBytes = 8;
constexpr std::int64_t kMaxIssuedAt = 0xffffffffLL;
constexpr std::size_t kFixedSize = 1 + 1 + 1 + kNonceSize + 4 + 1 + kCountrySize + 1;
constexpr std::size_t kMaxPayload =
    kFixedSize + KeyRing::kMaxKidLength + kMaxOfferIdBytes + kMaxPlacement;
constexpr std::size_t kMacChars = crypto::base64url_encoded_size(kMacSize);
constexpr std::size_t kLongestToken = crypto::base64url_encoded_size(kMaxPayload) + 1 + kMacChars;
static_assert(kLongestToken == 177, "keep the format comment in token.h true");
static_assert(kLongestToken <= kMaxTokenLength / 2,
              "tokens must stay well under the 512-character limit");

class Writer {
 public:
  void u8(std::uint8_t v) { buf_[size_++] = v; }
  void u32(std::uint32_t v) { big_endian(v, 4); }
  // Length byte, then the big-endian bytes of `v` without leading zero bytes (at least one).
  void short_u64(std::uint64_t v) {
    std::uint8_t n = 1;
    while (n < 8 && (v >> (8 * n)) != 0) ++n;
    u8(n);
    big_endian(v, n);
  }
  void bytes(std::span<const unsigned char> b) {
    std::copy(b.begin(), b.end(), buf_.begin() + static_cast<std::ptrdiff_t>(size_));
    size_ += b.size();
  }
  void bytes(std::string_view s) {
    bytes(std::span(reinterpret_cast<const unsigned char*>(s.data()), s.size()));
  }
  std::string_view view() const { return util::as_chars(std::span(buf_.data(), size_)); }

 private:
  void big_endian(std::uint64_t v, std::size_t n) {
    util::store_big_endian(std::span(buf_).subspan(size_, n), v);
    size_ += n;
  }

  std::array<unsigned char, kMaxPayload> buf_{};
  std::size_t size_ = 0;
};

// Bounds-checked reader; every read fails (and keeps failing) once past the end.
class Reader {
 public:
  explicit Reader(std::span<const unsigned char> data) : data_(data) {}
  std::optional<std::uint8_t> u8() {
    if (data_.empty()) return std::nullopt;
    const std::uint8_t v = data_.front();
    data_ = data_.subspan(1);
    return v;
  }
  std::optional<std::uint32_t> u32() {
    const auto b = take(4);
    if (!b) return std::nullopt;
    std::uint32_t v = 0;
    for (const unsigned char c : *b) v = (v << 8) | c;
    return v;
  }
  // The form Writer::short_u64 writes; a longer-than-needed encoding is malformed, so that each
  // value has exactly one encoding.
  std::optional<std::uint64_t> short_u64() {
    const auto n = u8();
    if (!n || *n == 0 || *n > 8) return std::nullopt;
    const auto b = take(*n);
    if (!b || (*n > 1 && b->front() == 0)) return std::nullopt;
    std::uint64_t v = 0;
    for (const unsigned char c : *b) v = (v << 8) | c;
    return v;
  }
  std::optional<std::span<const unsigned char>> take(std::size_t n) {
    if (data_.size() < n) return std::nullopt;
    const auto out = data_.first(n);
    data_ = data_.subspan(n);
    return out;
  }
  bool at_end() const { return data_.empty(); }

 private:
  std::span<const unsigned char> data_;
};

std::optional<TokenClaims> parse_payload(std::span<const unsigned char> payload,
                                         std::string_view& kid) {
  Reader in(payload);
  const auto version = in.u8();
  const auto kind = in.u8();
  if (!version || *version != kVersion || !kind ||
      (*kind != static_cast<std::uint8_t>(TokenKind::impression) &&
       *kind != static_cast<std::uint8_t>(TokenKind::click))) {
    return std::nullopt;
  }
  const auto kid_len = in.u8();
  if (!kid_len) return std::nullopt;
  const auto kid_bytes = in.take(*kid_len);
  if (!kid_bytes || !KeyRing::valid_kid(util::as_chars(*kid_bytes))) return std::nullopt;
  const auto nonce = in.take(kNonceSize);
  const auto issued_at = in.u32();
  const auto offer_id = in.short_u64();
  const auto country = in.take(kCountrySize);
  const auto placement_len = in.u8();
  if (!nonce || !issued_at || !offer_id || !country || !placement_len || *placement_len == 0 ||
      *placement_len > kMaxPlacement) {
    return std::nullopt;
  }
  const auto placement = in.take(*placement_len);
  if (!placement || !in.at_end()) return std::nullopt;

  TokenClaims claims;
  claims.kind = static_cast<TokenKind>(*kind);
  std::copy(nonce->begin(), nonce->end(), claims.nonce.begin());
  claims.issued_at = static_cast<std::int64_t>(*issued_at);
  claims.offer_id = *offer_id;
  claims.country = util::as_chars(*country);
  claims.placement = util::as_chars(*placement);
  kid = util::as_chars(*kid_bytes);
  return claims;
}

VerifyResult malformed() {
  return {VerifyStatus::malformed, {}};
}

bool url_safe(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

}  // namespace

void sign_token_append(std::string& out, const KeyRing& keys, const TokenClaims& claims,
                       MacWorkspace& workspace) {
  if (claims.placement.empty() || claims.placement.size() > kMaxPlacement) {
    throw std::invalid_argument("sign_token: placement must be 1..64 bytes");
  }
  if (claims.country.size() != kCountrySize) {
    throw std::invalid_argument("sign_token: country must be 2 bytes");
  }
  if (claims.kind != TokenKind::impression && claims.kind != TokenKind::click) {
    throw std::invalid_argument("sign_token: unknown token kind");
  }
  if (claims.issued_at < 0 || claims.issued_at > kMaxIssuedAt) {
    throw std::invalid_argument("sign_token: issued_at must be 0..2^32-1");
  }
  const std::string& kid = keys.active_kid();

  Writer payload;
  payload.u8(kVersion);
  payload.u8(static_cast<std::uint8_t>(claims.kind));
  payload.u8(static_cast<std::uint8_t>(kid.size()));
  payload.bytes(kid);
  payload.bytes(claims.nonce);
  payload.u32(static_cast<std::uint32_t>(claims.issued_at));
  payload.short_u64(claims.offer_id);
  payload.bytes(claims.country);
  payload.u8(static_cast<std::uint8_t>(claims.placement.size()));
  payload.bytes(claims.placement);

  const auto mac = keys.mac(kid, payload.view(), workspace);
  crypto::base64url_encode_append(out, payload.view());
  out.push_back('.');
  crypto::base64url_encode_append(out, util::as_chars(std::span(mac.data(), kMacSize)));
}

std::string sign_token(const KeyRing& keys, const TokenClaims& claims) {
  MacWorkspace workspace;
  std::string token;
  sign_token_append(token, keys, claims, workspace);
  return token;
}

VerifyResult verify_token(const KeyRing& keys, std::string_view token, TokenKind expected,
                          MacWorkspace& workspace) {
  if (token.empty() || token.size() > kMaxTokenLength) return malformed();
  std::size_t dot = std::string_view::npos;
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '.') {
      if (dot != std::string_view::npos) return malformed();
      dot = i;
    } else if (!url_safe(token[i])) {
      return malformed();
    }
  }
  if (dot == std::string_view::npos) return malformed();
  const std::string_view payload_text = token.substr(0, dot);
  const std::string_view mac_text = token.substr(dot + 1);
  if (mac_text.size() != kMacChars) return malformed();

  std::array<unsigned char, crypto::base64url_decoded_size(kMaxTokenLength)> payload_buf{};
  const auto payload_size = crypto::base64url_decode_into(payload_text, payload_buf);
  std::array<unsigned char, kMacSize> mac{};
  const auto mac_size = crypto::base64url_decode_into(mac_text, mac);
  if (!payload_size || !mac_size || *mac_size != kMacSize) return malformed();
  const auto payload = std::span<const unsigned char>(payload_buf.data(), *payload_size);

  std::string_view kid;
  auto claims = parse_payload(payload, kid);
  if (!claims) return malformed();
  if (!keys.has(kid)) return {VerifyStatus::unknown_key, {}};
  const auto expected_mac = keys.mac(kid, util::as_chars(payload), workspace);
  if (CRYPTO_memcmp(expected_mac.data(), mac.data(), kMacSize) != 0) {
    return {VerifyStatus::bad_signature, {}};
  }
  const VerifyStatus status =
      claims->kind == expected ? VerifyStatus::ok : VerifyStatus::wrong_kind;
  return {status, std::move(*claims)};
}

VerifyResult verify_token(const KeyRing& keys, std::string_view token, TokenKind expected) {
  MacWorkspace workspace;
  return verify_token(keys, token, expected, workspace);
}

std::string nonce_hex(const std::array<unsigned char, 16>& nonce) {
  return crypto::to_hex(util::as_chars(nonce));
}

}  // namespace placard::tokens
