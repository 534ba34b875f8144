#include "lib/db/transaction.h"

#include <memory>

namespace placard::db {

namespace {
void execute(MysqlSession& session, const char* sql) {
  const std::unique_ptr<sql::Statement> st(session.connection().createStatement());
  st->execute(sql);
}
}  // namespace

Transaction::Transaction(MysqlSession& session, Mode mode, Report on_rollback_error)
    : session_(session), on_rollback_error_(std::move(on_rollback_error)) {
  execute(session_, mode == Mode::read_only_snapshot
                        ? "START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY"
                        : "START TRANSACTION");
}

void Transaction::commit() {
  execute(session_, "COMMIT");
  done_ = true;
}

Transaction::~Transaction() {
  if (done_) return;
  try {
    execute(session_, "ROLLBACK");
  } catch (const std::exception& e) {
    // The first error is already on its way; this one is only worth a line in the log. A lost
    // connection took the transaction with it, so drop the connection to be safe.
    if (on_rollback_error_) on_rollback_error_(std::string("rollback failed: ") + e.what());
    session_.reset();
  }
}

}  // namespace placard::db
