#pragma once
// Only fcgi-app, placardctl and lib/journal/*.cpp include this header (it needs mysql_session.h).
#include <vector>

#include "lib/db/mysql_session.h"
#include "lib/journal/click_sink.h"

namespace placard::journal {

// Replayed clicks into the database, as the event writer records them: counted clicks with
// INSERT IGNORE into `clicks` (the unique token nonce decides: a click already recorded, by the
// normal path before the outage or by an earlier replay, is not counted again), clicks answered
// but not counted with INSERT IGNORE into `ignored_events` (once per token, kind and reason).
// One transaction per write, rows in nonce order (the event writer's order: no deadlocks with
// it). `clicked_at` is the replay's time: the rollup step's settle window relies on it being the
// insert's.
class MysqlClickSink : public ClickSink {
 public:
  explicit MysqlClickSink(db::MysqlSession& session) : session_(session) {}
  void write(const std::vector<db::EventRecord>& records) override;

 private:
  db::MysqlSession& session_;
};

}  // namespace placard::journal
