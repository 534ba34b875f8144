#pragma once
// Only lib/{db,store,jobs,stats}/*.cpp and fcgi-app include this header (it needs mysql_session.h).
#include <functional>
#include <string>

#include "lib/db/mysql_session.h"

namespace placard::db {

// One transaction on a session's connection: START TRANSACTION when made, COMMIT by commit(),
// ROLLBACK when it goes out of scope uncommitted (an exception, an early return). A rollback
// that fails (the connection is gone, taking the transaction with it) is reported through
// on_rollback_error and never replaces the error that is already on its way.
class Transaction {
 public:
  using Report = std::function<void(const std::string&)>;

  enum class Mode {
    read_write,          // START TRANSACTION
    read_only_snapshot,  // one read view for every statement, no writes
  };

  explicit Transaction(MysqlSession& session, Mode mode = Mode::read_write,
                       Report on_rollback_error = {});
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  Transaction(Transaction&&) = delete;
  Transaction& operator=(Transaction&&) = delete;

  void commit();
  bool committed() const { return done_; }

 private:
  MysqlSession& session_;
  Report on_rollback_error_;
  bool done_ = false;
};

}  // namespace placard::db
