#include <gtest/gtest.h>

#include <memory>
#include <optional>

#include "lib/catalog/refresher.h"
#include "lib/catalog/replica_choice.h"

using placard::catalog::ReadFrom;
using placard::catalog::ReplicaChoice;
using std::chrono::milliseconds;

namespace {
ReplicaChoice::Clock::time_point at(int ms) {
  return ReplicaChoice::Clock::time_point{} + milliseconds(ms);
}
}  // namespace

TEST(ReplicaChoice, CurrentReplicaIsRead) {
  ReplicaChoice c(milliseconds(1000), milliseconds(2000));
  EXPECT_EQ(c.choose(5, 5, at(0)), ReadFrom::replica);
  EXPECT_EQ(c.choose(5, 6, at(10)), ReadFrom::replica);  // ahead of the poll: newer, fine
}

TEST(ReplicaChoice, BehindIsWaitedForWithinTheBoundThenThePrimary) {
  ReplicaChoice c(milliseconds(1000), milliseconds(2000));
  EXPECT_EQ(c.choose(7, 6, at(0)), ReadFrom::wait);
  EXPECT_EQ(c.choose(7, 6, at(999)), ReadFrom::wait);
  EXPECT_EQ(c.choose(7, 6, at(1000)), ReadFrom::primary);
  // Still behind at the next change: the primary at once (behind since t0, past the bound).
  EXPECT_EQ(c.choose(8, 6, at(3000)), ReadFrom::primary);
  // Caught up: back to the replica, and the lag clock starts afresh.
  EXPECT_EQ(c.choose(9, 9, at(4000)), ReadFrom::replica);
  EXPECT_EQ(c.choose(10, 9, at(4100)), ReadFrom::wait);
  EXPECT_EQ(c.choose(10, 10, at(4200)), ReadFrom::replica);
}

TEST(ReplicaChoice, AReplicaThatCaughtUpIsBehindAnewAtTheNextChange) {
  ReplicaChoice c(milliseconds(1000), milliseconds(2000));
  EXPECT_EQ(c.choose(7, 6, at(0)), ReadFrom::wait);  // stopped: behind on 7
  EXPECT_EQ(c.choose(7, 6, at(1000)), ReadFrom::primary);
  // Started again, it reached 7 meanwhile (no load asked it); the next change is a few ms from
  // being replicated: waited for, not the primary because of the old stop.
  EXPECT_EQ(c.choose(8, 7, at(9000)), ReadFrom::wait);
  EXPECT_EQ(c.choose(8, 8, at(9005)), ReadFrom::replica);
  // Behind on 9 and still short of it at 10: the clock of 9 runs on.
  EXPECT_EQ(c.choose(9, 8, at(10000)), ReadFrom::wait);
  EXPECT_EQ(c.choose(10, 8, at(11000)), ReadFrom::primary);
}

TEST(ReplicaChoice, BehindSinceIsTheClockTheBoundRunsOn) {
  // What the lag gauge (placard_catalog_replica_lag_seconds) shows: the choice's own clock.
  ReplicaChoice c(milliseconds(1000), milliseconds(2000));
  EXPECT_EQ(c.behind_since(), std::nullopt);
  c.choose(7, 6, at(0));  // stopped: behind on 7 since 0
  EXPECT_EQ(c.behind_since(), at(0));
  c.choose(8, 6, at(3000));  // still short of 7: behind since 0
  EXPECT_EQ(c.behind_since(), at(0));
  // Started again, it reached 7 (not yet 8): behind anew, since now, not since the stop.
  c.choose(8, 7, at(9000));
  EXPECT_EQ(c.behind_since(), at(9000));
  c.choose(8, 8, at(9005));  // current
  EXPECT_EQ(c.behind_since(), std::nullopt);
}

TEST(ReplicaChoice, ZeroBoundNeverWaits) {
  ReplicaChoice c(milliseconds(0), milliseconds(2000));
  EXPECT_EQ(c.choose(7, 6, at(0)), ReadFrom::primary);
  EXPECT_EQ(c.choose(7, 7, at(1)), ReadFrom::replica);
}

TEST(ReplicaChoice, UnreachableReplicaIsSkippedForTheRetryTimeThenAskedAgain) {
  ReplicaChoice c(milliseconds(1000), milliseconds(2000));
  EXPECT_TRUE(c.ask_replica(at(0)));
  c.replica_failed(at(0));
  EXPECT_EQ(c.choose(3, std::nullopt, at(0)), ReadFrom::primary);
  EXPECT_FALSE(c.ask_replica(at(1999)));
  EXPECT_TRUE(c.ask_replica(at(2000)));
  EXPECT_EQ(c.choose(4, 4, at(2000)), ReadFrom::replica);  // recovered: read again
  EXPECT_TRUE(c.ask_replica(at(2001)));
}

TEST(Refresher, ALoadThatAsksToWaitKeepsTheSnapshotAndCountsAsConfirmed) {
  placard::catalog::SnapshotHolder holder;
  std::uint64_t primary = 1;
  bool wait = false;
  int loads = 0;
  placard::catalog::Refresher refresher(
      holder, [&] { return primary; },
      [&]() -> std::shared_ptr<const placard::catalog::Snapshot> {
        ++loads;
        if (wait) return nullptr;
        auto s = std::make_shared<placard::catalog::Snapshot>();
        s->version = primary;
        return s;
      },
      [](const std::string&) {}, milliseconds(10));
  EXPECT_TRUE(refresher.poll_once());
  primary = 2;
  wait = true;
  EXPECT_FALSE(refresher.poll_once());
  EXPECT_EQ(holder.get()->version, 1U);
  EXPECT_TRUE(refresher.fresh(std::chrono::steady_clock::now(), milliseconds(5000)));
  wait = false;
  EXPECT_TRUE(refresher.poll_once());  // asked again at the next poll
  EXPECT_EQ(holder.get()->version, 2U);
  EXPECT_EQ(loads, 3);
}
