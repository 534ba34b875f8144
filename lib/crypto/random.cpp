#include "lib/crypto/random.h"

#include <openssl/rand.h>

#include <algorithm>
#include <climits>
#include <stdexcept>

namespace placard::crypto {

void random_fill(std::span<unsigned char> out) {
  constexpr std::size_t kMaxChunk = static_cast<std::size_t>(INT_MAX);
  while (!out.empty()) {
    const std::size_t chunk = std::min(out.size(), kMaxChunk);
    if (RAND_bytes(out.data(), static_cast<int>(chunk)) != 1) {
      throw std::runtime_error("random: RAND_bytes failed");
    }
    out = out.subspan(chunk);
  }
}

std::string random_bytes(std::size_t n) {
  std::string out(n, '\0');
  random_fill(std::span<unsigned char>(reinterpret_cast<unsigned char*>(out.data()), out.size()));
  return out;
}

}  // namespace placard::crypto
