#pragma once
// Only lib/{db,store,jobs,stats}/*.cpp and fcgi-app include this header (it needs mysql_session.h).
#include <functional>
#include <string>

#include "lib/db/admin_tx.h"
#include "lib/db/mysql_session.h"

namespace placard::db {

// A request thread's database for the admin API: its AdminTx (one transaction per write), and
// call() for every admin store's statements: inside run() they join the transaction (an error
// goes to run(), which rolls back); outside it they run alone, retried once on a lost
// connection. MySQL's duplicate key and foreign key errors become DuplicateKey and
// ForeignKeyViolation (409), connection errors DatabaseUnavailable (503), others DatabaseError.
class AdminDb : public AdminTx {
 public:
  using Report = std::function<void(const std::string&)>;
  AdminDb(MysqlSession& session, Report log) : session_(session), log_(std::move(log)) {}

  void run(const std::function<void()>& work) override;
  void audit(const AuditRecord& record) override;
  void bump_catalog_version() override;

  template <typename Work>
  auto call(Work&& work) -> decltype(work(std::declval<MysqlSession&>())) {
    if (in_transaction_) return work(session_);
    return session_.run(true, [&](MysqlSession& s) {
      try {
        return work(s);
      } catch (const sql::SQLException& e) {
        rethrow_constraint(e);
        throw;
      }
    });
  }

  MysqlSession& session() { return session_; }

 private:
  // Throws DuplicateKey / ForeignKeyViolation for those errors; returns for any other.
  static void rethrow_constraint(const sql::SQLException& e);

  MysqlSession& session_;
  Report log_;
  bool in_transaction_ = false;
};

// "YYYY-MM-DD HH:MM:SS" (UTC) as MySQL's DATETIME takes it, from Unix seconds.
std::string to_sql_datetime(std::int64_t unix_seconds);

}  // namespace placard::db
