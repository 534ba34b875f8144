#pragma once
// The sync job's repository (contract section 8). Interface only: the MySQL implementation and
// the job itself are not built yet (see docs/architecture.md, "Affiliate network import").
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lib/network/sync_plan.h"

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

  // sync_runs: a new running row; progress while pulling; the end (succeeded or failed).
  virtual std::uint64_t start_run(const std::string& network) = 0;
  virtual void progress(std::uint64_t run_id, int pages_done, int pages_total) = 0;
  virtual void finish_run(std::uint64_t run_id, bool succeeded, const SyncCounts& counts,
                          const std::optional<std::string>& error) = 0;

  // Read before planning: the network's category map and its imported offers.
  virtual std::map<std::string, std::optional<std::uint32_t>> category_map(
      const std::string& network) = 0;
  virtual std::vector<network::ExistingOffer> imported_offers(const std::string& network) = 0;

  // Writes a whole plan in ONE transaction: network_categories seen (new rows unmapped, names
  // refreshed), creates, updates (never the columns in `keep`), disables, and one catalog
  // version bump. A failure rolls everything back, so the catalog stays as it was.
  virtual SyncCounts apply(const std::string& network, const network::SyncPlan& plan) = 0;
};

}  // namespace placard::db
