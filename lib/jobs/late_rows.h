#pragma once
// Only lib/jobs/*.cpp include this header (it needs mysql_session.h).
#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "lib/db/mysql_session.h"
#include "lib/jobs/raw_events.h"

namespace placard::db {

// Rows that become visible below a pass's progress after the pass counted past them. A pass moves
// rollup_progress.last_id past every id it read, and waits first for the inserts in flight in its
// span (settled_span.h); what no read can wait for is a row not yet there: a multi-row insert that
// took its ids and then waited on a lock before writing, or on Galera a write set not yet
// replicated to the pass's node while the cluster evicts a node (docs/scaling.md). So each pass
// keeps which ids of its span it counted (rollup_spans, id_runs.h), and a span is looked at again
// once it is `after` old: rows in it now that it did not hold are counted then, once, and the
// span is deleted in the same transaction. A row that appears later than that is not counted.

// Keeps, in the pass's own transaction, the ids of (lo, hi] it counted (`rows`).
void record_span(MysqlSession& s, const RawTable& t, std::uint64_t lo, std::uint64_t hi,
                 const std::vector<NewRow>& rows);

// Under the rollup's lock: the spans of `t` counted at least `after` ago (at most 1,000 a call),
// in one transaction: counts the rows each holds now that it did not (by their `ignored` mark as
// it is; the per-client limits judged their neighbours already) and deletes the spans. Returns
// the rows counted late.
std::uint64_t count_late_rows(MysqlSession& s, const RawTable& t, std::chrono::seconds after);

// The lock-free question of an idle worker's pass (RollupJob): whether a span of `tables` counted
// at least `after` ago now holds more rows than it counted (a row count per span, by the primary
// key; a row deleted since and one come late in the same span cancel out, here and in the
// locked pass, which compares the ids only where the count differs).
// Spans found complete are remembered in `complete` (table, hi) and not counted again; they stay
// until the next locked pass deletes them, so an idle site only reads.
bool late_rows_due(MysqlSession& s, std::initializer_list<RawTable> tables,
                   std::chrono::seconds after,
                   std::set<std::pair<std::string, std::uint64_t>>& complete);

}  // namespace placard::db
