#include "lib/crypto/hash_slots.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

TEST(HashSlots, AtMostSlotsAtOnceAndAFullQueueIsRefusedAtOnce) {
  placard::crypto::HashSlots slots(1, 0, 1000ms);
  auto first = slots.acquire();
  ASSERT_TRUE(first);
  EXPECT_EQ(slots.running(), 1);
  EXPECT_TRUE(slots.saturated());
  const auto t0 = Clock::now();
  EXPECT_FALSE(slots.acquire());  // no queue: refused without waiting
  EXPECT_LT(Clock::now() - t0, 200ms);
  first.reset();
  EXPECT_EQ(slots.running(), 0);
  EXPECT_FALSE(slots.saturated());
  EXPECT_TRUE(slots.acquire());
}

TEST(HashSlots, AWaiterGetsAFreedSlotAndGivesUpAfterTheBound) {
  placard::crypto::HashSlots slots(1, 1, 2000ms);
  auto held = slots.acquire();
  ASSERT_TRUE(held);
  EXPECT_FALSE(slots.saturated());  // one may still wait (checked before anyone does)
  auto waiter = std::async(std::launch::async, [&] { return slots.acquire().has_value(); });
  while (slots.waiting() == 0) std::this_thread::sleep_for(1ms);
  EXPECT_TRUE(slots.saturated());
  EXPECT_FALSE(slots.acquire());  // the one waiting place is taken
  held.reset();
  EXPECT_TRUE(waiter.get());

  placard::crypto::HashSlots short_wait(1, 1, 100ms);
  auto busy = short_wait.acquire();
  const auto t0 = Clock::now();
  EXPECT_FALSE(short_wait.acquire());
  const auto waited = Clock::now() - t0;
  EXPECT_GE(waited, 90ms);
  EXPECT_LT(waited, 1500ms);
}

}  // namespace
