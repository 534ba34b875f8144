#pragma once
// Only lib/{db,store,jobs,stats}/*.cpp and fcgi-app include this header (it needs mysql_session.h).
#include <cstdint>

#include "lib/db/mysql_session.h"

namespace placard::db {

// The one place that bumps the catalog version: every worker polls it and rebuilds its snapshot.
// Call it inside the transaction that changes what the public API serves.
void bump_catalog_version(MysqlSession& session);

std::uint64_t read_catalog_version(MysqlSession& session);

}  // namespace placard::db
