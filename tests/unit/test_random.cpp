#include "lib/crypto/random.h"

#include <gtest/gtest.h>

#include <array>
#include <string>

namespace {

TEST(CryptoRandom, GivesRequestedSizeAndDiffers) {
  EXPECT_EQ(placard::crypto::random_bytes(0).size(), 0U);
  const std::string a = placard::crypto::random_bytes(32);
  const std::string b = placard::crypto::random_bytes(32);
  EXPECT_EQ(a.size(), 32U);
  EXPECT_NE(a, b);
  std::array<unsigned char, 16> x{};
  std::array<unsigned char, 16> y{};
  placard::crypto::random_fill(x);
  placard::crypto::random_fill(y);
  EXPECT_NE(x, y);
}

}  // namespace
