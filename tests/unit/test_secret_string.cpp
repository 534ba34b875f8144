// Issue 22, item 8: secrets held in memory are overwritten when they are dropped.
#include "lib/crypto/secret_string.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace {

using placard::crypto::SecretString;

bool all_zero(const char* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (p[i] != 0) return false;
  }
  return true;
}

TEST(Wipe, OverwritesTheWholeBufferAndEmptiesTheString) {
  std::string s(100, 'x');
  s.resize(40);  // capacity stays 100: the tail beyond size() held the secret too
  const char* buffer = s.data();
  const std::size_t capacity = s.capacity();
  placard::crypto::wipe(s);
  EXPECT_TRUE(s.empty());
  EXPECT_TRUE(s.data() == buffer);  // the same buffer, not a new one
  EXPECT_TRUE(all_zero(buffer, capacity));
}

TEST(Wipe, ShortStringsInsideTheObject) {
  std::string s = "short";
  placard::crypto::wipe(s);
  EXPECT_TRUE(all_zero(s.data(), s.capacity()));
}

TEST(SecretString, HoldsComparesAndClears) {
  SecretString s("client-secret-0123456789");
  EXPECT_EQ(s, "client-secret-0123456789");
  EXPECT_EQ(s.size(), 24U);
  const char* buffer = s.str().data();
  const std::size_t capacity = s.str().capacity();
  s.clear();
  EXPECT_TRUE(s.empty());
  EXPECT_TRUE(all_zero(buffer, capacity));
}

TEST(SecretString, AssignWipesTheOldValueFirst) {
  SecretString s("an-old-access-token-value-0123456789");
  const char* buffer = s.str().data();
  s.assign("new");
  EXPECT_EQ(s, "new");
  // Same buffer (no reallocation for a shorter value): its old bytes are gone past the new ones.
  ASSERT_TRUE(s.str().data() == buffer);
  EXPECT_TRUE(all_zero(buffer + 4, 32));
}

TEST(SecretString, MovedFromIsWiped) {
  SecretString a("moved-secret-0123456789-abcdef");
  const char* buffer = a.str().data();
  SecretString b(std::move(a));
  EXPECT_EQ(b, "moved-secret-0123456789-abcdef");
  EXPECT_TRUE(b.str().data() == buffer);  // the buffer was handed over, not copied
  // NOLINTBEGIN(bugprone-use-after-move,clang-analyzer-cplusplus.Move): checked on purpose
  EXPECT_TRUE(a.empty());
  EXPECT_TRUE(all_zero(a.str().data(), a.str().capacity()));
  SecretString short_one("tiny");  // inside the object: moving copies, the source is wiped
  SecretString c2(std::move(short_one));
  EXPECT_EQ(c2, "tiny");
  EXPECT_TRUE(all_zero(short_one.str().data(), short_one.str().capacity()));
  // NOLINTEND(bugprone-use-after-move,clang-analyzer-cplusplus.Move)

  SecretString c("another-secret-value-0123456789");
  const char* c_buffer = c.str().data();
  const std::size_t c_capacity = c.str().capacity();
  c = std::move(b);
  EXPECT_EQ(c, "moved-secret-0123456789-abcdef");
  EXPECT_TRUE(all_zero(c_buffer, c_capacity) || c.str().data() == c_buffer);
  EXPECT_TRUE(b.empty());  // NOLINT(bugprone-use-after-move): checked on purpose
}

TEST(SecretString, AdoptTakesTheBufferAndWipesTheSource) {
  std::string plain = "{\"apiToken\":\"0123456789abcdef0123\"}";
  const char* buffer = plain.data();
  SecretString s = SecretString::adopt(std::move(plain));
  EXPECT_TRUE(s.str().data() == buffer);  // taken over, not copied
  EXPECT_TRUE(plain.empty());  // NOLINT(bugprone-use-after-move,clang-analyzer-cplusplus.Move)
}

}  // namespace
