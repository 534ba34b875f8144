// The per-client limits of counting (issue 15): their settings and the windows of the judges
// that rate_limits() builds from them.
#include "lib/api/rate_limits.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "lib/catalog/settings.h"
#include "lib/jobs/rate_limiter.h"

namespace {

using placard::db::RateJudge;

placard::db::ClientHash client(unsigned char c) {
  placard::db::ClientHash h{};
  h.fill(c);
  return h;
}

constexpr std::int64_t kS = 1000;  // one second in the judge's milliseconds

TEST(LimitSettings, DefaultsRangesAndBadValues) {
  std::vector<std::string> problems;
  auto s = placard::catalog::parse_settings({}, problems);
  EXPECT_EQ(s.click_limit_per_minute, 1);
  EXPECT_EQ(s.click_limit_per_10_minutes, 3);
  EXPECT_EQ(s.click_limit_per_hour, 10);
  EXPECT_EQ(s.impression_limit_per_5_minutes, 5);
  s = placard::catalog::parse_settings({{"clickLimitPerMinute", "0"},
                                        {"clickLimitPer10Minutes", "10000"},
                                        {"clickLimitPerHour", "25"},
                                        {"impressionLimitPer5Minutes", "7"}},
                                       problems);
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(s.click_limit_per_minute, 0);
  EXPECT_EQ(s.click_limit_per_10_minutes, 10000);
  EXPECT_EQ(s.click_limit_per_hour, 25);
  EXPECT_EQ(s.impression_limit_per_5_minutes, 7);
  s = placard::catalog::parse_settings(
      {{"clickLimitPerMinute", "-1"}, {"impressionLimitPer5Minutes", "10001"}}, problems);
  EXPECT_EQ(problems.size(), 2U);
  EXPECT_EQ(s.click_limit_per_minute, 1);
  EXPECT_EQ(s.impression_limit_per_5_minutes, 5);
}

TEST(RateJudge, ClicksOnePerMinuteThreePerTenMinutesTenPerHour) {
  placard::catalog::Settings settings;  // the defaults: 1 / 3 / 10 clicks, 5 impressions
  RateJudge judge(placard::api::rate_limits(settings).clicks);
  const RateJudge::Key k{client(1), 42};
  std::int64_t t = 1'000'000 * kS;
  EXPECT_FALSE(judge.over_limit(k, t));          // counted
  EXPECT_TRUE(judge.over_limit(k, t + 1 * kS));  // a second later: over 1 per minute
  EXPECT_TRUE(judge.over_limit(k, t + 59 * kS));
  EXPECT_FALSE(judge.over_limit(k, t + 60 * kS));  // the window is (t-60 s, t]: counted
  EXPECT_FALSE(judge.over_limit(k, t + 120 * kS));
  EXPECT_TRUE(judge.over_limit(k, t + 180 * kS));  // a 4th within 10 minutes
  EXPECT_TRUE(judge.over_limit(k, t + 599 * kS));
  EXPECT_FALSE(judge.over_limit(k, t + 600 * kS));  // the first left the 10 minutes
  // Another offer, another client: their own windows.
  EXPECT_FALSE(judge.over_limit({client(1), 43}, t + 1 * kS));
  EXPECT_FALSE(judge.over_limit({client(2), 42}, t + 1 * kS));
  // Ignored events do not fill the window: a click every 30 s counts every other one.
  RateJudge fresh(placard::api::rate_limits(settings).clicks);
  int counted = 0;
  for (int i = 0; i < 120; ++i)
    counted += fresh.over_limit(k, t + std::int64_t{i} * 30 * kS) ? 0 : 1;
  // An hour of clicks every 30 s: 3 in each 10 minutes (at 0, 60, 120 s, then 600, 660, 720 s,
  // ...) until the 10th at 1,800 s; then 10 per hour holds the rest of the hour.
  EXPECT_EQ(counted, 10);
}

TEST(RateJudge, TenPerHour) {
  RateJudge judge({{3600, 10}});
  const RateJudge::Key k{client(1), 1};
  const std::int64_t t = 5'000'000 * kS;
  for (int i = 0; i < 10; ++i)
    EXPECT_FALSE(judge.over_limit(k, t + std::int64_t{i} * 300 * kS)) << i;
  EXPECT_TRUE(judge.over_limit(k, t + 3000 * kS));
  EXPECT_TRUE(judge.over_limit(k, t + 3599 * kS));
  EXPECT_FALSE(judge.over_limit(k, t + 3600 * kS));
}

TEST(RateJudge, ImpressionsFivePerFiveMinutesWithHistory) {
  placard::catalog::Settings settings;
  RateJudge judge(placard::api::rate_limits(settings).impressions);
  EXPECT_EQ(judge.longest_ms(), 300 * kS);
  const RateJudge::Key k{client(7), 9};
  const std::int64_t t = 2'000'000 * kS;
  // Four counted in earlier passes (history may come in any order).
  for (const int s : {40, 10, 30, 20}) judge.remember(k, t + s * kS);
  EXPECT_FALSE(judge.over_limit(k, t + 50 * kS));  // the 5th
  EXPECT_TRUE(judge.over_limit(k, t + 60 * kS));   // the 6th within 5 minutes
  EXPECT_TRUE(judge.over_limit(k, t + 309 * kS));
  EXPECT_FALSE(judge.over_limit(k, t + 310 * kS));  // the one at t+10 s left the window
}

TEST(RateJudge, ZeroTurnsAWindowOff) {
  placard::catalog::Settings settings;
  settings.impression_limit_per_5_minutes = 0;
  RateJudge off(placard::api::rate_limits(settings).impressions);
  EXPECT_FALSE(off.active());
  for (int i = 0; i < 100; ++i) EXPECT_FALSE(off.over_limit({client(1), 1}, i));
  settings.click_limit_per_minute = 0;
  settings.click_limit_per_10_minutes = 0;
  RateJudge hourly(placard::api::rate_limits(settings).clicks);  // only 10 per hour is left
  EXPECT_EQ(hourly.longest_ms(), 3600 * kS);
  int counted = 0;
  for (int i = 0; i < 20; ++i) counted += hourly.over_limit({client(1), 1}, i * kS) ? 0 : 1;
  EXPECT_EQ(counted, 10);
}

}  // namespace
