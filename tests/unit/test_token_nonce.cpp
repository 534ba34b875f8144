// The token nonce's layout (issue 24): the issue time, big-endian, then 12 random bytes.
#include "lib/tokens/token_nonce.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>

namespace {

TEST(TokenNonce, LeadsWithTheIssueTimeThenRandomBytes) {
  placard::crypto::RandomPool random;
  constexpr std::int64_t kIssued = 0x6A0B0C0D;
  std::set<std::array<unsigned char, 16>> seen;
  for (int i = 0; i < 1000; ++i) {
    std::array<unsigned char, 16> nonce{};
    placard::tokens::fill_nonce(nonce, kIssued, random);
    ASSERT_EQ(nonce[0], 0x6A);
    ASSERT_EQ(nonce[1], 0x0B);
    ASSERT_EQ(nonce[2], 0x0C);
    ASSERT_EQ(nonce[3], 0x0D);
    seen.insert(nonce);
  }
  EXPECT_EQ(seen.size(), 1000U);  // one second, a thousand different nonces
}

TEST(TokenNonce, LaterSecondsSortLater) {
  placard::crypto::RandomPool random;
  std::array<unsigned char, 16> earlier{};
  std::array<unsigned char, 16> later{};
  for (int i = 0; i < 100; ++i) {
    placard::tokens::fill_nonce(earlier, 1'800'000'000, random);
    placard::tokens::fill_nonce(later, 1'800'000'001, random);
    EXPECT_TRUE(
        std::lexicographical_compare(earlier.begin(), earlier.end(), later.begin(), later.end()));
  }
}

}  // namespace
