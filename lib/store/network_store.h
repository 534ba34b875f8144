#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/network/stored_credentials.h"

namespace placard::db {

// A row of sync_runs (lib/jobs/sync_job.h writes them).
struct SyncRunRow {
  std::uint64_t id = 0;
  std::string network;
  std::string status;  // running | succeeded | failed
  std::int64_t started_at = 0;
  std::optional<std::int64_t> finished_at;
  std::uint32_t pages_done = 0;
  std::optional<std::uint32_t> pages_total;
  std::uint32_t seen = 0;
  std::uint32_t created = 0;
  std::uint32_t updated = 0;
  std::uint32_t disabled = 0;
  std::uint32_t skipped = 0;
  std::optional<std::string> error;
};

struct SyncRunPage {
  std::vector<SyncRunRow> items;
  std::uint64_t total = 0;
};

// A network category seen by a sync, and the Placard category it maps to.
struct NetworkCategory {
  std::string network;
  std::string external_id;
  std::string name;
  std::optional<std::string> category_path;  // nullopt: not mapped
};

struct NetworkCategoryPage {
  std::vector<NetworkCategory> items;
  std::uint64_t total = 0;
};

// Network credentials, sync runs and the category map. Network names are "admitad" | "awin".
class NetworkStore {
 public:
  virtual ~NetworkStore() = default;

  virtual std::optional<network::StoredCredentials> credentials(const std::string& network) = 0;
  // Inserts or replaces the network's row (updated_at = now).
  virtual void put_credentials(const std::string& network, const network::StoredCredentials& sealed,
                               std::uint64_t updated_by) = 0;
  // False when there was none.
  virtual bool delete_credentials(const std::string& network) = 0;

  virtual std::optional<SyncRunRow> last_sync(const std::string& network) = 0;
  virtual std::optional<SyncRunRow> find_sync(std::uint64_t id) = 0;
  // Newest first; no network: both.
  virtual SyncRunPage list_syncs(const std::optional<std::string>& network, int limit,
                                 std::uint64_t offset) = 0;

  // Sorted by name, then external id.
  virtual NetworkCategoryPage list_categories(const std::optional<std::string>& network, int limit,
                                              std::uint64_t offset) = 0;
  virtual std::optional<NetworkCategory> find_category(const std::string& network,
                                                       const std::string& external_id) = 0;
  // The id of a Placard category by its dotted path.
  virtual std::optional<std::uint32_t> category_id(const std::string& path) = 0;
  virtual void map_category(const std::string& network, const std::string& external_id,
                            std::optional<std::uint32_t> category_id) = 0;
};

}  // namespace placard::db
