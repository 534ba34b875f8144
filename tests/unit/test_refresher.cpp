// catalog::Refresher: fresh only while its last successful poll is recent.
#include "lib/catalog/refresher.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "lib/catalog/snapshot_holder.h"

namespace {

TEST(Refresher, FreshOnlyAfterARecentSuccessfulPoll) {
  placard::catalog::SnapshotHolder holder;
  bool database_up = true;
  placard::catalog::Refresher refresher(
      holder,
      [&]() -> std::uint64_t {
        if (!database_up) throw std::runtime_error("down");
        return 1;
      },
      [&] {
        if (!database_up) throw std::runtime_error("down");
        auto s = std::make_shared<placard::catalog::Snapshot>();
        s->version = 1;
        return std::shared_ptr<const placard::catalog::Snapshot>(s);
      },
      [](const std::string&) {}, std::chrono::milliseconds(10));
  const auto age = std::chrono::milliseconds(5000);
  const auto now = std::chrono::steady_clock::now();
  EXPECT_FALSE(refresher.fresh(now, age));  // nothing polled yet
  refresher.poll_once();
  EXPECT_TRUE(refresher.fresh(std::chrono::steady_clock::now(), age));
  database_up = false;
  refresher.poll_once();  // fails: the snapshot is kept, the last success ages
  EXPECT_TRUE(refresher.fresh(std::chrono::steady_clock::now(), age));
  EXPECT_FALSE(refresher.fresh(std::chrono::steady_clock::now() + std::chrono::seconds(6), age));
  database_up = true;
  refresher.poll_once();
  EXPECT_TRUE(refresher.fresh(std::chrono::steady_clock::now(), age));
}

// The worker trims the heap in `released`: by then the snapshot a rebuild replaced must be gone,
// or its memory stays with the process (a reference the poll itself held did that until issue
// 24). A request still holding it at the swap delays `released` to the first poll after it let go.
TEST(Refresher, ReleasedRunsOnceTheReplacedSnapshotIsGone) {
  placard::catalog::SnapshotHolder holder;
  std::uint64_t version = 1;
  std::vector<bool> replaced_alive;  // at each call of `released`
  std::weak_ptr<const placard::catalog::Snapshot> replaced;
  placard::catalog::Refresher refresher(
      holder, [&]() -> std::uint64_t { return version; },
      [&] {
        auto s = std::make_shared<placard::catalog::Snapshot>();
        s->version = version;
        return std::shared_ptr<const placard::catalog::Snapshot>(s);
      },
      [](const std::string&) {}, std::chrono::milliseconds(10),
      [&] { replaced_alive.push_back(!replaced.expired()); });
  ASSERT_TRUE(refresher.poll_once());  // the first snapshot replaces none
  EXPECT_EQ(replaced_alive.size(), 1U);

  replaced = holder.get();
  version = 2;
  ASSERT_TRUE(refresher.poll_once());  // nothing else holds version 1: released at once
  ASSERT_EQ(replaced_alive.size(), 2U);
  EXPECT_FALSE(replaced_alive[1]);

  auto in_flight = holder.get();  // a request holding version 2 during the next swap
  replaced = in_flight;
  version = 3;
  ASSERT_TRUE(refresher.poll_once());
  EXPECT_EQ(replaced_alive.size(), 2U);  // not yet: version 2 is still held
  EXPECT_FALSE(refresher.poll_once());   // same version, still held
  EXPECT_EQ(replaced_alive.size(), 2U);
  in_flight.reset();
  EXPECT_FALSE(refresher.poll_once());  // gone now: released, once
  ASSERT_EQ(replaced_alive.size(), 3U);
  EXPECT_FALSE(replaced_alive[2]);
  EXPECT_FALSE(refresher.poll_once());
  EXPECT_EQ(replaced_alive.size(), 3U);
  EXPECT_EQ(holder.get()->version, 3U);
}

}  // namespace
