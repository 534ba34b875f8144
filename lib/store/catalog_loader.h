#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lib/catalog/snapshot.h"
#include "lib/db/catalog_version.h"
#include "lib/db/mysql_session.h"

namespace placard::db {

// Reads the whole catalog in one consistent read (one transaction) and builds a snapshot.
// Offers are streamed row by row into the builder. Problems with stored values are appended.
std::shared_ptr<const catalog::Snapshot> load_snapshot(MysqlSession& session, std::int64_t now,
                                                       std::vector<std::string>& problems);

}  // namespace placard::db
