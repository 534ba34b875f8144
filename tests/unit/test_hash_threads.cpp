#include "lib/crypto/hash_threads.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace {

TEST(HashThreads, RunsTheWorkElsewhereAtALowerPriorityAndPassesErrorsOn) {
  placard::crypto::HashThreads threads(1, 10);
  const auto caller = gettid();
  const int own_nice = getpriority(PRIO_PROCESS, static_cast<id_t>(caller));
  const auto [tid, nice] = threads.run([] {
    const auto t = gettid();
    return std::pair<pid_t, int>(t, getpriority(PRIO_PROCESS, static_cast<id_t>(t)));
  });
  EXPECT_NE(tid, caller);
  EXPECT_EQ(nice, std::min(19, own_nice + 10));
  EXPECT_THROW(threads.run([]() -> int { throw std::runtime_error("scrypt failed"); }),
               std::runtime_error);
  EXPECT_EQ(threads.run([] { return 42; }), 42);  // still serving after an error
}

}  // namespace
