#include "lib/tokens/token_nonce.h"

#include <span>

namespace placard::tokens {

void fill_nonce(std::array<unsigned char, 16>& nonce, std::int64_t issued_at,
                crypto::RandomPool& random) {
  const auto t = static_cast<std::uint32_t>(issued_at);  // issued_at is 0..2^32-1 (token.h)
  nonce[0] = static_cast<unsigned char>(t >> 24);
  nonce[1] = static_cast<unsigned char>(t >> 16);
  nonce[2] = static_cast<unsigned char>(t >> 8);
  nonce[3] = static_cast<unsigned char>(t);
  random.fill(std::span(nonce).subspan(4));
}

}  // namespace placard::tokens
