#pragma once
// Only lib/jobs/*.cpp include this header (it needs mysql_session.h).
#include <cstdint>
#include <vector>

#include "lib/db/mysql_session.h"
#include "lib/jobs/rate_limiter.h"
#include "lib/jobs/raw_events.h"

namespace placard::db {

// The per-client limits over the new rows (from, to] of impressions or clicks, in id order,
// inside the rollup pass's transaction: marks the rows over a limit `ignored = 'rate_limited'`,
// in the table and in `rows`. History, the counted events of the same client and offer at most
// the longest window before: for a pair that went over a limit lately, its row of
// `rate_limit_state` (sql/0015_limit_state.sql), which this pass brings up to date; for the
// others, their counted rows in the raw table (one range of the client key per pair: they have no
// marked row within reach, so the range holds at most a limit's worth).
void judge_limits(MysqlSession& s, const RawTable& t, std::uint64_t from, std::uint64_t to,
                  RateJudge& judge, std::vector<NewRow>& rows);

// Every window of `t` is off: its pairs' state is dropped, since passes that judge nothing do not
// keep it (the limits, once on again, read the raw table's history).
void forget_limit_state(MysqlSession& s, const RawTable& t);

}  // namespace placard::db
