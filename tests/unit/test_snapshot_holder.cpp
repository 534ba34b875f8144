// catalog::SnapshotHolder: one thread swapping snapshots while others read them. Under
// `make unit SANITIZE=thread` this is the race ThreadSanitizer found in the worker (the
// refresher's set() against request threads' get() through libstdc++ 12's
// std::atomic<std::shared_ptr>, whose load() releases its lock with a relaxed store).
#include "lib/catalog/snapshot_holder.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

namespace {

using placard::catalog::Snapshot;
using placard::catalog::SnapshotHolder;

std::shared_ptr<const Snapshot> snapshot(std::uint64_t version) {
  auto s = std::make_shared<Snapshot>();
  s->version = version;
  s->config_answer.json = "{\"version\":" + std::to_string(version) + "}";
  return s;
}

TEST(SnapshotHolder, EmptyUntilSetThenTheLatest) {
  SnapshotHolder holder;
  EXPECT_EQ(holder.get(), nullptr);
  holder.set(snapshot(1));
  holder.set(snapshot(2));
  ASSERT_NE(holder.get(), nullptr);
  EXPECT_EQ(holder.get()->version, 2u);
}

TEST(SnapshotHolder, ReadersSeeWholeSnapshotsInOrderWhileOneThreadSwaps) {
  SnapshotHolder holder;
  holder.set(snapshot(1));
  constexpr std::uint64_t kSwaps = 2000;
  std::atomic<bool> done{false};
  std::atomic<int> broken{0};
  std::vector<std::thread> readers;
  readers.reserve(3);
  for (int r = 0; r < 3; ++r) {
    readers.emplace_back([&] {
      std::uint64_t last = 0;
      while (!done.load(std::memory_order_acquire)) {
        const auto s = holder.get();
        // A whole snapshot (its answer matches its version) and never an older one.
        if (!s || s->version < last ||
            s->config_answer.json != "{\"version\":" + std::to_string(s->version) + "}") {
          broken.fetch_add(1);
        }
        if (s) last = s->version;
      }
    });
  }
  for (std::uint64_t v = 2; v <= kSwaps; ++v) holder.set(snapshot(v));
  done.store(true, std::memory_order_release);
  for (auto& t : readers) t.join();
  EXPECT_EQ(broken.load(), 0);
  EXPECT_EQ(holder.get()->version, kSwaps);
  EXPECT_EQ(holder.get().use_count(), 2);  // the holder's and this one: readers let go
}

}  // namespace
