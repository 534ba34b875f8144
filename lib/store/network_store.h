#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace placard::db {

// A network's credentials as stored: AES-256-GCM ciphertext, never plaintext.
struct StoredCredentials {
  std::string key_id;
  std::string iv;
  std::string ciphertext;
  std::string tag;
  std::int64_t updated_at = 0;  // Unix seconds
};

// A row of sync_runs (lib/network/sync_job.h writes them).
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

  virtual std::optional<StoredCredentials> credentials(const std::string& network) = 0;
  // Inserts or replaces the network's row (updated_at = now).
  virtual void put_credentials(const std::string& network, const StoredCredentials& sealed,
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
