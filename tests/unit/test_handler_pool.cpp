// fcgi::HandlerPool: the worker's handlers, made once and lent to one thread at a time.
#include "fcgi-app/handler_pool.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <memory>
#include <set>
#include <stdexcept>
#include <vector>

namespace {

using placard::fcgi::HandlerPool;

struct Counter {
  int id = 0;
};

struct Made {
  int count = 0;
  std::unique_ptr<Counter> operator()() { return std::make_unique<Counter>(Counter{++count}); }
};

TEST(HandlerPool, MakesEveryHandlerOnceAtTheStart) {
  Made made;
  HandlerPool<Counter> pool([&] { return made(); }, 4);
  EXPECT_EQ(made.count, 4);
  EXPECT_EQ(pool.idle(), 4U);
  for (int i = 0; i < 100; ++i) {
    const auto lease = pool.lease();
    EXPECT_GE(lease->id, 1);
  }
  EXPECT_EQ(made.count, 4);  // reused, never made again
}

TEST(HandlerPool, LentHandlersAreDistinctAndComeBack) {
  Made made;
  HandlerPool<Counter> pool([&] { return made(); }, 3);
  std::set<Counter*> seen;
  {
    std::vector<HandlerPool<Counter>::Lease> leases;
    for (int i = 0; i < 3; ++i) {
      leases.push_back(pool.lease());
      seen.insert(&*leases.back());
    }
    EXPECT_EQ(seen.size(), 3U);
    EXPECT_EQ(pool.idle(), 0U);
  }
  EXPECT_EQ(pool.idle(), 3U);
}

TEST(HandlerPool, TheLastReturnedIsLentFirst) {
  Made made;
  HandlerPool<Counter> pool([&] { return made(); }, 3);
  Counter* first = nullptr;
  {
    const auto a = pool.lease();
    first = &*a;
  }
  const auto b = pool.lease();
  EXPECT_EQ(&*b, first);
}

TEST(HandlerPool, WaitsWhileAllAreLent) {
  Made made;
  HandlerPool<Counter> pool([&] { return made(); }, 1);
  auto held = std::make_unique<HandlerPool<Counter>::Lease>(pool.lease());
  Counter* lent = &**held;
  auto waiter = std::async(std::launch::async, [&] {
    const auto lease = pool.lease();
    return &*lease;
  });
  EXPECT_EQ(waiter.wait_for(std::chrono::milliseconds(200)), std::future_status::timeout);
  held.reset();  // given back: the waiting thread gets it
  ASSERT_EQ(waiter.wait_for(std::chrono::seconds(5)), std::future_status::ready);
  EXPECT_EQ(waiter.get(), lent);
}

TEST(HandlerPool, NeedsAtLeastOneHandler) {
  Made made;
  EXPECT_THROW(HandlerPool<Counter>([&] { return made(); }, 0), std::invalid_argument);
}

}  // namespace
