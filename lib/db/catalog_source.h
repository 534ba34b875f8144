#pragma once
// Only fcgi-app includes this header (it needs mysql_session.h).
#include <atomic>
#include <chrono>
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

  // For GET /metrics, read from any thread: how long the replica's catalog version has been
  // behind the primary's as the last poll saw it (0: current; nullopt: no replica, or it did not
  // answer), and whether the last snapshot came from it (nullopt: no replica configured).
  std::optional<double> replica_lag_seconds() const;
  std::optional<double> from_replica() const;

 private:
  std::optional<std::uint64_t> replica_version();
  // Copies the choice's lag clock for the gauge (answered: the replica gave its version).
  void publish_lag(bool answered);

  MysqlSession primary_;
  std::optional<MysqlSession> replica_;
  catalog::ReplicaChoice choice_;
  Report report_;
  std::uint64_t wanted_ = 0;
  bool loaded_ = false;
  std::optional<bool> on_replica_;  // the last load's source, to report changes once
  // The metrics' copies: the choice's steady-clock ns since the replica has been behind (0:
  // current, -1: unknown), and the last load's source (1: the replica).
  std::atomic<std::int64_t> behind_since_ns_{-1};
  std::atomic<int> last_from_replica_{0};
};

}  // namespace placard::db
