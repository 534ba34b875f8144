#include "lib/crypto/password_hash.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>

#include "lib/crypto/base64.h"
#include "lib/crypto/random.h"
#include "lib/util/parse_int.h"

namespace placard::crypto {
namespace {

constexpr std::string_view kScheme = "scrypt";
constexpr std::uint64_t kLogN = 17;  // OWASP's minimum for scrypt: N=2^17, r=8, p=1
constexpr std::uint64_t kR = 8;
constexpr std::uint64_t kP = 1;
constexpr std::uint64_t kMaxMem = 192ULL * 1024 * 1024;  // N=2^17, r=8 needs 128 MiB
constexpr std::size_t kSaltSize = 16;
constexpr std::size_t kHashSize = 32;
constexpr std::size_t kMaxSaltSize = 64;
constexpr std::size_t kMinSaltSize = 8;
constexpr std::size_t kMaxHashSize = 64;

struct Params {
  std::uint64_t log_n = 0;
  std::uint64_t r = 0;
  std::uint64_t p = 0;
};

// Wipes a buffer of derived key material when it goes out of scope.
template <std::size_t N>
struct SecretBuffer {
  std::array<unsigned char, N> bytes{};
  SecretBuffer() = default;
  SecretBuffer(const SecretBuffer&) = delete;
  SecretBuffer& operator=(const SecretBuffer&) = delete;
  ~SecretBuffer() { OPENSSL_cleanse(bytes.data(), bytes.size()); }
};

bool derive(std::string_view password, std::string_view salt, const Params& params,
            unsigned char* out, std::size_t out_len) {
  return EVP_PBE_scrypt(password.data(), password.size(),
                        reinterpret_cast<const unsigned char*>(salt.data()), salt.size(),
                        std::uint64_t{1} << params.log_n, params.r, params.p, kMaxMem, out,
                        out_len) == 1;
}

// Canonical small decimal: 1 or 2 digits, no sign, no leading zero.
std::optional<std::uint64_t> parse_small_uint(std::string_view text) {
  return util::parse_canonical_in<std::uint64_t>(text, 0, 99);
}

// Splits off the next '$'-separated field; nullopt when no separator is left.
std::optional<std::string_view> next_field(std::string_view& rest) {
  const auto pos = rest.find('$');
  if (pos == std::string_view::npos) return std::nullopt;
  const std::string_view field = rest.substr(0, pos);
  rest.remove_prefix(pos + 1);
  return field;
}

}  // namespace

std::string hash_password(std::string_view password) {
  const Params params{kLogN, kR, kP};
  const std::string salt = random_bytes(kSaltSize);
  SecretBuffer<kHashSize> hash;
  if (!derive(password, salt, params, hash.bytes.data(), hash.bytes.size())) {
    throw std::runtime_error("password hash: scrypt failed");
  }
  std::string out;
  out.reserve(kScheme.size() + 12 + base64url_encoded_size(kSaltSize) +
              base64url_encoded_size(kHashSize));
  out.append(kScheme);
  out.append("$" + std::to_string(params.log_n) + "$" + std::to_string(params.r) + "$" +
             std::to_string(params.p) + "$");
  base64url_encode_append(out, salt);
  out.push_back('$');
  base64url_encode_append(
      out, std::string_view(reinterpret_cast<const char*>(hash.bytes.data()), hash.bytes.size()));
  return out;
}

bool verify_password(std::string_view password, std::string_view stored) {
  std::string_view rest = stored;
  const auto scheme = next_field(rest);
  const auto log_n_text = next_field(rest);
  const auto r_text = next_field(rest);
  const auto p_text = next_field(rest);
  const auto salt_text = next_field(rest);
  const std::string_view hash_text = rest;  // the remainder; a further '$' fails decoding
  if (!scheme || *scheme != kScheme || !log_n_text || !r_text || !p_text || !salt_text) {
    return false;
  }
  const auto log_n = parse_small_uint(*log_n_text);
  const auto r = parse_small_uint(*r_text);
  const auto p = parse_small_uint(*p_text);
  if (!log_n || *log_n < 10 || *log_n > 20 || !r || *r < 1 || *r > 16 || !p || *p < 1 || *p > 4) {
    return false;
  }
  std::array<unsigned char, kMaxSaltSize> salt{};
  const auto salt_size = base64url_decode_into(*salt_text, salt);
  std::array<unsigned char, kMaxHashSize> expected{};
  const auto hash_size = base64url_decode_into(hash_text, expected);
  // Only whole outputs: scrypt's output is a stream, so a truncated stored hash would still
  // match its password. 32 bytes is ours; 64 is the RFC 7914 output length.
  if (!salt_size || *salt_size < kMinSaltSize || !hash_size ||
      (*hash_size != kHashSize && *hash_size != kMaxHashSize)) {
    return false;
  }
  SecretBuffer<kMaxHashSize> actual;
  const Params params{*log_n, *r, *p};
  const std::string_view salt_view(reinterpret_cast<const char*>(salt.data()), *salt_size);
  if (!derive(password, salt_view, params, actual.bytes.data(), *hash_size)) {
    return false;  // e.g. parameters needing more than kMaxMem
  }
  return CRYPTO_memcmp(actual.bytes.data(), expected.data(), *hash_size) == 0;
}

bool password_hash_outdated(std::string_view stored) {
  std::string_view rest = stored;
  const auto scheme = next_field(rest);
  const auto log_n = next_field(rest);
  const auto r = next_field(rest);
  const auto p = next_field(rest);
  if (!scheme || *scheme != kScheme || !log_n || !r || !p) return true;
  const auto n = parse_small_uint(*log_n);
  const auto rv = parse_small_uint(*r);
  const auto pv = parse_small_uint(*p);
  return !n || !rv || !pv || *n < kLogN || *rv < kR || *pv < kP;
}

}  // namespace placard::crypto
