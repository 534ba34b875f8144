// The statistics handlers' pure parts: every day of a range, CSV and JSON, the query's
// validation, and the list of background jobs.
#include "lib/admin/stats_handlers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lib/http/api_error.h"
#include "lib/util/time_format.h"

namespace placard {
namespace {

using db::StatsGroup;
using db::StatsRow;

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

TEST(BackgroundJson, EveryJobInOrderWithNullsForTheNeverRun) {
  const std::vector<db::BackgroundRun> runs{{"sync", 1767225600, false, "placardctl"},
                                            {"rollup", 1767225660, true, "worker"}};
  EXPECT_EQ(
      admin::background_json(runs),
      R"({"jobs":[{"job":"rollup","lastRunAt":"2026-01-01T00:01:00Z","ok":true,)"
      R"("runner":"worker"},{"job":"retention","lastRunAt":null,"ok":null,"runner":null},)"
      R"({"job":"sync","lastRunAt":"2026-01-01T00:00:00Z","ok":false,"runner":"placardctl"}]})");
}

}  // namespace
}  // namespace placard
