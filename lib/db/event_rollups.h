#pragma once
// Only lib/db/*.cpp include this header (it needs mysql_session.h).
#include <cstdint>
#include <vector>

#include "lib/db/event_store.h"
#include "lib/db/mysql_session.h"

namespace placard::db {

// Adds events that were just inserted (new rows only, never duplicates) to the statistics
// rollups: stats_hourly (hour x offer x placement x country) and stats_daily (per day: offer,
// placement, country). Runs inside the caller's transaction, so the rollups change exactly when
// the raw rows commit. One `INSERT ... ON DUPLICATE KEY UPDATE n = n + VALUES(n)` per table,
// with its rows in key order: every writer on every host locks rollup rows in the same order,
// so two batches never deadlock on them. `now` (Unix seconds) picks the hour and the day.
void add_to_rollups(MysqlSession& session, bool clicks,
                    const std::vector<const EventRecord*>& fresh, std::int64_t now);

}  // namespace placard::db
