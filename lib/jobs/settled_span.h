#pragma once
// Only lib/jobs/*.cpp include this header (it needs mysql_session.h).
#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>

#include "lib/db/mysql_session.h"
#include "lib/jobs/raw_events.h"

namespace placard::db {

// The rows of a raw table a rollup pass may count: (last, upto], `last` being the table's
// rollup_progress and `upto` the newest row at least `settle` old, at most `max_rows` rows on.
struct SettledSpan {
  std::uint64_t last = 0;
  std::uint64_t upto = 0;
};

// An insert in the span that has not committed within `wait` (the rollup waits for it, and counts
// it once it commits).
class UncommittedInsert : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The span, once every row in it is committed; nullopt when no row is settled. A row takes its id
// when it is inserted and becomes visible when its transaction commits: a row whose commit came
// more than `settle` after its insert (a disk that stalls on fsync, a write conflict that waits)
// was invisible to a pass that moved past it, and never counted. So the span is read once more
// with a locking read in its own READ COMMITTED transaction, which waits for every insert still
// in flight in it (no gap locks: new inserts above it do not wait), up to `wait`; the pass's own
// transaction starts after it, and its read view holds every row of the span. Throws
// UncommittedInsert after `wait`, and what MysqlSession's statements throw.
std::optional<SettledSpan> settled_span(MysqlSession& s, const RawTable& t,
                                        std::chrono::milliseconds settle, std::uint64_t max_rows,
                                        std::chrono::seconds wait);

// Whether any of `tables` has a row at least `settle` old above its rollup_progress: what
// settled_span would find, asked with two plain reads and no lock (RollupJob asks it before it
// locks, rollup_step.h). A row that settles just after the answer waits for the next pass, as one
// that settles just after the settle query does.
bool any_settled_rows(MysqlSession& s, std::initializer_list<RawTable> tables,
                      std::chrono::milliseconds settle);

}  // namespace placard::db
