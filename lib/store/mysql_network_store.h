#pragma once
#include <map>
#include <optional>
#include <string>

#include "lib/db/admin_db.h"
#include "lib/store/network_store.h"

namespace placard::db {

// A network's category map: external category id -> Placard category id (none: not mapped).
std::map<std::string, std::optional<std::uint32_t>> read_category_map(MysqlSession& s,
                                                                      const std::string& network);

class MysqlNetworkStore : public NetworkStore {
 public:
  explicit MysqlNetworkStore(AdminDb& db) : db_(db) {}

  std::optional<network::StoredCredentials> credentials(const std::string& network) override;
  void put_credentials(const std::string& network, const network::StoredCredentials& sealed,
                       std::uint64_t updated_by) override;
  bool delete_credentials(const std::string& network) override;
  std::optional<SyncRunRow> last_sync(const std::string& network) override;
  std::optional<SyncRunRow> find_sync(std::uint64_t id) override;
  SyncRunPage list_syncs(const std::optional<std::string>& network, int limit,
                         std::uint64_t offset) override;
  NetworkCategoryPage list_categories(const std::optional<std::string>& network, int limit,
                                      std::uint64_t offset) override;
  std::optional<NetworkCategory> find_category(const std::string& network,
                                               const std::string& external_id) override;
  std::optional<std::uint32_t> category_id(const std::string& path) override;
  void map_category(const std::string& network, const std::string& external_id,
                    std::optional<std::uint32_t> category_id) override;

 private:
  AdminDb& db_;
};

}  // namespace placard::db
