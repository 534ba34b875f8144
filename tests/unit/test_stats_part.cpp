// The statistics' parts: a closed part ranked and summed, merged with the live counts, and the
// cache of parts and open days.
#include "lib/stats/stats_part.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace placard {
namespace {

using db::StatsCounts;
using db::StatsGroup;
using db::StatsPart;
using db::StatsRow;

std::vector<std::string> keys(const std::vector<StatsRow>& rows) {
  std::vector<std::string> out;
  out.reserve(rows.size());
  for (const auto& r : rows) out.push_back(r.key);
  return out;
}

TEST(StatsPart, RanksByImpressionsThenKeyAndSums) {
  const StatsPart p(StatsGroup::offer, {{"3", {5, 1}}, {"10", {7, 0}}, {"2", {5, 2}}});
  EXPECT_EQ(keys(p.ranked()), (std::vector<std::string>{"10", "2", "3"}));
  EXPECT_EQ(p.totals(), (StatsCounts{17, 3}));
  ASSERT_EQ(p.position("2"), 1u);
  EXPECT_EQ(p.ranked()[1].counts, (StatsCounts{5, 2}));
  EXPECT_EQ(p.position("4"), StatsPart::npos);
}

TEST(StatsPart, FindsEveryKeyOfAPartRankedApartFromKeyOrder) {
  // Ranked by impressions, looked up by key: 1,000 offers whose rank order is not their key
  // order, every one found at its rank, and keys between them (or past either end) not found.
  std::vector<StatsRow> rows;
  rows.reserve(1000);
  for (int i = 0; i < 1000; ++i) {
    const auto impressions = static_cast<std::uint64_t>((i * 7919) % 1000);
    rows.push_back({std::to_string(2 * i + 10), {impressions, 0}});
  }
  const StatsPart p(StatsGroup::offer, rows);
  for (const auto& r : rows) {
    const std::size_t at = p.position(r.key);
    ASSERT_NE(at, StatsPart::npos) << r.key;
    EXPECT_EQ(p.ranked()[at], r);
  }
  for (const std::string absent : {"9", "11", "1001", "2009", "99999", ""}) {
    EXPECT_EQ(p.position(absent), StatsPart::npos) << absent;
  }
}

TEST(StatsPart, DaysRankByDate) {
  const StatsPart p(StatsGroup::day, {{"2026-01-02", {9, 0}}, {"2026-01-01", {1, 0}}});
  EXPECT_EQ(keys(p.ranked()), (std::vector<std::string>{"2026-01-01", "2026-01-02"}));
}

TEST(MergeParts, LiveCountsLiftAKeyPastTheClosedTop) {
  const StatsPart closed(StatsGroup::offer, {{"a", {10, 1}}, {"b", {9, 0}}, {"c", {8, 0}}});
  const auto r = db::merge_parts(StatsGroup::offer, &closed, {{"d", {1, 0}}, {"c", {5, 2}}}, 2);
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.rows[0], (StatsRow{"c", {13, 2}}));
  EXPECT_EQ(r.rows[1], (StatsRow{"a", {10, 1}}));
  EXPECT_EQ(r.totals, (StatsCounts{33, 3}));  // everything, not only the rows returned
}

TEST(MergeParts, ClosedKeysWithLiveCountsAreNotRepeated) {
  const StatsPart closed(StatsGroup::offer, {{"a", {10, 0}}, {"b", {9, 0}}, {"c", {1, 0}}});
  const auto r = db::merge_parts(StatsGroup::offer, &closed, {{"a", {1, 1}}, {"z", {0, 1}}}, 500);
  EXPECT_EQ(r.rows,
            (std::vector<StatsRow>{{"a", {11, 1}}, {"b", {9, 0}}, {"c", {1, 0}}, {"z", {0, 1}}}));
  EXPECT_EQ(r.totals, (StatsCounts{21, 2}));
}

TEST(MergeParts, EitherPartMayBeMissing) {
  const StatsPart only(StatsGroup::country, {{"DE", {2, 1}}, {"AT", {2, 0}}});
  auto r = db::merge_parts(StatsGroup::country, &only, {}, 500);
  EXPECT_EQ(keys(r.rows), (std::vector<std::string>{"AT", "DE"}));
  EXPECT_EQ(r.totals, (StatsCounts{4, 1}));
  r = db::merge_parts(StatsGroup::country, nullptr, {{"DE", {2, 1}}, {"AT", {2, 0}}}, 500);
  EXPECT_EQ(keys(r.rows), (std::vector<std::string>{"AT", "DE"}));
  EXPECT_EQ(r.totals, (StatsCounts{4, 1}));
  r = db::merge_parts(StatsGroup::country, nullptr, {}, 500);
  EXPECT_TRUE(r.rows.empty());
  EXPECT_EQ(r.totals, (StatsCounts{}));
}

TEST(StatsCache, KeepsTheMostRecentlyUsed) {
  db::StatsCache cache(2);
  const auto part = [](std::uint64_t n) {
    return std::make_shared<const StatsPart>(StatsGroup::day,
                                             std::vector<StatsRow>{{"2026-01-01", {n, 0}}});
  };
  cache.put({StatsGroup::day, 1, 1}, part(1));
  cache.put({StatsGroup::day, 2, 2}, part(2));
  ASSERT_NE(cache.get({StatsGroup::day, 1, 1}), nullptr);  // 1 is now the most recent
  cache.put({StatsGroup::day, 3, 3}, part(3));             // drops 2
  EXPECT_EQ(cache.get({StatsGroup::day, 2, 2}), nullptr);
  ASSERT_NE(cache.get({StatsGroup::day, 1, 1}), nullptr);
  EXPECT_EQ(cache.get({StatsGroup::day, 3, 3})->totals().impressions, 3u);
  EXPECT_EQ(cache.get({StatsGroup::offer, 1, 1}), nullptr);  // the group is part of the key
}

TEST(StatsCache, OpenDaysAreKeptOnlyWhileTheirTotalsStay) {
  db::StatsCache cache;
  auto rows = std::make_shared<const std::vector<StatsRow>>(std::vector<StatsRow>{{"7", {2, 1}}});
  const std::int64_t day = std::int64_t{20000} * 86400;
  cache.put_open(StatsGroup::offer, day, {2, 1}, rows);
  EXPECT_EQ(cache.get_open(StatsGroup::offer, day, {2, 1}), rows);
  EXPECT_EQ(cache.get_open(StatsGroup::offer, day, {3, 1}), nullptr);  // an event came in
  EXPECT_EQ(cache.get_open(StatsGroup::country, day, {2, 1}), nullptr);
  cache.put_open(StatsGroup::offer, day + std::int64_t{3} * 86400, {0, 0}, rows);  // days later
  EXPECT_EQ(cache.get_open(StatsGroup::offer, day, {2, 1}), nullptr);              // forgotten
}

}  // namespace
}  // namespace placard
