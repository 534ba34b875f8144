#include "lib/jobs/rollup_counts.h"

#include <gtest/gtest.h>

#include <string>

using placard::db::RollupCounts;
using placard::db::RollupEvent;

namespace {

// 2026-11-27 23:59:59.999 UTC, in milliseconds since the epoch.
constexpr std::int64_t kLastMsOfDay = 1'795'823'999'999;

RollupEvent event(std::int64_t at_ms, std::uint64_t offer, bool click = false,
                  std::string reason = "") {
  RollupEvent e;
  e.at_ms = at_ms;
  e.offer_id = offer;
  e.placement = "popup-main";
  e.country = "DE";
  e.click = click;
  e.reason = std::move(reason);
  return e;
}

}  // namespace

TEST(RollupCounts, SumsEachRollupKeyApartCountedAndIgnored) {
  RollupCounts c;
  c.add(event(kLastMsOfDay, 7));
  c.add(event(kLastMsOfDay - 1, 7));
  c.add(event(kLastMsOfDay, 7, false, "rate_limited"));
  c.add(event(kLastMsOfDay, 7, true));
  c.add(event(kLastMsOfDay + 1, 7, true, "bot"));  // the next day, the next hour
  c.add(event(kLastMsOfDay, 12));

  ASSERT_EQ(c.hourly().size(), 3U);
  const auto& h7 = c.hourly().begin()->second;  // hour 23 of the 27th, offer 7
  EXPECT_EQ(h7.impressions, 2U);
  EXPECT_EQ(h7.ignored_impressions, 1U);
  EXPECT_EQ(h7.clicks, 1U);
  EXPECT_EQ(h7.ignored_clicks, 0U);

  const auto& offers = c.daily("offer");
  ASSERT_EQ(offers.size(), 3U);  // (27th, "12"), (27th, "7"), (28th, "7")
  EXPECT_EQ(offers.begin()->first.second, "12");
  EXPECT_EQ(offers.begin()->second.impressions, 1U);
  const auto& placements = c.daily("placement");
  ASSERT_EQ(placements.size(), 2U);
  EXPECT_EQ(placements.begin()->second.impressions, 3U);
  EXPECT_EQ(placements.begin()->second.ignored_impressions, 1U);
  EXPECT_EQ(placements.begin()->second.clicks, 1U);
  EXPECT_EQ(placements.rbegin()->second.ignored_clicks, 1U);

  ASSERT_EQ(c.ignored().size(), 2U);  // (27th, impression, rate_limited), (28th, click, bot)
  EXPECT_EQ(c.ignored().begin()->second, 1U);
  EXPECT_THROW((void)c.daily("nope"), std::invalid_argument);
}

TEST(RollupCounts, StatementsSpellHoursDaysAndNamesAsTheRollupTablesKeepThem) {
  RollupCounts c;
  c.add(event(kLastMsOfDay, 7, true, "rate_limited"));
  const auto sql = c.statements();
  ASSERT_EQ(sql.size(), 5U);  // hourly, three daily dimensions, ignored by reason
  EXPECT_EQ(sql[0],
            "INSERT INTO stats_hourly (hour, offer_id, placement, country, impressions, "
            "ignored_impressions, clicks, ignored_clicks) VALUES ('2026-11-27 23:00:00', 7, "
            "X'706F7075702D6D61696E', X'4445', 0, 0, 0, 1) ON DUPLICATE KEY UPDATE impressions = "
            "impressions + VALUES(impressions), ignored_impressions = ignored_impressions + "
            "VALUES(ignored_impressions), clicks = clicks + VALUES(clicks), ignored_clicks = "
            "ignored_clicks + VALUES(ignored_clicks)");
  EXPECT_NE(sql[1].find("('offer', '2026-11-27', X'37', 0, 0, 0, 1)"), std::string::npos);
  EXPECT_NE(sql[2].find("('placement', '2026-11-27', X'706F7075702D6D61696E', 0, 0, 0, 1)"),
            std::string::npos);
  EXPECT_NE(sql[3].find("('country', '2026-11-27', X'4445', 0, 0, 0, 1)"), std::string::npos);
  EXPECT_EQ(sql[4],
            "INSERT INTO stats_ignored_daily (day, kind, reason, n) VALUES ('2026-11-27', 'click', "
            "X'726174655F6C696D69746564', 1) ON DUPLICATE KEY UPDATE n = n + VALUES(n)");
}

TEST(RollupCounts, EveryRowInExactlyOneStatementOfAtMostTheChunk) {
  RollupCounts c;
  for (std::uint64_t offer = 1; offer <= 5; ++offer) c.add(event(kLastMsOfDay, offer));
  const auto sql = c.statements(2);
  // hourly 5 rows -> 3 statements; offers 5 -> 3; placement 1; country 1; nothing ignored.
  ASSERT_EQ(sql.size(), 8U);
  std::size_t hourly_rows = 0;
  for (const auto& s : sql) {
    if (s.rfind("INSERT INTO stats_hourly", 0) != 0) continue;
    std::size_t rows = 0;
    for (std::size_t at = s.find("('2026"); at != std::string::npos; at = s.find("('2026", at + 1))
      ++rows;
    EXPECT_LE(rows, 2U);
    hourly_rows += rows;
  }
  EXPECT_EQ(hourly_rows, 5U);
  EXPECT_TRUE(RollupCounts().statements().empty());
}
