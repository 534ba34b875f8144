#pragma once
// Only lib/db/*.cpp include this header (it needs mysql_session.h).
#include <cstdint>
#include <optional>
#include <set>
#include <vector>

#include "lib/db/mysql_session.h"

namespace placard::db {

// stats_monthly: each month's sums of stats_daily per dim and item (sql/0009_stats_monthly.sql).

// Builds the newest month that is sealed (every day of it ended before `sealed_until_day`, the
// last day no writer can still add to) and not yet built, or built from other totals than its
// daily rows hold now. One month per call, one builder at a time on all hosts (named lock); the
// month's rows and its stats_months row are written in one transaction. Returns the month built.
std::optional<std::int64_t> build_next_month(MysqlSession& session, std::int64_t sealed_until_day);

// Which of `months` (first days) can be read from stats_monthly: built from the totals their
// daily rows still hold.
std::set<std::int64_t> usable_months(MysqlSession& session,
                                     const std::vector<std::int64_t>& months);

}  // namespace placard::db
