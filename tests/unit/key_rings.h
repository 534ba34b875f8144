#pragma once

// Token keys and key rings for the unit tests of the tokens.

#include <cstddef>
#include <string>

#include "lib/crypto/base64.h"
#include "lib/tokens/key_ring.h"

namespace placard::test {

// `n` raw key bytes, all `fill`.
inline std::string key_bytes(char fill, std::size_t n = 32) {
  return std::string(n, fill);
}

// The same key as placard.conf's token.keys spells it (unpadded base64url).
inline std::string key_text(char fill, std::size_t n = 32) {
  return crypto::base64url_encode(key_bytes(fill, n));
}

inline tokens::KeyRing ring(const std::string& spec, const std::string& active) {
  return tokens::KeyRing::parse(spec, active);
}

}  // namespace placard::test
