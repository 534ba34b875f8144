#include "lib/db/admin_db.h"

#include <ctime>

#include "lib/db/catalog_version.h"
#include "lib/db/transaction.h"

namespace placard::db {

namespace {
constexpr int kDuplicateKey = 1062;
constexpr int kRowReferenced = 1451;    // a delete or update of a parent row
constexpr int kNoReferencedRow = 1452;  // an insert or update of a child row
constexpr int kMaxAttempts = 3;

// Clears the flag however the work ends.
class FlagScope {
 public:
  explicit FlagScope(bool& flag) : flag_(flag) { flag_ = true; }
  ~FlagScope() { flag_ = false; }
  FlagScope(const FlagScope&) = delete;
  FlagScope& operator=(const FlagScope&) = delete;

 private:
  bool& flag_;
};
}  // namespace

void AdminDb::rethrow_constraint(const sql::SQLException& e) {
  const int code = e.getErrorCode();
  if (code == kDuplicateKey) throw DuplicateKey(e.what());
  if (code == kRowReferenced || code == kNoReferencedRow) throw ForeignKeyViolation(e.what());
}

void AdminDb::run(const std::function<void()>& work) {
  for (int attempt = 1;; ++attempt) {
    bool begun = false;
    try {
      Transaction tx(session_, Transaction::Mode::read_write, log_);
      begun = true;
      {
        const FlagScope scope(in_transaction_);
        work();
      }
      tx.commit();
      return;
    } catch (const sql::SQLException& e) {
      const int code = e.getErrorCode();
      if (MysqlSession::is_connection_error(code)) {
        session_.connection_lost(code);  // the node skipped when its server is gone
        // Nothing was done when the connection was found dead at BEGIN: try once more.
        if (!begun && attempt < 2) continue;
        throw DatabaseUnavailable(std::string("database unreachable: ") + e.what());
      }
      if (MysqlSession::is_transient_error(code)) {
        if (attempt < kMaxAttempts) continue;
        // Rolled back every time (deadlocks, Galera certification): busy, not broken.
        throw DatabaseUnavailable(std::string("write conflict, rolled back: ") + e.what());
      }
      rethrow_constraint(e);
      throw DatabaseError(std::string("SQL error ") + std::to_string(code) + ": " + e.what());
    }
  }
}

void AdminDb::audit(const AuditRecord& r) {
  call([&](MysqlSession& s) {
    auto& st = s.prepared(
        "INSERT INTO audit_log (account_id, action, target, before_json, after_json) "
        "VALUES (?, ?, ?, ?, ?)");
    if (r.account_id) {
      st.setUInt64(1, *r.account_id);
    } else {
      st.setNull(1, sql::DataType::BIGINT);
    }
    st.setString(2, r.action);
    st.setString(3, r.resource);
    if (r.before_json.empty()) {
      st.setNull(4, sql::DataType::LONGVARCHAR);
    } else {
      st.setString(4, r.before_json);
    }
    if (r.after_json.empty()) {
      st.setNull(5, sql::DataType::LONGVARCHAR);
    } else {
      st.setString(5, r.after_json);
    }
    st.executeUpdate();
  });
}

void AdminDb::bump_catalog_version() {
  call([](MysqlSession& s) { db::bump_catalog_version(s); });
}

std::string to_sql_datetime(std::int64_t unix_seconds) {
  const std::time_t t = unix_seconds;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  return buf;
}

}  // namespace placard::db
