#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace placard::db {

// One audit row. `before_json` / `after_json` are JSON texts (empty: NULL). Never a password,
// a session token or a network credential.
struct AuditRecord {
  std::optional<std::uint64_t> account_id;  // nullopt: no signed-in account (e.g. placardctl)
  std::string action;                       // e.g. "category.update"
  std::string resource;                     // e.g. "category:electronics.audio"
  std::string before_json;
  std::string after_json;
};

// The admin API's unit of work: every admin write runs its reads, writes, audit row and catalog
// version bump in one transaction, so a refusal or a failure half way changes nothing.
class AdminTx {
 public:
  virtual ~AdminTx() = default;
  // Runs work in one transaction: committed when work returns, rolled back when it throws (the
  // exception goes on). A deadlock or lock wait timeout runs work again (twice at most), so work
  // must read what it needs inside. A lost database: DatabaseUnavailable.
  virtual void run(const std::function<void()>& work) = 0;
  // Inside run(): one audit row.
  virtual void audit(const AuditRecord& record) = 0;
  // Inside run(): every worker on every host rebuilds its catalog snapshot after the commit.
  virtual void bump_catalog_version() = 0;
};

}  // namespace placard::db
