#include "lib/crypto/random_pool.h"

#include <algorithm>

#include "lib/crypto/random.h"

namespace placard::crypto {

void RandomPool::fill(std::span<unsigned char> out) {
  while (!out.empty()) {
    if (used_ == buffer_.size()) {
      random_fill(buffer_);
      used_ = 0;
    }
    const std::size_t n = std::min(out.size(), buffer_.size() - used_);
    std::copy_n(buffer_.begin() + static_cast<std::ptrdiff_t>(used_), n, out.begin());
    // Handed-out bytes are wiped so a later memory disclosure cannot show issued nonces.
    std::fill_n(buffer_.begin() + static_cast<std::ptrdiff_t>(used_), n, 0);
    used_ += n;
    out = out.subspan(n);
  }
}

}  // namespace placard::crypto
