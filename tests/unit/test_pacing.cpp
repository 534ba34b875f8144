#include "lib/network/pacing.h"

#include <gtest/gtest.h>

#include <chrono>
#include <limits>

#include "tests/fakes/network_fakes.h"

namespace {

using namespace placard::network;
using std::chrono::milliseconds;
using FakeClock = placard::network::fakes::FakeClock;

TEST(RateLimiter, SlidingWindowPerMinute) {
  FakeClock clock;
  RateLimiter limiter(clock, 20);
  for (int i = 0; i < 20; ++i) limiter.acquire();
  EXPECT_TRUE(clock.slept.empty());
  limiter.acquire();  // the 21st waits for the first to leave the window
  ASSERT_EQ(clock.slept.size(), 1u);
  EXPECT_EQ(clock.slept[0], milliseconds(60000));
  clock.t += std::chrono::seconds(1);
  limiter.acquire();
  EXPECT_EQ(clock.slept.size(), 1u);  // the first 20 all left the window together
}

TEST(Backoff, DoublesAndHonoursRetryAfter) {
  const BackoffPolicy p{4, milliseconds(2000), milliseconds(60000)};
  EXPECT_EQ(p.delay(0, std::nullopt), milliseconds(2000));
  EXPECT_EQ(p.delay(1, std::nullopt), milliseconds(4000));
  EXPECT_EQ(p.delay(3, std::nullopt), milliseconds(16000));
  EXPECT_EQ(p.delay(10, std::nullopt), milliseconds(60000));
  EXPECT_EQ(p.delay(0, 5), milliseconds(5000));
  // A Retry-After too large to count in milliseconds is the cap, not an overflow.
  EXPECT_EQ(p.delay(0, std::numeric_limits<long>::max()), milliseconds(60000));
  EXPECT_EQ(p.delay(0, std::numeric_limits<long>::max() / 1000 + 1), milliseconds(60000));
  EXPECT_EQ(p.delay(0, 3600), milliseconds(60000));
}

}  // namespace
