#pragma once

// Random bytes for one thread, drawn from OpenSSL in 4 KiB refills: the per-query nonces then
// cost a copy instead of a trip through OpenSSL's locked generator each time.

#include <array>
#include <cstddef>
#include <span>

namespace placard::crypto {

class RandomPool {
 public:
  // Fills out; throws std::runtime_error when the generator fails.
  void fill(std::span<unsigned char> out);

 private:
  std::array<unsigned char, 4096> buffer_{};
  std::size_t used_ = buffer_.size();  // empty until the first fill
};

}  // namespace placard::crypto
