#include "lib/store/mysql_accounts.h"

#include <stdexcept>

#include "lib/db/transaction.h"

namespace placard::db {

namespace {

constexpr int kDuplicateKey = 1062;

// The account as audit rows show it: id (a string, as the admin API writes ids), email, status.
constexpr const char* kAuditJson =
    "JSON_OBJECT('id', CAST(id AS CHAR), 'email', email, 'status', status)";

struct Found {
  std::uint64_t id = 0;
  std::string status;
  std::string json;
};

// The account with that email, locked until the transaction ends.
std::optional<Found> find_for_update(MysqlSession& s, const std::string& email) {
  auto& st = s.prepared(std::string("SELECT id, status, ") + kAuditJson +
                        " FROM accounts WHERE email = ? FOR UPDATE");
  st.setString(1, email);
  const auto rs = query(st);
  if (!rs->next()) return std::nullopt;
  return Found{rs->getUInt64(1), rs->getString(2).asStdString(), rs->getString(3).asStdString()};
}

// The audit row: before as given (NULL when empty), after read from the row as it is now.
void audit(MysqlSession& s, const std::string& action, std::uint64_t id,
           const std::string& before_json) {
  auto& st = s.prepared(
      std::string("INSERT INTO audit_log (account_id, action, target, before_json, after_json) "
                  "SELECT NULL, ?, CONCAT('account:', id), NULLIF(?, ''), ") +
      kAuditJson + " FROM accounts WHERE id = ?");
  st.setString(1, action);
  st.setString(2, before_json);
  st.setUInt64(3, id);
  st.executeUpdate();
}

}  // namespace

std::uint64_t create_account(MysqlSession& session, const std::string& email,
                             const std::string& password_hash, bool approved) {
  Transaction tx(session);
  auto& st = session.prepared(
      "INSERT INTO accounts (email, password_hash, status, approved_at) VALUES "
      "(?, ?, ?, IF(? , UTC_TIMESTAMP(), NULL))");
  st.setString(1, email);
  st.setString(2, password_hash);
  st.setString(3, approved ? "approved" : "pending");
  st.setBoolean(4, approved);
  try {
    st.executeUpdate();
  } catch (const sql::SQLException& e) {
    if (e.getErrorCode() == kDuplicateKey)
      throw std::runtime_error("an account with that email exists");
    throw;
  }
  std::uint64_t id = 0;
  {
    const auto rs = query(session.prepared("SELECT LAST_INSERT_ID()"));
    if (rs->next()) id = rs->getUInt64(1);
  }
  audit(session, approved ? "account.create_approved" : "account.create", id, "");
  tx.commit();
  return id;
}

std::optional<StatusChange> approve_account(MysqlSession& session, const std::string& email) {
  Transaction tx(session);
  const auto found = find_for_update(session, email);
  if (!found) return std::nullopt;
  if (found->status == "approved") return StatusChange{found->id, false};
  auto& st = session.prepared(
      "UPDATE accounts SET status = 'approved', approved_at = COALESCE(approved_at, "
      "UTC_TIMESTAMP()), revoked_at = NULL WHERE id = ?");
  st.setUInt64(1, found->id);
  st.executeUpdate();
  audit(session, "account.approve", found->id, found->json);
  tx.commit();
  return StatusChange{found->id, true};
}

std::optional<StatusChange> revoke_account(MysqlSession& session, const std::string& email) {
  Transaction tx(session);
  const auto found = find_for_update(session, email);
  if (!found) return std::nullopt;
  // Sessions go even when the status already says revoked: none may outlive a revocation.
  auto& del = session.prepared("DELETE FROM sessions WHERE account_id = ?");
  del.setUInt64(1, found->id);
  del.executeUpdate();
  if (found->status == "revoked") {
    tx.commit();
    return StatusChange{found->id, false};
  }
  auto& st = session.prepared(
      "UPDATE accounts SET status = 'revoked', revoked_at = UTC_TIMESTAMP() WHERE id = ?");
  st.setUInt64(1, found->id);
  st.executeUpdate();
  audit(session, "account.revoke", found->id, found->json);
  tx.commit();
  return StatusChange{found->id, true};
}

}  // namespace placard::db
