#pragma once
// The sync job's repository (contract section 8): lib/jobs/sync_job.h runs a sync over it;
// lib/store/mysql_sync_store.h is the MySQL implementation.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lib/network/sync_plan.h"
#include "lib/store/network_store.h"

namespace placard::db {

struct SyncCounts {
  std::uint32_t created = 0;
  std::uint32_t updated = 0;
  std::uint32_t disabled = 0;
  std::uint32_t skipped = 0;
};

class SyncStore {
 public:
  virtual ~SyncStore() = default;

  // One sync at a time on all hosts: MySQL GET_LOCK('placard.network_sync', 0) on the store's
  // own connection; false when another holds it (the API answers 409).
  virtual bool try_lock() = 0;
  virtual void unlock() = 0;

  // With the lock held: runs still `running` were left by a worker that died mid-run (the lock
  // ended with its connection); they become `failed` with a sentence saying so. Answers how many.
  virtual std::uint32_t fail_interrupted_runs() = 0;

  virtual std::optional<network::StoredCredentials> credentials(const std::string& network) = 0;

  // sync_runs: a new running row; progress while pulling; the end (succeeded or failed).
  virtual std::uint64_t start_run(const std::string& network) = 0;
  virtual void progress(std::uint64_t run_id, int pages_done, int pages_total) = 0;
  virtual void finish_run(std::uint64_t run_id, bool succeeded, std::uint32_t seen,
                          const SyncCounts& counts, const std::optional<std::string>& error) = 0;

  // Read before planning: the network's category map, its imported offers, the known country
  // codes (an offer's other codes are dropped: offer_countries references countries).
  virtual std::map<std::string, std::optional<std::uint32_t>> category_map(
      const std::string& network) = 0;
  virtual std::vector<network::ExistingOffer> imported_offers(const std::string& network) = 0;
  virtual std::vector<std::string> country_codes() = 0;

  // Writes a whole plan in ONE transaction: network_categories seen (new rows unmapped, names
  // refreshed), creates, updates (never the columns in `keep`), countries (replaced unless
  // kept), disables, an audit row for the run (who started it, or none for the schedule and
  // placardctl) and one catalog version bump. A failure rolls everything back, so the catalog
  // stays as it was.
  virtual SyncCounts apply(const std::string& network, const network::SyncPlan& plan,
                           std::uint64_t run_id, std::optional<std::uint64_t> account_id) = 0;
};

}  // namespace placard::db
