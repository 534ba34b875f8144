#include "lib/jobs/account_expiry.h"

#include <algorithm>
#include <string>
#include <vector>

#include "lib/db/transaction.h"

namespace placard::db {

namespace {

// One batch in one transaction: the accounts are locked, audited, deleted. Returns how many.
std::uint64_t expire_batch(MysqlSession& s, int days, int batch) {
  Transaction tx(s);
  std::vector<std::uint64_t> ids;
  {
    auto& st = s.prepared(
        "SELECT id FROM accounts WHERE status = 'pending' AND approved_at IS NULL AND "
        "created_at < UTC_TIMESTAMP() - INTERVAL ? DAY ORDER BY id LIMIT " +
        std::to_string(std::max(1, batch)) + " FOR UPDATE");
    st.setInt(1, days);
    const auto rs = query(st);
    while (rs->next()) ids.push_back(rs->getUInt64(1));
  }
  for (const auto id : ids) {
    auto& audit = s.prepared(
        "INSERT INTO audit_log (account_id, action, target, before_json, after_json) "
        "SELECT NULL, 'account.expire', CONCAT('account:', id), "
        "JSON_OBJECT('id', CAST(id AS CHAR), 'email', email, 'status', status), NULL "
        "FROM accounts WHERE id = ?");
    audit.setUInt64(1, id);
    audit.executeUpdate();
    auto& del = s.prepared("DELETE FROM accounts WHERE id = ? AND status = 'pending'");
    del.setUInt64(1, id);
    del.executeUpdate();
  }
  tx.commit();
  return ids.size();
}

}  // namespace

std::uint64_t expire_pending_accounts(MysqlSession& session, int days, int batch) {
  return session.run(false, [&](MysqlSession& s) {
    std::uint64_t total = 0;
    for (;;) {
      const auto n = expire_batch(s, std::max(1, days), batch);
      total += n;
      if (n < static_cast<std::uint64_t>(std::max(1, batch))) break;
    }
    return total;
  });
}

}  // namespace placard::db
