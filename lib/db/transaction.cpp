#include "lib/db/transaction.h"

#include <string>
#include <utility>

namespace placard::db {

Transaction::Transaction(MysqlSession& session, Mode mode, Report on_rollback_error)
    : session_(session), on_rollback_error_(std::move(on_rollback_error)) {
  session_.execute(mode == Mode::read_only_snapshot
                       ? "START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY"
                       : "START TRANSACTION");
}

void Transaction::commit() {
  session_.execute("COMMIT");
  done_ = true;
}

Transaction::~Transaction() {
  if (done_) return;
  try {
    session_.execute("ROLLBACK");
  } catch (const std::exception& e) {
    // The first error is already on its way; this one is only worth a line in the log. A lost
    // connection took the transaction with it, so drop the connection to be safe.
    if (on_rollback_error_) on_rollback_error_(std::string("rollback failed: ") + e.what());
    session_.reset();
  }
}

}  // namespace placard::db
