#pragma once
// Only lib/jobs/*.cpp include this header (it needs mysql_session.h).
#include <vector>

#include "lib/db/mysql_session.h"
#include "lib/jobs/raw_events.h"

namespace placard::db {

// Counts the rows into the rollups, in the caller's transaction: a few multi-row upserts
// (rollup_counts.h).
void add_to_rollups(MysqlSession& s, const std::vector<NewRow>& rows);

}  // namespace placard::db
