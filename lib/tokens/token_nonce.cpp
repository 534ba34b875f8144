#include "lib/tokens/token_nonce.h"

#include <span>

#include "lib/util/big_endian.h"

namespace placard::tokens {

void fill_nonce(std::array<unsigned char, 16>& nonce, std::int64_t issued_at,
                crypto::RandomPool& random) {
  // issued_at is 0..2^32-1 (token.h): its 4 bytes, then 12 random ones.
  util::store_big_endian(std::span(nonce).first(4), static_cast<std::uint32_t>(issued_at));
  random.fill(std::span(nonce).subspan(4));
}

}  // namespace placard::tokens
