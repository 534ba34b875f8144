#pragma once

// Cryptographically secure random bytes from OpenSSL's RAND_bytes.

#include <cstddef>
#include <span>
#include <string>

namespace placard::crypto {

// `n` random bytes. Throws std::runtime_error when the generator fails.
std::string random_bytes(std::size_t n);

// Fills `out` with random bytes. Throws std::runtime_error when the generator fails.
void random_fill(std::span<unsigned char> out);

}  // namespace placard::crypto
