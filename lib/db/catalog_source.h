#pragma once
// Only fcgi-app includes this header (it needs mysql_session.h).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lib/catalog/replica_choice.h"
#include "lib/catalog/snapshot.h"
#include "lib/db/mysql_session.h"

namespace placard::db {

// Where a worker's catalog refresher reads: the version always from the primary (db.*), the
// snapshot from the replica (db.read_*) when one is configured and current enough
// (catalog::ReplicaChoice), else from the primary. Nothing else ever reads the replica: writes,
// deduplication, sessions and locks stay on the primary. Owned by one thread (the refresher's).
class CatalogSource {
 public:
  using Report = std::function<void(const std::string&)>;
  CatalogSource(ConnectionParams primary, std::optional<ConnectionParams> replica,
                std::chrono::milliseconds max_lag, Report report);

  // The primary's catalog version (remembered for the next load).
  std::uint64_t read_version();
  // A snapshot at least as new as the last version read; nullptr: the replica is behind
  // within the bound, keep the current snapshot and poll again.
  std::shared_ptr<const catalog::Snapshot> load(std::int64_t now,
                                                std::vector<std::string>& problems);

 private:
  std::optional<std::uint64_t> replica_version();

  MysqlSession primary_;
  std::optional<MysqlSession> replica_;
  catalog::ReplicaChoice choice_;
  Report report_;
  std::uint64_t wanted_ = 0;
  bool loaded_ = false;
  std::optional<bool> on_replica_;  // the last load's source, to report changes once
};

}  // namespace placard::db
