#include <gtest/gtest.h>

#include "lib/admin/stats_handlers.h"
#include "lib/config/config_file.h"
#include "lib/config/server_config.h"
#include "lib/http/api_error.h"
#include "lib/jobs/retention.h"
#include "lib/stats/stats_part.h"
#include "lib/util/time_format.h"

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

TEST(StatsHandlers, EveryDayOfTheRangeWithZeros) {
  const auto from = *util::parse_date("2026-02-27");
  const auto to = *util::parse_date("2026-03-02");
  const auto rows = admin::every_day(from, to, {{"2026-02-28", {4, 1}}, {"2026-03-02", {1, 1}}});
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0], (StatsRow{"2026-02-27", {}}));
  EXPECT_EQ(rows[1], (StatsRow{"2026-02-28", {4, 1}}));
  EXPECT_EQ(rows[2], (StatsRow{"2026-03-01", {}}));
  EXPECT_EQ(rows[3], (StatsRow{"2026-03-02", {1, 1}}));
}

TEST(StatsHandlers, CsvQuotesWhatNeedsQuoting) {
  db::StatsReport r;
  r.rows = {{"plain", {4, 1}}, {"a,b", {0, 0}}, {"say \"hi\"", {3, 3}}};
  EXPECT_EQ(admin::stats_csv(r),
            "key,impressions,clicks,ctr\r\n"
            "plain,4,1,0.25\r\n"
            "\"a,b\",0,0,0.0\r\n"
            "\"say \"\"hi\"\"\",3,3,1.0\r\n");
}

TEST(StatsHandlers, JsonShape) {
  admin::StatsQuery q;
  q.from = "2026-01-01";
  q.to = "2026-01-01";
  q.group_name = "country";
  db::StatsReport r;
  r.rows = {{"DE", {3, 1, 2, 1}}};
  r.totals = {3, 1, 2, 1};
  r.ignored.impressions = {1, 0, 0, 1};  // prefetch, head, bot, rate_limited
  r.ignored.clicks = {0, 0, 1, 0};
  EXPECT_EQ(admin::stats_json(q, r),
            "{\"from\":\"2026-01-01\",\"to\":\"2026-01-01\",\"groupBy\":\"country\",\"rows\":[{"
            "\"key\":\"DE\",\"impressions\":3,\"clicks\":1,\"ctr\":0.3333333333333333,"
            "\"ignoredImpressions\":2,\"ignoredClicks\":1}],"
            "\"totals\":{\"impressions\":3,\"clicks\":1,\"ctr\":0.3333333333333333,"
            "\"ignoredImpressions\":2,\"ignoredClicks\":1,\"ignored\":{"
            "\"impressions\":{\"prefetch\":1,\"head\":0,\"bot\":0,\"rate_limited\":1},"
            "\"clicks\":{\"prefetch\":0,\"head\":0,\"bot\":1,\"rate_limited\":0}}}}");
}

http::Request request(std::string query) {
  http::Request r;
  r.method = "GET";
  r.path = "/admin/api/v1/stats";
  r.query = std::move(query);
  return r;
}

void expect_error(const std::string& query, const std::string& code, const std::string& field) {
  try {
    admin::parse_stats_query(request(query));
    ADD_FAILURE() << query << ": no error";
  } catch (const http::ApiError& e) {
    EXPECT_EQ(e.status(), 400) << query;
    EXPECT_EQ(e.code(), code) << query;
    EXPECT_EQ(e.field(), field) << query;
  }
}

TEST(StatsHandlers, QueryValidation) {
  expect_error("to=2026-01-01", "missing_field", "from");
  expect_error("from=2026-01-01", "missing_field", "to");
  expect_error("from=2026-1-01&to=2026-01-01", "invalid_field", "from");
  expect_error("from=2026-01-01&to=2026-02-30", "invalid_field", "to");
  expect_error("from=2026-01-02&to=2026-01-01", "invalid_field", "from");
  expect_error("from=2025-01-01&to=2026-01-02", "invalid_field", "to");  // 367 days
  expect_error("from=2026-01-01&to=2026-01-01&groupBy=week", "invalid_field", "groupBy");
  expect_error("from=2026-01-01&to=2026-01-01&format=xml", "invalid_field", "format");
  expect_error("from=2026-01-01&to=2026-01-01&limit=5", "invalid_field", "limit");
  const auto q =
      admin::parse_stats_query(request("from=2024-01-01&to=2024-12-31&groupBy=offer&format=csv"));
  EXPECT_EQ(q.group, StatsGroup::offer);  // 2024: 366 days, the most allowed
  EXPECT_TRUE(q.csv);
  EXPECT_EQ(admin::parse_stats_query(request("from=2026-01-01&to=2026-01-01")).group,
            StatsGroup::day);
}

TEST(Retention, NeverBelowTheTokenTimeToLive) {
  EXPECT_EQ(db::effective_retention_days(90, 86400), 90);
  EXPECT_EQ(db::effective_retention_days(1, 86400), 1);
  EXPECT_EQ(db::effective_retention_days(1, 86401), 2);
  EXPECT_EQ(db::effective_retention_days(3, std::int64_t{30} * 86400), 30);
}

TEST(Retention, IntervalIsAConfigKey) {
  EXPECT_EQ(config::server_config_from({}).retention_interval_seconds, 600);
  EXPECT_EQ(
      config::server_config_from({{"retention.interval_seconds", "0"}}).retention_interval_seconds,
      0);
  EXPECT_THROW(config::server_config_from({{"retention.interval_seconds", "-1"}}),
               config::ConfigError);
  EXPECT_THROW(config::server_config_from({{"retention.interval_seconds", "1m"}}),
               config::ConfigError);
  config::ServerConfig c;
  c.retention_interval_seconds = 42;
  EXPECT_NE(config::render_server_config(c).find("retention.interval_seconds = 42\n"),
            std::string::npos);
}

}  // namespace
}  // namespace placard
