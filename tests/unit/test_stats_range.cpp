#include "lib/stats/stats_range.h"

#include <gtest/gtest.h>

#include "lib/util/time_format.h"

namespace placard::db {
namespace {

std::int64_t d(const char* text) {
  return *util::parse_date(text);
}

std::vector<std::string> dates(const std::vector<std::int64_t>& days) {
  std::vector<std::string> out;
  out.reserve(days.size());
  for (const auto x : days) out.push_back(util::format_date(x));
  return out;
}

std::vector<std::string> runs(const RangeParts& p) {
  std::vector<std::string> out;
  for (const auto& [a, b] : p.days)
    out.push_back(util::format_date(a) + ".." + util::format_date(b));
  return out;
}

TEST(StatsRange, MonthStartsAcrossYearsAndLeapDays) {
  EXPECT_EQ(util::format_date(month_start(d("2024-02-29"))), "2024-02-01");
  EXPECT_EQ(util::format_date(next_month_start(d("2024-02-29"))), "2024-03-01");
  EXPECT_EQ(util::format_date(next_month_start(d("2025-12-31"))), "2026-01-01");
  EXPECT_EQ(util::format_date(month_start(d("2026-01-01"))), "2026-01-01");
}

TEST(StatsRange, WholeMonthsAreOnlyThoseEntirelyInside) {
  EXPECT_EQ(dates(whole_months(d("2025-11-23"), d("2026-11-23"))),
            (std::vector<std::string>{"2025-12-01", "2026-01-01", "2026-02-01", "2026-03-01",
                                      "2026-04-01", "2026-05-01", "2026-06-01", "2026-07-01",
                                      "2026-08-01", "2026-09-01", "2026-10-01"}));
  EXPECT_EQ(dates(whole_months(d("2026-02-01"), d("2026-02-28"))),
            (std::vector<std::string>{"2026-02-01"}));
  EXPECT_TRUE(whole_months(d("2026-02-01"), d("2026-02-27")).empty());
  EXPECT_TRUE(whole_months(d("2026-02-02"), d("2026-03-30")).empty());
}

TEST(StatsRange, UsableMonthsAreReadAsMonthsAndTheRestAsDayRuns) {
  const auto p =
      split_by_months(d("2025-11-23"), d("2026-03-10"), {d("2025-12-01"), d("2026-02-01")});
  EXPECT_EQ(dates(p.months), (std::vector<std::string>{"2025-12-01", "2026-02-01"}));
  // January is not usable (not built, or late events since): its days join no neighbour, since
  // both neighbours are months.
  EXPECT_EQ(runs(p), (std::vector<std::string>{"2025-11-23..2025-11-30", "2026-01-01..2026-01-31",
                                               "2026-03-01..2026-03-10"}));
}

TEST(StatsRange, AdjacentDaysMergeIntoOneRun) {
  const auto p = split_by_months(d("2025-11-23"), d("2026-01-10"), {});
  EXPECT_TRUE(p.months.empty());
  EXPECT_EQ(runs(p), (std::vector<std::string>{"2025-11-23..2026-01-10"}));
  const auto only = split_by_months(d("2026-01-01"), d("2026-01-31"), {d("2026-01-01")});
  EXPECT_EQ(dates(only.months), (std::vector<std::string>{"2026-01-01"}));
  EXPECT_TRUE(only.days.empty());
}

TEST(StatsRange, EveryDayIsCoveredExactlyOnce) {
  const std::int64_t from = d("2024-01-15");
  const std::int64_t to = d("2025-01-14");
  const auto p = split_by_months(
      from, to,
      {d("2024-02-01"), d("2024-03-01"), d("2024-07-01"), d("2024-12-01"), d("2025-01-01")});
  std::int64_t covered = 0;
  for (const auto m : p.months) covered += (next_month_start(m) - m) / kDaySeconds;
  for (const auto& [a, b] : p.days) covered += (b - a) / kDaySeconds + 1;
  EXPECT_EQ(covered, (to - from) / kDaySeconds + 1);
  // January 2025 is not whole inside the range, so it is never read as a month.
  EXPECT_EQ(dates(p.months),
            (std::vector<std::string>{"2024-02-01", "2024-03-01", "2024-07-01", "2024-12-01"}));
}

TEST(StatsRange, LastSealedDayIsAnHourAfterMidnight) {
  EXPECT_EQ(util::format_date(last_sealed_day(d("2026-11-23") + 3599)), "2026-11-21");
  EXPECT_EQ(util::format_date(last_sealed_day(d("2026-11-23") + 3600)), "2026-11-22");
}

}  // namespace
}  // namespace placard::db
