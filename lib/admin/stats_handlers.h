#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "lib/admin/admin_router.h"
#include "lib/http/request.h"
#include "lib/http/response.h"
#include "lib/stats/stats_store.h"

namespace placard::admin {

// GET /stats?from=YYYY-MM-DD&to=YYYY-MM-DD&groupBy=day|placement|offer|country[&format=csv]
// (contract 6.1) and GET /background (when the background jobs last ran). Read access: any
// signed-in account.
void add_stats_routes(AdminRouter& admin);

inline constexpr int kMaxStatsDays = 366;
inline constexpr std::size_t kMaxStatsRows = 500;

struct StatsQuery {
  std::string from;  // as given (valid)
  std::string to;
  std::int64_t from_day = 0;  // Unix seconds of the UTC midnights
  std::int64_t to_day = 0;
  db::StatsGroup group = db::StatsGroup::day;
  std::string group_name = "day";
  bool csv = false;
};

// The query parameters, validated: 400 missing_field / invalid_field naming the parameter.
StatsQuery parse_stats_query(const http::Request& request);

// Every day of the range in order, the days without events as zeros.
std::vector<db::StatsRow> every_day(std::int64_t from_day, std::int64_t to_day,
                                    const std::vector<db::StatsRow>& days_with_events);

// clicks / impressions, 0 without impressions.
double click_through_rate(const db::StatsCounts& c);

std::string stats_json(const StatsQuery& q, const db::StatsReport& report);
// RFC 4180: header line key,impressions,clicks,ctr; CRLF line ends; fields quoted when needed.
std::string stats_csv(const db::StatsReport& report);
// GET /background: {"jobs": [{"job", "lastRunAt", "ok", "runner"}]} for rollup, retention and
// sync, in that order; a job that never ran has lastRunAt, ok and runner null.
std::string background_json(const std::vector<db::BackgroundRun>& runs);

// The answer for a query, from the store (JSON or CSV with its Content-Disposition).
http::Response stats_response(const StatsQuery& q, db::StatsStore& store);

}  // namespace placard::admin
