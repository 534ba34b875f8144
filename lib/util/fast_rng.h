#pragma once
#include <cstdint>

namespace placard::util {

// xoshiro256** — a small, fast generator for rotation and sampling (not for secrets).
// One per thread; seeded from the operating system's randomness.
class FastRng {
 public:
  FastRng();
  explicit FastRng(std::uint64_t seed);
  std::uint64_t next();
  // Uniform in [0, bound), bound > 0 (Lemire's multiply-shift, with rejection).
  std::uint64_t below(std::uint64_t bound);

 private:
  std::uint64_t s_[4];
};

}  // namespace placard::util
