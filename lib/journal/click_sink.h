#pragma once
#include <vector>

#include "lib/store/event_store.h"

namespace placard::journal {

// Where replayed clicks go: the database (MysqlClickSink) or a test's fake. write() must be
// idempotent per token nonce (the normal path's dedup key: INSERT IGNORE on the unique nonce),
// so a replay cut short and run again never counts a click twice; it throws when the records
// could not be written (the database is still down): the journal keeps them.
class ClickSink {
 public:
  virtual ~ClickSink() = default;
  virtual void write(const std::vector<db::EventRecord>& records) = 0;
};

}  // namespace placard::journal
