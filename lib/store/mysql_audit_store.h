#pragma once
#include "lib/db/admin_db.h"
#include "lib/store/audit_store.h"

namespace placard::db {

class MysqlAuditStore : public AuditStore {
 public:
  explicit MysqlAuditStore(AdminDb& db) : db_(db) {}

  std::optional<AuditEntry> find(std::uint64_t id) override;
  AuditPage list(const AuditFilter& filter, int limit, std::uint64_t offset) override;

 private:
  AdminDb& db_;
};

}  // namespace placard::db
