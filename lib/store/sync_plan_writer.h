#pragma once
// Only lib/{db,store,jobs,stats}/*.cpp include this header (it needs mysql_session.h).
#include <string>

#include "lib/db/mysql_session.h"
#include "lib/network/sync_plan.h"

namespace placard::db {

// Writes one sync plan's rows for MysqlSyncStore::apply, inside the caller's transaction:
// network_categories seen (new rows unmapped, names refreshed), creates and updates in chunks of
// multi-row INSERT ... ON DUPLICATE KEY UPDATE (never the columns the administrator set),
// offer_countries replaced where they changed (unless kept), and the disables.
void write_sync_plan(MysqlSession& s, const std::string& network, const network::SyncPlan& plan);

}  // namespace placard::db
