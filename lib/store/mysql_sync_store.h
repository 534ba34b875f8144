#pragma once
// Only lib/{db,store,jobs,stats}/*.cpp, fcgi-app and placardctl include this header (it needs
// mysql_session.h).
#include <optional>

#include "lib/db/admin_db.h"
#include "lib/db/named_lock.h"
#include "lib/store/sync_store.h"

namespace placard::db {

// The sync job's store over one AdminDb (its own session: the named lock belongs to that
// connection). apply() writes in chunks of multi-row statements inside one transaction.
class MysqlSyncStore : public SyncStore {
 public:
  static constexpr const char* kLockName = "placard.network_sync";

  explicit MysqlSyncStore(AdminDb& db) : db_(db) {}

  bool try_lock() override;
  void unlock() override;
  std::uint32_t fail_interrupted_runs() override;
  std::optional<network::StoredCredentials> credentials(const std::string& network) override;
  std::uint64_t start_run(const std::string& network) override;
  void progress(std::uint64_t run_id, int pages_done, int pages_total) override;
  void finish_run(std::uint64_t run_id, bool succeeded, std::uint32_t seen,
                  const SyncCounts& counts, const std::optional<std::string>& error) override;
  std::map<std::string, std::optional<std::uint32_t>> category_map(
      const std::string& network) override;
  std::vector<network::ExistingOffer> imported_offers(const std::string& network) override;
  std::vector<std::string> country_codes() override;
  SyncCounts apply(const std::string& network, const network::SyncPlan& plan, std::uint64_t run_id,
                   std::optional<std::uint64_t> account_id) override;

 private:
  AdminDb& db_;
  std::optional<NamedLock> lock_;
};

}  // namespace placard::db
