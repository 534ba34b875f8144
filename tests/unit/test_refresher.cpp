// catalog::Refresher: fresh only while its last successful poll is recent.
#include "lib/catalog/refresher.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <stdexcept>

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

}  // namespace
