#pragma once
// Only lib/{db,store,jobs,stats}/*.cpp include this header (it needs mysql_session.h).
#include <chrono>
#include <cstdint>
#include <optional>
#include <set>
#include <vector>

#include "lib/db/mysql_session.h"

namespace placard::db {

// stats_monthly: each month's sums of stats_daily per dim and item (sql/0009_stats_monthly.sql).

// Adds sealed days to their months (every day up to `sealed_until_day`, the last day no writer
// can still add to): the newest month not yet complete first, a day per transaction (its rows
// added to the month's, its totals to stats_months), for up to `budget`; a month whose added
// days' totals changed since (an event counted late) is cleared and built again. One builder at
// a time on all hosts (named lock), taken only when a month is found to need it (so an idle pass
// writes no lease). Returns the number of days added (or months cleared).
int build_months(MysqlSession& session, std::int64_t sealed_until_day,
                 std::chrono::milliseconds budget);

// Which of `months` (first days) can be read from stats_monthly: built from the totals their
// daily rows still hold.
std::set<std::int64_t> usable_months(MysqlSession& session,
                                     const std::vector<std::int64_t>& months);

}  // namespace placard::db
