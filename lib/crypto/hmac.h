#pragma once

// HMAC-SHA-256 (OpenSSL), for keyed hashes such as a client address kept only as a hash.

#include <array>
#include <string_view>

namespace placard::crypto {

// HMAC-SHA-256 of `data` under `key`. Throws std::runtime_error if OpenSSL fails.
std::array<unsigned char, 32> hmac_sha256(std::string_view key, std::string_view data);

}  // namespace placard::crypto
