// One rollup pass's limit judging (lib/jobs/rate_limiter.h, rate_limited_ids): the events counted
// in earlier passes fill the windows before the new ones are judged (issue 27: "the rollup step's
// memory of earlier passes"). RateJudge's own windows are tested in test_counting_rules.cpp.
#include "lib/jobs/rate_limiter.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

using placard::db::JudgedEvent;
using placard::db::rate_limited_ids;
using placard::db::RateJudge;
using Ids = std::vector<std::uint64_t>;

constexpr std::int64_t kS = 1000;
constexpr std::int64_t kT = 3'000'000 * kS;

RateJudge::Key key(unsigned char client, std::uint64_t offer) {
  placard::db::ClientHash h{};
  h.fill(client);
  return {h, offer};
}

JudgedEvent counted(const RateJudge::Key& k, std::int64_t at_ms) {
  return {0, k, at_ms};
}

TEST(RateLimitedIds, OneClickPerMinuteHoldsAgainstAClickOfAnEarlierPass) {
  RateJudge judge({{60, 1}});
  const auto k = key(1, 42);
  // Counted 30 s ago, in the previous pass: the new click is the second within a minute.
  EXPECT_EQ(rate_limited_ids(judge, {counted(k, kT - 30 * kS)}, {{7, k, kT}}), Ids{7});
}

TEST(RateLimitedIds, FiveImpressionsPerFiveMinutesAcrossPasses) {
  RateJudge judge({{300, 5}});
  const auto k = key(2, 9);
  // Four counted earlier (in any order); two new: the first is the 5th, the second the 6th.
  const std::vector<JudgedEvent> history{counted(k, kT + 40 * kS), counted(k, kT + 10 * kS),
                                         counted(k, kT + 30 * kS), counted(k, kT + 20 * kS)};
  EXPECT_EQ(rate_limited_ids(judge, history, {{100, k, kT + 50 * kS}, {101, k, kT + 60 * kS}}),
            Ids{101});
}

TEST(RateLimitedIds, WithoutHistoryTheSameEventsAreCounted) {
  // The control of the two tests above: the history is what limits them.
  RateJudge clicks({{60, 1}});
  EXPECT_EQ(rate_limited_ids(clicks, {}, {{7, key(1, 42), kT}}), Ids{});
  RateJudge impressions({{300, 5}});
  const auto k = key(2, 9);
  EXPECT_EQ(rate_limited_ids(impressions, {}, {{100, k, kT + 50 * kS}, {101, k, kT + 60 * kS}}),
            Ids{});
}

TEST(RateLimitedIds, HistoryCountsOnlyForItsOwnClientAndOffer) {
  RateJudge judge({{60, 1}});
  const std::vector<JudgedEvent> history{counted(key(1, 42), kT - 10 * kS)};
  const std::vector<JudgedEvent> fresh{
      {1, key(1, 43), kT}, {2, key(3, 42), kT}, {3, key(1, 42), kT}};
  EXPECT_EQ(rate_limited_ids(judge, history, fresh), Ids{3});
}

TEST(RateLimitedIds, HistoryOlderThanTheWindowDoesNotLimit) {
  RateJudge judge({{60, 1}});
  const auto k = key(1, 42);
  EXPECT_EQ(rate_limited_ids(judge, {counted(k, kT - 60 * kS)}, {{7, k, kT}}), Ids{});
}

TEST(RateLimitedIds, NewEventsOverTheLimitDoNotFillTheWindow) {
  RateJudge judge({{60, 1}, {600, 3}});
  const auto k = key(1, 42);
  // One counted 5 minutes ago. New: 0 s counted; 30 s over 1 per minute; 90 s counted (the 30 s
  // one was not counted, so the minute is free); 100 s over 1 per minute; 200 s over 3 per 10
  // minutes (-300 s, 0 s and 90 s).
  const std::vector<JudgedEvent> fresh{{1, k, kT},
                                       {2, k, kT + 30 * kS},
                                       {3, k, kT + 90 * kS},
                                       {4, k, kT + 100 * kS},
                                       {5, k, kT + 200 * kS}};
  EXPECT_EQ(rate_limited_ids(judge, {counted(k, kT - 300 * kS)}, fresh), (Ids{2, 4, 5}));
}

}  // namespace

TEST(RateLimitedIds, TheJudgeTellsTheCountedTimesOfAPairAsItKeepsThem) {
  // What the rollup step keeps in rate_limit_state for a pair over a limit.
  RateJudge judge({{300, 2}});
  const auto k = key(3, 5);
  EXPECT_EQ(rate_limited_ids(judge, {counted(k, kT - 400 * kS), counted(k, kT - 10 * kS)},
                             {{1, k, kT}, {2, k, kT + kS}, {3, k, kT + 291 * kS}}),
            Ids{2});
  // kT - 400 s is out of every window once kT is judged; kT - 10 s left the window at kT + 290 s.
  EXPECT_EQ(judge.counted(k), (std::vector<std::int64_t>{kT, kT + 291 * kS}));
  EXPECT_TRUE(judge.counted(key(4, 5)).empty());
}
