#include "lib/db/mysql_accounts.h"

#include <stdexcept>

namespace placard::db {

namespace {
constexpr int kDuplicateKey = 1062;

void audit(MysqlSession& s, const std::string& action, const std::string& email) {
  auto& st = s.prepared(
      "INSERT INTO audit_log (account_id, action, target, after_json) VALUES "
      "(NULL, ?, CONCAT('account:', ?), JSON_OBJECT('by', 'placardctl'))");
  st.setString(1, action);
  st.setString(2, email);
  st.executeUpdate();
}
}  // namespace

std::uint64_t create_account(MysqlSession& session, const std::string& email,
                             const std::string& password_hash, bool approved) {
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
  audit(session, approved ? "account.create_approved" : "account.create", email);
  return id;
}

bool approve_account(MysqlSession& session, const std::string& email) {
  auto& st = session.prepared(
      "UPDATE accounts SET status = 'approved', approved_at = COALESCE(approved_at, "
      "UTC_TIMESTAMP()) "
      "WHERE email = ?");
  st.setString(1, email);
  st.executeUpdate();
  auto& check = session.prepared("SELECT 1 FROM accounts WHERE email = ?");
  check.setString(1, email);
  if (!query(check)->next()) return false;
  audit(session, "account.approve", email);
  return true;
}

}  // namespace placard::db
