#pragma once

// SHA-256 digests and lowercase hex rendering.

#include <array>
#include <string>
#include <string_view>

namespace placard::crypto {

// SHA-256 of `data`. Throws std::runtime_error if OpenSSL fails (it does not for valid input).
std::array<unsigned char, 32> sha256(std::string_view data);

// Lowercase hex, two characters per byte.
std::string to_hex(std::string_view bytes);

}  // namespace placard::crypto
