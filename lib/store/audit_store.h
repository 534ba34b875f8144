#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace placard::db {

// One row of the audit log as the admin API shows it. Times are Unix seconds (UTC).
struct AuditEntry {
  std::uint64_t id = 0;
  std::int64_t at = 0;
  std::optional<std::uint64_t> account_id;
  std::optional<std::string> account_email;  // nullopt when there is no account (or it is gone)
  std::string action;
  std::string resource;
  std::optional<std::string> before_json;  // JSON texts as stored
  std::optional<std::string> after_json;
};

// The filters of GET /audit; each absent one does not filter.
struct AuditFilter {
  std::optional<std::uint64_t> account_id;
  std::optional<std::string> resource;       // exact, e.g. "category:books"
  std::optional<std::string> resource_type;  // "category": "category" and "category:..."
  std::optional<std::string> action;
  std::optional<std::int64_t> from;   // at >= from
  std::optional<std::int64_t> until;  // at < until
};

struct AuditPage {
  std::vector<AuditEntry> items;
  std::uint64_t total = 0;
};

// Reads the audit log (AdminTx::audit writes it).
class AuditStore {
 public:
  virtual ~AuditStore() = default;
  virtual std::optional<AuditEntry> find(std::uint64_t id) = 0;
  // Newest first.
  virtual AuditPage list(const AuditFilter& filter, int limit, std::uint64_t offset) = 0;
};

}  // namespace placard::db
