// process::HeapTrimmer: trims every interval, and stops at once.
#include "lib/process/heap_trimmer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace {

using std::chrono::milliseconds;

TEST(HeapTrimmer, TrimsEveryInterval) {
  std::atomic<int> trims{0};
  {
    const placard::process::HeapTrimmer trimmer(milliseconds(5), [&] { ++trims; });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (trims.load() < 3 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(milliseconds(1));
    }
  }
  EXPECT_GE(trims.load(), 3);
}

TEST(HeapTrimmer, StopsWithoutWaitingForTheInterval) {
  std::atomic<int> trims{0};
  const auto start = std::chrono::steady_clock::now();
  {
    const placard::process::HeapTrimmer trimmer(std::chrono::hours(1), [&] { ++trims; });
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(trims.load(), 0);  // nothing before the first interval
}

}  // namespace
